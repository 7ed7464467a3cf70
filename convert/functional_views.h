// Writes through views, made functional (internal to convert/grad_graph.cpp).
//
// In a graph `%v = aten::select(%h, 0, 0)` then `aten::add_(%v, %y)` writes %h too:
// the executor keeps views and bases in step (core/autograd/views.h), as PyTorch's shared
// storage does. When remove_mutation turns the write into `%v2 = aten::add(%v, %y)`,
// the base and its other views must see it as values: %h after the write is
// `aten::select_scatter(%h, %v2, 0, 0)` (slice_scatter for a slice or narrow,
// diagonal_scatter for a diagonal, the inverse transpose or permute, a reshape back to
// the base's size for view, reshape, flatten, squeeze and unsqueeze), and a view of %h
// read after the write is taken again from that new value. What has no functional form here
// (expand, the pieces of split/chunk/unbind, a view from another block) is an error.
#pragma once

#include <functional>
#include <unordered_set>
#include <utility>
#include <vector>

#include "core/ir/ir.h"

namespace d2s::convert {

// `self` (written by `write`, in `block`) now has the value `value` after the write;
// `after_write(user)` tells a node of `block` (or nested in one) that runs after it.
// Rewrites the reads after the write of what `self` is a view of, and of the other
// views of that base, to the new values. Inserts at the graph's insertion point.
// `fresh` holds the nodes that compute new values of written tensors (the functional
// forms and write-backs so far): though some are view ops (expand_as, a reshape
// back), their results alias nothing, so a later write into one stops there; the
// write-backs made here are added to it. `write_backs`, when given, gets each write-back
// node with the base whose new value it computes (up the chain of views).
void write_through_views(ir::Graph& graph, ir::Block* block, ir::Node* write, ir::Value* self,
                         ir::Value* value, const std::function<bool(ir::Node*)>& after_write,
                         std::unordered_set<const ir::Node*>& fresh,
                         std::vector<std::pair<ir::Node*, ir::Value*>>* write_backs = nullptr);

}  // namespace d2s::convert
