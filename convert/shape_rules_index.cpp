// Shape rules of advanced indexing (core/ops/kernels_index.cpp), of the sorting, scanning,
// gathering and scattering ops (kernels_sort.cpp) and of kernels_tensorops.cpp: aten::index's
// result is the broadcast of its index tensors in place of the indexed dims (first, when those are
// not adjacent); a mask stands for its dims and gives one dim of unknown size.
#include <map>

#include "convert/shape_rules.h"
#include "convert/shape_rules_util.h"
#include "core/base/error.h"
#include "core/ops/kernels_einsum.h"

namespace d2s::convert::shape_detail {

namespace {

std::optional<Dims> index_shape(const Dims& self, const ir::Value* indices) {
  const ir::Node* list = indices->node();
  if (!ir::is_unchanged_list(*indices)) return std::nullopt;
  std::optional<Dims> b;
  std::vector<size_t> indexed;  // dims of self that an index tensor covers
  size_t at = 0;
  for (ir::Value* item : list->inputs()) {
    const Type& t = item->type();
    if (t.kind == TypeKind::None) {
      ++at;
      continue;
    }
    if (!t.is_tensor() || !t.shape || !t.dtype) return std::nullopt;
    Dims part = *t.shape;
    size_t covers = 1;
    if (*t.dtype == DType::Bool) {
      covers = t.shape->size();
      part = Dims{Dim{}};  // the number of true elements
    }
    for (size_t j = 0; j < covers; ++j) indexed.push_back(at + j);
    at += covers;
    b = b ? broadcast_dims(*b, part) : part;
  }
  if (at > self.size()) return std::nullopt;
  if (!b) return self;
  const bool adjacent = indexed.back() - indexed.front() + 1 == indexed.size();
  Dims out;
  for (size_t d = 0; adjacent && d < indexed.front(); ++d) out.push_back(self[d]);
  out.insert(out.end(), b->begin(), b->end());
  for (size_t d = adjacent ? indexed.back() + 1 : 0; d < self.size(); ++d) {
    if (!adjacent && std::find(indexed.begin(), indexed.end(), d) != indexed.end()) continue;
    out.push_back(self[d]);
  }
  return out;
}

// einsum's output: each output letter's size from an operand that has it (not 1 where
// another operand broadcasts); the equation parsed as the kernel parses it.
std::optional<Dims> einsum_shape(const Args& a, const ir::Node& n) {
  auto eq = a.value(0);
  if (!eq || !eq->is_string() || n.inputs().size() < 2) return std::nullopt;
  const ir::Node* list = n.input(1)->node();
  if (!ir::is_unchanged_list(*n.input(1))) return std::nullopt;
  std::vector<int64_t> ranks;
  for (const ir::Value* operand : list->inputs()) {
    const Type& t = operand->type();
    if (!t.shape) return std::nullopt;  // "..." covers what the rank leaves
    ranks.push_back(static_cast<int64_t>(t.shape->size()));
  }
  kernels::EinsumEquation e;
  try {
    e = kernels::parse_einsum(eq->to_string(), ranks);
  } catch (const Error&) {
    return std::nullopt;  // the kernel reports it when the graph runs
  }
  std::map<char, Dim> size;
  for (size_t k = 0; k < list->inputs().size(); ++k) {
    const Type& t = list->input(k)->type();
    if (!t.shape || t.shape->size() != e.inputs[k].size()) return std::nullopt;
    for (size_t i = 0; i < e.inputs[k].size(); ++i) {
      const Dim& d = (*t.shape)[i];
      auto it = size.find(e.inputs[k][i]);
      if (it == size.end() || (it->second.is_known() && it->second.size == 1)) {
        size[e.inputs[k][i]] = d;
      }
    }
  }
  Dims out;
  for (char c : e.output) out.push_back(size[c]);
  return out;
}

// sort and topk: (values, indices) of self's shape, topk's dim `k` long.
std::optional<std::vector<Type>> values_and_indices(const Args& a, const ir::Node& n, bool topk) {
  std::optional<Dims> shape = same_shape(a);
  if (topk && shape) {
    auto dim = a.int_at(2);
    auto w = dim ? wrap(*dim, shape->size()) : std::nullopt;
    if (!w) {
      shape.reset();
    } else {
      auto kk = a.int_at(1);
      (*shape)[*w] = kk ? Dim::known(*kk) : Args::dim_of_value(n.input(1));
    }
  }
  return std::vector<Type>{tensor(a.type(0).dtype, shape), tensor(DType::Int64, shape)};
}

}  // namespace

void add_index_sort_rules(RuleTable& t) {
  t.add({"aten::index"}, [](const Args& a, const ir::Node& n) {
    const Dims* s = a.shape(0);
    std::optional<Dims> shape;
    if (s && n.inputs().size() > 1) shape = index_shape(*s, n.input(1));
    return one(tensor(a.type(0).dtype, shape));
  });
  t.add({"aten::einsum"}, [](const Args& a, const ir::Node& n) {
    return one(tensor(DType::Float32, einsum_shape(a, n)));
  });
  t.add({"aten::fmod"}, [](const Args& a, const ir::Node&) {
    const Dims *s = a.shape(0), *o = a.shape(1);
    std::optional<Dims> shape;
    if (s && o) {
      shape = broadcast_dims(*s, *o);
    } else if (s && a.type(1).kind != TypeKind::Tensor) {
      shape = *s;
    }
    return one(tensor(promote({a.type(0), a.type(1)}), shape));
  });
  t.add({"aten::baddbmm"}, [](const Args& a, const ir::Node&) {
    const Dims *b1 = a.shape(1), *b2 = a.shape(2);
    std::optional<Dims> shape;
    if (b1 && b2 && b1->size() == 3 && b2->size() == 3) shape = Dims{(*b1)[0], (*b1)[1], (*b2)[2]};
    return one(tensor(promote({a.type(1), a.type(2)}), shape));
  });
  t.add({"aten::nonzero"}, [](const Args& a, const ir::Node&) {
    const Dims* s = a.shape(0);
    std::optional<Dims> shape;
    if (s) shape = Dims{Dim{}, Dim::known(static_cast<int64_t>(s->size()))};
    return one(tensor(DType::Int64, shape));
  });
  t.add({"aten::new_zeros", "aten::new_ones", "aten::new_full", "aten::new_empty"},
        [](const Args& a, const ir::Node&) {
          std::optional<DType> d = a.type(0).dtype;
          if (auto given = a.dtype_arg()) d = given;
          return one(tensor(d, a.dims_at(1)));
        });
  t.add({"aten::index_put", "aten::index_put_", "aten::scatter", "aten::scatter_",
         "aten::scatter_add", "aten::scatter_add_"},
        [](const Args& a, const ir::Node&) { return one(a.type(0)); });
  t.add({"aten::flip", "aten::roll"},
        [](const Args& a, const ir::Node&) { return one(tensor(a.type(0).dtype, same_shape(a))); });
  t.add({"aten::cumsum", "aten::cumprod"}, [](const Args& a, const ir::Node&) {
    std::optional<DType> d = a.type(0).dtype;
    if (d && *d != DType::Float32) d = DType::Int64;
    if (auto given = a.dtype_arg()) d = given;
    return one(tensor(d, same_shape(a)));
  });
  t.add({"aten::argsort"},
        [](const Args& a, const ir::Node&) { return one(tensor(DType::Int64, same_shape(a))); });
  t.add({"aten::gather"}, [](const Args& a, const ir::Node&) {
    const Dims* index = a.shape(2);
    return one(tensor(a.type(0).dtype, index ? std::optional<Dims>(*index) : std::nullopt));
  });
  t.add({"aten::sort"},
        [](const Args& a, const ir::Node& n) { return values_and_indices(a, n, false); });
  t.add({"aten::topk"},
        [](const Args& a, const ir::Node& n) { return values_and_indices(a, n, true); });
}

}  // namespace d2s::convert::shape_detail
