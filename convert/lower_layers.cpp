// The parse route's forward of the convolution, pooling and Flatten layers: the op
// trace/nn_layers.h's layer_call names, with the module's parameters as graph inputs
// and its hyperparameters as constants (TorchScript freezes them the same way).
#include "convert/lowerer.h"
#include "core/ops/interpolate.h"
#include "trace/nn_layers.h"
#include "trace/py_objects.h"

namespace d2s::convert {

Sugared Lowerer::call_layer_forward(const Sugared& module, ir::Value* x, const SourceRange& range,
                                    ir::Value* output_padding) {
  const interp::InstanceValue& inst = *module.module->instance;
  int64_t rank = -1;
  std::string spatial;
  if (const ir::Type& t = x->type(); t.is_tensor() && t.shape) {
    rank = static_cast<int64_t>(t.shape->size());
    std::vector<int64_t> sizes;
    bool known = true;
    for (const ir::Dim& d : *t.shape) {
      known = known && d.is_known();
      sizes.push_back(d.size);
    }
    spatial = known ? spatial_repr(sizes) : "[...]";
  }
  const interp::LayerCall call = interp::layer_call(inst, range, rank, spatial);
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
        if (a.value.is_list() || a.value.is_tuple()) {
          std::vector<ir::Value*> items;
          for (const IValue& item : a.value.items()) items.push_back(constant(item, range));
          args.push_back(a.value.is_list() ? make_list(items, range) : make_tuple(items, range));
        } else {
          args.push_back(constant(a.value, range));
        }
        break;
    }
  }
  if (factor) args[static_cast<size_t>(call.momentum_from_count)] = factor;
  if (output_padding) args[interp::kConvTransposeOutputPaddingArg] = output_padding;
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
  if (sig.none_means_default >= 0) {
    const size_t k = static_cast<size_t>(sig.none_means_default);
    const std::optional<IValue> v = constant_value(bound[k]);
    if (v && v->is_none()) bound[k] = constant(*sig.params[k].default_value, range);
  }
  bool flag = false;
  if (sig.flag >= 0) {
    // F.relu & co. lower to one op, aten::relu or aten::relu_ (F.max_pool2d to
    // aten::max_pool2d or its _with_indices form): the flag that chooses between them
    // must be known when the call is lowered.
    const std::string name = sig.params[static_cast<size_t>(sig.flag)].name;
    const std::optional<IValue> v = constant_value(bound[static_cast<size_t>(sig.flag)]);
    if (!v || !v->is_bool()) {
      fail(fname + "(): " + name + " must be a constant True or False in the parse route", range,
           "pass " + name + "=True or " + name + "=False, or a module attribute set in __init__");
    }
    flag = v->to_bool();
  }
  std::vector<ir::Value*> op_args;
  for (size_t i = 0; i < sig.op_args.size(); ++i) {
    const int p = sig.op_args[i];
    op_args.push_back(p >= 0 ? bound[static_cast<size_t>(p)] : constant(sig.constants[i], range));
  }
  return emit_op(flag ? sig.flag_op : sig.op, op_args, range);
}

}  // namespace d2s::convert

namespace d2s::convert {

Sugared Lowerer::call_functional_interpolate(const std::string& fname, CallArgs& args,
                                             const SourceRange& range) {
  static const char* const kNames[] = {"input",    "size",          "scale_factor",
                                       "mode",     "align_corners", "recompute_scale_factor",
                                       "antialias"};
  static const IValue kDefaults[] = {
      IValue(), IValue(), IValue(),     IValue(std::string("nearest")),
      IValue(), IValue(), IValue(false)};
  std::vector<const CallArg*> bound(std::size(kNames), nullptr);
  if (args.positional.size() > bound.size()) {
    fail("TypeError: " + fname + "() takes at most 7 arguments (" +
             std::to_string(args.positional.size()) + " given)",
         range);
  }
  for (size_t i = 0; i < args.positional.size(); ++i) bound[i] = &args.positional[i];
  for (const auto& [name, arg] : args.keywords) {
    size_t i = 0;
    while (i < bound.size() && name != kNames[i]) ++i;
    if (i == bound.size()) {
      fail("TypeError: " + fname + "() got an unexpected keyword argument '" + name + "'",
           arg.range);
    }
    if (bound[i]) {
      fail("TypeError: " + fname + "() got multiple values for argument '" + name + "'", arg.range);
    }
    bound[i] = &arg;
  }
  if (!bound[0]) {
    fail("TypeError: " + fname + "() missing 1 required positional argument: 'input'", range);
  }
  ir::Value* x = as_value(bound[0]->value, bound[0]->range);
  const ir::Type& t = x->type();
  if (!t.is_tensor() || !t.shape) {
    // The rank is known only when the graph runs: TorchScript's aten::__interpolate,
    // with F.interpolate's arguments, chooses the op then.
    std::vector<ir::Value*> op_args{x};
    for (size_t i = 1; i < bound.size(); ++i) {
      op_args.push_back(bound[i] ? as_value(bound[i]->value, bound[i]->range)
                                 : constant(kDefaults[i], range));
    }
    return Sugared::of(emit_op("aten::__interpolate", op_args, range));
  }
  const int64_t rank = static_cast<int64_t>(t.shape->size());
  std::vector<int64_t> sizes;
  bool known = true;
  for (const ir::Dim& d : *t.shape) {
    known = known && d.is_known();
    sizes.push_back(d.size);
  }
  // Every argument but size must be a constant; a size computed in the program
  // (skip.shape[2:]) goes to the op as the list value it is.
  ValueList values(bound.size());
  ir::Value* size_value = nullptr;
  for (size_t i = 1; i < bound.size(); ++i) {
    if (!bound[i]) {
      values[i] = kDefaults[i];
      continue;
    }
    ir::Value* v = as_value(bound[i]->value, bound[i]->range);
    std::optional<IValue> c = constant_value(v);
    if (c) {
      values[i] = *c;
    } else if (i == 1 &&
               (v->type().kind == ir::TypeKind::List || v->type().kind == ir::TypeKind::Tuple)) {
      size_value = v;
      values[i] = IValue::int_list(std::vector<int64_t>(rank > 2 ? rank - 2 : 0, 1));
    } else {
      fail(std::string(fname) + "()'s " + kNames[i] + " must be a constant in the parse route",
           bound[i]->range, "compute it from constants, or use size= with the input's sizes");
    }
  }
  InterpolateOp op;
  try {
    op = interpolate_op(rank, known ? spatial_repr(sizes) : "[...]", values[1], values[2],
                        values[3], values[4], values[5], values[6]);
  } catch (const Error& e) {
    fail(e.message(), range, e.hint());
  }
  std::vector<ir::Value*> op_args{x};
  for (size_t i = 0; i < op.args.size(); ++i) {
    const IValue& v = op.args[i];
    if (i == 0 && size_value) {
      if (size_value->type().kind == ir::TypeKind::Tuple) {
        op_args.push_back(make_list(tuple_items(size_value, range), range));
      } else {
        op_args.push_back(size_value);
      }
    } else if (v.is_list()) {
      std::vector<ir::Value*> items;
      for (const IValue& item : v.items()) items.push_back(constant(item, range));
      op_args.push_back(make_list(items, range));
    } else {
      op_args.push_back(constant(v, range));
    }
  }
  return Sugared::of(emit_op(op.op, op_args, range));
}

}  // namespace d2s::convert
