// The static backward graph of a graph (`d2s grad`, docs/autograd.md).
//
//   std::unique_ptr<ir::Graph> g = ...;            // a trace, a parsed graph, a file
//   convert::build_backward_graph(*g);             // g now also computes gradients
//
// The result is one graph computing the forward and then the backward pass, as
// PyTorch's joint forward-backward graphs do: it keeps the forward's inputs, and its
// outputs are the forward's first output followed by the gradient of that output's
// sum (its backward() when it has one element) with respect to each float tensor
// input (inputs and module parameters, in input order; `grad_<name>`). An input the
// output does not reach gets zeros.
//
// Each differentiable node gets one `grad::<op>` node (core/autograd/derivatives_util.cpp)
// taking the node's output gradients, its arguments and its result, and returning
// one gradient per argument; uses of one value sum their gradients (aten::add). A
// prim::If gets a backward If on the same condition whose arms recompute their
// forward arm and differentiate it. prim::Loop is not supported yet: a d2s::Error
// (exit 2) at the loop. The graph passes ir::verify and runs on the executor,
// giving the gradients the run-time tape gives (`d2s run --grad`).
#pragma once

#include <string>

#include "core/ir/ir.h"

namespace d2s::convert {

// Rewrites `graph` in place into its forward-and-backward graph. Throws d2s::Error
// for a graph without outputs, a prim::Loop on the gradient's path, or an op on it
// without a derivative.
void build_backward_graph(ir::Graph& graph);

// Makes every in-place write functional, as TorchScript's RemoveMutation does:
// `%o = aten::add_(%y, %z)` becomes `%o = aten::add(%y, %z)` and later reads of %y read
// %o. For consumers without in-place ops (the backward graph, ONNX export). Throws
// d2s::Error at a write it cannot express: into a value of an enclosing block, or into
// a tensor that a list or tuple also holds.
void functionalize(ir::Graph& graph);

// The out-of-place kind functionalize writes an in-place kind as ("aten::add_" →
// "aten::add", "aten::copy_" → "aten::expand_as"), or "" when it has none.
std::string functional_kind(const std::string& kind);

}  // namespace d2s::convert
