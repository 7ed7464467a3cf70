// printf-style string formatting, `fmt % args`, as published model code writes labels and
// log lines ("layer%d" % i, "loss %.4f" % loss, "%s: %5.2f%%" % (name, acc)): each
// conversion becomes the equivalent format spec, so numbers come out exactly as
// f-strings write them. Python's conversions d i u x X o e E f F g G s r a c and %%, the
// flags - + space 0 #, width and precision (also `*`), and %(name)s keys into a mapping,
// with Python's error messages. One algorithm serves the eager interpreter
// (trace/py_percent_format.cpp, whose values include dicts and objects) and the
// aten::percentFormat op of the parse route (core/ops/kernels_str.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/tensor/ivalue.h"

namespace d2s {

// What formatting needs from the values' owner.
class PercentFormatHost {
 public:
  virtual ~PercentFormatHost() = default;
  virtual std::string str(const IValue& v) = 0;
  virtual std::string repr(const IValue& v) = 0;
  // format(v, spec), as an f-string field `{v:spec}` writes it.
  virtual std::string format(const IValue& v, const std::string& spec) = 0;
  // v as a Python number (int, float or bool), or nullopt when it is none.
  virtual std::optional<IValue> number(const IValue& v) = 0;
  // Python's type name of v, for messages.
  virtual std::string type_name(const IValue& v) = 0;
  // The args' value under `key` for %(key)s; only called when `args_are_mapping`.
  virtual IValue lookup(const IValue& args, const std::string& key) = 0;
  [[noreturn]] virtual void fail(const std::string& message, const std::string& hint = "") = 0;
};

// `fmt % args`: `args` is a tuple of the values, a mapping (args_are_mapping) or one value.
std::string percent_format(PercentFormatHost& host, const std::string& fmt, const IValue& args,
                           bool args_are_mapping);

}  // namespace d2s
