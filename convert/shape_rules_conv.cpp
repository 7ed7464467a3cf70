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

// What a rule's op slides over its input: a convolution's weight, a pooling window (max
// pooling with a dilation argument, average pooling without), or an adaptive pooling's
// output size.
enum class Window { Conv, MaxPool, AvgPool, Adaptive };

Dims pool_shape(Window window, const Dims& s, const Args& a, size_t spatial) {
  Dims out(s.begin(), s.end() - static_cast<std::ptrdiff_t>(spatial));
  if (window == Window::Adaptive) {
    auto size = ints(a, 1, spatial);
    for (size_t i = 0; i < spatial; ++i) out.push_back(size ? Dim::known((*size)[i]) : Dim{});
    return out;
  }
  const bool is_max = window == Window::MaxPool;
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

// The result of a convolution or pooling over `spatial` dims, of an input with or without
// its batch dim; with `indices`, the argmax indices of max pooling too.
std::optional<std::vector<Type>> windowed(const Args& a, Window window, size_t spatial,
                                          bool indices) {
  const Dims* s = a.shape(0);
  std::optional<Dims> shape;
  if (s && (s->size() == spatial + 1 || s->size() == spatial + 2)) {
    shape =
        window == Window::Conv ? conv_shape(*s, a, spatial) : pool_shape(window, *s, a, spatial);
  }
  std::vector<Type> types{tensor(DType::Float32, shape)};
  if (indices) types.push_back(tensor(DType::Int64, shape));
  return types;
}

}  // namespace

void add_conv_pool_rules(RuleTable& t) {
  using W = Window;
  // Activations: a float of x's shape.
  t.add({"aten::hardtanh", "aten::relu6", "aten::elu", "aten::selu"},
        [](const Args& a, const ir::Node&) { return one(tensor(DType::Float32, same_shape(a))); });
  t.add({"aten::conv1d"},
        [](const Args& a, const ir::Node&) { return windowed(a, W::Conv, 1, false); });
  t.add({"aten::conv2d"},
        [](const Args& a, const ir::Node&) { return windowed(a, W::Conv, 2, false); });
  t.add({"aten::max_pool1d"},
        [](const Args& a, const ir::Node&) { return windowed(a, W::MaxPool, 1, false); });
  t.add({"aten::max_pool2d"},
        [](const Args& a, const ir::Node&) { return windowed(a, W::MaxPool, 2, false); });
  t.add({"aten::max_pool2d_with_indices"},
        [](const Args& a, const ir::Node&) { return windowed(a, W::MaxPool, 2, true); });
  t.add({"aten::avg_pool1d"},
        [](const Args& a, const ir::Node&) { return windowed(a, W::AvgPool, 1, false); });
  t.add({"aten::avg_pool2d"},
        [](const Args& a, const ir::Node&) { return windowed(a, W::AvgPool, 2, false); });
  t.add({"aten::adaptive_avg_pool1d"},
        [](const Args& a, const ir::Node&) { return windowed(a, W::Adaptive, 1, false); });
  t.add({"aten::adaptive_avg_pool2d"},
        [](const Args& a, const ir::Node&) { return windowed(a, W::Adaptive, 2, false); });
  t.add({"aten::adaptive_max_pool2d"},
        [](const Args& a, const ir::Node&) { return windowed(a, W::Adaptive, 2, true); });
}

}  // namespace d2s::convert::shape_detail
