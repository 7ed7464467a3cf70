// Exporting a d2s graph as an ONNX model (docs/onnx.md).
//
//   ExportOptions opts;            // opset, names, dynamic axes, parameters
//   std::string bytes = export_onnx(graph, opts, &notes);   // checked, serialized
//
// prim::If becomes ONNX If (then/else subgraphs), prim::Loop becomes Loop with its
// max trip count always set (a `while` gets ExportOptions::while_max_trip_count and
// a note), symbolic dims become dim_param, the parameters become initializers named
// by their state_dict names. Ints, floats and bools are 0-d int64, float32 and bool
// tensors; int lists are 1-D int64 tensors. The model is IR version 8 and passes
// onnx::checker::check_model and strict shape inference (model_check.h) before it is
// returned. An op without a mapping is a d2s::Error (exit 2) at the node's line.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/ir/ir.h"
#include "core/tensor/tensor.h"

namespace d2s::onnx_io {

inline constexpr int kMinOpset = 13;
inline constexpr int kMaxOpset = 17;  // libonnx 1.12 knows 1-17; onnxruntime rejects unknown ones
inline constexpr int64_t kIrVersion = 8;

struct ExportOptions {
  int opset = kMaxOpset;
  // Graph-input values given as parameters: become initializers (state_dict names).
  std::vector<std::pair<std::string, Tensor>> parameters;
  // Renames as torch.onnx.export's input_names/output_names: the i-th entry names
  // the i-th (non-parameter) input / output. Empty: the program's names, "output".
  std::vector<std::string> input_names;
  std::vector<std::string> output_names;
  // input name -> (dim -> label): those dims become dim_param (dynamic_axes).
  std::map<std::string, std::map<int64_t, std::string>> dynamic_axes;
  // The trip count an ONNX Loop gets for a `while` (ONNX needs none; onnxruntime
  // would run forever on a loop that never ends, d2s's executor stops here too).
  int64_t while_max_trip_count = 1000000;
  std::string producer_version = "0.1.0";
};

// Builds, checks and serializes the model. `notes` (may be null) receives one line
// per thing the file leaves out or bounds (prints, while loops' trip counts).
std::string export_onnx(const ir::Graph& graph, const ExportOptions& options,
                        std::vector<std::string>* notes);

}  // namespace d2s::onnx_io
