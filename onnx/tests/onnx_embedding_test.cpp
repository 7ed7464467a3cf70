// ONNX export of aten::embedding (onnx/op_export_rnn.cpp): a Gather of the weight's rows
// that, imported back, picks the rows eager mode picks (the recurrent ops, once refused
// here, are onnx_recurrent_test.cpp's).
#include <gtest/gtest.h>

#include "convert/lower.h"
#include "core/base/error.h"
#include "core/exec/executor.h"
#include "onnx/export.h"
#include "onnx/import.h"
#include "onnx/model_check.h"

namespace d2s::onnx_io {
namespace {

onnx::ModelProto export_text(const std::string& program, const convert::LowerOptions& opts) {
  convert::LoweredGraph g = convert::lower_string(program, opts);
  ExportOptions eo;
  eo.parameters = g.parameters;
  return parse_model_bytes(export_onnx(*g.graph, eo, nullptr), "model.onnx");
}

TEST(OnnxEmbedding, ExportsAsGatherAndPicksTheRows) {
  const char* program =
      "import torch\n"
      "def f(w, idx):\n"
      "    return torch.embedding(w, idx) * 2\n";
  convert::LowerOptions opts;
  opts.input_shapes["w"] = {4, 3};
  opts.input_shapes["idx"] = {2, 2};
  opts.input_dtypes["idx"] = DType::Int64;
  onnx::ModelProto model = export_text(program, opts);
  bool gather = false;
  for (const auto& n : model.graph().node()) gather = gather || n.op_type() == "Gather";
  EXPECT_TRUE(gather);
  ImportedModel m = import_onnx(model, "model.onnx");
  std::vector<float> w(12);
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(i);
  Executor exec(*m.graph);
  ValueList out = exec.run(
      {IValue(Tensor::from_floats({4, 3}, w)), IValue(Tensor::from_ints({2, 2}, {3, 0, 1, 3}))});
  const Tensor y = out[0].to_tensor();
  ASSERT_EQ(y.shape(), (Shape{2, 2, 3}));
  const float want[] = {18, 20, 22, 0, 2, 4, 6, 8, 10, 18, 20, 22};
  for (int64_t i = 0; i < y.numel(); ++i) EXPECT_FLOAT_EQ(y.value_at(i), want[i]) << i;
}

}  // namespace
}  // namespace d2s::onnx_io
