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
// run_op (core/autograd.cpp) calls these hooks; the eager interpreter and the executor
// (traced and parsed graphs) both go through it, so every route sees the same views.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/ivalue.h"
#include "core/op_registry.h"

namespace d2s {

// One op of the way from a base to a view: the op, its arguments with the first
// (self) to be replaced, and which item of a list result it is (-1: the result).
struct ViewStep {
  const OpDef* op = nullptr;
  ValueList args;
  int64_t output_index = -1;
};

struct ViewMeta {
  Tensor base;                   // the root: never itself a view
  std::vector<ViewStep> steps;   // base → this view
  std::vector<int64_t> strides;  // PyTorch's, in elements of the base's storage
  int64_t offset = 0;
  bool created_in_no_grad = false;
  bool multi_output = false;  // an output of unbind/split/chunk
  // A multi-output piece whose family was written after it was taken: its elements are
  // the new ones, but PyTorch regenerates no history for it, so using it in an op
  // that records is PyTorch's error, which starts with this (see check_read_of_view).
  std::string stale_head;
};

struct ViewFamily {
  std::vector<std::weak_ptr<TensorImpl>> views;
  size_t pruned_size = 0;  // size after the last pruning of expired entries
};

// PyTorch's strides of t (row-major for a tensor that is no view).
std::vector<int64_t> strides_of(const Tensor& t);
bool is_contiguous(const Tensor& t);
// The strides a view of `shape` on t would have, or none when t's layout does not
// allow it (PyTorch's computeStride): `view` is then an error and `reshape` copies.
std::optional<std::vector<int64_t>> view_strides(const Tensor& t, const Shape& shape);

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
