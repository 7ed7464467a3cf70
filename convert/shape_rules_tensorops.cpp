// Shape rules of the tensor operations of core/ops/kernels_tensorops.cpp that return a list
// (nonzero_numpy, i.e. nonzero(as_tuple=True), and one-argument where give one 1-D long
// tensor per dim of self, each as long as self has nonzero elements: unknown here), and
// of core/ops/kernels_diagonal.cpp (diagonal, diagonal_scatter, diag_embed) and as_strided (its
// size argument).
#include <algorithm>
#include <cstdlib>

#include "convert/shape_rules.h"
#include "convert/shape_rules_util.h"

namespace d2s::convert::shape_detail {

namespace {

std::optional<int64_t> wrapped(std::optional<int64_t> d, size_t rank) {
  if (!d) return std::nullopt;
  const int64_t n = static_cast<int64_t>(rank);
  const int64_t w = *d < 0 ? *d + n : *d;
  if (w < 0 || w >= n) return std::nullopt;
  return w;
}

// diagonal(offset, dim1, dim2) of a tensor of dims `s`: the others, then the diagonal's
// length (known when both dims and the offset are).
std::optional<Dims> diagonal_dims(const Dims& s, std::optional<int64_t> offset,
                                  std::optional<int64_t> dim1, std::optional<int64_t> dim2) {
  auto d1 = wrapped(dim1, s.size()), d2 = wrapped(dim2, s.size());
  if (!d1 || !d2 || *d1 == *d2) return std::nullopt;
  Dims out;
  for (size_t d = 0; d < s.size(); ++d) {
    if (static_cast<int64_t>(d) != *d1 && static_cast<int64_t>(d) != *d2) out.push_back(s[d]);
  }
  const Dim &a = s[static_cast<size_t>(*d1)], &b = s[static_cast<size_t>(*d2)];
  if (offset && a.is_known() && b.is_known()) {
    const int64_t k = *offset;
    const int64_t len = k >= 0 ? std::min(a.size, b.size - k) : std::min(a.size + k, b.size);
    out.push_back(Dim::known(std::max<int64_t>(len, 0)));
  } else {
    out.push_back(Dim{});
  }
  return out;
}

}  // namespace

void add_tensorops_rules(RuleTable& t) {
  t.add({"aten::diagonal"}, [](const Args& a, const ir::Node&) {
    const Dims* s = a.shape(0);
    std::optional<Dims> out;
    if (s) out = diagonal_dims(*s, a.int_at(1), a.int_at(2), a.int_at(3));
    return one(tensor(a.type(0).dtype, out));
  });
  t.add({"aten::as_strided"},
        [](const Args& a, const ir::Node&) { return one(tensor(a.type(0).dtype, a.dims_at(1))); });
  t.add({"aten::diagonal_scatter", "aten::select_scatter", "aten::slice_scatter"},
        [](const Args& a, const ir::Node&) { return one(tensor(a.type(0).dtype, same_shape(a))); });
  // x.T: the dims reversed.
  t.add({"aten::numpy_T"}, [](const Args& a, const ir::Node&) {
    const Dims* s = a.shape(0);
    std::optional<Dims> out;
    if (s) out = Dims(s->rbegin(), s->rend());
    return one(tensor(a.type(0).dtype, out));
  });
  // The last dim, |offset| longer, twice, at dim1 and dim2 of a rank one higher.
  t.add({"aten::diag_embed"}, [](const Args& a, const ir::Node&) {
    const Dims* s = a.shape(0);
    std::optional<Dims> out;
    auto offset = a.int_at(1);
    if (s && !s->empty() && offset) {
      const size_t n = s->size() + 1;
      auto d1 = wrapped(a.int_at(2), n), d2 = wrapped(a.int_at(3), n);
      if (d1 && d2 && *d1 != *d2) {
        const Dim& last = s->back();
        const Dim side = last.is_known() ? Dim::known(last.size + std::abs(*offset)) : Dim{};
        out = Dims{};
        for (size_t d = 0, j = 0; d < n; ++d) {
          const bool diag = static_cast<int64_t>(d) == *d1 || static_cast<int64_t>(d) == *d2;
          out->push_back(diag ? side : (*s)[j++]);
        }
      }
    }
    return one(tensor(a.type(0).dtype, out));
  });
  // nonzero(as_tuple=True): one 1-D long tensor per dim of self, each as long as self
  // has nonzero elements (unknown here). where(condition) is with where's rule.
  t.add({"aten::nonzero_numpy"}, [](const Args&, const ir::Node&) {
    return one(Type::list(tensor(DType::Int64, Dims{Dim{}})));
  });
}

}  // namespace d2s::convert::shape_detail
