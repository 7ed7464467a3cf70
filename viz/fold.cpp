#include "viz/fold.h"

#include <functional>
#include <limits>
#include <string>

namespace d2s::viz {

namespace {

constexpr size_t kNone = std::numeric_limits<size_t>::max();

uint64_t mix(uint64_t h, uint64_t v) {
  return (h ^ v) * 0x100000001b3ull + (h >> 29);
}

// Equal nodes have equal signatures; unequal ones rarely collide (same() decides).
uint64_t signature(const ir::Node& n) {
  if (!n.blocks().empty()) return 0;  // If / Loop: drawn as clusters, never folded
  uint64_t h = 0xcbf29ce484222325ull;
  h = mix(h, std::hash<std::string>{}(n.kind()));
  h = mix(h, std::hash<std::string>{}(n.overload()));
  h = mix(h, static_cast<uint64_t>(n.range().line));
  h = mix(h, static_cast<uint64_t>(n.range().col));
  h = mix(h, n.inputs().size());
  h = mix(h, n.outputs().size());
  return h | 1;  // 0 is reserved for "never folds"
}

bool same_place(const SourceRange& a, const SourceRange& b) {
  if (a.line != b.line || a.col != b.col) return false;
  if (a.file == b.file) return true;
  return a.file && b.file && a.file->path() == b.file->path();
}

}  // namespace

Folder::Folder(const std::vector<const ir::Node*>& nodes, size_t min_repeats, size_t max_period)
    : nodes_(nodes),
      op_index_(nodes.size(), kNone),
      min_repeats_(min_repeats),
      max_period_(max_period) {
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i]->prim() == ir::Prim::Constant) continue;
    op_index_[i] = ops_.size();
    ops_.push_back(i);
    signature_.push_back(min_repeats >= 2 ? signature(*nodes[i]) : 0);
  }
}

bool Folder::same(size_t a, size_t b) const {
  if (signature_[a] == 0 || signature_[a] != signature_[b]) return false;
  const ir::Node& x = *nodes_[ops_[a]];
  const ir::Node& y = *nodes_[ops_[b]];
  return x.sym() == y.sym() && x.overload() == y.overload() &&
         x.inputs().size() == y.inputs().size() && x.outputs().size() == y.outputs().size() &&
         same_place(x.range(), y.range());
}

FoldItem Folder::next() {
  const size_t i = pos_;
  const size_t k = op_index_[i];
  if (k == kNone || signature_[k] == 0) {
    pos_ = i + 1;
    return FoldItem{i, i + 1, 1, 1};
  }
  const size_t remaining = ops_.size() - k;
  size_t best_period = 1;
  size_t best_repeats = 1;
  for (size_t p = 1; p <= max_period_ && p * min_repeats_ <= remaining; ++p) {
    // The run of period p from k lasts while each node equals the one p before it.
    size_t j = k;
    while (j + p < ops_.size() && same(j, j + p)) ++j;
    const size_t repeats = 1 + (j - k) / p;
    if (repeats >= min_repeats_ && repeats * p > best_repeats * best_period) {
      best_period = p;
      best_repeats = repeats;
      if (repeats * p == remaining) break;  // nothing can cover more
    }
  }
  if (best_repeats < 2) {
    pos_ = i + 1;
    return FoldItem{i, i + 1, 1, 1};
  }
  const size_t last = ops_[k + best_period * best_repeats - 1];
  pos_ = last + 1;
  return FoldItem{i, last + 1, best_period, best_repeats};
}

}  // namespace d2s::viz
