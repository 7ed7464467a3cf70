// Handing a DrawGraph to Graphviz (internal to viz/): cgraph objects, dot layout, and
// the renderers of libgvc — all in process, no `dot` program.
#pragma once

#include <string>

#include "viz/draw_graph.h"
#include "viz/render.h"

namespace d2s::viz {

// The picture's bytes in `format`; for Format::Dot the graph as cgraph writes it,
// before layout. Throws d2s::Error carrying Graphviz's messages when it fails.
std::string render_draw_graph(const DrawGraph& graph, Format format);

}  // namespace d2s::viz
