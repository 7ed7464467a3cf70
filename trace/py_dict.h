// dict and set values of the interpreter: insertion-ordered (as Python's dict is),
// keyed by Python equality of hashable values (numbers, str, None, tuples of them,
// dtypes; tensors and modules by identity). Internal to trace/.
#pragma once

#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/base/error.h"
#include "trace/native_value.h"

namespace d2s::interp {

class DictValue : public NativeValue {
 public:
  explicit DictValue(bool is_set = false) : is_set(is_set) {}
  std::string type_name() const override {
    return is_set ? "set" : ordered ? "OrderedDict" : "dict";
  }
  void gc_visit(GcVisitor& v) const override;
  void gc_clear() override;
  bool has_method(const std::string& name) const override;
  IValue call_method(Interpreter& in, const std::string& name, ValueList args, Kwargs kwargs,
                     const SourceRange& range) override;

  // The index of `key`, or -1; TypeError for an unhashable key.
  int64_t find(Interpreter& in, const IValue& key, const SourceRange& range) const;
  // put and remove are virtual for the write-through dict of an instance's __dict__.
  virtual void put(Interpreter& in, IValue key, IValue value, const SourceRange& range);
  // d[key]; KeyError as Python writes it.
  IValue get(Interpreter& in, const IValue& key, const SourceRange& range) const;
  // del d[key] / d.pop(key).
  virtual IValue remove(Interpreter& in, const IValue& key, const SourceRange& range);
  ValueList keys() const;
  std::string text(const Interpreter& in) const;
  [[noreturn]] static void fail_unhashable(const IValue& key, const SourceRange& range);

  bool is_set;
  bool ordered = false;  // a collections.OrderedDict (its repr; nn.Sequential names children)
  std::vector<std::pair<IValue, IValue>> items;  // (key, value); value None in a set
};

// obj.__dict__ and vars(obj) of a user class instance or module (py_instance_dict.cpp):
// a dict of its plain attributes (a module's parameters, buffers and submodules are not
// in it, as PyTorch keeps them in _parameters, _buffers, _modules) taken when it is
// read, whose writes (d[k] = v, update, pop, del, clear) set and delete the instance's
// attributes without nn.Module's registration, as Python's __dict__ does.
IValue instance_dict(Interpreter& in, const IValue& instance, const SourceRange& range);

// Adds sorted, reversed, any, all, dict, set, callable and the exception types.
void install_more_builtins(std::unordered_map<std::string, IValue>& builtins);

// The dict or set inside `v`, or null.
inline DictValue* as_dict(const IValue& v) {
  return as_obj<DictValue>(v);
}

// `...`: the Ellipsis singleton's stand-in (a subscript item, a type hint's argument).
class EllipsisValue : public Object {
 public:
  std::string type_name() const override { return "ellipsis"; }
};

// A raised Python exception: its type name ("ValueError") and its arguments.
class ExceptionValue : public Object {
 public:
  ExceptionValue(std::string type, ValueList args) : type(std::move(type)), args(std::move(args)) {}
  std::string type_name() const override { return type; }
  void gc_visit(GcVisitor& v) const override;
  void gc_clear() override;
  std::string type;
  ValueList args;
};

// What `raise` throws: an Error whose message is Python's last traceback line
// ("ValueError: bad input"), carrying the exception for `except ... as e`.
class RaisedError : public Error {
 public:
  RaisedError(std::string message, SourceRange range, IValue exc)
      : Error(std::move(message), std::move(range)), exception(std::move(exc)) {}
  IValue exception;
};

// Python's exception types d2s knows, for `raise X(...)` and `except X:`.
bool is_exception_type(const std::string& name);
// Whether an exception of type `raised` is caught by `except handler:`.
bool exception_matches(const std::string& raised, const std::string& handler);

}  // namespace d2s::interp
