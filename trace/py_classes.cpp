// Classes as published model files write them: super(Cls, self) with arguments,
// classes deriving from nn.Sequential / nn.ModuleList (their __init__ passes the
// modules on with super().__init__(*mods)), and names from modules d2s does not
// implement, which may be imported but not used on the path that runs.
#include "trace/interp.h"
#include "trace/py_dict.h"

namespace d2s::interp {

namespace {

bool derives_from(const ClassValue* cls, const ClassValue* base) {
  // A class can only derive from classes defined before it, so the chain ends.
  for (const ClassValue* c = cls; c; c = c->base.get()) {
    if (c == base) return true;
  }
  return false;
}

}  // namespace

IValue Interpreter::super_of(const ValueList& args, const SourceRange& range) {
  if (args.size() != 2) {
    fail("super() with " + std::to_string(args.size()) + " argument" +
             (args.size() == 1 ? "" : "s") + " is not supported by d2s",
         range, "write super() or super(ClassName, self)");
  }
  auto* cls = as_obj<ClassValue>(args[0]);
  if (!cls) {
    fail("TypeError: super() argument 1 must be a type, not " + py_type_name(args[0]), range);
  }
  auto* inst = as_obj<InstanceValue>(args[1]);
  if (!inst || !derives_from(inst->cls.get(), cls)) {
    fail("TypeError: super(type, obj): obj must be an instance or subtype of type", range,
         "pass the class whose method this is and `self`: super(" + cls->name + ", self)");
  }
  return IValue(std::static_pointer_cast<Object>(std::make_shared<SuperValue>(
      std::static_pointer_cast<ClassValue>(args[0].to_object()), args[1])));
}

void Interpreter::fill_container(InstanceValue& inst, ValueList args, Kwargs kwargs,
                                 const std::string& fname, const SourceRange& range) {
  ValueList mods;
  if (inst.nn == NnKind::Sequential) {
    if (!kwargs.empty()) fail("TypeError: nn.Sequential() takes no keyword arguments", range);
    // nn.Sequential(OrderedDict([("conv1", ...), ...])): children named by the keys, as
    // Sequential.__init__ add_module()s them (a plain dict is no module, as in PyTorch).
    if (DictValue* d = args.size() == 1 ? as_dict(args[0]) : nullptr; d && d->ordered) {
      for (const auto& [k, m] : d->items) {
        auto* mod = as_obj<InstanceValue>(m);
        if (!mod || !mod->is_module) {
          fail("TypeError: " + py_type_name(m) + " is not a Module subclass", range);
        }
        if (!k.is_string()) {
          fail("TypeError: module name should be a string. Got " + py_type_name(k), range);
        }
        const std::string& name = k.to_string();
        if (inst.get(name)) {
          fail("KeyError: " + py_repr(IValue("attribute '" + name + "' already exists")), range);
        }
        if (name.find('.') != std::string::npos) {
          fail("KeyError: " + py_repr(IValue("module name can't contain \".\", got: " + name)),
               range);
        }
        if (name.empty()) {
          fail(
              "KeyError: " + py_repr(IValue(std::string("module name can't be empty string \"\""))),
              range);
        }
        inst.set(name, m);
        inst.children.push_back(name);
      }
      return;
    }
    mods = std::move(args);
  } else {
    ValueList a =
        bind_args(fname, {{"modules", IValue()}}, std::move(args), std::move(kwargs), range);
    if (!a[0].is_none()) mods = iterate(a[0], range);
  }
  // Appended after any modules already registered, as nn.Sequential.__init__ and
  // nn.ModuleList.__init__ do (they add_module / extend).
  const size_t first = inst.children.size();
  for (size_t i = 0; i < mods.size(); ++i) {
    auto* m = as_obj<InstanceValue>(mods[i]);
    if (!m || !m->is_module) {
      fail("TypeError: " + py_type_name(mods[i]) + " is not a Module subclass", range,
           "argument " + std::to_string(i + 1) + " of " + fname + " must be a module");
    }
    // A new child, registered as setattr registers one (it is not a parameter).
    const std::string name = std::to_string(first + i);
    inst.set(name, mods[i]);
    inst.children.push_back(name);
  }
}

void Interpreter::fail_foreign(const ForeignValue& f, const std::string& used,
                               const SourceRange& range) const {
  const std::string top = f.qualname.substr(0, f.qualname.find('.'));
  fail("'" + used + "' comes from the module '" + top +
           "', which d2s does not implement (imported at line " +
           std::to_string(f.imported_at.line) + ")",
       range,
       "d2s accepts the import, but code that runs may not use it; keep such code out of "
       "the entry (e.g. under `if __name__ == \"__main__\":`), or write it with torch and "
       "math");
}

}  // namespace d2s::interp
