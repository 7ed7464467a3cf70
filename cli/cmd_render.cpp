// d2s render GRAPH.yaml|MODEL.py [--entry NAME] -o OUT.svg|.png|.pdf|.dot
//
// Draws a graph file, or the parsed graph of a program, with Graphviz's library.
// Not implemented yet: it comes with the graph IR and Graphviz rendering.
#include "cli/commands.h"

namespace d2s::cli {

namespace {

struct RenderCmd {
  std::string input;
  std::string entry;
  std::string output;
};

int run_render(const RenderCmd& o) {
  require_readable(o.input);
  if (!is_yaml_path(o.input) && extension_of(o.input) != ".py") {
    throw Error("'" + o.input + "' is neither a graph nor a model program", SourceRange(),
                "give a .yaml graph (written by d2s parse/trace) or a .py model program");
  }
  check_output(o.output, "-o", {o.input});
  return not_available("render", "it comes with the graph IR and Graphviz rendering");
}

}  // namespace

Command setup_render(CLI::App& app) {
  auto o = std::make_shared<RenderCmd>();
  CLI::App* cmd =
      app.add_subcommand("render", "Draw a graph (or a program's parsed graph) with Graphviz");
  cmd->add_option("INPUT", o->input, "the graph file, or a model program to parse first")
      ->required()
      ->type_name("GRAPH.yaml|MODEL.py");
  add_entry_flag(cmd, &o->entry);
  add_output_flag(cmd, &o->output, {".svg", ".png", ".pdf", ".dot"},
                  "the picture to write; the extension picks the format")
      ->required();
  return Command{cmd, [o] { return run_render(*o); }};
}

}  // namespace d2s::cli
