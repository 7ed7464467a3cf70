// d2s run MODEL.py|GRAPH.yaml [--inputs IN.yaml] [--mode eager|trace|parse] ...
//
// Runs the entry once per input set and prints the outputs as YAML (docs/files.md)
// to stdout or -o. What the program prints comes first on stdout; with -o, stdout
// holds only those prints. Nothing is written unless every set ran: the outputs
// (and --dump-weights) are produced after the last set, each file atomically.
//
// Modes of a .py: eager runs the interpreter; parse lowers the program once and
// executes the graph on every set; trace traces the first set (or the first set of
// --trace-inputs) and executes that graph on every set, so a set that takes another
// path fails its guard (exit 1) unless --no-guards. A .yaml graph is loaded,
// verified and executed on every set. Graphs run through convert::GraphRunner.
#include <iostream>
#include <set>

#include "cli/commands.h"
#include "convert/compile.h"
#include "convert/run_graph.h"
#include "core/autograd/autograd.h"
#include "core/base/file_io.h"
#include "core/io/graph_yaml.h"
#include "onnx/eager_export.h"

namespace d2s::cli {

namespace {

struct RunCmd {
  std::string input;
  std::string inputs;
  std::string mode = "eager";
  bool grad = false;
  bool explain = false;  // list the compiled functions on stderr after the run
  std::string output;
  std::string dump_weights;
  std::string trace_inputs;
  TraceFlags trace;
  ProgramFlags flags;
  // To tell a flag given on the command line from its default.
  const CLI::Option* mode_option = nullptr;
  const CLI::Option* entry_option = nullptr;
  const CLI::Option* max_nodes_option = nullptr;
};

// Flags that do not apply to what is being run are refused rather than ignored.
void check_flag_combinations(const RunCmd& o, bool graph) {
  auto refuse = [](const std::string& what, const std::string& hint) {
    throw Error(what, SourceRange(), hint);
  };
  if (graph) {
    if (o.mode_option->count() > 0) {
      refuse("--mode applies to a model program, not to a graph file ('" + o.input + "')",
             "a graph file is executed as it is; drop --mode");
    }
    if (o.entry_option->count() > 0) {
      refuse("--entry applies to a model program; the graph file '" + o.input +
                 "' holds one entry already",
             "drop --entry, or convert the program again with d2s parse/trace --entry");
    }
  }
  if (o.mode != "trace" || graph) {
    const char* flag = !o.trace_inputs.empty()       ? "--trace-inputs"
                       : o.trace.no_guards           ? "--no-guards"
                       : o.max_nodes_option->count() ? "--max-trace-nodes"
                                                     : nullptr;
    if (flag) refuse(std::string(flag) + " applies to --mode trace only", "add --mode trace");
  }
}

// Guard and assert failures (exit 1) say which set failed when a file holds several.
IValue run_set(convert::GraphRunner& runner, const InputFile& inputs, size_t i) {
  try {
    return runner.run(inputs.sets[i]);
  } catch (const Error& e) {
    if (e.exit_code() != 1 || inputs.sets.size() < 2) throw;
    throw Error(e.message() + " (on input set " + std::to_string(i) + ")", e.range(), e.hint(),
                e.exit_code());
  }
}

// Builds the graph to execute for `o`: loaded, parsed or traced.
std::unique_ptr<ir::Graph> make_graph(const RunCmd& o, bool graph_file, const InputFile& inputs,
                                      const std::vector<NamedTensor>& weights,
                                      convert::GraphRunOptions& run) {
  if (graph_file) {
    run.weights = weights;
    if (is_onnx_path(o.input)) {
      auto g = load_onnx_graph(o.input, &run.parameters);
      if (!weights.empty()) run.parameters.clear();  // --weights replace the initializers
      return g;
    }
    return ir::load_graph_yaml(o.input);
  }
  if (o.mode == "parse") {
    // The first input set types the unannotated parameters it gives a tuple, number or
    // list; its shapes are not lent (a run takes whatever shapes each set has).
    convert::LoweredGraph lowered = parse_model(
        o.input, o.flags, weights, o.inputs.empty() ? nullptr : &inputs.sets[0], o.inputs, false);
    run.parameters = std::move(lowered.parameters);
    return std::move(lowered.graph);
  }
  // trace
  Program program = Program::load(o.input);
  std::unique_ptr<ir::Graph> g;
  if (o.trace_inputs.empty()) {
    g = trace_model(program, o.flags, weights, o.trace, inputs.sets[0], o.inputs).graph;
  } else {
    InputFile t = load_input_sets(o.trace_inputs, o.flags.seed);
    g = trace_model(program, o.flags, weights, o.trace, t.sets[0], o.trace_inputs).graph;
  }
  // The trace was made with the weights loaded (every name checked there): buffers
  // (register_buffer) are its constants, so the graph runs with the parameters only.
  std::set<std::string> graph_inputs;
  for (const ir::Value* in : g->inputs()) graph_inputs.insert(in->debug_name());
  for (const NamedTensor& w : weights) {
    if (graph_inputs.count(w.name)) run.weights.push_back(w);
  }
  return g;
}

int run_run(const RunCmd& o) {
  require_readable(o.input);
  bool graph = is_yaml_path(o.input) || is_onnx_path(o.input);
  if (!graph && extension_of(o.input) != ".py") {
    throw Error("'" + o.input + "' is neither a model program nor a graph", SourceRange(),
                "give a .py model program, a .yaml graph (written by d2s parse/trace) or an "
                ".onnx model");
  }
  check_flag_combinations(o, graph);
  if (!o.inputs.empty()) require_readable(o.inputs);
  if (!o.trace_inputs.empty()) require_readable(o.trace_inputs);
  if (!o.flags.weights.empty()) require_readable(o.flags.weights);
  std::vector<std::string> in_files = {o.input, o.inputs, o.trace_inputs, o.flags.weights};
  check_output(o.output, "-o", in_files);
  convert::ParseRouteCompiler compiler;
  check_output(o.dump_weights, "--dump-weights", in_files);
  if (!o.output.empty() && !o.dump_weights.empty() && o.output == o.dump_weights) {
    throw Error("-o and --dump-weights name the same file '" + o.output + "'", SourceRange(),
                "write them to two files");
  }

  // Read every input before running anything, so a bad file fails fast.
  InputFile inputs;
  if (o.inputs.empty()) {
    inputs.sets.emplace_back();  // no --inputs: one empty set (an entry without parameters)
  } else {
    inputs = load_input_sets(o.inputs, o.flags.seed);
  }
  std::vector<NamedTensor> weights;
  if (!o.flags.weights.empty()) weights = load_weights(o.flags.weights, o.flags.seed);

  std::vector<RunResult> results;
  std::vector<std::pair<std::string, Tensor>> used_weights;
  if (graph || o.mode != "eager") {
    convert::GraphRunOptions run;
    run.seed = o.flags.seed;
    run.training = !o.flags.eval;
    run.out = &std::cout;
    run.max_loop_iterations = o.flags.max_iterations;
    run.inputs_path = o.inputs;
    run.grad = o.grad;
    std::unique_ptr<ir::Graph> g = make_graph(o, graph, inputs, weights, run);
    convert::GraphRunner runner(*g, std::move(run));
    for (const auto& [name, t] : runner.parameters()) used_weights.emplace_back(name, t.clone());
    for (size_t i = 0; i < inputs.sets.size(); ++i) {
      results.push_back(RunResult{run_set(runner, inputs, i), std::nullopt});
      if (o.grad) {
        results.back().grads =
            gradients_of_first_output(results.back().value, runner.grad_leaves());
      }
    }
  } else {
    Program program = Program::load(o.input);
    RunOptions opts = make_run_options(o.flags, weights);
    opts.out = &std::cout;
    // @torch.compile / @torch.jit.script functions run by the parse route.
    opts.compile_hook = &compiler;
    // torch.onnx.export(...) writes its file through d2s's exporter (parse route).
    onnx_io::OnnxExportHook exporter(&std::cerr);
    opts.export_hook = &exporter;
    EntryInfo entry = program.entry(o.flags.entry);
    for (size_t i = 0; i < inputs.sets.size(); ++i) {
      NamedInputs named = bind_inputs(entry, inputs.sets[i], o.inputs);
      prepare_with_weights(program, opts, weights);
      // The parameters as the run starts (initialised or loaded), cloned before
      // forward can update them in place.
      if (i == 0 && !o.dump_weights.empty()) {
        for (const auto& [name, t] : program.parameters()) {
          used_weights.emplace_back(name, t.clone());
        }
      }
      results.push_back(RunResult{program.call_entry(named, opts), std::nullopt});
      if (o.grad) {
        // The inputs marked `requires_grad: true`, then the module's parameters.
        std::vector<std::pair<std::string, Tensor>> leaves;
        for (const auto& [name, v] : named) {
          if (v.is_tensor() && v.to_tensor().requires_grad())
            leaves.emplace_back(name, v.to_tensor());
        }
        for (const auto& [name, t] : program.parameters()) leaves.emplace_back(name, t);
        results.back().grads = gradients_of_first_output(results.back().value, leaves);
      }
    }
  }
  std::cout.flush();
  if (o.explain) compiler.explain(std::cerr);

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
  o->mode_option =
      cmd->add_option("--mode", o->mode,
                      "how to run a .py: eager (the interpreter); parse (lower the source once, "
                      "execute the graph on every set); trace (trace on the first set, or on "
                      "--trace-inputs, then execute that graph on every set: a set that takes "
                      "another path fails its guard, exit 1)")
          ->check(CLI::IsMember({"eager", "trace", "parse"}))
          ->capture_default_str();
  add_program_flags(cmd, &o->flags);
  o->entry_option = cmd->get_option("--entry");
  cmd->add_option("--trace-inputs", o->trace_inputs,
                  "--mode trace: trace on the first set of this file instead of the first set "
                  "of --inputs")
      ->type_name("T.yaml")
      ->check(extension_validator({".yaml", ".yml"}));
  cmd->add_flag("--no-guards", o->trace.no_guards,
                "--mode trace: a plain torch.jit.trace graph without guards (wrong answers "
                "on other paths, as torch.jit.trace gives)");
  add_max_trace_nodes_flag(cmd, &o->trace.max_nodes);
  o->max_nodes_option = cmd->get_option("--max-trace-nodes");
  cmd->add_flag("--explain", o->explain,
                "eager mode: after the run, list on stderr each @torch.compile / "
                "@torch.jit.script function: lowered by the parse route (graph size) or fell "
                "back to eager, and why");
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
