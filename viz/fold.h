// Folding repeated node sequences (internal to viz/).
//
// A trace unrolls loops and inlines calls: `for i in range(1000): s += i` becomes a
// thousand aten::add nodes with one source location. Drawn one by one that is a
// picture nobody can read (and a layout Graphviz takes minutes over), so runs of a
// sequence repeated back to back — same kinds, same overloads, same source locations,
// node for node — are drawn as one box marked ×N.
//
// Constants are not drawn (they fold into their users' labels), so they are left out
// of the comparison: the loop index a trace bakes as 0, 1, 2, ... does not break a run.
// Nodes with blocks (If, Loop) never fold: their insides are drawn as clusters.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/ir/ir.h"

namespace d2s::viz {

// One step of a block's node list as drawn.
struct FoldItem {
  size_t begin = 0;    // index of the item's first node in the block's node list
  size_t end = 0;      // one past its last node (constants between run members included)
  size_t period = 1;   // nodes (constants not counted) in one repetition of a run
  size_t repeats = 1;  // > 1 for a folded run
  bool folded() const { return repeats > 1; }
};

// Walks a block's nodes left to right, one item at a time, so that a caller that stops
// drawing (the node cap) does not pay for analysing the rest. At each position it takes
// the period (1..max_period) whose repetition covers the most nodes, if it repeats at
// least min_repeats times; otherwise the node alone.
class Folder {
 public:
  Folder(const std::vector<const ir::Node*>& nodes, size_t min_repeats, size_t max_period);
  bool done() const { return pos_ >= nodes_.size(); }
  size_t position() const { return pos_; }  // index of the next item's first node
  FoldItem next();

 private:
  bool same(size_t op_a, size_t op_b) const;  // positions in ops_

  const std::vector<const ir::Node*>& nodes_;
  std::vector<size_t> ops_;          // indices of the foldable-or-drawn (non-constant) nodes
  std::vector<uint64_t> signature_;  // per entry of ops_; 0 for nodes that never fold
  std::vector<size_t> op_index_;     // node index → position in ops_ (or SIZE_MAX)
  size_t min_repeats_;
  size_t max_period_;
  size_t pos_ = 0;
};

}  // namespace d2s::viz
