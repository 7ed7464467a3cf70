// Views as PyTorch has them, on tensors that hold their elements row-major.
//
// In PyTorch select, slice, transpose, permute, expand, narrow, view, ... return a
// tensor sharing its base's storage through strides: a write through either is seen
// by the other, `stride()` and `is_contiguous()` tell the layout, `view` of a tensor
// whose layout does not allow it is an error and `reshape` copies only then. d2s's
// kernels read row-major data, so the views whose layout is not the base's own keep
// their elements in a storage of their own; this file keeps the family in step:
//
// - Every result of an op whose schema marks it a view of its first argument
//   (`Tensor(a) self -> Tensor(a)`, OpDef::is_view) records its root base, the ops
//   that take it from the base (replayable steps) and the strides and offset PyTorch
//   would give it; the base lists its live views (weakly).
// - After an in-place write into a member of a family (an `(a!)` argument), the base
//   gets the written view's elements (copied, and, for the autograd, computed
//   functionally as `index_put` of the view's elements at their base positions, which
//   is PyTorch's CopySlices) and every other live view is taken again from the new
//   base, data and history (PyTorch regenerates a view's grad_fn the same way). All
//   members' versions move together, as PyTorch's shared version counter.
// - PyTorch's errors for in-place writes on views: a view of a leaf that requires
//   grad, a view created in no_grad mode, an output of a multi-view op (unbind,
//   split, chunk), and a write into an expanded view whose elements overlap. The
//   pieces of a multi-view op see a write into their family like the other views, but
//   reading one that requires grad in grad mode afterwards is PyTorch's error too.
//
// run_op (core/autograd/autograd.cpp) calls these hooks; the eager interpreter and the executor
// (traced and parsed graphs) both go through it, so every route sees the same views.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/ops/op_registry.h"
#include "core/tensor/ivalue.h"
#include "core/tensor/view_layout.h"

namespace d2s {

// Hooks of run_op. Before an in-place op, when grad mode is on and an argument
// requires grad: PyTorch's errors for writes through views (throws d2s::Error).
void check_write_through_view(const OpDef& op, const ValueList& args, bool recording);
// Before an op, in grad mode: PyTorch's error for a split/chunk/unbind piece that
// requires grad, read after a write into its family (throws d2s::Error).
void check_read_of_view(const ValueList& args);
// After a view op: records the family; returns the result (unchanged handles).
IValue register_view(const OpDef& op, const ValueList& args, IValue result);
// After an in-place op: the base and the other views see the write.
void propagate_write(const OpDef& op, const ValueList& args);

}  // namespace d2s
