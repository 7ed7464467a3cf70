// Helpers for the lowering tests: a tiny FileCheck over printed IR, and running a
// program both eagerly (the interpreter) and as its lowered graph (the executor).
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "convert/lower.h"
#include "core/base/error.h"
#include "core/exec/executor.h"
#include "core/ir/printer.h"
#include "core/tensor/random.h"
#include "trace/interpreter.h"

namespace d2s::convert::testing {

// FileCheck in miniature: every `# CHECK: text` line of `pattern` must match a line
// of `text` (as a substring), in order, each after the previous match;
// `# CHECK-NEXT: text` must match the very next line; `# CHECK-NOT: text` must not
// appear between the previous match and the next one (or the end).
inline ::testing::AssertionResult file_check(const std::string& text, const std::string& pattern) {
  std::vector<std::string> lines;
  {
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) lines.push_back(l);
  }
  struct Check {
    std::string kind, what;
  };
  std::vector<Check> checks;
  {
    std::istringstream in(pattern);
    for (std::string l; std::getline(in, l);) {
      for (const char* kind : {"CHECK-NEXT:", "CHECK-NOT:", "CHECK:"}) {
        size_t at = l.find(std::string("# ") + kind);
        if (at == std::string::npos) continue;
        std::string what = l.substr(at + 2 + std::string(kind).size());
        while (!what.empty() && what.front() == ' ') what.erase(what.begin());
        checks.push_back(Check{kind, what});
        break;
      }
    }
  }
  size_t pos = 0;  // next line to search
  std::vector<std::string> nots;
  for (const Check& c : checks) {
    if (c.kind == "CHECK-NOT:") {
      nots.push_back(c.what);
      continue;
    }
    size_t found = lines.size();
    if (c.kind == "CHECK-NEXT:") {
      if (pos < lines.size() && lines[pos].find(c.what) != std::string::npos) found = pos;
    } else {
      for (size_t i = pos; i < lines.size(); ++i) {
        if (lines[i].find(c.what) != std::string::npos) {
          found = i;
          break;
        }
      }
    }
    if (found == lines.size()) {
      return ::testing::AssertionFailure()
             << c.kind << " '" << c.what << "' not found after line " << pos << " in:\n"
             << text;
    }
    for (const std::string& n : nots) {
      for (size_t i = pos; i < found; ++i) {
        if (lines[i].find(n) != std::string::npos) {
          return ::testing::AssertionFailure()
                 << "CHECK-NOT: '" << n << "' found at line " << i << " in:\n"
                 << text;
        }
      }
    }
    nots.clear();
    pos = found + 1;
  }
  for (const std::string& n : nots) {
    for (size_t i = pos; i < lines.size(); ++i) {
      if (lines[i].find(n) != std::string::npos) {
        return ::testing::AssertionFailure()
               << "CHECK-NOT: '" << n << "' found at line " << i << " in:\n"
               << text;
      }
    }
  }
  return ::testing::AssertionSuccess();
}

inline std::string sample_path(const std::string& name) {
  return std::string(D2S_SOURCE_DIR) + "/samples/" + name + ".py";
}

inline std::string lower_and_print(const std::string& source, const LowerOptions& o = {}) {
  return ir::print_graph(*lower_string(source, o).graph);
}

// Counts nodes of a kind, nested blocks included.
inline size_t count_kind(const ir::Block* b, const std::string& kind) {
  size_t n = 0;
  for (const ir::Node* node : b->nodes()) {
    if (node->kind() == kind) ++n;
    for (const ir::Block* inner : node->blocks()) n += count_kind(inner, kind);
  }
  return n;
}

inline ::testing::AssertionResult values_match(const IValue& a, const IValue& b,
                                               const std::string& where) {
  if (a.is_tensor() && b.is_tensor()) {
    const Tensor& x = a.to_tensor();
    const Tensor& y = b.to_tensor();
    if (x.shape() != y.shape() || x.dtype() != y.dtype()) {
      return ::testing::AssertionFailure() << where << ": " << a.str() << " vs " << b.str();
    }
    for (int64_t i = 0; i < x.numel(); ++i) {
      double p = x.value_at(i), q = y.value_at(i);
      if (!(std::abs(p - q) <= 1e-5 * (1 + std::abs(p))) && !(std::isnan(p) && std::isnan(q))) {
        return ::testing::AssertionFailure() << where << ": " << a.str() << " vs " << b.str();
      }
    }
    return ::testing::AssertionSuccess();
  }
  if (a.is_number() && b.is_number()) {
    if (a.type_name() != b.type_name() || std::abs(a.to_double() - b.to_double()) > 1e-9) {
      return ::testing::AssertionFailure() << where << ": " << a.repr() << " vs " << b.repr();
    }
    return ::testing::AssertionSuccess();
  }
  if (a.str() != b.str()) {
    return ::testing::AssertionFailure() << where << ": " << a.repr() << " vs " << b.repr();
  }
  return ::testing::AssertionSuccess();
}

// Runs the program eagerly and its lowered graph on the executor with the same named
// inputs; the outputs (and what each printed) must agree.
struct Differential {
  LowerOptions options;
  bool compare_prints = true;

  ::testing::AssertionResult run(const std::shared_ptr<const SourceFile>& file,
                                 const NamedInputs& inputs) const {
    LoweredGraph lowered = lower_program(file, options);
    Program program = Program::from_source(file);
    RunOptions run;
    run.entry = options.entry;
    run.seed = options.seed;
    run.training = options.training;
    std::ostringstream eager_out;
    run.out = &eager_out;
    // Eager mode updates tensors in place (`s += i`): it gets copies.
    NamedInputs copies;
    for (const auto& [n, v] : inputs) {
      copies.emplace_back(n, v.is_tensor() ? IValue(v.to_tensor().clone()) : v);
    }
    IValue eager = program.run(copies, run);

    ValueList graph_inputs;
    for (size_t i = 0; i < lowered.num_arguments; ++i) {
      const std::string& name = lowered.graph->inputs()[i]->debug_name();
      bool found = false;
      for (const auto& [n, v] : inputs) {
        if (n == name) {
          graph_inputs.push_back(v);
          found = true;
        }
      }
      if (!found) return ::testing::AssertionFailure() << "no input named " << name;
    }
    for (const auto& [name, t] : lowered.parameters) graph_inputs.push_back(t);
    Generator gen(options.seed);
    std::ostringstream graph_out;
    Executor exec(*lowered.graph, ExecOptions{&gen, options.training, &graph_out});
    ValueList outs = exec.run(graph_inputs);

    ValueList expected;
    if (eager.is_tuple())
      expected = eager.tuple_items();
    else if (!eager.is_none())
      expected.push_back(eager);
    if (expected.size() != outs.size()) {
      return ::testing::AssertionFailure()
             << "eager gave " << expected.size() << " outputs, the graph " << outs.size();
    }
    for (size_t i = 0; i < outs.size(); ++i) {
      auto r = values_match(expected[i], outs[i], "output " + std::to_string(i));
      if (!r) return r;
    }
    if (compare_prints && eager_out.str() != graph_out.str()) {
      return ::testing::AssertionFailure() << "prints differ:\neager:\n"
                                           << eager_out.str() << "graph:\n"
                                           << graph_out.str();
    }
    return ::testing::AssertionSuccess();
  }
  ::testing::AssertionResult run_source(const std::string& source,
                                        const NamedInputs& inputs) const {
    return run(std::make_shared<const SourceFile>("model.py", source), inputs);
  }
  ::testing::AssertionResult run_sample(const std::string& name, const NamedInputs& inputs) const {
    return run(SourceFile::load(sample_path(name)), inputs);
  }
};

inline Tensor t(const Shape& shape, const std::vector<float>& data) {
  return Tensor::from_floats(shape, data);
}

// The message of the d2s::Error lowering `source` throws ("" when it does not).
inline std::string lower_error(const std::string& source, const LowerOptions& o = {}) {
  try {
    lower_string(source, o);
  } catch (const Error& e) {
    return e.format();
  }
  return "";
}

}  // namespace d2s::convert::testing
