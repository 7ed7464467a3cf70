// torch.optim.lr_scheduler.StepLR and LambdaLR, and torch.nn.utils.clip_grad_norm_ /
// clip_grad_value_. A scheduler works on the optimizer's param_groups as PyTorch 1.13's
// _LRScheduler does: constructing one sets each group's 'initial_lr' (its base lr) and
// takes the first step; each step computes every group's lr and writes it into the
// group's dict, where the optimizer's next step reads it.
#include <algorithm>
#include <cmath>

#include "core/autograd/autograd.h"
#include "trace/optim.h"

namespace d2s::interp {

namespace {

IValue obj(std::shared_ptr<Object> o) {
  return IValue(std::move(o));
}

class SchedulerValue : public NativeValue {
 public:
  std::string type_name() const override { return name; }
  bool has_method(const std::string& m) const override { return m == "step" || m == "get_last_lr"; }
  IValue call_method(Interpreter& in, const std::string& m, ValueList args, Kwargs kwargs,
                     const SourceRange& range) override {
    if (m == "get_last_lr") {
      bind_args(name + ".get_last_lr", {}, std::move(args), std::move(kwargs), range);
      return IValue::list(last_lr);
    }
    bind_args(name + ".step", {}, std::move(args), std::move(kwargs), range);
    advance(in, range);
    return IValue();
  }
  std::optional<IValue> attribute(const std::string& attr) const override {
    if (attr == "last_epoch") return IValue(last_epoch);
    if (attr == "base_lrs") return IValue::list(base_lrs);
    if (attr == "optimizer") return obj(opt);
    return std::nullopt;
  }

  // PyTorch's _LRScheduler.step(): the epoch advances, each group's new lr is computed
  // (get_lr()) and then written into the group.
  void advance(Interpreter& in, const SourceRange& range) {
    ++last_epoch;
    const std::vector<DictValue*> groups = opt->groups();
    // get_lr(): StepLR's covers every group the optimizer has now; LambdaLR's zips its
    // lambdas with the base lrs of the groups it was constructed with. Then each value
    // goes to its group (zip: a group added later keeps its lr under LambdaLR).
    ValueList values;
    if (name == "LambdaLR") {
      for (size_t i = 0; i < lambdas.size() && i < base_lrs.size(); ++i) {
        IValue factor = in.call_value(lambdas[i], {IValue(last_epoch)}, {}, range);
        values.push_back(in.binary(ast::BinOpKind::Mul, base_lrs[i], factor, range));
      }
    } else {
      for (DictValue* g : groups) {
        const IValue lr = g->get(in, IValue("lr"), range);
        values.push_back(last_epoch == 0 || last_epoch % step_size != 0
                             ? lr
                             : in.binary(ast::BinOpKind::Mul, lr, gamma, range));
      }
    }
    for (size_t i = 0; i < groups.size() && i < values.size(); ++i) {
      groups[i]->put(in, IValue("lr"), values[i], range);
    }
    last_lr.clear();
    for (DictValue* g : groups) last_lr.push_back(g->get(in, IValue("lr"), range));
  }

  std::string name;
  std::shared_ptr<OptimizerValue> opt;
  ValueList base_lrs, last_lr;
  int64_t last_epoch = -1;
  int64_t step_size = 1;
  IValue gamma{0.1};
  ValueList lambdas;  // LambdaLR's lr_lambda for each group
};

// The parameters a clip function is given: a tensor, or an iterable of tensors.
std::vector<Tensor> tensors_of(Interpreter& in, const IValue& v, const std::string& who,
                               const SourceRange& range) {
  if (v.is_tensor()) return {v.to_tensor()};
  std::vector<Tensor> out;
  for (const IValue& item : in.iterate(v, range)) {
    if (!item.is_tensor()) {
      in.fail("TypeError: " + who + " takes tensors, but one of the parameters is " +
                  py_type_name(item),
              range);
    }
    out.push_back(item.to_tensor());
  }
  return out;
}

}  // namespace

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
  const std::vector<DictValue*> groups = s->opt->groups();
  if (which == "StepLR") {
    s->step_size = in.to_index(a[1], PyConversion::Scalar, range, "step_size must be an int");
    if (s->step_size <= 0) in.fail("ValueError: step_size must be positive", range);
    number_arg(in, a[2], "gamma", range);
    s->gamma = a[2];
  } else if (const ValueList* fns = a[1].is_list() || a[1].is_tuple() ? &a[1].items() : nullptr) {
    if (fns->size() != groups.size()) {
      in.fail("ValueError: Expected " + std::to_string(groups.size()) + " lr_lambdas, but got " +
                  std::to_string(fns->size()),
              range);
    }
    s->lambdas = *fns;
  } else {
    s->lambdas.assign(groups.size(), a[1]);
  }
  const size_t last = which == "StepLR" ? 3 : 2;
  if (in.to_index(a[last], PyConversion::Scalar, range, "last_epoch must be an int") != -1) {
    in.fail("d2s schedulers start from last_epoch=-1", range,
            "resuming a schedule needs the optimizer's saved state, which d2s does not load");
  }
  // group.setdefault('initial_lr', group['lr']); base_lrs are the initial lrs.
  for (DictValue* g : groups) {
    if (g->find(in, IValue("initial_lr"), range) < 0) {
      g->put(in, IValue("initial_lr"), g->get(in, IValue("lr"), range), range);
    }
    s->base_lrs.push_back(g->get(in, IValue("initial_lr"), range));
  }
  // Constructing a scheduler takes its first step (epoch 0), as PyTorch's does.
  s->advance(in, range);
  return obj(s);
}

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
    for (int64_t i = 0, n = g.numel(); i < n; ++i) {
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
    for (int64_t i = 0, n = g.numel(); i < n; ++i) d[i] = d[i] * coef;
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
    for (int64_t i = 0, n = g.numel(); i < n; ++i) d[i] = std::min(std::max(d[i], -clip), clip);
  }
  return IValue();
}

}  // namespace d2s::interp
