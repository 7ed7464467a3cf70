// TorchScript's list ops, for lists that change while a graph runs (the parse route's
// `outs = []` / `outs.append(y)` / `torch.stack(outs)`). A list is a reference value:
// the IValue holds a shared List, so a write through one holder is seen by every other
// (the list a loop appends to, the list a tuple or another list holds). The writing
// ops carry TorchScript's `(a!)` mark on the list, so dead-code elimination keeps
// them and no pass folds or reorders them (core/ir/effects.h).
//
//   aten::append.t(Any(a!)[] self, Any el) -> Any(a!)[]      outs.append(el)
//   aten::insert.t(Any(a!)[] self, int idx, Any el) -> ()     outs.insert(i, el)
//   aten::pop.t(Any(a!)[] self, int idx=-1) -> Any            outs.pop(i)
//   aten::_set_item.t(Any(a!)[] l, int idx, Any el) -> Any(a!)[]   outs[i] = el
//   aten::__getitem__.t(Any[] list, int idx) -> Any           outs[i]
//   aten::slice.t(Any[] l, int? start, int? end, int step) -> Any[]   outs[a:b:c]
//   aten::list.t(Any[] l) -> Any[]                            list(outs): a copy
//   aten::mul.left_t(Any[] l, int n) -> Any[]                 outs * n: a new list
//   aten::add_.t(Any(a!)[] self, Any[] b) -> Any(a!)[]        a += b
//   aten::extend.t(Any(a!)[] self, Any[] other) -> ()          a.extend(b)
//   aten::index.t(Any[] self, Any el) -> int                   a.index(el)
//   aten::count.t(Any[] self, Any el) -> int                   a.count(el)
//   aten::remove.t(Any(a!)[] self, Any el) -> ()               a.remove(el)
//   aten::reverse.t(Any(a!)[] self) -> ()                      a.reverse()
//   aten::sort.t(Any(a!)[] self, bool reverse=False) -> ()     a.sort(reverse=...)
//   aten::clear.t(Any(a!)[] self) -> ()                        a.clear()
//
// index, count, remove and sort take lists of numbers, bools or strings (the lowering
// refuses tensor lists, whose `==` and `<` are tensors): items compare as Python
// compares them (1 == 1.0 == True).
// (a + b is aten::add.t of kernels_scalar.cpp: a new list.) Indices follow Python: negative ones
// count from the end, and an index out of range is Python's IndexError.
#include <algorithm>
#include <cstdint>

#include "core/ops/kernels.h"

namespace d2s::kernels {

namespace {

using A = const ValueList&;
using C = OpContext&;

ValueList& list_of(const IValue& v, const char* op) {
  if (!v.is_list()) fail(std::string("TypeError: ") + op + " needs a list, got " + v.type_name());
  return v.list_items();
}

// Python's index into a sequence of n items; nullopt when out of range.
std::optional<size_t> wrap_index(int64_t i, size_t n) {
  const int64_t size = static_cast<int64_t>(n);
  if (i < 0) i += size;
  if (i < 0 || i >= size) return std::nullopt;
  return static_cast<size_t>(i);
}

// Python's == between two items of a list of numbers, bools or strings.
bool py_equal(const IValue& a, const IValue& b) {
  if (a.is_string() || b.is_string()) {
    return a.is_string() && b.is_string() && a.to_string() == b.to_string();
  }
  if (a.is_none() || b.is_none()) return a.is_none() && b.is_none();
  if (a.is_number() && b.is_number()) {
    if (a.is_double() || b.is_double()) return a.to_double() == b.to_double();
    return a.to_int() == b.to_int();
  }
  fail("TypeError: list items of type " + a.type_name() + " cannot be compared here");
}

// Python's < for sort: numbers with numbers, strings with strings.
bool py_less(const IValue& a, const IValue& b) {
  if (a.is_string() && b.is_string()) return a.to_string() < b.to_string();
  if (a.is_number() && b.is_number()) {
    if (a.is_double() || b.is_double()) return a.to_double() < b.to_double();
    return a.to_int() < b.to_int();
  }
  fail("TypeError: '<' not supported between instances of '" + a.type_name() + "' and '" +
       b.type_name() + "'");
}

std::optional<size_t> find_item(const ValueList& items, const IValue& el) {
  for (size_t i = 0; i < items.size(); ++i) {
    if (py_equal(items[i], el)) return i;
  }
  return std::nullopt;
}

}  // namespace

void register_list(OpRegistry& r) {
  r.add("aten::append.t(Any(a!)[] self, Any el) -> Any(a!)[]", [](C, A a) {
    list_of(a[0], "append").push_back(a[1]);
    return a[0];
  });
  r.add("aten::insert.t(Any(a!)[] self, int idx, Any el) -> ()", [](C, A a) {
    ValueList& items = list_of(a[0], "insert");
    // list.insert clamps the position to [0, len], as Python does.
    const int64_t n = static_cast<int64_t>(items.size());
    int64_t i = a[1].to_int();
    if (i < 0) i = std::max<int64_t>(0, i + n);
    if (i > n) i = n;
    items.insert(items.begin() + i, a[2]);
    return IValue();
  });
  r.add("aten::pop.t(Any(a!)[] self, int idx=-1) -> Any", [](C, A a) {
    ValueList& items = list_of(a[0], "pop");
    if (items.empty()) fail("IndexError: pop from empty list");
    std::optional<size_t> i = wrap_index(a[1].to_int(), items.size());
    if (!i) fail("IndexError: pop index out of range");
    IValue out = items[*i];
    items.erase(items.begin() + static_cast<std::ptrdiff_t>(*i));
    return out;
  });
  r.add("aten::_set_item.t(Any(a!)[] l, int idx, Any el) -> Any(a!)[]", [](C, A a) {
    ValueList& items = list_of(a[0], "item assignment");
    std::optional<size_t> i = wrap_index(a[1].to_int(), items.size());
    if (!i) fail("IndexError: list assignment index out of range");
    items[*i] = a[2];
    return a[0];
  });
  r.add("aten::__getitem__.t(Any[] list, int idx) -> Any", [](C, A a) {
    const ValueList& items = a[0].items();
    std::optional<size_t> i = wrap_index(a[1].to_int(), items.size());
    if (!i)
      fail(a[0].is_list() ? "IndexError: list index out of range"
                          : "IndexError: tuple index out of range");
    return items[*i];
  });
  r.add("aten::slice.t(Any[] l, int? start=None, int? end=None, int step=1) -> Any[]", [](C, A a) {
    // Python's slice.indices: bounds clamped to the list, either sign of step.
    const ValueList& items = a[0].items();
    const int64_t n = static_cast<int64_t>(items.size());
    const int64_t step = a[3].to_int();
    if (step == 0) fail("ValueError: slice step cannot be zero");
    auto bound = [&](const IValue& v, int64_t fallback) {
      if (v.is_none()) return fallback;
      int64_t i = v.to_int();
      if (i < 0) i += n;
      const int64_t lo = step < 0 ? -1 : 0, hi = step < 0 ? n - 1 : n;
      return i < lo ? lo : i > hi ? hi : i;
    };
    const int64_t start = bound(a[1], step < 0 ? n - 1 : 0);
    const int64_t end = bound(a[2], step < 0 ? -1 : n);
    ValueList out;
    for (int64_t i = start; step > 0 ? i < end : i > end; i += step)
      out.push_back(items[static_cast<size_t>(i)]);
    return IValue::list(std::move(out));
  });
  r.add("aten::mul.left_t(Any[] l, int n) -> Any[]", [](C, A a) {
    const ValueList& items = a[0].items();
    ValueList out;
    for (int64_t i = 0; i < a[1].to_int(); ++i) out.insert(out.end(), items.begin(), items.end());
    return IValue::list(std::move(out));
  });
  r.add("aten::list.t(Any[] l) -> Any[]", [](C, A a) { return IValue::list(a[0].items()); });
  r.add("aten::add_.t(Any(a!)[] self, Any[] b) -> Any(a!)[]", [](C, A a) {
    ValueList& items = list_of(a[0], "+=");
    const ValueList more = a[1].items();  // a copy: `xs += xs` doubles xs
    items.insert(items.end(), more.begin(), more.end());
    return a[0];
  });
  r.add("aten::index.t(Any[] self, Any el) -> int", [](C, A a) {
    std::optional<size_t> i = find_item(a[0].items(), a[1]);
    if (!i) fail("ValueError: " + a[1].repr() + " is not in list");
    return IValue(static_cast<int64_t>(*i));
  });
  r.add("aten::count.t(Any[] self, Any el) -> int", [](C, A a) {
    int64_t n = 0;
    for (const IValue& item : a[0].items()) n += py_equal(item, a[1]) ? 1 : 0;
    return IValue(n);
  });
  r.add("aten::remove.t(Any(a!)[] self, Any el) -> ()", [](C, A a) {
    ValueList& items = list_of(a[0], "remove");
    std::optional<size_t> i = find_item(items, a[1]);
    if (!i) fail("ValueError: list.remove(x): x not in list");
    items.erase(items.begin() + static_cast<std::ptrdiff_t>(*i));
    return IValue();
  });
  r.add("aten::reverse.t(Any(a!)[] self) -> ()", [](C, A a) {
    ValueList& items = list_of(a[0], "reverse");
    std::reverse(items.begin(), items.end());
    return IValue();
  });
  r.add("aten::sort.t(Any(a!)[] self, bool reverse=False) -> ()", [](C, A a) {
    ValueList& items = list_of(a[0], "sort");
    // Python's sort is stable, also with reverse=True (equal items keep their order).
    if (a[1].to_bool()) {
      std::stable_sort(items.begin(), items.end(),
                       [](const IValue& x, const IValue& y) { return py_less(y, x); });
    } else {
      std::stable_sort(items.begin(), items.end(), py_less);
    }
    return IValue();
  });
  r.add("aten::clear.t(Any(a!)[] self) -> ()", [](C, A a) {
    list_of(a[0], "clear").clear();
    return IValue();
  });
  r.add("aten::extend.t(Any(a!)[] self, Any[] other) -> ()", [](C, A a) {
    ValueList& items = list_of(a[0], "extend");
    const ValueList more = a[1].items();
    items.insert(items.end(), more.begin(), more.end());
    return IValue();
  });
}

}  // namespace d2s::kernels
