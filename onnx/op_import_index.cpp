// ONNX's indexing ops read back as d2s's, so that d2s's exports of sort, topk, argsort,
// advanced indexing and index writes (op_export_index.cpp, op_export_advanced_index.cpp)
// round-trip:
// - NonZero → aten::nonzero transposed (ONNX's is [rank, count], PyTorch's [count, rank]).
// - TopK → aten::topk (k known when importing, or read with aten::Int at run time).
// - GatherND (batch_dims 0) → aten::index by the index's last-axis columns: PyTorch's
//   leading advanced indices put the broadcast index dims first, as GatherND does.
// - ScatterND (reduction none or add) → aten::index_put of the same columns
//   (accumulate for add); its updates are [index dims..., rest...], the shape
//   index_put's values take there.
#include "core/base/error.h"
#include "onnx/import_context.h"
#include "onnx/op_import_util.h"

namespace d2s::onnx_io {

namespace {

using namespace import_util;

Outs top_k(I& m, Ins ins) {
  V x = in(m, ins, 0), k = in(m, ins, 1);
  V kv = nullptr;
  if (m.known(k)) {
    kv = m.c_int(m.need_ints(k, "K").at(0));
  } else {
    kv = m.op("aten::Int", {k}, std::nullopt);
    kv->set_type(ir::Type::of_int());
  }
  std::vector<V> outs =
      m.op_n("aten::topk",
             {x, kv, m.c_int(m.attr_int("axis", -1)), m.c_bool(m.attr_int("largest", 1) != 0),
              m.c_bool(m.attr_int("sorted", 1) != 0)},
             2, I::dtype(x));
  return {typed(outs[0], I::dtype(x), std::nullopt), typed(outs[1], DType::Int64, std::nullopt)};
}

// The columns of an index tensor [..., k] (aten::unbind on its last dim) as the
// Tensor?[] list aten::index takes.
V index_columns(I& m, V indices) {
  V list = m.op("aten::unbind", {indices, m.c_int(-1)}, std::nullopt);
  list->set_type(ir::Type::list(ir::Type::tensor(DType::Int64)));
  return list;
}

Outs gather_nd(I& m, Ins ins) {
  if (m.attr_int("batch_dims", 0) != 0) m.unsupported("batch_dims", "GatherND batch_dims");
  V x = in(m, ins, 0);
  return {m.op("aten::index", {x, index_columns(m, in(m, ins, 1))}, I::dtype(x))};
}

Outs scatter_nd(I& m, Ins ins) {
  const std::string reduction = m.attr_string("reduction", "none");
  if (reduction != "none" && reduction != "add") {
    m.unsupported("reduction " + reduction, "ScatterND reduction " + reduction);
  }
  V x = in(m, ins, 0);
  return {m.op("aten::index_put",
               {x, index_columns(m, in(m, ins, 1)), in(m, ins, 2), m.c_bool(reduction == "add")},
               I::dtype(x))};
}

Outs non_zero(I& m, Ins ins) {
  V nz = m.op("aten::nonzero", {in(m, ins, 0)}, DType::Int64);
  return {m.op("aten::transpose", {nz, m.c_int(0), m.c_int(1)}, DType::Int64)};
}

}  // namespace

void add_index_imports(std::map<std::string, ImportFn>& table) {
  table["NonZero"] = non_zero;
  table["TopK"] = top_k;
  table["GatherND"] = gather_nd;
  table["ScatterND"] = scatter_nd;
}

}  // namespace d2s::onnx_io
