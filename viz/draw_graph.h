// The picture before Graphviz sees it (internal to viz/): nodes, edges and nested
// clusters with their attributes, in drawing order.
//
// build_draw_graph() decides everything (what is drawn, folded or summarised, every
// label and colour); graph_to_cgraph.cpp only copies it into cgraph objects. Keeping
// the decisions in plain structs makes them testable without Graphviz and makes the
// DOT output deterministic: names are assigned in drawing order.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/ir/ir.h"
#include "viz/render.h"

namespace d2s::viz {

struct DrawCluster {
  std::string name;  // starts with "cluster" (Graphviz's rule for a framed subgraph)
  int parent = -1;   // index into DrawGraph::clusters, or -1 for the top level
  Attrs attrs;       // a `label` here is HTML (see DrawNode::attrs)
};

struct DrawNode {
  std::string name;
  int cluster = -1;
  // `label` holds an HTML-like label (Graphviz's <...> form, without the outer
  // brackets); every other attribute is a plain string.
  Attrs attrs;
};

struct DrawEdge {
  size_t from = 0;  // indices into DrawGraph::nodes
  size_t to = 0;
  Attrs attrs;
};

struct DrawGraph {
  std::string name;
  Attrs graph_attrs;  // the root graph's own (its `label` is HTML)
  Attrs node_defaults;
  Attrs edge_defaults;
  std::vector<DrawCluster> clusters;  // a parent always comes before its children
  std::vector<DrawNode> nodes;
  std::vector<DrawEdge> edges;
};

// The picture of one graph, or of several panels side by side (each panel becomes a
// top-level cluster; a single panel without a title is drawn without a frame).
DrawGraph build_draw_graph(const std::vector<Panel>& panels, const RenderOptions& options);

}  // namespace d2s::viz
