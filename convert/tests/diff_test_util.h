// Helpers for the diff tests: diffing a sample (all its input sets, or one) or a
// program given as text, and summarising findings as (kind, line) pairs.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "convert/diff.h"
#include "core/io/yaml_io.h"
#include "trace/interpreter.h"

namespace d2s::convert::testing {

inline std::string sample_file(const std::string& name, const std::string& ext) {
  return std::string(D2S_SOURCE_DIR) + "/samples/" + name + ext;
}

// The sets of samples/<name>.inputs.yaml (only set `only` when it is >= 0).
inline std::vector<DiffInputSet> sample_sets(const std::string& name, int only = -1) {
  InputFile file = load_input_sets(sample_file(name, ".inputs.yaml"), 0);
  std::vector<DiffInputSet> out;
  for (size_t i = 0; i < file.sets.size(); ++i) {
    if (only >= 0 && static_cast<int>(i) != only) continue;
    DiffInputSet set;
    set.label = name + ".inputs.yaml:" + std::to_string(file.sets[i].range.line);
    for (const NamedInput& in : file.sets[i].values) set.inputs.emplace_back(in.name, in.value);
    out.push_back(std::move(set));
  }
  return out;
}

// Quick options: no counterexample search unless asked for.
inline DiffOptions quick(bool search = false) {
  DiffOptions o;
  o.search = search;
  return o;
}

inline DiffReport diff_sample(const std::string& name, int only = -1,
                              const DiffOptions& options = quick()) {
  Program program = Program::load(sample_file(name, ".py"));
  return diff_program(program, sample_sets(name, only), options);
}

inline DiffReport diff_source(const std::string& source, const std::vector<NamedInputs>& inputs,
                              const DiffOptions& options = quick()) {
  Program program = Program::from_string(source, "model.py");
  std::vector<DiffInputSet> sets;
  for (size_t i = 0; i < inputs.size(); ++i)
    sets.push_back({"set " + std::to_string(i), inputs[i]});
  return diff_program(program, sets, options);
}

using KindLine = std::pair<std::string, int>;

inline std::vector<KindLine> kinds_lines(const DiffReport& r) {
  std::vector<KindLine> out;
  for (const Finding& f : r.findings) out.emplace_back(finding_kind_name(f.kind), f.range.line);
  return out;
}

inline const Finding* find(const DiffReport& r, FindingKind kind, int line) {
  for (const Finding& f : r.findings) {
    if (f.kind == kind && f.range.line == line) return &f;
  }
  return nullptr;
}

inline const Counterexample* counterexample_at(const DiffReport& r, int line) {
  for (const Counterexample& c : r.counterexamples) {
    if (c.range.line == line) return &c;
  }
  return nullptr;
}

inline Tensor t(const Shape& shape, const std::vector<float>& data) {
  return Tensor::from_floats(shape, data);
}

}  // namespace d2s::convert::testing
