// Importing an ONNX model into the d2s IR (docs/onnx.md).
//
// Each ONNX node becomes one or a few registry ops (op_import.cpp); If and Loop
// become prim::If and prim::Loop with their subgraphs as blocks; initializers become
// the graph's parameters (named as in the file), the other graph inputs its
// arguments. Every node gets a source location in a listing of the model's nodes
// (one line per node: "OpType 'node name'"), so that messages point at the node.
//
// What d2s has no counterpart for — an op without a mapping, an element type other
// than float32/int64/bool, sequence or optional types, a shape input that is not
// known when importing — is an Unsupported error (tensor_proto.h), reported by the
// CLI as exit 2 naming the node and its op type.
#pragma once

#include <onnx/onnx_pb.h>

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/ir/ir.h"
#include "core/tensor/tensor.h"

namespace d2s::onnx_io {

struct ImportOptions {
  // Values of graph inputs known when importing: used where an op needs a constant
  // (Reshape's shape, ReduceSum's axes, Slice's starts ...) and the model feeds it as
  // an input. The input stays an input of the graph.
  std::map<std::string, Tensor> known_inputs;
  // 0-d inputs become int/float/bool graph inputs (what `d2s run` binds from an
  // inputs file, as the program's own `n: int` is), made tensors inside the graph.
  bool scalar_inputs = false;
};

struct ImportedModel {
  std::unique_ptr<ir::Graph> graph;
  // The initializers, by name: the graph's parameters (GraphRunOptions::parameters).
  std::vector<std::pair<std::string, Tensor>> parameters;
  // The graph's arguments (ONNX inputs that are not initializers), in order.
  std::vector<std::string> input_names;
};

// `path` names the model in messages. Throws Unsupported or d2s::Error.
ImportedModel import_onnx(const onnx::ModelProto& model, const std::string& path,
                          const ImportOptions& options = {});

// The ONNX op types the importer maps (docs table, tests).
std::vector<std::string> imported_op_types();

}  // namespace d2s::onnx_io
