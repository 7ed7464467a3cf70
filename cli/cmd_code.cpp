// d2s code MODEL.py|GRAPH.yaml|MODEL.onnx [--route parse|trace] [--inputs IN.yaml] [--reroll]
//                               [--entry NAME] [--weights W.yaml] [-o OUT.py]
//
// Writes a graph back as Python that PyTorch runs and `d2s parse` reads
// (convert/codegen.h, docs/code.md): a program's parsed graph (the default) or its
// trace on the first input set (--route trace; --reroll folds the unrolled loops
// back first), or a graph file or an imported ONNX model as it is. Without -o the code
// goes to stdout.
#include <iostream>

#include "cli/commands.h"
#include "convert/codegen.h"
#include "convert/reroll.h"
#include "core/base/file_io.h"
#include "core/io/graph_yaml.h"

namespace d2s::cli {

namespace {

struct CodeCmd {
  std::string input;
  std::string route = "parse";
  std::string inputs;
  std::string output;
  bool reroll = false;
  ProgramFlags flags;
  TraceFlags trace;
  const CLI::Option* route_option = nullptr;
};

void refuse(const std::string& what, const std::string& hint) {
  throw Error(what, SourceRange(), hint);
}

int run_code(const CodeCmd& o) {
  require_readable(o.input);
  const bool onnx_file = is_onnx_path(o.input);
  const bool graph_file = is_yaml_path(o.input) || onnx_file;
  if (!graph_file && extension_of(o.input) != ".py") {
    refuse("'" + o.input + "' is neither a model program nor a graph",
           "give a .py model program, a .yaml graph (written by d2s parse/trace/grad) or an "
           ".onnx model");
  }
  if (graph_file && o.route_option->count() > 0) {
    refuse("--route applies to a model program, not to a graph file ('" + o.input + "')",
           "a graph file is written as it is; drop --route");
  }
  if (!graph_file && o.route == "trace" && o.inputs.empty()) {
    refuse("--route trace needs example inputs", "add --inputs IN.yaml (its first set is traced)");
  }
  if (o.reroll && (graph_file || o.route != "trace")) {
    refuse("--reroll applies to --route trace", "add --route trace --inputs IN.yaml");
  }
  if (!o.inputs.empty()) require_readable(o.inputs);
  if (!o.flags.weights.empty()) require_readable(o.flags.weights);
  check_output(o.output, "-o", {o.input, o.inputs, o.flags.weights});

  std::vector<NamedTensor> weights;
  if (!o.flags.weights.empty()) weights = load_weights(o.flags.weights, o.flags.seed);
  std::unique_ptr<ir::Graph> graph;
  convert::CodegenOptions options;
  if (onnx_file) {
    // The initializers are the graph's last inputs: module parameters, by their names.
    std::vector<std::pair<std::string, Tensor>> initializers;
    graph = load_onnx_graph(o.input, &initializers);
    options.num_arguments = static_cast<int>(graph->inputs().size() - initializers.size());
  } else if (graph_file) {
    graph = ir::load_graph_yaml(o.input);
  } else if (o.route == "parse") {
    InputFile inputs;
    if (!o.inputs.empty()) inputs = load_input_sets(o.inputs, o.flags.seed);
    convert::LoweredGraph lowered = parse_model(
        o.input, o.flags, weights, inputs.sets.empty() ? nullptr : &inputs.sets[0], o.inputs);
    options.num_arguments = static_cast<int>(lowered.num_arguments);
    options.argument_defaults = lowered.argument_defaults;
    graph = std::move(lowered.graph);
  } else {
    InputFile inputs = load_input_sets(o.inputs, o.flags.seed);
    Program program = Program::load(o.input);
    TraceResult traced = trace_model(program, o.flags, weights, o.trace, inputs.sets[0], o.inputs);
    graph = std::move(traced.graph);
    options.num_arguments = static_cast<int>(graph->inputs().size() - program.parameters().size());
    if (o.reroll) convert::reroll_loops(*graph, traced.log);
  }
  std::string code = convert::generate_python(*graph, options);
  if (o.output.empty()) {
    std::cout << code << std::flush;
  } else {
    write_file_atomic(o.output, code);
  }
  return 0;
}

}  // namespace

Command setup_code(CLI::App& app) {
  auto o = std::make_shared<CodeCmd>();
  CLI::App* cmd = app.add_subcommand(
      "code",
      "Write a graph back as Python code that PyTorch runs and d2s parse reads: a program's "
      "parsed or traced graph, or a graph file");
  cmd->add_option("INPUT", o->input,
                  "the model program (.py), graph file (.yaml) or ONNX model (.onnx)")
      ->required()
      ->type_name("MODEL.py|GRAPH.yaml|MODEL.onnx");
  o->route_option =
      cmd->add_option("--route", o->route,
                      "for a .py: the parsed graph (parse), or the trace of the first input set "
                      "(trace, with its guards as asserts)")
          ->check(CLI::IsMember({"parse", "trace"}))
          ->capture_default_str();
  cmd->add_option("--inputs", o->inputs,
                  "example inputs: the set traced by --route trace; for parse, shapes only")
      ->type_name("IN.yaml")
      ->check(extension_validator({".yaml", ".yml"}));
  add_program_flags(cmd, &o->flags);
  cmd->add_flag("--no-guards", o->trace.no_guards,
                "--route trace: leave out the guards (and so the asserts)");
  add_max_trace_nodes_flag(cmd, &o->trace.max_nodes);
  cmd->add_flag("--reroll", o->reroll,
                "--route trace: fold the trace's unrolled loops back into loops first");
  add_output_flag(cmd, &o->output, {".py"}, "write the code here, atomically");
  return Command{cmd, [o] { return run_code(*o); }};
}

}  // namespace d2s::cli
