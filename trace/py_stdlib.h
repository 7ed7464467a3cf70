// functools.partial objects and collections.namedtuple classes (py_stdlib.cpp), for
// the parse route, which reads them from module attributes at conversion time.
// Internal to trace/ and convert/.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "trace/native_value.h"

namespace d2s::interp {

// functools.partial(func, *args, **keywords): calling it calls func with the stored
// arguments first, then the new ones (keywords of the call win), as Python does.
class PartialValue : public NativeValue {
 public:
  std::string type_name() const override { return "functools.partial"; }
  void gc_visit(GcVisitor& v) const override;
  void gc_clear() override;
  bool has_method(const std::string&) const override { return false; }
  IValue call_method(Interpreter& in, const std::string& name, ValueList args, Kwargs kwargs,
                     const SourceRange& range) override;
  IValue call(Interpreter& in, ValueList args, Kwargs kwargs, const SourceRange& range) override;
  std::optional<IValue> attribute(const std::string& name) const override;
  std::string repr() const override { return "functools.partial(...)"; }

  IValue func;
  ValueList stored_args;
  Kwargs stored_kwargs;
};

// The class a collections.namedtuple call makes: calling it makes a NamedTupleValue.
class NamedTupleClass : public NativeValue {
 public:
  std::string type_name() const override { return "type"; }
  bool has_method(const std::string&) const override { return false; }
  IValue call_method(Interpreter& in, const std::string& name, ValueList args, Kwargs kwargs,
                     const SourceRange& range) override;
  IValue call(Interpreter& in, ValueList args, Kwargs kwargs, const SourceRange& range) override;
  std::optional<IValue> attribute(const std::string& name) const override;
  std::string repr() const override { return "<class '__main__." + name + "'>"; }

  std::string name;
  std::shared_ptr<const std::vector<std::string>> fields;
};

}  // namespace d2s::interp
