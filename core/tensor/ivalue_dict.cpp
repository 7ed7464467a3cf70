// GraphDict: see ivalue_dict.h.
#include "core/tensor/ivalue_dict.h"

#include "core/base/error.h"

namespace d2s {

std::string GraphDict::index_key(const IValue& key) {
  // Python's equality on the key types a graph dict takes: True == 1, so a bool key
  // is its int; a str never equals an int.
  if (key.is_string()) return "s" + key.to_string();
  if (key.is_int() || key.is_bool()) return "i" + std::to_string(key.to_int());
  throw Error("TypeError: a dict key must be a str or an int here, not " + key.type_name());
}

int64_t GraphDict::find(const IValue& key) const {
  auto it = index_.find(index_key(key));
  return it == index_.end() ? -1 : static_cast<int64_t>(it->second);
}

void GraphDict::set(const IValue& key, IValue value) {
  auto [it, fresh] = index_.try_emplace(index_key(key), entries_.size());
  if (fresh) {
    entries_.emplace_back(key, std::move(value));
  } else {
    entries_[it->second].second = std::move(value);
  }
}

void GraphDict::erase(int64_t pos) {
  const size_t p = static_cast<size_t>(pos);
  index_.erase(index_key(entries_[p].first));
  entries_.erase(entries_.begin() + pos);
  // The entries after it moved up by one.
  for (size_t i = p; i < entries_.size(); ++i) index_[index_key(entries_[i].first)] = i;
}

void GraphDict::clear() {
  entries_.clear();
  index_.clear();
}

void GraphDict::gc_visit(GcVisitor& v) const {
  for (const auto& [key, value] : entries_) {
    v.value(key);
    v.value(value);
  }
}

void GraphDict::gc_clear() {
  clear();
}

IValue make_graph_dict() {
  return IValue(std::shared_ptr<Object>(std::make_shared<GraphDict>()));
}

GraphDict* as_graph_dict(const IValue& v) {
  return v.is_object() ? dynamic_cast<GraphDict*>(v.to_object().get()) : nullptr;
}

}  // namespace d2s
