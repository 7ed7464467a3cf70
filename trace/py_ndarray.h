// numpy arrays as model code builds them at construction time (np.eye, np.array,
// np.zeros, np.arange, ... and .astype), to turn them into tensors with
// torch.from_numpy / torch.tensor / torch.as_tensor / torch.FloatTensor. An array holds
// its values as doubles (exact for every float32, and for int64 values up to 2^53) and
// numpy's dtype. Internal to trace/.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "trace/native_value.h"

namespace d2s::interp {

// The numpy dtypes d2s's arrays have: numpy's default float64, float32, int64 and bool.
enum class NpDType { Float64, Float32, Int64, Bool };

class NdArrayValue : public NativeValue {
 public:
  NdArrayValue(NpDType dtype, Shape shape, std::vector<double> data)
      : dtype(dtype), shape(std::move(shape)), data(std::move(data)) {}
  std::string type_name() const override { return "numpy.ndarray"; }
  bool has_method(const std::string& name) const override;
  IValue call_method(Interpreter& in, const std::string& name, ValueList args, Kwargs kwargs,
                     const SourceRange& range) override;
  std::optional<IValue> attribute(const std::string& name) const override;
  // numpy's repr for the arrays a program prints: `array([[1., 0.], [0., 1.]])` on one
  // line (numpy wraps long ones), `dtype=float32` after float32 data.
  std::string repr() const override;

  // The array as nested Python lists (numbers of its dtype): what .tolist() returns.
  IValue to_list() const;

  NpDType dtype;
  Shape shape;
  std::vector<double> data;  // row-major
};

// The numpy array functions d2s implements (numpy.array, numpy.eye, ...).
bool is_numpy_array_name(const std::string& qualname);
IValue call_numpy_array_name(Interpreter& in, const std::string& qualname, ValueList args,
                             Kwargs kwargs, const SourceRange& range);

// torch.from_numpy(a), torch.tensor(a), torch.as_tensor(a), torch.asarray(a) when `a` is a
// numpy array, and torch.as_tensor of any data: the tensor, or nullopt when `qualname`
// with these arguments is not such a call (torch.tensor of a list goes its usual way).
std::optional<IValue> call_torch_on_numpy(Interpreter& in, const std::string& qualname,
                                          ValueList& args, Kwargs& kwargs,
                                          const SourceRange& range);

}  // namespace d2s::interp
