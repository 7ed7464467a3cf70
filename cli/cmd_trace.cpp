// d2s trace MODEL.py --inputs IN.yaml [--entry NAME] [--weights W.yaml] [--no-guards]
//                    [--max-trace-nodes N] [--reroll] [-o OUT]
//
// Runs the program on the first input set and records each tensor op (contract §2,
// the trace route), with a prim::Guard for every value baked from data unless
// --no-guards. -o picks the form as for parse; without -o the text goes to stdout.
// What the program prints while it is traced is not shown: the graph drops print,
// as torch.jit.trace's does (d2s diff reports it). --reroll folds the unrolled loops
// back into prim::Loops (convert/reroll.h).
#include "cli/commands.h"
#include "convert/reroll.h"

namespace d2s::cli {

namespace {

struct TraceCmd {
  std::string model;
  std::string inputs;
  std::string output;
  ProgramFlags flags;
  TraceFlags trace;
  bool reroll = false;
};

int run_trace(const TraceCmd& o) {
  require_readable(o.model);
  require_readable(o.inputs);
  if (!o.flags.weights.empty()) require_readable(o.flags.weights);
  check_output(o.output, "-o", {o.model, o.inputs, o.flags.weights});

  InputFile inputs = load_input_sets(o.inputs, o.flags.seed);
  std::vector<NamedTensor> weights;
  if (!o.flags.weights.empty()) weights = load_weights(o.flags.weights, o.flags.seed);

  // load_input_sets never gives an empty list (an empty file is one empty set).
  Program program = Program::load(o.model);
  TraceResult traced = trace_model(program, o.flags, weights, o.trace, inputs.sets[0], o.inputs);
  if (o.reroll) convert::reroll_loops(*traced.graph, traced.log);
  write_graph(*traced.graph, o.output);
  return 0;
}

}  // namespace

Command setup_trace(CLI::App& app) {
  auto o = std::make_shared<TraceCmd>();
  CLI::App* cmd =
      app.add_subcommand("trace",
                         "Convert a model program to a graph by running it on example inputs (like "
                         "torch.jit.trace, with guards), and print it as TorchScript-style text");
  cmd->add_option("MODEL", o->model, "the model program")->required()->type_name("MODEL.py");
  cmd->add_option("--inputs", o->inputs,
                  "the example inputs; with several sets in the file, the first set is traced")
      ->required()
      ->type_name("IN.yaml")
      ->check(extension_validator({".yaml", ".yml"}));
  add_program_flags(cmd, &o->flags);
  cmd->add_flag("--no-guards", o->trace.no_guards,
                "leave out the prim::Guard checks on baked values (a plain torch.jit.trace "
                "graph, wrong answers on other paths included)");
  add_max_trace_nodes_flag(cmd, &o->trace.max_nodes);
  cmd->add_flag("--reroll", o->reroll,
                "fold the unrolled loops back into prim::Loops (the traced trip count as a "
                "constant, the guards kept)");
  add_output_flag(
      cmd, &o->output, {".yaml", ".yml", ".txt", ".svg", ".png", ".pdf", ".dot"},
      "write the graph here instead of printing it: the IR file, the text, or a picture "
      "(as d2s render draws it)");
  return Command{cmd, [o] { return run_trace(*o); }};
}

}  // namespace d2s::cli
