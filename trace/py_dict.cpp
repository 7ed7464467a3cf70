// dict and set: construction is in interp_functional.cpp; this file holds lookup by
// Python equality, the methods model code calls, and str().
#include "trace/py_dict.h"

#include <algorithm>

namespace d2s::interp {

namespace {

bool hashable(const IValue& v) {
  if (v.is_list()) return false;
  if (v.is_tuple()) {
    for (const IValue& x : v.tuple_items())
      if (!hashable(x)) return false;
    return true;
  }
  return !as_dict(v);
}

IValue list_of(ValueList items) {
  return IValue::list(std::move(items));
}

}  // namespace

int64_t DictValue::find(Interpreter& in, const IValue& key, const SourceRange& range) const {
  if (!hashable(key)) fail_unhashable(key, range);
  for (size_t i = 0; i < items.size(); ++i) {
    const IValue& k = items[i].first;
    bool same = key.is_tensor() || k.is_tensor()
                    ? key.is_tensor() && k.is_tensor() && key.to_tensor().is_same(k.to_tensor())
                    : in.py_equal(k, key, range);
    if (same) return static_cast<int64_t>(i);
  }
  return -1;
}

void DictValue::fail_unhashable(const IValue& key, const SourceRange& range) {
  throw Error("TypeError: unhashable type: '" + py_type_name(key) + "'", range);
}

void DictValue::put(Interpreter& in, IValue key, IValue value, const SourceRange& range) {
  int64_t i = find(in, key, range);
  if (i >= 0) {
    items[static_cast<size_t>(i)].second = std::move(value);
  } else {
    items.emplace_back(std::move(key), std::move(value));
  }
}

IValue DictValue::get(Interpreter& in, const IValue& key, const SourceRange& range) const {
  int64_t i = find(in, key, range);
  if (i < 0) throw Error("KeyError: " + in.py_repr(key), range);
  return items[static_cast<size_t>(i)].second;
}

IValue DictValue::remove(Interpreter& in, const IValue& key, const SourceRange& range) {
  int64_t i = find(in, key, range);
  if (i < 0) throw Error("KeyError: " + in.py_repr(key), range);
  IValue v = std::move(items[static_cast<size_t>(i)].second);
  items.erase(items.begin() + i);
  return v;
}

ValueList DictValue::keys() const {
  ValueList out;
  for (const auto& [k, v] : items) out.push_back(k);
  return out;
}

std::string DictValue::text(const Interpreter& in) const {
  if (is_set && items.empty()) return "set()";
  if (ordered) {  // Python 3.11's OrderedDict repr
    if (items.empty()) return "OrderedDict()";
    std::string out = "OrderedDict([";
    for (size_t i = 0; i < items.size(); ++i) {
      out +=
          (i ? ", (" : "(") + in.py_repr(items[i].first) + ", " + in.py_repr(items[i].second) + ")";
    }
    return out + "])";
  }
  std::string out = "{";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += ", ";
    out += in.py_repr(items[i].first);
    if (!is_set) out += ": " + in.py_repr(items[i].second);
  }
  return out + "}";
}

bool DictValue::has_method(const std::string& name) const {
  static const char* const kDict[] = {"items",  "keys",       "values", "get",  "pop",
                                      "update", "setdefault", "copy",   "clear"};
  static const char* const kSet[] = {"add", "discard", "remove", "update", "copy", "clear", "pop"};
  if (is_set)
    return std::any_of(std::begin(kSet), std::end(kSet), [&](auto n) { return name == n; });
  return std::any_of(std::begin(kDict), std::end(kDict), [&](auto n) { return name == n; });
}

IValue DictValue::call_method(Interpreter& in, const std::string& name, ValueList args,
                              Kwargs kwargs, const SourceRange& range) {
  const std::string fname = type_name() + "." + name;
  auto bind = [&](std::vector<ParamSpec> spec) {
    return bind_args(fname, spec, std::move(args), std::move(kwargs), range);
  };
  if (name == "keys") {
    bind({});
    return list_of(keys());
  }
  if (name == "values" || name == "items") {
    bind({});
    ValueList out;
    for (const auto& [k, v] : items) out.push_back(name == "values" ? v : IValue::tuple({k, v}));
    return list_of(std::move(out));
  }
  if (name == "get") {
    ValueList a = bind({{"key", std::nullopt}, {"default", IValue()}});
    int64_t i = find(in, a[0], range);
    return i < 0 ? a[1] : items[static_cast<size_t>(i)].second;
  }
  if (name == "setdefault") {
    ValueList a = bind({{"key", std::nullopt}, {"default", IValue()}});
    int64_t i = find(in, a[0], range);
    if (i >= 0) return items[static_cast<size_t>(i)].second;
    items.emplace_back(a[0], a[1]);
    return a[1];
  }
  if (name == "pop" && is_set) {
    bind({});
    if (items.empty()) throw Error("KeyError: 'pop from an empty set'", range);
    IValue k = items.front().first;
    items.erase(items.begin());
    return k;
  }
  if (name == "pop") {
    if (args.size() + kwargs.size() > 1) {
      ValueList a = bind({{"key", std::nullopt}, {"default", std::nullopt}});
      return find(in, a[0], range) < 0 ? a[1] : remove(in, a[0], range);
    }
    ValueList a = bind({{"key", std::nullopt}});
    return remove(in, a[0], range);
  }
  if (name == "update") {
    if (!is_set) {
      for (auto& [k, v] : kwargs) put(in, IValue(k), v, range);
      kwargs.clear();
    }
    ValueList a = bind({{"other", IValue()}});
    if (!a[0].is_none()) {
      if (DictValue* other = as_dict(a[0]); other && !is_set) {
        for (const auto& [k, v] : other->items) put(in, k, v, range);
      } else {
        for (const IValue& item : in.iterate(a[0], range)) {
          if (is_set) {
            put(in, item, IValue(), range);
            continue;
          }
          const ValueList* pair = seq_items(item);
          if (!pair || pair->size() != 2) {
            throw Error("ValueError: dictionary update sequence element has the wrong length",
                        range);
          }
          put(in, (*pair)[0], (*pair)[1], range);
        }
      }
    }
    return IValue();
  }
  if (name == "copy") {
    bind({});
    auto out = std::make_shared<DictValue>(is_set);
    out->items = items;
    return IValue(std::static_pointer_cast<Object>(out));
  }
  if (name == "clear") {
    bind({});
    items.clear();
    return IValue();
  }
  if (name == "add" || name == "discard" || name == "remove") {
    ValueList a = bind({{"element", std::nullopt}});
    if (name == "add") {
      put(in, a[0], IValue(), range);
    } else if (name == "remove" || find(in, a[0], range) >= 0) {
      remove(in, a[0], range);
    }
    return IValue();
  }
  throw Error("AttributeError: '" + type_name() + "' object has no attribute '" + name + "'",
              range);
}

namespace {

// Python's exception hierarchy, as far as model code raises and catches it: each type
// and its base.
const std::pair<const char*, const char*> kExceptionBases[] = {
    {"BaseException", ""},
    {"Exception", "BaseException"},
    {"KeyboardInterrupt", "BaseException"},
    {"SystemExit", "BaseException"},
    {"ArithmeticError", "Exception"},
    {"ZeroDivisionError", "ArithmeticError"},
    {"OverflowError", "ArithmeticError"},
    {"AssertionError", "Exception"},
    {"AttributeError", "Exception"},
    {"LookupError", "Exception"},
    {"IndexError", "LookupError"},
    {"KeyError", "LookupError"},
    {"NameError", "Exception"},
    {"UnboundLocalError", "NameError"},
    {"RuntimeError", "Exception"},
    {"NotImplementedError", "RuntimeError"},
    {"RecursionError", "RuntimeError"},
    {"StopIteration", "Exception"},
    {"TypeError", "Exception"},
    {"ValueError", "Exception"},
    {"Warning", "Exception"},
    {"UserWarning", "Warning"},
    {"DeprecationWarning", "Warning"},
};

const char* base_of(const std::string& name) {
  for (const auto& [n, b] : kExceptionBases)
    if (name == n) return b;
  return nullptr;
}

}  // namespace

bool is_exception_type(const std::string& name) {
  return base_of(name) != nullptr;
}

bool exception_matches(const std::string& raised, const std::string& handler) {
  std::string t = raised;
  for (int guard = 0; guard < 16 && !t.empty(); ++guard) {
    if (t == handler) return true;
    const char* b = base_of(t);
    if (!b) return handler == "Exception" || handler == "BaseException";
    t = b;
  }
  return false;
}

}  // namespace d2s::interp
