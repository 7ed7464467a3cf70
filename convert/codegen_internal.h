// What the two halves of the code generator share (convert/codegen.h): the
// statement writer (codegen.cpp) walks blocks and names values; the expression
// writer (codegen_expr.cpp) spells one node as Python.
#pragma once

#include <functional>
#include <string>

#include "core/ir/ir.h"
#include "core/tensor/ivalue.h"

namespace d2s::convert::codegen {

// How an expression refers to a value: a literal for a constant, else its name.
using RefFn = std::function<std::string(const ir::Value*)>;

// A Python literal for a constant (None, bool, int, float — inf and nan as
// math.inf / math.nan —, str, tuples, lists, tensors as torch.tensor(...)).
std::string python_literal(const IValue& value);

// The Python expression computing `node`'s result: an operator (`x + y`), a torch
// function (`torch.mm(a, b)`), a method (`x.view(...)`), a builtin (`int(t)`), a
// subscript (`x[:, 1]`), an f-string (aten::format), `print(...)`, a tuple or list.
// Throws d2s::Error at the node when it has no Python spelling.
std::string node_expression(const ir::Node& node, const RefFn& ref);

// The Python function that a backward graph's gradient nodes call (`_d2s_vjp(fn,
// grads, args)`: PyTorch's vector-Jacobian product of `fn` at `args`, one gradient
// or None per argument); written before the graph's function when it has them.
extern const char* const kVjpHelper;

// The condition a trace's prim::Guard asserts (`b`, `not b`, `n == 3`,
// `len(s) == 2 and s[0] == 1 and s[1] == 10`) and the assert's message.
std::string guard_condition(const ir::Node& guard, const RefFn& ref);
std::string guard_message(const ir::Node& guard);

}  // namespace d2s::convert::codegen
