// Binding input sets and weights to a program, with messages that point into the
// YAML files: the interpreter knows the program but not where a value came from.
#include <set>
#include <sstream>

#include "cli/commands.h"
#include "core/base/text.h"

namespace d2s::cli {

namespace {

std::string entry_label(const EntryInfo& entry) {
  return entry.kind == EntryInfo::Kind::Module ? "<module>" : "'" + entry.name + "'";
}

}  // namespace

NamedInputs bind_inputs(const EntryInfo& entry, const InputSet& set, const std::string& inputs_path,
                        bool require_all) {
  std::vector<std::string> names;
  for (const auto& p : entry.params) names.push_back(p.name);

  if (entry.kind == EntryInfo::Kind::Module && !set.values.empty()) {
    throw Error("the entry <module> (the file's top-level statements) takes no inputs, but '" +
                    set.values[0].name + "' is given",
                set.values[0].range, "drop --inputs, or pick a function or class with --entry");
  }
  // A misspelt name most likely meant a parameter the set does not give yet.
  std::vector<std::string> missing;
  for (const auto& n : names) {
    if (!set.find(n)) missing.push_back(n);
  }
  NamedInputs out;
  for (const auto& in : set.values) {
    if (std::find(names.begin(), names.end(), in.name) == names.end()) {
      std::string near = did_you_mean(in.name, missing);
      throw Error("'" + in.name + "' is not a parameter of the entry " + entry_label(entry),
                  in.range,
                  (near.empty() ? did_you_mean(in.name, names) : near) +
                      (names.empty() ? "the entry takes no parameters"
                                     : "its parameters are: " + join_names(names)));
    }
    out.emplace_back(in.name, in.value);
  }
  for (const auto& p : entry.params) {
    if (!require_all || p.default_value || set.find(p.name)) continue;
    std::string example = p.annotation == "int"     ? p.name + ": 3"
                          : p.annotation == "float" ? p.name + ": 0.5"
                          : p.annotation == "bool"  ? p.name + ": true"
                                                    : p.name + ": {shape: [...], data: [...]}";
    if (inputs_path.empty()) {
      throw Error("the entry " + entry_label(entry) + " needs an input '" + p.name + "'", p.range,
                  "give --inputs IN.yaml holding `" + example + "`");
    }
    SourceRange where = set.range;
    where.len = 1;
    throw Error(
        "this input set has no '" + p.name + "', a parameter of the entry " + entry_label(entry),
        where, "add `" + example + "` to " + inputs_path);
  }
  return out;
}

void prepare_with_weights(Program& program, const RunOptions& opts,
                          const std::vector<NamedTensor>& weights) {
  try {
    program.prepare(opts);
    return;
  } catch (const Error& err) {
    if (weights.empty()) throw;
    // Build the module again without the weights (its prints discarded) to see
    // its parameters, and find the key of the weights file at fault. When the
    // failure lies elsewhere, report the original error.
    RunOptions plain = opts;
    plain.weights.clear();
    std::ostringstream sink;
    plain.out = &sink;
    std::vector<std::pair<std::string, Tensor>> params;
    try {
      program.prepare(plain);
      params = program.parameters();
    } catch (const Error&) {
      throw err;
    }
    std::vector<std::string> names;
    for (const auto& [name, t] : params) names.push_back(name);
    for (const auto& w : weights) {
      auto it = std::find_if(params.begin(), params.end(),
                             [&](const auto& p) { return p.first == w.name; });
      if (it == params.end()) {
        throw Error("'" + w.name + "' is not a parameter of the entry module", w.range,
                    did_you_mean(w.name, names) +
                        (names.empty() ? "the entry has no parameters"
                                       : "its parameters are: " + join_names(names)));
      }
      if (it->second.shape() != w.tensor.shape()) {
        throw Error("weight '" + w.name + "' has shape " + shape_str(w.tensor.shape()) +
                        " but the model's parameter has shape " + shape_str(it->second.shape()),
                    w.range, "give the parameter's shape (as load_state_dict requires)");
      }
    }
    std::set<std::string> given;
    for (const auto& w : weights) given.insert(w.name);
    for (const auto& [name, t] : params) {
      if (!given.count(name)) {
        SourceRange where = weights[0].range;
        where.line = 0;  // the whole file: "w.yaml: error: ..."
        throw Error(
            "the weights file lacks parameter '" + name + "' (shape " + shape_str(t.shape()) + ")",
            where,
            "a weights file names every parameter, as load_state_dict(strict=True); "
            "d2s run --dump-weights W.yaml writes a complete one");
      }
    }
    throw;
  }
}

}  // namespace d2s::cli
