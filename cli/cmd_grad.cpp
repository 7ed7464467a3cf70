// d2s grad MODEL.py|GRAPH.yaml [--entry NAME] [-o OUT]
//
// Builds the static backward graph (convert/grad_graph.h) of a graph file, or of a
// program's parsed graph, and prints, saves or draws it as parse and trace do.
#include "cli/commands.h"
#include "convert/grad_graph.h"
#include "core/io/graph_yaml.h"

namespace d2s::cli {

namespace {

struct GradCmd {
  std::string input;
  std::string output;
  ProgramFlags flags;
};

int run_grad(const GradCmd& o) {
  require_readable(o.input);
  const bool graph_file = is_yaml_path(o.input);
  if (!graph_file && extension_of(o.input) != ".py") {
    throw Error("'" + o.input + "' is neither a model program nor a graph", SourceRange(),
                "give a .py model program or a .yaml graph (written by d2s parse/trace)");
  }
  check_output(o.output, "-o", {o.input});
  std::unique_ptr<ir::Graph> graph = graph_file
                                         ? ir::load_graph_yaml(o.input)
                                         : parse_model(o.input, o.flags, {}, nullptr, "").graph;
  convert::build_backward_graph(*graph);
  write_graph(*graph, o.output);
  return 0;
}

}  // namespace

Command setup_grad(CLI::App& app) {
  auto o = std::make_shared<GradCmd>();
  CLI::App* cmd = app.add_subcommand(
      "grad",
      "Build the static backward graph of a graph or program: its forward, then the "
      "gradients of the first output with respect to every float tensor input");
  cmd->add_option("INPUT", o->input, "the graph file, or a model program to parse first")
      ->required()
      ->type_name("MODEL.py|GRAPH.yaml");
  add_entry_flag(cmd, &o->flags.entry);
  add_output_flag(cmd, &o->output, {".yaml", ".yml", ".txt", ".svg", ".png", ".pdf", ".dot"},
                  "write the backward graph here; the extension picks the form");
  return Command{cmd, [o] { return run_grad(*o); }};
}

}  // namespace d2s::cli
