// ONNX export of the recurrent ops (onnx/op_export_recurrent.cpp) and their import back
// (onnx/op_import_recurrent.cpp), and of cumprod, roll, group_norm and advanced
// indexing (op_export_index.cpp, op_export_group_norm.cpp,
// op_export_advanced_index.cpp): the nodes the file holds, and that the imported file
// computes what the d2s graph computes (onnxruntime and PyTorch judge the same files in
// ctest onnx_judge_recurrent / onnx_judge_indexing).
#include <gtest/gtest.h>

#include <cmath>

#include "convert/grad_graph.h"
#include "convert/lower.h"
#include "core/base/error.h"
#include "core/exec/executor.h"
#include "onnx/export.h"
#include "onnx/import.h"
#include "onnx/model_check.h"

namespace d2s::onnx_io {
namespace {

struct Exported {
  convert::LoweredGraph lowered;
  onnx::ModelProto model;
};

Exported export_text(const std::string& program, const convert::LowerOptions& opts) {
  Exported out{convert::lower_string(program, opts), {}};
  ExportOptions eo;
  eo.parameters = out.lowered.parameters;
  out.model = parse_model_bytes(export_onnx(*out.lowered.graph, eo, nullptr), "model.onnx");
  return out;
}

// Tuples flattened into their tensors, as the file has one output per item.
void flatten_into(const IValue& v, std::vector<Tensor>* out) {
  if (v.is_tuple()) {
    for (const IValue& item : v.tuple_items()) flatten_into(item, out);
  } else {
    out->push_back(v.to_tensor());
  }
}

std::vector<Tensor> run(const ir::Graph& graph, const ValueList& inputs) {
  Executor exec(graph);
  std::vector<Tensor> out;
  for (const IValue& v : exec.run(inputs)) flatten_into(v, &out);
  return out;
}

// The d2s graph and the imported file on the same inputs give the same outputs.
void expect_round_trip(const Exported& e, const ValueList& inputs) {
  ValueList with_params = inputs;
  for (const auto& [name, t] : e.lowered.parameters) with_params.emplace_back(t);
  const std::vector<Tensor> want = run(*e.lowered.graph, with_params);
  ImportedModel m = import_onnx(e.model, "model.onnx");
  ValueList imported_inputs = inputs;
  for (const auto& [name, t] : m.parameters) imported_inputs.emplace_back(t);
  const std::vector<Tensor> got = run(*m.graph, imported_inputs);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_EQ(got[i].shape(), want[i].shape()) << "output " << i;
    for (int64_t j = 0; j < got[i].numel(); ++j) {
      EXPECT_NEAR(got[i].value_at(j), want[i].value_at(j), 1e-5) << "output " << i << " at " << j;
    }
  }
}

int count_op(const onnx::GraphProto& g, const std::string& op) {
  int n = 0;
  for (const auto& node : g.node()) n += node.op_type() == op;
  return n;
}

const onnx::AttributeProto* attr(const onnx::GraphProto& g, const std::string& op,
                                 const std::string& name) {
  for (const auto& node : g.node()) {
    if (node.op_type() != op) continue;
    for (const auto& a : node.attribute()) {
      if (a.name() == name) return &a;
    }
  }
  return nullptr;
}

Tensor wave(const Shape& shape, float phase) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  std::vector<float> v(static_cast<size_t>(n));
  for (size_t i = 0; i < v.size(); ++i) v[i] = std::sin(0.7f * static_cast<float>(i) + phase);
  return Tensor::from_floats(shape, v);
}

TEST(OnnxRecurrent, LayersExportOneNodePerLayerWithPyTorchsSemanticsAndImportBack) {
  const char* program =
      "import torch\n"
      "import torch.nn as nn\n"
      "class M(nn.Module):\n"
      "    def __init__(self):\n"
      "        super().__init__()\n"
      "        self.lstm = nn.LSTM(3, 4, num_layers=2, bidirectional=True, batch_first=True)\n"
      "        self.gru = nn.GRU(3, 4, bias=False)\n"
      "        self.rnn = nn.RNN(3, 2, nonlinearity='relu')\n"
      "    def forward(self, x, h0):\n"
      "        y, (h, c) = self.lstm(x, (h0, h0 * 2))\n"
      "        g, hg = self.gru(x)\n"
      "        r, hr = self.rnn(x)\n"
      "        return y, h, c, g, hg, r, hr\n";
  convert::LowerOptions opts;
  opts.input_shapes["x"] = {2, 5, 3};
  opts.input_shapes["h0"] = {4, 2, 4};
  Exported e = export_text(program, opts);
  const onnx::GraphProto& g = e.model.graph();
  EXPECT_EQ(count_op(g, "LSTM"), 2);  // one node per layer
  EXPECT_EQ(count_op(g, "GRU"), 1);
  EXPECT_EQ(count_op(g, "RNN"), 1);
  ASSERT_NE(attr(g, "LSTM", "direction"), nullptr);
  EXPECT_EQ(attr(g, "LSTM", "direction")->s(), "bidirectional");
  ASSERT_NE(attr(g, "GRU", "linear_before_reset"), nullptr);
  EXPECT_EQ(attr(g, "GRU", "linear_before_reset")->i(), 1);
  ASSERT_NE(attr(g, "RNN", "activations"), nullptr);
  EXPECT_EQ(attr(g, "RNN", "activations")->strings(0), "Relu");
  expect_round_trip(e, {IValue(wave({2, 5, 3}, 0.1f)), IValue(wave({4, 2, 4}, 0.9f))});
}

TEST(OnnxRecurrent, CellsExportAsTheirFormulasAndImportBack) {
  const char* program =
      "import torch\n"
      "import torch.nn as nn\n"
      "class M(nn.Module):\n"
      "    def __init__(self):\n"
      "        super().__init__()\n"
      "        self.lstm = nn.LSTMCell(3, 4)\n"
      "        self.gru = nn.GRUCell(3, 4)\n"
      "        self.rnn = nn.RNNCell(3, 4, bias=False)\n"
      "    def forward(self, x, h):\n"
      "        a, b = self.lstm(x, (h, h))\n"
      "        return a, b, self.gru(x, h), self.rnn(x)\n";
  convert::LowerOptions opts;
  opts.input_shapes["x"] = {2, 3};
  opts.input_shapes["h"] = {2, 4};
  Exported e = export_text(program, opts);
  EXPECT_EQ(count_op(e.model.graph(), "LSTM"), 0);
  EXPECT_EQ(count_op(e.model.graph(), "GRU"), 0);
  expect_round_trip(e, {IValue(wave({2, 3}, 0.3f)), IValue(wave({2, 4}, 1.3f))});
}

TEST(OnnxRecurrent, DropoutBetweenLayersInTrainingIsRefusedButNotInEval) {
  const char* program =
      "import torch\n"
      "import torch.nn as nn\n"
      "class M(nn.Module):\n"
      "    def __init__(self):\n"
      "        super().__init__()\n"
      "        self.gru = nn.GRU(3, 4, num_layers=2, dropout=0.5)\n"
      "    def forward(self, x):\n"
      "        return self.gru(x)[0]\n";
  convert::LowerOptions opts;
  opts.input_shapes["x"] = {4, 1, 3};
  try {
    export_text(program, opts);
    FAIL() << "expected the dropout error";
  } catch (const Error& err) {
    EXPECT_NE(err.message().find("dropout between the layers of aten::gru in training mode"),
              std::string::npos)
        << err.message();
    EXPECT_EQ(err.range().line, 8);
  }
  opts.training = false;
  Exported e = export_text(program, opts);
  EXPECT_EQ(count_op(e.model.graph(), "GRU"), 2);
}

TEST(OnnxTensorOps, CumprodIsExactThroughZerosAndNegatives) {
  const char* program =
      "import torch\n"
      "def f(x):\n"
      "    return torch.cumprod(x, 1), torch.cumprod(x, -1), torch.cumprod(x.view(2, 2, 2), 0)\n";
  convert::LowerOptions opts;
  opts.input_shapes["x"] = {2, 4};
  Exported e = export_text(program, opts);
  EXPECT_EQ(count_op(e.model.graph(), "ReduceProd"), 3);
  const Tensor x = Tensor::from_floats({2, 4}, {2, -1, 0, 3, -2, -3, 0.5f, 4});
  expect_round_trip(e, {IValue(x)});
  // The zero stays a zero and the signs alternate, which exp(cumsum(log|x|)) loses.
  ImportedModel m = import_onnx(e.model, "model.onnx");
  const std::vector<Tensor> y = run(*m.graph, {IValue(x)});
  const float want[] = {2, -2, 0, 0, -2, 6, 3, 12};
  for (int64_t i = 0; i < 8; ++i) EXPECT_FLOAT_EQ(y[0].value_at(i), want[i]) << i;
}

TEST(OnnxTensorOps, RollGroupNormAndOneTensorIndexImportBack) {
  const char* program =
      "import torch\n"
      "import torch.nn.functional as F\n"
      "def f(x, w, idx):\n"
      "    a = torch.roll(x, 1, 1)\n"
      "    b = torch.roll(x, shifts=(-1, 5), dims=(0, 2))\n"
      "    c = torch.roll(x, 3)\n"
      "    g = F.group_norm(x, 2, w, w * 0.5)\n"
      "    i = x[:, idx]\n"
      "    return a, b, c, g, i\n";
  convert::LowerOptions opts;
  opts.input_shapes["x"] = {2, 4, 3};
  opts.input_shapes["w"] = {4};
  opts.input_shapes["idx"] = {2, 2};
  opts.input_dtypes["idx"] = DType::Int64;
  Exported e = export_text(program, opts);
  EXPECT_EQ(count_op(e.model.graph(), "Gather") > 0, true);
  expect_round_trip(e, {IValue(wave({2, 4, 3}, 0.2f)), IValue(wave({4}, 1.1f)),
                        IValue(Tensor::from_ints({2, 2}, {3, -1, 0, 2}))});
}

TEST(OnnxTensorOps, IndexPutWithAccumulateNeedsOpset16) {
  const char* program =
      "import torch\n"
      "def f(x, idx):\n"
      "    y = x.clone()\n"
      "    y.index_put_((idx,), x[idx], accumulate=True)\n"
      "    y[idx] = 0.5\n"
      "    return y\n";
  convert::LowerOptions opts;
  opts.input_shapes["x"] = {3, 2};
  opts.input_shapes["idx"] = {2};
  opts.input_dtypes["idx"] = DType::Int64;
  convert::LoweredGraph g = convert::lower_string(program, opts);
  convert::functionalize(*g.graph);  // as d2s export does: index_put_ → index_put
  ExportOptions eo;
  eo.opset = 13;
  try {
    export_onnx(*g.graph, eo, nullptr);
    FAIL() << "expected the opset error";
  } catch (const Error& err) {
    EXPECT_NE(err.message().find("which needs opset 16"), std::string::npos) << err.message();
    EXPECT_EQ(err.range().line, 4);
  }
  eo.opset = 16;
  onnx::ModelProto model = parse_model_bytes(export_onnx(*g.graph, eo, nullptr), "model.onnx");
  EXPECT_EQ(count_op(model.graph(), "ScatterND"), 2);
  const onnx::AttributeProto* reduction = attr(model.graph(), "ScatterND", "reduction");
  ASSERT_NE(reduction, nullptr);
  EXPECT_EQ(reduction->s(), "add");
}

}  // namespace
}  // namespace d2s::onnx_io
