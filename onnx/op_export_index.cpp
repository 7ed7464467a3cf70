// The ONNX mapping of the ops along one dim (core/kernels_sort.cpp) and of nonzero:
// topk → TopK, sort → TopK over the whole dim, cumsum → CumSum, gather →
// GatherElements, scatter (src, value) → ScatterElements, scatter_add →
// ScatterElements(reduction="add") (opset 16 and later), flip → Slice with step -1,
// nonzero → NonZero + Transpose. ONNX's index inputs must be in range, as PyTorch's.
#include <limits>

#include "core/error.h"
#include "onnx/export_emitter.h"

namespace d2s::onnx_io {

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

// TopK with k (a constant or a graph int) on `axis`; values and indices.
void top_k(Emitter& e, N n, const std::string& k, int64_t dim, bool largest) {
  onnx::NodeProto* p =
      e.add("TopK", {e.name(n.input(0)), k}, {e.fresh("values"), e.fresh("indices")});
  attr_int(p, "axis", dim);
  attr_int(p, "largest", largest);
  attr_int(p, "sorted", 1);
  e.bind(n.output(0), p->output(0));
  e.bind(n.output(1), p->output(1));
}

void topk(Emitter& e, N n) {
  const std::string k = e.add1("Reshape", {e.name_as(n.input(1), DType::Int64), e.const_ints({1})});
  top_k(e, n, k, axis(e, n, 2, -1), const_int(e, n, 3, 1, "largest") != 0);
}

// sort: TopK of the dim's whole size. ONNX's TopK is not stable for equal values.
void sort(Emitter& e, N n, size_t dim_at, size_t descending_at) {
  const int64_t dim = axis(e, n, dim_at, -1);
  const std::string shape = e.add1("Shape", {e.name(n.input(0))});
  const std::string size = e.add1("Gather", {shape, e.const_ints({dim})},
                                  [&](onnx::NodeProto* p) { attr_int(p, "axis", 0); });
  top_k(e, n, size, dim, const_int(e, n, descending_at, 0, "descending") != 0);
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
    if (n.overload() == "stable") {
      sort(e, n, 2, 3);
    } else {
      sort(e, n, 1, 2);
    }
  };
  m["aten::cumsum"] = cumsum;
  m["aten::gather"] = gather;
  m["aten::scatter"] = [](Emitter& e, N n) { scatter(e, n, false); };
  m["aten::scatter_add"] = [](Emitter& e, N n) { scatter(e, n, true); };
  m["aten::flip"] = flip;
  m["aten::nonzero"] = nonzero;
}

}  // namespace d2s::onnx_io
