// Shape rules of convolution and pooling (core/ops/kernels_conv.cpp, kernels_pool.cpp)
// and of the activations of core/ops/kernels_activation.cpp (the input's shape):
// leading dims (batch, channels) carry through with their symbols, a convolution's
// channels are its weight's first dim, and each spatial size follows PyTorch's output
// formula where the input size and the arguments are known.
#include "convert/shape_rules_util.h"

namespace d2s::convert::shape_detail {

namespace {

// An int[N] argument expanded to n values; nullopt when unknown.
std::optional<std::vector<int64_t>> ints(const Args& a, size_t i, size_t n) {
  std::optional<Dims> d = a.dims_at(i);
  if (!d || (d->size() != 1 && d->size() != n)) return std::nullopt;
  std::vector<int64_t> out;
  for (size_t j = 0; j < n; ++j) {
    const Dim& x = (*d)[d->size() == 1 ? 0 : j];
    if (!x.is_known()) return std::nullopt;
    out.push_back(x.size);
  }
  return out;
}

int64_t floor_div(int64_t a, int64_t b) {
  const int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

Dims conv_shape(const Dims& s, const Args& a, size_t spatial) {
  Dims out(s.begin(), s.end() - static_cast<std::ptrdiff_t>(spatial) - 1);
  const Dims* w = a.shape(1);
  out.push_back(w && !w->empty() ? (*w)[0] : Dim{});
  auto stride = ints(a, 3, spatial), dilation = ints(a, 5, spatial);
  auto padding_value = a.value(4);
  const bool same =
      padding_value && padding_value->is_string() && padding_value->to_string() == "same";
  const bool valid = padding_value && padding_value->is_string() && !same;
  auto padding = padding_value && padding_value->is_string() ? std::nullopt : ints(a, 4, spatial);
  for (size_t i = 0; i < spatial; ++i) {
    const Dim& in = s[s.size() - spatial + i];
    const Dim* k = w && w->size() == spatial + 2 ? &(*w)[2 + i] : nullptr;
    if (same) {
      out.push_back(in);
      continue;
    }
    const int64_t pad = valid ? 0 : padding ? (*padding)[i] : -1;
    if (!in.is_known() || !k || !k->is_known() || !stride || !dilation || pad < 0) {
      out.push_back(Dim{});
      continue;
    }
    const int64_t ek = (*dilation)[i] * (k->size - 1) + 1;
    out.push_back(Dim::known((in.size + 2 * pad - ek) / (*stride)[i] + 1));
  }
  return out;
}

Dims pool_shape(std::string_view k, const Dims& s, const Args& a, size_t spatial) {
  Dims out(s.begin(), s.end() - static_cast<std::ptrdiff_t>(spatial));
  if (k.rfind("adaptive_", 0) == 0) {
    auto size = ints(a, 1, spatial);
    for (size_t i = 0; i < spatial; ++i) out.push_back(size ? Dim::known((*size)[i]) : Dim{});
    return out;
  }
  const bool is_max = k.rfind("max_", 0) == 0;
  auto kernel = ints(a, 1, spatial), padding = ints(a, 3, spatial);
  auto stride_dims = a.dims_at(2);
  auto stride = stride_dims && stride_dims->empty() ? kernel : ints(a, 2, spatial);
  auto dilation = is_max ? ints(a, 4, spatial) : std::vector<int64_t>(spatial, 1);
  auto ceil_mode = a.bool_at(is_max ? 5 : 4);
  for (size_t i = 0; i < spatial; ++i) {
    const Dim& in = s[s.size() - spatial + i];
    if (!in.is_known() || !kernel || !padding || !stride || !dilation || !ceil_mode ||
        (*stride)[i] <= 0) {
      out.push_back(Dim{});
      continue;
    }
    const int64_t kk = (*kernel)[i], p = (*padding)[i], st = (*stride)[i], d = (*dilation)[i];
    int64_t o = floor_div(in.size + 2 * p - d * (kk - 1) - 1 + (*ceil_mode ? st - 1 : 0), st) + 1;
    if (*ceil_mode && (o - 1) * st >= in.size + p) --o;
    out.push_back(o >= 0 ? Dim::known(o) : Dim{});
  }
  return out;
}

}  // namespace

std::optional<std::vector<Type>> conv_pool_rule(std::string_view k, const Args& a) {
  if (in(k, {"hardtanh", "relu6", "elu", "selu"})) {  // activations: a float of x's shape
    const Dims* s = a.shape(0);
    return std::vector<Type>{tensor(DType::Float32, s ? std::optional<Dims>(*s) : std::nullopt)};
  }
  const bool conv = in(k, {"conv1d", "conv2d"});
  const bool pool =
      in(k, {"max_pool1d", "max_pool2d", "max_pool2d_with_indices", "avg_pool1d", "avg_pool2d",
             "adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_max_pool2d"});
  if (!conv && !pool) return std::nullopt;
  const size_t spatial = k.find("1d") != std::string_view::npos ? 1 : 2;
  const Dims* s = a.shape(0);
  std::optional<Dims> shape;
  if (s && (s->size() == spatial + 1 || s->size() == spatial + 2)) {
    shape = conv ? conv_shape(*s, a, spatial) : pool_shape(k, *s, a, spatial);
  }
  std::vector<Type> types{tensor(DType::Float32, shape)};
  if (in(k, {"max_pool2d_with_indices", "adaptive_max_pool2d"})) {
    types.push_back(tensor(DType::Int64, shape));
  }
  return types;
}

}  // namespace d2s::convert::shape_detail
