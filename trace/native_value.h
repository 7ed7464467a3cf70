// Objects of training code that d2s implements in C++ and a program holds, calls and
// calls methods on: optimizers and LR schedulers (trace/optim.cpp) and loss modules
// (trace/loss_modules.cpp). The interpreter dispatches calls, method calls, attribute
// reads and str()/repr() on them through this interface, so each family keeps its
// state and rules in its own file. Internal to trace/.
#pragma once

#include <optional>
#include <string>

#include "trace/interp.h"

namespace d2s::interp {

class NativeValue : public Object {
 public:
  // `obj(...)`; a TypeError unless the object is callable.
  virtual IValue call(Interpreter& in, ValueList args, Kwargs kwargs, const SourceRange& range);
  virtual bool has_method(const std::string& name) const = 0;
  virtual IValue call_method(Interpreter& in, const std::string& name, ValueList args,
                             Kwargs kwargs, const SourceRange& range) = 0;
  // A data attribute (`scheduler.last_epoch`), or nullopt when there is none.
  virtual std::optional<IValue> attribute(const std::string& name) const {
    (void)name;
    return std::nullopt;
  }
  virtual std::string repr() const { return "<" + type_name() + " object>"; }
};

// The names of training code d2s implements: torch.optim.{SGD, Adam, AdamW, RMSprop,
// Adagrad, Adadelta}, torch.optim.lr_scheduler.{StepLR, LambdaLR}, the loss modules
// torch.nn.{MSELoss, L1Loss, SmoothL1Loss, CrossEntropyLoss, NLLLoss, BCEWithLogitsLoss,
// CTCLoss} and torch.nn.utils.{clip_grad_norm_, clip_grad_value_}.
bool is_training_name(const std::string& qualname);
// torch.optim, torch.optim.lr_scheduler, torch.nn.utils.
bool is_training_namespace(const std::string& qualname);
// Calls one of those names (constructs the object or runs the function).
IValue call_training_name(Interpreter& in, const std::string& qualname, ValueList args,
                          Kwargs kwargs, const SourceRange& range);

// torch.nn.init's functions (nn_init.cpp): the names, and a call of one.
bool is_init_name(const std::string& qualname);
std::vector<std::string> init_function_names();
IValue call_init_name(Interpreter& in, const std::string& qualname, ValueList args, Kwargs kwargs,
                      const SourceRange& range);

// Loss modules (loss_modules.cpp) and the optimizer family (optim.cpp).
bool is_loss_module_name(const std::string& qualname);
IValue construct_loss_module(Interpreter& in, const std::string& qualname, ValueList args,
                             Kwargs kwargs, const SourceRange& range);

// torch.compile(fn | model) / torch.jit.script(fn) (compiled_function.cpp): a wrapper
// that runs by the parse route when the run has a compile hook.
IValue compile_callable(Interpreter& in, const IValue& target, const SourceRange& site);
// The function or module a compiled wrapper holds; null for any other value.
const IValue* compiled_target(const IValue& v);

// torch.onnx.export(model, args, f, ...) (onnx_export_call.cpp): checks the call and
// hands it to `hook` (trace/export_hook.h); an error at the call without one.
IValue onnx_export_call(Interpreter& in, ExportHook* hook, ValueList args, Kwargs kwargs,
                        const SourceRange& range, const ast::Call* site);

// A Python float from an int, float or bool argument; TypeError naming `what`.
double number_arg(Interpreter& in, const IValue& v, const std::string& what,
                  const SourceRange& range);

}  // namespace d2s::interp
