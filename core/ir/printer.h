// The IR as text, in TorchScript's format (what `d2s parse` prints and `-o X.txt`
// writes):
//
//   graph(%x : Tensor[1, 10],
//         %y : Tensor[1, 10]):
//     %2 : Bool[] = aten::lt(%x, %y)  # foo1.py:3:5
//     %s : Tensor[1, 10] = prim::If(%2)  # foo1.py:3:2
//       block0():
//         %4 : int = prim::Constant[value=1]()  # foo1.py:4:8
//         %s.1 : Tensor[1, 10] = aten::add(%x, %y, %4)  # foo1.py:4:8
//         -> (%s.1)
//       block1():
//         -> (%y)
//      = prim::Print(%s)  # foo1.py:6:2
//     return (%s)
//
// Value names are the debug names, made unique in the graph with `.1`, `.2`
// suffixes as TorchScript does; values without a name are numbered in print
// order. The comment is the node's location (file name only). Constants show
// their value as the `value` attribute (None constants show none, as in
// TorchScript); other attributes print as `[name=value, ...]`. Aten nodes print
// their base name; the chosen overload is kept in the IR file, not in the text.
#pragma once

#include <string>

#include "core/ir/ir.h"

namespace d2s::ir {

std::string print_graph(const Graph& graph);

// One node on one line, without its blocks or location, for error messages. Names
// are the values' debug names (or their unique numbers), so it works on any node,
// even one of a malformed graph.
std::string print_node(const Node& node);

// An attribute value as the printer shows it: `1`, `0.5`, `True`, `"text"`,
// `[1, 2]`, `(1, 2.0)`, `{0.5}` for one-element tensors, `<Tensor[2, 3]>` otherwise.
std::string print_attr_value(const IValue& v);

}  // namespace d2s::ir
