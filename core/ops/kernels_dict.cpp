// TorchScript's dict ops, for dicts made and changed while a graph runs (the parse
// route's `d = {"a": x}` / `d["b"] = y` / `for k, v in d.items()`). A dict is a reference
// value like a list (core/ops/kernels_list.cpp): the IValue holds a shared GraphDict
// (core/tensor/ivalue_dict.h), so
// a write through one holder is seen by every other, and the writing ops carry the
// `(a!)` mark on the dict so that dead-code elimination keeps them and no pass folds or
// reorders them (core/ir/effects.h). Keys are str or int; entries keep insertion order.
//
//   prim::DictConstruct(k0, v0, k1, v1, ...) -> Dict            {k0: v0, k1: v1}
//   aten::__getitem__.Dict_str(Dict self, str key) -> Any        d[k] (KeyError if absent)
//   aten::_set_item.str(Dict(a!) l, str idx, Any v) -> ()        d[k] = v
//   aten::len.Dict(Dict self) -> int                             len(d)
//   aten::__contains__.str(Dict dict, str key) -> bool           k in d
//   aten::keys.Dict / values.Dict / items.Dict(Dict self) -> Any[]   new lists, in order
//   aten::get.str(Dict self, str key, Any default_value=None) -> Any   d.get(k, default)
//   aten::pop.Dict_str(Dict(a!) self, str key) -> Any            d.pop(k)
//   aten::pop.Dict_default_str(Dict(a!) self, str key, Any default_value) -> Any
//   aten::update.Dict(Dict(a!) self, Dict to_add) -> ()          d.update(e)
//   aten::Delete.Dict_str(Dict(a!) self, str key) -> ()          del d[k]
//   aten::clear.Dict(Dict(a!) self) -> ()                        d.clear()
//   aten::copy.Dict(Dict self) -> Dict                           d.copy(), dict(d)
//
// Each op taking a key has a `_int` / `.int` twin for int keys. A missing key is
// Python's KeyError, with the key as repr() writes it.
#include "core/base/error.h"
#include "core/ops/kernels.h"
#include "core/tensor/ivalue_dict.h"

namespace d2s::kernels {

namespace {

using A = const ValueList&;
using C = OpContext&;

GraphDict& dict_of(const IValue& v) {
  GraphDict* d = as_graph_dict(v);
  if (!d) fail("TypeError: expected a dict, got " + v.type_name());
  return *d;
}

[[noreturn]] void key_error(const IValue& key) {
  throw Error("KeyError: " + key.repr(), SourceRange(),
              "the dict has no such key when the graph runs; test `key in d` first, or read it "
              "with d.get(key, default)");
}

IValue getitem(A a) {
  const GraphDict& d = dict_of(a[0]);
  const int64_t i = d.find(a[1]);
  if (i < 0) key_error(a[1]);
  return d.entries()[static_cast<size_t>(i)].second;
}

IValue set_item(A a) {
  dict_of(a[0]).set(a[1], a[2]);
  return IValue();
}

IValue contains(A a) {
  return IValue(dict_of(a[0]).find(a[1]) >= 0);
}

IValue get(A a) {
  const GraphDict& d = dict_of(a[0]);
  const int64_t i = d.find(a[1]);
  return i < 0 ? a[2] : d.entries()[static_cast<size_t>(i)].second;
}

IValue pop(A a) {
  GraphDict& d = dict_of(a[0]);
  const int64_t i = d.find(a[1]);
  if (i < 0) {
    if (a.size() > 2) return a[2];  // pop(key, default)
    key_error(a[1]);
  }
  IValue out = d.entries()[static_cast<size_t>(i)].second;
  d.erase(i);
  return out;
}

IValue erase(A a) {
  GraphDict& d = dict_of(a[0]);
  const int64_t i = d.find(a[1]);
  if (i < 0) key_error(a[1]);
  d.erase(i);
  return IValue();
}

}  // namespace

void register_dict(OpRegistry& r) {
  r.add("prim::DictConstruct(...) -> Dict", [](C, A a) {
    if (a.size() % 2 != 0) fail("prim::DictConstruct takes key, value pairs");
    IValue out = make_graph_dict();
    GraphDict& d = *as_graph_dict(out);
    for (size_t i = 0; i < a.size(); i += 2) d.set(a[i], a[i + 1]);
    return out;
  });
  for (const char* key : {"str", "int"}) {
    const std::string k = key;
    r.add("aten::__getitem__.Dict_" + k + "(Dict self, " + k + " key) -> Any",
          [](C, A a) { return getitem(a); });
    r.add("aten::_set_item." + k + "(Dict(a!) l, " + k + " idx, Any v) -> ()",
          [](C, A a) { return set_item(a); });
    r.add("aten::__contains__." + k + "(Dict dict, " + k + " key) -> bool",
          [](C, A a) { return contains(a); });
    r.add("aten::get." + k + "(Dict self, " + k + " key, Any default_value=None) -> Any",
          [](C, A a) { return get(a); });
    r.add("aten::pop.Dict_" + k + "(Dict(a!) self, " + k + " key) -> Any",
          [](C, A a) { return pop(a); });
    r.add(
        "aten::pop.Dict_default_" + k + "(Dict(a!) self, " + k + " key, Any default_value) -> Any",
        [](C, A a) { return pop(a); });
    r.add("aten::Delete.Dict_" + k + "(Dict(a!) self, " + k + " key) -> ()",
          [](C, A a) { return erase(a); });
  }
  r.add("aten::len.Dict(Dict self) -> int",
        [](C, A a) { return IValue(static_cast<int64_t>(dict_of(a[0]).entries().size())); });
  r.add("aten::keys.Dict(Dict self) -> Any[]", [](C, A a) {
    ValueList out;
    for (const auto& e : dict_of(a[0]).entries()) out.push_back(e.first);
    return IValue::list(std::move(out));
  });
  r.add("aten::values.Dict(Dict self) -> Any[]", [](C, A a) {
    ValueList out;
    for (const auto& e : dict_of(a[0]).entries()) out.push_back(e.second);
    return IValue::list(std::move(out));
  });
  r.add("aten::items.Dict(Dict self) -> Any[]", [](C, A a) {
    ValueList out;
    for (const auto& e : dict_of(a[0]).entries()) out.push_back(IValue::tuple({e.first, e.second}));
    return IValue::list(std::move(out));
  });
  r.add("aten::update.Dict(Dict(a!) self, Dict to_add) -> ()", [](C, A a) {
    GraphDict& d = dict_of(a[0]);
    const GraphDict::Entries more = dict_of(a[1]).entries();  // a copy: d.update(d)
    for (const auto& [k, v] : more) d.set(k, v);
    return IValue();
  });
  r.add("aten::clear.Dict(Dict(a!) self) -> ()", [](C, A a) {
    dict_of(a[0]).clear();
    return IValue();
  });
  r.add("aten::copy.Dict(Dict self) -> Dict", [](C, A a) {
    IValue out = make_graph_dict();
    for (const auto& [k, v] : dict_of(a[0]).entries()) as_graph_dict(out)->set(k, v);
    return out;
  });
}

}  // namespace d2s::kernels
