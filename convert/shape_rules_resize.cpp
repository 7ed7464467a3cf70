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

// upsample_*.vec(input, output_size, [align_corners,] scale_factors): the scale factors at
// `scales_at` (2 for nearest, which has no align_corners; 3 for the interpolating modes).
Dims resample_shape(const Dims& s, const Args& a, size_t spatial, size_t scales_at) {
  Dims out(s.begin(), s.end() - static_cast<std::ptrdiff_t>(spatial));
  auto sizes = known_ints(a, 1, spatial);
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

// pixel_shuffle (`up`: channels / r², spatial dims * r) and pixel_unshuffle (the inverse).
std::optional<Dims> pixel_shuffle_shape(const Dims& s, const Args& a, bool up) {
  const auto r = a.int_at(1);
  if (s.size() < 3) return std::nullopt;
  Dims out = s;
  const size_t n = s.size();
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

// A transposed convolution over `spatial` dims, of an input with or without its batch dim.
std::optional<std::vector<Type>> transposed(const Args& a, size_t spatial) {
  const Dims* s = a.shape(0);
  std::optional<Dims> shape;
  if (s && (s->size() == spatial + 1 || s->size() == spatial + 2)) {
    shape = conv_transpose_shape(*s, a, spatial);
  }
  return one(tensor(DType::Float32, shape));
}

// A resampling over `spatial` dims of a batched input (see resample_shape).
std::optional<std::vector<Type>> resampled(const Args& a, size_t spatial, size_t scales_at) {
  const Dims* s = a.shape(0);
  std::optional<Dims> shape;
  if (s && s->size() == spatial + 2) shape = resample_shape(*s, a, spatial, scales_at);
  return one(tensor(DType::Float32, shape));
}

// Pixel shuffling keeps self's dtype.
std::optional<std::vector<Type>> shuffled(const Args& a, bool up) {
  const Dims* s = a.shape(0);
  std::optional<Dims> shape;
  if (s) shape = pixel_shuffle_shape(*s, a, up);
  return one(tensor(a.type(0).dtype, shape));
}

}  // namespace

void add_resize_rules(RuleTable& t) {
  t.add({"aten::conv_transpose1d"},
        [](const Args& a, const ir::Node&) { return transposed(a, 1); });
  t.add({"aten::conv_transpose2d"},
        [](const Args& a, const ir::Node&) { return transposed(a, 2); });
  t.add({"aten::upsample_nearest1d"},
        [](const Args& a, const ir::Node&) { return resampled(a, 1, 2); });
  t.add({"aten::upsample_nearest2d"},
        [](const Args& a, const ir::Node&) { return resampled(a, 2, 2); });
  t.add({"aten::upsample_linear1d"},
        [](const Args& a, const ir::Node&) { return resampled(a, 1, 3); });
  t.add({"aten::upsample_bilinear2d", "aten::upsample_bicubic2d"},
        [](const Args& a, const ir::Node&) { return resampled(a, 2, 3); });
  t.add({"aten::upsample_trilinear3d"},
        [](const Args& a, const ir::Node&) { return resampled(a, 3, 3); });
  t.add({"aten::pixel_shuffle"}, [](const Args& a, const ir::Node&) { return shuffled(a, true); });
  t.add({"aten::pixel_unshuffle"},
        [](const Args& a, const ir::Node&) { return shuffled(a, false); });
  t.add({"aten::pad"}, [](const Args& a, const ir::Node&) {
    const Dims* s = a.shape(0);
    std::optional<Dims> shape;
    if (s) shape = pad_shape(*s, a);
    return one(tensor(DType::Float32, shape));
  });
  t.add({"aten::__interpolate"}, [](const Args& a, const ir::Node&) {
    const Dims* s = a.shape(0);
    std::optional<Dims> shape;
    if (s && s->size() >= 3) shape = interpolate_shape(*s, a);
    return one(tensor(DType::Float32, shape));
  });
}

}  // namespace d2s::convert::shape_detail
