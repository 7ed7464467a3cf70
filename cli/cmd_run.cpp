// d2s run MODEL.py|GRAPH.yaml [--inputs IN.yaml] [--mode eager|trace|parse] ...
//
// Runs the entry once per input set and prints the outputs as YAML (docs/files.md)
// to stdout or -o. What the program prints comes first on stdout; with -o, stdout
// holds only those prints. Nothing is written unless every set ran: the outputs
// (and --dump-weights) are produced after the last set, each file atomically.
#include <iostream>

#include "cli/commands.h"
#include "core/file_io.h"

namespace d2s::cli {

namespace {

struct RunCmd {
  std::string input;
  std::string inputs;
  std::string mode = "eager";
  bool grad = false;
  std::string output;
  std::string dump_weights;
  ProgramFlags flags;
};

int run_run(const RunCmd& o) {
  require_readable(o.input);
  bool graph = is_yaml_path(o.input);
  if (!graph && extension_of(o.input) != ".py") {
    throw Error("'" + o.input + "' is neither a model program nor a graph", SourceRange(),
                "give a .py model program or a .yaml graph (written by d2s parse/trace)");
  }
  if (!o.inputs.empty()) require_readable(o.inputs);
  if (!o.flags.weights.empty()) require_readable(o.flags.weights);
  std::vector<std::string> in_files = {o.input, o.inputs, o.flags.weights};
  check_output(o.output, "-o", in_files);
  check_output(o.dump_weights, "--dump-weights", in_files);
  if (!o.output.empty() && !o.dump_weights.empty() && o.output == o.dump_weights) {
    throw Error("-o and --dump-weights name the same file '" + o.output + "'", SourceRange(),
                "write them to two files");
  }

  if (graph) return not_available("run GRAPH.yaml", "it comes with the graph IR and executor");
  if (o.mode != "eager") {
    return not_available("run --mode " + o.mode, o.mode == "trace" ? "it comes with the tracer"
                                                                   : "it comes with the graph IR");
  }
  if (o.grad) return not_available("run --grad", "it comes with autograd");

  // Read every input before running anything, so a bad file fails fast.
  InputFile inputs;
  if (o.inputs.empty()) {
    inputs.sets.emplace_back();  // no --inputs: one empty set (an entry without parameters)
  } else {
    inputs = load_input_sets(o.inputs, o.flags.seed);
  }
  std::vector<NamedTensor> weights;
  if (!o.flags.weights.empty()) weights = load_weights(o.flags.weights, o.flags.seed);

  Program program = Program::load(o.input);
  RunOptions opts = make_run_options(o.flags, weights);
  opts.out = &std::cout;
  EntryInfo entry = program.entry(o.flags.entry);

  std::vector<RunResult> results;
  std::vector<std::pair<std::string, Tensor>> used_weights;
  for (size_t i = 0; i < inputs.sets.size(); ++i) {
    NamedInputs named = bind_inputs(entry, inputs.sets[i], o.inputs);
    prepare_with_weights(program, opts, weights);
    // The parameters as the run starts (initialised or loaded), cloned before
    // forward can update them in place.
    if (i == 0 && !o.dump_weights.empty()) {
      for (const auto& [name, t] : program.parameters()) used_weights.emplace_back(name, t.clone());
    }
    results.push_back(RunResult{program.call_entry(named, opts), std::nullopt});
  }
  std::cout.flush();

  std::string yaml = format_outputs_yaml(results, inputs.is_list);
  if (!o.dump_weights.empty()) write_tensor_map_yaml(o.dump_weights, used_weights);
  if (o.output.empty()) {
    std::cout << yaml << std::flush;
  } else {
    write_file_atomic(o.output, yaml);
  }
  return 0;
}

}  // namespace

Command setup_run(CLI::App& app) {
  auto o = std::make_shared<RunCmd>();
  CLI::App* cmd = app.add_subcommand(
      "run",
      "Run a model program (eagerly, or as its traced or parsed graph) or a graph file, "
      "and print its outputs as YAML");
  cmd->add_option("INPUT", o->input, "the model program (.py) or graph (.yaml) to run")
      ->required()
      ->type_name("MODEL.py|GRAPH.yaml");
  cmd->add_option("--inputs", o->inputs,
                  "input values by parameter name: a map, or a list of maps for several input "
                  "sets (omit for an entry without parameters)")
      ->type_name("IN.yaml")
      ->check(extension_validator({".yaml", ".yml"}));
  cmd->add_option("--mode", o->mode,
                  "how to run a .py: eager (the interpreter), trace or parse (convert first, "
                  "then execute the graph)")
      ->check(CLI::IsMember({"eager", "trace", "parse"}))
      ->capture_default_str();
  add_program_flags(cmd, &o->flags);
  cmd->add_flag("--grad", o->grad,
                "also print the gradients of the first output (a one-element float tensor) "
                "under grads:");
  add_output_flag(cmd, &o->output, {".yaml", ".yml"}, "write the outputs YAML here, atomically");
  cmd->add_option("--dump-weights", o->dump_weights,
                  "write the parameters the run used (state_dict names) to this YAML file")
      ->type_name("W.yaml")
      ->check(extension_validator({".yaml", ".yml"}));
  return Command{cmd, [o] { return run_run(*o); }};
}

}  // namespace d2s::cli
