// str methods as TorchScript's graphs hold them (aten::join, aten::upper, aten::lower,
// aten::strip, aten::startswith, aten::endswith, aten::replace, aten::split.str), so a
// label built in forward runs in the parse route; the algorithms are core/base/py_str.cpp's,
// which the eager interpreter's methods use too.
#include "core/base/py_str.h"
#include "core/ops/kernels.h"
#include "core/ops/percent_format.h"
#include "core/tensor/ivalue_dict.h"

namespace d2s::kernels {

namespace {

using A = const ValueList&;
using C = OpContext&;

// The graph's values: numbers, strings, tensors, lists, tuples, None and dicts (for
// %(key)s).
class GraphValueHost : public PercentFormatHost {
 public:
  std::string str(const IValue& v) override { return v.str(); }
  std::string repr(const IValue& v) override { return v.repr(); }
  std::string format(const IValue& v, const std::string& spec) override {
    return python_format("{:" + spec + "}", {v});
  }
  std::optional<IValue> number(const IValue& v) override {
    if (v.is_number()) return v;
    return std::nullopt;
  }
  std::string type_name(const IValue& v) override { return v.type_name(); }
  IValue lookup(const IValue& args, const std::string& key) override {
    const GraphDict* d = as_graph_dict(args);
    const int64_t pos = d->find(IValue(key));
    if (pos < 0) throw Error("KeyError: '" + key + "'");
    return d->entries()[static_cast<size_t>(pos)].second;
  }
  [[noreturn]] void fail(const std::string& message, const std::string& hint) override {
    throw Error(message, SourceRange(), hint);
  }
};

IValue str_list(const std::vector<std::string>& items) {
  ValueList out;
  out.reserve(items.size());
  for (const std::string& s : items) out.push_back(IValue(s));
  return IValue::list(std::move(out));
}

}  // namespace

void register_str(OpRegistry& r) {
  // `fmt % args`, args a tuple of the values or one value, as TorchScript's graphs hold it.
  r.add("aten::percentFormat(str self, Any args) -> str", [](C, A a) {
    GraphValueHost host;
    return IValue(percent_format(host, a[0].to_string(), a[1], as_graph_dict(a[1]) != nullptr));
  });
  r.add("aten::join(str self, str[] values) -> str", [](C, A a) {
    std::string out;
    const ValueList& parts = a[1].items();
    for (size_t i = 0; i < parts.size(); ++i)
      out += (i ? a[0].to_string() : "") + parts[i].to_string();
    return IValue(out);
  });
  r.add("aten::upper(str self) -> str", [](C, A a) { return IValue(py_upper(a[0].to_string())); });
  r.add("aten::lower(str self) -> str", [](C, A a) { return IValue(py_lower(a[0].to_string())); });
  r.add("aten::strip(str self, str? chars=None) -> str", [](C, A a) {
    std::optional<std::string> chars;
    if (!a[1].is_none()) chars = a[1].to_string();
    return IValue(py_strip(a[0].to_string(), chars));
  });
  r.add("aten::startswith(str self, str substr) -> bool",
        [](C, A a) { return IValue(py_startswith(a[0].to_string(), a[1].to_string())); });
  r.add("aten::endswith(str self, str substr) -> bool",
        [](C, A a) { return IValue(py_endswith(a[0].to_string(), a[1].to_string())); });
  r.add("aten::replace(str self, str old, str new, int max=-1) -> str", [](C, A a) {
    return IValue(py_replace(a[0].to_string(), a[1].to_string(), a[2].to_string(), a[3].to_int()));
  });
  r.add("aten::split.str(str self, str? separator=None, int max=-1) -> str[]", [](C, A a) {
    std::optional<std::string> sep;
    if (!a[1].is_none()) {
      if (a[1].to_string().empty()) fail("ValueError: empty separator");
      sep = a[1].to_string();
    }
    return str_list(py_split(a[0].to_string(), sep, a[2].to_int()));
  });
}

}  // namespace d2s::kernels
