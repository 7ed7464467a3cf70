// Graph passes, each a free function `bool pass(Graph&)` that returns whether it
// changed the graph (TorchScript's and Glow's convention). They are registered by
// name and run by the driver of convert/pass_manager.h, which can verify the graph
// after each, print it, and count what each did.
//
//   constant_fold        pure scalar code on constants → constants (by running the
//                        registry kernel); prim::If on a constant condition → the taken
//                        arm inlined; prim::Loop that cannot start → its inputs; If
//                        outputs that both arms agree on → that value (`c ? True :
//                        False` → c); TupleUnpack / TupleIndex of a TupleConstruct → its
//                        inputs.
//   eliminate_dead_code  unused pure nodes, unused If outputs, unused loop-carried
//                        values. Kept however unused: prim::Print, prim::RaiseException,
//                        prim::Guard, random ops (aten::rand*, dropout, ...): a random
//                        op draws from the generator, so removing it would shift every
//                        later random number and make the graph's results differ from
//                        eager mode's; and ops that may raise (cannot_raise), so that an
//                        unused `t.item()` of a two-element tensor raises as in eager
//                        PyTorch. An If or Loop is kept when it holds one.
//   infer_shapes         dtypes and shapes through the graph by per-op rules
//                        (shape_rules.h), joining an If's arms and iterating loop-carried
//                        types to a fixpoint.
//
// None of them recurses along If nesting, which early returns make as deep as the
// program is long (each `if c: return` nests the rest of the function in an arm):
// they walk the graph with explicit stacks. Only loop nesting (bounded by the source's
// nesting) recurses in shape inference's fixpoint.
#pragma once

#include <optional>
#include <vector>

#include "core/ir/ir.h"
#include "core/tensor/ivalue.h"

namespace d2s::convert {

bool constant_fold(ir::Graph& graph);
bool eliminate_dead_code(ir::Graph& graph);
bool infer_shapes(ir::Graph& graph);

// Folding and dead-code elimination to a fixpoint, then shape inference: the default
// pipeline of pass_manager.h with the process-wide options (pass_manager.cpp).
void run_default_passes(ir::Graph& graph);

// The outputs of `node` on these input values, when the node is pure scalar code: a
// registry op that is not random and gives no tensor, or aten::format. nullopt when
// it cannot be evaluated now (a tensor result, a random op, an error at run time —
// which then happens at run time, with its message).
std::optional<std::vector<IValue>> evaluate_node(const ir::Node& node,
                                                 const std::vector<IValue>& inputs);

// Whether removing `node` (when its outputs are unused) changes what a run does.
bool has_side_effects(const ir::Node& node);

// Whether a registry op node is proven unable to raise, whatever values reach it
// (pass_dce_raise.cpp says how); dead-code elimination keeps one that may raise.
bool cannot_raise(const ir::Node& node);

// Every node of `block` and of the blocks nested in it, each node after the nodes of
// its own blocks; within a block in order, or last to first with `reverse`.
std::vector<ir::Node*> post_order(const ir::Block* block, bool reverse = false);

}  // namespace d2s::convert
