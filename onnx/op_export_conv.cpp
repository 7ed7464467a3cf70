// The ONNX mapping of convolution and pooling (core/ops/kernels_conv.cpp, kernels_pool.cpp):
// Conv, MaxPool, AveragePool and GlobalAveragePool/GlobalMaxPool (and the activations
// hardtanh, relu6, elu, selu: Clip, Elu, Selu). ONNX pools and
// convolutions need a batch dim and constant hyperparameters; the forms ONNX has no
// equal for fail with a message: max_pool2d_with_indices (ONNX indices count over the
// whole tensor, PyTorch's within a plane), avg_pool with ceil_mode or
// divisor_override, adaptive pools to sizes other than 1.
#include "core/base/error.h"
#include "onnx/export_emitter.h"

namespace d2s::onnx_io {

namespace {

using N = const ir::Node&;

size_t spatial_of(N n) {
  return n.kind().find("1d") != std::string::npos ? 1 : 2;
}

// The node's batched input name; an unbatched input (rank spatial + 1) has no ONNX form.
std::string batched_input(Emitter& e, N n, size_t spatial) {
  int64_t rank = 0;
  if (!Emitter::rank_of(n.input(0), &rank) || rank != static_cast<int64_t>(spatial) + 2) {
    e.fail(n,
           n.kind() + " exports for a batched input of known rank " + std::to_string(spatial + 2) +
               " only",
           "give d2s export --inputs with a batch dim");
  }
  return e.name_as(n.input(0), DType::Float32);
}

// Input i as `spatial` ints (one int repeated); `fallback` when the node omits it.
std::vector<int64_t> ints_at(Emitter& e, N n, size_t i, size_t spatial,
                             std::vector<int64_t> fallback, const char* what) {
  if (i >= n.inputs().size()) return fallback;
  std::vector<int64_t> v;
  if (!Emitter::constant_ints(n.input(i), &v)) {
    int64_t one = 0;
    if (!Emitter::constant_int(n.input(i), &one)) {
      e.fail(n, std::string(what) + " of " + n.kind() + " must be constant for ONNX export");
    }
    v = {one};
  }
  if (v.empty()) return fallback;
  if (v.size() == 1) v.assign(spatial, v[0]);
  return v;
}

bool bool_at(Emitter& e, N n, size_t i, const char* what) {
  if (i >= n.inputs().size()) return false;
  const IValue* c = Emitter::constant(n.input(i));
  if (!c || !(c->is_bool() || c->is_int())) {
    e.fail(n, std::string(what) + " of " + n.kind() + " must be constant for ONNX export");
  }
  return c->is_bool() ? c->to_bool() : c->to_int() != 0;
}

std::vector<int64_t> both_ends(const std::vector<int64_t>& begin, const std::vector<int64_t>& end) {
  std::vector<int64_t> out = begin;
  out.insert(out.end(), end.begin(), end.end());
  return out;
}

void conv(Emitter& e, N n) {
  const size_t spatial = spatial_of(n);
  const std::string x = batched_input(e, n, spatial);
  const std::vector<int64_t> stride =
      ints_at(e, n, 3, spatial, std::vector<int64_t>(spatial, 1), "stride");
  const std::vector<int64_t> dilation =
      ints_at(e, n, 5, spatial, std::vector<int64_t>(spatial, 1), "dilation");
  int64_t groups = 1;
  if (n.inputs().size() > 6 && !Emitter::constant_int(n.input(6), &groups)) {
    e.fail(n, "groups of " + n.kind() + " must be constant for ONNX export");
  }
  std::vector<int64_t> begin(spatial, 0), end(spatial, 0);
  const IValue* padding = n.inputs().size() > 4 ? Emitter::constant(n.input(4)) : nullptr;
  // 'same' pads d * (k - 1) in all, the odd one at the end: ONNX's SAME_UPPER.
  const bool same = padding && padding->is_string() && padding->to_string() == "same";
  bool auto_pad = false;
  if (same) {
    // Explicit pads where the kernel size is known; else SAME_UPPER, which onnxruntime
    // runs without dilation only.
    const ir::Type& w = n.input(1)->type();
    bool known = w.shape && w.shape->size() == spatial + 2;
    for (size_t i = 0; known && i < spatial; ++i) known = (*w.shape)[2 + i].is_known();
    for (size_t i = 0; known && i < spatial; ++i) {
      const int64_t total = dilation[i] * ((*w.shape)[2 + i].size - 1);
      begin[i] = total / 2;
      end[i] = total - total / 2;
    }
    auto_pad = !known;
    for (int64_t d : dilation) {
      if (auto_pad && d != 1) {
        e.fail(n, "padding='same' with dilation exports only with a weight of known shape");
      }
    }
  } else if (!padding || !padding->is_string()) {
    begin = ints_at(e, n, 4, spatial, begin, "padding");
    end = begin;
  }
  std::vector<std::string> ins{x, e.name_as(n.input(1), DType::Float32)};
  if (n.inputs().size() > 2 && !Emitter::is_none(n.input(2))) {
    ins.push_back(e.name_as(n.input(2), DType::Float32));
  }
  e.bind(n.output(), e.add1("Conv", ins, [&](onnx::NodeProto* p) {
    attr_ints(p, "strides", stride);
    if (auto_pad) {
      auto* a = p->add_attribute();
      a->set_name("auto_pad");
      a->set_type(onnx::AttributeProto::STRING);
      a->set_s("SAME_UPPER");
    } else {
      attr_ints(p, "pads", both_ends(begin, end));
    }
    attr_ints(p, "dilations", dilation);
    attr_int(p, "group", groups);
  }));
}

void max_pool(Emitter& e, N n) {
  const size_t spatial = spatial_of(n);
  const std::string x = batched_input(e, n, spatial);
  const std::vector<int64_t> kernel = ints_at(e, n, 1, spatial, {}, "kernel_size");
  const std::vector<int64_t> stride = ints_at(e, n, 2, spatial, kernel, "stride");
  const std::vector<int64_t> pad =
      ints_at(e, n, 3, spatial, std::vector<int64_t>(spatial, 0), "padding");
  const std::vector<int64_t> dilation =
      ints_at(e, n, 4, spatial, std::vector<int64_t>(spatial, 1), "dilation");
  const bool ceil_mode = bool_at(e, n, 5, "ceil_mode");
  e.bind(n.output(), e.add1("MaxPool", {x}, [&](onnx::NodeProto* p) {
    attr_ints(p, "kernel_shape", kernel);
    attr_ints(p, "strides", stride);
    attr_ints(p, "pads", both_ends(pad, pad));
    attr_ints(p, "dilations", dilation);
    attr_int(p, "ceil_mode", ceil_mode);
  }));
}

void avg_pool(Emitter& e, N n) {
  const size_t spatial = spatial_of(n);
  const std::string x = batched_input(e, n, spatial);
  const std::vector<int64_t> kernel = ints_at(e, n, 1, spatial, {}, "kernel_size");
  const std::vector<int64_t> stride = ints_at(e, n, 2, spatial, kernel, "stride");
  const std::vector<int64_t> pad =
      ints_at(e, n, 3, spatial, std::vector<int64_t>(spatial, 0), "padding");
  if (bool_at(e, n, 4, "ceil_mode")) {
    e.fail(n,
           n.kind() + " with ceil_mode=True has no ONNX equal (its last window's divisor differs)");
  }
  const bool count_include_pad =
      n.inputs().size() > 5 ? bool_at(e, n, 5, "count_include_pad") : true;
  if (n.inputs().size() > 6 && !Emitter::is_none(n.input(6))) {
    e.fail(n, "avg_pool2d with divisor_override has no ONNX equal");
  }
  e.bind(n.output(), e.add1("AveragePool", {x}, [&](onnx::NodeProto* p) {
    attr_ints(p, "kernel_shape", kernel);
    attr_ints(p, "strides", stride);
    attr_ints(p, "pads", both_ends(pad, pad));
    attr_int(p, "count_include_pad", count_include_pad);
  }));
}

// An adaptive pool to size 1 in every spatial dim: the Global pool.
void global_pool(Emitter& e, N n, const char* op) {
  const size_t spatial = spatial_of(n);
  const std::string x = batched_input(e, n, spatial);
  for (int64_t s : ints_at(e, n, 1, spatial, {}, "output_size")) {
    if (s != 1) {
      e.fail(n, n.kind() + " exports for output_size 1 only (ONNX's " + op + ")",
             "use output_size=1, or (1, 1)");
    }
  }
  const std::string y = e.add1(op, {x});
  e.bind(n.output(0), y);
  if (n.outputs().size() > 1 && !n.output(1)->uses().empty()) {
    e.fail(n, "the indices of adaptive_max_pool2d have no ONNX equal");
  }
}

// hardtanh and relu6: Clip; elu (scale and input_scale 1): Elu; selu: Selu, whose ONNX
// defaults are PyTorch's constants.
void clip(Emitter& e, N n) {
  double lo = 0, hi = 6;
  if (n.kind() == "aten::hardtanh") {
    lo = -1;
    hi = 1;
    for (size_t i : {size_t{1}, size_t{2}}) {
      if (i >= n.inputs().size()) continue;
      const IValue* c = Emitter::constant(n.input(i));
      if (!c || !c->is_number()) e.fail(n, "hardtanh's bounds must be constant for ONNX export");
      (i == 1 ? lo : hi) = c->to_double();
    }
  }
  const std::string x = e.name_as(n.input(0), DType::Float32);
  e.bind(n.output(), e.add1("Clip", {x, e.const_scalar(lo, DType::Float32),
                                     e.const_scalar(hi, DType::Float32)}));
}

void elu(Emitter& e, N n) {
  double v[3] = {1, 1, 1};
  for (size_t i = 1; i < 4 && i < n.inputs().size(); ++i) {
    const IValue* c = Emitter::constant(n.input(i));
    if (!c || !c->is_number()) e.fail(n, "elu's coefficients must be constant for ONNX export");
    v[i - 1] = c->to_double();
  }
  if (v[1] != 1 || v[2] != 1)
    e.fail(n, "elu with scale or input_scale other than 1 has no ONNX equal");
  const std::string x = e.name_as(n.input(0), DType::Float32);
  e.bind(n.output(), e.add1("Elu", {x}, [&](onnx::NodeProto* p) {
    auto* a = p->add_attribute();
    a->set_name("alpha");
    a->set_type(onnx::AttributeProto::FLOAT);
    a->set_f(static_cast<float>(v[0]));
  }));
}

}  // namespace

void add_conv_pool_exports(std::map<std::string, ExportFn>& m) {
  m["aten::conv1d"] = conv;
  m["aten::conv2d"] = conv;
  m["aten::max_pool1d"] = max_pool;
  m["aten::max_pool2d"] = max_pool;
  m["aten::avg_pool1d"] = avg_pool;
  m["aten::avg_pool2d"] = avg_pool;
  m["aten::adaptive_avg_pool1d"] = [](Emitter& e, N n) { global_pool(e, n, "GlobalAveragePool"); };
  m["aten::adaptive_avg_pool2d"] = [](Emitter& e, N n) { global_pool(e, n, "GlobalAveragePool"); };
  m["aten::adaptive_max_pool2d"] = [](Emitter& e, N n) { global_pool(e, n, "GlobalMaxPool"); };
  m["aten::hardtanh"] = clip;
  m["aten::relu6"] = clip;
  m["aten::elu"] = elu;
  m["aten::selu"] = [](Emitter& e, N n) {
    e.bind(n.output(), e.add1("Selu", {e.name_as(n.input(0), DType::Float32)}));
  };
}

}  // namespace d2s::onnx_io
