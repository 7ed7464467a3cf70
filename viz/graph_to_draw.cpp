// build_draw_graph: the picture's frame (fonts, colours, layout direction) and one
// DrawBuilder per panel.
#include "viz/draw_builder.h"
#include "viz/draw_graph.h"
#include "viz/style.h"

namespace d2s::viz {

void Attrs::set(const std::string& name, std::string value) {
  for (auto& [k, v] : items_) {
    if (k == name) {
      v = std::move(value);
      return;
    }
  }
  items_.emplace_back(name, std::move(value));
}

const std::string* Attrs::get(std::string_view name) const {
  for (const auto& [k, v] : items_) {
    if (k == name) return &v;
  }
  return nullptr;
}

DrawGraph build_draw_graph(const std::vector<Panel>& panels, const RenderOptions& options) {
  DrawGraph g;
  // The name is the SVG's <title> and the DOT's `digraph NAME`.
  g.name = panels.size() == 1 && panels[0].graph && !panels[0].graph->entry.empty()
               ? panels[0].graph->entry
               : "d2s";
  Attrs& ga = g.graph_attrs;
  // Top to bottom reads like the program, line after line; inputs on the first rank,
  // outputs on the last (newrank lets rank=same work across clusters).
  ga.set("rankdir", options.direction == Direction::LeftToRight ? "LR" : "TB");
  ga.set("newrank", "true");
  ga.set("compound", "true");  // edges that end at a cluster's frame (If arms)
  ga.set("fontname", style::kFont);
  ga.set("fontsize", "12");
  ga.set("fontcolor", style::kText);
  ga.set("labelloc", "t");
  ga.set("labeljust", "l");
  ga.set("nodesep", "0.25");
  ga.set("ranksep", "0.3");
  ga.set("pad", "0.2");
  ga.set("bgcolor", "white");
  ga.set("outputorder", "edgesfirst");  // edges under nodes, not across their labels
  ga.set("penwidth", "1");

  Attrs& na = g.node_defaults;
  na.set("fontname", style::kFont);
  na.set("fontsize", "11");
  na.set("fontcolor", style::kText);
  na.set("shape", "box");
  na.set("style", "rounded,filled");
  na.set("fillcolor", style::kOpFill);
  na.set("color", style::kOpBorder);
  na.set("penwidth", "1");
  na.set("margin", "0.1,0.04");
  na.set("height", "0.3");

  Attrs& ea = g.edge_defaults;
  ea.set("color", style::kEdge);
  ea.set("arrowsize", "0.6");
  ea.set("penwidth", "1.1");
  ea.set("fontname", style::kFont);
  ea.set("fontsize", "9");
  ea.set("fontcolor", style::kSubtleText);

  const bool framed = panels.size() > 1;
  for (size_t i = 0; i < panels.size(); ++i) {
    const Panel& p = panels[i];
    if (!p.graph) continue;
    int frame = -1;
    if (framed) {
      DrawCluster c;
      c.name = "cluster_panel" + std::to_string(i);
      c.attrs.set("id", c.name);
      c.attrs.set("style", "rounded");
      c.attrs.set("color", style::kPanelBorder);
      c.attrs.set("fontsize", "12");
      g.clusters.push_back(std::move(c));
      frame = static_cast<int>(g.clusters.size()) - 1;
    }
    DrawBuilder(g, *p.graph, options, p.hooks, frame, p.title).build();
  }
  return g;
}

}  // namespace d2s::viz
