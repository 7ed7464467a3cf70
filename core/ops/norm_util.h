// Internal to core/: what the normalisation kernels (kernels_norm.cpp) and their
// derivatives (derivatives_norm.cpp) share: the [N, C, *] layout and the statistics of
// a channel or a group, accumulated in double.
#pragma once

#include <cstdint>

#include "core/tensor/tensor.h"

namespace d2s::norm {

// A contiguous input of shape [N, C, *] as `batch` samples of `channels` channels of
// `inner` elements each (inner = 1 for [N, C]).
struct ChannelLayout {
  int64_t batch = 1;
  int64_t channels = 1;
  int64_t inner = 1;
};
ChannelLayout channel_layout(const Tensor& x);  // x.dim() >= 2

// The mean of some values and the sum of their squared distances from it.
struct Moments {
  double mean = 0;
  double var_sum = 0;
};
Moments moments(const float* p, int64_t n);  // p[0 .. n)
// The moments of channel `ch` over every sample and inner element.
Moments channel_moments(const float* p, const ChannelLayout& c, int64_t ch);

}  // namespace d2s::norm
