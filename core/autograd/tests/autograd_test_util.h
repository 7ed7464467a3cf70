// Helpers for the tests that run ops with gradients (the autograd's own, the IR's
// in-place checks, the executor's): leaves that require grad and element values read
// through value_at, beside the registry calls of core/ops/tests/kernel_test_util.h.
#pragma once

#include <vector>

#include "core/autograd/autograd.h"
#include "core/ops/tests/kernel_test_util.h"

namespace d2s::test {

// A float32 leaf that requires grad.
inline Tensor leaf(const Shape& shape, const std::vector<float>& v) {
  Tensor t = Tensor::from_floats(shape, v);
  set_requires_grad(t, true);
  return t;
}

// The elements as floats, in row-major order, whatever the dtype.
inline std::vector<float> values(const Tensor& t) {
  std::vector<float> out;
  for (int64_t i = 0; i < t.numel(); ++i) out.push_back(static_cast<float>(t.value_at(i)));
  return out;
}

}  // namespace d2s::test
