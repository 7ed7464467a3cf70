// Per-op type rules: the dtype and shape of an op's results from its inputs' types
// and constant arguments, with symbolic dims (ir::Dim) carried through.
//
// Symbols come from the entry's tensor inputs (`x_0`, `x_1` for the dims of `x`, see
// lower.cpp); module parameters have known sizes. Rules keep a symbol wherever the
// size is provably the same (elementwise ops, a broadcast against 1, mm's outer
// dims, view(x.size(0), -1), ...) and give an unknown dim (`*`) otherwise. An op
// without a rule keeps the type the lowering gave it (Tensor of unknown shape).
#pragma once

#include "core/ir/ir.h"

namespace d2s::convert {

// Sets the output types of `node` by its rule, when it has one; true if a type
// changed. Tuple/list structure nodes (TupleConstruct, TupleUnpack, ...) included.
bool infer_node_types(ir::Node& node);

// Every op kind with a shape rule ("aten::conv2d"): `d2s ops` and its coverage check.
std::vector<std::string> shape_rule_kinds();

// Broadcasting of two shapes with symbols: equal dims stay, a 1 takes the other side,
// a symbol against a known size > 1 takes that size; anything else is unknown.
std::vector<ir::Dim> broadcast_dims(const std::vector<ir::Dim>& a, const std::vector<ir::Dim>& b);

}  // namespace d2s::convert
