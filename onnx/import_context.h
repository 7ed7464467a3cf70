// The state of one import (import.cpp) and what the ONNX op mappings
// (op_import.cpp) use to build d2s nodes for one ONNX node.
#pragma once

#include <onnx/onnx_pb.h>

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/ir/ir.h"
#include "onnx/import.h"

namespace d2s::onnx_io {

class Importer {
 public:
  explicit Importer(ir::Graph& graph) : graph_(graph) {}

  ir::Graph& graph() { return graph_; }
  const onnx::NodeProto& node() const { return *node_; }
  const SourceRange& range() const { return range_; }

  // A registry op at the insertion point; its output typed as a tensor of `dtype`.
  ir::Value* op(const std::string& kind, const std::vector<ir::Value*>& inputs,
                std::optional<DType> dtype);
  // The same with several outputs.
  std::vector<ir::Value*> op_n(const std::string& kind, const std::vector<ir::Value*>& inputs,
                               size_t outputs, std::optional<DType> dtype);
  ir::Value* constant(const IValue& v);
  ir::Value* c_int(int64_t v) { return constant(IValue(v)); }
  ir::Value* c_float(double v) { return constant(IValue(v)); }
  ir::Value* c_bool(bool v) { return constant(IValue(v)); }
  ir::Value* c_none() { return constant(IValue()); }
  ir::Value* c_ints(const std::vector<int64_t>& v) { return constant(IValue::int_list(v)); }
  ir::Value* c_tensor(const Tensor& t);

  // Attributes of the current node.
  bool has_attr(const std::string& name) const;
  int64_t attr_int(const std::string& name, int64_t dflt) const;
  float attr_float(const std::string& name, float dflt) const;
  std::vector<int64_t> attr_ints(const std::string& name) const;
  std::string attr_string(const std::string& name, const std::string& dflt) const;

  // The dtype of a value (float32 when unknown).
  static DType dtype(const ir::Value* v);
  // The tensor behind a value when known at import time (initializer, Constant,
  // known input); null otherwise.
  const Tensor* known(const ir::Value* v) const;
  // known() as ints; Unsupported when not known.
  std::vector<int64_t> need_ints(const ir::Value* v, const char* what) const;
  void set_known(const ir::Value* v, const Tensor& t) { known_[v] = t; }
  // Types from ONNX's shape inference, by value name (import.cpp runs it first).
  void set_value_infos(std::map<std::string, onnx::ValueInfoProto> infos) {
    infos_ = std::move(infos);
  }
  // Gives `v` the inferred type of `name` when there is one d2s can hold.
  void apply_inferred_type(ir::Value* v, const std::string& name) const;

  // Unsupported naming the node (skip in the test-data runner, exit 2 in the CLI).
  [[noreturn]] void unsupported(const std::string& what, const std::string& key) const;
  // A d2s::Error at the node (a malformed model).
  [[noreturn]] void fail(const std::string& what) const;

  // Imports the nodes of an ONNX graph into the current insertion block; names seen
  // by the graph's nodes are looked up through the enclosing scopes.
  void import_nodes(const onnx::GraphProto& g);
  void push_scope() { scopes_.emplace_back(); }
  void pop_scope() { scopes_.pop_back(); }
  void define(const std::string& name, ir::Value* v) { scopes_.back()[name] = v; }
  ir::Value* lookup(const std::string& name) const;  // null when unknown
  // The range every node gets: its line in the listing.
  void set_lines(std::map<const onnx::NodeProto*, int> lines,
                 std::shared_ptr<const SourceFile> file) {
    lines_ = std::move(lines);
    file_ = std::move(file);
  }

 private:
  void import_node(const onnx::NodeProto& n);
  void import_if(const std::vector<ir::Value*>& ins);
  void import_loop(const std::vector<ir::Value*>& ins);
  void import_subgraph_body(const onnx::GraphProto& g, ir::Block* block,
                            const std::vector<ir::Value*>& block_inputs, size_t skip_outputs);

  ir::Graph& graph_;
  const onnx::NodeProto* node_ = nullptr;
  SourceRange range_;
  std::vector<std::map<std::string, ir::Value*>> scopes_;
  std::map<const ir::Value*, Tensor> known_;
  std::map<std::string, onnx::ValueInfoProto> infos_;
  std::map<const onnx::NodeProto*, int> lines_;
  std::shared_ptr<const SourceFile> file_;
};

// One ONNX op's mapping: the d2s values of the node's outputs from its inputs (a
// null input for an omitted optional one).
using ImportFn = std::function<std::vector<ir::Value*>(Importer&, const std::vector<ir::Value*>&)>;
const ImportFn* find_import(const std::string& op_type);

}  // namespace d2s::onnx_io
