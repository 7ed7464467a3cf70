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
  if (const ir::Type& t = x->type(); t.is_tensor() && t.shape) {
    const std::string e = interp::norm_input_error(inst, static_cast<int64_t>(t.shape->size()));
    if (!e.empty()) fail(e, range);
  }
  ir::Value* factor = nullptr;
  if (!call.count_batches.empty()) {
    // _BatchNorm.forward: num_batches_tracked.add_(1) (a write the graph keeps), and
    // 1 / float(it) as the factor for momentum=None, read when the graph runs.
    ir::Value* count = as_value(module_attribute(module, call.count_batches, range), range);
    emit_op("aten::add_", {count, constant(IValue(int64_t{1}), range)}, range);
    if (call.momentum_from_count >= 0) {
      factor =
          emit_op("aten::div",
                  {constant(IValue(1.0), range), emit_op("aten::Float", {count}, range)}, range);
    }
  }
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
  if (factor) args[static_cast<size_t>(call.momentum_from_count)] = factor;
  ir::Value* out = emit_op(call.op, args, range);
  // A (values, indices) op: the tuple's first item is the op's first output.
  if (call.first_of_tuple) return Sugared::of(out->node()->input(0));
  return Sugared::of(out);
}

}  // namespace d2s::convert

namespace d2s::convert {

ir::Value* Lowerer::call_functional_signature(const interp::FunctionalSignature& sig,
                                              CallArgs& args, const SourceRange& range) {
  const std::string q = sig.qualname;
  const std::string fname = q.substr(q.rfind('.') + 1);
  std::vector<ir::Value*> bound(sig.params.size(), nullptr);
  if (args.positional.size() > sig.params.size()) {
    fail("TypeError: " + fname + "() takes at most " + std::to_string(sig.params.size()) +
             " arguments (" + std::to_string(args.positional.size()) + " given)",
         range);
  }
  for (size_t i = 0; i < args.positional.size(); ++i) {
    bound[i] = as_value(args.positional[i].value, args.positional[i].range);
  }
  for (auto& [name, arg] : args.keywords) {
    size_t k = 0;
    while (k < sig.params.size() && name != sig.params[k].name) ++k;
    if (k == sig.params.size()) {
      fail("TypeError: " + fname + "() got an unexpected keyword argument '" + name + "'",
           arg.range);
    }
    if (bound[k]) {
      fail("TypeError: " + fname + "() got multiple values for argument '" + name + "'", arg.range);
    }
    bound[k] = as_value(arg.value, arg.range);
  }
  for (size_t k = 0; k < bound.size(); ++k) {
    if (bound[k]) continue;
    if (!sig.params[k].default_value) {
      fail("TypeError: " + fname + "() missing 1 required positional argument: '" +
               sig.params[k].name + "'",
           range);
    }
    bound[k] = constant(*sig.params[k].default_value, range);
  }
  bool inplace = false;
  if (sig.inplace >= 0) {
    // F.relu & co. lower to one op, aten::relu or aten::relu_: the flag that chooses
    // between them must be known when the call is lowered.
    const std::optional<IValue> v = constant_value(bound[static_cast<size_t>(sig.inplace)]);
    if (!v || !v->is_bool()) {
      fail(fname + "(): inplace must be a constant True or False in the parse route", range,
           "pass inplace=True or inplace=False, or a module attribute set in __init__");
    }
    inplace = v->to_bool();
  }
  std::vector<ir::Value*> op_args;
  for (size_t i = 0; i < sig.op_args.size(); ++i) {
    const int p = sig.op_args[i];
    op_args.push_back(p >= 0 ? bound[static_cast<size_t>(p)] : constant(sig.constants[i], range));
  }
  return emit_op(inplace ? sig.inplace_op : sig.op, op_args, range);
}

}  // namespace d2s::convert
