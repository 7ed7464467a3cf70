// Padding: aten::pad (what F.pad and the nn.*Pad modules call in PyTorch 1.13) with
// modes constant (any number of dims, negative pads crop), reflect, replicate and
// circular (the last 1 or 2 dims). Every mode is an index map: each result element
// reads one input element (or the constant), so the backward (derivatives_resize.cpp)
// adds the gradient back through the same map.
#include <algorithm>
#include <string>
#include <vector>

#include "core/ops/kernels.h"
#include "core/ops/kernels_resize.h"

namespace d2s::kernels {

namespace {

// The input index a padded index `o` of one dim reads, or -1 for the constant.
int64_t source_index(int64_t o, int64_t before, int64_t size, const std::string& mode) {
  int64_t i = o - before;
  if (mode == "constant") return i >= 0 && i < size ? i : -1;
  if (mode == "replicate") return std::clamp<int64_t>(i, 0, size - 1);
  if (mode == "circular") return ((i % size) + size) % size;
  // reflect: mirrored about the first and last element (the edge is not repeated).
  if (size == 1) return 0;
  const int64_t period = 2 * (size - 1);
  i = ((i % period) + period) % period;
  return i < size ? i : period - i;
}

std::string pair_str(int64_t a, int64_t b) {
  return "(" + std::to_string(a) + ", " + std::to_string(b) + ")";
}

}  // namespace

PadPlan pad_plan(const Tensor& input, const std::vector<int64_t>& pad, const std::string& mode,
                 const IValue& value) {
  if (mode != "constant" && mode != "reflect" && mode != "replicate" && mode != "circular") {
    fail("NotImplementedError: Unrecognised padding mode " + mode);
  }
  const int64_t rank = input.dim();
  if (pad.size() % 2 != 0) fail("Padding length must be divisible by 2");
  if (static_cast<int64_t>(pad.size()) > rank * 2) fail("Padding length too large");
  const int64_t dims = static_cast<int64_t>(pad.size()) / 2;
  PadPlan plan;
  if (mode != "constant") {
    if (!value.is_none() && value.to_double() != 0) {
      fail("Padding mode \"" + mode + "\" doesn't take in value argument");
    }
    const bool fits =
        (dims == 1 && (rank == 2 || rank == 3)) || (dims == 2 && (rank == 3 || rank == 4));
    if (!fits) {
      if (dims == 3 && (rank == 4 || rank == 5)) {
        fail("3-d " + mode + " padding is not supported by d2s");
      }
      fail(
          "NotImplementedError: Only 2D, 3D, 4D, 5D padding with non-constant padding are "
          "supported for now");
    }
    // PyTorch's circular padding takes a batch and a channel dim before the padded ones.
    if (mode == "circular" && dims != rank - 2) {
      fail("Invalid padding size, expected " + std::to_string((rank - 2) * 2) + " but got " +
           std::to_string(pad.size()));
    }
  } else if (!value.is_none()) {
    plan.value = value.to_double();
  }
  const Shape& in = input.shape();
  plan.out_shape = in;
  for (int64_t d = 0; d < dims; ++d) {
    const size_t axis = static_cast<size_t>(rank - 1 - d);
    const int64_t before = pad[static_cast<size_t>(2 * d)];
    const int64_t after = pad[static_cast<size_t>(2 * d + 1)];
    const int64_t size = in[axis];
    if (mode == "reflect" && (before >= size || after >= size)) {
      // PyTorch names the argument and the input as reflection_pad1d/2d do.
      const std::string arg = d == 0 ? "#4" : "#6";
      fail("Argument " + arg +
           ": Padding size should be less than the corresponding input dimension, but got: "
           "padding " +
           pair_str(before, after) + " at dimension " + std::to_string(axis) + " of input " +
           (dims == 1 ? shape_str(in) : std::to_string(rank)));
    }
    if (mode == "circular" && (before > size || after > size)) {
      fail("Padding value causes wrapping around more than once.");
    }
    const int64_t out = size + before + after;
    if (out < 0 || (mode != "constant" && out < 1)) {
      fail("The padded size of dimension " + std::to_string(axis) + " would be " +
           std::to_string(out) + ": the input's size is " + std::to_string(size) +
           " and the padding " + pair_str(before, after));
    }
    if (size == 0 && mode != "constant") {
      fail("Expected a non-empty input for " + mode + " padding, but got " + shape_str(in));
    }
    plan.out_shape[axis] = out;
  }
  // Per padded axis, the source index of each output index; other axes map to themselves.
  std::vector<std::vector<int64_t>> maps(static_cast<size_t>(rank));
  for (int64_t a = 0; a < rank; ++a) {
    const int64_t d = rank - 1 - a;
    const int64_t before = d < dims ? pad[static_cast<size_t>(2 * d)] : 0;
    for (int64_t o = 0; o < plan.out_shape[static_cast<size_t>(a)]; ++o) {
      maps[static_cast<size_t>(a)].push_back(
          d < dims ? source_index(o, before, in[static_cast<size_t>(a)], mode) : o);
    }
  }
  const int64_t total = shape_numel(plan.out_shape);
  plan.source.resize(static_cast<size_t>(total));
  std::vector<int64_t> idx(static_cast<size_t>(rank), 0);
  for (int64_t k = 0; k < total; ++k) {
    int64_t flat = 0;
    bool inside = true;
    for (int64_t a = 0; a < rank; ++a) {
      const int64_t s =
          maps[static_cast<size_t>(a)][static_cast<size_t>(idx[static_cast<size_t>(a)])];
      if (s < 0) {
        inside = false;
        break;
      }
      flat = flat * in[static_cast<size_t>(a)] + s;
    }
    plan.source[static_cast<size_t>(k)] = inside ? flat : -1;
    for (int64_t a = rank - 1; a >= 0; --a) {  // next index, last dim fastest
      if (++idx[static_cast<size_t>(a)] < plan.out_shape[static_cast<size_t>(a)]) break;
      idx[static_cast<size_t>(a)] = 0;
    }
  }
  return plan;
}

void register_pad(OpRegistry& r) {
  r.add("aten::pad(Tensor self, int[] pad, str mode=\"constant\", float? value=None) -> Tensor",
        [](OpContext&, const ValueList& a) {
          const Tensor input = tensor_arg(a[0]);
          const PadPlan plan = pad_plan(input, a[1].to_int_list(), a[2].to_string(), a[3]);
          if (input.dtype() != DType::Float32) {
            fail(std::string("aten::pad of a ") + dtype_word(input.dtype()) +
                 " tensor is not supported by d2s");
          }
          const Tensor& x = input;
          Tensor out = Tensor::empty(plan.out_shape, DType::Float32);
          const float* src = x.data<float>();
          float* dst = out.data<float>();
          const float fill = static_cast<float>(plan.value);
          for (size_t k = 0; k < plan.source.size(); ++k) {
            dst[k] = plan.source[k] >= 0 ? src[plan.source[k]] : fill;
          }
          return IValue(out);
        });
}

}  // namespace d2s::kernels
