// d2s grad MODEL.py|GRAPH.yaml [--entry NAME] [-o OUT]
//
// Builds the static backward graph of a graph, or of a program's parsed graph.
// Not implemented yet: it comes with the static backward graph.
#include "cli/commands.h"

namespace d2s::cli {

namespace {

struct GradCmd {
  std::string input;
  std::string entry;
  std::string output;
};

int run_grad(const GradCmd& o) {
  require_readable(o.input);
  if (!is_yaml_path(o.input) && extension_of(o.input) != ".py") {
    throw Error("'" + o.input + "' is neither a model program nor a graph", SourceRange(),
                "give a .py model program or a .yaml graph (written by d2s parse/trace)");
  }
  check_output(o.output, "-o", {o.input});
  return not_available("grad", "it comes with the static backward graph");
}

}  // namespace

Command setup_grad(CLI::App& app) {
  auto o = std::make_shared<GradCmd>();
  CLI::App* cmd =
      app.add_subcommand("grad", "Build the static backward graph of a graph or program");
  cmd->add_option("INPUT", o->input, "the graph file, or a model program to parse first")
      ->required()
      ->type_name("MODEL.py|GRAPH.yaml");
  add_entry_flag(cmd, &o->entry);
  add_output_flag(cmd, &o->output, {".yaml", ".yml", ".txt", ".svg", ".png", ".pdf", ".dot"},
                  "write the backward graph here; the extension picks the form");
  return Command{cmd, [o] { return run_grad(*o); }};
}

}  // namespace d2s::cli
