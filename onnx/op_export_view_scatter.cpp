// The ONNX mapping of the functional writes through views that in-place writes become
// (x[:, 1:] = y is aten::slice_scatter once the graph is made functional; x[:, 1] = y is
// aten::select_scatter): ScatterElements into self along the dim, at the positions the
// view reads — start + k * step for a slice (k over src's size along the dim), the index
// for a select — broadcast to the shape of the written elements.
#include "onnx/export_emitter.h"

namespace d2s::onnx_io {

namespace {

using N = const ir::Node&;

int64_t constant_or(Emitter& e, N n, size_t i, int64_t fallback, const char* what) {
  if (i >= n.inputs().size() || Emitter::is_none(n.input(i))) return fallback;
  int64_t v = 0;
  if (!Emitter::constant_int(n.input(i), &v)) {
    e.fail(n, std::string("the ") + what + " of " + n.kind() + " must be constant for ONNX export");
  }
  return v;
}

// A 0-d int64 position from input i (None: `fallback`), negative ones counted from the
// end of `size` (the dim's size, 0-d), as PyTorch wraps them.
std::string position(Emitter& e, N n, size_t i, int64_t fallback, const std::string& size) {
  if (i >= n.inputs().size() || Emitter::is_none(n.input(i))) {
    return e.const_scalar(static_cast<double>(fallback), DType::Int64);
  }
  int64_t c = 0;
  if (Emitter::constant_int(n.input(i), &c)) {
    const std::string v = e.const_scalar(static_cast<double>(c), DType::Int64);
    return c >= 0 ? v : e.add1("Add", {v, size});
  }
  const std::string v = e.name_as(n.input(i), DType::Int64);
  const std::string zero = e.const_scalar(0, DType::Int64);
  return e.add1("Where", {e.add1("Less", {v, zero}), e.add1("Add", {v, size}), v});
}

// ScatterElements of `updates` into self along `dim` at `positions` (1-D, one per index
// of the updates along dim), reshaped to [1, .., -1, .., 1] and expanded to the updates.
void scatter_along(Emitter& e, N n, int64_t rank, int64_t dim, const std::string& positions,
                   const std::string& updates) {
  std::vector<int64_t> shape(static_cast<size_t>(rank), 1);
  shape[static_cast<size_t>(dim)] = -1;
  const std::string index = e.add1(
      "Expand", {e.add1("Reshape", {positions, e.const_ints(shape)}), e.add1("Shape", {updates})});
  e.bind(n.output(), e.add1("ScatterElements", {e.name(n.input(0)), index, updates},
                            [&](onnx::NodeProto* p) { attr_int(p, "axis", dim); }));
}

int64_t self_rank(Emitter& e, N n) {
  int64_t rank = 0;
  if (!Emitter::rank_of(n.input(0), &rank) || rank == 0) {
    e.fail(n, n.kind() + " exports for a tensor of known rank only", "give d2s export --inputs");
  }
  return rank;
}

int64_t wrapped_dim(Emitter& e, N n, size_t i, int64_t rank) {
  const int64_t d = constant_or(e, n, i, 0, "dim");
  return d < 0 ? d + rank : d;
}

// The size of self's dim `dim`, 0-d int64.
std::string dim_size(Emitter& e, N n, int64_t dim) {
  return e.add1("Gather",
                {e.add1("Shape", {e.name(n.input(0))}),
                 e.const_scalar(static_cast<double>(dim), DType::Int64)},
                [](onnx::NodeProto* p) { attr_int(p, "axis", 0); });
}

// slice_scatter(self, src, dim=0, start=None, end=None, step=1): src holds the elements
// start, start + step, ... of the dim (their count is src's size there).
void slice_scatter(Emitter& e, N n) {
  const int64_t rank = self_rank(e, n);
  const int64_t dim = wrapped_dim(e, n, 2, rank);
  const int64_t step = constant_or(e, n, 5, 1, "step");
  if (step <= 0) e.fail(n, "slice step must be positive");
  const std::string size = dim_size(e, n, dim);
  // PyTorch clamps the wrapped start to [0, size].
  const std::string start = e.add1(
      "Min", {e.add1("Max", {position(e, n, 3, 0, size), e.const_scalar(0, DType::Int64)}), size});
  const std::string updates = e.name_as(n.input(1), e.dtype(n.input(0)));
  const std::string count =
      e.add1("Gather",
             {e.add1("Shape", {updates}), e.const_scalar(static_cast<double>(dim), DType::Int64)},
             [](onnx::NodeProto* p) { attr_int(p, "axis", 0); });
  const std::string k =
      e.add1("Range", {e.const_scalar(0, DType::Int64), count, e.const_scalar(1, DType::Int64)});
  const std::string positions = e.add1(
      "Add", {e.add1("Mul", {k, e.const_scalar(static_cast<double>(step), DType::Int64)}), start});
  scatter_along(e, n, rank, dim, positions, updates);
}

// select_scatter(self, src, dim, index): src (self without the dim) at the index.
void select_scatter(Emitter& e, N n) {
  const int64_t rank = self_rank(e, n);
  const int64_t dim = wrapped_dim(e, n, 2, rank);
  const std::string size = dim_size(e, n, dim);
  const std::string index = position(e, n, 3, 0, size);
  const std::string updates =
      e.add1("Unsqueeze", {e.name_as(n.input(1), e.dtype(n.input(0))), e.const_ints({dim})});
  scatter_along(e, n, rank, dim, e.add1("Reshape", {index, e.const_ints({1})}), updates);
}

}  // namespace

void add_view_scatter_exports(std::map<std::string, ExportFn>& m) {
  m["aten::slice_scatter"] = slice_scatter;
  m["aten::select_scatter"] = select_scatter;
}

}  // namespace d2s::onnx_io
