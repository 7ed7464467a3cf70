// The two routes with the command line's flags, and writing graphs (commands.h).
#include <iostream>
#include <sstream>

#include "cli/commands.h"
#include "core/base/file_io.h"
#include "core/io/graph_yaml.h"
#include "core/ir/printer.h"
#include "viz/render.h"

namespace d2s::cli {

convert::LoweredGraph parse_model(const std::string& model, const ProgramFlags& flags,
                                  const std::vector<NamedTensor>& weights, const InputSet* example,
                                  const std::string& example_path, bool example_shapes) {
  convert::LowerOptions opts;
  opts.entry = flags.entry;
  opts.seed = flags.seed;
  opts.training = !flags.eval;
  for (const auto& w : weights) opts.weights[w.name] = w.tensor;

  std::shared_ptr<const SourceFile> file = SourceFile::load(model);
  if (example || !weights.empty()) {
    // The lowering checks weights too, but without their place in W.yaml; and an
    // example set naming no parameter of the entry is most likely a typo.
    Program program = Program::from_source(file);
    EntryInfo entry = program.entry(flags.entry);
    if (example) {
      for (const auto& [name, value] : bind_inputs(entry, *example, example_path, false)) {
        if (!value.is_tensor()) {
          opts.input_examples[name] = value;
          continue;
        }
        if (!example_shapes) continue;
        opts.input_shapes[name] = value.to_tensor().shape();
        opts.input_dtypes[name] = value.to_tensor().dtype();
      }
    }
    if (!weights.empty()) {
      RunOptions run = make_run_options(flags, weights);
      std::ostringstream discard;  // what __init__ prints is not the command's output
      run.out = &discard;
      prepare_with_weights(program, run, weights);
    }
  }
  return convert::lower_program(file, opts);
}

TraceResult trace_model(Program& program, const ProgramFlags& flags,
                        const std::vector<NamedTensor>& weights, const TraceFlags& trace,
                        const InputSet& set, const std::string& inputs_path) {
  TraceOptions opts;
  opts.run = make_run_options(flags, weights);
  std::ostringstream discard;
  opts.run.out = &discard;
  opts.guards = !trace.no_guards;
  opts.max_nodes = trace.max_nodes;

  EntryInfo entry = program.entry(flags.entry);
  NamedInputs named = bind_inputs(entry, set, inputs_path);
  // The traced run may update its inputs in place (`s += 1`): it gets copies, so
  // that the set is still as the file gives it when the graph runs on it. The copies
  // keep `requires_grad` (a backward() in the program needs it).
  for (auto& [name, value] : named) {
    if (value.is_tensor() && value.to_tensor().defined()) {
      Tensor copy = value.to_tensor().clone();
      copy.set_requires_grad(value.to_tensor().requires_grad());
      value = IValue(copy);
    }
  }
  prepare_with_weights(program, opts.run, weights);
  return trace_program(program, named, opts);
}

void write_graph(const ir::Graph& graph, const std::string& output) {
  if (output.empty()) {
    std::cout << ir::print_graph(graph) << std::flush;
    return;
  }
  if (is_yaml_path(output)) {
    write_file_atomic(output, ir::graph_to_yaml(graph));
  } else if (std::optional<viz::Format> picture = viz::format_from_extension(output)) {
    // As `d2s render GRAPH.yaml -o` draws it, with the default options.
    write_file_atomic(output, viz::render_graph(graph, *picture));
  } else {
    write_file_atomic(output, ir::print_graph(graph));
  }
}

}  // namespace d2s::cli
