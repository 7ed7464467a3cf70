// The intern table of node kinds and the prim list: see ir_symbols.h.
#include "core/ir/symbols.h"

#include <deque>
#include <functional>
#include <mutex>
#include <unordered_map>

namespace d2s::ir {

namespace {

constexpr PrimInfo kPrims[] = {{"", 0, 0, 0, 0, PrimEffect::Pure},  // Prim::None: not an entry
#define D2S_PRIM_INFO(name, text, min_in, max_in, outs, blocks, effect) \
  {text, min_in, max_in, outs, blocks, PrimEffect::effect},
                               D2S_IR_PRIMS(D2S_PRIM_INFO)
#undef D2S_PRIM_INFO
};

// Names by index; ids by name. Seeded with the prims and the named ops in their
// enum order, so that their indices are the compile-time ones.
class InternTable {
 public:
  InternTable() {
    names_.emplace_back();  // index 0: no symbol
#define D2S_SEED(name, text, ...) add(text);
    D2S_IR_PRIMS(D2S_SEED)
#undef D2S_SEED
#define D2S_SEED_OP(name, text) add(text);
    D2S_NAMED_OPS(D2S_SEED_OP)
#undef D2S_SEED_OP
  }

  Symbol intern(std::string_view kind) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto it = ids_.find(kind); it != ids_.end()) return it->second;
    return add(kind);
  }

  std::string name(uint32_t index) {
    std::lock_guard<std::mutex> lock(mutex_);
    return index < names_.size() ? names_[index] : std::string();
  }

 private:
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };

  Symbol add(std::string_view kind) {
    Symbol s(static_cast<uint32_t>(names_.size()), namespace_of(kind));
    names_.emplace_back(kind);  // a deque: earlier names stay put
    ids_.emplace(std::string(kind), s);
    return s;
  }

  std::mutex mutex_;
  std::deque<std::string> names_;
  std::unordered_map<std::string, Symbol, Hash, std::equal_to<>> ids_;
};

InternTable& table() {
  static InternTable t;
  return t;
}

struct GuardName {
  std::string_view name;
  GuardKind kind;
};
constexpr GuardName kGuardNames[] = {
#define D2S_GUARD_NAME(name, text) {text, GuardKind::name},
    D2S_GUARD_KINDS(D2S_GUARD_NAME)
#undef D2S_GUARD_NAME
};

}  // namespace

const PrimInfo& prim_info(Prim p) {
  return kPrims[static_cast<size_t>(p)];
}

Symbol Symbol::intern(std::string_view kind) {
  return table().intern(kind);
}

std::string Symbol::name() const {
  return table().name(index());
}

bool parse_guard_kind(std::string_view what, GuardKind* out) {
  if (what.empty()) {
    *out = GuardKind::Value;
    return true;
  }
  for (const GuardName& g : kGuardNames) {
    if (g.name == what) {
      *out = g.kind;
      return true;
    }
  }
  return false;
}

std::string guard_kind_names() {
  std::string out;
  for (const GuardName& g : kGuardNames) {
    if (!out.empty()) out += ", ";
    out += g.name;
  }
  return out;
}

}  // namespace d2s::ir
