// The nn modules d2s implements itself — Linear, ReLU, Tanh, Sigmoid, GELU, LayerNorm,
// Dropout, Sequential, ModuleList, Identity — with PyTorch's constructor signatures,
// default initialisation (from d2s's generator), forward (through the registry's
// ops, as TorchScript records them), repr, and the parameter registry behind
// state_dict names.
#include <cmath>
#include <unordered_set>

#include "trace/interp.h"
#include "trace/nn_attention.h"
#include "trace/nn_layers.h"
#include "trace/nn_recurrent.h"

namespace d2s::interp {

namespace {

IValue obj(std::shared_ptr<Object> o) {
  return IValue(std::move(o));
}

NnKind nn_kind(const std::string& type) {
  static const std::pair<const char*, NnKind> kKinds[] = {{"Linear", NnKind::Linear},
                                                          {"ReLU", NnKind::ReLU},
                                                          {"Tanh", NnKind::Tanh},
                                                          {"Sigmoid", NnKind::Sigmoid},
                                                          {"GELU", NnKind::GELU},
                                                          {"LayerNorm", NnKind::LayerNorm},
                                                          {"Dropout", NnKind::Dropout},
                                                          {"Sequential", NnKind::Sequential},
                                                          {"ModuleList", NnKind::ModuleList},
                                                          {"ModuleDict", NnKind::ModuleDict},
                                                          {"Identity", NnKind::Identity}};
  for (const auto& [name, kind] : kKinds) {
    if (type == name) return kind;
  }
  if (is_recurrent_class(type)) return NnKind::Recurrent;
  if (is_attention_class(type)) return NnKind::Attention;
  return is_layer_class(type) ? NnKind::Layer : NnKind::None;
}

// A new float32 tensor; errors (too many elements) get the constructor's range.
Tensor new_tensor(const Shape& shape, const SourceRange& range) {
  try {
    return Tensor::empty(shape, DType::Float32);
  } catch (const Error& e) {
    throw Error(e.message(), range, e.hint());
  }
}

std::string add_indent(const std::string& s) {
  std::string out;
  for (char c : s) {
    out += c;
    if (c == '\n') out += "  ";
  }
  return out;
}

}  // namespace

IValue Interpreter::make_parameter(const Tensor& t, bool requires_grad, const SourceRange& range) {
  // A Parameter is a new tensor object over the same data, as in PyTorch.
  Tensor p = t.view_as_shape(t.shape());
  p.set_requires_grad(requires_grad);
  parameters_[p.impl()] = ParamSite{p, range};
  return IValue(p);
}

bool Interpreter::is_parameter(const Tensor& t) const {
  return parameters_.count(t.impl()) > 0;
}

IValue Interpreter::construct_nn(const std::string& qualname, ValueList args, Kwargs kwargs,
                                 const SourceRange& range) {
  const std::string type = qualname.substr(qualname.rfind('.') + 1);
  auto inst = std::make_shared<InstanceValue>();
  inst->type = type;
  inst->nn = nn_kind(type);
  inst->is_module = true;
  inst->set("training", IValue(true));
  IValue self = obj(inst);
  auto set = [&](const std::string& name, IValue v) { setattr(self, name, std::move(v), range); };
  auto size_arg = [&](const IValue& v, const char* what) {
    int64_t n = to_index(v, PyConversion::Scalar, range, std::string(what) + " must be an integer");
    if (n < 0)
      fail(std::string("RuntimeError: ") + what + " must be non-negative, got " + std::to_string(n),
           range);
    return n;
  };
  // U(-bound, bound) with bound = 1/sqrt(fan_in): PyTorch's default for Linear.
  auto uniform_param = [&](const Shape& shape, int64_t fan_in) {
    Tensor t = new_tensor(shape, range);
    const float bound =
        fan_in > 0 ? static_cast<float>(1.0 / std::sqrt(static_cast<double>(fan_in))) : 0.0f;
    float* p = t.data<float>();
    for (int64_t i = 0; i < t.numel(); ++i) p[i] = (2.0f * generator_.uniform() - 1.0f) * bound;
    return make_parameter(t, true, range);
  };
  const std::string fname = "nn." + type;
  switch (inst->nn) {
    case NnKind::Linear: {
      ValueList a = bind_args(fname,
                              {{"in_features", std::nullopt},
                               {"out_features", std::nullopt},
                               {"bias", IValue(true)},
                               {"device", IValue()},
                               {"dtype", IValue()}},
                              std::move(args), std::move(kwargs), range);
      int64_t in = size_arg(a[0], "in_features"), out = size_arg(a[1], "out_features");
      set("in_features", IValue(in));
      set("out_features", IValue(out));
      set("weight", uniform_param({out, in}, in));
      set("bias", truthy(a[2], range) ? uniform_param({out}, in) : IValue());
      break;
    }
    case NnKind::ReLU: {
      ValueList a =
          bind_args(fname, {{"inplace", IValue(false)}}, std::move(args), std::move(kwargs), range);
      set("inplace", IValue(truthy(a[0], range)));
      break;
    }
    case NnKind::GELU: {
      ValueList a = bind_args(fname, {{"approximate", IValue("none")}}, std::move(args),
                              std::move(kwargs), range);
      if (!a[0].is_string() || (a[0].to_string() != "none" && a[0].to_string() != "tanh")) {
        fail("ValueError: GELU approximate must be 'none' or 'tanh'", range);
      }
      set("approximate", a[0]);
      break;
    }
    case NnKind::Tanh:
    case NnKind::Sigmoid:
      bind_args(fname, {}, std::move(args), std::move(kwargs), range);
      break;
    case NnKind::Identity:
      break;  // nn.Identity takes and ignores any arguments
    case NnKind::LayerNorm: {
      ValueList a = bind_args(fname,
                              {{"normalized_shape", std::nullopt},
                               {"eps", IValue(1e-5)},
                               {"elementwise_affine", IValue(true)},
                               {"bias", IValue(true)},
                               {"device", IValue()},
                               {"dtype", IValue()}},
                              std::move(args), std::move(kwargs), range);
      Shape shape;
      if (const ValueList* dims = seq_items(a[0])) {
        for (const IValue& d : *dims) shape.push_back(size_arg(d, "normalized_shape"));
      } else {
        shape.push_back(size_arg(a[0], "normalized_shape"));
      }
      std::optional<IValue> eps = to_number(a[1], PyConversion::Scalar, range);
      if (!eps) fail("TypeError: eps must be a number", range);
      set("normalized_shape", IValue::tuple(ValueList(shape.begin(), shape.end())));
      set("eps", IValue(eps->to_double()));
      const bool affine = truthy(a[2], range);
      set("elementwise_affine", IValue(affine));
      if (affine) {
        Tensor w = new_tensor(shape, range), b = new_tensor(shape, range);
        std::fill_n(w.data<float>(), w.numel(), 1.0f);
        std::fill_n(b.data<float>(), b.numel(), 0.0f);
        set("weight", make_parameter(w, true, range));
        set("bias", truthy(a[3], range) ? make_parameter(b, true, range) : IValue());
      } else {
        set("weight", IValue());
        set("bias", IValue());
      }
      break;
    }
    case NnKind::Dropout: {
      ValueList a = bind_args(fname, {{"p", IValue(0.5)}, {"inplace", IValue(false)}},
                              std::move(args), std::move(kwargs), range);
      std::optional<IValue> p = to_number(a[0], PyConversion::Scalar, range);
      if (!p || p->to_double() < 0 || p->to_double() > 1) {
        fail("ValueError: dropout probability has to be between 0 and 1, but got " + py_str(a[0]),
             range);
      }
      set("p", IValue(p->to_double()));
      set("inplace", IValue(truthy(a[1], range)));
      break;
    }
    case NnKind::Sequential:
    case NnKind::ModuleList:
      fill_container(*inst, std::move(args), std::move(kwargs), fname, range);
      break;
    case NnKind::ModuleDict: {
      ValueList a =
          bind_args(fname, {{"modules", IValue()}}, std::move(args), std::move(kwargs), range);
      if (!a[0].is_none()) module_dict_update(self, a[0], range);
      break;
    }
    case NnKind::Layer:
      construct_layer(*this, self, *inst, std::move(args), std::move(kwargs), range);
      break;
    case NnKind::Recurrent:
      construct_recurrent(*this, self, *inst, std::move(args), std::move(kwargs), range);
      break;
    case NnKind::Attention:
      construct_attention(*this, self, *inst, std::move(args), std::move(kwargs), range);
      break;
    case NnKind::None:
      fail("internal error: unknown nn module " + qualname, range);
  }
  return self;
}

IValue Interpreter::forward_nn(InstanceValue& m, ValueList args, Kwargs kwargs,
                               const SourceRange& range) {
  if (m.nn == NnKind::ModuleList || m.nn == NnKind::ModuleDict) {
    fail(
        "NotImplementedError: Module [" + m.type + "] is missing the required \"forward\" function",
        range, "iterate over the " + m.type + " and call its modules");
  }
  if (m.nn == NnKind::Identity) {
    ValueList a = bind_args("Identity.forward", {{"input", std::nullopt}}, std::move(args),
                            std::move(kwargs), range);
    return a[0];
  }
  // Their forward takes an optional state and returns tuples (nn_rnn_modules.cpp).
  if (m.nn == NnKind::Recurrent) {
    return recurrent_forward(*this, m, std::move(args), std::move(kwargs), range);
  }
  // Several inputs and optional masks; a composition of ops (nn_attention.cpp).
  if (m.nn == NnKind::Attention) {
    return attention_forward(*this, m, std::move(args), std::move(kwargs), range);
  }
  if (m.nn == NnKind::Layer && m.type.rfind("ConvTranspose", 0) == 0) {
    // forward(input, output_size=None): output_size picks the output_padding.
    ValueList a =
        bind_args(m.type + ".forward", {{"input", std::nullopt}, {"output_size", IValue()}},
                  std::move(args), std::move(kwargs), range);
    if (a[1].is_none()) return layer_forward(*this, m, a[0], range);
    const IValue padding = conv_transpose_output_padding(*this, m, a[0], a[1], range);
    return layer_forward(*this, m, a[0], range, &padding);
  }
  ValueList a = bind_args(m.type + ".forward", {{"input", std::nullopt}}, std::move(args),
                          std::move(kwargs), range);
  const IValue& x = a[0];
  auto attr = [&](const char* name) { return m.get(name) ? *m.get(name) : IValue(); };
  switch (m.nn) {
    case NnKind::Linear:
      return call_op("aten::linear", {x, attr("weight"), attr("bias")}, {}, range);
    case NnKind::ReLU:
      // ReLU(inplace=True) overwrites its input, as PyTorch's does.
      return call_op(truthy(attr("inplace"), range) ? "aten::relu_" : "aten::relu", {x}, {}, range);
    case NnKind::Tanh:
      return call_op("aten::tanh", {x}, {}, range);
    case NnKind::Sigmoid:
      return call_op("aten::sigmoid", {x}, {}, range);
    case NnKind::GELU: {
      IValue approximate = attr("approximate");
      if (approximate.is_string() && approximate.to_string() != "none") {
        return call_op("aten::gelu", {x}, {{"approximate", approximate}}, range);
      }
      return call_op("aten::gelu", {x}, {}, range);
    }
    case NnKind::LayerNorm: {
      IValue shape = attr("normalized_shape");
      const ValueList* dims = seq_items(shape);
      return call_op(
          "aten::layer_norm",
          {x, dims ? IValue::list(*dims) : shape, attr("weight"), attr("bias"), attr("eps")}, {},
          range);
    }
    case NnKind::Dropout:
      // Dropout(inplace=True) writes into its input: aten::dropout_, as PyTorch's.
      return call_op(truthy(attr("inplace"), range) ? "aten::dropout_" : "aten::dropout",
                     {x, attr("p"), IValue(truthy(attr("training"), range))}, {}, range);
    case NnKind::Layer:
      return layer_forward(*this, m, x, range);
    case NnKind::Sequential: {
      IValue h = x;
      for (const std::string& c : m.children) h = call_value(*m.get(c), {h}, {}, range);
      return h;
    }
    default:
      fail("internal error: no forward for " + m.type, range);
  }
}

void Interpreter::set_training(InstanceValue& m, bool on) {
  // Iterative with a visited set: a module graph may share (or even contain) itself.
  std::vector<InstanceValue*> todo{&m};
  std::unordered_set<InstanceValue*> seen;
  while (!todo.empty()) {
    InstanceValue* cur = todo.back();
    todo.pop_back();
    if (!seen.insert(cur).second) continue;
    if (cur->is_module) cur->set("training", IValue(on));
    for (const std::string& c : cur->children) {
      if (const IValue* v = cur->get(c)) {
        if (auto* child = as_obj<InstanceValue>(*v)) todo.push_back(child);
      }
    }
  }
}

void Interpreter::collect_parameters(const InstanceValue& m, const std::string& prefix,
                                     std::vector<std::pair<std::string, ParamSite>>* out) const {
  // named_parameters order: own parameters as registered, then each child's. A module
  // reachable from itself would recurse forever; a depth far beyond real models stops it.
  if (std::count(prefix.begin(), prefix.end(), '.') > 100) return;
  for (const std::string& name : m.params) {
    const IValue* v = m.get(name);
    if (!v || !v->is_tensor()) continue;  // a parameter set to None has no entry
    auto it = parameters_.find(v->to_tensor().impl());
    SourceRange site = it == parameters_.end() ? SourceRange() : it->second.range;
    out->emplace_back(prefix + name, ParamSite{v->to_tensor(), site});
  }
  for (const std::string& name : m.children) {
    const IValue* v = m.get(name);
    if (auto* child = v ? as_obj<InstanceValue>(*v) : nullptr)
      collect_parameters(*child, prefix + name + ".", out);
  }
}

std::string Interpreter::module_repr(const InstanceValue& m, int depth) const {
  // PyTorch's Module.__repr__: extra_repr, then each child indented.
  auto attr = [&](const char* name) { return m.get(name) ? *m.get(name) : IValue(); };
  std::string extra;
  switch (m.nn) {
    case NnKind::Linear:
      extra = "in_features=" + py_str(attr("in_features")) +
              ", out_features=" + py_str(attr("out_features")) +
              ", bias=" + (attr("bias").is_none() ? "False" : "True");
      break;
    case NnKind::ReLU:
      extra = attr("inplace").is_bool() && attr("inplace").to_bool() ? "inplace=True" : "";
      break;
    case NnKind::GELU:
      extra = "approximate=" + py_repr(attr("approximate"));
      break;
    case NnKind::LayerNorm:
      extra = py_str(attr("normalized_shape")) + ", eps=" + py_str(attr("eps")) +
              ", elementwise_affine=" + py_str(attr("elementwise_affine"));
      break;
    case NnKind::Dropout:
      extra = "p=" + py_str(attr("p")) + ", inplace=" + py_str(attr("inplace"));
      break;
    case NnKind::Layer:
      extra = layer_extra_repr(*this, m);
      break;
    case NnKind::Recurrent:
      extra = recurrent_extra_repr(*this, m);
      break;
    default:
      break;
  }
  std::vector<std::string> lines;
  if (!extra.empty()) lines.push_back(extra);
  if (depth < 50) {  // a module that contains itself prints a bounded repr
    for (const std::string& c : m.children) {
      const IValue* v = m.get(c);
      if (auto* child = v ? as_obj<InstanceValue>(*v) : nullptr) {
        lines.push_back("(" + c + "): " + add_indent(module_repr(*child, depth + 1)));
      }
    }
  }
  std::string out = m.type + "(";
  if (lines.size() == 1 && !extra.empty()) {
    out += extra;
  } else if (!lines.empty()) {
    out += "\n";
    for (const std::string& l : lines) out += "  " + l + "\n";
  }
  return out + ")";
}

}  // namespace d2s::interp
