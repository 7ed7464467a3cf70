// The graph IR shared by both routes (trace and parse), modelled on TorchScript's
// ir.h: Graph → Block → Node → Value, in SSA form.
//
//  * The Graph owns every Node, Value and Block; everything inside refers to them by
//    plain pointer. Node::destroy frees the node, its outputs and its blocks at once
//    (each object knows its slot in the graph's list, so freeing is O(1)): a pointer
//    to a destroyed node or to one of its values must not be kept.
//  * A Node has a kind (`aten::mm`, `prim::Constant`, `prim::If`, `prim::Loop`,
//    `prim::Guard`, `prim::Print`, ...), ordered inputs and outputs, attributes
//    (name → IValue: a small variant, not strings cast at run time), nested blocks,
//    and a required source location.
//  * A Block is a list of nodes between two sentinels: its param node (kind
//    `prim::Param`, whose outputs are the block's inputs) and its return node
//    (`prim::Return`, whose inputs are the block's outputs). So every use of a value
//    is (node, input index), block returns included, and rewriting is uniform.
//  * Control flow is exactly TorchScript's:
//      %y = prim::If(%cond)            two blocks, no inputs; each block returns the
//        block0(): ... -> (%a)         If's outputs
//        block1(): ... -> (%b)
//      %c = prim::Loop(%max_trip_count, %initial_cond, %carried...)
//        block0(%i, %carried...): ... -> (%cond, %carried'...)
//    A while loop has max_trip_count = INT64_MAX; a for-range loop has cond = true.
//  * Values are typed (ir_types.h); tensor shapes may have symbolic dims.
//
// Typed views over the generic Node (IfView, LoopView) give names to the
// positional conventions above, as TorchScript's ir_views.h does.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/base/source.h"
#include "core/ir/symbols.h"
#include "core/ir/types.h"
#include "core/tensor/ivalue.h"

namespace d2s {
struct OpDef;
}

namespace d2s::ir {

class Block;
class Graph;
class Node;

// A node kind named in code (ir::kind::If). It compares with a node's kind() length
// first, where a `const char*` would cost a strlen and a memcmp on every test —
// and the passes test every node's kind several times. It converts to std::string
// where a kind is stored (Graph::insert).
struct KindName {
  std::string_view name;
  constexpr KindName(const char* s) : name(s) {}
  operator std::string() const { return std::string(name); }
  constexpr operator std::string_view() const { return name; }
  friend bool operator==(const std::string& kind, KindName k) {
    return std::string_view(kind) == k.name;
  }
};

// Kinds used by the IR itself; operator kinds are the registry's names (aten::*).
namespace kind {
inline constexpr KindName Param = "prim::Param";
inline constexpr KindName Return = "prim::Return";
inline constexpr KindName Constant = "prim::Constant";  // attr "value"
inline constexpr KindName If = "prim::If";
inline constexpr KindName Loop = "prim::Loop";
// Re-checks at run time a value the trace baked in. Input: the value now.
// Attrs: "seen" (the value at trace time), "expr" (source text), "what"
// ("bool", "item", "int", "float", "len", "rank", "input", ...; "shape" in older files).
inline constexpr KindName Guard = "prim::Guard";
inline constexpr KindName Print = "prim::Print";  // inputs printed, sep " ", end "\n"
// Raises an error with its input message (lowered `assert`): attr "kind" = "AssertionError".
inline constexpr KindName RaiseException = "prim::RaiseException";
inline constexpr KindName TupleConstruct = "prim::TupleConstruct";
inline constexpr KindName TupleUnpack = "prim::TupleUnpack";
inline constexpr KindName TupleIndex = "prim::TupleIndex";
inline constexpr KindName ListConstruct = "prim::ListConstruct";
inline constexpr KindName ListUnpack = "prim::ListUnpack";
// A placeholder for a value that exists only on some paths (a variable assigned in
// one branch, a result after an early exit): never read when the program is run.
inline constexpr KindName Uninitialized = "prim::Uninitialized";
}  // namespace kind

// The grad mode a node ran in when PyTorch would run it under torch.no_grad() (false)
// or torch.enable_grad() (true) — a trace records it, the parse route sets it on the
// body of `with torch.no_grad():` and of @torch.no_grad() functions. The executor runs
// the node in that mode; `d2s grad` takes no gradient through a node marked false
// (an in-place write marked false keeps the written tensor's history, as PyTorch's).
// Absent: the mode of the surrounding run.
inline constexpr const char* kAttrGradEnabled = "grad_enabled";

struct Use {
  Node* user;
  size_t offset;  // index into user->inputs()
  bool operator==(const Use& o) const { return user == o.user && offset == o.offset; }
};

class Value {
 public:
  Node* node() const { return node_; }  // the producer (a prim::Param for block inputs)
  size_t offset() const { return offset_; }
  const Type& type() const { return type_; }
  void set_type(Type t) { type_ = std::move(t); }
  const std::vector<Use>& uses() const { return uses_; }
  bool has_uses() const { return !uses_.empty(); }
  size_t unique() const { return unique_; }

  // Printed as %name when a name is set (and unique in the graph), else %<unique>.
  const std::string& debug_name() const { return debug_name_; }
  void set_debug_name(const std::string& name);

  // Redirects every use of this value to `other`.
  void replace_all_uses_with(Value* other);

 private:
  friend class Node;
  friend class Graph;
  Value(Node* node, size_t offset, size_t unique) : node_(node), offset_(offset), unique_(unique) {}
  Node* node_;
  size_t offset_;
  size_t unique_;
  size_t slot_ = 0;  // index in the graph's values_, for an O(1) free
  Type type_;
  std::string debug_name_;
  std::vector<Use> uses_;
};

class Node {
 public:
  const std::string& kind() const { return kind_; }
  // The registry overload for aten nodes ("dim" for aten::max.dim); may be empty.
  const std::string& overload() const { return overload_; }
  void set_overload(std::string o);

  // Resolved when the node is made (and when its overload is set), so that passes
  // and the planner never look its kind up by name (core/ir/symbols.h):
  //  * sym(): the interned kind; `n->sym() == ir::op::size` is an integer compare.
  //  * prim(): the IR prim it is (Prim::If, ...), Prim::None for registry ops.
  //  * overloads(): the registry's overloads of the kind; null for IR prims and
  //    kinds the registry does not know.
  //  * op(): the overload the node names, or its kind's only overload; null when it
  //    names none and there are several (the executor chooses at run time by the
  //    arguments), when the named one does not exist, and for prims.
  Symbol sym() const { return sym_; }
  Prim prim() const { return sym_.prim(); }
  const std::vector<OpDef>* overloads() const { return overloads_; }
  const OpDef* op() const { return op_; }

  const std::vector<Value*>& inputs() const { return inputs_; }
  const std::vector<Value*>& outputs() const { return outputs_; }
  Value* input(size_t i) const { return inputs_.at(i); }
  Value* output(size_t i = 0) const { return outputs_.at(i); }
  const std::vector<Block*>& blocks() const { return blocks_; }
  Block* owning_block() const { return owning_block_; }
  Graph* owning_graph() const { return graph_; }
  const SourceRange& range() const { return range_; }
  void set_range(SourceRange r) { range_ = std::move(r); }

  void add_input(Value* v);
  void replace_input(size_t i, Value* v);
  void remove_input(size_t i);
  void remove_all_inputs();
  Value* add_output();
  void erase_output(size_t i);  // the output must have no uses
  Block* add_block();

  // Attributes: a small ordered map name → IValue.
  const IValue* attr(const std::string& name) const;  // null when absent
  void set_attr(const std::string& name, IValue value);
  const std::vector<std::pair<std::string, IValue>>& attrs() const { return attrs_; }

  // Position in the owning block's list (sentinels excluded from iteration).
  Node* next() const { return next_; }
  Node* prev() const { return prev_; }
  bool in_block_list() const { return next_ != nullptr; }
  void insert_before(Node* n);  // this (unlinked) goes before n
  void insert_after(Node* n);
  void move_before(Node* n);
  // Unlinks and drops all inputs; blocks' nodes are destroyed too. Outputs must be unused.
  void destroy();

  // True for prim::Param / prim::Return sentinels.
  bool is_sentinel() const;

 private:
  friend class Graph;
  friend class Block;
  friend class Value;
  Node(Graph* g, std::string kind, SourceRange range);
  void unlink();
  void resolve_op();  // op_ from overloads_ and overload_

  Graph* graph_;
  std::string kind_;
  std::string overload_;
  Symbol sym_;
  const std::vector<OpDef>* overloads_ = nullptr;
  const OpDef* op_ = nullptr;
  std::vector<Value*> inputs_;
  std::vector<Value*> outputs_;
  std::vector<Block*> blocks_;
  std::vector<std::pair<std::string, IValue>> attrs_;
  SourceRange range_;
  Block* owning_block_ = nullptr;
  Node* prev_ = nullptr;
  Node* next_ = nullptr;
  size_t slot_ = 0;  // index in the graph's nodes_, for an O(1) free
};

class Block {
 public:
  // Block inputs (the param node's outputs) and outputs (the return node's inputs).
  const std::vector<Value*>& inputs() const;
  const std::vector<Value*>& outputs() const;
  Value* add_input(const std::string& name = {});
  void register_output(Value* v);  // appends to outputs
  Node* param_node() const { return param_; }
  Node* return_node() const { return return_; }
  Node* owning_node() const { return owning_node_; }  // null for the graph's top block
  Graph* owning_graph() const { return graph_; }

  // Iteration over the nodes between the sentinels, in order:
  //   for (Node* n : block->nodes()) ...   (safe against destroying n inside the loop)
  class NodeRange {
   public:
    class iterator {
     public:
      iterator(Node* n) : cur_(n), next_(n ? n->next() : nullptr) {}
      Node* operator*() const { return cur_; }
      iterator& operator++() {
        cur_ = next_;
        next_ = cur_ ? cur_->next() : nullptr;
        return *this;
      }
      bool operator!=(const iterator& o) const { return cur_ != o.cur_; }

     private:
      Node* cur_;
      Node* next_;
    };
    NodeRange(Node* first, Node* end) : first_(first), end_(end) {}
    iterator begin() const { return iterator(first_); }
    iterator end() const { return iterator(end_); }

   private:
    Node* first_;
    Node* end_;
  };
  NodeRange nodes() const { return NodeRange(param_->next(), return_); }
  bool empty() const { return param_->next() == return_; }

  // Appends a node (unlinked) at the end of this block, before the return sentinel.
  Node* append(Node* n);

 private:
  friend class Graph;
  friend class Node;
  explicit Block(Graph* g, Node* owning_node);
  Graph* graph_;
  Node* owning_node_;
  Node* param_;
  Node* return_;
  size_t slot_ = 0;  // index in the graph's blocks_, for an O(1) free
};

class Graph {
 public:
  Graph();
  ~Graph();
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;

  Block* block() const { return top_; }
  const std::vector<Value*>& inputs() const { return top_->inputs(); }
  const std::vector<Value*>& outputs() const { return top_->outputs(); }
  Value* add_input(const std::string& name, Type type);
  void register_output(Value* v) { top_->register_output(v); }

  // Creates an unlinked node with `num_outputs` outputs. A source range is required
  // (pass the range of the code that made the node).
  Node* create(std::string kind, const std::vector<Value*>& inputs, size_t num_outputs,
               SourceRange range);
  // Creates a node and inserts it at the insertion point; returns it.
  Node* insert(std::string kind, const std::vector<Value*>& inputs, size_t num_outputs,
               SourceRange range);
  // Inserts a prim::Constant holding `value` (type set from it) at the insertion point.
  Value* insert_constant(const IValue& value, SourceRange range);

  // Nodes are inserted before this node (initially the top block's return node,
  // i.e. appended to the top block).
  Node* insert_point() const { return insert_point_; }
  void set_insert_point(Node* before) { insert_point_ = before; }
  void set_insert_point(Block* b) { insert_point_ = b->return_node(); }

  // Which route made the graph and for which entry — recorded in the IR file.
  std::string route;                         // "trace" or "parse"
  std::string entry;                         // entry name, e.g. "foo1", "DynamicModel.forward"
  std::shared_ptr<const SourceFile> source;  // the program, when known

  // Statistics used by reports: all nodes (nested included, sentinels excluded).
  size_t node_count() const;
  // One past the largest Value::unique() in this graph: tables indexed by it (the
  // executor's planner) hold every value without hashing its address.
  size_t value_unique_bound() const { return next_unique_; }

  // The nodes and values the graph holds now, sentinels and block inputs included:
  // destroying a node frees it with its values and blocks, so these shrink with it.
  size_t live_nodes() const { return nodes_.size(); }
  size_t live_values() const { return values_.size(); }

  // A copy of the graph (kinds, overloads, attributes, types, debug names, source
  // ranges; route, entry and source) and where each of this graph's values went.
  // Iterative: block nesting may be as deep as the program is long.
  struct Cloned;
  Cloned clone() const;

 private:
  friend class Node;
  friend class Block;
  Value* new_value(Node* n, size_t offset);
  Block* new_block(Node* owner);
  // Frees a destroyed node with its outputs and blocks (sentinels included): each
  // leaves its list by swap-and-pop.
  void free_node(Node* n);
  void free_value(Value* v);
  void free_block(Block* b);
  template <typename T>
  static void swap_and_pop(std::vector<std::unique_ptr<T>>& list, T* item);

  std::vector<std::unique_ptr<Node>> nodes_;
  std::vector<std::unique_ptr<Value>> values_;
  std::vector<std::unique_ptr<Block>> blocks_;
  Block* top_;
  Node* insert_point_;
  size_t next_unique_ = 0;
};

struct Graph::Cloned {
  std::unique_ptr<Graph> graph;
  std::unordered_map<const Value*, Value*> value_map;  // every value of the source graph
};

// Sets the graph's insertion point for a scope and restores it after (lowering
// code uses this to emit into an If's or a Loop's block).
class WithInsertPoint {
 public:
  WithInsertPoint(Graph& g, Block* b) : g_(g), prev_(g.insert_point()) { g.set_insert_point(b); }
  WithInsertPoint(Graph& g, Node* before) : g_(g), prev_(g.insert_point()) {
    g.set_insert_point(before);
  }
  ~WithInsertPoint() { g_.set_insert_point(prev_); }

 private:
  Graph& g_;
  Node* prev_;
};

// prim::If: input 0 is the condition; blocks 0 and 1 are then/else; outputs are
// what both blocks return.
struct IfView {
  explicit IfView(Node* n) : node(n) {}
  Value* cond() const { return node->input(0); }
  Block* then_block() const { return node->blocks().at(0); }
  Block* else_block() const { return node->blocks().at(1); }
  Node* node;
};

// prim::Loop: inputs are (max_trip_count, initial_cond, carried...); the body block
// takes (i, carried...) and returns (cond, carried...); outputs are the final carried.
struct LoopView {
  explicit LoopView(Node* n) : node(n) {}
  Value* max_trip_count() const { return node->input(0); }
  Value* initial_cond() const { return node->input(1); }
  std::vector<Value*> carried_inputs() const {
    return {node->inputs().begin() + 2, node->inputs().end()};
  }
  Block* body() const { return node->blocks().at(0); }
  Value* trip_index() const { return body()->inputs().at(0); }
  std::vector<Value*> body_carried_inputs() const {
    return {body()->inputs().begin() + 1, body()->inputs().end()};
  }
  Value* body_cond() const { return body()->outputs().at(0); }
  std::vector<Value*> body_carried_outputs() const {
    return {body()->outputs().begin() + 1, body()->outputs().end()};
  }
  Node* node;
};

// The type of a run-time value (a constant's type; tensors fully known).
Type type_of(const IValue& v);

}  // namespace d2s::ir
