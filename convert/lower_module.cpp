// nn.Module instances, frozen as TorchScript freezes a scripted module: the instance
// is built by the eager interpreter (its __init__ runs, so parameters get the same
// initial values as in eager mode), then
//   * parameters become graph inputs named by state_dict name (lower.cpp adds them),
//   * plain attributes (`self.n = 3`, `self.p = 0.0`, tensors that are not
//     parameters) and `self.training` (as __init__ left it, or False under --eval)
//     become constants,
//   * submodules and methods are inlined at their call sites; built-in modules
//     (nn.Linear, nn.ReLU, ...) become the ops their forward runs.
#include <sstream>

#include "convert/lowerer.h"
#include "trace/interp.h"
#include "trace/interpreter.h"
#include "trace/py_objects.h"

namespace d2s::convert {

using interp::InstanceValue;
using interp::NnKind;

namespace {

bool listed(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

InstanceValue* as_instance(const IValue& v) {
  return interp::as_obj<InstanceValue>(v);
}

}  // namespace

namespace {

// A value the graph can hold as a constant: a number, bool, string or None, or a tuple
// of them (not a tensor, a module or another object, whose state the graph does not keep).
bool plain_constant(const IValue& v) {
  if (v.is_none() || v.is_number() || v.is_string()) return true;
  if (!v.is_tuple()) return false;
  for (const IValue& item : v.tuple_items()) {
    if (!plain_constant(item)) return false;
  }
  return true;
}

void copy_top_level_values(const interp::Interpreter& in, Globals* globals) {
  for (const std::string& name : globals->computed) {
    const IValue* v = in.global(name);
    if (v && plain_constant(*v)) {
      globals->constants[name] = *v;
      globals->names.erase(name);
    }
  }
}

RunOptions conversion_run(const LowerOptions& options, std::ostringstream& discard) {
  RunOptions run;
  run.seed = options.seed;
  run.training = options.training;
  run.out = &discard;  // top-level prints belong to eager runs, not conversion
  return run;
}

}  // namespace

void take_top_level_values(const ast::Module& module, const LowerOptions& options,
                           Globals* globals) {
  std::ostringstream discard;
  interp::Interpreter in(module, conversion_run(options, discard));
  in.set_stack(static_cast<const char*>(__builtin_frame_address(0)), size_t{1} << 20);
  in.exec_module();
  copy_top_level_values(in, globals);
}

std::shared_ptr<InstanceValue> build_instance(const ast::Module& module,
                                              const std::string& class_name,
                                              const LowerOptions& options, const SourceRange& range,
                                              Globals* globals) {
  // The eager interpreter builds the instance exactly as Program::prepare does for an
  // entry class (same seed, the top level run first), so parameters get the values
  // eager mode gives them.
  std::ostringstream discard;
  interp::Interpreter in(module, conversion_run(options, discard));
  // __init__ code is shallow; this budget keeps deep nesting a clear error.
  in.set_stack(static_cast<const char*>(__builtin_frame_address(0)), size_t{1} << 20);
  in.exec_module();
  copy_top_level_values(in, globals);
  const IValue* cls = in.global(class_name);
  if (!cls || !interp::as_obj<interp::ClassValue>(*cls)) {
    throw Error("the entry '" + class_name +
                    "' is no longer a class after the top-level "
                    "statements ran",
                range, "do not assign to '" + class_name + "' at the top level");
  }
  IValue made = in.call_value(*cls, {}, {}, range);
  auto* inst = as_instance(made);
  if (!inst || !inst->is_module) {
    throw Error("the entry class '" + class_name + "' is not an nn.Module", range,
                "derive it from nn.Module, or choose a function as the entry");
  }
  // As Program::prepare: __init__'s `self.training` stands unless --eval forces eval.
  if (!options.training) in.set_training(*inst, false);
  return std::static_pointer_cast<InstanceValue>(made.to_object());
}

void collect_module_parameters(const InstanceValue& m, const std::string& prefix,
                               std::vector<std::pair<std::string, Tensor>>* out, int depth) {
  // named_parameters() order: own parameters as registered, then each child's.
  if (depth > 100) return;
  for (const std::string& name : m.params) {
    const IValue* v = m.get(name);
    if (v && v->is_tensor()) out->emplace_back(prefix + name, v->to_tensor());
  }
  for (const std::string& name : m.children) {
    const IValue* v = m.get(name);
    if (auto* child = v ? as_instance(*v) : nullptr) {
      collect_module_parameters(*child, prefix + name + ".", out, depth + 1);
    }
  }
}

const ast::FunctionDef* Lowerer::find_method(const std::string& class_name,
                                             const std::string& method) const {
  // The class's own defs, then its user base classes'. The chain is bounded: a class
  // can only derive from classes defined before it.
  std::string current = class_name;
  for (int depth = 0; depth < 100; ++depth) {
    auto it = globals_.classes.find(current);
    if (it == globals_.classes.end()) return nullptr;
    const ast::ClassDef* cls = it->second;
    for (const ast::StmtPtr& s : cls->body) {
      if (s->kind == ast::StmtKind::FunctionDef && s->as<ast::FunctionDef>().name == method) {
        return &s->as<ast::FunctionDef>();
      }
    }
    std::string base;
    for (const ast::ExprPtr& b : cls->bases) {
      if (b->kind == ast::ExprKind::Name && globals_.classes.count(b->as<ast::Name>().id)) {
        base = b->as<ast::Name>().id;
      }
    }
    if (base.empty()) return nullptr;
    current = base;
  }
  return nullptr;
}

Sugared Lowerer::module_attribute(const Sugared& module, const std::string& attr,
                                  const SourceRange& range) {
  const ModuleRef& ref = *module.module;
  const InstanceValue& inst = *ref.instance;
  if (attr == "__class__" && !inst.get(attr)) {
    CallArgs a;
    a.positional.push_back(CallArg{module, range, nullptr});
    return *call_reflection("type", a, range);
  }
  if (listed(inst.params, attr)) {
    auto it = globals_.parameters.find(ref.qualify(attr));
    if (it != globals_.parameters.end()) return Sugared::of(it->second);
  }
  if ((inst.nn == NnKind::ModuleDict && (attr == "keys" || attr == "values" || attr == "items")) ||
      is_parameter_walk(inst, attr)) {
    Sugared m = Sugared::of_kind(Sugared::Kind::Method, attr);
    m.module = module.module;
    return m;
  }
  if (const IValue* v = inst.get(attr)) {
    if (as_instance(*v)) {
      Sugared s = Sugared::of_kind(Sugared::Kind::Module, ref.qualify(attr));
      s.module = std::make_shared<ModuleRef>(
          ModuleRef{std::static_pointer_cast<InstanceValue>(v->to_object()), ref.qualify(attr)});
      return s;
    }
    // A function, lambda or builtin kept in an attribute (`self.act = lambda t: ...`,
    // `self.loss_func = F.mse_loss`): called as the parse route calls it by name.
    if (auto* f = interp::as_obj<interp::FunctionValue>(*v); f && f->def) {
      Sugared s = Sugared::of_kind(Sugared::Kind::Function, f->qualname);
      s.fn = f->def;
      if (f->closure) s.closure = eager_closure_frame(*f->closure, ref, range);
      return s;
    }
    if (auto* b = interp::as_obj<interp::BuiltinValue>(*v)) {
      return Sugared::of_kind(Sugared::Kind::Builtin, b->qualname);
    }
    if (v->is_object()) {
      // A namedtuple or a functools.partial kept by __init__ (lower_stdlib.cpp).
      if (std::optional<Sugared> s = python_object(*v, range)) return *s;
      fail("the attribute '" + attr + "' of '" + inst.type + "' (a " + v->type_name() +
               ") cannot be used by the parse route",
           range, "eager and trace modes (d2s run --mode eager, or --mode trace) run it");
    }
    if (v->is_tensor() && listed(inst.buffers, attr)) {
      // A buffer: one constant for every read, as TorchScript's prim::GetAttr reads the
      // one attribute, placed first in the graph so that it dominates every use.
      auto [it, fresh] = globals_.buffers.try_emplace(ref.qualify(attr), nullptr);
      if (fresh) it->second = constant_at_top(*v, range);
      return Sugared::of(it->second);
    }
    // A plain attribute is frozen into the graph as a constant.
    return Sugared::of(constant(*v, range));
  }
  // A class attribute (`expansion = 4` in the class body), frozen as a constant.
  if (const IValue* v = inst.cls ? inst.cls->lookup(attr) : nullptr;
      v && !v->is_object() && !v->is_tensor()) {
    return Sugared::of(constant(*v, range));
  }
  if (inst.cls) {
    if (const ast::FunctionDef* fn = find_method(inst.type, attr)) {
      Sugared m = Sugared::of_kind(Sugared::Kind::Method, attr);
      m.module = module.module;
      m.fn = fn;
      return m;
    }
  }
  std::vector<std::string> names = inst.order;
  if (auto it = globals_.classes.find(inst.type); it != globals_.classes.end()) {
    for (const ast::StmtPtr& s : it->second->body) {
      if (s->kind == ast::StmtKind::FunctionDef) names.push_back(s->as<ast::FunctionDef>().name);
    }
  }
  fail("AttributeError: '" + inst.type + "' object has no attribute '" + attr + "'", range,
       did_you_mean(attr, names));
}

ir::Value* Lowerer::constant_at_top(const IValue& v, const SourceRange& range) {
  ir::WithInsertPoint top(graph_, graph_.block()->param_node()->next());
  return constant(v, range);
}

namespace {

// The state_dict prefix of `target` among `root` and the modules under it, breadth
// first; nullopt when it is none of them.
std::optional<std::string> module_prefix(const ModuleRef& root, const InstanceValue* target) {
  std::vector<ModuleRef> queue{root};
  std::unordered_set<const InstanceValue*> seen{root.instance.get()};
  for (size_t i = 0; i < queue.size(); ++i) {
    const ModuleRef m = queue[i];  // a copy: the queue grows below
    if (m.instance.get() == target) return m.prefix;
    for (const std::string& attr : m.instance->children) {
      const IValue* v = m.instance->get(attr);
      InstanceValue* child = v ? as_instance(*v) : nullptr;
      if (child && seen.insert(child).second) {
        queue.push_back(
            ModuleRef{std::static_pointer_cast<InstanceValue>(v->to_object()), m.qualify(attr)});
      }
    }
  }
  return std::nullopt;
}

}  // namespace

int Lowerer::eager_closure_frame(const interp::Closure& closure, const ModuleRef& owner,
                                 const SourceRange& range) {
  if (auto it = eager_closures_.find(&closure); it != eager_closures_.end()) return it->second;
  const int serial = next_serial_++;
  eager_closures_.emplace(&closure, serial);  // first: a function among the variables may
                                              // close over this same frame
  auto env = std::make_unique<Environment>(nullptr);
  // Innermost frame first: its variables hide the outer ones of the same name.
  for (const interp::Closure* c = &closure; c; c = c->parent.get()) {
    if (!c->info || !c->slots) continue;
    for (const auto& [name, slot] : c->info->slots) {
      const size_t i = static_cast<size_t>(slot);
      if (env->find_local(name) || i >= c->slots->size() || !(*c->slots)[i]) continue;
      env->set(name, eager_binding(name, *(*c->slots)[i], owner, range));
    }
  }
  finished_frames_[serial] = FinishedFrame{std::move(env), -1};
  return serial;
}

Binding Lowerer::eager_binding(const std::string& name, const IValue& v, const ModuleRef& owner,
                               const SourceRange& range) {
  auto poisoned = [&](const std::string& what) {
    return Binding{Sugared{},
                   "the parse route cannot use '" + name + "' (" + what +
                       "): a function kept in an attribute of '" + owner.instance->type +
                       "' reads it from the function that made it",
                   "eager and trace modes (d2s run --mode eager, or --mode trace) run it; or "
                   "keep the value in an attribute of the module"};
  };
  if (InstanceValue* inst = as_instance(v)) {
    std::optional<std::string> prefix = inst->is_module ? module_prefix(owner, inst) : std::nullopt;
    if (!prefix) return poisoned("a " + inst->type + ", not one of the module's submodules");
    Sugared s = Sugared::of_kind(Sugared::Kind::Module, *prefix);
    s.module = std::make_shared<ModuleRef>(
        ModuleRef{std::static_pointer_cast<InstanceValue>(v.to_object()), *prefix});
    return Binding{s, {}, {}};
  }
  if (auto* f = interp::as_obj<interp::FunctionValue>(v); f && f->def) {
    Sugared s = Sugared::of_kind(Sugared::Kind::Function, f->qualname);
    s.fn = f->def;
    if (f->closure) s.closure = eager_closure_frame(*f->closure, owner, range);
    return Binding{s, {}, {}};
  }
  if (auto* b = interp::as_obj<interp::BuiltinValue>(v)) {
    return Binding{Sugared::of_kind(Sugared::Kind::Builtin, b->qualname), {}, {}};
  }
  if (v.is_object()) return poisoned("a " + v.type_name());
  // A number, string, None or tensor, frozen as the attributes are.
  return Binding{Sugared::of(constant_at_top(v, range)), {}, {}};
}

std::vector<Sugared> Lowerer::module_children(const Sugared& module, const SourceRange& range) {
  const ModuleRef& ref = *module.module;
  const InstanceValue& inst = *ref.instance;
  if (inst.nn != NnKind::Sequential && inst.nn != NnKind::ModuleList &&
      inst.nn != NnKind::ModuleDict) {
    fail("'" + inst.type + "' object is not iterable", range,
         "only nn.Sequential, nn.ModuleList and nn.ModuleDict can be iterated over");
  }
  std::vector<Sugared> out;
  for (const std::string& c : inst.children) out.push_back(module_attribute(module, c, range));
  return out;
}

std::vector<Sugared> Lowerer::module_items(const Sugared& module, const SourceRange& range) {
  std::vector<Sugared> children = module_children(module, range);
  if (module.module->instance->nn != NnKind::ModuleDict) return children;
  std::vector<Sugared> keys;
  for (const std::string& c : module.module->instance->children) {
    keys.push_back(Sugared::of(constant(IValue(c), range)));
  }
  return keys;
}

Sugared Lowerer::call_module_dict_method(const Sugared& method, CallArgs& args,
                                         const SourceRange& range) {
  if (!args.positional.empty() || !args.keywords.empty()) {
    fail("TypeError: ModuleDict." + method.name + "() takes no arguments", range);
  }
  Sugared module = Sugared::of_kind(Sugared::Kind::Module, method.module->prefix);
  module.module = method.module;
  std::vector<Sugared> keys = module_items(module, range);
  std::vector<Sugared> values = module_children(module, range);
  if (method.name == "keys") return Sugared::of_items(std::move(keys));
  if (method.name == "values") return Sugared::of_items(std::move(values));
  std::vector<Sugared> pairs;
  for (size_t i = 0; i < keys.size(); ++i) pairs.push_back(Sugared::of_items({keys[i], values[i]}));
  return Sugared::of_items(std::move(pairs));
}

Sugared Lowerer::module_dict_item(const Sugared& module, const ast::Expr& key,
                                  const SourceRange& range) {
  std::optional<IValue> k = static_value(emit_expr(key));
  if (!k || !k->is_string()) {
    fail("the key of an nn.ModuleDict must be a str known at conversion time in the parse route",
         key.range,
         "the parse route picks the module when it converts forward (a string constant, a "
         "loop variable over the ModuleDict's keys or a module attribute); eager and trace "
         "modes run any key");
  }
  const InstanceValue& inst = *module.module->instance;
  if (std::find(inst.children.begin(), inst.children.end(), k->to_string()) ==
      inst.children.end()) {
    fail("KeyError: '" + k->to_string() + "'", range, did_you_mean(k->to_string(), inst.children));
  }
  return module_attribute(module, k->to_string(), range);
}

Sugared Lowerer::call_module(const Sugared& module, CallArgs& args, const SourceRange& range) {
  const ModuleRef& ref = *module.module;
  const InstanceValue& inst = *ref.instance;
  // A user class (also one deriving from nn.Sequential) runs its own forward.
  const ast::FunctionDef* forward = inst.cls ? find_method(inst.type, "forward") : nullptr;
  if (forward) return call_user_function(*forward, inst.type + ".forward", module, args, range);
  if (inst.nn == NnKind::None) {
    fail("NotImplementedError: Module [" + inst.type +
             "] is missing the required \"forward\" "
             "function",
         range);
  }
  return call_nn_forward(module, args, range);
}

Sugared Lowerer::call_nn_forward(const Sugared& module, CallArgs& args, const SourceRange& range) {
  const ModuleRef& ref = *module.module;
  const InstanceValue& inst = *ref.instance;
  if (inst.nn == NnKind::ModuleList || inst.nn == NnKind::ModuleDict) {
    fail("NotImplementedError: Module [" + inst.type +
             "] is missing the required \"forward\" function",
         range, "iterate over the " + inst.type + " and call its modules");
  }
  if (inst.nn == NnKind::Recurrent) return call_recurrent_forward(module, args, range);
  if (inst.nn == NnKind::Attention) return call_attention_forward(module, args, range);
  if (inst.nn == NnKind::Layer && inst.type.rfind("ConvTranspose", 0) == 0 &&
      !args.positional.empty() &&
      (args.positional.size() == 2 || (args.positional.size() == 1 && args.keywords.size() == 1 &&
                                       args.keywords[0].first == "output_size"))) {
    // forward(input, output_size): output_size picks the output_padding.
    const CallArg& size =
        args.positional.size() == 2 ? args.positional[1] : args.keywords[0].second;
    ir::Value* x = as_value(args.positional[0].value, args.positional[0].range);
    ir::Value* given = as_value(size.value, size.range);
    if (given->type().kind == ir::TypeKind::None) return call_layer_forward(module, x, range);
    return call_layer_forward(module, x, range,
                              conv_transpose_output_padding(inst, x, given, range));
  }
  if (args.positional.size() != 1 || !args.keywords.empty()) {
    fail("TypeError: " + inst.type + ".forward() takes exactly one input", range);
  }
  ir::Value* x = as_value(args.positional[0].value, args.positional[0].range);
  auto attr = [&](const char* name) {
    return as_value(module_attribute(module, name, range), range);
  };
  switch (inst.nn) {
    case NnKind::Linear:
      return Sugared::of(emit_op("aten::linear", {x, attr("weight"), attr("bias")}, range));
    case NnKind::ReLU: {
      // ReLU(inplace=True) overwrites its input, as PyTorch's does.
      const IValue* inplace = inst.get("inplace");
      const bool write = inplace && inplace->is_bool() && inplace->to_bool();
      return Sugared::of(emit_op(write ? "aten::relu_" : "aten::relu", {x}, range));
    }
    case NnKind::Tanh:
      return Sugared::of(emit_op("aten::tanh", {x}, range));
    case NnKind::Sigmoid:
      return Sugared::of(emit_op("aten::sigmoid", {x}, range));
    case NnKind::GELU: {
      const IValue* approx = inst.get("approximate");
      if (approx && approx->is_string() && approx->to_string() != "none") {
        return Sugared::of(emit_op(
            "aten::gelu", {CallArg{Sugared::of(x), range, nullptr}},
            {{"approximate", CallArg{Sugared::of(constant(*approx, range)), range, nullptr}}},
            range));
      }
      return Sugared::of(emit_op("aten::gelu", {x}, range));
    }
    case NnKind::Identity:
      return Sugared::of(x);
    case NnKind::LayerNorm: {
      std::vector<ir::Value*> dims;
      if (const IValue* shape = inst.get("normalized_shape")) {
        for (const IValue& d : shape->items()) dims.push_back(constant(d, range));
      }
      return Sugared::of(
          emit_op("aten::layer_norm",
                  {x, make_list(dims, range), attr("weight"), attr("bias"), attr("eps")}, range));
    }
    case NnKind::Dropout: {
      // Dropout(inplace=True) writes into its input: aten::dropout_, as PyTorch's.
      const IValue* inplace = inst.get("inplace");
      const bool write = inplace && inplace->is_bool() && inplace->to_bool();
      return Sugared::of(emit_op(write ? "aten::dropout_" : "aten::dropout",
                                 {x, attr("p"), attr("training")}, range));
    }
    case NnKind::Layer:
      return call_layer_forward(module, x, range);
    case NnKind::Sequential: {
      Sugared h = Sugared::of(x);
      for (const Sugared& child : module_children(module, range)) {
        CallArgs a;
        a.positional.push_back(CallArg{h, range, nullptr});
        h = call_module(child, a, range);
      }
      return h;
    }
    default:
      fail("internal error: no forward for " + inst.type, range);
  }
}

}  // namespace d2s::convert
