// The ONNX mapping of transposed convolution, resampling, pixel shuffling and padding
// (core/ops/kernels_conv_transpose.cpp, kernels_resize.cpp, kernels_pad.cpp):
// - conv_transpose1d/2d: ConvTranspose (pads, output_padding, dilations, group).
// - upsample_nearest*: Resize mode nearest, coordinates "asymmetric", nearest_mode
//   "floor" (PyTorch's floor(dst * in / out), or dst / scale_factor).
// - upsample_linear1d / bilinear2d / trilinear3d: Resize mode linear, "align_corners" or
//   "half_pixel" (PyTorch's (dst + 0.5) / scale - 0.5, clamped at 0 as ONNX's linear
//   resize clamps); upsample_bicubic2d: Resize mode cubic with cubic_coeff_a -0.75
//   (PyTorch's), the same coordinate modes.
//   A scale_factor goes to Resize as its scales ([1, 1, s...]), a size as its sizes
//   (the input's batch and channels from Shape, then the size).
// - __interpolate (the parse route's F.interpolate): the Resize of the op it chooses.
// - pixel_shuffle: DepthToSpace in mode CRD, PyTorch's channel order (c * r * r +
//   i * r + j). pixel_unshuffle: Reshape-Transpose-Reshape (shapes from Shape), since
//   SpaceToDepth has only the DCR order.
// - pad: Pad in mode constant, reflect or edge (replicate); circular has no ONNX equal
//   before opset 19.
#include <optional>

#include "core/base/error.h"
#include "core/ops/interpolate.h"
#include "onnx/export_emitter.h"

namespace d2s::onnx_io {

namespace {

using N = const ir::Node&;

// The input's name for an op that needs a batched input of rank `rank`.
std::string input_of_rank(Emitter& e, N n, int64_t rank) {
  int64_t got = 0;
  if (!Emitter::rank_of(n.input(0), &got) || got != rank) {
    e.fail(
        n,
        n.kind() + " exports for a batched input of known rank " + std::to_string(rank) + " only",
        "give d2s export --inputs with a batch dim");
  }
  return e.name_as(n.input(0), DType::Float32);
}

std::vector<int64_t> ints_at(Emitter& e, N n, size_t i, size_t count, int64_t fallback,
                             const char* what) {
  if (i >= n.inputs().size()) return std::vector<int64_t>(count, fallback);
  std::vector<int64_t> v;
  if (!Emitter::constant_ints(n.input(i), &v)) {
    e.fail(n, std::string(what) + " of " + n.kind() + " must be constant for ONNX export");
  }
  if (v.size() == 1) v.assign(count, v[0]);
  return v;
}

// Input i as a constant value: a constant, or a list or tuple written out of constants
// ([2.0, 2.0]); null when it is neither.
std::optional<IValue> constant_at(Emitter& e, N n, size_t i) {
  if (i >= n.inputs().size()) return std::nullopt;
  if (const IValue* c = Emitter::constant(n.input(i))) return *c;
  const ir::Node* p = n.input(i)->node();
  if (p->kind() != ir::kind::ListConstruct && p->kind() != ir::kind::TupleConstruct) {
    return std::nullopt;
  }
  ValueList items;
  for (const ir::Value* v : e.list_items(n.input(i), n)) {
    const IValue* c = Emitter::constant(v);
    if (!c) return std::nullopt;
    items.push_back(*c);
  }
  return IValue::list(std::move(items));
}

void conv_transpose(Emitter& e, N n) {
  const size_t spatial = n.kind().find("1d") != std::string::npos ? 1 : 2;
  const std::string x = input_of_rank(e, n, static_cast<int64_t>(spatial) + 2);
  const std::vector<int64_t> stride = ints_at(e, n, 3, spatial, 1, "stride");
  std::vector<int64_t> pads = ints_at(e, n, 4, spatial, 0, "padding");
  const std::vector<int64_t> output_padding = ints_at(e, n, 5, spatial, 0, "output_padding");
  int64_t groups = 1;
  if (n.inputs().size() > 6 && !Emitter::constant_int(n.input(6), &groups)) {
    e.fail(n, "groups of " + n.kind() + " must be constant for ONNX export");
  }
  const std::vector<int64_t> dilation = ints_at(e, n, 7, spatial, 1, "dilation");
  pads.insert(pads.end(), pads.begin(), pads.end());
  std::vector<std::string> ins{x, e.name_as(n.input(1), DType::Float32)};
  if (n.inputs().size() > 2 && !Emitter::is_none(n.input(2))) {
    ins.push_back(e.name_as(n.input(2), DType::Float32));
  }
  e.bind(n.output(), e.add1("ConvTranspose", ins, [&](onnx::NodeProto* p) {
    attr_ints(p, "strides", stride);
    attr_ints(p, "pads", pads);
    attr_ints(p, "output_padding", output_padding);
    attr_ints(p, "dilations", dilation);
    attr_int(p, "group", groups);
  }));
}

void attr_string(onnx::NodeProto* p, const char* name, const std::string& value) {
  auto* a = p->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::STRING);
  a->set_s(value);
}

// Resize of `x` for PyTorch's resampling: by `scales` (a float list, one per spatial
// dim) when given, else to the spatial sizes `out`. `mode` is ONNX's: nearest, linear or
// cubic (PyTorch's A = -0.75; its taps past the border read the border, as ONNX's with
// exclude_outside 0).
void emit_resize(Emitter& e, N n, const std::string& x, const std::string& mode, bool align_corners,
                 const IValue& scales_value, const std::vector<int64_t>& out) {
  const bool linear = mode != "nearest";
  std::string scales, sizes;
  if (scales_value.is_list()) {
    std::vector<float> s{1.0f, 1.0f};
    for (const IValue& v : scales_value.items()) s.push_back(static_cast<float>(v.to_double()));
    scales = e.const_tensor(Tensor::from_floats({static_cast<int64_t>(s.size())}, s));
  } else {
    const std::string shape = e.add1("Shape", {x});
    const std::string lead =
        e.add1("Slice", {shape, e.const_ints({0}), e.const_ints({2}), e.const_ints({0})});
    sizes = e.add1("Concat", {lead, e.const_ints(out)},
                   [](onnx::NodeProto* p) { attr_int(p, "axis", 0); });
  }
  std::vector<std::string> ins{x, "", scales};
  if (!sizes.empty()) ins.push_back(sizes);
  e.bind(n.output(), e.add1("Resize", ins, [&](onnx::NodeProto* p) {
    attr_string(p, "mode", mode);
    if (mode == "cubic") attr_float(p, "cubic_coeff_a", -0.75f);
    attr_string(p, "coordinate_transformation_mode",
                !linear         ? "asymmetric"
                : align_corners ? "align_corners"
                                : "half_pixel");
    if (!linear) attr_string(p, "nearest_mode", "floor");
  }));
}

// The ONNX Resize mode of a resampling op's name.
std::string resize_mode(const std::string& op) {
  if (op.find("bicubic") != std::string::npos) return "cubic";
  return op.find("linear") != std::string::npos ? "linear" : "nearest";
}

void resample(Emitter& e, N n) {
  const std::string mode = resize_mode(n.kind());
  const bool linear = mode != "nearest";
  const size_t spatial = n.kind().find("1d") != std::string::npos   ? 1
                         : n.kind().find("3d") != std::string::npos ? 3
                                                                    : 2;
  const std::string x = input_of_rank(e, n, static_cast<int64_t>(spatial) + 2);
  const size_t scales_at = linear ? 3 : 2;
  bool align_corners = false;
  if (linear) {
    const IValue* c = Emitter::constant(n.input(2));
    if (!c || !c->is_bool()) e.fail(n, "align_corners of " + n.kind() + " must be constant");
    align_corners = c->to_bool();
  }
  const std::optional<IValue> scale_value = constant_at(e, n, scales_at);
  std::vector<int64_t> out;
  if (!(scale_value && scale_value->is_list()) && !Emitter::constant_ints(n.input(1), &out)) {
    e.fail(n, "the output size of " + n.kind() + " must be constant for ONNX export");
  }
  emit_resize(e, n, x, mode, align_corners, scale_value ? *scale_value : IValue(), out);
}

// aten::__interpolate: the op core/ops/interpolate.h chooses for the input's rank.
void interpolate(Emitter& e, N n) {
  int64_t rank = 0;
  if (!Emitter::rank_of(n.input(0), &rank)) {
    e.fail(n, "aten::__interpolate exports for an input of known rank only",
           "give d2s export --inputs");
  }
  static const IValue kDefaults[] = {
      IValue(), IValue(), IValue(),     IValue(std::string("nearest")),
      IValue(), IValue(), IValue(false)};
  ValueList v;
  for (size_t i = 1; i <= 6; ++i) {
    if (i >= n.inputs().size()) {
      v.push_back(kDefaults[i]);
      continue;
    }
    const std::optional<IValue> c = constant_at(e, n, i);
    if (!c) e.fail(n, "the arguments of F.interpolate must be constant for ONNX export");
    v.push_back(*c);
  }
  InterpolateOp op;
  try {
    op = interpolate_op(rank, "", v[0], v[1], v[2], v[3], v[4], v[5]);
  } catch (const Error& err) {
    e.fail(n, err.message());
  }
  if (op.op.find("upsample") == std::string::npos) {
    e.fail(n, "F.interpolate with mode='area' has no ONNX mapping in d2s");
  }
  const std::string mode = resize_mode(op.op);
  const std::string x = e.name_as(n.input(0), DType::Float32);
  std::vector<int64_t> out;
  if (op.args[0].is_list()) out = op.args[0].to_int_list();
  emit_resize(e, n, x, mode, mode != "nearest" && op.args[1].to_bool(), op.args.back(), out);
}

void pixel_shuffle(Emitter& e, N n) {
  const std::string x = input_of_rank(e, n, 4);
  int64_t r = 0;
  if (!Emitter::constant_int(n.input(1), &r)) {
    e.fail(n, "the factor of " + n.kind() + " must be constant for ONNX export");
  }
  if (n.kind() == "aten::pixel_shuffle") {
    e.bind(n.output(), e.add1("DepthToSpace", {x}, [&](onnx::NodeProto* p) {
      attr_int(p, "blocksize", r);
      attr_string(p, "mode", "CRD");
    }));
    return;
  }
  // pixel_unshuffle: [N, C, H/r, r, W/r, r] -> [N, C, r, r, H/r, W/r] -> [N, C*r*r, H/r, W/r],
  // the shapes computed from the input's Shape (its sizes may be free).
  auto slice = [&](const std::string& v, int64_t from, int64_t to) {
    return e.add1("Slice", {v, e.const_ints({from}), e.const_ints({to}), e.const_ints({0})});
  };
  const std::string small = e.add1("Div", {e.add1("Shape", {x}), e.const_ints({1, 1, r, r})});
  const std::string six = e.add1(
      "Concat", {slice(small, 0, 3), e.const_ints({r}), slice(small, 3, 4), e.const_ints({r})},
      [](onnx::NodeProto* p) { attr_int(p, "axis", 0); });
  const std::string moved =
      e.add1("Transpose", {e.add1("Reshape", {x, six})}, [](onnx::NodeProto* p) {
        attr_ints(p, "perm", {0, 1, 3, 5, 2, 4});
      });
  const std::string four = e.add1("Mul", {small, e.const_ints({1, r * r, 1, 1})});
  e.bind(n.output(), e.add1("Reshape", {moved, four}));
}

void pad(Emitter& e, N n) {
  int64_t rank = 0;
  if (!Emitter::rank_of(n.input(0), &rank)) {
    e.fail(n, "aten::pad exports for an input of known rank only", "give d2s export --inputs");
  }
  std::vector<int64_t> pad;
  if (!Emitter::constant_ints(n.input(1), &pad)) {
    e.fail(n, "the padding of aten::pad must be constant for ONNX export");
  }
  std::string mode = "constant";
  if (n.inputs().size() > 2) {
    const IValue* m = Emitter::constant(n.input(2));
    if (!m || !m->is_string()) e.fail(n, "the mode of aten::pad must be constant");
    mode = m->to_string();
  }
  double value = 0;
  if (n.inputs().size() > 3 && !Emitter::is_none(n.input(3))) {
    value = need_number(e, n, 3, "value");
  }
  if (mode == "circular") {
    e.fail(n, "aten::pad with mode='circular' has no ONNX equal before opset 19",
           "use mode 'constant', 'reflect' or 'replicate'");
  }
  if (pad.size() % 2 != 0 || static_cast<int64_t>(pad.size()) > 2 * rank) {
    e.fail(n, "aten::pad's padding must hold two values per padded dim");
  }
  // PyTorch lists (before, after) from the last dim backwards; ONNX all begins then all
  // ends, from the first dim.
  std::vector<int64_t> pads(static_cast<size_t>(2 * rank), 0);
  for (size_t d = 0; d < pad.size() / 2; ++d) {
    const size_t axis = static_cast<size_t>(rank) - 1 - d;
    pads[axis] = pad[2 * d];
    pads[axis + static_cast<size_t>(rank)] = pad[2 * d + 1];
  }
  std::vector<std::string> ins{e.name_as(n.input(0), DType::Float32), e.const_ints(pads)};
  if (mode == "constant") ins.push_back(e.const_scalar(value, DType::Float32));
  const std::string onnx_mode = mode == "replicate" ? "edge" : mode;
  e.bind(n.output(),
         e.add1("Pad", ins, [&](onnx::NodeProto* p) { attr_string(p, "mode", onnx_mode); }));
}

}  // namespace

void add_resize_exports(std::map<std::string, ExportFn>& m) {
  m["aten::conv_transpose1d"] = conv_transpose;
  m["aten::conv_transpose2d"] = conv_transpose;
  for (const char* k :
       {"aten::upsample_nearest1d", "aten::upsample_nearest2d", "aten::upsample_linear1d",
        "aten::upsample_bilinear2d", "aten::upsample_bicubic2d", "aten::upsample_trilinear3d"}) {
    m[k] = resample;
  }
  m["aten::__interpolate"] = interpolate;
  m["aten::pixel_shuffle"] = pixel_shuffle;
  m["aten::pixel_unshuffle"] = pixel_shuffle;
  m["aten::pad"] = pad;
}

}  // namespace d2s::onnx_io
