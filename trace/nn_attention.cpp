// nn.MultiheadAttention and the nn.Transformer* layers in the interpreter (see
// nn_attention.h): constructors as PyTorch 1.13's (their checks,
// attributes, submodules in its registration order, _reset_parameters' xavier_uniform_
// for the in-projection, zeros for its bias and out_proj's bias, xavier_normal_ for
// bias_k/bias_v), and forwards through trace/attention_forward.h with every op run by
// Interpreter::call_op, so a trace records them.
#include "trace/nn_attention.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "trace/attention_forward.h"

namespace d2s::interp {

namespace {

const char* const kClasses[] = {"MultiheadAttention", "TransformerEncoderLayer",
                                "TransformerEncoder", "TransformerDecoderLayer",
                                "TransformerDecoder", "Transformer"};

// The interpreter's builder for AttentionForward: values are IValues, ops run now.
struct InterpBuilder {
  using V = IValue;
  Interpreter& in;
  const InstanceValue& m;
  const SourceRange& range;

  V op(const char* name, std::vector<V> args, std::vector<std::pair<std::string, V>> kw) {
    return in.call_op(name, ValueList(std::move(args)), Kwargs(std::move(kw)), range);
  }
  V k(IValue v) { return v; }
  V none() { return IValue(); }
  V list(std::vector<V> items) { return IValue::list(ValueList(std::move(items))); }
  V tuple(std::vector<V> items) { return IValue::tuple(ValueList(std::move(items))); }
  V item(const V& t, size_t i) {
    const ValueList* items = seq_items(t);
    if (!items || items->size() <= i) fail("TypeError: the attention's result is not a tuple");
    return (*items)[i];
  }
  V mul(const V& a, const V& c) { return in.binary(ast::BinOpKind::Mul, a, c, range); }
  V add(const V& a, const V& c) { return in.binary(ast::BinOpKind::Add, a, c, range); }
  bool is_none(const V& v) const { return v.is_none(); }
  bool same(const V& a, const V& c) const {
    return a.is_tensor() && c.is_tensor() && a.to_tensor().is_same(c.to_tensor());
  }
  std::optional<int64_t> rank(const V& v) const {
    if (!v.is_tensor()) return std::nullopt;
    return v.to_tensor().dim();
  }
  std::optional<DType> dtype(const V& v) const {
    if (!v.is_tensor()) return std::nullopt;
    return v.to_tensor().dtype();
  }
  std::optional<Shape> shape(const V& v) const {
    if (!v.is_tensor()) return std::nullopt;
    return v.to_tensor().shape();
  }
  std::optional<int64_t> int_value(const V& v) const {
    IValue c = in.concrete_silently(v);
    if (!c.is_int()) return std::nullopt;
    return c.to_int();
  }
  IValue walk(const std::vector<std::string>& path) {
    const InstanceValue* cur = &m;
    IValue v;
    for (size_t i = 0; i < path.size(); ++i) {
      const IValue* got = cur ? cur->get(path[i]) : nullptr;
      v = got ? *got : IValue();
      cur = i + 1 < path.size() ? as_obj<InstanceValue>(v) : nullptr;
    }
    return v;
  }
  V attr(const std::string& path) { return walk(attribute_path(path)); }
  V call(const std::vector<std::string>& path, std::vector<V> args,
         std::vector<std::pair<std::string, V>> kw) {
    return in.call_value(walk(path), ValueList(std::move(args)), Kwargs(std::move(kw)), range);
  }
  V dtype_const(DType d) { return make_dtype(d); }
  using C = bool;
  C rank_is(const V& v, int64_t n) const { return v.is_tensor() && v.to_tensor().dim() == n; }
  C dtype_is(const V& v, DType d) const { return v.is_tensor() && v.to_tensor().dtype() == d; }
  std::optional<bool> known(C c) const { return c; }
  template <class F, class G>
  V select(C c, F then_fn, G else_fn) {
    return c ? then_fn() : else_fn();
  }
  [[noreturn]] void fail(const std::string& message, const std::string& hint = "") const {
    in.fail(message, range, hint);
  }
};

int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

Tensor float_tensor(const Shape& shape, const SourceRange& range) {
  for (int64_t d : shape) {
    if (d < 0) {
      std::string dims = "[";
      for (size_t i = 0; i < shape.size(); ++i) dims += (i ? ", " : "") + std::to_string(shape[i]);
      throw Error("RuntimeError: Trying to create tensor with negative dimension " +
                      std::to_string(d) + ": " + dims + "]",
                  range);
    }
  }
  try {
    return Tensor::empty(shape, DType::Float32);
  } catch (const Error& e) {
    throw Error(e.message(), range, e.hint());
  }
}

// xavier_uniform_ (gain 1) of a 2-d weight [fan_out, fan_in].
IValue xavier_uniform(Interpreter& in, const Shape& shape, const SourceRange& range) {
  Tensor t = float_tensor(shape, range);
  const double fans = static_cast<double>(shape[0] + shape[1]);
  const float bound = fans > 0 ? static_cast<float>(std::sqrt(6.0 / fans)) : 0.0f;
  float* p = t.data<float>();
  for (int64_t i = 0; i < t.numel(); ++i) p[i] = (2.0f * in.generator().uniform() - 1.0f) * bound;
  return in.make_parameter(t, true, range);
}

// xavier_normal_ of bias_k / bias_v [1, 1, E]: fan_in = fan_out = E.
IValue xavier_normal_bias(Interpreter& in, int64_t E, const SourceRange& range) {
  Tensor t = float_tensor({1, 1, E}, range);
  const float std = E > 0 ? static_cast<float>(std::sqrt(2.0 / (2.0 * E))) : 0.0f;
  float* p = t.data<float>();
  for (int64_t i = 0; i < t.numel(); ++i) p[i] = in.generator().normal() * std;
  return in.make_parameter(t, true, range);
}

IValue zero_parameter(Interpreter& in, const Shape& shape, const SourceRange& range) {
  Tensor t = float_tensor(shape, range);
  std::fill_n(t.data<float>(), t.numel(), 0.0f);
  return in.make_parameter(t, true, range);
}

void construct_mha(Interpreter& in, const IValue& self, ValueList args, Kwargs kwargs,
                   const SourceRange& range) {
  ValueList a = bind_args("nn.MultiheadAttention",
                          {{"embed_dim", std::nullopt},
                           {"num_heads", std::nullopt},
                           {"dropout", IValue(0.0)},
                           {"bias", IValue(true)},
                           {"add_bias_kv", IValue(false)},
                           {"add_zero_attn", IValue(false)},
                           {"kdim", IValue()},
                           {"vdim", IValue()},
                           {"batch_first", IValue(false)},
                           {"device", IValue()},
                           {"dtype", IValue()}},
                          std::move(args), std::move(kwargs), range);
  auto set = [&](const std::string& name, IValue v) {
    in.setattr(self, name, std::move(v), range);
  };
  auto index = [&](const IValue& v, const char* what) {
    return in.to_index(v, PyConversion::Scalar, range, what);
  };
  const int64_t E = index(a[0], "embed_dim");
  const int64_t kdim = a[6].is_none() ? E : index(a[6], "kdim");
  const int64_t vdim = a[7].is_none() ? E : index(a[7], "vdim");
  const int64_t H = index(a[1], "num_heads");
  std::optional<IValue> dropout = in.to_number(a[2], PyConversion::Scalar, range);
  if (!dropout) in.fail("TypeError: dropout must be a number", range);
  const bool same = kdim == E && vdim == E;
  set("embed_dim", IValue(E));
  set("kdim", IValue(kdim));
  set("vdim", IValue(vdim));
  set("_qkv_same_embed_dim", IValue(same));
  set("num_heads", IValue(H));
  set("dropout", IValue(dropout->to_double()));
  set("batch_first", IValue(in.truthy(a[8], range)));
  if (H == 0) in.fail("ZeroDivisionError: integer division or modulo by zero", range);
  const int64_t head_dim = floor_div(E, H);
  set("head_dim", IValue(head_dim));
  if (head_dim * H != E) in.fail("AssertionError: embed_dim must be divisible by num_heads", range);
  if (!same) {
    set("q_proj_weight", xavier_uniform(in, {E, E}, range));
    set("k_proj_weight", xavier_uniform(in, {E, kdim}, range));
    set("v_proj_weight", xavier_uniform(in, {E, vdim}, range));
    set("in_proj_weight", IValue());
  } else {
    set("in_proj_weight", xavier_uniform(in, {3 * E, E}, range));
    set("q_proj_weight", IValue());
    set("k_proj_weight", IValue());
    set("v_proj_weight", IValue());
  }
  const bool bias = in.truthy(a[3], range);
  set("in_proj_bias", bias ? zero_parameter(in, {3 * E}, range) : IValue());
  IValue out_proj =
      in.construct_nn("torch.nn.Linear", {IValue(E), IValue(E)}, {{"bias", IValue(bias)}}, range);
  auto* linear = as_obj<InstanceValue>(out_proj);
  linear->type = "NonDynamicallyQuantizableLinear";
  if (bias) {
    Tensor b = linear->get("bias")->to_tensor();
    std::fill_n(b.data<float>(), b.numel(), 0.0f);
  }
  set("out_proj", out_proj);
  if (in.truthy(a[4], range)) {
    set("bias_k", xavier_normal_bias(in, E, range));
    set("bias_v", xavier_normal_bias(in, E, range));
  } else {
    set("bias_k", IValue());
    set("bias_v", IValue());
  }
  set("add_zero_attn", IValue(in.truthy(a[5], range)));
}

bool is_builtin(const IValue& v, const char* qualname) {
  const auto* b = as_obj<BuiltinValue>(v);
  return b && b->qualname == qualname;
}

// _get_activation_fn for a string; a function or module stays as given.
IValue activation_fn(Interpreter& in, const IValue& activation, const SourceRange& range) {
  if (!activation.is_string()) return activation;
  const std::string name = activation.to_string();
  if (name == "relu") return in.resolve_qualified("torch.nn.functional.relu", "F.relu", range);
  if (name == "gelu") return in.resolve_qualified("torch.nn.functional.gelu", "F.gelu", range);
  in.fail("RuntimeError: activation should be relu/gelu, not " + name, range);
}

// TransformerEncoderLayer and TransformerDecoderLayer: the same arguments; the decoder
// layer has a second attention (multihead_attn), norm3 and dropout3.
void construct_transformer_layer(Interpreter& in, const IValue& self, bool decoder, ValueList args,
                                 Kwargs kwargs, const SourceRange& range) {
  const IValue relu = in.resolve_qualified("torch.nn.functional.relu", "F.relu", range);
  ValueList a = bind_args(decoder ? "nn.TransformerDecoderLayer" : "nn.TransformerEncoderLayer",
                          {{"d_model", std::nullopt},
                           {"nhead", std::nullopt},
                           {"dim_feedforward", IValue(int64_t{2048})},
                           {"dropout", IValue(0.1)},
                           {"activation", relu},
                           {"layer_norm_eps", IValue(1e-5)},
                           {"batch_first", IValue(false)},
                           {"norm_first", IValue(false)},
                           {"device", IValue()},
                           {"dtype", IValue()}},
                          std::move(args), std::move(kwargs), range);
  auto set = [&](const std::string& name, IValue v) {
    in.setattr(self, name, std::move(v), range);
  };
  auto nn = [&](const char* cls, ValueList args, Kwargs kw = {}) {
    return in.construct_nn(std::string("torch.nn.") + cls, std::move(args), std::move(kw), range);
  };
  const Kwargs attention_kw{{"dropout", a[3]}, {"batch_first", a[6]}};
  set("self_attn", nn("MultiheadAttention", {a[0], a[1]}, attention_kw));
  if (decoder) set("multihead_attn", nn("MultiheadAttention", {a[0], a[1]}, attention_kw));
  set("linear1", nn("Linear", {a[0], a[2]}));
  set("dropout", nn("Dropout", {a[3]}));
  set("linear2", nn("Linear", {a[2], a[0]}));
  set("norm_first", a[7]);
  set("norm1", nn("LayerNorm", {a[0]}, {{"eps", a[5]}}));
  set("norm2", nn("LayerNorm", {a[0]}, {{"eps", a[5]}}));
  if (decoder) set("norm3", nn("LayerNorm", {a[0]}, {{"eps", a[5]}}));
  set("dropout1", nn("Dropout", {a[3]}));
  set("dropout2", nn("Dropout", {a[3]}));
  if (decoder) set("dropout3", nn("Dropout", {a[3]}));
  const IValue activation = activation_fn(in, a[4], range);
  if (!decoder) {
    const auto* module = as_obj<InstanceValue>(activation);
    const bool relu_like = is_builtin(activation, "torch.nn.functional.relu") ||
                           (module && module->nn == NnKind::ReLU);
    const bool gelu_like = is_builtin(activation, "torch.nn.functional.gelu") ||
                           (module && module->nn == NnKind::GELU);
    set("activation_relu_or_gelu", IValue(int64_t{relu_like ? 1 : gelu_like ? 2 : 0}));
  }
  set("activation", activation);
}

// TransformerEncoder and TransformerDecoder: _get_clones' ModuleList of deep copies (the
// layer given is not a child), num_layers, norm; the encoder's nested-tensor flags.
void construct_stack(Interpreter& in, const IValue& self, bool decoder, ValueList args,
                     Kwargs kwargs, const SourceRange& range) {
  std::vector<ParamSpec> spec{{decoder ? "decoder_layer" : "encoder_layer", std::nullopt},
                              {"num_layers", std::nullopt},
                              {"norm", IValue()}};
  if (!decoder) {
    spec.push_back({"enable_nested_tensor", IValue(true)});
    spec.push_back({"mask_check", IValue(true)});
  }
  ValueList a = bind_args(decoder ? "nn.TransformerDecoder" : "nn.TransformerEncoder", spec,
                          std::move(args), std::move(kwargs), range);
  const int64_t n = in.to_index(a[1], PyConversion::Scalar, range, "num_layers");
  ValueList copies;
  for (int64_t i = 0; i < n; ++i) {
    copies.push_back(in.call_copy_name("copy.deepcopy", {a[0]}, {}, range));
  }
  auto set = [&](const std::string& name, IValue v) {
    in.setattr(self, name, std::move(v), range);
  };
  set("layers",
      in.construct_nn("torch.nn.ModuleList", {IValue::list(std::move(copies))}, {}, range));
  set("num_layers", IValue(n));
  set("norm", a[2]);
  if (!decoder) {
    set("enable_nested_tensor", a[3]);
    set("mask_check", a[4]);
  }
}

// nn.Transformer: an encoder and a decoder (or the custom ones given), each stack with a
// final LayerNorm, then _reset_parameters' xavier_uniform_ of every parameter of more
// than one dim.
void construct_transformer(Interpreter& in, const IValue& self, InstanceValue& inst, ValueList args,
                           Kwargs kwargs, const SourceRange& range) {
  const IValue relu = in.resolve_qualified("torch.nn.functional.relu", "F.relu", range);
  ValueList a = bind_args("nn.Transformer",
                          {{"d_model", IValue(int64_t{512})},
                           {"nhead", IValue(int64_t{8})},
                           {"num_encoder_layers", IValue(int64_t{6})},
                           {"num_decoder_layers", IValue(int64_t{6})},
                           {"dim_feedforward", IValue(int64_t{2048})},
                           {"dropout", IValue(0.1)},
                           {"activation", relu},
                           {"custom_encoder", IValue()},
                           {"custom_decoder", IValue()},
                           {"layer_norm_eps", IValue(1e-5)},
                           {"batch_first", IValue(false)},
                           {"norm_first", IValue(false)},
                           {"device", IValue()},
                           {"dtype", IValue()}},
                          std::move(args), std::move(kwargs), range);
  auto set = [&](const std::string& name, IValue v) {
    in.setattr(self, name, std::move(v), range);
  };
  const ValueList layer_args{a[0], a[1], a[4], a[5], a[6], a[9], a[10], a[11]};
  for (const bool decoder : {false, true}) {
    const IValue& custom = decoder ? a[8] : a[7];
    if (!custom.is_none()) {
      set(decoder ? "decoder" : "encoder", custom);
      continue;
    }
    const std::string which = decoder ? "Decoder" : "Encoder";
    IValue layer = in.construct_nn("torch.nn.Transformer" + which + "Layer", layer_args, {}, range);
    IValue norm = in.construct_nn("torch.nn.LayerNorm", {a[0]}, {{"eps", a[9]}}, range);
    set(decoder ? "decoder" : "encoder",
        in.construct_nn("torch.nn.Transformer" + which, {layer, decoder ? a[3] : a[2], norm}, {},
                        range));
  }
  std::vector<std::pair<std::string, ParamSite>> params;
  in.collect_parameters(inst, "", &params);
  for (auto& [name, site] : params) {
    Tensor& t = site.tensor;
    if (t.dim() < 2) continue;
    // fan_in = size(1) * receptive field, fan_out = size(0) * receptive field.
    int64_t receptive = 1;
    for (int64_t d = 2; d < t.dim(); ++d) receptive *= t.size(d);
    const double fans = static_cast<double>((t.size(0) + t.size(1)) * receptive);
    const float bound = fans > 0 ? static_cast<float>(std::sqrt(6.0 / fans)) : 0.0f;
    float* p = t.data<float>();
    for (int64_t i = 0; i < t.numel(); ++i) {
      p[i] = (2.0f * in.generator().uniform() - 1.0f) * bound;
    }
  }
  set("d_model", a[0]);
  set("nhead", a[1]);
  set("batch_first", a[10]);
}

}  // namespace

bool is_attention_class(const std::string& type) {
  return std::find(std::begin(kClasses), std::end(kClasses), type) != std::end(kClasses);
}

const std::vector<std::string>& attention_class_names() {
  static const std::vector<std::string> names(std::begin(kClasses), std::end(kClasses));
  return names;
}

void construct_attention(Interpreter& in, const IValue& self, InstanceValue& inst, ValueList args,
                         Kwargs kwargs, const SourceRange& range) {
  const std::string& t = inst.type;
  if (t == "MultiheadAttention") {
    construct_mha(in, self, std::move(args), std::move(kwargs), range);
  } else if (t == "TransformerEncoderLayer" || t == "TransformerDecoderLayer") {
    construct_transformer_layer(in, self, t == "TransformerDecoderLayer", std::move(args),
                                std::move(kwargs), range);
  } else if (t == "TransformerEncoder" || t == "TransformerDecoder") {
    construct_stack(in, self, t == "TransformerDecoder", std::move(args), std::move(kwargs), range);
  } else {
    construct_transformer(in, self, inst, std::move(args), std::move(kwargs), range);
  }
}

IValue generate_square_subsequent_mask(Interpreter& in, ValueList args, Kwargs kwargs,
                                       const SourceRange& range) {
  ValueList a = bind_args("generate_square_subsequent_mask",
                          {{"sz", std::nullopt}, {"device", IValue(std::string("cpu"))}},
                          std::move(args), std::move(kwargs), range);
  const IValue full = in.call_op(
      "aten::full", {IValue::list({a[0], a[0]}), IValue(-std::numeric_limits<double>::infinity())},
      {{"device", a[1]}}, range);
  return in.call_op("aten::triu", {full}, {{"diagonal", IValue(int64_t{1})}}, range);
}

const std::vector<ForwardParam>& attention_forward_params(const std::string& type) {
  static const std::vector<ForwardParam> mha{{"query", true, IValue()},
                                             {"key", true, IValue()},
                                             {"value", true, IValue()},
                                             {"key_padding_mask", false, IValue()},
                                             {"need_weights", false, IValue(true)},
                                             {"attn_mask", false, IValue()},
                                             {"average_attn_weights", false, IValue(true)}};
  static const std::vector<ForwardParam> layer{{"src", true, IValue()},
                                               {"src_mask", false, IValue()},
                                               {"src_key_padding_mask", false, IValue()}};
  static const std::vector<ForwardParam> encoder{{"src", true, IValue()},
                                                 {"mask", false, IValue()},
                                                 {"src_key_padding_mask", false, IValue()}};
  static const std::vector<ForwardParam> decoder{{"tgt", true, IValue()},
                                                 {"memory", true, IValue()},
                                                 {"tgt_mask", false, IValue()},
                                                 {"memory_mask", false, IValue()},
                                                 {"tgt_key_padding_mask", false, IValue()},
                                                 {"memory_key_padding_mask", false, IValue()}};
  static const std::vector<ForwardParam> transformer{{"src", true, IValue()},
                                                     {"tgt", true, IValue()},
                                                     {"src_mask", false, IValue()},
                                                     {"tgt_mask", false, IValue()},
                                                     {"memory_mask", false, IValue()},
                                                     {"src_key_padding_mask", false, IValue()},
                                                     {"tgt_key_padding_mask", false, IValue()},
                                                     {"memory_key_padding_mask", false, IValue()}};
  if (type == "MultiheadAttention") return mha;
  if (type == "TransformerEncoderLayer") return layer;
  if (type == "TransformerEncoder") return encoder;
  if (type == "Transformer") return transformer;
  return decoder;
}

IValue attention_forward(Interpreter& in, const InstanceValue& m, ValueList args, Kwargs kwargs,
                         const SourceRange& range) {
  std::vector<ParamSpec> spec;
  for (const ForwardParam& p : attention_forward_params(m.type)) {
    spec.push_back({p.name, p.required ? std::nullopt : std::optional<IValue>(p.default_value)});
  }
  ValueList a = bind_args(m.type + ".forward", spec, std::move(args), std::move(kwargs), range);
  for (size_t i = 0; i < a.size(); ++i) {
    const ForwardParam& p = attention_forward_params(m.type)[i];
    if (p.default_value.is_bool()) continue;
    if (!a[i].is_tensor() && !(a[i].is_none() && !p.required)) {
      in.fail(
          std::string("AttributeError: '") + py_type_name(a[i]) + "' object has no attribute 'dim'",
          range, std::string("pass a tensor as ") + p.name);
    }
  }
  std::vector<IValue> values;
  std::vector<bool> flags;
  for (size_t i = 0; i < a.size(); ++i) {
    if (attention_forward_params(m.type)[i].default_value.is_bool()) {
      flags.push_back(in.truthy(a[i], range));
    } else {
      values.push_back(a[i]);
    }
  }
  InterpBuilder b{in, m, range};
  AttentionForward<InterpBuilder> f{b};
  return f.forward(m, values, flags);
}

}  // namespace d2s::interp
