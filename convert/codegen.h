// From a graph back to code (`d2s code`, docs/code.md): Python source that imports
// only `torch` and `math`, defines one function taking the graph's inputs, and is
// itself a model program, so real PyTorch runs it and `d2s parse` reads it back.
//
//   std::string py = convert::generate_python(*graph);
//
// One statement per node, named after the IR's value names (`s.1` → `s_1`, unnamed
// values after their op: `mm`, `add_2`), each with a `# line N` comment giving the
// source line the node came from. Constants are written in place as literals.
// prim::If is `if`/`else`, prim::Loop `for i in range(n):` (condition always true)
// or `while c:` (no trip count); loop-carried values are variables assigned before
// the loop and at the end of its body. An If whose else arm only raises is the
// `assert` it came from. A trace's prim::Guard becomes an `assert` that re-checks
// the baked value and says what was baked, marked `# guard, line N`. prim::Print is
// print(). Module parameters are arguments named after their state_dict names
// (`linear1.weight` → `linear1_weight`; the comment on the argument gives the name).
//
// The emission iterates over an explicit work list: a 100,000-node graph, or ifs
// nested as deep as the program is long, need no deep recursion.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/ir/ir.h"
#include "core/tensor/ivalue.h"

namespace d2s::convert {

struct CodegenOptions {
  // The function's name; empty: from the graph's entry (`foo1`, `MLP.forward` →
  // `MLP_forward`, `<module>` → `module`).
  std::string function_name;
  // How many leading graph inputs are the entry's own arguments; the rest are module
  // parameters (commented with their state_dict names). -1: all are arguments.
  int num_arguments = -1;
  // The default of each argument (`alpha: float = 0.5`), where it has one.
  std::vector<std::optional<IValue>> argument_defaults;
};

// Throws d2s::Error (exit 2) at a node that has no Python spelling (an op the
// language cannot write). A backward graph's grad:: nodes call `_d2s_vjp`, which the
// file then defines: PyTorch's derivative of the forward op (docs/code.md).
std::string generate_python(const ir::Graph& graph, const CodegenOptions& options = {});

}  // namespace d2s::convert
