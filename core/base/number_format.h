// Numbers as text: floats with the fewest digits that read back exactly, laid out as
// Python prints them. The IR printer, the YAML writers and the code generator share it.
#pragma once

#include <string>

namespace d2s {

// The fewest significant digits that read back to exactly the same float32 /
// double, laid out as Python prints floats (fixed for 1e-4 <= |v| < 1e16, else
// scientific) and always with a '.' (`10.0`, `1.0e+20`: PyYAML needs it to see
// a float); NaN and infinities as `.nan`, `.inf`, `-.inf`.
std::string format_float32(float v);
std::string format_float64(double v);

}  // namespace d2s
