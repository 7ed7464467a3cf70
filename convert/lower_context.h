// Bookkeeping of the lowering: what names stand for (Sugared) and the scoped
// environment that maps variables to SSA values (Environment), as TorchScript's
// SugaredValue and Environment do in ir_emitter.cpp.
//
// A variable is bound in the innermost scope that assigns it: one scope per
// function body, per If arm and per loop body. Merging the scopes of an If's two arms
// (or a loop body into its loop) turns the variables they assigned into block outputs
// (lower_if.cpp, lower_loop.cpp). A name that cannot be used after a merge — assigned in
// only one arm, or only inside a loop — is "poisoned": looking it up raises the error
// stored with it, so it costs nothing unless the program reads it (as in TorchScript).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/base/source.h"
#include "core/ir/ir.h"
#include "parse/ast.h"

namespace d2s::interp {
class InstanceValue;
struct Closure;
}  // namespace d2s::interp

namespace d2s::convert {

// An nn.Module instance in the frozen module tree: the interpreter's object plus its
// state_dict prefix ("" for the entry, "linear1", "body.0").
struct ModuleRef {
  std::shared_ptr<interp::InstanceValue> instance;
  std::string prefix;
  // The state_dict name of `attr` inside this module.
  std::string qualify(const std::string& attr) const {
    return prefix.empty() ? attr : prefix + "." + attr;
  }
};

// An iterator over items known at conversion time (`it = iter(self.layers)`), shared by
// every name bound to it, as Python's iterator object is. next() and `for x in it`
// advance `next`; the position stays known while they run in the block the iterator
// was made in (`block`), not in an arm or a loop decided when the graph runs.
struct Sugared;
struct IteratorState {
  std::vector<Sugared> items;
  size_t next = 0;
  const ir::Block* block = nullptr;
  // Non-empty once the position depends on the run (a `for x in it` that may break
  // when the graph runs, a builtin that took the items): why, for the error.
  std::string lost;
};

// What an expression or a name stands for while lowering. Only kind Value is a graph
// value; the others exist at conversion time only (namespaces, functions, modules, ...).
struct Sugared {
  enum class Kind {
    Value,      // an SSA value
    Namespace,  // torch, torch.nn, torch.nn.functional, math (name: canonical)
    Builtin,    // a Python builtin or torch callable by canonical name ("len", "torch.mm")
    Function,   // a user function (fn)
    Class,      // a user class (cls)
    Module,     // an nn.Module instance (module)
    Method,     // a method bound to a receiver: value's or module's `name`
    Super,      // super() in a method of class `name`, for the instance `module`
    Items,      // a tuple known item by item at conversion time (`items`), such as the
                // (key, module) pairs of ModuleDict.items() or a namedtuple attribute
                // (`fields` names the items): unrolled, never a value
    Partial,    // functools.partial: `items` holds the callee, then the stored
                // arguments, the last `keyword_names.size()` of them keywords
    Iterator,   // iter(xs) of items known at conversion time, or a generator such as
                // self.parameters(): `iterator` is its position (lower_iter.cpp)
    Keywords,   // the keyword arguments a `**kwargs` parameter gathered: `fields` are
                // the keys and `items` the values, known at conversion time and never
                // changed there (lower_kwargs.cpp); `name` is the parameter's name.
                // A Method of kind-Keywords receiver (`kwargs.get`) holds the same
                // `items` and `fields`, with no `value` and no `module`, and the
                // receiver's name as keyword_names[0].
  };
  Kind kind = Kind::Value;
  ir::Value* value = nullptr;
  std::string name;
  const ast::FunctionDef* fn = nullptr;
  const ast::ClassDef* cls = nullptr;
  std::shared_ptr<ModuleRef> module;
  // A nested def or lambda (kind Function): the serial of the inlined call that
  // defined it, whose variables it reads; -1 for a top-level function.
  int closure = -1;
  // Kind Items, Partial and Keywords: the items.
  std::shared_ptr<const std::vector<Sugared>> items;
  std::shared_ptr<const std::vector<std::string>> fields;  // a namedtuple's fields; keys
  std::vector<std::string> keyword_names;                  // Partial's stored keywords
  std::shared_ptr<IteratorState> iterator;                 // Kind Iterator

  static Sugared of(ir::Value* v) {
    Sugared s;
    s.value = v;
    return s;
  }
  static Sugared of_kind(Kind k, std::string name) {
    Sugared s;
    s.kind = k;
    s.name = std::move(name);
    return s;
  }
  static Sugared of_items(std::vector<Sugared> v) {
    Sugared s;
    s.kind = Kind::Items;
    s.items = std::make_shared<const std::vector<Sugared>>(std::move(v));
    return s;
  }
  bool is_value() const { return kind == Kind::Value; }
  // How messages name it: "module 'torch'", "function 'helper'", ...
  std::string describe() const;
  // Identity: the same graph value or the same conversion-time object.
  bool same_as(const Sugared& o) const;
};

// A name's binding in one scope.
struct Binding {
  Sugared value;
  // Non-empty: the name cannot be used here; reading it raises this message.
  std::string poison;
  std::string poison_hint;
  bool is_poisoned() const { return !poison.empty(); }
};

class Environment {
 public:
  explicit Environment(Environment* parent) : parent_(parent) {}

  Environment* parent() const { return parent_; }
  // The binding visible here (this scope, then the enclosing ones); null when unbound.
  const Binding* lookup(const std::string& name) const;
  // Binds in this scope.
  void set(const std::string& name, Binding b);
  void set_value(const std::string& name, ir::Value* v) {
    set(name, Binding{Sugared::of(v), {}, {}});
  }
  void poison(const std::string& name, std::string message, std::string hint);
  void erase_local(const std::string& name);
  // Names bound in this scope, in the order they were first bound.
  const std::vector<std::string>& assigned() const { return order_; }
  const Binding* find_local(const std::string& name) const;
  // Every name visible from here (for did-you-mean hints).
  std::vector<std::string> visible_names() const;

 private:
  Environment* parent_;
  std::unordered_map<std::string, Binding> vars_;
  std::vector<std::string> order_;
};

// Names of the exit flags and the pending return value (exit_transform.h). They
// cannot clash with Python identifiers.
namespace flag {
inline constexpr const char* Skip = "$skip";      // leave the rest of this iteration/body
inline constexpr const char* Stop = "$stop";      // leave the loop (break or return)
inline constexpr const char* Ret = "$ret";        // the function has returned
inline constexpr const char* RetVal = "$retval";  // what it returned
inline bool is_special(const std::string& name) {
  return !name.empty() && name[0] == '$';
}
}  // namespace flag

// The value of a prim::Constant bool / int / ..., if `v` is one.
std::optional<IValue> constant_value(const ir::Value* v);
std::optional<bool> constant_bool(const ir::Value* v);

}  // namespace d2s::convert
