// What a node does besides computing its outputs, from the op table's marks: the one
// answer the dead-code passes (convert/pass_dce.cpp, the tracer's, the diff's guard
// stripping), the executor and the autograd share, so that no pass guesses effects
// from an op's name.
//
// Effects are: printing (prim::Print), raising (prim::RaiseException), accumulating
// gradients (aten::backward), checking a
// guard (prim::Guard), writing into an argument (an op whose schema marks an argument
// `Tensor(a!)`: add_, copy_, relu_, ...; OpDef::mutates) and drawing from the random
// generator (OpDef::is_random()). Writing ops are TorchScript's design: `y.add_(1)` stays
// a node whose effect later reads of y see, never renamed away.
#pragma once

#include "core/ir/ir.h"

namespace d2s {
struct OpDef;
}

namespace d2s::ir {

// The node's own effect, its blocks not looked into. An op kind the table does not
// know and that is not one of the structural prim kinds counts as effectful.
bool has_own_effects(const Node& n);

// Whether the node writes into one of its inputs (a mutating op of the table; without
// a recorded overload, any mutating overload of its kind).
bool mutates_inputs(const Node& n);

// Whether `v` is a prim::ListConstruct's list that no node writes into (aten::append,
// aten::_set_item, ...: core/ops/kernels_list.cpp), so that its items are the construct's
// inputs wherever it is read. The shape rules read list items only then.
bool is_unchanged_list(const Value& v);

// A node of a flat graph (a trace) that may be dropped: no output used and no effect.
bool removable_when_unused(const Node& n);

}  // namespace d2s::ir
