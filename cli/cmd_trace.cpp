// d2s trace MODEL.py --inputs IN.yaml [--entry NAME] [--weights W.yaml] [--no-guards] [-o OUT]
//
// Runs the program on the inputs and records each tensor op (contract §2, the
// trace route), with a prim::Guard for every value baked from data unless
// --no-guards. Not implemented yet: it comes with the tracer.
#include "cli/commands.h"

namespace d2s::cli {

namespace {

struct TraceCmd {
  std::string model;
  std::string inputs;
  bool no_guards = false;
  std::string output;
  ProgramFlags flags;
};

int run_trace(const TraceCmd& o) {
  require_readable(o.model);
  require_readable(o.inputs);
  if (!o.flags.weights.empty()) require_readable(o.flags.weights);
  check_output(o.output, "-o", {o.model, o.inputs, o.flags.weights});
  return not_available("trace", "it comes with the tracer");
}

}  // namespace

Command setup_trace(CLI::App& app) {
  auto o = std::make_shared<TraceCmd>();
  CLI::App* cmd = app.add_subcommand(
      "trace", "Convert a model program to a graph by running it on example inputs");
  cmd->add_option("MODEL", o->model, "the model program")->required()->type_name("MODEL.py");
  cmd->add_option("--inputs", o->inputs, "the example inputs (the first set is traced)")
      ->required()
      ->type_name("IN.yaml")
      ->check(extension_validator({".yaml", ".yml"}));
  add_program_flags(cmd, &o->flags);
  cmd->add_flag("--no-guards", o->no_guards,
                "leave out the prim::Guard checks on baked values (a plain torch.jit.trace "
                "graph)");
  add_output_flag(cmd, &o->output, {".yaml", ".yml", ".txt", ".svg", ".png", ".pdf", ".dot"},
                  "write the graph here; the extension picks the form");
  return Command{cmd, [o] { return run_trace(*o); }};
}

}  // namespace d2s::cli
