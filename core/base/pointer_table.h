// PointerTable: a map from pointers (never null) to small values, for the passes
// over a whole graph that look up every node or value a few times (the verifier, the
// executor's planner). A std::unordered_map allocates one heap node per entry: on a
// 100,000-node trace that made them a fifth of `d2s diff`'s time. Open addressing with
// linear probing, no erase, grown by doubling (so no walk of the graph is needed to
// size it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace d2s {

template <class V>
class PointerTable {
 public:
  PointerTable() : keys_(64, nullptr), vals_(64) {}

  // The value stored for `key`, or null (always for a null key: none is stored).
  V* find(const void* key) {
    if (key == nullptr) return nullptr;
    for (size_t i = slot(key);; i = (i + 1) & mask()) {
      if (keys_[i] == key) return &vals_[i];
      if (keys_[i] == nullptr) return nullptr;
    }
  }
  const V* find(const void* key) const { return const_cast<PointerTable*>(this)->find(key); }

  // The entry for `key` (not null) and whether it is new (then value-initialised).
  std::pair<V*, bool> insert(const void* key) {
    if (2 * (size_ + 1) > keys_.size()) grow();
    for (size_t i = slot(key);; i = (i + 1) & mask()) {
      if (keys_[i] == key) return {&vals_[i], false};
      if (keys_[i] == nullptr) {
        keys_[i] = key;
        ++size_;
        return {&vals_[i], true};
      }
    }
  }

  size_t size() const { return size_; }

 private:
  size_t mask() const { return keys_.size() - 1; }
  size_t slot(const void* key) const {
    // Fibonacci hashing of the address: heap pointers differ mostly in middle bits.
    const uint64_t h =
        static_cast<uint64_t>(reinterpret_cast<uintptr_t>(key)) * 0x9e3779b97f4a7c15ULL;
    return static_cast<size_t>(h >> 32) & mask();
  }
  void grow() {
    std::vector<const void*> keys(keys_.size() * 2, nullptr);
    std::vector<V> vals(keys.size());
    keys_.swap(keys);
    vals_.swap(vals);
    size_ = 0;
    for (size_t i = 0; i < keys.size(); ++i) {
      if (keys[i] != nullptr) *insert(keys[i]).first = std::move(vals[i]);
    }
  }

  std::vector<const void*> keys_;
  std::vector<V> vals_;
  size_t size_ = 0;
};

}  // namespace d2s
