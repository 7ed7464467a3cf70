// d2s's own random generator, used for `fill: randn` / `fill: rand` inputs,
// torch.rand / torch.randn / torch.randint, dropout in training, and the default
// initialisation of parameters. It is documented in docs/random.md so that other
// tools can reproduce d2s's numbers: xoshiro256** seeded through splitmix64;
// uniform floats from the top 24 bits; normals by the Box–Muller transform (both
// values of each pair are used). It differs from PyTorch's generator by design.
#pragma once

#include <cstdint>

namespace d2s {

class Generator {
 public:
  explicit Generator(uint64_t seed = 0);

  uint64_t next_u64();
  // Uniform in [0, 1) with 24 bits of precision (exactly representable in float32).
  float uniform();
  // Standard normal.
  float normal();

 private:
  uint64_t s_[4];
  bool has_spare_ = false;
  float spare_ = 0;
};

}  // namespace d2s
