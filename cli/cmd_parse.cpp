// d2s parse MODEL.py [--entry NAME] [-o OUT]
//
// Lowers the program's source to the graph IR (contract §2, the parse route) and
// writes it: -o picks the form from the extension; without -o the TorchScript-style
// text goes to stdout. Not implemented yet: it comes with the graph IR.
#include "cli/commands.h"

namespace d2s::cli {

namespace {

struct ParseCmd {
  std::string model;
  std::string entry;
  std::string output;
};

int run_parse(const ParseCmd& o) {
  require_readable(o.model);
  check_output(o.output, "-o", {o.model});
  return not_available("parse", "it comes with the graph IR");
}

}  // namespace

Command setup_parse(CLI::App& app) {
  auto o = std::make_shared<ParseCmd>();
  CLI::App* cmd = app.add_subcommand(
      "parse", "Convert a model program to a graph by parsing its source (control flow kept)");
  cmd->add_option("MODEL", o->model, "the model program")->required()->type_name("MODEL.py");
  add_entry_flag(cmd, &o->entry);
  add_output_flag(cmd, &o->output, {".yaml", ".yml", ".txt", ".svg", ".png", ".pdf", ".dot"},
                  "write the graph here; the extension picks the form");
  return Command{cmd, [o] { return run_parse(*o); }};
}

}  // namespace d2s::cli
