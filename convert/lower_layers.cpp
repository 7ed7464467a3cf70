// The parse route's forward of the convolution, pooling and Flatten layers: the op
// trace/nn_layers.h's layer_call names, with the module's parameters as graph inputs
// and its hyperparameters as constants (TorchScript freezes them the same way).
#include "convert/lowerer.h"
#include "trace/nn_layers.h"
#include "trace/py_objects.h"

namespace d2s::convert {

Sugared Lowerer::call_layer_forward(const Sugared& module, ir::Value* x, const SourceRange& range) {
  const interp::InstanceValue& inst = *module.module->instance;
  const interp::LayerCall call = interp::layer_call(inst, range);
  std::vector<ir::Value*> args;
  for (const interp::LayerArg& a : call.args) {
    switch (a.kind) {
      case interp::LayerArg::Kind::Input:
        args.push_back(x);
        break;
      case interp::LayerArg::Kind::Attr:
        args.push_back(as_value(module_attribute(module, a.attr, range), range));
        break;
      case interp::LayerArg::Kind::Const:
        if (a.value.is_list()) {
          std::vector<ir::Value*> items;
          for (const IValue& item : a.value.items()) items.push_back(constant(item, range));
          args.push_back(make_list(items, range));
        } else {
          args.push_back(constant(a.value, range));
        }
        break;
    }
  }
  ir::Value* out = emit_op(call.op, args, range);
  // A (values, indices) op: the tuple's first item is the op's first output.
  if (call.first_of_tuple) return Sugared::of(out->node()->input(0));
  return Sugared::of(out);
}

}  // namespace d2s::convert
