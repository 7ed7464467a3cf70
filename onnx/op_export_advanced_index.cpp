// The ONNX mapping of advanced indexing, aten::index.Tensor(self, Tensor?[] indices)
// (x[idx], x[:, [-1]], x[range(n), t], x[mask]): a None item keeps its dim; a bool
// mask of rank k indexes k dims by the rows of NonZero(mask); an int index one dim.
// - One indexed dim: Gather on that axis (its result dims stand where the dim was,
//   as PyTorch puts them).
// - Several: the indices are broadcast (Expand to the Shape of their sum), stacked
//   on a last axis and read by GatherND from x with the indexed dims Transposed to the
//   front. PyTorch puts the result dims first when the indexed dims are apart, and
//   where the first indexed dim was when they are adjacent: a last Transpose moves
//   the dims before them back in front.
// Negative indices count from the end in both ONNX ops, as in PyTorch.
#include <numeric>

#include "core/error.h"
#include "onnx/export_emitter.h"

namespace d2s::onnx_io {

namespace {

using N = const ir::Node&;

std::string transpose(Emitter& e, const std::string& x, const std::vector<int64_t>& perm) {
  return e.add1("Transpose", {x}, [&](onnx::NodeProto* p) { attr_ints(p, "perm", perm); });
}

void index(Emitter& e, N n) {
  int64_t rank = 0;
  if (!Emitter::rank_of(n.input(0), &rank)) {
    e.fail(n, "the rank of the indexed tensor must be known for ONNX export");
  }
  // The index of each indexed dim (by dim) and the rank of each index.
  std::vector<std::pair<int64_t, std::string>> indexed;
  int64_t index_rank = 0;
  int64_t dim = 0;
  for (const ir::Value* item : e.list_items(n.input(1), n)) {
    if (Emitter::is_none(item)) {
      ++dim;
      continue;
    }
    int64_t r = 0;
    if (!Emitter::rank_of(item, &r))
      e.fail(n, "the rank of an index must be known for ONNX export");
    if (e.dtype(item) == DType::Bool) {
      // NonZero's rows: one [M] index per dim the mask covers.
      const std::string nz = e.add1("NonZero", {e.name(item)});
      for (int64_t j = 0; j < r; ++j) {
        indexed.emplace_back(
            dim + j, e.add1("Gather", {nz, e.const_scalar(static_cast<double>(j), DType::Int64)},
                            [](onnx::NodeProto* p) { attr_int(p, "axis", 0); }));
      }
      index_rank = std::max<int64_t>(index_rank, 1);
      dim += r;
    } else {
      indexed.emplace_back(dim, e.name_as(item, DType::Int64));
      index_rank = std::max(index_rank, r);
      ++dim;
    }
  }
  if (dim > rank) e.fail(n, "too many indices for the tensor's rank");
  const std::string x = e.name(n.input(0));
  if (indexed.empty()) {
    e.bind(n.output(), e.add1("Identity", {x}));
    return;
  }
  if (indexed.size() == 1) {
    const int64_t axis = indexed[0].first;
    e.bind(n.output(), e.add1("Gather", {x, indexed[0].second},
                              [axis](onnx::NodeProto* p) { attr_int(p, "axis", axis); }));
    return;
  }
  // Broadcast the indices to one shape and stack them: [B..., k].
  std::string sum = indexed[0].second;
  for (size_t i = 1; i < indexed.size(); ++i) sum = e.add1("Add", {sum, indexed[i].second});
  const std::string shape = e.add1("Shape", {sum});
  std::vector<std::string> parts;
  for (const auto& ix : indexed) {
    parts.push_back(
        e.add1("Unsqueeze", {e.add1("Expand", {ix.second, shape}), e.const_ints({-1})}));
  }
  const std::string stacked =
      e.add1("Concat", parts, [](onnx::NodeProto* p) { attr_int(p, "axis", -1); });
  // x with the indexed dims first, the others after in order.
  std::vector<int64_t> perm, rest;
  for (const auto& ix : indexed) perm.push_back(ix.first);
  for (int64_t d = 0; d < rank; ++d) {
    if (std::find(perm.begin(), perm.end(), d) == perm.end()) rest.push_back(d);
  }
  std::vector<int64_t> full = perm;
  full.insert(full.end(), rest.begin(), rest.end());
  std::vector<int64_t> identity(static_cast<size_t>(rank));
  std::iota(identity.begin(), identity.end(), 0);
  const std::string xt = full == identity ? x : transpose(e, x, full);
  std::string y = e.add1("GatherND", {xt, stacked});
  bool adjacent = true;
  for (size_t i = 1; i < perm.size(); ++i) adjacent = adjacent && perm[i] == perm[i - 1] + 1;
  const int64_t before = perm[0];
  if (adjacent && before > 0) {
    // y is [B..., before..., after...]; PyTorch's is [before..., B..., after...].
    const int64_t out_rank = index_rank + rank - static_cast<int64_t>(perm.size());
    std::vector<int64_t> back;
    for (int64_t d = 0; d < before; ++d) back.push_back(index_rank + d);
    for (int64_t d = 0; d < index_rank; ++d) back.push_back(d);
    for (int64_t d = index_rank + before; d < out_rank; ++d) back.push_back(d);
    y = transpose(e, y, back);
  }
  e.bind(n.output(), y);
}

}  // namespace

void add_advanced_index_exports(std::map<std::string, ExportFn>& m) {
  m["aten::index"] = index;
}

}  // namespace d2s::onnx_io
