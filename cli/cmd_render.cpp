// d2s render GRAPH.yaml|MODEL.py [--entry NAME] [--inputs IN.yaml] [--weights W.yaml]
//                                [--seed N] [--eval] [--max-nodes N] -o OUT.svg|.png|.pdf|.dot
//
// Draws a graph file, or the parsed graph of a program (what `d2s parse` gives, with
// the same flags), with Graphviz's library in process (viz/render.h). -o picks the
// format from its extension; the picture is written whole or not at all.
#include "cli/commands.h"
#include "core/base/file_io.h"
#include "core/io/graph_yaml.h"
#include "viz/render.h"

namespace d2s::cli {

namespace {

struct RenderCmd {
  std::string input;
  std::string inputs;
  std::string output;
  ProgramFlags flags;
  size_t max_nodes = viz::RenderOptions{}.max_nodes;
};

// Flags that only make sense for a program: a graph file already has its entry,
// types and weights, so giving them is a mistake worth saying.
void reject_program_flags(const RenderCmd& o) {
  auto refuse = [&](const std::string& flag) {
    throw Error(flag + " applies to a model program, not to a graph file ('" + o.input + "')",
                SourceRange(),
                "a graph file already holds its entry, input types and weights; drop " + flag +
                    ", or render the program itself (d2s render MODEL.py " + flag + " ...)");
  };
  if (!o.inputs.empty()) refuse("--inputs");
  if (!o.flags.weights.empty()) refuse("--weights");
  if (!o.flags.entry.empty()) refuse("--entry");
}

int run_render(const RenderCmd& o) {
  require_readable(o.input);
  const bool is_graph = is_yaml_path(o.input) || is_onnx_path(o.input);
  if (!is_graph && extension_of(o.input) != ".py") {
    throw Error("'" + o.input + "' is neither a graph nor a model program", SourceRange(),
                "give a .yaml graph (written by d2s parse/trace) or a .py model program");
  }
  if (is_graph) reject_program_flags(o);
  if (!o.inputs.empty()) require_readable(o.inputs);
  if (!o.flags.weights.empty()) require_readable(o.flags.weights);
  check_output(o.output, "-o", {o.input, o.inputs, o.flags.weights});
  const std::optional<viz::Format> format = viz::format_from_extension(o.output);
  if (!format) {
    throw Error("cannot tell the picture format of '" + o.output + "'", SourceRange(),
                "end -o with .svg, .png, .pdf or .dot");
  }

  std::unique_ptr<ir::Graph> graph;
  if (is_onnx_path(o.input)) {
    graph = load_onnx_graph(o.input, nullptr);
  } else if (is_graph) {
    graph = ir::load_graph_yaml(o.input);
  } else {
    InputFile inputs;
    if (!o.inputs.empty()) inputs = load_input_sets(o.inputs, o.flags.seed);
    std::vector<NamedTensor> weights;
    if (!o.flags.weights.empty()) weights = load_weights(o.flags.weights, o.flags.seed);
    const InputSet* example = inputs.sets.empty() ? nullptr : &inputs.sets[0];
    graph = std::move(parse_model(o.input, o.flags, weights, example, o.inputs).graph);
  }

  viz::RenderOptions options;
  options.max_nodes = o.max_nodes;
  write_file_atomic(o.output, viz::render_graph(*graph, *format, options));
  return 0;
}

}  // namespace

Command setup_render(CLI::App& app) {
  auto o = std::make_shared<RenderCmd>();
  CLI::App* cmd =
      app.add_subcommand("render", "Draw a graph (or a program's parsed graph) with Graphviz");
  cmd->add_option("INPUT", o->input, "the graph file, or a model program to parse first")
      ->required()
      ->type_name("GRAPH.yaml|MODEL.py");
  cmd->add_option("--inputs", o->inputs,
                  "for a program: optional example inputs whose first set gives the tensor "
                  "inputs their shapes and dtypes (nothing is run)")
      ->type_name("IN.yaml")
      ->check(extension_validator({".yaml", ".yml"}));
  add_conversion_flags(cmd, &o->flags);
  cmd->add_option("--max-nodes", o->max_nodes,
                  "draw at most this many nodes; the rest is summarised in one note "
                  "(repeated sequences are folded into one ×N box first)")
      ->type_name("N")
      ->check(CLI::Range(size_t{1}, size_t{10'000'000}))
      ->capture_default_str();
  add_output_flag(cmd, &o->output, {".svg", ".png", ".pdf", ".dot"},
                  "the picture to write; the extension picks the format")
      ->required();
  return Command{cmd, [o] { return run_render(*o); }};
}

}  // namespace d2s::cli
