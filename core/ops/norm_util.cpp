// The shared layout and statistics of the normalisation kernels (norm_util.h).
#include "core/ops/norm_util.h"

namespace d2s::norm {

ChannelLayout channel_layout(const Tensor& x) {
  ChannelLayout c;
  c.batch = x.shape()[0];
  c.channels = x.shape()[1];
  c.inner = 1;
  for (int64_t d = 2; d < x.dim(); ++d) c.inner *= x.shape()[d];
  return c;
}

Moments moments(const float* p, int64_t n) {
  Moments m;
  if (n == 0) return m;
  for (int64_t i = 0; i < n; ++i) m.mean += p[i];
  m.mean /= static_cast<double>(n);
  for (int64_t i = 0; i < n; ++i) m.var_sum += (p[i] - m.mean) * (p[i] - m.mean);
  return m;
}

Moments channel_moments(const float* p, const ChannelLayout& c, int64_t ch) {
  Moments m;
  const int64_t count = c.batch * c.inner;
  if (count == 0) return m;
  for (int64_t n = 0; n < c.batch; ++n) {
    const float* row = p + (n * c.channels + ch) * c.inner;
    for (int64_t i = 0; i < c.inner; ++i) m.mean += row[i];
  }
  m.mean /= static_cast<double>(count);
  for (int64_t n = 0; n < c.batch; ++n) {
    const float* row = p + (n * c.channels + ch) * c.inner;
    for (int64_t i = 0; i < c.inner; ++i) m.var_sum += (row[i] - m.mean) * (row[i] - m.mean);
  }
  return m;
}

}  // namespace d2s::norm
