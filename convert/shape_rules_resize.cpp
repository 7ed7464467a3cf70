// Shape rules of transposed convolution, resampling, pixel shuffling and padding
// (core/ops/kernels_conv_transpose.cpp, kernels_resize.cpp, kernels_pad.cpp): leading dims
// carry through with their symbols; each spatial size follows PyTorch's formula where
// the input size and the arguments are known.
#include "convert/shape_rules_util.h"
#include "core/base/error.h"
#include "core/ops/interpolate.h"

namespace d2s::convert::shape_detail {

namespace {

// An int[N] argument expanded to n known values; nullopt when unknown.
std::optional<std::vector<int64_t>> known_ints(const Args& a, size_t i, size_t n) {
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

Dims conv_transpose_shape(const Dims& s, const Args& a, size_t spatial) {
  Dims out(s.begin(), s.end() - static_cast<std::ptrdiff_t>(spatial) - 1);
  const Dims* w = a.shape(1);
  const auto groups = a.int_at(6);
  const bool weight_known = w && w->size() == spatial + 2;
  if (weight_known && (*w)[1].is_known() && groups) {
    out.push_back(Dim::known((*w)[1].size * *groups));
  } else {
    out.push_back(Dim{});
  }
  auto stride = known_ints(a, 3, spatial), padding = known_ints(a, 4, spatial);
  auto output_padding = known_ints(a, 5, spatial), dilation = known_ints(a, 7, spatial);
  for (size_t i = 0; i < spatial; ++i) {
    const Dim& in = s[s.size() - spatial + i];
    const Dim* k = weight_known ? &(*w)[2 + i] : nullptr;
    if (!in.is_known() || !k || !k->is_known() || !stride || !padding || !output_padding ||
        !dilation) {
      out.push_back(Dim{});
      continue;
    }
    const int64_t o = (in.size - 1) * (*stride)[i] - 2 * (*padding)[i] +
                      (*dilation)[i] * (k->size - 1) + (*output_padding)[i] + 1;
    out.push_back(o >= 1 ? Dim::known(o) : Dim{});
  }
  return out;
}

Dims resample_shape(std::string_view k, const Dims& s, const Args& a, size_t spatial) {
  Dims out(s.begin(), s.end() - static_cast<std::ptrdiff_t>(spatial));
  auto sizes = known_ints(a, 1, spatial);
  const size_t scales_at = k.find("nearest") == std::string_view::npos ? 3 : 2;
  const std::optional<IValue> scales = a.value(scales_at);
  for (size_t i = 0; i < spatial; ++i) {
    const Dim& in = s[s.size() - spatial + i];
    if (a.is_none(scales_at) && sizes) {
      out.push_back(Dim::known((*sizes)[i]));
    } else if (a.is_none(1) && scales && scales->is_list() && scales->items().size() == spatial &&
               in.is_known()) {
      out.push_back(Dim::known(
          static_cast<int64_t>(static_cast<double>(in.size) * scales->items()[i].to_double())));
    } else {
      out.push_back(Dim{});
    }
  }
  return out;
}

std::optional<Dims> pixel_shuffle_shape(std::string_view k, const Dims& s, const Args& a) {
  const auto r = a.int_at(1);
  if (s.size() < 3) return std::nullopt;
  Dims out = s;
  const size_t n = s.size();
  const bool up = k == "pixel_shuffle";
  auto scaled = [&](const Dim& d, bool multiply) {
    if (!r || !d.is_known() || *r <= 0) return Dim{};
    return Dim::known(multiply ? d.size * *r : d.size / *r);
  };
  if (r && s[n - 3].is_known() && *r > 0) {
    out[n - 3] = Dim::known(up ? s[n - 3].size / (*r * *r) : s[n - 3].size * *r * *r);
  } else {
    out[n - 3] = Dim{};
  }
  out[n - 2] = scaled(s[n - 2], up);
  out[n - 1] = scaled(s[n - 1], up);
  return out;
}

std::optional<Dims> pad_shape(const Dims& s, const Args& a) {
  std::optional<Dims> pad = a.dims_at(1);
  if (!pad || pad->size() % 2 != 0 || pad->size() > 2 * s.size()) return std::nullopt;
  Dims out = s;
  for (size_t d = 0; d < pad->size() / 2; ++d) {
    const size_t axis = s.size() - 1 - d;
    const Dim& before = (*pad)[2 * d];
    const Dim& after = (*pad)[2 * d + 1];
    if (s[axis].is_known() && before.is_known() && after.is_known()) {
      out[axis] = Dim::known(s[axis].size + before.size + after.size);
    } else {
      out[axis] = Dim{};
    }
  }
  return out;
}

// aten::__interpolate: the spatial sizes of the op it chooses, when its arguments are
// constants and the input's rank is known.
std::optional<Dims> interpolate_shape(const Dims& s, const Args& a) {
  ValueList values;
  for (size_t i = 1; i <= 6; ++i) {
    std::optional<IValue> v = a.value(i);
    if (!v) return std::nullopt;
    values.push_back(*v);
  }
  InterpolateOp op;
  try {
    op = interpolate_op(static_cast<int64_t>(s.size()), "", values[0], values[1], values[2],
                        values[3], values[4], values[5]);
  } catch (const Error&) {
    return std::nullopt;  // the kernel reports it when the graph runs
  }
  Dims out(s.begin(), s.begin() + 2);
  const IValue& sizes = op.args[0];
  const IValue& scales = op.args.back();
  for (size_t i = 2; i < s.size(); ++i) {
    if (sizes.is_list()) {
      out.push_back(Dim::known(sizes.items()[i - 2].to_int()));
    } else if (scales.is_list() && s[i].is_known()) {
      out.push_back(Dim::known(static_cast<int64_t>(static_cast<double>(s[i].size) *
                                                    scales.items()[i - 2].to_double())));
    } else {
      out.push_back(Dim{});
    }
  }
  return out;
}

}  // namespace

std::optional<std::vector<Type>> resize_rule(std::string_view k, const Args& a) {
  const bool transpose = in(k, {"conv_transpose1d", "conv_transpose2d"});
  const bool resample =
      in(k, {"upsample_nearest1d", "upsample_nearest2d", "upsample_linear1d", "upsample_bilinear2d",
             "upsample_bicubic2d", "upsample_trilinear3d"});
  const bool shuffle = in(k, {"pixel_shuffle", "pixel_unshuffle"});
  if (!transpose && !resample && !shuffle && k != "pad" && k != "__interpolate") {
    return std::nullopt;
  }
  const Dims* s = a.shape(0);
  std::optional<Dims> shape;
  const size_t spatial = k.find("1d") != std::string_view::npos   ? 1
                         : k.find("3d") != std::string_view::npos ? 3
                                                                  : 2;
  if (s) {
    if (transpose && (s->size() == spatial + 1 || s->size() == spatial + 2)) {
      shape = conv_transpose_shape(*s, a, spatial);
    } else if (resample && s->size() == spatial + 2) {
      shape = resample_shape(k, *s, a, spatial);
    } else if (shuffle) {
      shape = pixel_shuffle_shape(k, *s, a);
    } else if (k == "pad") {
      shape = pad_shape(*s, a);
    } else if (k == "__interpolate" && s->size() >= 3) {
      shape = interpolate_shape(*s, a);
    }
  }
  const Type& self = a.type(0);
  const std::optional<DType> dtype = shuffle ? self.dtype : std::optional<DType>(DType::Float32);
  return std::vector<Type>{tensor(dtype, shape)};
}

}  // namespace d2s::convert::shape_detail
