// The IR file (contract §4): a whole graph as YAML, written by `d2s parse/trace -o
// X.yaml` and read by `d2s run/render X.yaml`. Writing then reading gives the same
// graph (printing both gives identical text). Documented for users in docs/ir.md.
//
//   format: d2s-ir
//   version: 1
//   route: parse                   # which route made it ("parse", "trace", ...)
//   entry: "foo1"
//   source: "samples/foo1.py"      # the program (null when unknown)
//   inputs:                        # the graph's inputs
//     - {id: 0, name: "x", type: "Tensor[1, 10]"}
//   nodes:                         # in order; one flow map per node without blocks
//     - {kind: "aten::lt", inputs: [0, 1], outputs: [{id: 2, type: "Bool[]"}],
//        loc: {line: 3, col: 5, len: 9}}
//     - kind: "prim::If"
//       inputs: [2]
//       outputs: [{id: 3, name: "s", type: "Tensor[1, 10]"}]
//       loc: {line: 3, col: 2}
//       blocks:
//         - inputs: []              # block inputs as {id, name, type}
//           nodes: [...]
//           outputs: [0]            # value ids the block returns
//         - {inputs: [], nodes: [], outputs: [1]}
//   outputs: [3]
//
// Values are named by integer ids, unique in the file, each defined (a graph or
// block input, a node output) before it is used. A node has: kind; overload
// (optional, the registry overload of an aten node); inputs (value ids); outputs
// ({id, name?, type?}); attrs (optional map name → typed value); loc ({line, col,
// len?, file?}: file defaults to `source`, null for none); blocks (prim::If /
// prim::Loop). Types are Type::str() strings. Attribute values are one-key maps
// saying their kind: {none: null}, {bool: true}, {int: 3}, {float: 0.5} (.inf,
// -.inf, .nan), {str: "text"}, {ints: [1, 2]}, {tuple: [...]}, {list: [...]}
// (items typed the same way), {tensor: {dtype: float32, shape: [2], data: [1.0,
// 2.0]}} (data flat, row-major).
//
// Reading is strict: a field that is missing, unknown, duplicated or of the wrong
// kind, an unknown value id or version, YAML aliases or several documents, all give
// a d2s::Error (exit 2) pointing into the YAML text with a hint; then the graph is
// verified (ir_verify.h), problems reported at the node's place in the file. The
// loader recurses on block nesting only (limited), never on node count, and turns
// every failure — yaml-cpp's included — into a d2s::Error.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/base/source.h"
#include "core/ir/ir.h"

namespace d2s::ir {

inline constexpr int kIrFileVersion = 1;

// The most nodes (nested ones included) a graph file may hold; past it, reading stops
// with a d2s::Error that names `--max-graph-nodes`. Process-wide like
// max_tensor_elements() (core/tensor/tensor.h), set once by the CLI before any work.
inline constexpr int64_t kDefaultMaxGraphNodes = 1'000'000;
int64_t max_graph_nodes();
void set_max_graph_nodes(int64_t limit);  // at least 1

// Throws d2s::Error for a graph that cannot be written (an attribute holding an
// interpreter object, a value used but never defined).
std::string graph_to_yaml(const Graph& graph);

// When `source` names an existing regular file (as written, or relative to the
// YAML file's folder), it is loaded so that node locations can show source lines.
std::unique_ptr<Graph> graph_from_yaml(std::shared_ptr<const SourceFile> yaml_file);

// SourceFile::load then graph_from_yaml.
std::unique_ptr<Graph> load_graph_yaml(const std::string& path);

}  // namespace d2s::ir
