// The ONNX mapping of the ops along one dim (core/ops/kernels_sort.cpp) and of nonzero:
// topk → TopK, sort → TopK over the whole dim, cumsum → CumSum, gather →
// GatherElements, scatter (src, value) → ScatterElements, scatter_add →
// ScatterElements(reduction="add") (opset 16 and later), flip → Slice with step -1,
// nonzero → NonZero + Transpose, argsort → TopK's indices, cumprod → ReduceProd of a
// masked broadcast, roll → Slice + Concat. ONNX's index inputs must be in range, as
// PyTorch's.
#include <limits>

#include "core/base/error.h"
#include "onnx/export_emitter.h"
#include "onnx/tensor_proto.h"

namespace d2s::onnx_io {

// aten::index with tensor indices (op_export_advanced_index.cpp).
void add_advanced_index_exports(std::map<std::string, ExportFn>& m);
// aten::group_norm (op_export_group_norm.cpp).
void add_group_norm_exports(std::map<std::string, ExportFn>& m);
// slice_scatter, select_scatter (op_export_view_scatter.cpp).
void add_view_scatter_exports(std::map<std::string, ExportFn>& m);

namespace {

using N = const ir::Node&;

int64_t const_int(Emitter& e, N n, size_t i, int64_t fallback, const char* what) {
  if (i >= n.inputs().size()) return fallback;
  int64_t v = 0;
  if (Emitter::constant_int(n.input(i), &v)) return v;
  const IValue* c = Emitter::constant(n.input(i));
  if (c && c->is_bool()) return c->to_bool();
  e.fail(n, std::string(what) + " of " + n.kind() + " must be constant for ONNX export");
}

// A constant dim (ONNX takes negative axes as PyTorch does).
int64_t axis(Emitter& e, N n, size_t i, int64_t fallback) {
  return const_int(e, n, i, fallback, "dim");
}

// TopK with k (a constant or a graph int) on `axis`; outputs values and indices.
onnx::NodeProto* top_k(Emitter& e, N n, const std::string& k, int64_t dim, bool largest) {
  onnx::NodeProto* p =
      e.add("TopK", {e.name(n.input(0)), k}, {e.fresh("values"), e.fresh("indices")});
  attr_int(p, "axis", dim);
  attr_int(p, "largest", largest);
  attr_int(p, "sorted", 1);
  return p;
}

void bind_both(Emitter& e, N n, const onnx::NodeProto* p) {
  e.bind(n.output(0), p->output(0));
  e.bind(n.output(1), p->output(1));
}

void topk(Emitter& e, N n) {
  const std::string k = e.add1("Reshape", {e.name_as(n.input(1), DType::Int64), e.const_ints({1})});
  bind_both(e, n, top_k(e, n, k, axis(e, n, 2, -1), const_int(e, n, 3, 1, "largest") != 0));
}

// sort: TopK of the dim's whole size. ONNX's TopK is not stable for equal values.
onnx::NodeProto* sort(Emitter& e, N n, size_t dim_at, size_t descending_at) {
  const int64_t dim = axis(e, n, dim_at, -1);
  const std::string shape = e.add1("Shape", {e.name(n.input(0))});
  const std::string size = e.add1("Gather", {shape, e.const_ints({dim})},
                                  [&](onnx::NodeProto* p) { attr_int(p, "axis", 0); });
  return top_k(e, n, size, dim, const_int(e, n, descending_at, 0, "descending") != 0);
}

void cumsum(Emitter& e, N n) {
  if (n.inputs().size() > 2 && !Emitter::is_none(n.input(2))) {
    e.fail(n, "cumsum's dtype= has no ONNX export in d2s");
  }
  DType d = e.dtype(n.input(0));
  const std::string x = e.name_as(n.input(0), d == DType::Float32 ? d : DType::Int64);
  e.bind(
      n.output(),
      e.add1("CumSum", {x, e.const_scalar(static_cast<double>(axis(e, n, 1, 0)), DType::Int64)}));
}

void gather(Emitter& e, N n) {
  const int64_t dim = axis(e, n, 1, 0);
  e.bind(n.output(), e.add1("GatherElements", {e.name(n.input(0)), e.name(n.input(2))},
                            [&](onnx::NodeProto* p) { attr_int(p, "axis", dim); }));
}

// scatter / scatter_add: ScatterElements (updates of the index's shape; a value is
// expanded to it).
void scatter(Emitter& e, N n, bool add) {
  if (add && e.opset() < 16) {
    e.fail(n, "scatter_add exports as ScatterElements(reduction=\"add\"), which needs opset 16",
           "give d2s export --opset 16 or 17");
  }
  const int64_t dim = axis(e, n, 1, 0);
  const DType d = e.dtype(n.input(0));
  const std::string index = e.name(n.input(2));
  std::string updates;
  if (n.input(3)->type().is_tensor()) {
    updates = e.name_as(n.input(3), d);
  } else {
    const std::string shape = e.add1("Shape", {index});
    updates = e.add1("Expand", {e.name_as(n.input(3), d), shape});
  }
  const std::string out =
      e.add1("ScatterElements", {e.name(n.input(0)), index, updates}, [&](onnx::NodeProto* p) {
        attr_int(p, "axis", dim);
        if (add) {
          auto* a = p->add_attribute();
          a->set_name("reduction");
          a->set_type(onnx::AttributeProto::STRING);
          a->set_s("add");
        }
      });
  e.bind(n.output(), out);
}

// cumprod along dim d of size n: y_j = prod over i <= j of x_i, as the product over i
// of Where(i <= j, x_i, 1) on an [.., n, n, ..] broadcast (O(n^2) elements). This is
// exact for zeros and negatives, which a Log/Exp construction is not; ONNX has no
// CumProd.
void cumprod(Emitter& e, N n) {
  if (n.inputs().size() > 2 && !Emitter::is_none(n.input(2))) {
    e.fail(n, "cumprod's dtype= has no ONNX export in d2s");
  }
  int64_t rank = 0;
  if (!Emitter::rank_of(n.input(0), &rank)) e.fail(n, "the rank of cumprod's input must be known");
  DType d = e.dtype(n.input(0));
  if (d == DType::Bool) d = DType::Int64;
  const std::string x = e.name_as(n.input(0), d);
  if (rank == 0) {
    e.bind(n.output(), e.add1("Identity", {x}));
    return;
  }
  int64_t dim = axis(e, n, 1, 0);
  if (dim < 0) dim += rank;
  // mask[i][j] = i <= j: the upper triangle (Trilu) of an [n, n] of ones (Range would
  // do too, but d2s's importer writes its Range back as an arange `d2s code` cannot call).
  const std::string size = e.add1("Gather", {e.add1("Shape", {x}), e.const_ints({dim})},
                                  [](onnx::NodeProto* p) { attr_int(p, "axis", 0); });
  const std::string square =
      e.add1("Concat", {size, size}, [](onnx::NodeProto* p) { attr_int(p, "axis", 0); });
  const std::string ones = e.add1("ConstantOfShape", {square}, [](onnx::NodeProto* p) {
    auto* a = p->add_attribute();
    a->set_name("value");
    a->set_type(onnx::AttributeProto::TENSOR);
    tensor_to_proto(Tensor::full({1}, 1, DType::Int64), "", a->mutable_t());
  });
  std::string mask =
      e.cast(e.add1("Trilu", {ones}, [](onnx::NodeProto* p) { attr_int(p, "upper", 1); }),
             DType::Int64, DType::Bool);
  // Trailing 1s for the dims after `dim`.
  if (rank - 1 - dim > 0) {
    std::vector<int64_t> axes;
    for (int64_t a = 0; a < rank - 1 - dim; ++a) axes.push_back(2 + a);
    mask = e.add1("Unsqueeze", {mask, e.const_ints(axes)});
  }
  const std::string xs = e.add1("Unsqueeze", {x, e.const_ints({dim + 1})});
  const std::string w = e.add1("Where", {mask, xs, e.const_scalar(1, d)});
  e.bind(n.output(), e.add1("ReduceProd", {w}, [&](onnx::NodeProto* p) {
    attr_ints(p, "axes", {dim});
    attr_int(p, "keepdims", 0);
  }));
}

// roll: per (shift, dim), the last shift % n items of the dim Concat'ed before the
// others (a Slice each). The split point is a constant when the dim's size is known,
// else computed from Shape (Mod by max(n, 1): an empty dim stays empty). No dims rolls
// the flattened tensor and reshapes it back.
void roll(Emitter& e, N n) {
  std::vector<int64_t> shifts, dims;
  if (!Emitter::constant_ints(n.input(1), &shifts)) e.fail(n, "roll's shifts must be constant");
  if (n.inputs().size() > 2 && !Emitter::constant_ints(n.input(2), &dims)) {
    e.fail(n, "roll's dims must be constant");
  }
  int64_t rank = 0;
  if (!Emitter::rank_of(n.input(0), &rank)) e.fail(n, "the rank of roll's input must be known");
  std::string x = e.name(n.input(0));
  const bool flat = dims.empty();
  std::string shape;
  if (flat) {
    if (shifts.size() != 1) e.fail(n, "roll without dims takes one shift");
    shape = e.add1("Shape", {x});
    x = e.add1("Reshape", {x, e.const_ints({-1})});
    dims = {0};
  }
  if (shifts.size() != dims.size()) e.fail(n, "roll's shifts and dims differ in length");
  const ir::Type& t = n.input(0)->type();
  for (size_t i = 0; i < dims.size(); ++i) {
    int64_t dim = dims[i];
    if (!flat && dim < 0) dim += rank;
    std::string split;
    const bool known = !flat && t.is_tensor() && t.shape && (*t.shape)[dim].is_known();
    if (known) {
      const int64_t size = (*t.shape)[dim].size;
      const int64_t k = size ? ((shifts[i] % size) + size) % size : 0;
      split = e.const_ints({size - k});
    } else {
      const std::string size = e.add1("Gather", {e.add1("Shape", {x}), e.const_ints({dim})},
                                      [](onnx::NodeProto* p) { attr_int(p, "axis", 0); });
      const std::string k =
          e.add1("Mod", {e.const_ints({shifts[i]}), e.add1("Max", {size, e.const_ints({1})})});
      split = e.add1("Sub", {size, k});
    }
    const std::string axes = e.const_ints({dim});
    const std::string tail =
        e.add1("Slice", {x, split, e.const_ints({std::numeric_limits<int64_t>::max()}), axes});
    const std::string head = e.add1("Slice", {x, e.const_ints({0}), split, axes});
    x = e.add1("Concat", {tail, head}, [&](onnx::NodeProto* p) { attr_int(p, "axis", dim); });
  }
  if (flat) x = e.add1("Reshape", {x, shape});
  e.bind(n.output(), x);
}

void flip(Emitter& e, N n) {
  std::vector<int64_t> dims;
  if (!Emitter::constant_ints(n.input(1), &dims)) e.fail(n, "flip's dims must be constant");
  const int64_t kMin = std::numeric_limits<int64_t>::min();
  std::vector<int64_t> starts(dims.size(), -1), ends(dims.size(), kMin), steps(dims.size(), -1);
  e.bind(n.output(), e.add1("Slice", {e.name(n.input(0)), e.const_ints(starts), e.const_ints(ends),
                                      e.const_ints(dims), e.const_ints(steps)}));
}

void nonzero(Emitter& e, N n) {
  const std::string nz = e.add1("NonZero", {e.name(n.input(0))});
  e.bind(n.output(), e.add1("Transpose", {nz}, [&](onnx::NodeProto* p) {
    auto* a = p->add_attribute();
    a->set_name("perm");
    a->set_type(onnx::AttributeProto::INTS);
    a->add_ints(1);
    a->add_ints(0);
  }));
}

}  // namespace

void add_index_exports(std::map<std::string, ExportFn>& m) {
  m["aten::topk"] = topk;
  m["aten::sort"] = [](Emitter& e, N n) {
    bind_both(e, n, n.overload() == "stable" ? sort(e, n, 2, 3) : sort(e, n, 1, 2));
  };
  // argsort: sort's indices (TopK, not stable either).
  m["aten::argsort"] = [](Emitter& e, N n) { e.bind(n.output(), sort(e, n, 1, 2)->output(1)); };
  m["aten::cumprod"] = cumprod;
  m["aten::roll"] = roll;
  add_advanced_index_exports(m);
  add_group_norm_exports(m);
  add_view_scatter_exports(m);
  m["aten::cumsum"] = cumsum;
  m["aten::gather"] = gather;
  m["aten::scatter"] = [](Emitter& e, N n) { scatter(e, n, false); };
  m["aten::scatter_add"] = [](Emitter& e, N n) { scatter(e, n, true); };
  m["aten::flip"] = flip;
  m["aten::nonzero"] = nonzero;
}

}  // namespace d2s::onnx_io
