// The optimizer object of torch.optim (optim.cpp) as the LR schedulers and the other
// training helpers (optim_schedulers.cpp) see it: PyTorch's `param_groups`, a list of
// dicts the program itself can read and write (`g['lr'] = ...`), and `defaults`.
// Internal to trace/.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "trace/native_value.h"
#include "trace/py_dict.h"

namespace d2s::interp {

enum class OptKind { SGD, Adam, AdamW, RMSprop, Adagrad, Adadelta };

// The options one group's step reads, taken from the group's dict at each step (so a
// value the program wrote into the dict is the one used, as in PyTorch).
struct OptOptions {
  double lr = 0, momentum = 0, dampening = 0, weight_decay = 0, beta1 = 0.9, beta2 = 0.999,
         eps = 1e-8, alpha = 0.99, lr_decay = 0, rho = 0.9;
  bool nesterov = false, maximize = false, amsgrad = false, centered = false;
};

// Per-parameter state: PyTorch's step count and up to three buffers (exp_avg /
// exp_avg_sq / max_exp_avg_sq for Adam; momentum_buffer for SGD; square_avg /
// momentum_buffer / grad_avg for RMSprop; sum for Adagrad; square_avg / acc_delta for
// Adadelta).
struct ParamState {
  double step = 0;
  // SGD's momentum buffer exists (after the first step); Adagrad's sum was filled.
  bool has_buf = false;
  std::vector<float> a, b, c;
};

class OptimizerValue : public NativeValue {
 public:
  std::string type_name() const override { return name; }
  bool has_method(const std::string& m) const override;
  IValue call_method(Interpreter& in, const std::string& m, ValueList args, Kwargs kwargs,
                     const SourceRange& range) override;
  std::optional<IValue> attribute(const std::string& attr) const override;
  std::string repr() const override;

  // PyTorch's Optimizer.add_param_group: `group` is a dict with 'params'; the
  // defaults fill the options it does not set. The dict itself joins param_groups.
  void add_param_group(Interpreter& in, const IValue& group, const SourceRange& range);
  // The groups' dicts, in order.
  std::vector<DictValue*> groups() const;
  // A group's parameters (its 'params' entry, a list of tensors).
  std::vector<Tensor> group_params(Interpreter& in, DictValue& group,
                                   const SourceRange& range) const;

  std::string name;
  OptKind kind = OptKind::SGD;
  IValue defaults;      // a dict: PyTorch's `optimizer.defaults`
  IValue param_groups;  // a list of dicts: PyTorch's `optimizer.param_groups`
  std::unordered_map<const TensorImpl*, ParamState> state;

 private:
  void step_all(Interpreter& in, const SourceRange& range);
  OptOptions options_of(Interpreter& in, DictValue& group, const SourceRange& range) const;
  void update(const OptOptions& o, Tensor& p, const Tensor& grad, ParamState& s) const;
};

// Constructs torch.optim.lr_scheduler.StepLR / LambdaLR (`which`) (optim_schedulers.cpp).
IValue make_scheduler(Interpreter& in, const std::string& which, ValueList args, Kwargs kwargs,
                      const SourceRange& range);
// torch.nn.utils.clip_grad_norm_ / clip_grad_value_ (optim_schedulers.cpp).
IValue clip_grad_norm(Interpreter& in, ValueList args, Kwargs kwargs, const SourceRange& range);
IValue clip_grad_value(Interpreter& in, ValueList args, Kwargs kwargs, const SourceRange& range);

}  // namespace d2s::interp
