#include "convert/lower_context.h"

#include <algorithm>

#include "trace/py_objects.h"

namespace d2s::convert {

std::string Sugared::describe() const {
  switch (kind) {
    case Kind::Value:
      return "a value of type " + (value ? value->type().str() : std::string("?"));
    case Kind::Namespace:
      return "module '" + name + "'";
    case Kind::Builtin:
      return "'" + name + "'";
    case Kind::Function:
      return "function '" + name + "'";
    case Kind::Class:
      return "class '" + name + "'";
    case Kind::Module:
      return "module instance '" + (module && module->instance ? module->instance->type : name) +
             "'";
    case Kind::Method:
      return "method '" + name + "'";
    case Kind::Super:
      return "super() of class '" + name + "'";
    case Kind::Items:
      return fields ? "a namedtuple" : "a tuple of modules or other conversion-time values";
    case Kind::Partial:
      return "a functools.partial";
    case Kind::Iterator:
      return "an iterator";
    case Kind::Keywords:
      return "the keyword arguments gathered by '**" + name + "'";
  }
  return "?";
}

bool Sugared::same_as(const Sugared& o) const {
  if (kind != o.kind) return false;
  switch (kind) {
    case Kind::Value:
      return value == o.value;
    case Kind::Module:
      return module && o.module && module->instance == o.module->instance;
    case Kind::Method:
      if (value != o.value || name != o.name) return false;
      if (module || o.module) {
        return module && o.module && module->instance == o.module->instance;
      }
      return true;
    case Kind::Items:
    case Kind::Partial:
    case Kind::Keywords:
      return items == o.items;
    case Kind::Iterator:
      return iterator == o.iterator;
    default:
      return name == o.name && fn == o.fn && cls == o.cls;
  }
}

const Binding* Environment::lookup(const std::string& name) const {
  // Walks outwards: the chain is as long as the block nesting, which the parser bounds.
  for (const Environment* e = this; e; e = e->parent_) {
    auto it = e->vars_.find(name);
    if (it != e->vars_.end()) return &it->second;
  }
  return nullptr;
}

const Binding* Environment::find_local(const std::string& name) const {
  auto it = vars_.find(name);
  return it == vars_.end() ? nullptr : &it->second;
}

void Environment::set(const std::string& name, Binding b) {
  auto [it, inserted] = vars_.insert_or_assign(name, std::move(b));
  (void)it;
  if (inserted) order_.push_back(name);
}

void Environment::poison(const std::string& name, std::string message, std::string hint) {
  set(name, Binding{Sugared{}, std::move(message), std::move(hint)});
}

void Environment::erase_local(const std::string& name) {
  if (vars_.erase(name)) order_.erase(std::find(order_.begin(), order_.end(), name));
}

std::vector<std::string> Environment::visible_names() const {
  std::vector<std::string> out;
  for (const Environment* e = this; e; e = e->parent_) {
    for (const auto& n : e->order_) {
      if (!flag::is_special(n)) out.push_back(n);
    }
  }
  return out;
}

std::optional<IValue> constant_value(const ir::Value* v) {
  if (!v || v->node()->kind() != ir::kind::Constant) return std::nullopt;
  const IValue* value = v->node()->attr("value");
  if (!value) return IValue();  // a None constant may carry no attribute
  return *value;
}

std::optional<bool> constant_bool(const ir::Value* v) {
  auto c = constant_value(v);
  if (!c || !c->is_bool()) return std::nullopt;
  return c->to_bool();
}

}  // namespace d2s::convert
