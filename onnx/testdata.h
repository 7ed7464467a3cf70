// Running ONNX's backend test data (Debian's libonnx-testdata) on d2s's executor.
//
// Each test is a folder with model.onnx and test_data_set_*/input_*.pb, output_*.pb
// (TensorProtos). A test runs when the importer maps every op and type of its model;
// its outputs are compared with the stored ones at ONNX's backend-test tolerances
// (rtol 1e-3, atol 1e-7; NaN equals NaN). Inputs that the model uses where d2s needs a
// constant (ReduceSum's axes, Reshape's shape) are known to the importer from the
// data set, as import.h ImportOptions::known_inputs describes.
#pragma once

#include <string>

namespace d2s::onnx_io {

struct TestOutcome {
  enum Kind { Passed, Failed, Skipped } kind = Skipped;
  std::string reason;  // the skip's key ("op Conv", "dtype double") or the failure
};

TestOutcome run_onnx_test(const std::string& folder);

}  // namespace d2s::onnx_io
