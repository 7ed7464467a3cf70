// `@torch.compile`, `@torch.jit.script`, `torch.compile(fn)` and `torch.compile(model)`
// in eager mode (trace/compile_hook.h): the wrapped function or module runs by the parse
// route when the run has a CompileHook, eagerly otherwise. The first call lowers it (with
// the first call's argument shapes); a module whose `training` flag changed since is
// lowered again, as torch.compile re-compiles when a guard fails. A body that cannot be
// lowered runs eagerly from then on, and the fallback is said once on stderr.
#include <algorithm>
#include <iostream>

#include "trace/compile_hook.h"
#include "trace/native_value.h"

namespace d2s::interp {

namespace {

class CompiledFunctionValue : public NativeValue {
 public:
  std::string type_name() const override { return self ? "OptimizedModule" : "function"; }
  bool has_method(const std::string& name) const override {
    (void)name;
    return false;
  }
  IValue call_method(Interpreter& in, const std::string& name, ValueList args, Kwargs kwargs,
                     const SourceRange& range) override {
    (void)name, (void)args, (void)kwargs;
    in.fail("internal error: compiled functions have no methods", range);
  }
  std::optional<IValue> attribute(const std::string& attr) const override {
    // torch.compile(model) forwards attribute reads to the module.
    if (self) {
      if (const IValue* v = self->get(attr)) return *v;
    }
    return std::nullopt;
  }
  std::string repr() const override { return "<compiled " + name + ">"; }

  IValue call(Interpreter& in, ValueList args, Kwargs kwargs, const SourceRange& range) override;

  IValue target;                          // the function or module, as the program gave it
  std::shared_ptr<InstanceValue> self;    // torch.compile(model)
  const ast::FunctionDef* def = nullptr;  // the function, or the module's forward
  std::string name;
  SourceRange site;

 private:
  IValue eager(Interpreter& in, ValueList args, Kwargs kwargs, const SourceRange& range) {
    return in.call_value(target, std::move(args), std::move(kwargs), range);
  }
  void fall_back(const std::string& why) {
    fell_back = true;
    std::cerr << site.path() << ":" << site.line << ":" << site.col << ": warning: torch.compile: '"
              << name << "' cannot be lowered to a static graph, so it runs eagerly: " << why
              << "\n";
  }
  bool training_now() const {
    const IValue* t = self ? self->get("training") : nullptr;
    return t && t->is_bool() ? t->to_bool() : true;
  }

  std::unique_ptr<CompiledCall> compiled;
  bool fell_back = false;
  bool compiled_training = true;
};

IValue CompiledFunctionValue::call(Interpreter& in, ValueList args, Kwargs kwargs,
                                   const SourceRange& range) {
  CompileHook* hook = in.compile_hook();
  if (!hook || fell_back) return eager(in, std::move(args), std::move(kwargs), range);
  if (!kwargs.empty()) {
    fall_back(
        "it is called with keyword arguments, and d2s compiles calls with positional "
        "tensor arguments");
    return eager(in, std::move(args), std::move(kwargs), range);
  }
  for (size_t i = 0; i < args.size(); ++i) {
    if (!args[i].is_tensor()) {
      fall_back("argument " + std::to_string(i + 1) + " is " + py_type_name(args[i]) +
                ", and d2s compiles calls with tensor arguments");
      return eager(in, std::move(args), std::move(kwargs), range);
    }
  }
  // The modules' training flag is frozen into the graph: lower again when it changed.
  std::vector<std::pair<std::string, std::shared_ptr<InstanceValue>>> modules = in.global_modules();
  bool training = training_now();
  if (!self && !modules.empty()) {
    const IValue* t = modules.front().second->get("training");
    training = !t || !t->is_bool() || t->to_bool();
  }
  if (!compiled || training != compiled_training) {
    CompileRequest req;
    req.module = &in.module();
    req.file = def->range.file;
    req.function = def;
    req.self = self;
    req.name = name;
    req.site = site;
    req.modules = std::move(modules);
    req.args = args;
    req.training = training;
    std::string why;
    compiled = hook->compile(req, &why);
    if (!compiled) {
      fall_back(why);
      return eager(in, std::move(args), std::move(kwargs), range);
    }
    compiled_training = training;
  }
  try {
    return compiled->run(args, in.generator(), in.out());
  } catch (const Error& e) {
    if (e.range().known()) throw;
    throw Error(e.message(), range, e.hint(), e.exit_code());
  }
}

// The dotted name a decorator spells (`torch.compile`, `torch.jit.script`), or empty.
std::string dotted(const ast::Expr& e) {
  if (e.kind == ast::ExprKind::Name) return e.as<ast::Name>().id;
  if (e.kind == ast::ExprKind::Attribute) {
    const auto& a = e.as<ast::Attribute>();
    std::string base = dotted(*a.value);
    return base.empty() ? "" : base + "." + a.attr;
  }
  return "";
}

IValue wrap(Interpreter& in, const IValue& target, const SourceRange& site) {
  auto w = std::make_shared<CompiledFunctionValue>();
  w->target = target;
  w->site = site;
  if (auto* f = as_obj<FunctionValue>(target)) {
    w->def = f->def;
    w->name = f->qualname;
  } else if (auto* m = as_obj<InstanceValue>(target); m && m->is_module && m->cls) {
    w->self = std::static_pointer_cast<InstanceValue>(target.to_object());
    const IValue* fwd = m->cls->lookup("forward");
    auto* fn = fwd ? as_obj<FunctionValue>(*fwd) : nullptr;
    if (!fn) in.fail("torch.compile: '" + m->type + "' has no forward method", site);
    w->def = fn->def;
    w->name = m->type + ".forward";
  } else {
    return target;  // builtin modules and other callables run eagerly, unchanged
  }
  return IValue(std::static_pointer_cast<Object>(w));
}

}  // namespace

const IValue* compiled_target(const IValue& v) {
  auto* w = as_obj<CompiledFunctionValue>(v);
  return w ? &w->target : nullptr;
}

IValue compile_callable(Interpreter& in, const IValue& target, const SourceRange& site) {
  return wrap(in, target, site);
}

IValue Interpreter::apply_compile_decorators(const ast::FunctionDef& def, IValue fn) {
  for (const ast::ExprPtr& d : def.decorators) {
    const ast::Expr& callee = d->kind == ast::ExprKind::Call ? *d->as<ast::Call>().func : *d;
    const std::string name = dotted(callee);
    const size_t dot = name.rfind('.');
    const std::string leaf = dot == std::string::npos ? name : name.substr(dot + 1);
    if (leaf != "compile" && leaf != "script") continue;
    // What the name means in this program (`torch.compile` under any alias).
    IValue v;
    try {
      v = eval(callee);
    } catch (const Error&) {
      continue;  // not a name d2s knows: decorators it does not know are ignored
    }
    auto* b = as_obj<BuiltinValue>(v);
    if (b && (b->qualname == "torch.compile" || b->qualname == "torch.jit.script")) {
      return wrap(*this, fn, d->range);
    }
  }
  return fn;
}

std::vector<std::pair<std::string, std::shared_ptr<InstanceValue>>> Interpreter::global_modules()
    const {
  std::vector<std::pair<std::string, std::shared_ptr<InstanceValue>>> out;
  for (const auto& [name, v] : globals_) {
    auto* m = as_obj<InstanceValue>(v);
    if (m && m->is_module) {
      out.emplace_back(name, std::static_pointer_cast<InstanceValue>(v.to_object()));
    }
  }
  // Sorted by name: the graph's inputs come out in one order whatever the hash map's.
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return out;
}

}  // namespace d2s::interp
