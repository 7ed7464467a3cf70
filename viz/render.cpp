#include "viz/render.h"

#include <algorithm>
#include <cctype>

#include "viz/draw_graph.h"
#include "viz/graphviz.h"

namespace d2s::viz {

std::optional<Format> format_from_extension(std::string_view path) {
  const size_t dot = path.rfind('.');
  const size_t slash = path.find_last_of("/\\");
  std::string ext(dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash)
                      ? path
                      : path.substr(dot + 1));
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (ext == "svg") return Format::Svg;
  if (ext == "png") return Format::Png;
  if (ext == "pdf") return Format::Pdf;
  if (ext == "dot" || ext == "gv") return Format::Dot;
  return std::nullopt;
}

const char* format_name(Format format) {
  switch (format) {
    case Format::Svg:
      return "svg";
    case Format::Png:
      return "png";
    case Format::Pdf:
      return "pdf";
    case Format::Dot:
      return "dot";
  }
  return "svg";
}

std::string render_graph(const ir::Graph& graph, Format format, const RenderOptions& options) {
  return render_panels({Panel{&graph, options.title, options.hooks}}, format, options);
}

std::string render_panels(const std::vector<Panel>& panels, Format format,
                          const RenderOptions& options) {
  return render_draw_graph(build_draw_graph(panels, options), format);
}

}  // namespace d2s::viz
