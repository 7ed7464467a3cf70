// F.interpolate's argument processing (interpolate.h), in the order of PyTorch 1.13's
// torch.nn.functional.interpolate, with its messages.
#include "core/ops/interpolate.h"

#include <cstdio>
#include <cstdlib>

#include "core/base/error.h"

namespace d2s {

namespace {

bool is_sequence(const IValue& v) {
  return v.is_list() || v.is_tuple();
}

[[noreturn]] void fail(const std::string& message, const std::string& hint = {}) {
  throw Error(message, SourceRange{}, hint);
}

}  // namespace

std::string plain_repr(const IValue& v) {
  if (v.is_none()) return "None";
  if (v.is_bool()) return v.to_bool() ? "True" : "False";
  if (v.is_int()) return std::to_string(v.to_int());
  if (v.is_double()) {
    const double d = v.to_double();
    char buf[32];
    for (int precision = 1; precision <= 17; ++precision) {
      std::snprintf(buf, sizeof buf, "%.*g", precision, d);
      if (std::strtod(buf, nullptr) == d) break;
    }
    std::string s = buf;
    if (s.find_first_of(".eni") == std::string::npos) s += ".0";
    return s;
  }
  if (is_sequence(v)) {
    std::string out = v.is_tuple() ? "(" : "[";
    for (size_t i = 0; i < v.items().size(); ++i) out += (i ? ", " : "") + plain_repr(v.items()[i]);
    if (v.is_tuple() && v.items().size() == 1) out += ",";
    return out + (v.is_tuple() ? ")" : "]");
  }
  if (v.is_string()) return "'" + v.to_string() + "'";
  return v.type_name();
}

std::string spatial_repr(const std::vector<int64_t>& shape) {
  std::string out = "[";
  for (size_t i = 2; i < shape.size(); ++i) out += (i > 2 ? ", " : "") + std::to_string(shape[i]);
  return out + "]";
}

InterpolateOp interpolate_op(int64_t rank, const std::string& spatial, const IValue& size,
                             const IValue& scale_factor, const IValue& mode_value,
                             const IValue& align_corners_value, const IValue& recompute,
                             const IValue& antialias) {
  const auto repr = plain_repr;
  if (!mode_value.is_string()) fail("TypeError: interpolate() mode must be a str");
  const std::string mode = mode_value.to_string();
  IValue align_corners = align_corners_value;
  if (mode == "nearest" || mode == "area" || mode == "nearest-exact") {
    if (!align_corners.is_none()) {
      fail(
          "ValueError: align_corners option can only be set with the interpolating modes: "
          "linear | bilinear | bicubic | trilinear");
    }
  } else if (align_corners.is_none()) {
    align_corners = IValue(false);
  }
  const int64_t dim = rank - 2;
  IValue output_size, scale_factors;
  if (!size.is_none() && !scale_factor.is_none()) {
    fail("ValueError: only one of size or scale_factor should be defined");
  } else if (!size.is_none()) {
    if (is_sequence(size)) {
      if (static_cast<int64_t>(size.items().size()) != dim) {
        fail(
            "ValueError: Input and output must have the same number of spatial dimensions, but "
            "got input with spatial dimensions of " +
            spatial + " and output size of " + repr(size) +
            ". Please provide input tensor in (N, C, d1, d2, ...,dK) format and output size in "
            "(o1, o2, ...,oK) format.");
      }
      std::vector<int64_t> items;
      for (const IValue& v : size.items()) {
        if (!v.is_int()) fail("TypeError: interpolate() size must hold ints, not " + repr(v));
        items.push_back(v.to_int());
      }
      output_size = IValue::int_list(items);
    } else {
      if (!size.is_int()) fail("TypeError: interpolate() size must be an int, not " + repr(size));
      output_size = IValue::int_list(std::vector<int64_t>(dim > 0 ? dim : 0, size.to_int()));
    }
  } else if (!scale_factor.is_none()) {
    ValueList items;
    if (is_sequence(scale_factor)) {
      if (static_cast<int64_t>(scale_factor.items().size()) != dim) {
        fail(
            "ValueError: Input and scale_factor must have the same number of spatial dimensions, "
            "but got input with spatial dimensions of " +
            spatial + " and scale_factor of shape " + repr(scale_factor) +
            ". Please provide input tensor in (N, C, d1, d2, ...,dK) format and scale_factor in "
            "(s1, s2, ...,sK) format.");
      }
      for (const IValue& v : scale_factor.items()) {
        if (!v.is_number()) fail("TypeError: interpolate() scale_factor must hold numbers");
        items.push_back(IValue(v.to_double()));
      }
    } else {
      if (!scale_factor.is_number()) {
        fail("TypeError: interpolate() scale_factor must be a number, not " + repr(scale_factor));
      }
      for (int64_t i = 0; i < dim; ++i) items.push_back(IValue(scale_factor.to_double()));
    }
    scale_factors = IValue::list(std::move(items));
  } else {
    fail("ValueError: either size or scale_factor should be defined");
  }
  const bool recompute_on = recompute.is_bool() ? recompute.to_bool() : !recompute.is_none();
  if (recompute_on && !size.is_none()) {
    fail("ValueError: recompute_scale_factor is not meaningful with an explicit size.");
  }
  if (recompute_on || (mode == "area" && output_size.is_none())) {
    fail("interpolate with recompute_scale_factor=True is not supported by d2s",
         "give size= (the output size) instead of scale_factor=");
  }
  const bool aa = antialias.is_bool() ? antialias.to_bool() : !antialias.is_none();
  if (aa) {
    if (!((mode == "bilinear" || mode == "bicubic") && rank == 4)) {
      fail("ValueError: Anti-alias option is only supported for bilinear and bicubic modes");
    }
    fail("interpolate with antialias=True is not supported by d2s", "use antialias=False");
  }
  const std::string d = std::to_string(dim) + "d";
  if ((rank == 3 || rank == 4) && mode == "nearest") {
    return {"aten::upsample_nearest" + d, {output_size, scale_factors}};
  }
  if ((rank == 3 || rank == 4) && mode == "area") {
    return {"aten::adaptive_avg_pool" + d, {output_size}};
  }
  if (rank == 3 && mode == "linear") {
    return {"aten::upsample_linear1d", {output_size, align_corners, scale_factors}};
  }
  if (rank == 4 && mode == "bilinear") {
    return {"aten::upsample_bilinear2d", {output_size, align_corners, scale_factors}};
  }
  if (rank == 4 && mode == "bicubic") {
    return {"aten::upsample_bicubic2d", {output_size, align_corners, scale_factors}};
  }
  if (rank == 5 && mode == "trilinear") {
    return {"aten::upsample_trilinear3d", {output_size, align_corners, scale_factors}};
  }
  const bool known_mode = mode == "nearest" || mode == "linear" || mode == "bilinear" ||
                          mode == "bicubic" || mode == "trilinear" || mode == "area" ||
                          mode == "nearest-exact";
  if (known_mode && rank >= 3 && rank <= 5) {
    static const char* const kNeeds[][2] = {
        {"linear", "3D"}, {"bilinear", "4D"}, {"trilinear", "5D"}};
    for (const auto& [m, needs] : kNeeds) {
      if (mode == m && needs != std::to_string(rank) + "D") {
        fail("NotImplementedError: Got " + std::to_string(rank) + "D input, but " + mode +
             " mode needs " + needs + " input");
      }
    }
    fail("interpolate with mode='" + mode + "' on a " + std::to_string(rank) +
             "-d input is not supported by d2s",
         "d2s resamples with mode 'nearest', 'area' (3-d and 4-d input), 'linear' (3-d), "
         "'bilinear' and 'bicubic' (4-d) and 'trilinear' (5-d)");
  }
  fail("NotImplementedError: Input Error: Only 3D, 4D and 5D input Tensors supported (got " +
       std::to_string(rank) +
       "D) for the modes: nearest | linear | bilinear | bicubic | trilinear | area | nearest-exact "
       "(got " +
       mode + ")");
}

}  // namespace d2s
