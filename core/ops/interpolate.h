// F.interpolate's argument processing as PyTorch 1.13's Python function does it
// (torch/nn/functional.py): exactly one of size and scale_factor, expanded to one value
// per spatial dim; align_corners only for the interpolating modes; then the op for the
// input's rank and mode, with the arguments TorchScript records
// (aten::upsample_bilinear2d(input, output_size, align_corners, scale_factors), ...).
// Shared by the interpreter (F.interpolate, nn.Upsample in eager and trace), the parse
// route's lowering (which records the same op where it knows the input's rank) and
// aten::__interpolate, TorchScript's builtin for F.interpolate, which the parse route
// records where the rank is known only when the graph runs (kernels_resize.cpp).
#pragma once

#include <string>
#include <vector>

#include "core/tensor/ivalue.h"

namespace d2s {

struct InterpolateOp {
  std::string op;  // "aten::upsample_nearest2d", ...
  ValueList args;  // the op's arguments after the input
};

// The op for an input of `rank` dims whose spatial sizes print as `spatial` (PyTorch's
// list repr, for its messages). Throws a d2s::Error without a range carrying PyTorch's
// exception and message, or d2s's for what it does not run (nearest on 5-d input,
// area on 5-d input, nearest-exact, antialias, recompute_scale_factor=True).
InterpolateOp interpolate_op(int64_t rank, const std::string& spatial, const IValue& size,
                             const IValue& scale_factor, const IValue& mode,
                             const IValue& align_corners, const IValue& recompute_scale_factor,
                             const IValue& antialias);

// Python's repr of an int, float, bool, None, or a tuple or list of them.
std::string plain_repr(const IValue& v);
// "[3, 5]": the spatial sizes of a shape (its dims after the first two) as a list.
std::string spatial_repr(const std::vector<int64_t>& shape);

}  // namespace d2s
