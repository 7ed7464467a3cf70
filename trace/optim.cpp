// torch.optim: SGD, Adam, AdamW, RMSprop, Adagrad and Adadelta with PyTorch 1.13's
// single-tensor update formulas (the default on CPU), their options and defaults,
// zero_grad() (set_to_none=False by default, as in 1.13) and step(); the schedulers StepLR and
// LambdaLR; torch.nn.utils.clip_grad_norm_ and clip_grad_value_. Updates work on the parameters'
// float32 data in place, outside autograd (as PyTorch's step() runs under no_grad), one element at
// a time in the order of PyTorch's tensor ops, so results match PyTorch's to float rounding.
//
// One parameter group: the parameters given to the constructor (a list, or
// model.parameters()). Groups written as dicts need dict values, which the model
// language does not have yet; such an argument gets a clear error.
#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "core/autograd.h"
#include "trace/native_value.h"

namespace d2s::interp {

namespace {

IValue obj(std::shared_ptr<Object> o) {
  return IValue(std::move(o));
}

enum class OptKind { SGD, Adam, AdamW, RMSprop, Adagrad, Adadelta };

struct OptSpec {
  const char* name;
  OptKind kind;
};
const OptSpec kOptimizers[] = {{"SGD", OptKind::SGD},         {"Adam", OptKind::Adam},
                               {"AdamW", OptKind::AdamW},     {"RMSprop", OptKind::RMSprop},
                               {"Adagrad", OptKind::Adagrad}, {"Adadelta", OptKind::Adadelta}};

// Per-parameter state: PyTorch's step count and up to three buffers (exp_avg /
// exp_avg_sq / max_exp_avg_sq for Adam; momentum_buffer for SGD; square_avg /
// momentum_buffer / grad_avg for RMSprop; sum for Adagrad; square_avg / acc_delta for
// Adadelta).
struct ParamState {
  double step = 0;
  bool has_buf = false;  // SGD's momentum buffer exists after the first step
  std::vector<float> a, b, c;
};

class OptimizerValue : public NativeValue {
 public:
  std::string type_name() const override { return name; }
  bool has_method(const std::string& m) const override { return m == "step" || m == "zero_grad"; }
  IValue call_method(Interpreter& in, const std::string& m, ValueList args, Kwargs kwargs,
                     const SourceRange& range) override;
  std::string repr() const override;

  void step_all();

  std::string name;
  OptKind kind = OptKind::SGD;
  std::vector<Tensor> params;
  // Hyperparameters (those of the kind in use; the rest keep their defaults).
  double lr = 0, momentum = 0, dampening = 0, weight_decay = 0, beta1 = 0.9, beta2 = 0.999,
         eps = 1e-8, alpha = 0.99, lr_decay = 0, initial_accumulator_value = 0, rho = 0.9;
  bool nesterov = false, maximize = false, amsgrad = false, centered = false;
  std::vector<std::pair<std::string, IValue>> shown;  // the options, for repr
  std::unordered_map<const TensorImpl*, ParamState> state;

 private:
  void update(Tensor& p, const Tensor& grad, ParamState& s);
};

std::string OptimizerValue::repr() const {
  // PyTorch's Optimizer.__repr__: the options of each group, sorted by name.
  std::vector<std::pair<std::string, IValue>> sorted = shown;
  std::sort(sorted.begin(), sorted.end(),
            [](const auto& x, const auto& y) { return x.first < y.first; });
  std::string out = name + " (\nParameter Group 0\n";
  for (const auto& [k, v] : sorted) {
    out += "    " + k + ": " + (v.is_double() ? v.repr() : v.str()) + "\n";
  }
  return out + ")";
}

void OptimizerValue::update(Tensor& p, const Tensor& grad_t, ParamState& s) {
  const int64_t n = p.numel();
  float* w = p.data<float>();
  const Tensor gt = grad_t.to(DType::Float32);
  std::vector<float> g(gt.data<float>(), gt.data<float>() + n);
  if (maximize) {
    for (float& x : g) x = -x;
  }
  auto f = [](double x) { return static_cast<float>(x); };
  // `grad = grad.add(param, alpha=weight_decay)` (not AdamW: it decays the weights).
  if (weight_decay != 0 && kind != OptKind::AdamW) {
    const float wd = f(weight_decay);
    for (int64_t i = 0; i < n; ++i) g[i] = g[i] + wd * w[i];
  }
  switch (kind) {
    case OptKind::SGD: {
      if (momentum != 0) {
        if (!s.has_buf) {
          s.a = g;  // buf = clone(d_p)
          s.has_buf = true;
        } else {
          const float mom = f(momentum), keep = f(1 - dampening);
          for (int64_t i = 0; i < n; ++i) s.a[i] = s.a[i] * mom + keep * g[i];
        }
        if (nesterov) {
          const float mom = f(momentum);
          for (int64_t i = 0; i < n; ++i) g[i] = g[i] + mom * s.a[i];
        } else {
          g = s.a;
        }
      }
      const float step = f(-lr);
      for (int64_t i = 0; i < n; ++i) w[i] = w[i] + step * g[i];
      return;
    }
    case OptKind::Adam:
    case OptKind::AdamW: {
      if (s.a.empty()) {
        s.a.assign(n, 0.0f);
        s.b.assign(n, 0.0f);
        if (amsgrad) s.c.assign(n, 0.0f);
      }
      s.step += 1;
      if (kind == OptKind::AdamW) {
        const float decay = f(1 - lr * weight_decay);
        for (int64_t i = 0; i < n; ++i) w[i] = w[i] * decay;
      }
      const float b1 = f(beta1), b2 = f(beta2), one_b1 = f(1 - beta1), one_b2 = f(1 - beta2);
      for (int64_t i = 0; i < n; ++i) {
        s.a[i] = s.a[i] * b1 + one_b1 * g[i];
        s.b[i] = s.b[i] * b2 + one_b2 * g[i] * g[i];
      }
      const double bc1 = 1 - std::pow(beta1, s.step);
      const double bc2 = 1 - std::pow(beta2, s.step);
      const float step_size = f(-(lr / bc1));
      const float bc2_sqrt = f(std::sqrt(bc2));
      const float e = f(eps);
      for (int64_t i = 0; i < n; ++i) {
        float v = s.b[i];
        if (amsgrad) v = s.c[i] = std::max(s.c[i], s.b[i]);
        const float denom = std::sqrt(v) / bc2_sqrt + e;
        w[i] = w[i] + step_size * (s.a[i] / denom);
      }
      return;
    }
    case OptKind::RMSprop: {
      if (s.a.empty()) {
        s.a.assign(n, 0.0f);
        if (momentum > 0) s.b.assign(n, 0.0f);
        if (centered) s.c.assign(n, 0.0f);
      }
      s.step += 1;
      const float al = f(alpha), one_al = f(1 - alpha), e = f(eps), step = f(-lr);
      for (int64_t i = 0; i < n; ++i) {
        s.a[i] = s.a[i] * al + one_al * g[i] * g[i];
        float avg;
        if (centered) {
          s.c[i] = s.c[i] * al + one_al * g[i];
          avg = std::sqrt(s.a[i] + -1.0f * s.c[i] * s.c[i]);
        } else {
          avg = std::sqrt(s.a[i]);
        }
        avg = avg + e;
        if (momentum > 0) {
          s.b[i] = s.b[i] * f(momentum) + g[i] / avg;
          w[i] = w[i] + step * s.b[i];
        } else {
          w[i] = w[i] + step * (g[i] / avg);
        }
      }
      return;
    }
    case OptKind::Adagrad: {
      if (s.a.empty()) s.a.assign(n, f(initial_accumulator_value));
      s.step += 1;
      const float clr = f(-(lr / (1 + (s.step - 1) * lr_decay)));
      const float e = f(eps);
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
      const float r = f(rho), one_r = f(1 - rho), e = f(eps), step = f(-lr);
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

void OptimizerValue::step_all() {
  for (Tensor& p : params) {
    const Tensor g = grad_of(p);
    if (!g.defined()) continue;  // a parameter without a gradient is skipped, as in PyTorch
    update(p, g, state[p.impl()]);
  }
}

IValue OptimizerValue::call_method(Interpreter& in, const std::string& m, ValueList args,
                                   Kwargs kwargs, const SourceRange& range) {
  if (m == "zero_grad") {
    // PyTorch 1.13's default is set_to_none=False: gradients are zeroed in place.
    ValueList a = bind_args(name + ".zero_grad", {{"set_to_none", IValue(false)}}, std::move(args),
                            std::move(kwargs), range);
    const bool to_none = in.truthy(a[0], range);
    for (Tensor& p : params) {
      Tensor g = grad_of(p);
      if (!g.defined()) continue;
      if (to_none) {
        clear_grad(p);
      } else {
        float* d = g.data<float>();
        for (int64_t i = 0; i < g.numel(); ++i) d[i] = 0.0f;
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
  step_all();
  return loss;
}

// The parameters an optimizer or clip function is given: a tensor, or an iterable of
// tensors (a list, model.parameters()).
std::vector<Tensor> tensors_of(Interpreter& in, const IValue& v, const std::string& who,
                               const SourceRange& range) {
  if (v.is_tensor()) return {v.to_tensor()};
  std::vector<Tensor> out;
  for (const IValue& item : in.iterate(v, range)) {
    if (!item.is_tensor()) {
      in.fail("TypeError: " + who + " can only optimize Tensors, but one of the params is " +
                  py_type_name(item),
              range,
              item.is_object() || item.is_list() || item.is_tuple()
                  ? "d2s takes one group of parameters (a list or model.parameters()); "
                    "parameter groups written as dicts are not supported yet"
                  : "");
    }
    out.push_back(item.to_tensor());
  }
  return out;
}

IValue make_optimizer(Interpreter& in, const OptSpec& spec, ValueList args, Kwargs kwargs,
                      const SourceRange& range) {
  auto opt = std::make_shared<OptimizerValue>();
  opt->name = spec.name;
  opt->kind = spec.kind;
  std::vector<ParamSpec> ps{{"params", std::nullopt}};
  // PyTorch 1.13's signatures, keyword-only options included (accepted by name).
  switch (spec.kind) {
    case OptKind::SGD:
      ps.insert(ps.end(), {{"lr", std::nullopt},
                           {"momentum", IValue(0.0)},
                           {"dampening", IValue(0.0)},
                           {"weight_decay", IValue(0.0)},
                           {"nesterov", IValue(false)},
                           {"maximize", IValue(false)},
                           {"foreach", IValue()},
                           {"differentiable", IValue(false)}});
      break;
    case OptKind::Adam:
    case OptKind::AdamW:
      ps.insert(ps.end(), {{"lr", IValue(1e-3)},
                           {"betas", IValue::tuple({IValue(0.9), IValue(0.999)})},
                           {"eps", IValue(1e-8)},
                           {"weight_decay", IValue(spec.kind == OptKind::AdamW ? 1e-2 : 0.0)},
                           {"amsgrad", IValue(false)},
                           {"foreach", IValue()},
                           {"maximize", IValue(false)},
                           {"capturable", IValue(false)},
                           {"differentiable", IValue(false)},
                           {"fused", IValue(false)}});
      break;
    case OptKind::RMSprop:
      ps.insert(ps.end(), {{"lr", IValue(1e-2)},
                           {"alpha", IValue(0.99)},
                           {"eps", IValue(1e-8)},
                           {"weight_decay", IValue(0.0)},
                           {"momentum", IValue(0.0)},
                           {"centered", IValue(false)},
                           {"foreach", IValue()},
                           {"maximize", IValue(false)},
                           {"differentiable", IValue(false)}});
      break;
    case OptKind::Adagrad:
      ps.insert(ps.end(), {{"lr", IValue(1e-2)},
                           {"lr_decay", IValue(0.0)},
                           {"weight_decay", IValue(0.0)},
                           {"initial_accumulator_value", IValue(0.0)},
                           {"eps", IValue(1e-10)},
                           {"foreach", IValue()},
                           {"maximize", IValue(false)}});
      break;
    case OptKind::Adadelta:
      ps.insert(ps.end(), {{"lr", IValue(1.0)},
                           {"rho", IValue(0.9)},
                           {"eps", IValue(1e-6)},
                           {"weight_decay", IValue(0.0)},
                           {"foreach", IValue()},
                           {"maximize", IValue(false)}});
      break;
  }
  const std::string fname = std::string(spec.name) + ".__init__";
  ValueList a = bind_args(fname, ps, std::move(args), std::move(kwargs), range);
  opt->params = tensors_of(in, a[0], "optimizer", range);
  if (opt->params.empty()) in.fail("ValueError: optimizer got an empty parameter list", range);
  for (const Tensor& p : opt->params) {
    if (!is_leaf(p)) in.fail("ValueError: can't optimize a non-leaf Tensor", range);
    if (p.dtype() != DType::Float32) {
      in.fail("TypeError: d2s optimizes float32 tensors, and one of the params is " +
                  std::string(dtype_torch_name(p.dtype())),
              range);
    }
  }
  auto nonneg = [&](const char* what, double v, const std::string& message) {
    if (!(v >= 0)) in.fail("ValueError: " + message, range, std::string(what) + " must be >= 0");
  };
  for (size_t i = 1; i < ps.size(); ++i) {
    const std::string k = ps[i].name;
    const IValue& v = a[i];
    if (k == "foreach") continue;  // the multi-tensor path computes the same updates
    if (k == "differentiable" || k == "capturable" || k == "fused") {
      if (in.truthy(v, range)) {
        in.fail(k + "=True is not supported by d2s", range, "leave it at its default (False)");
      }
      continue;
    }
    if (k == "nesterov" || k == "maximize" || k == "amsgrad" || k == "centered") {
      const bool on = in.truthy(v, range);
      (k == "nesterov"   ? opt->nesterov
       : k == "maximize" ? opt->maximize
       : k == "amsgrad"  ? opt->amsgrad
                         : opt->centered) = on;
      opt->shown.emplace_back(k, IValue(on));
      continue;
    }
    if (k == "betas") {
      const ValueList* items = seq_items(v);
      if (!items || items->size() != 2) in.fail("TypeError: betas must be a pair of floats", range);
      opt->beta1 = number_arg(in, (*items)[0], "betas[0]", range);
      opt->beta2 = number_arg(in, (*items)[1], "betas[1]", range);
      if (!(opt->beta1 >= 0 && opt->beta1 < 1))
        in.fail("ValueError: Invalid beta parameter at index 0: " + in.py_str((*items)[0]), range);
      if (!(opt->beta2 >= 0 && opt->beta2 < 1))
        in.fail("ValueError: Invalid beta parameter at index 1: " + in.py_str((*items)[1]), range);
      opt->shown.emplace_back(k, v);
      continue;
    }
    if (k == "lr" && v.is_none()) in.fail("ValueError: Invalid learning rate: None", range);
    const double x = number_arg(in, v, k, range);
    opt->shown.emplace_back(k, v);
    if (k == "lr") {
      nonneg("lr", x, "Invalid learning rate: " + in.py_str(v));
      opt->lr = x;
    } else if (k == "momentum") {
      nonneg("momentum", x, "Invalid momentum value: " + in.py_str(v));
      opt->momentum = x;
    } else if (k == "dampening") {
      opt->dampening = x;
    } else if (k == "weight_decay") {
      nonneg("weight_decay", x, "Invalid weight_decay value: " + in.py_str(v));
      opt->weight_decay = x;
    } else if (k == "eps") {
      nonneg("eps", x, "Invalid epsilon value: " + in.py_str(v));
      opt->eps = x;
    } else if (k == "alpha") {
      nonneg("alpha", x, "Invalid alpha value: " + in.py_str(v));
      opt->alpha = x;
    } else if (k == "lr_decay") {
      nonneg("lr_decay", x, "Invalid lr_decay value: " + in.py_str(v));
      opt->lr_decay = x;
    } else if (k == "initial_accumulator_value") {
      nonneg("initial_accumulator_value", x,
             "Invalid initial_accumulator_value value: " + in.py_str(v));
      opt->initial_accumulator_value = x;
    } else if (k == "rho") {
      if (!(x >= 0 && x <= 1)) in.fail("ValueError: Invalid rho value: " + in.py_str(v), range);
      opt->rho = x;
    }
  }
  if (opt->nesterov && (opt->momentum <= 0 || opt->dampening != 0)) {
    in.fail("ValueError: Nesterov momentum requires a momentum and zero dampening", range);
  }
  return obj(opt);
}

// --------------------------------------------------------------------- schedulers

class SchedulerValue : public NativeValue {
 public:
  std::string type_name() const override { return name; }
  bool has_method(const std::string& m) const override { return m == "step" || m == "get_last_lr"; }
  IValue call_method(Interpreter& in, const std::string& m, ValueList args, Kwargs kwargs,
                     const SourceRange& range) override {
    if (m == "get_last_lr") {
      bind_args(name + ".get_last_lr", {}, std::move(args), std::move(kwargs), range);
      return IValue::list({IValue(opt->lr)});
    }
    bind_args(name + ".step", {}, std::move(args), std::move(kwargs), range);
    advance(in, range);
    return IValue();
  }
  std::optional<IValue> attribute(const std::string& attr) const override {
    if (attr == "last_epoch") return IValue(last_epoch);
    if (attr == "base_lrs") return IValue::list({IValue(base_lr)});
    if (attr == "optimizer") return obj(opt);
    return std::nullopt;
  }

  // PyTorch's _LRScheduler.step(): the epoch advances, then each group's lr is set.
  void advance(Interpreter& in, const SourceRange& range) {
    ++last_epoch;
    if (lambda) {
      IValue factor = in.call_value(*lambda, {IValue(last_epoch)}, {}, range);
      opt->lr = base_lr * number_arg(in, factor, "the lr_lambda's result", range);
    } else if (last_epoch != 0 && last_epoch % step_size == 0) {
      opt->lr = opt->lr * gamma;
    }
  }

  std::string name;
  std::shared_ptr<OptimizerValue> opt;
  double base_lr = 0;
  int64_t last_epoch = -1;
  int64_t step_size = 1;
  double gamma = 0.1;
  std::optional<IValue> lambda;  // LambdaLR's lr_lambda
};

IValue make_scheduler(Interpreter& in, const std::string& which, ValueList args, Kwargs kwargs,
                      const SourceRange& range) {
  auto s = std::make_shared<SchedulerValue>();
  s->name = which;
  std::vector<ParamSpec> ps{{"optimizer", std::nullopt}};
  if (which == "StepLR") {
    ps.insert(ps.end(), {{"step_size", std::nullopt}, {"gamma", IValue(0.1)}});
  } else {
    ps.push_back({"lr_lambda", std::nullopt});
  }
  ps.insert(ps.end(), {{"last_epoch", IValue(int64_t{-1})}, {"verbose", IValue(false)}});
  ValueList a = bind_args(which, ps, std::move(args), std::move(kwargs), range);
  s->opt = a[0].is_object() ? std::dynamic_pointer_cast<OptimizerValue>(a[0].to_object()) : nullptr;
  if (!s->opt) in.fail("TypeError: " + py_type_name(a[0]) + " is not an Optimizer", range);
  if (which == "StepLR") {
    s->step_size = in.to_index(a[1], PyConversion::Scalar, range, "step_size must be an int");
    if (s->step_size <= 0) in.fail("ValueError: step_size must be positive", range);
    s->gamma = number_arg(in, a[2], "gamma", range);
  } else {
    s->lambda = a[1];
  }
  const size_t last = which == "StepLR" ? 3 : 2;
  if (in.to_index(a[last], PyConversion::Scalar, range, "last_epoch must be an int") != -1) {
    in.fail("d2s schedulers start from last_epoch=-1", range,
            "resuming a schedule needs the optimizer's saved state, which d2s does not load");
  }
  // Constructing a scheduler takes its first step (epoch 0), as PyTorch's does.
  s->base_lr = s->opt->lr;
  s->advance(in, range);
  return obj(s);
}

// --------------------------------------------------------------------- clipping

IValue clip_grad_norm(Interpreter& in, ValueList args, Kwargs kwargs, const SourceRange& range) {
  ValueList a = bind_args("clip_grad_norm_",
                          {{"parameters", std::nullopt},
                           {"max_norm", std::nullopt},
                           {"norm_type", IValue(2.0)},
                           {"error_if_nonfinite", IValue(false)}},
                          std::move(args), std::move(kwargs), range);
  std::vector<Tensor> grads;
  for (const Tensor& p : tensors_of(in, a[0], "clip_grad_norm_", range)) {
    if (grad_of(p).defined()) grads.push_back(grad_of(p));
  }
  const double max_norm = number_arg(in, a[1], "max_norm", range);
  const double norm_type = number_arg(in, a[2], "norm_type", range);
  if (grads.empty()) return IValue(Tensor::scalar(0.0));
  // torch.norm of each gradient (float32), then of the stacked norms.
  std::vector<float> norms;
  for (const Tensor& g : grads) {
    double acc = 0;
    const float* d = g.data<float>();
    for (int64_t i = 0; i < g.numel(); ++i) {
      const double x = std::abs(static_cast<double>(d[i]));
      if (std::isinf(norm_type))
        acc = std::max(acc, x);
      else
        acc += std::pow(x, norm_type);
    }
    norms.push_back(static_cast<float>(std::isinf(norm_type) ? acc : std::pow(acc, 1 / norm_type)));
  }
  double acc = 0;
  for (float x : norms) {
    if (std::isinf(norm_type))
      acc = std::max(acc, static_cast<double>(x));
    else
      acc += std::pow(static_cast<double>(x), norm_type);
  }
  const float total =
      static_cast<float>(std::isinf(norm_type) ? acc : std::pow(acc, 1 / norm_type));
  if (in.truthy(a[3], range) && !std::isfinite(total)) {
    in.fail("RuntimeError: The total norm of order " + in.py_str(IValue(norm_type)) +
                " for gradients from `parameters` is non-finite, so it cannot be clipped.",
            range, "set error_if_nonfinite=False to scale the gradients anyway");
  }
  const float coef = std::min(static_cast<float>(max_norm) / (total + 1e-6f), 1.0f);
  for (Tensor g : grads) {
    float* d = g.data<float>();
    for (int64_t i = 0; i < g.numel(); ++i) d[i] = d[i] * coef;
  }
  return IValue(Tensor::scalar(total));
}

IValue clip_grad_value(Interpreter& in, ValueList args, Kwargs kwargs, const SourceRange& range) {
  ValueList a =
      bind_args("clip_grad_value_", {{"parameters", std::nullopt}, {"clip_value", std::nullopt}},
                std::move(args), std::move(kwargs), range);
  const float clip = static_cast<float>(number_arg(in, a[1], "clip_value", range));
  for (const Tensor& p : tensors_of(in, a[0], "clip_grad_value_", range)) {
    Tensor g = grad_of(p);
    if (!g.defined()) continue;
    float* d = g.data<float>();
    for (int64_t i = 0; i < g.numel(); ++i) d[i] = std::min(std::max(d[i], -clip), clip);
  }
  return IValue();
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
