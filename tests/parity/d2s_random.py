"""d2s's random generator in Python, bit for bit (docs/random.md, core/tensor/random.cpp).

d2s fills `fill: randn` / `fill: rand` inputs (and torch.rand*, dropout masks and
default parameters) from its own generator, so the parity suite reproduces it here:

- xoshiro256** whose four state words come from splitmix64 run on the seed;
- uniform(): the top 24 bits of next_u64() times 2^-24, a float32 in [0, 1);
- normal(): Box–Muller on two uniforms, in double precision, rounded to float32:
  r = sqrt(-2 ln(1 - u1)), theta = 2*pi*u2; returns r*cos(theta), keeps r*sin(theta)
  as the next value;
- fill_seed(): the seed of a `fill:` without `seed:` (core/io/yaml_io.h):
  mix(mix(mix(seed) ^ set_index) ^ fnv1a64(name)), mix being splitmix64's step.

Run as a script it prints the first values of a few seeds, to compare with d2s.
"""

import math
import struct

MASK = (1 << 64) - 1


def _f32(x):
    """x rounded to float32 (round to nearest even), as a Python float."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def _mix(z):
    """splitmix64: one step from state z (the increment included), its output."""
    z = (z + 0x9E3779B97F4A7C15) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def _rotl(x, k):
    return ((x << k) | (x >> (64 - k))) & MASK


class Generator:
    def __init__(self, seed=0):
        x = seed & MASK
        self.s = []
        for _ in range(4):
            self.s.append(_mix(x))
            x = (x + 0x9E3779B97F4A7C15) & MASK
        self.spare = None

    def next_u64(self):
        s = self.s
        result = (_rotl((s[1] * 5) & MASK, 7) * 9) & MASK
        t = (s[1] << 17) & MASK
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = _rotl(s[3], 45)
        return result

    def uniform(self):
        return (self.next_u64() >> 40) * (1.0 / 16777216.0)  # exact in float32

    def normal(self):
        if self.spare is not None:
            v, self.spare = self.spare, None
            return v
        u1 = self.uniform()
        u2 = self.uniform()
        r = math.sqrt(-2.0 * math.log(1.0 - u1))
        theta = 6.283185307179586 * u2
        self.spare = _f32(r * math.sin(theta))
        return _f32(r * math.cos(theta))


def fill(kind, n, seed):
    """The n float32 values (as Python floats) of `fill: KIND, seed: SEED`."""
    if kind == "zeros":
        return [0.0] * n
    if kind == "ones":
        return [1.0] * n
    g = Generator(seed)
    if kind == "randn":
        return [g.normal() for _ in range(n)]
    if kind == "rand":
        return [g.uniform() for _ in range(n)]
    raise ValueError(f"unknown fill {kind!r}")


def fnv1a64(data):
    h = 0xCBF29CE484222325
    for c in data:
        h = ((h ^ c) * 0x100000001B3) & MASK
    return h


def fill_seed(seed, set_index, name):
    """The seed d2s gives a `fill:` with no `seed:` of its own."""
    return _mix(_mix(_mix(seed & MASK) ^ set_index) ^ fnv1a64(name.encode("utf-8")))


if __name__ == "__main__":
    for seed in (0, 1, 42):
        g = Generator(seed)
        print(f"seed {seed}: u64 {g.next_u64():#018x}")
        print(f"  rand  {fill('rand', 4, seed)}")
        print(f"  randn {fill('randn', 4, seed)}")
    print(f"fill_seed(0, 0, 'x') = {fill_seed(0, 0, 'x')}")
