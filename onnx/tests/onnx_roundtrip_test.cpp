// Export (onnx/export.h) and import (onnx/import.h): what the file holds for control
// flow and parameters, that importing the file back computes what the graph does, and
// the errors of both directions.
#include <gtest/gtest.h>

#include "convert/lower.h"
#include "convert/run_graph.h"
#include "core/base/error.h"
#include "core/exec/executor.h"
#include "onnx/export.h"
#include "onnx/import.h"
#include "onnx/model_check.h"
#include "onnx/tensor_proto.h"

namespace d2s::onnx_io {
namespace {

onnx::ModelProto export_text(const std::string& program, const convert::LowerOptions& opts,
                             std::vector<std::string>* notes = nullptr) {
  convert::LoweredGraph g = convert::lower_string(program, opts);
  ExportOptions eo;
  eo.parameters = g.parameters;
  std::string bytes = export_onnx(*g.graph, eo, notes);
  return parse_model_bytes(bytes, "model.onnx");
}

// Imports the model and runs it on the inputs, in order (parameters appended).
ValueList run_imported(const onnx::ModelProto& model, ValueList inputs) {
  ImportedModel m = import_onnx(model, "model.onnx");
  for (const auto& [name, t] : m.parameters) inputs.emplace_back(t);
  Executor exec(*m.graph);
  return exec.run(inputs);
}

bool has_op(const onnx::GraphProto& g, const std::string& op) {
  for (const auto& n : g.node()) {
    if (n.op_type() == op) return true;
  }
  return false;
}

const char* kIfProgram =
    "import torch\n"
    "def f(x):\n"
    "    if x.mean() > 0.5:\n"
    "        y = x * 2\n"
    "    else:\n"
    "        y = torch.relu(x - 1)\n"
    "    return y\n";

TEST(OnnxExport, DataDependentIfBecomesOnnxIfAndBothSidesRunAfterImport) {
  convert::LowerOptions opts;
  opts.input_shapes["x"] = {1, 3};
  onnx::ModelProto model = export_text(kIfProgram, opts);
  EXPECT_EQ(model.ir_version(), kIrVersion);
  EXPECT_EQ(model.opset_import(0).version(), kMaxOpset);
  EXPECT_TRUE(has_op(model.graph(), "If"));
  Tensor high = Tensor::from_floats({1, 3}, {1, 2, 3});
  Tensor low = Tensor::from_floats({1, 3}, {-3, 0, 2.5f});  // mean below 0.5
  Tensor y1 = run_imported(model, {IValue(high)})[0].to_tensor();
  Tensor y2 = run_imported(model, {IValue(low)})[0].to_tensor();
  EXPECT_FLOAT_EQ(y1.value_at(2), 6);    // the then side: x * 2
  EXPECT_FLOAT_EQ(y2.value_at(2), 1.5);  // the else side: relu(x - 1)
  EXPECT_FLOAT_EQ(y2.value_at(0), 0);
}

TEST(OnnxExport, WhileLoopGetsAMaxTripCountAndANote) {
  const char* program =
      "import torch\n"
      "def f(a):\n"
      "    y = a\n"
      "    while y.sum() < 100:\n"
      "        y = y * 2\n"
      "    return y\n";
  convert::LowerOptions opts;
  opts.input_shapes["a"] = {2};
  std::vector<std::string> notes;
  onnx::ModelProto model = export_text(program, opts, &notes);
  ASSERT_TRUE(has_op(model.graph(), "Loop"));
  const onnx::NodeProto* loop = nullptr;
  for (const auto& n : model.graph().node()) {
    if (n.op_type() == "Loop") loop = &n;
  }
  EXPECT_FALSE(loop->input(0).empty());  // M is always set
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("max trip count"), std::string::npos);
  Tensor y = run_imported(model, {IValue(Tensor::from_floats({2}, {1, 2}))})[0].to_tensor();
  EXPECT_FLOAT_EQ(y.value_at(1), 128);  // 3 * 2^5 = 96 < 100, so 6 doublings: 2 * 64
}

TEST(OnnxExport, ModuleParametersAreInitializersByStateDictName) {
  const char* program =
      "import torch\n"
      "import torch.nn as nn\n"
      "class M(nn.Module):\n"
      "    def __init__(self):\n"
      "        super().__init__()\n"
      "        self.fc = nn.Linear(3, 2)\n"
      "    def forward(self, x):\n"
      "        return self.fc(x)\n";
  convert::LowerOptions opts;
  opts.input_shapes["x"] = {1, 3};
  onnx::ModelProto model = export_text(program, opts);
  std::vector<std::string> names;
  for (const auto& t : model.graph().initializer()) names.push_back(t.name());
  EXPECT_EQ(names, (std::vector<std::string>{"fc.weight", "fc.bias"}));
  ASSERT_EQ(model.graph().input_size(), 1);
  EXPECT_EQ(model.graph().input(0).name(), "x");
}

TEST(OnnxExport, SymbolicAndDynamicDimsBecomeDimParam) {
  convert::LowerOptions opts;
  opts.input_shapes["x"] = {1, 3};
  convert::LoweredGraph g = convert::lower_string(kIfProgram, opts);
  ExportOptions eo;
  eo.dynamic_axes["x"][0] = "batch_size";
  onnx::ModelProto model = parse_model_bytes(export_onnx(*g.graph, eo, nullptr), "m.onnx");
  const auto& dim = model.graph().input(0).type().tensor_type().shape().dim(0);
  EXPECT_EQ(dim.dim_param(), "batch_size");
}

TEST(OnnxExport, AnOpWithoutAMappingIsAnErrorAtItsLine) {
  const char* program =
      "import torch\n"
      "def f(x):\n"
      "    return x + torch.randn(3)\n";
  convert::LowerOptions opts;
  opts.input_shapes["x"] = {3};
  try {
    export_text(program, opts);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), 2);
    EXPECT_EQ(e.range().line, 3);
    EXPECT_NE(e.message().find("aten::randn"), std::string::npos) << e.message();
  }
}

TEST(OnnxExport, OpsetOutsideThirteenToSeventeenIsRefused) {
  convert::LoweredGraph g = convert::lower_string(kIfProgram);
  ExportOptions eo;
  eo.opset = 18;
  EXPECT_THROW(export_onnx(*g.graph, eo, nullptr), Error);
}

TEST(OnnxImport, BytesThatAreNotAModelAreAnError) {
  EXPECT_THROW(parse_model_bytes("not a model at all", "x.onnx"), Error);
}

TEST(OnnxImport, AnUnknownOpNamesTheNodeAndItsOpType) {
  onnx::ModelProto model;
  model.set_ir_version(8);
  model.add_opset_import()->set_version(17);
  auto* g = model.mutable_graph();
  g->set_name("g");
  auto* in = g->add_input();
  in->set_name("x");
  in->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
  in->mutable_type()->mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_value(2);
  auto* n = g->add_node();
  n->set_op_type("Hardmax");
  n->set_name("hm1");
  n->add_input("x");
  n->add_output("y");
  auto* out = g->add_output();
  out->set_name("y");
  out->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
  out->mutable_type()->mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_value(2);
  try {
    import_onnx(model, "m.onnx");
    FAIL() << "expected Unsupported";
  } catch (const Unsupported& e) {
    EXPECT_EQ(e.key, "op Hardmax");
    EXPECT_NE(std::string(e.what()).find("'hm1' (Hardmax)"), std::string::npos) << e.what();
  }
}

TEST(OnnxImport, DoubleTensorsAreUnsupported) {
  onnx::TensorProto t;
  t.set_data_type(onnx::TensorProto::DOUBLE);
  t.add_dims(1);
  t.add_double_data(1.0);
  EXPECT_THROW(tensor_from_proto(t), Unsupported);
}

TEST(OnnxImport, RawDataOfTheWrongSizeIsAnError) {
  onnx::TensorProto t;
  t.set_data_type(onnx::TensorProto::FLOAT);
  t.add_dims(4);
  t.set_raw_data(std::string(8, '\0'));
  EXPECT_THROW(tensor_from_proto(t), Error);
}

}  // namespace
}  // namespace d2s::onnx_io
