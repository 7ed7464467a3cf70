// Reverse-mode automatic differentiation (docs/autograd.md), as PyTorch's autograd.
//
// Recording happens at op dispatch: run_op() calls the kernel and, when grad mode
// is on and a tensor argument requires grad, attaches a GradNode to each float
// tensor the op returns (its AutogradMeta::grad_fn). The node keeps the op, its
// bound arguments and its result, and edges to where its inputs' gradients go: the
// grad_fn of a computed tensor, or the leaf itself (whose .grad accumulates). The
// eager interpreter and the executor both call ops through run_op, so a program,
// a trace and a parsed graph all get gradients, through If and Loop alike: the tape
// is what ran.
//
// backward() walks the nodes reachable from the root in topological order,
// iteratively (never recursing as deep as the tape is long), calls each op's
// Derivative (OpDef::derivative, registered in core/autograd/derivatives_*.cpp) with grad
// mode off, and sums gradients per input. The graph is kept after backward (as
// retain_graph=True): calling it twice accumulates twice.
//
// In-place ops (those whose schema marks an argument `Tensor(a!)`: add_, mul_, relu_,
// copy_, ...) follow PyTorch's rules. On a leaf that requires grad it is an error
// while grad mode is on (PyTorch's message). Otherwise the op is recorded like any
// other and its node becomes the written tensor's grad_fn, so every alias of the
// tensor sees the new history: `total += w * x` in a loop chains one node per step.
// Its derivative is taken on the value self had before the write (a copy is kept
// when the derivative reads it, OpDef::saved).
//
// Saved values alias the tensors the op saw. Every in-place write bumps the written
// tensor's version (Storage::version, shared with its views); a node remembers the
// version of each tensor its derivative reads (OpDef::saved) and backward() fails,
// with PyTorch's message, when one was overwritten since: "one of the variables needed
// for gradient computation has been modified by an inplace operation".
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/ops/op_registry.h"
#include "core/tensor/grad_mode.h"
#include "core/tensor/ivalue.h"

namespace d2s {

struct GradNode;

// Where a gradient flows: output `output_nr` of node `fn`, or, when fn is null,
// the leaf `leaf` (its .grad accumulates).
struct GradEdge {
  std::shared_ptr<GradNode> fn;
  size_t output_nr = 0;
  Tensor leaf;
};

// A tensor a node's derivative reads, with its version when the node saved it.
struct SavedVersion {
  Tensor tensor;  // a data alias
  uint64_t version = 0;
  bool is_result = false;  // the node's own output (else one of its arguments)
};

struct GradNode {
  const OpDef* op = nullptr;
  std::vector<SavedVersion> saved;  // checked by backward() before the derivative runs
  ValueList args;                   // bound arguments; tensors are data aliases without autograd
  IValue result;                    // the op's result, likewise
  // One entry per argument: edges for its tensors (one for a Tensor, one per item
  // of a Tensor[]; an edge with neither fn nor leaf gets no gradient).
  std::vector<std::vector<GradEdge>> edges;
  size_t num_outputs = 0;  // float tensors of the result, in order

  GradNode() = default;
  GradNode(const GradNode&) = delete;
  GradNode& operator=(const GradNode&) = delete;
  // Frees the chain of nodes only this one keeps alive without recursing through it
  // (a tape as long as the program would overflow the stack).
  ~GradNode();
};

struct AutogradMeta {
  Tensor grad;                        // a leaf's accumulated gradient
  std::shared_ptr<GradNode> grad_fn;  // null for leaves
  size_t output_nr = 0;
};

// Calls op's kernel on bound arguments, recording a GradNode when grad mode is on
// and any tensor argument requires grad. The one place kernels are called from
// (the constant-folding pass excepted: it must not record).
IValue run_op(const OpDef& op, OpContext& ctx, const ValueList& args);

// The tensor's accumulated gradient (undefined when none), and whether it is a
// leaf (no grad_fn).
Tensor grad_of(const Tensor& t);
bool is_leaf(const Tensor& t);
// Marks a leaf as requiring grad (requires_grad_()); errors for a non-leaf being
// switched off or a non-float tensor, with PyTorch's messages.
void set_requires_grad(Tensor& t, bool on);
// A tensor sharing t's data with no autograd history (detach()).
Tensor detached(const Tensor& t);
// Drops the accumulated gradient (x.grad = None).
void clear_grad(Tensor& t);

// Computes the gradients of `root` with respect to every leaf it depends on that
// requires grad, accumulating them in the leaves' .grad. `grad` is dL/droot; it may
// be undefined only when root has one element (then 1). Throws d2s::Error (no
// range) for a root that does not require grad, a bad grad shape, or an op on the
// way without a derivative.
void backward(const Tensor& root, const Tensor& grad = Tensor());

// The float tensors of a value, in order: the tensor itself, or the items of a list
// or tuple (one level deep). These are the outputs a GradNode has.
std::vector<Tensor> float_tensors_of(const IValue& v);

// `d2s run --grad`: the gradient of a run's first output (`outputs` as the entry
// returned it: a tuple's first item, or the value itself), which must be a float
// tensor of one element, with respect to each named leaf; None for a leaf the output
// does not reach. Earlier gradients of the leaves (a backward() in the program) are
// dropped first, so each is exactly d(first output)/d(leaf). Throws d2s::Error (exit
// 2) for an output that is not a one-element float tensor.
std::vector<std::pair<std::string, IValue>> gradients_of_first_output(
    const IValue& outputs, const std::vector<std::pair<std::string, Tensor>>& leaves);

// Attaches every derivative of core/autograd/derivatives_*.cpp to its op (OpRegistry::builtin()).
void register_derivatives(OpRegistry& r);

namespace kernels {
// aten::backward and the other ops that run the autograd (autograd_ops.cpp).
void register_autograd_ops(OpRegistry& r);
}  // namespace kernels

}  // namespace d2s
