// The ONNX layers d2s maps (op_import_util.h): activations, softmax, layer and batch
// normalisation, dropout, convolution and pooling. ONNX pads the two ends of a dim
// separately; PyTorch's convolution and pooling pad both ends alike, so a model whose
// pads differ is refused rather than run with other numbers.
#include <string>

#include "onnx/op_import_util.h"

namespace d2s::onnx_io::import_util {

namespace {

Outs softmax(I& m, Ins ins, const char* kind) {
  V x = in(m, ins, 0);
  return {typed(m.op(kind, {x, m.c_int(m.attr_int("axis", -1))}, DType::Float32), DType::Float32,
                known_shape(x))};
}

Outs layer_norm(I& m, Ins ins) {
  V x = in(m, ins, 0), scale = in(m, ins, 1);
  for (int i = 1; i < m.node().output_size(); ++i) {
    if (!m.node().output(i).empty())
      m.unsupported("its Mean/InvStdDev outputs", "LayerNormalization extra outputs");
  }
  int64_t r = need_rank(m, x);
  int64_t axis = m.attr_int("axis", -1);
  if (axis < 0) axis += r;
  auto s = known_shape(x);
  std::vector<int64_t> normalized;
  if (s) {
    normalized.assign(s->begin() + axis, s->end());
  } else if (auto ss = known_shape(scale); ss && static_cast<int64_t>(ss->size()) == r - axis) {
    normalized = *ss;
  }
  V shape_list = nullptr;
  if (normalized.empty()) {
    // The scale's own sizes, at run time (the scale spans the normalised dims).
    shape_list = m.op("aten::size", {scale}, std::nullopt);
    shape_list->set_type(ir::Type::list(ir::Type::of_int()));
  }
  V bias = given(ins, 2) ? ins[2] : m.c_none();
  return {typed(m.op("aten::layer_norm",
                     {x, shape_list ? shape_list : m.c_ints(normalized), scale, bias,
                      m.c_float(m.attr_float("epsilon", 1e-5f))},
                     DType::Float32),
                DType::Float32, s)};
}

Outs dropout(I& m, Ins ins) {
  if (given(ins, 2)) {
    const Tensor* t = m.known(ins[2]);
    if (!t || t->item() != 0) m.unsupported("dropout in training mode", "Dropout training");
  }
  if (m.node().output_size() > 1 && !m.node().output(1).empty()) {
    m.unsupported("the dropout mask output", "Dropout mask");
  }
  return {in(m, ins, 0)};
}

Outs leaky_relu(I& m, Ins ins) {
  V x = in(m, ins, 0);
  return {m.op("aten::leaky_relu", {x, m.c_float(m.attr_float("alpha", 0.01f))}, DType::Float32)};
}

// Activations written with d2s's elementwise ops.
Outs elu_like(I& m, Ins ins, float alpha, float gamma) {
  V x = in(m, ins, 0);
  DType d = DType::Float32;
  V pos = m.op("aten::gt", {x, m.c_float(0)}, DType::Bool);
  V neg =
      m.op("aten::mul",
           {m.op("aten::sub", {m.op("aten::exp", {x}, d), m.c_float(1)}, d), m.c_float(alpha)}, d);
  V y = m.op("aten::where", {pos, x, neg}, d);
  if (gamma != 1) y = m.op("aten::mul", {y, m.c_float(gamma)}, d);
  return {typed(y, d, known_shape(x))};
}

Outs hard_sigmoid(I& m, V x, float alpha, float beta) {
  DType d = DType::Float32;
  V y = m.op("aten::add", {m.op("aten::mul", {x, m.c_float(alpha)}, d), m.c_float(beta)}, d);
  return {typed(m.op("aten::clamp", {y, m.c_float(0), m.c_float(1)}, d), d, known_shape(x))};
}

Outs softsign(I& m, Ins ins) {
  V x = in(m, ins, 0);
  DType d = DType::Float32;
  V den = m.op("aten::add", {m.op("aten::abs", {x}, d), m.c_float(1)}, d);
  return {typed(m.op("aten::div", {x, den}, d), d, known_shape(x))};
}

Outs thresholded_relu(I& m, Ins ins) {
  V x = in(m, ins, 0);
  DType d = DType::Float32;
  V keep = m.op("aten::gt", {x, m.c_float(m.attr_float("alpha", 1))}, DType::Bool);
  return {typed(m.op("aten::where", {keep, x, m.c_float(0)}, d), d, known_shape(x))};
}

Outs prelu(I& m, Ins ins) {
  V x = in(m, ins, 0), slope = in(m, ins, 1);
  DType d = DType::Float32;
  auto xs = known_shape(x), ss = known_shape(slope);
  if (xs && ss && ss->size() == 1 && (*ss)[0] != 1 && xs->size() > 2 && xs->back() != (*ss)[0]) {
    // Per-channel slopes against dim 1: the broadcasting of PReLU before opset 7.
    m.unsupported("a per-channel slope broadcast the pre-opset-7 way", "PReLU old broadcasting");
  }
  V pos = m.op("aten::gt", {x, m.c_float(0)}, DType::Bool);
  return {m.op("aten::where", {pos, x, m.op("aten::mul", {x, slope}, d)}, d)};
}

Outs batch_norm(I& m, Ins ins) {
  if (m.attr_int("training_mode", 0)) m.unsupported("training mode", "BatchNormalization training");
  for (int i = 1; i < m.node().output_size(); ++i) {
    if (!m.node().output(i).empty())
      m.unsupported("running statistics outputs", "BatchNormalization outputs");
  }
  V x = in(m, ins, 0);
  int64_t r = need_rank(m, x);
  DType d = DType::Float32;
  // Each per-channel vector reshaped to [C, 1, ...] to broadcast over [N, C, ...].
  auto per_channel = [&](V v) {
    std::vector<int64_t> shape = {-1};
    for (int64_t i = 2; i < r; ++i) shape.push_back(1);
    return m.op("aten::reshape", {v, m.c_ints(shape)}, d);
  };
  V scale = per_channel(in(m, ins, 1)), bias = per_channel(in(m, ins, 2));
  V mean = per_channel(in(m, ins, 3)), var = per_channel(in(m, ins, 4));
  V den = m.op("aten::sqrt",
               {m.op("aten::add", {var, m.c_float(m.attr_float("epsilon", 1e-5f))}, d)}, d);
  V y = m.op("aten::div", {m.op("aten::sub", {x, mean}, d), den}, d);
  y = m.op("aten::add", {m.op("aten::mul", {y, scale}, d), bias}, d);
  return {typed(y, d, known_shape(x))};
}

// The number of spatial dims of a conv/pool input: [N, C, L] or [N, C, H, W].
size_t spatial_dims(I& m, V x, const std::string& op) {
  const int64_t r = need_rank(m, x);
  if (r != 3 && r != 4) {
    m.unsupported("a " + std::to_string(r - 2) + "-d " + op + " (d2s has 1-d and 2-d)",
                  op + " " + std::to_string(r - 2) + "-d");
  }
  return static_cast<size_t>(r - 2);
}

// A per-spatial-dim attribute (strides, dilations, kernel_shape), `dflt` when absent.
std::vector<int64_t> per_dim(I& m, const char* name, size_t spatial, int64_t dflt) {
  std::vector<int64_t> v = m.attr_ints(name);
  if (v.empty() && !m.has_attr(name)) return std::vector<int64_t>(spatial, dflt);
  if (v.size() != spatial) {
    m.fail(std::string(name) + " has " + std::to_string(v.size()) + " values for " +
           std::to_string(spatial) + " spatial dims");
  }
  return v;
}

// The padding of each spatial dim from `pads` and `auto_pad` (VALID or NOTSET; the SAME
// modes are the callers' to handle).
std::vector<int64_t> symmetric_pads(I& m, size_t spatial) {
  const std::string auto_pad = m.attr_string("auto_pad", "NOTSET");
  if (auto_pad == "VALID") return std::vector<int64_t>(spatial, 0);
  if (auto_pad != "NOTSET") m.unsupported("auto_pad " + auto_pad, "auto_pad " + auto_pad);
  std::vector<int64_t> pads = m.attr_ints("pads");
  if (pads.empty()) return std::vector<int64_t>(spatial, 0);
  if (pads.size() != 2 * spatial) {
    m.fail("pads has " + std::to_string(pads.size()) + " values for " + std::to_string(spatial) +
           " spatial dims");
  }
  for (size_t i = 0; i < spatial; ++i) {
    if (pads[i] != pads[i + spatial]) {
      m.unsupported("different padding at the two ends of a dim", "asymmetric pads");
    }
  }
  pads.resize(spatial);
  return pads;
}

void need_float(I& m, V x) {
  if (I::dtype(x) != DType::Float32) m.unsupported("non-float input", "int/bool input");
}

Outs conv(I& m, Ins ins) {
  V x = in(m, ins, 0), w = in(m, ins, 1);
  need_float(m, x);
  const size_t spatial = spatial_dims(m, x, "Conv");
  const std::string kind = spatial == 1 ? "aten::conv1d" : "aten::conv2d";
  const std::vector<int64_t> strides = per_dim(m, "strides", spatial, 1);
  const std::vector<int64_t> dilations = per_dim(m, "dilations", spatial, 1);
  V bias = given(ins, 2) ? ins[2] : m.c_none();
  V padding = nullptr;
  const std::string auto_pad = m.attr_string("auto_pad", "NOTSET");
  if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
    // PyTorch's padding='same' puts an odd total's extra element at the end, as
    // SAME_UPPER does, and takes stride 1 only.
    bool unit_strides =
        std::all_of(strides.begin(), strides.end(), [](int64_t s) { return s == 1; });
    if (auto_pad == "SAME_LOWER" || !unit_strides) {
      m.unsupported("auto_pad " + auto_pad + (unit_strides ? "" : " with a stride"),
                    "auto_pad " + auto_pad);
    }
    padding = m.constant(IValue(std::string("same")));
  } else {
    padding = m.c_ints(symmetric_pads(m, spatial));
  }
  return {m.op(kind,
               {x, w, bias, m.c_ints(strides), padding, m.c_ints(dilations),
                m.c_int(m.attr_int("group", 1))},
               DType::Float32)};
}

// PyTorch pads a pool by at most half its (dilated) window.
void check_pool_pads(I& m, const std::vector<int64_t>& kernel, const std::vector<int64_t>& pads,
                     const std::vector<int64_t>& dilations) {
  for (size_t i = 0; i < kernel.size(); ++i) {
    if (pads[i] * 2 > dilations[i] * (kernel[i] - 1) + 1) {
      m.unsupported("padding more than half the pooling window", "pool pads over half");
    }
  }
}

Outs max_pool(I& m, Ins ins) {
  V x = in(m, ins, 0);
  need_float(m, x);
  if (m.node().output_size() > 1 && !m.node().output(1).empty()) {
    m.unsupported("the Indices output", "MaxPool indices");
  }
  const size_t spatial = spatial_dims(m, x, "MaxPool");
  const std::vector<int64_t> kernel = m.attr_ints("kernel_shape");
  if (kernel.size() != spatial) m.fail("kernel_shape must give each spatial dim");
  const std::vector<int64_t> dilations = per_dim(m, "dilations", spatial, 1);
  const std::vector<int64_t> pads = symmetric_pads(m, spatial);
  check_pool_pads(m, kernel, pads, dilations);
  return {m.op(spatial == 1 ? "aten::max_pool1d" : "aten::max_pool2d",
               {x, m.c_ints(kernel), m.c_ints(per_dim(m, "strides", spatial, 1)), m.c_ints(pads),
                m.c_ints(dilations), m.c_bool(m.attr_int("ceil_mode", 0))},
               DType::Float32)};
}

Outs average_pool(I& m, Ins ins) {
  V x = in(m, ins, 0);
  need_float(m, x);
  const size_t spatial = spatial_dims(m, x, "AveragePool");
  const std::vector<int64_t> kernel = m.attr_ints("kernel_shape");
  if (kernel.size() != spatial) m.fail("kernel_shape must give each spatial dim");
  const std::vector<int64_t> dilations = per_dim(m, "dilations", spatial, 1);
  for (int64_t d : dilations) {
    if (d != 1) m.unsupported("a dilated average pool", "AveragePool dilations");
  }
  if (m.attr_int("ceil_mode", 0)) {
    // The last, partial window's divisor is not PyTorch's.
    m.unsupported("ceil_mode", "AveragePool ceil_mode");
  }
  const std::vector<int64_t> pads = symmetric_pads(m, spatial);
  check_pool_pads(m, kernel, pads, dilations);
  std::vector<V> args = {x,
                         m.c_ints(kernel),
                         m.c_ints(per_dim(m, "strides", spatial, 1)),
                         m.c_ints(pads),
                         m.c_bool(false),
                         m.c_bool(m.attr_int("count_include_pad", 0))};
  return {m.op(spatial == 1 ? "aten::avg_pool1d" : "aten::avg_pool2d", args, DType::Float32)};
}

// GlobalAveragePool/GlobalMaxPool: a reduction over every spatial dim, kept as size 1.
Outs global_pool(I& m, Ins ins, bool max) {
  V x = in(m, ins, 0);
  need_float(m, x);
  const int64_t r = need_rank(m, x);
  if (r < 3) m.fail("the input needs a batch, a channel and a spatial dim");
  std::vector<int64_t> dims;
  for (int64_t d = 2; d < r; ++d) dims.push_back(d);
  return {
      m.op(max ? "aten::amax" : "aten::mean", {x, m.c_ints(dims), m.c_bool(true)}, DType::Float32)};
}

}  // namespace

void add_nn_imports(std::map<std::string, ImportFn>& m) {
  m["Softmax"] = [](I& m, Ins ins) { return softmax(m, ins, "aten::softmax"); };
  m["LogSoftmax"] = [](I& m, Ins ins) { return softmax(m, ins, "aten::log_softmax"); };
  m["LayerNormalization"] = layer_norm;
  m["Dropout"] = dropout;
  m["LeakyRelu"] = leaky_relu;
  m["Elu"] = [](I& m, Ins ins) { return elu_like(m, ins, m.attr_float("alpha", 1), 1); };
  m["Selu"] = [](I& m, Ins ins) {
    return elu_like(m, ins, m.attr_float("alpha", 1.67326319f), m.attr_float("gamma", 1.05070102f));
  };
  m["HardSigmoid"] = [](I& m, Ins ins) {
    return hard_sigmoid(m, in(m, ins, 0), m.attr_float("alpha", 0.2f), m.attr_float("beta", 0.5f));
  };
  m["HardSwish"] = [](I& m, Ins ins) -> Outs {
    V x = in(m, ins, 0);
    V h = hard_sigmoid(m, x, 1.0f / 6, 0.5f)[0];
    return {typed(m.op("aten::mul", {x, h}, DType::Float32), DType::Float32, known_shape(x))};
  };
  m["Softsign"] = softsign;
  m["ThresholdedRelu"] = thresholded_relu;
  m["PRelu"] = prelu;
  m["BatchNormalization"] = batch_norm;
  m["Conv"] = conv;
  m["MaxPool"] = max_pool;
  m["AveragePool"] = average_pool;
  m["GlobalAveragePool"] = [](I& m, Ins ins) { return global_pool(m, ins, false); };
  m["GlobalMaxPool"] = [](I& m, Ins ins) { return global_pool(m, ins, true); };
}

}  // namespace d2s::onnx_io::import_util
