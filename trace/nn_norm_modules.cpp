// nn.BatchNorm1d/2d, nn.GroupNorm, nn.PReLU, nn.GLU and nn.Dropout2d on the layer
// mechanism (nn_layers.h): PyTorch 1.13's constructor signatures, checks, parameters,
// buffers and extra_repr, and the op each forward runs. BatchNorm's forward is
// _BatchNorm.forward: in training with running statistics it first adds 1 to
// num_batches_tracked (and with momentum=None uses 1 / num_batches_tracked as the
// factor), then runs aten::batch_norm, which updates the running statistics.
#include <cmath>

#include "trace/native_value.h"
#include "trace/nn_layers.h"

namespace d2s::interp {

namespace {

const char* const kNormLayers[] = {"BatchNorm1d", "BatchNorm2d", "GroupNorm",
                                   "PReLU",       "GLU",         "Dropout2d"};

bool starts(const std::string& s, const char* prefix) {
  return s.rfind(prefix, 0) == 0;
}

IValue get(const InstanceValue& m, const char* name) {
  const IValue* v = m.get(name);
  return v ? *v : IValue();
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

Tensor filled(const Shape& shape, double value, DType dtype, const SourceRange& range) {
  try {
    return Tensor::full(shape, value, dtype);
  } catch (const Error& e) {
    throw Error(e.message(), range, e.hint());
  }
}

// A parameter registered under `name` (None stays registered, as register_parameter
// keeps it).
void set_param(Interpreter& in, const IValue& self, InstanceValue& inst, const std::string& name,
               IValue value, const SourceRange& range) {
  if (value.is_none()) {
    inst.params.push_back(name);
    inst.set(name, IValue());
    return;
  }
  in.setattr(self, name, std::move(value), range);
}

void set_buffer(InstanceValue& inst, const std::string& name, IValue value) {
  inst.buffers.push_back(name);
  inst.set(name, std::move(value));
}

int64_t positive_size(Interpreter& in, const IValue& v, const char* what,
                      const SourceRange& range) {
  const int64_t n = in.to_index(v, PyConversion::Scalar, range, what);
  if (n < 0) {
    in.fail(std::string("RuntimeError: Trying to create tensor with negative dimension ") +
                std::to_string(n) + ": [" + std::to_string(n) + "]",
            range);
  }
  return n;
}

void construct_batch_norm(Interpreter& in, const IValue& self, InstanceValue& inst, ValueList args,
                          Kwargs kwargs, const SourceRange& range) {
  ValueList a = bind_args("nn." + inst.type,
                          {{"num_features", std::nullopt},
                           {"eps", IValue(1e-5)},
                           {"momentum", IValue(0.1)},
                           {"affine", IValue(true)},
                           {"track_running_stats", IValue(true)},
                           {"device", IValue()},
                           {"dtype", IValue()}},
                          std::move(args), std::move(kwargs), range);
  const int64_t c = positive_size(in, a[0], "num_features", range);
  const double eps = number_arg(in, a[1], "eps", range);
  const bool affine = in.truthy(a[3], range), track = in.truthy(a[4], range);
  in.setattr(self, "num_features", IValue(c), range);
  in.setattr(self, "eps", IValue(eps), range);
  in.setattr(self, "momentum",
             a[2].is_none() ? IValue() : IValue(number_arg(in, a[2], "momentum", range)), range);
  in.setattr(self, "affine", IValue(affine), range);
  in.setattr(self, "track_running_stats", IValue(track), range);
  set_param(
      in, self, inst, "weight",
      affine ? in.make_parameter(filled({c}, 1.0, DType::Float32, range), true, range) : IValue(),
      range);
  set_param(
      in, self, inst, "bias",
      affine ? in.make_parameter(filled({c}, 0.0, DType::Float32, range), true, range) : IValue(),
      range);
  set_buffer(inst, "running_mean",
             track ? IValue(filled({c}, 0.0, DType::Float32, range)) : IValue());
  set_buffer(inst, "running_var",
             track ? IValue(filled({c}, 1.0, DType::Float32, range)) : IValue());
  set_buffer(inst, "num_batches_tracked",
             track ? IValue(filled({}, 0.0, DType::Int64, range)) : IValue());
}

void construct_group_norm(Interpreter& in, const IValue& self, InstanceValue& inst, ValueList args,
                          Kwargs kwargs, const SourceRange& range) {
  ValueList a = bind_args("nn.GroupNorm",
                          {{"num_groups", std::nullopt},
                           {"num_channels", std::nullopt},
                           {"eps", IValue(1e-5)},
                           {"affine", IValue(true)},
                           {"device", IValue()},
                           {"dtype", IValue()}},
                          std::move(args), std::move(kwargs), range);
  const int64_t groups = in.to_index(a[0], PyConversion::Scalar, range, "num_groups");
  const int64_t c = positive_size(in, a[1], "num_channels", range);
  if (groups == 0 || c % groups != 0) {
    in.fail(groups == 0 ? "ZeroDivisionError: integer division or modulo by zero"
                        : "ValueError: num_channels must be divisible by num_groups",
            range);
  }
  const bool affine = in.truthy(a[3], range);
  in.setattr(self, "num_groups", IValue(groups), range);
  in.setattr(self, "num_channels", IValue(c), range);
  in.setattr(self, "eps", IValue(number_arg(in, a[2], "eps", range)), range);
  in.setattr(self, "affine", IValue(affine), range);
  set_param(
      in, self, inst, "weight",
      affine ? in.make_parameter(filled({c}, 1.0, DType::Float32, range), true, range) : IValue(),
      range);
  set_param(
      in, self, inst, "bias",
      affine ? in.make_parameter(filled({c}, 0.0, DType::Float32, range), true, range) : IValue(),
      range);
}

// BatchNorm's op: PyTorch's _BatchNorm.forward with its training flags decided.
LayerCall batch_norm_call(const InstanceValue& m) {
  const bool training = get(m, "training").to_bool();
  const bool track = get(m, "track_running_stats").to_bool();
  const IValue momentum = get(m, "momentum");
  LayerCall call;
  call.op = "aten::batch_norm";
  const bool counts = training && track && !get(m, "num_batches_tracked").is_none();
  if (counts) call.count_batches = "num_batches_tracked";
  // The factor: momentum, 1 / num_batches_tracked for momentum=None while counting,
  // else 0.0 (unused: the running statistics are not updated then).
  IValue factor = momentum.is_none() ? IValue(0.0) : momentum;
  if (counts && momentum.is_none()) call.momentum_from_count = 6;
  const bool use_stats = !training || track;
  const bool bn_training =
      training || (get(m, "running_mean").is_none() && get(m, "running_var").is_none());
  call.args = {input(),
               attr("weight"),
               attr("bias"),
               use_stats ? attr("running_mean") : constant(IValue()),
               use_stats ? attr("running_var") : constant(IValue()),
               constant(IValue(bn_training)),
               constant(factor),
               constant(get(m, "eps")),
               constant(IValue(true))};
  return call;
}

}  // namespace

bool is_norm_layer_class(const std::string& type) {
  for (const char* n : kNormLayers) {
    if (type == n) return true;
  }
  return false;
}

const std::vector<std::string>& norm_layer_class_names() {
  static const std::vector<std::string> names(std::begin(kNormLayers), std::end(kNormLayers));
  return names;
}

void construct_norm_layer(Interpreter& in, const IValue& self, InstanceValue& inst, ValueList args,
                          Kwargs kwargs, const SourceRange& range) {
  const std::string& type = inst.type;
  if (starts(type, "BatchNorm")) {
    construct_batch_norm(in, self, inst, std::move(args), std::move(kwargs), range);
  } else if (type == "GroupNorm") {
    construct_group_norm(in, self, inst, std::move(args), std::move(kwargs), range);
  } else if (type == "PReLU") {
    ValueList a = bind_args("nn.PReLU",
                            {{"num_parameters", IValue(int64_t{1})},
                             {"init", IValue(0.25)},
                             {"device", IValue()},
                             {"dtype", IValue()}},
                            std::move(args), std::move(kwargs), range);
    const int64_t n = positive_size(in, a[0], "num_parameters", range);
    const double init = number_arg(in, a[1], "init", range);
    in.setattr(self, "num_parameters", IValue(n), range);
    in.setattr(self, "weight",
               in.make_parameter(filled({n}, init, DType::Float32, range), true, range), range);
  } else if (type == "GLU") {
    ValueList a = bind_args("nn.GLU", {{"dim", IValue(int64_t{-1})}}, std::move(args),
                            std::move(kwargs), range);
    in.setattr(self, "dim", IValue(in.to_index(a[0], PyConversion::Scalar, range, "dim")), range);
  } else {  // Dropout2d
    ValueList a = bind_args("nn.Dropout2d", {{"p", IValue(0.5)}, {"inplace", IValue(false)}},
                            std::move(args), std::move(kwargs), range);
    const double p = number_arg(in, a[0], "p", range);
    if (p < 0 || p > 1) {
      in.fail(
          "ValueError: dropout probability has to be between 0 and 1, but got " + in.py_str(a[0]),
          range);
    }
    in.setattr(self, "p", a[0], range);
    in.setattr(self, "inplace", IValue(in.truthy(a[1], range)), range);
  }
}

LayerCall norm_layer_call(const InstanceValue& m) {
  const std::string& type = m.type;
  if (starts(type, "BatchNorm")) return batch_norm_call(m);
  LayerCall call;
  if (type == "GroupNorm") {
    call.op = "aten::group_norm";
    call.args = {input(),      constant(get(m, "num_groups")), attr("weight"),
                 attr("bias"), constant(get(m, "eps")),        constant(IValue(true))};
  } else if (type == "PReLU") {
    call.op = "aten::prelu";
    call.args = {input(), attr("weight")};
  } else if (type == "GLU") {
    call.op = "aten::glu";
    call.args = {input(), constant(get(m, "dim"))};
  } else {  // Dropout2d
    const IValue p = get(m, "p");
    const IValue inplace = get(m, "inplace");
    call.op =
        inplace.is_bool() && inplace.to_bool() ? "aten::feature_dropout_" : "aten::feature_dropout";
    call.args = {input(), constant(IValue(p.to_double())), constant(get(m, "training"))};
  }
  return call;
}

std::string norm_input_error(const InstanceValue& m, int64_t rank) {
  if (m.type == "BatchNorm1d" && rank != 2 && rank != 3) {
    return "ValueError: expected 2D or 3D input (got " + std::to_string(rank) + "D input)";
  }
  if (m.type == "BatchNorm2d" && rank != 4) {
    return "ValueError: expected 4D input (got " + std::to_string(rank) + "D input)";
  }
  return "";
}

std::string norm_extra_repr(const Interpreter& in, const InstanceValue& m) {
  const std::string& type = m.type;
  auto s = [&](const char* name) { return in.py_str(get(m, name)); };
  if (starts(type, "BatchNorm")) {
    return s("num_features") + ", eps=" + s("eps") + ", momentum=" + s("momentum") +
           ", affine=" + s("affine") + ", track_running_stats=" + s("track_running_stats");
  }
  if (type == "GroupNorm") {
    return s("num_groups") + ", " + s("num_channels") + ", eps=" + s("eps") +
           ", affine=" + s("affine");
  }
  if (type == "PReLU") return "num_parameters=" + s("num_parameters");
  if (type == "GLU") return "dim=" + s("dim");
  return "p=" + s("p") + ", inplace=" + s("inplace");
}

}  // namespace d2s::interp
