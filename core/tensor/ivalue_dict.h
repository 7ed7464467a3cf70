// The graph's runtime dict (TorchScript's Dict[str, T] / Dict[int, T]), as an IValue
// holds it: an Object (so IValue itself stays as it is), made by prim::DictConstruct
// and read and written by the ops of core/ops/kernels_dict.cpp. The interpreter has its own,
// richer dict (trace/py_dict.h); this one is what a parsed graph's executor runs.
//
// Entries are kept in insertion order, as Python's dict keeps them, with a hash index
// from key to position so that reads and writes stay O(1) as a loop fills the dict.
// Keys are str or int (a bool key is its int, as True == 1 in Python).
#pragma once

#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/tensor/ivalue.h"

namespace d2s {

class GraphDict : public Object {
 public:
  using Entries = std::vector<std::pair<IValue, IValue>>;

  std::string type_name() const override { return "dict"; }
  void gc_visit(GcVisitor& v) const override;
  void gc_clear() override;

  // The position of `key`, or -1. Throws a TypeError for a key that is not a str,
  // int or bool.
  int64_t find(const IValue& key) const;
  // d[key] = value: a new key goes last, an existing one keeps its place.
  void set(const IValue& key, IValue value);
  // Removes the entry at `pos` (from find).
  void erase(int64_t pos);
  void clear();
  const Entries& entries() const { return entries_; }
  // {'a': 1, 'b': tensor(...)}, as Python prints a dict; `repr_of` prints an entry
  // (ivalue.cpp passes its cycle-aware printer).
  template <typename ReprFn>
  std::string str(ReprFn repr_of) const {
    std::string out = "{";
    for (size_t i = 0; i < entries_.size(); ++i) {
      out += (i ? ", " : "") + repr_of(entries_[i].first) + ": " + repr_of(entries_[i].second);
    }
    return out + "}";
  }

 private:
  static std::string index_key(const IValue& key);
  Entries entries_;
  std::unordered_map<std::string, size_t> index_;  // index_key(key) → position
};

// A new, empty dict.
IValue make_graph_dict();
// The dict inside `v`, or null.
GraphDict* as_graph_dict(const IValue& v);

}  // namespace d2s
