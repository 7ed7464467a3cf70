// Reading input sets and weights, writing outputs: the YAML files of contract §4,
// documented for users in docs/files.md.
//
// Inputs: a map of parameter names to values (one input set) or a list of such
// maps (several sets). A value is a tensor spec, a plain scalar, null, or a list:
//
//   x:     {shape: [1, 10], data: [0.1, 0.2, ...]}   # float32, row-major (or nested)
//   h:     {shape: [1, 20], fill: randn, seed: 3}    # d2s's Generator
//   mask:  {shape: [4], dtype: bool, data: [true, false, true, true]}
//   w:     {shape: [16, 16], fill: randn, requires_grad: true}
//   n: 5          alpha: 0.5          flag: true
//
// Weights: a map of state_dict names to tensor specs.
// Outputs: `outputs:` a list in return order (see format_outputs_yaml).
//
// Every malformed file is a d2s::Error whose range points into the YAML text, so
// the message shows `file:line:col`, the line and a caret.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/base/number_format.h"
#include "core/base/source.h"
#include "core/tensor/ivalue.h"
#include "core/tensor/tensor.h"

namespace d2s {

// One named value from an inputs file.
struct NamedInput {
  std::string name;
  IValue value;
  bool requires_grad = false;  // `requires_grad: true`; the tensor's flag is set too
  SourceRange range;           // the key in the YAML file, for later messages
};

struct InputSet {
  std::vector<NamedInput> values;  // in file order
  SourceRange range;               // where the set starts in the file

  const NamedInput* find(const std::string& name) const;
  // Names of the values marked `requires_grad: true`, in file order.
  std::vector<std::string> grad_names() const;
};

struct InputFile {
  std::shared_ptr<const SourceFile> file;
  std::vector<InputSet> sets;
  // The file held a list of maps (even of one): outputs are then written as a
  // list too, one entry per set, so that results line up with their inputs.
  bool is_list = false;
};

// Reads an inputs file. `seed` is the command's --seed: it seeds `fill:` specs
// without their own `seed:` (see fill_seed). Throws d2s::Error (exit 2).
InputFile load_input_sets(const std::string& path, uint64_t seed);
InputFile parse_input_sets(std::shared_ptr<const SourceFile> file, uint64_t seed);

struct NamedTensor {
  std::string name;
  Tensor tensor;
  SourceRange range;  // the key in the YAML file; unknown for generated tensors
};

// Reads a weights file: a map of state_dict names to tensor specs (an empty file
// is an empty map). `seed` plays the same role as for inputs, with set index 0.
std::vector<NamedTensor> load_weights(const std::string& path, uint64_t seed = 0);
std::vector<NamedTensor> parse_weights(std::shared_ptr<const SourceFile> file, uint64_t seed = 0);

// The seed of a `fill:` spec that has no `seed:` of its own, derived from the
// command's seed, the input set's index (0-based) and the key, so that every
// tensor gets its own stream and the numbers do not change when other keys are
// added or reordered:
//   fill_seed = mix(mix(mix(seed) ^ set_index) ^ fnv1a64(name))
// where mix is splitmix64's output function and fnv1a64 the 64-bit FNV-1a hash
// of the name's bytes. docs/files.md states the same rule.
uint64_t fill_seed(uint64_t seed, uint64_t set_index, const std::string& name);

// What one run of the entry produced.
struct RunResult {
  IValue value;  // what the entry returned (None when it returned nothing)
  // With --grad: gradients keyed by input or parameter name, written under
  // `grads:`; a None value is written as null (the output does not reach it).
  std::optional<std::vector<std::pair<std::string, IValue>>> grads;
};

// The outputs document. One result: a map `outputs: [...]`. With `as_list`
// (the inputs file held a list of sets): a list of such maps, one per set, in
// order. The entry's return value becomes the `outputs` list this way: a
// returned tuple gives its items in order, None (or no return) gives [], any
// other value is the list's one item. Inside, tensors are {shape, dtype, data}
// with data flat row-major, tuples and lists nested lists, None null, numbers
// plain. Floats are written with the fewest digits that read back to the same
// float32 (tensors) or double (Python floats); NaN and infinities as .nan,
// .inf, -.inf. Throws d2s::Error for a value YAML cannot hold (a module, a
// function).
std::string format_outputs_yaml(const std::vector<RunResult>& results, bool as_list);
void write_outputs_yaml(const std::string& path, const std::vector<RunResult>& results,
                        bool as_list);

// A map of names to tensors in the weights syntax, readable by load_weights
// (`d2s run --dump-weights`).
std::string format_tensor_map_yaml(const std::vector<std::pair<std::string, Tensor>>& tensors);
void write_tensor_map_yaml(const std::string& path,
                           const std::vector<std::pair<std::string, Tensor>>& tensors);

// One value in YAML flow style, as it appears inside `outputs:`.
std::string format_value_yaml(const IValue& value);

}  // namespace d2s
