// The generator described in docs/random.md; any change here must be mirrored
// there, since other tools reproduce these numbers from that description.
#include "core/tensor/random.h"

#include <cmath>

namespace d2s {

namespace {

uint64_t splitmix64(uint64_t& x) {
  x += 0x9E3779B97F4A7C15ull;
  uint64_t z = x;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

uint64_t rotl(uint64_t x, int k) {
  return (x << k) | (x >> (64 - k));
}

// 2π as the double nearest to it (Python's math.tau).
constexpr double kTau = 6.283185307179586;

}  // namespace

Generator::Generator(uint64_t seed) {
  uint64_t x = seed;
  for (uint64_t& s : s_) s = splitmix64(x);
}

uint64_t Generator::next_u64() {
  const uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

float Generator::uniform() {
  // The top 24 bits: every value k / 2^24 is exact in float32.
  return static_cast<float>(next_u64() >> 40) * (1.0f / 16777216.0f);
}

float Generator::normal() {
  if (has_spare_) {
    has_spare_ = false;
    return spare_;
  }
  // Box–Muller in double precision, rounded to float32 at the end: Python's
  // floats and math module compute exactly this, so a script reproduces it bit
  // for bit. 1 - u1 lies in (0, 1], so the logarithm is always finite.
  double u1 = uniform();
  double u2 = uniform();
  double r = std::sqrt(-2.0 * std::log(1.0 - u1));
  double theta = kTau * u2;
  spare_ = static_cast<float>(r * std::sin(theta));
  has_spare_ = true;
  return static_cast<float>(r * std::cos(theta));
}

}  // namespace d2s
