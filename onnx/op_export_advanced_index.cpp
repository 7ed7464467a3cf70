// The ONNX mapping of advanced indexing, aten::index.Tensor(self, Tensor?[] indices)
// (x[idx], x[:, [-1]], x[range(n), t], x[mask]): a None item keeps its dim; a bool
// mask of rank k indexes k dims by the rows of NonZero(mask); an int index one dim.
// - One indexed dim: Gather on that axis (its result dims stand where the dim was,
//   as PyTorch puts them).
// - Several: the indices are broadcast (plus zeros of their sum's shape), stacked
//   on a last axis and read by GatherND from x with the indexed dims Transposed to the
//   front. PyTorch puts the result dims first when the indexed dims are apart, and
//   where the first indexed dim was when they are adjacent: a last Transpose moves
//   the dims before them back in front.
// Negative indices count from the end in both ONNX ops, as in PyTorch.
// aten::index_put (x[idx] = v, x[mask] = v, x[:, idx] += v once made functional) is
// ScatterND of the same indices (see index_put below).
#include <numeric>

#include "core/base/error.h"
#include "onnx/export_emitter.h"
#include "onnx/tensor_proto.h"

namespace d2s::onnx_io {

namespace {

using N = const ir::Node&;

std::string transpose(Emitter& e, const std::string& x, const std::vector<int64_t>& perm) {
  return e.add1("Transpose", {x}, [&](onnx::NodeProto* p) { attr_ints(p, "perm", perm); });
}

// The indices of aten::index / index_put: each indexed dim with its int64 index, the
// rank of their broadcast shape B, and the indexed tensor's rank.
struct Indices {
  std::vector<std::pair<int64_t, std::string>> dims;
  int64_t index_rank = 0;
  int64_t rank = 0;
  // x's dims with the indexed ones first, the others after in order.
  std::vector<int64_t> front_perm() const {
    std::vector<int64_t> perm;
    for (const auto& ix : dims) perm.push_back(ix.first);
    for (int64_t d = 0; d < rank; ++d) {
      if (std::find(perm.begin(), perm.end(), d) == perm.end()) perm.push_back(d);
    }
    return perm;
  }
  bool perm_is_identity() const {
    std::vector<int64_t> identity(static_cast<size_t>(rank));
    std::iota(identity.begin(), identity.end(), 0);
    return front_perm() == identity;
  }
  // PyTorch keeps the result dims where the first indexed dim was when the indexed dims
  // are adjacent (and not first); the count of dims before them, else 0.
  int64_t dims_before() const {
    for (size_t i = 1; i < dims.size(); ++i) {
      if (dims[i].first != dims[i - 1].first + 1) return 0;
    }
    return dims[0].first;
  }
};

Indices collect(Emitter& e, N n) {
  Indices out;
  if (!Emitter::rank_of(n.input(0), &out.rank)) {
    e.fail(n, "the rank of the indexed tensor must be known for ONNX export");
  }
  int64_t dim = 0;
  for (const ir::Value* item : e.list_items(n.input(1), n)) {
    if (Emitter::is_none(item)) {
      ++dim;
      continue;
    }
    int64_t r = 0;
    if (!Emitter::rank_of(item, &r)) {
      e.fail(n, "the rank of an index must be known for ONNX export");
    }
    if (e.dtype(item) == DType::Bool) {
      // NonZero's rows: one [M] index per dim the mask covers.
      const std::string nz = e.add1("NonZero", {e.name(item)});
      for (int64_t j = 0; j < r; ++j) {
        out.dims.emplace_back(
            dim + j, e.add1("Gather", {nz, e.const_scalar(static_cast<double>(j), DType::Int64)},
                            [](onnx::NodeProto* p) { attr_int(p, "axis", 0); }));
      }
      out.index_rank = std::max<int64_t>(out.index_rank, 1);
      dim += r;
    } else {
      out.dims.emplace_back(dim, e.name_as(item, DType::Int64));
      out.index_rank = std::max(out.index_rank, r);
      ++dim;
    }
  }
  if (dim > out.rank) e.fail(n, "too many indices for the tensor's rank");
  return out;
}

// The indices broadcast to one shape B (plus zeros of their sum's shape) and stacked
// on a last axis: [B..., k], as GatherND and ScatterND take them. With `sizes` (x's
// Shape, in x's dim order) negative indices are made positive (Mod by the dim's size),
// for ScatterND.
std::string stacked(Emitter& e, const Indices& ix, const std::string& sizes = {}) {
  std::string sum = ix.dims[0].second;
  for (size_t i = 1; i < ix.dims.size(); ++i) sum = e.add1("Add", {sum, ix.dims[i].second});
  // Broadcast by adding zeros of the broadcast shape: an Expand would need a shape
  // that d2s's importer only reads when it is known.
  const std::string zeros = e.add1("Mul", {sum, e.const_scalar(0, DType::Int64)});
  std::vector<std::string> parts;
  for (const auto& [dim, index] : ix.dims) {
    std::string v = e.add1("Add", {index, zeros});
    if (!sizes.empty()) {
      const std::string size =
          e.add1("Gather", {sizes, e.const_scalar(static_cast<double>(dim), DType::Int64)},
                 [](onnx::NodeProto* p) { attr_int(p, "axis", 0); });
      v = e.add1("Mod", {v, size});
    }
    // A non-negative axis (B's rank): d2s's importer then needs no rank.
    parts.push_back(e.add1("Unsqueeze", {v, e.const_ints({ix.index_rank})}));
  }
  const int64_t last = ix.index_rank;
  return e.add1("Concat", parts, [last](onnx::NodeProto* p) { attr_int(p, "axis", last); });
}

// Between PyTorch's layout of x[indices], [before..., B..., after...], and GatherND's,
// [B..., before..., after...] (the same when dims_before() is 0).
std::vector<int64_t> to_torch_layout(const Indices& ix) {
  const int64_t before = ix.dims_before();
  const int64_t out_rank = ix.index_rank + ix.rank - static_cast<int64_t>(ix.dims.size());
  std::vector<int64_t> perm;
  for (int64_t d = 0; d < before; ++d) perm.push_back(ix.index_rank + d);
  for (int64_t d = 0; d < ix.index_rank; ++d) perm.push_back(d);
  for (int64_t d = ix.index_rank + before; d < out_rank; ++d) perm.push_back(d);
  return perm;
}

std::vector<int64_t> inverse(const std::vector<int64_t>& perm) {
  std::vector<int64_t> inv(perm.size());
  for (size_t i = 0; i < perm.size(); ++i)
    inv[static_cast<size_t>(perm[i])] = static_cast<int64_t>(i);
  return inv;
}

// x[indices] in PyTorch's layout.
std::string gather(Emitter& e, const std::string& x, const Indices& ix) {
  if (ix.dims.size() == 1) {
    const int64_t axis = ix.dims[0].first;
    return e.add1("Gather", {x, ix.dims[0].second},
                  [axis](onnx::NodeProto* p) { attr_int(p, "axis", axis); });
  }
  const std::string xt = ix.perm_is_identity() ? x : transpose(e, x, ix.front_perm());
  const std::string y = e.add1("GatherND", {xt, stacked(e, ix)});
  return ix.dims_before() > 0 ? transpose(e, y, to_torch_layout(ix)) : y;
}

void index(Emitter& e, N n) {
  const Indices ix = collect(e, n);
  const std::string x = e.name(n.input(0));
  e.bind(n.output(), ix.dims.empty() ? e.add1("Identity", {x}) : gather(e, x, ix));
}

// index_put(self, indices, values, accumulate): ScatterND into x with the indexed dims
// Transposed to the front, of the values broadcast to the shape of x[indices] (PyTorch
// broadcasts them so) and Transposed into ScatterND's layout; accumulate is
// reduction="add" (opset 16 and later); the result is Transposed back.
void index_put(Emitter& e, N n) {
  const Indices ix = collect(e, n);
  const std::string x = e.name(n.input(0));
  if (ix.dims.empty()) e.fail(n, "index_put without a tensor index has no ONNX export in d2s");
  int64_t accumulate = 0;
  if (n.inputs().size() > 3 && !Emitter::constant_int(n.input(3), &accumulate)) {
    const IValue* c = Emitter::constant(n.input(3));
    if (!c || !c->is_bool()) e.fail(n, "index_put's accumulate must be constant for ONNX export");
    accumulate = c->to_bool();
  }
  if (accumulate && e.opset() < 16) {
    e.fail(n,
           "index_put with accumulate=True exports as ScatterND(reduction=\"add\"), which "
           "needs opset 16",
           "give d2s export --opset 16 or 17");
  }
  const DType d = e.dtype(n.input(0));
  const std::string target = gather(e, x, ix);
  // The values broadcast to x[indices]'s shape by adding (or'ing) zeros of that shape:
  // ConstantOfShape of a Shape, which d2s's importer reads (an Expand by a shape known
  // only at run time it does not).
  const std::string zeros =
      e.add1("ConstantOfShape", {e.add1("Shape", {target})}, [d](onnx::NodeProto* p) {
        auto* a = p->add_attribute();
        a->set_name("value");
        a->set_type(onnx::AttributeProto::TENSOR);
        tensor_to_proto(Tensor::full({1}, 0, d), "", a->mutable_t());
      });
  std::string updates = e.add1(d == DType::Bool ? "Or" : "Add", {e.name_as(n.input(2), d), zeros});
  if (ix.dims_before() > 0) updates = transpose(e, updates, inverse(to_torch_layout(ix)));
  const bool moved = !ix.perm_is_identity();
  const std::string xt = moved ? transpose(e, x, ix.front_perm()) : x;
  const std::string sizes = e.add1("Shape", {xt});
  // Indices into the transposed tensor: their dims are 0..k-1 there.
  Indices front = ix;
  for (size_t i = 0; i < front.dims.size(); ++i) front.dims[i].first = static_cast<int64_t>(i);
  std::string y = e.add1("ScatterND", {xt, stacked(e, front, sizes), updates},
                         [accumulate](onnx::NodeProto* p) {
                           if (!accumulate) return;
                           auto* a = p->add_attribute();
                           a->set_name("reduction");
                           a->set_type(onnx::AttributeProto::STRING);
                           a->set_s("add");
                         });
  if (moved) y = transpose(e, y, inverse(ix.front_perm()));
  e.bind(n.output(), y);
}

// arange (end) and arange.start_step (start, end, step) → Range, in the dtype given or,
// as PyTorch infers it, int64 when every bound is an int and float32 otherwise: the
// rows of x[range(n), t] (the parse route writes range(n) as an arange).
void arange(Emitter& e, N n) {
  const bool bounds3 = n.overload() == "start_step";
  const size_t dtype_at = bounds3 ? 3 : 1;
  DType d = DType::Int64;
  const IValue* given =
      dtype_at < n.inputs().size() ? Emitter::constant(n.input(dtype_at)) : nullptr;
  if (given && given->is_int()) {
    if (!dtype_from_scalar_type(given->to_int(), &d))
      e.fail(n, "arange's dtype has no ONNX export");
  } else {
    for (size_t i = 0; i < (bounds3 ? 3u : 1u); ++i) {
      if (n.input(i)->type().kind != ir::TypeKind::Int) d = DType::Float32;
    }
  }
  if (d == DType::Bool) e.fail(n, "arange of dtype bool has no ONNX export");
  const std::string start = bounds3 ? e.name_as(n.input(0), d) : e.const_scalar(0, d);
  const std::string end = e.name_as(n.input(bounds3 ? 1 : 0), d);
  const std::string step = bounds3 ? e.name_as(n.input(2), d) : e.const_scalar(1, d);
  e.bind(n.output(), e.add1("Range", {start, end, step}));
}

}  // namespace

void add_advanced_index_exports(std::map<std::string, ExportFn>& m) {
  m["aten::index"] = index;
  m["aten::index_put"] = index_put;
  m["aten::arange"] = arange;
}

}  // namespace d2s::onnx_io
