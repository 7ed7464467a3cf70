// The state of one export (export.cpp) and what the op mappings (op_export.cpp) use
// to emit ONNX nodes for one d2s node.
#pragma once

#include <onnx/onnx_pb.h>

#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/ir/ir.h"
#include "onnx/export.h"

namespace d2s::onnx_io {

class Emitter {
 public:
  Emitter(const ExportOptions& options, std::vector<std::string>* notes)
      : options_(options), notes_(notes) {}

  const ExportOptions& options() const { return options_; }
  int opset() const { return options_.opset; }

  // The ONNX name of a value. A prim::Constant is emitted as an ONNX Constant where it
  // is first needed in the current (sub)graph; a None has no name (fails).
  std::string name(const ir::Value* v);
  // Records that `v` is the ONNX value `onnx_name` in the current graph.
  void bind(const ir::Value* v, const std::string& onnx_name);
  // A new unique name built on `hint`.
  std::string fresh(std::string_view hint);
  // Adds a node; returns it for attributes. Outputs are fresh names unless given.
  onnx::NodeProto* add(const std::string& op_type, const std::vector<std::string>& inputs,
                       const std::vector<std::string>& outputs);
  // add() with one fresh output, returning its name.
  std::string add1(const std::string& op_type, const std::vector<std::string>& inputs,
                   const std::function<void(onnx::NodeProto*)>& attrs = {});

  // Constants as ONNX Constant nodes.
  std::string const_tensor(const Tensor& t);
  std::string const_ints(const std::vector<int64_t>& values);  // 1-D int64
  std::string const_scalar(double value, DType dtype);         // 0-d

  // The dtype a value has in the ONNX file: a tensor's own (float32 when unknown),
  // int64 for int, float32 for float, bool for bool.
  DType dtype(const ir::Value* v) const;
  // name(v) converted to `to` (a Cast when it is not already).
  std::string name_as(const ir::Value* v, DType to);
  std::string cast(const std::string& name, DType from, DType to);
  // The prim::Constant value behind `v`, or null.
  static const IValue* constant(const ir::Value* v);
  // An int (or a constant list of ints) known at export time.
  static bool constant_int(const ir::Value* v, int64_t* out);
  static bool constant_ints(const ir::Value* v, std::vector<int64_t>* out);
  static bool is_none(const ir::Value* v);
  // The items of a list value made by prim::ListConstruct (tensor lists are never
  // materialised: Concat, Sum... take the items). Fails for other producers.
  std::vector<const ir::Value*> list_items(const ir::Value* list, const ir::Node& at);
  // An int[] value as a 1-D int64 tensor name (a constant, prim::ListConstruct of
  // ints, or aten::size's result).
  std::string int_list(const ir::Value* list, const ir::Node& at);

  // Emits every node of `block` into the current graph.
  void emit_block(const ir::Block& block);
  // Runs `fill` with `graph` as the current graph (a subgraph of If/Loop).
  void in_subgraph(onnx::GraphProto* graph, const std::function<void()>& fill);
  onnx::GraphProto* graph() const { return scopes_.back(); }
  void push_root(onnx::GraphProto* graph) { scopes_.push_back(graph); }

  // The ONNX value type of a d2s type (shape as far as known); with_shape false
  // gives the element type only.
  void set_type(onnx::ValueInfoProto* info, const ir::Type& type, bool with_shape) const;

  [[noreturn]] void fail(const ir::Node& node, const std::string& message,
                         const std::string& hint = {}) const;
  void note(const ir::Node& node, const std::string& message);

  // Rank of a value when its type knows it.
  static bool rank_of(const ir::Value* v, int64_t* rank);

 private:
  void emit_node(const ir::Node& node);
  void emit_if(const ir::Node& node);
  void emit_loop(const ir::Node& node);
  void emit_subgraph_outputs(const std::vector<ir::Value*>& values,
                             const std::vector<ir::Type>& types, onnx::GraphProto* graph);

  const ExportOptions& options_;
  std::vector<std::string>* notes_;
  std::vector<onnx::GraphProto*> scopes_;
  // Names per (sub)graph: a value bound in an outer graph is visible inside.
  std::map<std::pair<const onnx::GraphProto*, const ir::Value*>, std::string> names_;
  std::set<std::string> used_;
};

// One op's mapping: emits the ONNX nodes for `node` and binds its outputs.
// A node attribute, as the op mappings (op_export*.cpp) write them.
inline void attr_int(onnx::NodeProto* n, const char* name, int64_t v) {
  auto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(v);
}
inline void attr_float(onnx::NodeProto* n, const char* name, float v) {
  auto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::FLOAT);
  a->set_f(v);
}
inline void attr_ints(onnx::NodeProto* n, const char* name, const std::vector<int64_t>& v) {
  auto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INTS);
  for (int64_t i : v) a->add_ints(i);
}

// A number argument of `n` that must be a constant in the file (an attribute).
inline double need_number(Emitter& e, const ir::Node& n, size_t i, const char* what) {
  const IValue* c = Emitter::constant(n.input(i));
  if (!c || !c->is_number()) {
    e.fail(n, std::string(what) + " of " + n.kind() + " must be a constant for ONNX export");
  }
  return c->to_double();
}

using ExportFn = std::function<void(Emitter&, const ir::Node&)>;
// The mapping of an aten/prim kind, or null when there is none.
const ExportFn* find_export(const std::string& kind);
// Every kind with a mapping (docs table, tests).
std::vector<std::string> exported_kinds();

}  // namespace d2s::onnx_io
