// d2s parse MODEL.py [--entry NAME] [--inputs IN.yaml] [--weights W.yaml] [--seed N]
//                    [--eval] [-o OUT]
//
// Lowers the program's source to the graph IR (contract §2, the parse route) and
// writes it: -o picks the form from the extension (.yaml the IR file, .txt the
// text, .svg .png .pdf .dot a picture); without -o the TorchScript-style text goes
// to stdout. --inputs is optional
// and only lends example shapes and dtypes (its first set), so that tensor inputs
// get a rank and symbolic dims; nothing runs but the entry module's __init__.
#include "cli/commands.h"

namespace d2s::cli {

namespace {

struct ParseCmd {
  std::string model;
  std::string inputs;
  std::string output;
  ProgramFlags flags;
};

int run_parse(const ParseCmd& o) {
  require_readable(o.model);
  if (!o.inputs.empty()) require_readable(o.inputs);
  if (!o.flags.weights.empty()) require_readable(o.flags.weights);
  check_output(o.output, "-o", {o.model, o.inputs, o.flags.weights});

  InputFile inputs;
  if (!o.inputs.empty()) inputs = load_input_sets(o.inputs, o.flags.seed);
  std::vector<NamedTensor> weights;
  if (!o.flags.weights.empty()) weights = load_weights(o.flags.weights, o.flags.seed);
  const InputSet* example = inputs.sets.empty() ? nullptr : &inputs.sets[0];

  convert::LoweredGraph lowered = parse_model(o.model, o.flags, weights, example, o.inputs);
  write_graph(*lowered.graph, o.output);
  return 0;
}

}  // namespace

Command setup_parse(CLI::App& app) {
  auto o = std::make_shared<ParseCmd>();
  CLI::App* cmd = app.add_subcommand(
      "parse",
      "Convert a model program to a graph by parsing its source, control flow kept (like "
      "torch.jit.script), and print it as TorchScript-style text");
  cmd->add_option("MODEL", o->model, "the model program")->required()->type_name("MODEL.py");
  cmd->add_option("--inputs", o->inputs,
                  "optional example inputs: the first set's tensor shapes and dtypes give the "
                  "inputs their rank and symbolic dims (nothing is run)")
      ->type_name("IN.yaml")
      ->check(extension_validator({".yaml", ".yml"}));
  add_conversion_flags(cmd, &o->flags);
  add_output_flag(
      cmd, &o->output, {".yaml", ".yml", ".txt", ".svg", ".png", ".pdf", ".dot"},
      "write the graph here instead of printing it: the IR file, the text, or a picture "
      "(as d2s render draws it)");
  return Command{cmd, [o] { return run_parse(*o); }};
}

}  // namespace d2s::cli
