// What `d2s diff` and `d2s check` share: reading a model's input files and weights,
// binding every set to the entry, and running the trace-vs-parse diff on them
// (the diff itself lives in convert/diff.h; this only reads files).
#pragma once

#include <string>
#include <vector>

#include "cli/commands.h"
#include "convert/diff.h"

namespace d2s::cli {

// Diffs `model` on every input set of every file in `inputs` (in order; each set is
// labelled `path:line`). `options.run` is filled from the flags and the weights.
// Throws d2s::Error (exit 2) for files or a program that cannot be used.
convert::DiffReport diff_model(const std::string& model, const std::vector<std::string>& inputs,
                               const ProgramFlags& flags, convert::DiffOptions options);

}  // namespace d2s::cli
