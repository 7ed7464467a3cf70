// d2s export MODEL.py|GRAPH.yaml [--route parse|trace] [--entry NAME] [--inputs IN.yaml]
//            [--weights W.yaml] [--opset 13..17] [--dynamic-axes NAME:DIM=LABEL ...]
//            [--input-names ...] [--output-names ...] [--allow-lossy] -o OUT.onnx
//
// Writes the program's graph as an ONNX model (onnx/export.h, docs/onnx.md). The parse
// route (default) keeps if/loops as ONNX If/Loop. The trace route bakes the values its
// guards re-check; such a file is refused (exit 1, naming each line it would get
// wrong) unless --allow-lossy. The file is written whole or not at all, after
// onnx::checker and strict shape inference passed.
#include <iostream>

#include "cli/commands.h"
#include "convert/grad_graph.h"
#include "convert/run_graph.h"
#include "core/base/file_io.h"
#include "core/io/graph_yaml.h"
#include "onnx/export.h"

namespace d2s::cli {

namespace {

struct ExportCmd {
  std::string input;
  std::string inputs;
  std::string route = "parse";
  std::string output;
  int opset = onnx_io::kMaxOpset;
  std::vector<std::string> dynamic_axes;
  std::vector<std::string> input_names;
  std::vector<std::string> output_names;
  bool allow_lossy = false;
  ProgramFlags flags;
  TraceFlags trace;
};

// NAME:DIM=LABEL, as torch.onnx.export's dynamic_axes={'NAME': {DIM: 'LABEL'}}.
void parse_dynamic_axes(const std::vector<std::string>& specs, onnx_io::ExportOptions& opts) {
  for (const std::string& s : specs) {
    size_t colon = s.rfind(':');
    size_t eq = s.find('=', colon == std::string::npos ? 0 : colon);
    std::string dim = colon == std::string::npos || eq == std::string::npos
                          ? std::string()
                          : s.substr(colon + 1, eq - colon - 1);
    bool digits = !dim.empty() && dim.find_first_not_of("0123456789") == std::string::npos;
    if (!digits || colon == 0 || eq + 1 >= s.size() || dim.size() > 9) {
      throw Error("--dynamic-axes '" + s + "' is not NAME:DIM=LABEL", SourceRange(),
                  "e.g. --dynamic-axes x:0=batch_size (input x's dim 0 is the dim 'batch_size')");
    }
    opts.dynamic_axes[s.substr(0, colon)][std::stoll(dim)] = s.substr(eq + 1);
  }
}

// The trace's guards are the values it baked: each is a line the file gets wrong on
// inputs that take another path. Refused unless --allow-lossy; the guards are then
// left out (ONNX cannot check them) with a warning each.
void check_lossy(const ir::Graph& graph, bool allow_lossy) {
  std::vector<const ir::Node*> guards;
  std::vector<const ir::Block*> todo = {graph.block()};
  while (!todo.empty()) {
    const ir::Block* b = todo.back();
    todo.pop_back();
    for (const ir::Node* n : b->nodes()) {
      // A guard on an input's shape or rank is kept by the file itself: its inputs have
      // that static shape (or a --dynamic-axes dim), and runtimes refuse other shapes.
      const IValue* what = n->attr("what");
      const IValue* expr = n->attr("expr");
      bool input_shape = false;
      const bool of_shape = what && what->is_string() &&
                            (what->to_string() == "shape" || what->to_string() == "rank");
      if (of_shape && expr && expr->is_string()) {
        for (const ir::Value* in : graph.inputs()) {
          input_shape = input_shape || in->debug_name() == expr->to_string();
        }
      }
      if (n->kind() == ir::kind::Guard && !input_shape) guards.push_back(n);
      for (const ir::Block* inner : n->blocks()) todo.push_back(inner);
    }
  }
  if (guards.empty()) return;
  std::string list;
  for (const ir::Node* g : guards) {
    const IValue* expr = g->attr("expr");
    const IValue* seen = g->attr("seen");
    list += "  " + g->range().path() + ":" + std::to_string(g->range().line) +
            ": the trace baked '" +
            (expr && expr->is_string() ? expr->to_string() : std::string("?")) +
            "' = " + (seen ? seen->repr() : std::string("?")) + "\n";
  }
  if (!allow_lossy) {
    throw Error("the traced graph holds " + std::to_string(guards.size()) +
                    " value(s) it baked in; an ONNX file of it gives wrong answers on inputs "
                    "that take another path:\n" +
                    list.substr(0, list.size() - 1),
                SourceRange(),
                "export by the parse route (the default), which keeps if/loops; or give "
                "--allow-lossy to write the trace anyway",
                1);
  }
  std::cerr << "d2s export: warning: the ONNX file will be wrong where these lines take "
               "another path (--allow-lossy):\n"
            << list;
}

int run_export(const ExportCmd& o) {
  require_readable(o.input);
  const bool graph_file = is_yaml_path(o.input);
  if (!graph_file && extension_of(o.input) != ".py") {
    throw Error("'" + o.input + "' is neither a model program nor a graph", SourceRange(),
                "give a .py model program or a .yaml graph (written by d2s parse/trace)");
  }
  if (!o.inputs.empty()) require_readable(o.inputs);
  if (!o.flags.weights.empty()) require_readable(o.flags.weights);
  check_output(o.output, "-o", {o.input, o.inputs, o.flags.weights});

  InputFile inputs;
  if (!o.inputs.empty()) inputs = load_input_sets(o.inputs, o.flags.seed);
  std::vector<NamedTensor> weights;
  if (!o.flags.weights.empty()) weights = load_weights(o.flags.weights, o.flags.seed);

  onnx_io::ExportOptions opts;
  opts.opset = o.opset;
  opts.input_names = o.input_names;
  opts.output_names = o.output_names;
  opts.while_max_trip_count = o.flags.max_iterations;
  parse_dynamic_axes(o.dynamic_axes, opts);

  std::unique_ptr<ir::Graph> graph;
  if (graph_file) {
    graph = ir::load_graph_yaml(o.input);
    convert::GraphRunOptions run;
    run.weights = weights;
    run.seed = o.flags.seed;
    run.training = !o.flags.eval;
    convert::GraphRunner runner(*graph, run);
    opts.parameters = runner.parameters();
  } else if (o.route == "parse") {
    const InputSet* example = inputs.sets.empty() ? nullptr : &inputs.sets[0];
    convert::LoweredGraph lowered = parse_model(o.input, o.flags, weights, example, o.inputs);
    opts.parameters = std::move(lowered.parameters);
    graph = std::move(lowered.graph);
  } else {
    if (inputs.sets.empty()) {
      throw Error("the trace route needs example inputs", SourceRange(),
                  "give --inputs IN.yaml (the first set is traced)");
    }
    Program program = Program::load(o.input);
    graph = trace_model(program, o.flags, weights, o.trace, inputs.sets[0], o.inputs).graph;
    convert::GraphRunOptions run;
    run.weights = weights;
    run.seed = o.flags.seed;
    run.training = !o.flags.eval;
    convert::GraphRunner runner(*graph, run);
    opts.parameters = runner.parameters();
  }
  check_lossy(*graph, o.allow_lossy);
  convert::functionalize(*graph);  // ONNX values are immutable: no in-place ops

  std::vector<std::string> notes;
  std::string bytes = onnx_io::export_onnx(*graph, opts, &notes);
  for (const std::string& n : notes) std::cerr << n << "\n";
  write_file_atomic(o.output, bytes);
  return 0;
}

}  // namespace

Command setup_export(CLI::App& app) {
  auto o = std::make_shared<ExportCmd>();
  CLI::App* cmd = app.add_subcommand(
      "export", "Write a program's graph (or a graph file) as an ONNX model, if/loops kept");
  cmd->add_option("INPUT", o->input, "the model program (.py) or graph (.yaml) to export")
      ->required()
      ->type_name("MODEL.py|GRAPH.yaml");
  cmd->add_option("--route", o->route,
                  "parse (keeps if/loops as ONNX If/Loop) or trace (bakes the example's path; "
                  "refused unless --allow-lossy when the trace baked a value)")
      ->check(CLI::IsMember({"parse", "trace"}))
      ->capture_default_str();
  cmd->add_option("--inputs", o->inputs,
                  "example inputs: parse takes the first set's shapes and dtypes, trace traces "
                  "the first set")
      ->type_name("IN.yaml")
      ->check(extension_validator({".yaml", ".yml"}));
  add_program_flags(cmd, &o->flags);
  cmd->add_option("--opset", o->opset, "the ONNX opset to write (13 to 17)")
      ->check(CLI::Range(onnx_io::kMinOpset, onnx_io::kMaxOpset))
      ->capture_default_str();
  cmd->add_option("--dynamic-axes", o->dynamic_axes,
                  "NAME:DIM=LABEL: that dim of input NAME is the symbolic dim LABEL "
                  "(torch.onnx.export's dynamic_axes); repeatable")
      ->type_name("NAME:DIM=LABEL");
  cmd->add_option("--input-names", o->input_names,
                  "names of the inputs in the file, in order (default: the parameters' names)");
  cmd->add_option("--output-names", o->output_names,
                  "names of the outputs in the file, in order (default: output, output0, ...)");
  cmd->add_flag("--allow-lossy", o->allow_lossy,
                "--route trace: write the file even though the trace baked values (it is then "
                "wrong on inputs that take another path)");
  add_output_flag(cmd, &o->output, {".onnx"}, "the ONNX model to write, atomically")->required();
  return Command{cmd, [o] { return run_export(*o); }};
}

}  // namespace d2s::cli
