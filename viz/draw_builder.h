// Builds the DrawGraph of one panel (internal to viz/; draw_graph.h has the entry point).
//
// One walk over the graph in print order: graph inputs; each block's nodes, folded
// (fold.h) and with If / Loop nodes drawn as nested clusters; graph outputs. Every
// drawn element takes one unit of the node budget; once it is spent, what is left is
// counted into one note node. The walk recurses on block nesting only, and only down
// to max_cluster_depth: deeper Ifs and Loops are drawn as one box each.
//
// Edges follow values: each drawn node records which drawn node a value comes from
// (`source_`), and a drawn consumer gets one edge per distinct producer. Constants are
// not drawn: they are written into their consumers' labels.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "viz/draw_graph.h"
#include "viz/fold.h"
#include "viz/labels.h"

namespace d2s::viz {

class DrawBuilder {
 public:
  // Draws `graph` into `out`, inside cluster `frame` (-1: at the top level).
  // `title` replaces the default heading when not empty.
  DrawBuilder(DrawGraph& out, const ir::Graph& graph, const RenderOptions& options,
              const StyleHooks& hooks, int frame, std::string title);
  void build();

 private:
  // ---- elements (draw_builder.cpp)
  size_t add_node(int cluster, Attrs attrs);
  int add_cluster(int parent, const std::string& name, Attrs attrs);
  // One edge per (from, to) pair; the hook sees the first value that made it.
  void add_edge(size_t from, size_t to, const ir::Value* value, const ir::Node* user,
                Attrs attrs = {});
  // Applies a hook's style to an element's attributes; a `label` it sets replaces
  // `label_rows`, and its badge becomes one more row.
  void apply(const ElementStyle& style, Attrs& attrs, std::string& label_rows);
  bool in_cluster(size_t node, int cluster) const;  // node is inside cluster (at any depth)

  // Where a value is drawn; nullopt for a constant (written into labels instead).
  std::optional<size_t> source_of(const ir::Value* v) const;
  // Edges from the producers of `user`'s non-constant inputs into drawn node `to`
  // (through an absorbed conversion to its own inputs).
  void wire_inputs(const ir::Node& user, size_t to);
  // A conversion (aten::size, aten::Bool, aten::Int, ...) whose one result only feeds a
  // guard next to it: the trace's plumbing for a check, drawn as part of the guard.
  static bool absorbed_by_guard(const ir::Node& node);
  bool budget_left() const { return drawn_ < budget_; }

  void keep_order(size_t id);
  void draw_inputs();
  void draw_outputs();
  void draw_op(const ir::Node& node, int cluster);
  void draw_run(const std::vector<const ir::Node*>& nodes, const FoldItem& item, int cluster);
  static std::string varying_constants(const std::vector<const ir::Node*>& members, size_t offset,
                                       size_t period);
  // After the budget is spent: counts the node (and its blocks) into the note.
  void skip(const ir::Node& node);
  size_t note();  // the summary node, created on first use
  void finish_note();
  std::string title_label() const;
  // Marks (in baked_) the constant arguments of a trace that came from the run.
  void find_baked_arguments();
  static uint64_t argument_key(const ir::Node& node, size_t input);
  // `<B>add</B>(x, y, alpha=1)`, constants a trace baked in coloured.
  std::string call_label(const ir::Node& node);

  // ---- control flow (draw_control.cpp)
  void draw_block(const ir::Block& block, int cluster, int depth);
  void draw_if(const ir::Node& node, int cluster, int depth);
  void draw_loop(const ir::Node& node, int cluster, int depth);
  void draw_collapsed(const ir::Node& node, int cluster);  // nested too deep
  // Keeps an If's or Loop's insides between its head and its merge / end: a node of
  // `cluster` (made since `first_node`) with no edge from inside the cluster gets an
  // invisible one from `head`, one with no edge to inside an invisible one to `tail`.
  // Without them Graphviz ranks a node by its outside inputs alone, and an arm that
  // only reads a loop's carried value floats above its own `if`.
  void enclose(int cluster, size_t first_node, size_t first_edge, size_t head,
               std::optional<size_t> tail);
  // What a block returns, into `to` (an If's merge, a Loop's end); values defined
  // outside `cluster` (or constants) pass through a small node inside it first, so
  // each arm shows what it yields.
  void yield_into(const ir::Block& block, size_t first_output, int cluster, size_t to,
                  const char* edge_colour);

  DrawGraph& out_;
  const ir::Graph& graph_;
  const RenderOptions& options_;
  const StyleHooks& hooks_;
  const int frame_;
  const std::string prefix_;  // cluster names are unique in the DrawGraph
  const std::string title_;
  ValueNamer namer_;
  bool baked_constants_;                // a trace: some constants are what the run happened to have
  std::unordered_set<uint64_t> baked_;  // argument_key()s of baked arguments

  size_t budget_ = 0;
  size_t drawn_ = 0;
  size_t folded_nodes_ = 0;  // nodes drawn inside ×N boxes
  std::unordered_map<const ir::Value*, size_t> source_;
  std::unordered_set<uint64_t> edges_;
  size_t ifs_ = 0;
  size_t loops_ = 0;

  std::optional<size_t> last_in_row_;  // keep_order's previous node
  std::optional<size_t> note_;
  size_t skipped_ = 0;
  std::map<std::string, size_t> skipped_kinds_;
  size_t outputs_left_out_ = 0;
};

}  // namespace d2s::viz
