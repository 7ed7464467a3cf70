// torch.optim: SGD, Adam, AdamW, RMSprop, Adagrad and Adadelta with PyTorch 1.13's
// single-tensor update formulas (the default on CPU), their options and defaults,
// parameter groups, zero_grad() (set_to_none=False by default, as in 1.13) and step().
// Updates work on the parameters' float32 data in place, outside autograd (as PyTorch's
// step() runs under no_grad), one element at a time in the order of PyTorch's tensor ops,
// so results match PyTorch's to float rounding.
//
// Parameter groups are PyTorch's: `param_groups` is a list of dicts, each holding its
// 'params' and every option (the constructor's values fill what a group leaves out),
// and each step reads a group's options from its dict, so a program (or a scheduler)
// that writes `group['lr'] = ...` changes the next step. The schedulers and clipping
// are in optim_schedulers.cpp.
#include "trace/optim.h"

#include <algorithm>
#include <cmath>

#include "core/autograd/autograd.h"

namespace d2s::interp {

namespace {

IValue obj(std::shared_ptr<Object> o) {
  return IValue(std::move(o));
}

// PyTorch's `required` default (SGD's lr): a group that does not set the option is an
// error.
class RequiredValue : public NativeValue {
 public:
  std::string type_name() const override { return "_RequiredParameter"; }
  bool has_method(const std::string&) const override { return false; }
  IValue call_method(Interpreter& in, const std::string& m, ValueList, Kwargs,
                     const SourceRange& range) override {
    in.fail("AttributeError: '_RequiredParameter' object has no attribute '" + m + "'", range);
  }
  std::string repr() const override { return "<required parameter>"; }
};

bool is_required(const IValue& v) {
  return as_obj<RequiredValue>(v) != nullptr;
}

struct OptSpec {
  const char* name;
  OptKind kind;
  // The constructor's parameters after `params`, in PyTorch 1.13's order, with their
  // defaults (ints where PyTorch writes `0`, so the options print as PyTorch's do).
  std::vector<ParamSpec> (*signature)();
  // The keys of PyTorch's `defaults` dict, in the order its constructor builds it.
  std::vector<const char*> defaults_order;
};

IValue required() {
  static const IValue r = obj(std::make_shared<RequiredValue>());
  return r;
}
IValue zero() {
  return IValue(int64_t{0});
}

const OptSpec kOptimizers[] = {
    {"SGD",
     OptKind::SGD,
     [] {
       return std::vector<ParamSpec>{
           {"lr", required()},          {"momentum", zero()},
           {"dampening", zero()},       {"weight_decay", zero()},
           {"nesterov", IValue(false)}, {"maximize", IValue(false)},
           {"foreach", IValue()},       {"differentiable", IValue(false)}};
     },
     {"lr", "momentum", "dampening", "weight_decay", "nesterov", "maximize", "foreach",
      "differentiable"}},
    {"Adam",
     OptKind::Adam,
     [] {
       return std::vector<ParamSpec>{{"lr", IValue(1e-3)},
                                     {"betas", IValue::tuple({IValue(0.9), IValue(0.999)})},
                                     {"eps", IValue(1e-8)},
                                     {"weight_decay", zero()},
                                     {"amsgrad", IValue(false)},
                                     {"foreach", IValue()},
                                     {"maximize", IValue(false)},
                                     {"capturable", IValue(false)},
                                     {"differentiable", IValue(false)},
                                     {"fused", IValue(false)}};
     },
     {"lr", "betas", "eps", "weight_decay", "amsgrad", "maximize", "foreach", "capturable",
      "differentiable", "fused"}},
    {"AdamW",
     OptKind::AdamW,
     [] {
       return std::vector<ParamSpec>{
           {"lr", IValue(1e-3)},       {"betas", IValue::tuple({IValue(0.9), IValue(0.999)})},
           {"eps", IValue(1e-8)},      {"weight_decay", IValue(1e-2)},
           {"amsgrad", IValue(false)}, {"maximize", IValue(false)},
           {"foreach", IValue()},      {"capturable", IValue(false)}};
     },
     {"lr", "betas", "eps", "weight_decay", "amsgrad", "foreach", "maximize", "capturable"}},
    {"RMSprop",
     OptKind::RMSprop,
     [] {
       return std::vector<ParamSpec>{{"lr", IValue(1e-2)},
                                     {"alpha", IValue(0.99)},
                                     {"eps", IValue(1e-8)},
                                     {"weight_decay", zero()},
                                     {"momentum", zero()},
                                     {"centered", IValue(false)},
                                     {"foreach", IValue()},
                                     {"maximize", IValue(false)},
                                     {"differentiable", IValue(false)}};
     },
     {"lr", "momentum", "alpha", "eps", "centered", "weight_decay", "foreach", "maximize",
      "differentiable"}},
    {"Adagrad",
     OptKind::Adagrad,
     [] {
       return std::vector<ParamSpec>{
           {"lr", IValue(1e-2)},       {"lr_decay", zero()},
           {"weight_decay", zero()},   {"initial_accumulator_value", zero()},
           {"eps", IValue(1e-10)},     {"foreach", IValue()},
           {"maximize", IValue(false)}};
     },
     {"lr", "lr_decay", "eps", "weight_decay", "initial_accumulator_value", "foreach", "maximize"}},
    {"Adadelta",
     OptKind::Adadelta,
     [] {
       return std::vector<ParamSpec>{{"lr", IValue(1.0)},   {"rho", IValue(0.9)},
                                     {"eps", IValue(1e-6)}, {"weight_decay", zero()},
                                     {"foreach", IValue()}, {"maximize", IValue(false)}};
     },
     {"lr", "rho", "eps", "weight_decay", "maximize", "foreach"}},
};

// d[key] for a string key; KeyError as Python writes it.
IValue dict_get(Interpreter& in, const DictValue& d, const char* key, const SourceRange& range) {
  return d.get(in, IValue(key), range);
}

}  // namespace

bool OptimizerValue::has_method(const std::string& m) const {
  return m == "step" || m == "zero_grad" || m == "add_param_group";
}

std::optional<IValue> OptimizerValue::attribute(const std::string& attr) const {
  if (attr == "param_groups") return param_groups;
  if (attr == "defaults") return defaults;
  return std::nullopt;
}

std::vector<DictValue*> OptimizerValue::groups() const {
  std::vector<DictValue*> out;
  for (const IValue& g : param_groups.list_items()) {
    // A program may have replaced an item of the list: PyTorch would fail on it too.
    if (DictValue* d = as_dict(g)) out.push_back(d);
  }
  return out;
}

std::vector<Tensor> OptimizerValue::group_params(Interpreter& in, DictValue& group,
                                                 const SourceRange& range) const {
  std::vector<Tensor> out;
  for (const IValue& p : in.iterate(dict_get(in, group, "params", range), range)) {
    if (!p.is_tensor()) {
      in.fail("TypeError: optimizer can only optimize Tensors, but one of the params is " +
                  py_type_name(p),
              range);
    }
    out.push_back(p.to_tensor());
  }
  return out;
}

std::string OptimizerValue::repr() const {
  // PyTorch's Optimizer.__repr__: each group's options (not its params), sorted by name.
  std::string out = name + " (";
  size_t i = 0;
  for (const DictValue* g : groups()) {
    out += "\nParameter Group " + std::to_string(i++) + "\n";
    std::vector<std::pair<std::string, IValue>> sorted;
    for (const auto& [k, v] : g->items) {
      if (k.is_string() && k.to_string() != "params") sorted.emplace_back(k.to_string(), v);
    }
    std::sort(sorted.begin(), sorted.end(),
              [](const auto& x, const auto& y) { return x.first < y.first; });
    for (const auto& [k, v] : sorted) {
      std::string text = v.is_double() ? v.repr() : v.str();
      if (auto* n = as_obj<NativeValue>(v)) text = n->repr();
      out += "    " + k + ": " + text + "\n";
    }
  }
  return out + ")";
}

void OptimizerValue::add_param_group(Interpreter& in, const IValue& group_value,
                                     const SourceRange& range) {
  DictValue* group = as_dict(group_value);
  if (!group || group->is_set) in.fail("AssertionError: param group must be a dict", range);
  IValue params = dict_get(in, *group, "params", range);
  if (params.is_tensor()) {
    params = IValue::list({params});
  } else if (DictValue* s = as_dict(params); s && s->is_set) {
    in.fail(
        "TypeError: optimizer parameters need to be organized in ordered collections, but the "
        "ordering of tensors in sets will change between runs. Please use a list instead.",
        range);
  } else {
    params = IValue::list(in.iterate(params, range));
  }
  group->put(in, IValue("params"), params, range);
  for (const IValue& p : params.list_items()) {
    if (!p.is_tensor()) {
      in.fail("TypeError: optimizer can only optimize Tensors, but one of the params is " +
                  py_type_name(p),
              range,
              p.is_list() || p.is_tuple()
                  ? "pass a list of tensors, model.parameters(), or a list of parameter groups "
                    "(dicts such as {'params': model.fc.parameters(), 'lr': 0.01})"
                  : "");
    }
    const Tensor& t = p.to_tensor();
    if (!is_leaf(t)) in.fail("ValueError: can't optimize a non-leaf Tensor", range);
    if (t.dtype() != DType::Float32) {
      in.fail("TypeError: d2s optimizes float32 tensors, and one of the params is " +
                  std::string(dtype_torch_name(t.dtype())),
              range);
    }
  }
  for (const auto& [k, v] : as_dict(defaults)->items) {
    if (is_required(v) && group->find(in, k, range) < 0) {
      in.fail(
          "ValueError: parameter group didn't specify a value of required optimization "
          "parameter " +
              k.to_string(),
          range, "SGD has no default lr: pass lr= to the constructor or give every group an 'lr'");
    }
    if (group->find(in, k, range) < 0) group->items.emplace_back(k, v);
  }
  // Options PyTorch's CPU path cannot run are refused in a group as in the defaults.
  for (const char* k : {"differentiable", "capturable", "fused"}) {
    int64_t i = group->find(in, IValue(k), range);
    if (i >= 0 && in.truthy(group->items[static_cast<size_t>(i)].second, range)) {
      in.fail(std::string(k) + "=True is not supported by d2s", range,
              "leave it at its default (False)");
    }
  }
  for (DictValue* g : groups()) {
    for (const Tensor& old : group_params(in, *g, range)) {
      for (const IValue& p : params.list_items()) {
        if (p.to_tensor().is_same(old)) {
          in.fail("ValueError: some parameters appear in more than one parameter group", range,
                  "give each parameter to one group only");
        }
      }
    }
  }
  param_groups.list_items().push_back(group_value);
}

OptOptions OptimizerValue::options_of(Interpreter& in, DictValue& group,
                                      const SourceRange& range) const {
  OptOptions o;
  auto number = [&](const char* k) {
    const IValue v = dict_get(in, group, k, range);
    if (is_required(v)) {
      in.fail(
          "ValueError: parameter group didn't specify a value of required optimization "
          "parameter " +
              std::string(k),
          range);
    }
    return number_arg(in, v, std::string("the group's ") + k, range);
  };
  auto flag = [&](const char* k) { return in.truthy(dict_get(in, group, k, range), range); };
  o.lr = number("lr");
  o.weight_decay = number("weight_decay");
  o.maximize = flag("maximize");
  switch (kind) {
    case OptKind::SGD:
      o.momentum = number("momentum");
      o.dampening = number("dampening");
      o.nesterov = flag("nesterov");
      break;
    case OptKind::Adam:
    case OptKind::AdamW: {
      const IValue betas = dict_get(in, group, "betas", range);
      const ValueList* items = seq_items(betas);
      if (!items || items->size() != 2) in.fail("TypeError: betas must be a pair of floats", range);
      o.beta1 = number_arg(in, (*items)[0], "betas[0]", range);
      o.beta2 = number_arg(in, (*items)[1], "betas[1]", range);
      o.eps = number("eps");
      o.amsgrad = flag("amsgrad");
      break;
    }
    case OptKind::RMSprop:
      o.alpha = number("alpha");
      o.eps = number("eps");
      o.momentum = number("momentum");
      o.centered = flag("centered");
      break;
    case OptKind::Adagrad:
      o.lr_decay = number("lr_decay");
      o.eps = number("eps");
      break;
    case OptKind::Adadelta:
      o.rho = number("rho");
      o.eps = number("eps");
      break;
  }
  return o;
}

void OptimizerValue::update(const OptOptions& o, Tensor& p, const Tensor& grad_t,
                            ParamState& s) const {
  const int64_t n = p.numel();
  float* w = p.data<float>();
  const Tensor gt = grad_t.to(DType::Float32);
  std::vector<float> g(gt.data<float>(), gt.data<float>() + n);
  if (o.maximize) {
    for (float& x : g) x = -x;
  }
  auto f = [](double x) { return static_cast<float>(x); };
  // `grad = grad.add(param, alpha=weight_decay)` (not AdamW: it decays the weights).
  if (o.weight_decay != 0 && kind != OptKind::AdamW) {
    const float wd = f(o.weight_decay);
    for (int64_t i = 0; i < n; ++i) g[i] = g[i] + wd * w[i];
  }
  switch (kind) {
    case OptKind::SGD: {
      if (o.momentum != 0) {
        if (!s.has_buf) {
          s.a = g;  // buf = clone(d_p)
          s.has_buf = true;
        } else {
          const float mom = f(o.momentum), keep = f(1 - o.dampening);
          for (int64_t i = 0; i < n; ++i) s.a[i] = s.a[i] * mom + keep * g[i];
        }
        if (o.nesterov) {
          const float mom = f(o.momentum);
          for (int64_t i = 0; i < n; ++i) g[i] = g[i] + mom * s.a[i];
        } else {
          g = s.a;
        }
      }
      const float step = f(-o.lr);
      for (int64_t i = 0; i < n; ++i) w[i] = w[i] + step * g[i];
      return;
    }
    case OptKind::Adam:
    case OptKind::AdamW: {
      if (s.a.empty()) {
        s.a.assign(n, 0.0f);
        s.b.assign(n, 0.0f);
        if (o.amsgrad) s.c.assign(n, 0.0f);
      }
      s.step += 1;
      if (kind == OptKind::AdamW) {
        const float decay = f(1 - o.lr * o.weight_decay);
        for (int64_t i = 0; i < n; ++i) w[i] = w[i] * decay;
      }
      const float b1 = f(o.beta1), b2 = f(o.beta2), one_b1 = f(1 - o.beta1),
                  one_b2 = f(1 - o.beta2);
      for (int64_t i = 0; i < n; ++i) {
        s.a[i] = s.a[i] * b1 + one_b1 * g[i];
        s.b[i] = s.b[i] * b2 + one_b2 * g[i] * g[i];
      }
      const double bc1 = 1 - std::pow(o.beta1, s.step);
      const double bc2 = 1 - std::pow(o.beta2, s.step);
      const float step_size = f(-(o.lr / bc1));
      const float bc2_sqrt = f(std::sqrt(bc2));
      const float e = f(o.eps);
      for (int64_t i = 0; i < n; ++i) {
        float v = s.b[i];
        if (o.amsgrad) v = s.c[i] = std::max(s.c[i], s.b[i]);
        const float denom = std::sqrt(v) / bc2_sqrt + e;
        w[i] = w[i] + step_size * (s.a[i] / denom);
      }
      return;
    }
    case OptKind::RMSprop: {
      if (s.a.empty()) {
        s.a.assign(n, 0.0f);
        if (o.momentum > 0) s.b.assign(n, 0.0f);
        if (o.centered) s.c.assign(n, 0.0f);
      }
      s.step += 1;
      const float al = f(o.alpha), one_al = f(1 - o.alpha), e = f(o.eps), step = f(-o.lr);
      for (int64_t i = 0; i < n; ++i) {
        s.a[i] = s.a[i] * al + one_al * g[i] * g[i];
        float avg;
        if (o.centered) {
          s.c[i] = s.c[i] * al + one_al * g[i];
          avg = std::sqrt(s.a[i] + -1.0f * s.c[i] * s.c[i]);
        } else {
          avg = std::sqrt(s.a[i]);
        }
        avg = avg + e;
        if (o.momentum > 0) {
          s.b[i] = s.b[i] * f(o.momentum) + g[i] / avg;
          w[i] = w[i] + step * s.b[i];
        } else {
          w[i] = w[i] + step * (g[i] / avg);
        }
      }
      return;
    }
    case OptKind::Adagrad: {
      // The sums were filled when the optimizer was constructed (make_optimizer).
      s.step += 1;
      const float clr = f(-(o.lr / (1 + (s.step - 1) * o.lr_decay)));
      const float e = f(o.eps);
      for (int64_t i = 0; i < n; ++i) {
        s.a[i] = s.a[i] + 1.0f * g[i] * g[i];
        const float std_ = std::sqrt(s.a[i]) + e;
        w[i] = w[i] + clr * (g[i] / std_);
      }
      return;
    }
    case OptKind::Adadelta: {
      if (s.a.empty()) {
        s.a.assign(n, 0.0f);
        s.b.assign(n, 0.0f);
      }
      s.step += 1;
      const float r = f(o.rho), one_r = f(1 - o.rho), e = f(o.eps), step = f(-o.lr);
      for (int64_t i = 0; i < n; ++i) {
        s.a[i] = s.a[i] * r + one_r * g[i] * g[i];
        const float std_ = std::sqrt(s.a[i] + e);
        const float delta = std::sqrt(s.b[i] + e) / std_ * g[i];
        s.b[i] = s.b[i] * r + one_r * delta * delta;
        w[i] = w[i] + step * delta;
      }
      return;
    }
  }
}

void OptimizerValue::step_all(Interpreter& in, const SourceRange& range) {
  for (DictValue* group : groups()) {
    const OptOptions o = options_of(in, *group, range);
    for (Tensor& p : group_params(in, *group, range)) {
      const Tensor g = grad_of(p);
      if (!g.defined()) continue;  // a parameter without a gradient is skipped, as in PyTorch
      ParamState& s = state[p.impl()];
      if (kind == OptKind::Adagrad && !s.has_buf) {
        in.fail("KeyError: 'sum'", range,
                "Adagrad fills its state for the parameters it is constructed with; in PyTorch "
                "1.13 a group added later by add_param_group has none, and step() fails");
      }
      update(o, p, g, s);
    }
  }
}

IValue OptimizerValue::call_method(Interpreter& in, const std::string& m, ValueList args,
                                   Kwargs kwargs, const SourceRange& range) {
  if (m == "add_param_group") {
    ValueList a = bind_args(name + ".add_param_group", {{"param_group", std::nullopt}},
                            std::move(args), std::move(kwargs), range);
    add_param_group(in, a[0], range);
    return IValue();
  }
  if (m == "zero_grad") {
    // PyTorch 1.13's default is set_to_none=False: gradients are zeroed in place.
    ValueList a = bind_args(name + ".zero_grad", {{"set_to_none", IValue(false)}}, std::move(args),
                            std::move(kwargs), range);
    const bool to_none = in.truthy(a[0], range);
    for (DictValue* group : groups()) {
      for (Tensor& p : group_params(in, *group, range)) {
        Tensor g = grad_of(p);
        if (!g.defined()) continue;
        if (to_none) {
          clear_grad(p);
        } else {
          float* d = g.data<float>();
          for (int64_t i = 0, n = g.numel(); i < n; ++i) d[i] = 0.0f;
        }
      }
    }
    return IValue();
  }
  // step(closure=None): the closure (re-evaluating the loss) runs first with grad mode
  // on; its result is returned.
  ValueList a =
      bind_args(name + ".step", {{"closure", IValue()}}, std::move(args), std::move(kwargs), range);
  IValue loss;
  if (!a[0].is_none()) {
    GradModeGuard grad_on(true);
    loss = in.call_value(a[0], {}, {}, range);
  }
  NoGradGuard no_grad;
  step_all(in, range);
  return loss;
}

namespace {

IValue make_optimizer(Interpreter& in, const OptSpec& spec, ValueList args, Kwargs kwargs,
                      const SourceRange& range) {
  auto opt = std::make_shared<OptimizerValue>();
  opt->name = spec.name;
  opt->kind = spec.kind;
  std::vector<ParamSpec> ps{{"params", std::nullopt}};
  for (const ParamSpec& p : spec.signature()) ps.push_back(p);
  const std::string fname = std::string(spec.name) + ".__init__";
  ValueList a = bind_args(fname, ps, std::move(args), std::move(kwargs), range);
  // PyTorch's Optimizer.__init__ validates the defaults (not the groups' own values).
  auto value_of = [&](const char* k) -> const IValue& {
    for (size_t i = 1; i < ps.size(); ++i) {
      if (std::string(ps[i].name) == k) return a[i];
    }
    throw Error(std::string("internal: no option ") + k, range);
  };
  auto has = [&](const char* k) {
    return std::any_of(ps.begin() + 1, ps.end(),
                       [&](const ParamSpec& p) { return std::string(p.name) == k; });
  };
  auto check = [&](const char* k, const char* message, bool upper_one = false) {
    if (!has(k)) return;
    const IValue& v = value_of(k);
    if (is_required(v)) return;
    if (std::string(k) == "lr" && v.is_none())
      in.fail("ValueError: Invalid learning rate: None", range);
    const double x = number_arg(in, v, k, range);
    if (!(x >= 0) || (upper_one && x > 1)) {
      in.fail(std::string("ValueError: ") + message + in.py_str(v), range,
              std::string(k) + (upper_one ? " must be between 0 and 1" : " must be >= 0"));
    }
  };
  check("lr", "Invalid learning rate: ");
  check("momentum", "Invalid momentum value: ");
  check("weight_decay", "Invalid weight_decay value: ");
  check("eps", "Invalid epsilon value: ");
  check("alpha", "Invalid alpha value: ");
  check("lr_decay", "Invalid lr_decay value: ");
  check("initial_accumulator_value", "Invalid initial_accumulator_value value: ");
  check("rho", "Invalid rho value: ", true);
  if (has("dampening")) number_arg(in, value_of("dampening"), "dampening", range);
  if (has("betas")) {
    const ValueList* items = seq_items(value_of("betas"));
    if (!items || items->size() != 2) in.fail("TypeError: betas must be a pair of floats", range);
    for (int i = 0; i < 2; ++i) {
      const double b = number_arg(in, (*items)[static_cast<size_t>(i)], "betas", range);
      if (!(b >= 0 && b < 1)) {
        in.fail("ValueError: Invalid beta parameter at index " + std::to_string(i) + ": " +
                    in.py_str((*items)[static_cast<size_t>(i)]),
                range);
      }
    }
  }
  if (spec.kind == OptKind::SGD && in.truthy(value_of("nesterov"), range)) {
    const IValue& mom = value_of("momentum");
    if (number_arg(in, mom, "momentum", range) <= 0 ||
        number_arg(in, value_of("dampening"), "dampening", range) != 0) {
      in.fail("ValueError: Nesterov momentum requires a momentum and zero dampening", range);
    }
  }
  auto defaults = std::make_shared<DictValue>();
  for (const char* k : spec.defaults_order) defaults->items.emplace_back(IValue(k), value_of(k));
  opt->defaults = obj(defaults);
  opt->param_groups = IValue::list({});
  // PyTorch's Optimizer.__init__: a tensor is refused; a list whose first item is not a
  // dict is one group.
  if (a[0].is_tensor()) {
    in.fail(
        "TypeError: params argument given to the optimizer should be an iterable of Tensors "
        "or dicts, but got " +
            std::string(a[0].to_tensor().dtype() == DType::Float32 ? "torch.FloatTensor"
                        : a[0].to_tensor().dtype() == DType::Int64 ? "torch.LongTensor"
                                                                   : "torch.BoolTensor"),
        range, "wrap it in a list: [tensor]");
  }
  ValueList given = in.iterate(a[0], range);
  if (given.empty()) in.fail("ValueError: optimizer got an empty parameter list", range);
  if (!as_dict(given[0])) {
    auto group = std::make_shared<DictValue>();
    group->items.emplace_back(IValue("params"), IValue::list(std::move(given)));
    given = {obj(group)};
  }
  for (const IValue& g : given) opt->add_param_group(in, g, range);
  if (spec.kind == OptKind::Adagrad) {
    // PyTorch's Adagrad.__init__ fills every parameter's sum with the constructor's
    // initial_accumulator_value (a group's own value is not used).
    const float init = static_cast<float>(
        number_arg(in, value_of("initial_accumulator_value"), "initial_accumulator_value", range));
    for (DictValue* g : opt->groups()) {
      for (const Tensor& p : opt->group_params(in, *g, range)) {
        ParamState& s = opt->state[p.impl()];
        s.a.assign(static_cast<size_t>(p.numel()), init);
        s.has_buf = true;
      }
    }
  }
  return obj(opt);
}

}  // namespace

IValue NativeValue::call(Interpreter& in, ValueList args, Kwargs kwargs, const SourceRange& range) {
  (void)args, (void)kwargs;
  in.fail("TypeError: '" + type_name() + "' object is not callable", range);
}

double number_arg(Interpreter& in, const IValue& v, const std::string& what,
                  const SourceRange& range) {
  std::optional<IValue> n = in.to_number(v, PyConversion::Scalar, range);
  if (!n) in.fail("TypeError: " + what + " must be a number, not " + py_type_name(v), range);
  return n->to_double();
}

bool is_training_namespace(const std::string& q) {
  return q == "torch.optim" || q == "torch.optim.lr_scheduler" || q == "torch.nn.utils";
}

bool is_training_name(const std::string& q) {
  for (const OptSpec& s : kOptimizers) {
    if (q == std::string("torch.optim.") + s.name) return true;
  }
  return q == "torch.optim.lr_scheduler.StepLR" || q == "torch.optim.lr_scheduler.LambdaLR" ||
         q == "torch.nn.utils.clip_grad_norm_" || q == "torch.nn.utils.clip_grad_value_" ||
         is_loss_module_name(q);
}

IValue call_training_name(Interpreter& in, const std::string& q, ValueList args, Kwargs kwargs,
                          const SourceRange& range) {
  for (const OptSpec& s : kOptimizers) {
    if (q == std::string("torch.optim.") + s.name)
      return make_optimizer(in, s, std::move(args), std::move(kwargs), range);
  }
  if (q == "torch.optim.lr_scheduler.StepLR")
    return make_scheduler(in, "StepLR", std::move(args), std::move(kwargs), range);
  if (q == "torch.optim.lr_scheduler.LambdaLR")
    return make_scheduler(in, "LambdaLR", std::move(args), std::move(kwargs), range);
  if (q == "torch.nn.utils.clip_grad_norm_")
    return clip_grad_norm(in, std::move(args), std::move(kwargs), range);
  if (q == "torch.nn.utils.clip_grad_value_")
    return clip_grad_value(in, std::move(args), std::move(kwargs), range);
  return construct_loss_module(in, q, std::move(args), std::move(kwargs), range);
}

}  // namespace d2s::interp
