// Helpers of the tracer's tests: trace a program from a string, look at the flat
// graph, run it on the executor, compare with eager.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/exec/executor.h"
#include "core/ir/printer.h"
#include "core/ir/verify.h"
#include "trace/tests/test_util.h"
#include "trace/tracer.h"

namespace d2s::testing {

struct Traced {
  Program program;
  TraceResult result;
  std::string printed;  // what print() wrote while tracing
  const ir::Graph& graph() const { return *result.graph; }
};

inline Traced trace(const std::string& src, const NamedInputs& inputs, TraceOptions opts = {}) {
  Traced t{Program::from_string(src), {}, {}};
  std::ostringstream out;
  opts.run.out = &out;
  t.result = trace_program(t.program, inputs, opts);
  t.printed = out.str();
  return t;
}

inline TraceOptions no_guards() {
  TraceOptions o;
  o.guards = false;
  return o;
}

// Nodes of the (flat) trace with this kind, in order.
inline std::vector<const ir::Node*> nodes_of(const ir::Graph& g, const std::string& kind) {
  std::vector<const ir::Node*> out;
  for (const ir::Node* n : g.block()->nodes()) {
    if (n->kind() == kind) out.push_back(n);
  }
  return out;
}

inline std::string attr_str(const ir::Node* n, const std::string& name) {
  const IValue* v = n->attr(name);
  return v && v->is_string() ? v->to_string() : "";
}

inline ValueList run_graph(const ir::Graph& g, const ValueList& inputs) {
  Executor exec(g);
  return exec.run(inputs);
}

// Runs the graph expecting a failed guard; returns the error.
inline Error guard_failure(const ir::Graph& g, const ValueList& inputs) {
  try {
    run_graph(g, inputs);
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "expected a guard to fail:\n" << ir::print_graph(g);
  return Error("no error");
}

inline void expect_tensor_eq(const IValue& a, const IValue& b) {
  ASSERT_TRUE(a.is_tensor()) << a.repr();
  ASSERT_TRUE(b.is_tensor()) << b.repr();
  const Tensor& x = a.to_tensor();
  const Tensor& y = b.to_tensor();
  ASSERT_EQ(x.shape(), y.shape());
  for (int64_t i = 0; i < x.numel(); ++i) EXPECT_FLOAT_EQ(x.value_at(i), y.value_at(i)) << i;
}

// The first guard with this `what`, or null.
inline const ir::Node* find_guard(const ir::Graph& g, const std::string& what) {
  for (const ir::Node* n : nodes_of(g, ir::kind::Guard)) {
    if (attr_str(n, "what") == what) return n;
  }
  return nullptr;
}

// Numbers, tensors (to float32 precision) and nested tuples/lists alike.
inline bool same_value(const IValue& a, const IValue& b) {
  if (a.is_tensor() && b.is_tensor()) {
    const Tensor& x = a.to_tensor();
    const Tensor& y = b.to_tensor();
    if (x.shape() != y.shape()) return false;
    for (int64_t i = 0; i < x.numel(); ++i) {
      if (std::abs(x.value_at(i) - y.value_at(i)) > 1e-5 * (1 + std::abs(y.value_at(i))))
        return false;
    }
    return true;
  }
  if ((a.is_tuple() || a.is_list()) && (b.is_tuple() || b.is_list())) {
    if (a.items().size() != b.items().size()) return false;
    for (size_t i = 0; i < a.items().size(); ++i) {
      if (!same_value(a.items()[i], b.items()[i])) return false;
    }
    return true;
  }
  return a.repr() == b.repr();
}

// The graph's outputs as the entry returned them.
inline IValue as_returned(const ValueList& outputs, const IValue& like) {
  if (like.is_tuple()) return IValue::tuple(outputs);
  return outputs.empty() ? IValue() : outputs[0];
}

}  // namespace d2s::testing
