// Graphs for the viz tests: the samples' parsed and traced graphs, and big synthetic
// ones built through the IR API.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "convert/lower.h"
#include "core/base/source.h"
#include "core/ir/ir.h"
#include "trace/tracer.h"
#include "viz/render.h"

namespace d2s::viz::testing {

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The sample's program under its repository-relative name (`samples/foo1.py`), so
// that pictures — and the golden files — do not depend on where the checkout is.
inline std::shared_ptr<const SourceFile> sample(const std::string& name) {
  const std::string rel = "samples/" + name + ".py";
  return std::make_shared<SourceFile>(rel, read_text(std::string(D2S_SOURCE_DIR) + "/" + rel));
}

inline std::unique_ptr<ir::Graph> parsed(const std::string& name) {
  return std::move(convert::lower_program(sample(name)).graph);
}

inline std::unique_ptr<ir::Graph> traced(const std::string& text, const NamedInputs& inputs) {
  Program program = Program::from_string(text, "model.py");
  return std::move(trace_program(program, inputs).graph);
}

// A straight chain of `n` ops, each from its own source line (so nothing folds):
// tanh, add, tanh, add, ...
inline std::unique_ptr<ir::Graph> chain(size_t n) {
  std::string text;
  for (size_t i = 0; i < n; ++i) text += "x = x + 1\n";
  auto file = std::make_shared<SourceFile>("chain.py", text);
  auto g = std::make_unique<ir::Graph>();
  g->route = "trace";
  g->entry = "chain";
  g->source = file;
  ir::Value* x = g->add_input("x", ir::Type::tensor_of(DType::Float32, {2, 3}));
  for (size_t i = 0; i < n; ++i) {
    SourceRange r(file, static_cast<int>(i) + 1, 5, 5);
    ir::Node* node;
    if (i % 2 == 0) {
      node = g->insert("aten::tanh", {x}, 1, r);
    } else {
      ir::Value* one = g->insert_constant(IValue(int64_t{1}), r);
      node = g->insert("aten::add", {x, one}, 1, r);
      node->set_overload("Tensor");
    }
    node->output()->set_type(ir::Type::tensor_of(DType::Float32, {2, 3}));
    x = node->output();
  }
  g->register_output(x);
  return g;
}

inline size_t count(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t p = text.find(needle); p != std::string::npos; p = text.find(needle, p + 1)) ++n;
  return n;
}

}  // namespace d2s::viz::testing
