// Helpers for the tests of every room from core/tensor up: build tensors, read their
// elements back, capture errors.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/tensor/tensor.h"

namespace d2s::test {

inline Tensor F(const Shape& s, const std::vector<float>& v) {
  return Tensor::from_floats(s, v);
}
inline Tensor I(const Shape& s, const std::vector<int64_t>& v) {
  return Tensor::from_ints(s, v);
}
inline Tensor B(const Shape& s, const std::vector<bool>& v) {
  return Tensor::from_bools(s, v);
}

inline std::vector<float> floats(const Tensor& t) {
  EXPECT_EQ(t.dtype(), DType::Float32);
  return std::vector<float>(t.data<float>(), t.data<float>() + t.numel());
}
inline std::vector<int64_t> ints(const Tensor& t) {
  EXPECT_EQ(t.dtype(), DType::Int64);
  return std::vector<int64_t>(t.data<int64_t>(), t.data<int64_t>() + t.numel());
}
inline std::vector<bool> bools(const Tensor& t) {
  EXPECT_EQ(t.dtype(), DType::Bool);
  return std::vector<bool>(t.data<bool>(), t.data<bool>() + t.numel());
}

// The message of the d2s::Error that f throws, or "<no error>".
template <typename Fn>
std::string error_of(Fn f) {
  try {
    f();
  } catch (const Error& e) {
    return e.message();
  }
  return "<no error>";
}

inline void expect_floats_near(const Tensor& t, const std::vector<float>& want, float tol = 1e-6f) {
  std::vector<float> got = floats(t);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_NEAR(got[i], want[i], tol * std::max(1.0f, std::abs(want[i]))) << "at " << i;
  }
}

}  // namespace d2s::test
