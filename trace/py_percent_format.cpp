// `fmt % args` in the eager interpreter: core/ops/percent_format.cpp's algorithm, with the
// interpreter's str/repr/format of every value it has (dicts for %(key)s, objects).
#include "core/ops/percent_format.h"
#include "trace/interp.h"
#include "trace/py_dict.h"

namespace d2s::interp {

namespace {

class InterpreterHost : public PercentFormatHost {
 public:
  InterpreterHost(Interpreter& in, const SourceRange& range) : in_(in), range_(range) {}
  std::string str(const IValue& v) override { return in_.py_str(v); }
  std::string repr(const IValue& v) override { return in_.py_repr(v); }
  std::string format(const IValue& v, const std::string& spec) override {
    return in_.format_value(v, spec, range_);
  }
  std::optional<IValue> number(const IValue& v) override {
    return in_.to_number(v, PyConversion::Scalar, range_);
  }
  std::string type_name(const IValue& v) override { return py_type_name(v); }
  IValue lookup(const IValue& args, const std::string& key) override {
    return as_dict(args)->get(in_, IValue(key), range_);
  }
  [[noreturn]] void fail(const std::string& message, const std::string& hint) override {
    in_.fail(message, range_, hint);
  }

 private:
  Interpreter& in_;
  const SourceRange& range_;
};

}  // namespace

std::string percent_format(Interpreter& in, const std::string& fmt, const IValue& args,
                           const SourceRange& range) {
  DictValue* mapping = as_dict(args);
  InterpreterHost host(in, range);
  return d2s::percent_format(host, fmt, args, mapping && !mapping->is_set);
}

}  // namespace d2s::interp
