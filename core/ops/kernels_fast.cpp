// The table of the executor's direct entries (core/ops/kernels_fast.h).
#include "core/ops/kernels_fast.h"

namespace d2s::kernels {

std::span<const FastEntry> fast_kernels() {
  static const FastEntry kEntries[] = {
      {"aten::add.Tensor", fast_add, 2, 2}, {"aten::sub.Tensor", fast_sub, 2, 2},
      {"aten::mul.Tensor", fast_mul, 2},    {"aten::div.Tensor", fast_div, 2},
      {"aten::tanh", fast_tanh, 1},         {"aten::relu", fast_relu, 1},
      {"aten::sigmoid", fast_sigmoid, 1},
  };
  return kEntries;
}

}  // namespace d2s::kernels
