// Python's round() with ndigits, shared by the eager interpreter's builtin and the
// scalar ops the parse route lowers it to (aten::round.float_ndigits/.int_ndigits).
#pragma once

#include <cstdint>

namespace d2s {

// round(x, ndigits) of a float: correctly rounded to `ndigits` decimals (the exact
// binary value rounded, so round(2.675, 2) is 2.67), to tens for a negative ndigits.
double python_round(double x, int64_t ndigits);
// round(n, ndigits) of an int: n itself for ndigits >= 0, else to tens, hundreds, ...
// with halves to even.
int64_t python_round(int64_t n, int64_t ndigits);

}  // namespace d2s
