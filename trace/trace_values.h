// The tracer's values (internal to trace/): which graph value stands for each tensor
// the program holds, and the symbolic numbers it substitutes for sizes.
//
// Tensors are identified by their TensorImpl address (core/tensor/tensor.h), in a hash map:
// one look-up per op argument, no graph walks, so a trace of any length costs the same
// per op. The map does not keep tensors alive (a trace must not hold every
// intermediate); an entry whose tensor died is recognised by its storage (held weakly)
// and its type, and is then treated as unknown.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/base/pointer_table.h"
#include "core/ir/ir.h"
#include "core/tensor/ivalue.h"
#include "core/tensor/tensor.h"
#include "trace/interpreter.h"
#include "trace/trace_log.h"

namespace d2s::trace_detail {

// A Python number the trace derived from a tensor: a size (x.size(0), x.shape[1],
// numel), arithmetic on sizes, or a value already baked from data (n = int(t)).
// The interpreter carries it like a number; ops see its graph value, Python decisions
// reach the tracer through to_python. Mostly ints, but comparisons of sizes give bools
// and true division floats, hence the name.
class SymbolicNumber : public SymbolicValue {
 public:
  static constexpr int64_t kNumel = -1;  // `dim` of a lazy numel

  IValue value;                // the concrete Python value in this run
  ir::Value* graph = nullptr;  // its graph value, once it has one
  // A size not yet in the graph: dimension `dim` (or the numel) of `size_of`. It becomes
  // aten::size(size_of, dim) only when an op or a guard needs it, so sizes used only by
  // Python code leave nothing behind.
  ir::Value* size_of = nullptr;
  int64_t dim = 0;
  SourceRange range;  // the expression that made it
  Provenance from = Provenance::Shape;

  // True for a value baked from data: a constant in the graph, no graph value.
  bool baked() const { return graph == nullptr && size_of == nullptr; }
  std::string type_name() const override { return "SymbolicNumber"; }
  IValue concrete() const override { return value; }
};

// The SymbolicNumber `v` holds, or null.
SymbolicNumber* as_symbolic(const IValue& v);
IValue make_symbolic(std::shared_ptr<SymbolicNumber> s);
// A value baked from data or shapes (no graph value), keeping where it came from.
IValue make_baked(IValue value, Provenance from, const SourceRange& range);

// Builds the trace graph: counted node insertion, constants, the tensor map.
class TraceBuilder {
 public:
  TraceBuilder(ir::Graph& graph, int64_t max_nodes);

  ir::Graph& graph() { return graph_; }
  int64_t node_count() const { return nodes_; }

  // Appends a node; past max_nodes, a d2s::Error at `range`.
  ir::Node* insert(const std::string& kind, const std::vector<ir::Value*>& inputs,
                   size_t num_outputs, const SourceRange& range);
  ir::Value* constant(const IValue& value, const SourceRange& range);

  // `t` now has graph value `v` (an op's result, an input).
  void bind_tensor(const Tensor& t, ir::Value* v);
  // The graph value of `t`; a tensor the trace did not see made becomes a constant
  // (a copy of its data now), bound so that later uses share it.
  ir::Value* tensor_value(const Tensor& t, const SourceRange& range);
  static bool is_constant(const ir::Value* v);

  // The graph value of a symbolic number (making its aten::size node if it has none
  // yet; a constant when it is baked).
  ir::Value* number_value(SymbolicNumber& s);

  // The graph value for an op argument: `given` is what the program passed (possibly
  // symbolic), `concrete` what the kernel got, `arg_type` the schema's type ("int[]").
  // Lists and tuples holding tensors or symbolic numbers become prim::ListConstruct /
  // prim::TupleConstruct; plain values become constants.
  ir::Value* value_for(const IValue& given, const IValue& concrete, const std::string& arg_type,
                       const SourceRange& range);

 private:
  ir::Value* sequence_value(const ValueList& given, const ValueList& concrete, bool as_list,
                            const SourceRange& range);
  // aten::size(x) when `items` are exactly the lazy sizes of all of x's dimensions.
  ir::Value* whole_size(const ValueList& items, const SourceRange& range);

  struct Entry {
    ir::Value* value = nullptr;
    const Storage* storage = nullptr;  // to tell a reused address from the tensor we saw
    std::weak_ptr<Storage> alive;
  };
  ir::Graph& graph_;
  int64_t max_nodes_;
  int64_t nodes_ = 0;
  // One entry per tensor an op made: flat (core/base/pointer_table.h), no heap node each.
  PointerTable<Entry> tensors_;
  // aten::size / aten::numel values already in the graph, by (tensor value, dim): a
  // size used many times is computed once.
  struct SizeKey {
    const ir::Value* tensor;
    int64_t dim;
    bool operator==(const SizeKey& o) const { return tensor == o.tensor && dim == o.dim; }
  };
  struct SizeKeyHash {
    size_t operator()(const SizeKey& k) const {
      return std::hash<const void*>()(k.tensor) ^ (std::hash<int64_t>()(k.dim) * 31);
    }
  };
  std::unordered_map<SizeKey, ir::Value*, SizeKeyHash> sizes_;
};

// True when `v` holds something with a graph value: a tensor, or a symbolic number
// that is not merely baked (also inside lists and tuples).
bool has_graph_value(const IValue& v);
// The provenance of an op argument: Data for tensors, a symbolic number's own,
// Constant for plain values; the largest inside lists and tuples.
Provenance provenance_of(const IValue& v);
// True when `v` holds a symbolic number of any kind (also inside lists and tuples).
bool has_symbolic(const IValue& v);
bool contains_tensor(const IValue& v);
// `v` with every symbolic number replaced by its concrete value.
IValue concrete_value(const IValue& v);
// The IR type of a run-time value as the trace saw it (tensors: exact dtype and shape).
ir::Type traced_type(const IValue& v);

}  // namespace d2s::trace_detail
