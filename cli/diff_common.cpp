// Input sets and weights for `d2s diff` / `d2s check` (diff_common.h).
#include "cli/diff_common.h"

namespace d2s::cli {

convert::DiffReport diff_model(const std::string& model, const std::vector<std::string>& inputs,
                               const ProgramFlags& flags, convert::DiffOptions options) {
  // Read every file before running anything, so that a bad one fails fast.
  std::vector<InputFile> files;
  for (const std::string& path : inputs) files.push_back(load_input_sets(path, flags.seed));
  std::vector<NamedTensor> weights;
  if (!flags.weights.empty()) weights = load_weights(flags.weights, flags.seed);

  Program program = Program::load(model);
  options.run = make_run_options(flags, weights);
  const EntryInfo entry = program.entry(flags.entry);
  std::vector<convert::DiffInputSet> sets;
  for (size_t f = 0; f < files.size(); ++f) {
    for (const InputSet& set : files[f].sets) {
      convert::DiffInputSet s;
      s.label = inputs[f] + ":" + std::to_string(set.range.line);
      s.inputs = bind_inputs(entry, set, inputs[f]);
      sets.push_back(std::move(s));
    }
  }
  if (sets.empty()) {
    throw Error("the inputs files hold no input set", SourceRange(),
                "give at least one set: a map of parameter names to values");
  }
  // A weights file that does not fit the module is reported at its key.
  prepare_with_weights(program, options.run, weights);
  return convert::diff_program(program, sets, options);
}

}  // namespace d2s::cli
