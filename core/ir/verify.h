// The IR verifier (TorchScript's Graph::lint): checks that a graph is well formed,
// after it is built, after each pass, and after an IR file is loaded.
//
// Invariants, checked in this order for each node, in program order:
//
//  1. Structure. Every block lies between its own prim::Param and prim::Return
//     sentinels; prev/next links agree; each node's owning block and graph are the
//     ones it is listed in; no node is listed twice; sentinels appear only as
//     sentinels; only prim::If and prim::Loop have blocks.
//  2. Kinds. A node's kind is one of the prim:: kinds of core/ir/ir.h or the base name
//     of a registry op (`aten::mm`); an overload, when set, names a registered one.
//  3. Source. Every node has a known source location (line > 0).
//  4. SSA and scoping. Every value is defined exactly once (as a node output or a
//     block input, its node() and offset() saying where). Every input of a node,
//     block returns included, is visible at that point: defined earlier in the same
//     block or in an enclosing block; a block's inputs and the values defined in it
//     are visible inside that block (and blocks nested in it) only.
//  5. Use lists. Each (node, input index) appears in exactly one use list, that of
//     the value in that input; no use names a node that is not in the graph.
//  6. Arities. prim::If: 1 input (the condition), 2 blocks without inputs, each
//     returning as many values as the If has outputs. prim::Loop: at least 2 inputs
//     (max trip count, initial condition, then the carried values), one body block
//     taking (trip index, carried...) and returning (condition, carried...), as
//     many outputs as carried values. prim::Constant: no inputs, 1 output, a
//     "value" attribute. prim::Guard: 1 input, no outputs, a "seen" attribute.
//     prim::Print: no outputs. prim::RaiseException: at most 1 input, no outputs.
//     Tuple/list construct: 1 output; unpack: 1 input; TupleIndex: 2 inputs (or 1
//     with an "index" attribute) and 1 output; prim::Uninitialized: no inputs, 1
//     output.
//  7. Types, where declared (Any and unknown dtypes, ranks or dims match anything;
//     see types_compatible): If outputs vs both blocks' returns; Loop carried
//     inputs, body inputs, body returns and outputs alike; the trip index an int;
//     a Constant's output type vs its value's.
//
// The walk is iterative over nodes with an explicit stack of blocks, so a graph of
// any length is fine. The first violation throws d2s::Error (exit 2) at the node's
// location, naming the node as print_node() shows it.
#pragma once

#include <functional>

#include "core/ir/ir.h"

namespace d2s::ir {

void verify(const Graph& graph);

// The same, reporting a bad node at `range_of(node)` instead of its source range
// (the IR file loader points at the node's place in the YAML text).
using NodeRangeFn = std::function<SourceRange(const Node&)>;
void verify(const Graph& graph, const NodeRangeFn& range_of);

}  // namespace d2s::ir
