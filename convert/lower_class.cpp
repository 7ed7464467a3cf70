// Classes in the parse route, as published model files use them: super() and
// super(Cls, self) in methods, class attributes (`expansion = 4`, `Cls.expansion`),
// `*x` spread into a call, and names imported from modules d2s does not implement.
// Everything here is decided at conversion time: the instance and its class are
// known, so super() picks its method as Python would and the method is inlined.
#include "convert/lowerer.h"
#include "trace/py_objects.h"

namespace d2s::convert {

using ir::TypeKind;

std::string Lowerer::base_class(const std::string& class_name) const {
  auto it = globals_.classes.find(class_name);
  if (it == globals_.classes.end()) return {};
  for (const ast::ExprPtr& b : it->second->bases) {
    if (b->kind == ast::ExprKind::Name && globals_.classes.count(b->as<ast::Name>().id)) {
      return b->as<ast::Name>().id;
    }
  }
  return {};
}

Sugared Lowerer::make_super(CallArgs& args, const SourceRange& range) {
  if (!args.keywords.empty()) fail("TypeError: super() takes no keyword arguments", range);
  std::string class_name;
  Sugared self;
  if (args.positional.empty()) {
    // super(): the class whose body defines the running method, and its first parameter.
    const ast::FunctionDef* fn = frames_.empty() ? nullptr : frames_.back().fn;
    for (const auto& [name, cls] : globals_.classes) {
      for (const ast::StmtPtr& s : cls->body) {
        if (fn && s.get() == static_cast<const ast::Stmt*>(fn)) class_name = name;
      }
    }
    if (class_name.empty() || fn->params.empty()) {
      fail("RuntimeError: super(): no arguments", range, "super() works inside a method");
    }
    self = lookup_name(fn->params[0].name, range);
  } else if (args.positional.size() == 2) {
    const Sugared& cls = args.positional[0].value;
    if (cls.kind != Sugared::Kind::Class) {
      fail("TypeError: super() argument 1 must be a type, not " + cls.describe(),
           args.positional[0].range);
    }
    class_name = cls.name;
    self = args.positional[1].value;
  } else {
    fail("super() with " + std::to_string(args.positional.size()) +
             " arguments is not supported by d2s",
         range, "write super() or super(ClassName, self)");
  }
  if (self.kind != Sugared::Kind::Module || !self.module->instance->cls) {
    fail("super() of " + self.describe() + " is not supported by the parse route", range,
         "the parse route takes super() of `self` in the methods of an nn.Module class");
  }
  // The instance's class must be class_name or derive from it (Python's check).
  bool derives = false;
  for (std::string c = self.module->instance->type; !c.empty() && !derives; c = base_class(c)) {
    derives = c == class_name;
  }
  if (!derives) {
    fail("TypeError: super(type, obj): obj must be an instance or subtype of type", range,
         "pass the class whose method this is and `self`: super(" + class_name + ", self)");
  }
  Sugared sup = Sugared::of_kind(Sugared::Kind::Super, class_name);
  sup.module = self.module;
  return sup;
}

Sugared Lowerer::super_attribute(const Sugared& sup, const std::string& attr,
                                 const SourceRange& range) {
  const std::string base = base_class(sup.name);
  if (!base.empty()) {
    if (const ast::FunctionDef* fn = find_method(base, attr)) {
      Sugared m = Sugared::of_kind(Sugared::Kind::Method, attr);
      m.module = sup.module;
      m.fn = fn;
      return m;
    }
    if (auto a = class_attribute(base, attr, range)) return *a;
  }
  // The built-in base's forward: nn.Sequential's runs the children in order.
  if (attr == "forward" && sup.module->instance->nn == interp::NnKind::Sequential) {
    Sugared m = Sugared::of_kind(Sugared::Kind::Method, attr);
    m.module = sup.module;  // fn stays null: call_sugared runs the built-in forward
    return m;
  }
  fail("AttributeError: 'super' object has no attribute '" + attr + "'", range,
       attr == "__init__" ? "the parse route converts forward; __init__ runs in eager mode" : "");
}

std::optional<Sugared> Lowerer::class_attribute(const std::string& class_name,
                                                const std::string& attr, const SourceRange& range) {
  for (std::string c = class_name; !c.empty(); c = base_class(c)) {
    const ast::ClassDef& cls = *globals_.classes.at(c);
    // The last binding of `attr` in the body wins, as when Python runs the body.
    std::optional<Sugared> found;
    for (const ast::StmtPtr& s : cls.body) {
      const ast::Expr* value = nullptr;
      if (s->kind == ast::StmtKind::FunctionDef && s->as<ast::FunctionDef>().name == attr) {
        Sugared f = Sugared::of_kind(Sugared::Kind::Function, c + "." + attr);
        f.fn = &s->as<ast::FunctionDef>();
        found = f;
        continue;
      }
      if (s->kind == ast::StmtKind::Assign) {
        const auto& a = s->as<ast::Assign>();
        for (const ast::ExprPtr& t : a.targets) {
          if (t->kind == ast::ExprKind::Name && t->as<ast::Name>().id == attr)
            value = a.value.get();
        }
      } else if (s->kind == ast::StmtKind::AnnAssign) {
        const auto& a = s->as<ast::AnnAssign>();
        if (a.value && a.target->kind == ast::ExprKind::Name &&
            a.target->as<ast::Name>().id == attr) {
          value = a.value.get();
        }
      }
      if (value) {
        // Evaluated where the class body runs: with the globals only.
        Environment* saved = env_;
        env_ = nullptr;
        found = emit_sugared(*value);
        env_ = saved;
      }
    }
    if (found) return found;
  }
  (void)range;
  return std::nullopt;
}

std::vector<Sugared> Lowerer::spread_items(const ast::Starred& starred) {
  const SourceRange& range = starred.value->range;
  Sugared s = emit_sugared(*starred.value);
  if (s.kind == Sugared::Kind::Module) return module_items(s, range);
  if (s.kind == Sugared::Kind::Items) return *s.items;
  if (s.kind == Sugared::Kind::Iterator) return iterator_rest(s, range);
  if (s.is_value()) {
    ir::Value* v = s.value;
    if (v->type().kind == TypeKind::Tuple) {
      std::vector<Sugared> out;
      for (ir::Value* item : tuple_items(v, range)) out.push_back(Sugared::of(item));
      return out;
    }
    if (auto items = static_list_items(v, range)) {
      std::vector<Sugared> out;
      for (ir::Value* item : *items) out.push_back(Sugared::of(item));
      return out;
    }
  }
  fail("the parse route spreads `*" + text_of(range) +
           "` only when its length is known at conversion time",
       starred.range,
       "spread a tuple, a list written out, or an nn.Sequential / nn.ModuleList; eager and "
       "trace modes (`d2s run --mode eager|trace`) run it as it is");
}

std::optional<Sugared> Lowerer::call_reflection(const std::string& q, CallArgs& args,
                                                const SourceRange& range) {
  if (q != "type" && q != "isinstance" && q != "hasattr" && q != "getattr") return std::nullopt;
  const size_t lo = q == "type" ? 1 : 2;
  const size_t hi = q == "getattr" ? 3 : lo;
  if (!args.keywords.empty() || args.positional.size() < lo || args.positional.size() > hi) {
    fail("TypeError: " + q + "() takes " + std::to_string(lo) +
             (hi > lo ? " or " + std::to_string(hi) : std::string()) + " positional arguments",
         range);
  }
  const Sugared& obj = args.positional[0].value;
  const interp::InstanceValue* inst =
      obj.kind == Sugared::Kind::Module ? obj.module->instance.get() : nullptr;
  auto constant_bool = [&](bool b) { return Sugared::of(constant(IValue(b), range)); };
  if (q == "type") {
    if (inst && inst->cls) {
      Sugared c = Sugared::of_kind(Sugared::Kind::Class, inst->type);
      c.cls = globals_.classes.count(inst->type) ? globals_.classes.at(inst->type) : nullptr;
      return c;
    }
    if (inst) return Sugared::of_kind(Sugared::Kind::Builtin, "torch.nn." + inst->type);
    if (obj.is_value()) {
      const ir::Type& t = obj.value->type();
      if (t.is_tensor()) return Sugared::of_kind(Sugared::Kind::Builtin, "torch.Tensor");
      if (t.kind == TypeKind::Int) return Sugared::of_kind(Sugared::Kind::Builtin, "int");
      if (t.kind == TypeKind::Float) return Sugared::of_kind(Sugared::Kind::Builtin, "float");
      if (t.kind == TypeKind::Bool) return Sugared::of_kind(Sugared::Kind::Builtin, "bool");
      if (t.kind == TypeKind::Str) return Sugared::of_kind(Sugared::Kind::Builtin, "str");
    }
    fail("type() of " + obj.describe() + " is not supported by the parse route", range,
         "eager and trace modes (`d2s run --mode eager|trace`) run it");
  }
  // The attribute name must be known now: the parse route resolves it at conversion time.
  auto attr_name = [&]() {
    ir::Value* v = args.positional[1].value.is_value() ? args.positional[1].value.value : nullptr;
    auto c = v ? constant_value(v) : std::nullopt;
    if (!c || !c->is_string()) {
      fail("the parse route needs the attribute name of " + q + "() as a string constant",
           args.positional[1].range, "eager and trace modes run it with any name");
    }
    return c->to_string();
  };
  if (q == "hasattr" || q == "getattr") {
    const std::string name = attr_name();
    if (!inst) {
      if (q == "getattr" && args.positional.size() == 2) return emit_attribute(obj, name, range);
      fail(q + "() of " + obj.describe() + " is not supported by the parse route", range,
           "eager and trace modes (`d2s run --mode eager|trace`) run it");
    }
    const bool has = name == "training" || inst->get(name) ||
                     (inst->cls && inst->cls->lookup(name)) ||
                     (inst->cls && find_method(inst->type, name));
    if (q == "hasattr") return constant_bool(has);
    if (!has && args.positional.size() == 3) return args.positional[2].value;
    return emit_attribute(obj, name, range);
  }
  // isinstance(x, T) / isinstance(x, (T1, T2)): decided from the static kind of x.
  const Sugared& t = args.positional[1].value;
  if (t.is_value() && t.value->type().kind == TypeKind::Tuple) {
    fail("isinstance() with a tuple of types is not supported by the parse route",
         args.positional[1].range, "test each type with its own isinstance()");
  }
  bool match = false;
  if (t.kind == Sugared::Kind::Class) {
    for (std::string c = inst && inst->cls ? inst->type : ""; !c.empty() && !match;
         c = base_class(c)) {
      match = c == t.name;
    }
  } else if (t.kind == Sugared::Kind::Builtin) {
    const std::string& n = t.name;
    const interp::NnKind container = inst && inst->cls ? inst->cls->nn_base : interp::NnKind::None;
    if (inst) {
      // MultiheadAttention's out_proj, a NonDynamicallyQuantizableLinear, is an nn.Linear.
      match = n == "torch.nn.Module" || (!inst->cls && n == "torch.nn." + inst->type) ||
              (inst->nn == interp::NnKind::Linear && n == "torch.nn.Linear") ||
              (container == interp::NnKind::Sequential && n == "torch.nn.Sequential") ||
              (container == interp::NnKind::ModuleList && n == "torch.nn.ModuleList") ||
              (container == interp::NnKind::ModuleDict && n == "torch.nn.ModuleDict");
    } else if (obj.is_value()) {
      const ir::Type& ty = obj.value->type();
      const bool number =
          ty.kind == TypeKind::Int || ty.kind == TypeKind::Bool || ty.kind == TypeKind::Float;
      match =
          ((n == "numbers.Number" || n == "numbers.Real" || n == "numbers.Complex") && number) ||
          ((n == "numbers.Integral" || n == "numbers.Rational") &&
           (ty.kind == TypeKind::Int || ty.kind == TypeKind::Bool)) ||
          (n == "torch.Tensor" && ty.is_tensor()) ||
          (n == "int" && (ty.kind == TypeKind::Int || ty.kind == TypeKind::Bool)) ||
          (n == "float" && ty.kind == TypeKind::Float) ||
          (n == "bool" && ty.kind == TypeKind::Bool) || (n == "str" && ty.kind == TypeKind::Str) ||
          (n == "tuple" && ty.kind == TypeKind::Tuple) ||
          (n == "list" && ty.kind == TypeKind::List);
      if (ty.kind == TypeKind::Any) {
        fail("isinstance() of a value of unknown type is not supported by the parse route", range,
             "eager and trace modes run it");
      }
    } else {
      match = false;
    }
  } else {
    fail("TypeError: isinstance() arg 2 must be a type", args.positional[1].range);
  }
  return constant_bool(match);
}

}  // namespace d2s::convert
