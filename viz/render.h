// Pictures of graphs, drawn with Graphviz's own libraries (libgvc + libcgraph) in
// process: no `dot` program is run (contract §3, `-o X.svg|.png|.pdf|.dot`).
//
//   viz::RenderOptions opts;                       // max_nodes, folding, style hooks
//   std::string svg = viz::render_graph(graph, viz::Format::Svg, opts);
//   write_file_atomic("g.svg", svg);
//
// What a picture shows (docs/render.md has the reasons):
//  * one box per op, labelled with its op (`add`), its arguments (constants folded in:
//    `add(x, y, alpha=1)`) and its results' names and types; every node's source line
//    is its tooltip (`foo1.py:4: s = x + y`), which SVG viewers show on hover;
//  * graph inputs and outputs as their own shapes, named and typed;
//  * prim::If as a labelled cluster (the `if` line and its location) with its then and
//    else arms side by side; prim::Loop as a cluster with its carried values and trip
//    count; prim::Guard nodes in a warning colour with the baked expression and value;
//  * runs of identical node sequences from the same source lines (an unrolled loop in a
//    trace) folded into one box marked `×N`, and past `max_nodes` drawn nodes, one note
//    that summarises the rest — so a 10,000-node trace stays readable and quick.
//
// The `.dot` format is the graph d2s hands to Graphviz, before layout: deterministic
// text (golden-tested) that `dot` or other tools can lay out themselves.
//
// Later pictures (the trace-vs-parse diff, HTML reports) restyle elements through
// StyleHooks and put several graphs side by side with render_panels().
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/ir/ir.h"

namespace d2s::viz {

enum class Format { Svg, Png, Pdf, Dot };

// ".svg" / "out.png" / "pdf" → the format; nullopt for anything else.
std::optional<Format> format_from_extension(std::string_view path_or_extension);
const char* format_name(Format format);  // "svg", "png", "pdf", "dot"

// Graphviz attributes of one drawn element (name → value), in insertion order.
// set() replaces an existing value, so a hook overrides the defaults it names.
class Attrs {
 public:
  void set(const std::string& name, std::string value);
  const std::string* get(std::string_view name) const;  // null when unset
  const std::vector<std::pair<std::string, std::string>>& items() const { return items_; }

 private:
  std::vector<std::pair<std::string, std::string>> items_;
};

// What a hook may change on an element: Graphviz attributes (color, fillcolor, style,
// penwidth, fontcolor, class, URL, ...; a `label` is an HTML-like label without its
// outer <>, and replaces d2s's) and an extra label line (plain text, escaped by the
// renderer), e.g. "never taken by the trace".
struct ElementStyle {
  Attrs attrs;
  std::string badge;
};

// Per-element styling, injected by callers that mark things (the diff picture paints
// a lost branch red and dashed). Each hook may be empty. They see IR objects, so a
// caller keeps its own map Node* → style and looks it up here.
struct StyleHooks {
  // Each drawn node made for `node`: an op; a folded run (called with the run's first
  // node); the head of an If or Loop (called with the If / Loop node).
  std::function<void(const ir::Node& node, ElementStyle& style)> node;
  // The cluster of an If or Loop: block -1 is the whole cluster, 0.. its arms (If:
  // 0 then, 1 else) — a Loop's body is its whole cluster.
  std::function<void(const ir::Node& owner, int block, ElementStyle& style)> cluster;
  // An edge carrying `value` into `user` (an op, an If / Loop for its condition,
  // trip count and carried inputs, a block's prim::Return for what the block yields,
  // or null for a graph output).
  std::function<void(const ir::Value& value, const ir::Node* user, Attrs& attrs)> edge;
};

enum class Direction { TopToBottom, LeftToRight };

struct RenderOptions {
  // Nodes drawn at most (ops, folded runs, inputs, outputs, If/Loop heads); the rest
  // is summarised in one note node. `--max-nodes`.
  size_t max_nodes = 500;
  // Fold a sequence of nodes repeated at least this many times in a row (same kinds,
  // same source locations) into one `×N` box; 0 turns folding off.
  size_t min_fold_repeats = 3;
  // The longest repeated sequence looked for, in nodes.
  size_t max_fold_period = 32;
  // If/Loop clusters nested deeper than this are drawn as one box each.
  int max_cluster_depth = 12;
  Direction direction = Direction::TopToBottom;
  // The heading drawn above the graph; empty: `<entry> · <route>d graph · N nodes`.
  std::string title;
  StyleHooks hooks;
};

// Draws `graph` and returns the file's bytes (SVG and DOT are text). Throws d2s::Error
// (exit 2) with Graphviz's own message when Graphviz fails.
std::string render_graph(const ir::Graph& graph, Format format, const RenderOptions& options = {});

// Several graphs in one picture, side by side, each in its own titled frame (the diff
// picture: parsed beside traced). A panel's hooks and title replace options.hooks and
// options.title; the other options apply to every panel.
struct Panel {
  const ir::Graph* graph = nullptr;
  std::string title;
  StyleHooks hooks;
};
std::string render_panels(const std::vector<Panel>& panels, Format format,
                          const RenderOptions& options = {});

}  // namespace d2s::viz
