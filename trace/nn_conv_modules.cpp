// nn.Conv1d/Conv2d, the pooling layers, nn.Flatten and the activation modules (see
// nn_layers.h): PyTorch's constructor signatures and checks, attributes as PyTorch
// stores them (Conv2d's kernel_size as a tuple, MaxPool2d's as given), default
// initialisation, extra_repr, and the op each forward runs.
#include <cmath>

#include "core/ops/interpolate.h"
#include "trace/nn_layers.h"

namespace d2s::interp {

namespace {

struct LayerSpec {
  const char* name;
  int spatial;  // 1 or 2; 0 for Flatten
};

const LayerSpec kLayers[] = {
    {"Conv1d", 1},
    {"Conv2d", 2},
    {"MaxPool1d", 1},
    {"MaxPool2d", 2},
    {"AvgPool1d", 1},
    {"AvgPool2d", 2},
    {"AdaptiveAvgPool1d", 1},
    {"AdaptiveAvgPool2d", 2},
    {"AdaptiveMaxPool2d", 2},
    {"Flatten", 0},
    {"LeakyReLU", 0},
    {"SiLU", 0},
    {"Softplus", 0},
    {"Softmax", 0},
    {"LogSoftmax", 0},
    {"Hardtanh", 0},
    {"ReLU6", 0},
    {"ELU", 0},
    {"SELU", 0},
};

// The activation modules: constructor parameters (PyTorch's order and defaults) and
// the op their forward runs with the input and those attributes, in order.
struct ActivationSpec {
  const char* name;
  const char* op;
  std::vector<ParamSpec> params;
  std::vector<const char*> op_attrs;
};

const std::vector<ActivationSpec>& activations() {
  static const std::vector<ActivationSpec> specs = {
      {"LeakyReLU",
       "aten::leaky_relu",
       {{"negative_slope", IValue(0.01)}, {"inplace", IValue(false)}},
       {"negative_slope"}},
      {"SiLU", "aten::silu", {{"inplace", IValue(false)}}, {}},
      {"Softplus",
       "aten::softplus",
       {{"beta", IValue(int64_t{1})}, {"threshold", IValue(int64_t{20})}},
       {"beta", "threshold"}},
      {"Softmax", "aten::softmax", {{"dim", IValue()}}, {"dim"}},
      {"LogSoftmax", "aten::log_softmax", {{"dim", IValue()}}, {"dim"}},
      {"Hardtanh",
       "aten::hardtanh",
       {{"min_val", IValue(-1.0)}, {"max_val", IValue(1.0)}, {"inplace", IValue(false)}},
       {"min_val", "max_val"}},
      // nn.ReLU6 is Hardtanh(0., 6.): its forward runs aten::hardtanh, as TorchScript's.
      {"ReLU6", "aten::hardtanh", {{"inplace", IValue(false)}}, {"min_val", "max_val"}},
      {"ELU", "aten::elu", {{"alpha", IValue(1.0)}, {"inplace", IValue(false)}}, {"alpha"}},
      {"SELU", "aten::selu", {{"inplace", IValue(false)}}, {}},
  };
  return specs;
}

const ActivationSpec* activation_of(const std::string& type) {
  for (const ActivationSpec& a : activations()) {
    if (type == a.name) return &a;
  }
  return nullptr;
}

const LayerSpec& spec_of(const std::string& type) {
  for (const LayerSpec& s : kLayers) {
    if (type == s.name) return s;
  }
  throw Error("internal error: " + type + " is not a layer");
}

bool starts(const std::string& s, const char* prefix) {
  return s.rfind(prefix, 0) == 0;
}

IValue get(const InstanceValue& m, const char* name) {
  const IValue* v = m.get(name);
  return v ? *v : IValue();
}

// _single / _pair: an int repeated, a sequence kept, as a tuple of ints.
IValue ntuple(Interpreter& in, const IValue& v, int n, const char* what, const SourceRange& range) {
  ValueList items;
  if (v.is_list() || v.is_tuple()) {
    for (const IValue& item : v.items())
      items.push_back(IValue(in.to_index(item, PyConversion::Scalar, range, what)));
  } else {
    const IValue one(in.to_index(v, PyConversion::Scalar, range, what));
    items.assign(static_cast<size_t>(n), one);
  }
  return IValue::tuple(std::move(items));
}

// An attribute as an int list for an int[n] argument (an int repeated n times, as
// TorchScript writes it, or a tuple as given).
IValue int_list(const IValue& v, int n) {
  if (v.is_int()) return IValue::int_list(std::vector<int64_t>(static_cast<size_t>(n), v.to_int()));
  std::vector<int64_t> items;
  for (const IValue& item : v.items()) items.push_back(item.to_int());
  return IValue::int_list(items);
}

LayerArg input() {
  return LayerArg{LayerArg::Kind::Input, "", IValue()};
}
LayerArg attr(const char* name) {
  return LayerArg{LayerArg::Kind::Attr, name, IValue()};
}
LayerArg constant(IValue v) {
  return LayerArg{LayerArg::Kind::Const, "", std::move(v)};
}

void construct_conv(Interpreter& in, const IValue& self, int spatial, ValueList args, Kwargs kwargs,
                    const SourceRange& range) {
  const std::string fname = "nn.Conv" + std::to_string(spatial) + "d";
  ValueList a = bind_args(fname,
                          {{"in_channels", std::nullopt},
                           {"out_channels", std::nullopt},
                           {"kernel_size", std::nullopt},
                           {"stride", IValue(int64_t{1})},
                           {"padding", IValue(int64_t{0})},
                           {"dilation", IValue(int64_t{1})},
                           {"groups", IValue(int64_t{1})},
                           {"bias", IValue(true)},
                           {"padding_mode", IValue(std::string("zeros"))},
                           {"device", IValue()},
                           {"dtype", IValue()}},
                          std::move(args), std::move(kwargs), range);
  auto set = [&](const std::string& name, IValue v) {
    in.setattr(self, name, std::move(v), range);
  };
  const int64_t cin = in.to_index(a[0], PyConversion::Scalar, range, "in_channels");
  const int64_t cout = in.to_index(a[1], PyConversion::Scalar, range, "out_channels");
  const int64_t groups = in.to_index(a[6], PyConversion::Scalar, range, "groups");
  if (groups <= 0) in.fail("ValueError: groups must be a positive integer", range);
  if (cin % groups != 0) in.fail("ValueError: in_channels must be divisible by groups", range);
  if (cout % groups != 0) in.fail("ValueError: out_channels must be divisible by groups", range);
  const IValue kernel = ntuple(in, a[2], spatial, "kernel_size", range);
  const IValue stride = ntuple(in, a[3], spatial, "stride", range);
  const IValue dilation = ntuple(in, a[5], spatial, "dilation", range);
  IValue padding;
  if (a[4].is_string()) {
    const std::string p = a[4].to_string();
    if (p != "same" && p != "valid") {
      in.fail("ValueError: Invalid padding string '" + p + "', should be one of {'valid', 'same'}",
              range);
    }
    if (p == "same") {
      for (const IValue& s : stride.items()) {
        if (s.to_int() != 1) {
          in.fail("ValueError: padding='same' is not supported for strided convolutions", range);
        }
      }
    }
    padding = a[4];
  } else {
    padding = ntuple(in, a[4], spatial, "padding", range);
  }
  if (!a[8].is_string() || a[8].to_string() != "zeros") {
    in.fail("padding_mode=" + in.py_repr(a[8]) + " is not supported by d2s", range,
            "d2s convolutions pad with zeros (padding_mode='zeros')");
  }
  for (const IValue& k : kernel.items()) {
    if (k.to_int() <= 0) in.fail("RuntimeError: kernel_size must be positive", range);
  }
  set("in_channels", IValue(cin));
  set("out_channels", IValue(cout));
  set("kernel_size", kernel);
  set("stride", stride);
  set("padding", padding);
  set("dilation", dilation);
  set("groups", IValue(groups));
  set("padding_mode", a[8]);
  // kaiming_uniform_(a=sqrt(5)) for the weight and U(-1/sqrt(fan_in), 1/sqrt(fan_in))
  // for the bias: both bounds are 1/sqrt(fan_in), fan_in = in_channels/groups * k.
  Shape wshape{cout, cin / groups};
  int64_t fan_in = cin / groups;
  for (const IValue& k : kernel.items()) {
    wshape.push_back(k.to_int());
    fan_in *= k.to_int();
  }
  const float bound =
      fan_in > 0 ? static_cast<float>(1.0 / std::sqrt(static_cast<double>(fan_in))) : 0.0f;
  set("weight", uniform_parameter(in, wshape, bound, range));
  set("bias", in.truthy(a[7], range) ? uniform_parameter(in, {cout}, bound, range) : IValue());
}

void construct_pool(Interpreter& in, const IValue& self, const std::string& type, int spatial,
                    ValueList args, Kwargs kwargs, const SourceRange& range) {
  auto set = [&](const std::string& name, IValue v) {
    in.setattr(self, name, std::move(v), range);
  };
  const std::string fname = "nn." + type;
  auto as_given = [&](const IValue& v, const char* what) {
    // MaxPool and AvgPool2d keep the value as given (an int or a tuple of ints).
    if (v.is_list() || v.is_tuple()) return ntuple(in, v, spatial, what, range);
    return IValue(in.to_index(v, PyConversion::Scalar, range, what));
  };
  if (starts(type, "Adaptive")) {
    std::vector<ParamSpec> params{{"output_size", std::nullopt}};
    if (type == "AdaptiveMaxPool2d") params.push_back({"return_indices", IValue(false)});
    ValueList a = bind_args(fname, params, std::move(args), std::move(kwargs), range);
    if (const ValueList* items = a[0].is_list() || a[0].is_tuple() ? &a[0].items() : nullptr) {
      for (const IValue& item : *items) {
        if (item.is_none()) {
          in.fail("an output_size of None is not supported by d2s", range,
                  "give every output size as an int");
        }
      }
    }
    set("output_size", as_given(a[0], "output_size"));
    if (type == "AdaptiveMaxPool2d") set("return_indices", IValue(in.truthy(a[1], range)));
    return;
  }
  const bool is_max = starts(type, "MaxPool");
  std::vector<ParamSpec> params{
      {"kernel_size", std::nullopt}, {"stride", IValue()}, {"padding", IValue(int64_t{0})}};
  if (is_max) {
    params.push_back({"dilation", IValue(int64_t{1})});
    params.push_back({"return_indices", IValue(false)});
    params.push_back({"ceil_mode", IValue(false)});
  } else {
    params.push_back({"ceil_mode", IValue(false)});
    params.push_back({"count_include_pad", IValue(true)});
    if (spatial == 2) params.push_back({"divisor_override", IValue()});
  }
  ValueList a = bind_args(fname, params, std::move(args), std::move(kwargs), range);
  // AvgPool1d stores _single(...) tuples; the others keep what they were given.
  auto store = [&](const IValue& v, const char* what) {
    return type == "AvgPool1d" ? ntuple(in, v, 1, what, range) : as_given(v, what);
  };
  const IValue kernel = store(a[0], "kernel_size");
  set("kernel_size", kernel);
  set("stride", a[1].is_none() ? kernel : store(a[1], "stride"));
  set("padding", store(a[2], "padding"));
  if (is_max) {
    set("dilation", as_given(a[3], "dilation"));
    set("return_indices", IValue(in.truthy(a[4], range)));
    set("ceil_mode", IValue(in.truthy(a[5], range)));
  } else {
    set("ceil_mode", IValue(in.truthy(a[3], range)));
    set("count_include_pad", IValue(in.truthy(a[4], range)));
    if (spatial == 2) {
      set("divisor_override", a[5].is_none() ? IValue()
                                             : IValue(in.to_index(a[5], PyConversion::Scalar, range,
                                                                  "divisor_override")));
    }
  }
}

}  // namespace

bool is_layer_class(const std::string& type) {
  if (is_norm_layer_class(type) || is_resize_layer_class(type)) return true;
  for (const LayerSpec& s : kLayers) {
    if (type == s.name) return true;
  }
  return false;
}

const std::vector<std::string>& layer_class_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const LayerSpec& s : kLayers) out.emplace_back(s.name);
    for (const std::string& n : norm_layer_class_names()) out.push_back(n);
    for (const std::string& n : resize_layer_class_names()) out.push_back(n);
    return out;
  }();
  return names;
}

void construct_layer(Interpreter& in, const IValue& self, InstanceValue& inst, ValueList args,
                     Kwargs kwargs, const SourceRange& range) {
  if (is_norm_layer_class(inst.type)) {
    construct_norm_layer(in, self, inst, std::move(args), std::move(kwargs), range);
    return;
  }
  if (is_resize_layer_class(inst.type)) {
    construct_resize_layer(in, self, inst, std::move(args), std::move(kwargs), range);
    return;
  }
  const LayerSpec& spec = spec_of(inst.type);
  if (const ActivationSpec* act = activation_of(inst.type)) {
    ValueList a =
        bind_args("nn." + inst.type, act->params, std::move(args), std::move(kwargs), range);
    for (size_t i = 0; i < a.size(); ++i) {
      const std::string name = act->params[i].name;
      if (name == "inplace") {
        in.setattr(self, name, IValue(in.truthy(a[i], range)), range);
      } else if (name == "dim") {
        in.setattr(self, name,
                   a[i].is_none() ? IValue()
                                  : IValue(in.to_index(a[i], PyConversion::Scalar, range, "dim")),
                   range);
      } else {
        std::optional<IValue> v = in.to_number(a[i], PyConversion::Scalar, range);
        if (!v)
          in.fail("TypeError: " + name + " must be a number, not " + py_type_name(a[i]), range);
        in.setattr(self, name, *v, range);
      }
    }
    if (inst.type == "ReLU6") {
      in.setattr(self, "min_val", IValue(0.0), range);
      in.setattr(self, "max_val", IValue(6.0), range);
    }
    return;
  }
  if (starts(inst.type, "Conv")) {
    construct_conv(in, self, spec.spatial, std::move(args), std::move(kwargs), range);
  } else if (inst.type == "Flatten") {
    ValueList a = bind_args("nn.Flatten",
                            {{"start_dim", IValue(int64_t{1})}, {"end_dim", IValue(int64_t{-1})}},
                            std::move(args), std::move(kwargs), range);
    in.setattr(self, "start_dim",
               IValue(in.to_index(a[0], PyConversion::Scalar, range, "start_dim")), range);
    in.setattr(self, "end_dim", IValue(in.to_index(a[1], PyConversion::Scalar, range, "end_dim")),
               range);
  } else {
    construct_pool(in, self, inst.type, spec.spatial, std::move(args), std::move(kwargs), range);
  }
}

LayerCall layer_call(const InstanceValue& m, const SourceRange& range, int64_t input_rank,
                     const std::string& spatial) {
  const std::string& type = m.type;
  if (is_norm_layer_class(type)) return norm_layer_call(m);
  if (is_resize_layer_class(type)) return resize_layer_call(m, range, input_rank, spatial);
  const LayerSpec& spec = spec_of(type);
  const std::string d = std::to_string(spec.spatial) + "d";
  LayerCall call;
  if (const ActivationSpec* act = activation_of(type)) {
    // inplace=True overwrites the input: the op's in-place form (aten::hardtanh_, ...),
    // as PyTorch's forward calls F.<op>(input, ..., inplace=True).
    const IValue* inplace = m.get("inplace");
    call.op =
        std::string(act->op) + (inplace && inplace->is_bool() && inplace->to_bool() ? "_" : "");
    call.args = {input()};
    for (const char* name : act->op_attrs) call.args.push_back(constant(get(m, name)));
    return call;
  }
  if (starts(type, "Conv")) {
    const IValue padding = get(m, "padding");
    call.op = "aten::conv" + d;
    call.args = {input(),
                 attr("weight"),
                 attr("bias"),
                 constant(int_list(get(m, "stride"), spec.spatial)),
                 constant(padding.is_string() ? padding : int_list(padding, spec.spatial)),
                 constant(int_list(get(m, "dilation"), spec.spatial)),
                 constant(get(m, "groups"))};
  } else if (type == "Flatten") {
    call.op = "aten::flatten";
    call.args = {input(), constant(get(m, "start_dim")), constant(get(m, "end_dim"))};
  } else if (starts(type, "Adaptive")) {
    const bool is_max = starts(type, "AdaptiveMax");
    call.op = std::string("aten::adaptive_") + (is_max ? "max" : "avg") + "_pool" + d;
    call.args = {input(), constant(int_list(get(m, "output_size"), spec.spatial))};
    call.first_of_tuple = is_max && !get(m, "return_indices").to_bool();
  } else if (starts(type, "MaxPool")) {
    const bool indices = get(m, "return_indices").to_bool();
    if (indices && spec.spatial == 1) {
      throw Error("MaxPool1d(return_indices=True) is not supported by d2s", range,
                  "MaxPool2d supports return_indices");
    }
    call.op = "aten::max_pool" + d + (indices ? "_with_indices" : "");
    call.args = {input(),
                 constant(int_list(get(m, "kernel_size"), spec.spatial)),
                 constant(int_list(get(m, "stride"), spec.spatial)),
                 constant(int_list(get(m, "padding"), spec.spatial)),
                 constant(int_list(get(m, "dilation"), spec.spatial)),
                 constant(get(m, "ceil_mode"))};
  } else {
    call.op = "aten::avg_pool" + d;
    call.args = {input(),
                 constant(int_list(get(m, "kernel_size"), spec.spatial)),
                 constant(int_list(get(m, "stride"), spec.spatial)),
                 constant(int_list(get(m, "padding"), spec.spatial)),
                 constant(get(m, "ceil_mode")),
                 constant(get(m, "count_include_pad"))};
    if (spec.spatial == 2) call.args.push_back(constant(get(m, "divisor_override")));
  }
  return call;
}

IValue layer_forward(Interpreter& in, const InstanceValue& m, const IValue& x,
                     const SourceRange& range, const IValue* output_padding) {
  LayerCall call;
  try {
    call = x.is_tensor()
               ? layer_call(m, range, x.to_tensor().dim(), spatial_repr(x.to_tensor().shape()))
               : layer_call(m, range);
  } catch (const Error& e) {
    in.fail(e.message(), range, e.hint());
  }
  if (x.is_tensor()) {
    if (std::string e = norm_input_error(m, x.to_tensor().dim()); !e.empty()) in.fail(e, range);
  }
  if (output_padding) call.args[kConvTransposeOutputPaddingArg].value = *output_padding;
  IValue factor;
  if (!call.count_batches.empty()) {
    // _BatchNorm.forward: num_batches_tracked.add_(1), and 1 / float(it) as the factor
    // for momentum=None.
    const IValue count = get(m, call.count_batches.c_str());
    in.call_op("aten::add_", {count, IValue(int64_t{1})}, {}, range);
    factor = IValue(1.0 / count.to_tensor().value_at(0));
  }
  ValueList args;
  for (const LayerArg& a : call.args) {
    switch (a.kind) {
      case LayerArg::Kind::Input:
        args.push_back(x);
        break;
      case LayerArg::Kind::Attr:
        args.push_back(get(m, a.attr.c_str()));
        break;
      case LayerArg::Kind::Const:
        args.push_back(a.value);
        break;
    }
  }
  if (call.momentum_from_count >= 0) args[static_cast<size_t>(call.momentum_from_count)] = factor;
  IValue out = in.call_op(call.op, std::move(args), {}, range);
  if (call.first_of_tuple) return out.items()[0];
  return out;
}

std::string layer_extra_repr(const Interpreter& in, const InstanceValue& m) {
  const std::string& type = m.type;
  if (is_norm_layer_class(type)) return norm_extra_repr(in, m);
  if (is_resize_layer_class(type)) return resize_extra_repr(in, m);
  auto s = [&](const char* name) { return in.py_str(get(m, name)); };
  // PyTorch's activations append "inplace=True" only when set.
  const IValue* inplace_attr = m.get("inplace");
  const bool inplace = inplace_attr && inplace_attr->is_bool() && inplace_attr->to_bool();
  auto with_inplace = [&](std::string out) {
    if (inplace) out += out.empty() ? "inplace=True" : ", inplace=True";
    return out;
  };
  if (type == "LeakyReLU") return with_inplace("negative_slope=" + s("negative_slope"));
  if (type == "Softplus") return "beta=" + s("beta") + ", threshold=" + s("threshold");
  if (type == "Softmax" || type == "LogSoftmax") return "dim=" + s("dim");
  if (type == "Hardtanh")
    return with_inplace("min_val=" + s("min_val") + ", max_val=" + s("max_val"));
  if (type == "ELU") return with_inplace("alpha=" + s("alpha"));
  if (activation_of(type)) return with_inplace("");  // SiLU, ReLU6, SELU
  if (starts(type, "Conv")) {
    const int n = spec_of(type).spatial;
    auto all = [&](const char* name, int64_t v) {
      const IValue x = get(m, name);
      if (!x.is_tuple()) return false;
      for (const IValue& item : x.items()) {
        if (!item.is_int() || item.to_int() != v) return false;
      }
      return static_cast<int>(x.items().size()) == n;
    };
    std::string out = s("in_channels") + ", " + s("out_channels") +
                      ", kernel_size=" + s("kernel_size") + ", stride=" + s("stride");
    if (!all("padding", 0)) out += ", padding=" + s("padding");
    if (!all("dilation", 1)) out += ", dilation=" + s("dilation");
    if (get(m, "groups").to_int() != 1) out += ", groups=" + s("groups");
    if (get(m, "bias").is_none()) out += ", bias=False";
    return out;
  }
  if (type == "Flatten") return "start_dim=" + s("start_dim") + ", end_dim=" + s("end_dim");
  if (starts(type, "Adaptive")) return "output_size=" + s("output_size");
  std::string out =
      "kernel_size=" + s("kernel_size") + ", stride=" + s("stride") + ", padding=" + s("padding");
  if (starts(type, "MaxPool"))
    out += ", dilation=" + s("dilation") + ", ceil_mode=" + s("ceil_mode");
  return out;
}

}  // namespace d2s::interp
