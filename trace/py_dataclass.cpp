// @dataclasses.dataclass config classes, as model files write their hyperparameters:
// annotated class attributes become __init__'s parameters (in order, base classes'
// first), with their defaults or `field(default=...)` / `field(default_factory=f)`;
// __post_init__ runs after them. The field names are the class's
// `__dataclass_fields__` (a tuple of names here), as Python keeps them.
#include <algorithm>

#include "trace/interp.h"

namespace d2s::interp {

namespace {

// What `field(...)` returns: the default, or the factory that makes it per instance.
class DataclassField : public Object {
 public:
  std::string type_name() const override { return "Field"; }
  std::optional<IValue> default_value;
  std::optional<IValue> default_factory;
};

const char kFields[] = "__dataclass_fields__";

}  // namespace

bool Interpreter::is_dataclass_name(const std::string& qualname) {
  return qualname == "dataclasses.dataclass" || qualname == "dataclasses.field";
}

IValue Interpreter::call_dataclass_name(const std::string& qualname, ValueList args, Kwargs kwargs,
                                        const SourceRange& range) {
  if (qualname == "dataclasses.dataclass") {
    // dataclass(cls) called as a function: the class, made a dataclass by exec_class
    // only when written as a decorator.
    fail("dataclasses.dataclass is supported as a class decorator only", range,
         "write @dataclass above the class");
  }
  if (!args.empty()) fail("TypeError: field() takes no positional arguments", range);
  auto f = std::make_shared<DataclassField>();
  for (auto& [key, value] : kwargs) {
    if (key == "default") {
      f->default_value = value;
    } else if (key == "default_factory") {
      f->default_factory = value;
    } else if (key != "init" && key != "repr" && key != "compare" && key != "hash" &&
               key != "metadata") {
      fail("TypeError: field() got an unexpected keyword argument '" + key + "'", range);
    }
  }
  if (f->default_value && f->default_factory) {
    fail("ValueError: cannot specify both default and default_factory", range);
  }
  return IValue(std::static_pointer_cast<Object>(f));
}

void Interpreter::apply_dataclass(ClassValue& cls, const ast::ClassDef& s) {
  bool is_dataclass = false;
  for (const ast::ExprPtr& d : s.decorators) {
    const ast::Expr& callee = d->kind == ast::ExprKind::Call ? *d->as<ast::Call>().func : *d;
    IValue v;
    try {
      v = eval(callee);
    } catch (const Error&) {
      continue;  // decorators d2s does not know are ignored
    }
    if (auto* b = as_obj<BuiltinValue>(v); b && b->qualname == "dataclasses.dataclass") {
      is_dataclass = true;
    }
  }
  if (!is_dataclass) return;
  ValueList names;
  if (const IValue* inherited = cls.base ? cls.base->lookup(kFields) : nullptr) {
    names = inherited->tuple_items();
  }
  for (const ast::StmtPtr& st : s.body) {
    if (st->kind != ast::StmtKind::AnnAssign) continue;
    const auto& a = st->as<ast::AnnAssign>();
    if (a.target->kind != ast::ExprKind::Name) continue;
    IValue name(a.target->as<ast::Name>().id);
    bool known = std::any_of(names.begin(), names.end(),
                             [&](const IValue& n) { return n.to_string() == name.to_string(); });
    if (!known) names.push_back(name);
  }
  cls.attrs[kFields] = IValue::tuple(std::move(names));
}

bool Interpreter::dataclass_init(const std::shared_ptr<ClassValue>& cls, const IValue& self,
                                 ValueList args, Kwargs kwargs, const SourceRange& range) {
  const IValue* fields = cls->lookup(kFields);
  if (!fields) return false;
  auto& inst = *as_obj<InstanceValue>(self);
  const ValueList& names = fields->tuple_items();
  if (args.size() > names.size()) {
    fail("TypeError: __init__() takes " + std::to_string(names.size() + 1) +
             " positional arguments but " + std::to_string(args.size() + 1) + " were given",
         range);
  }
  for (size_t i = 0; i < names.size(); ++i) {
    const std::string& n = names[i].to_string();
    auto kw =
        std::find_if(kwargs.begin(), kwargs.end(), [&](const auto& k) { return k.first == n; });
    IValue value;
    if (i < args.size()) {
      if (kw != kwargs.end()) {
        fail("TypeError: __init__() got multiple values for argument '" + n + "'", range);
      }
      value = args[i];
    } else if (kw != kwargs.end()) {
      value = kw->second;
      kwargs.erase(kw);
    } else {
      const IValue* d = cls->lookup(n);
      auto* f = d ? as_obj<DataclassField>(*d) : nullptr;
      if (!d || (f && !f->default_value && !f->default_factory)) {
        fail("TypeError: __init__() missing 1 required positional argument: '" + n + "'", range);
      }
      if (!f) {
        value = *d;
      } else if (f->default_value) {
        value = *f->default_value;
      } else {
        value = call_value(*f->default_factory, {}, {}, range);
      }
    }
    inst.set(n, value);
  }
  if (!kwargs.empty()) {
    fail("TypeError: __init__() got an unexpected keyword argument '" + kwargs[0].first + "'",
         range);
  }
  if (const IValue* post = cls->lookup("__post_init__")) {
    if (auto* fn = as_obj<FunctionValue>(*post)) call_function(*fn, &self, {}, {}, range);
  }
  return true;
}

}  // namespace d2s::interp
