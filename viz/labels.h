// The words on the picture (internal to viz/): value names, op calls with their
// constants folded in, types, source lines for tooltips and cluster labels, and the
// escaping Graphviz's HTML-like labels and escStrings need.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/base/source.h"
#include "core/ir/ir.h"

namespace d2s::viz {

// Names values exactly as the IR text does (core/ir/printer.cpp: debug names made
// unique with `.1`, `.2`; unnamed values numbered in print order), so that a picture
// and `d2s parse`'s text can be read side by side. name() must be called in print
// order — graph inputs, then for each node its outputs, then each block's inputs
// and nodes — which is the order the drawing walks the graph in.
class ValueNamer {
 public:
  const std::string& name(const ir::Value* v);
  // `x`, or `%3` for a numbered value: a bare number would read as a constant.
  std::string display(const ir::Value* v);

 private:
  std::string suffixed(const std::string& debug);
  std::unordered_map<const ir::Value*, std::string> names_;
  std::unordered_set<std::string> used_;
  std::unordered_map<std::string, size_t> suffix_;
  size_t counter_ = 0;
};

// Names a node's outputs and everything inside its blocks, in print order, without
// recursion (for nodes that are not drawn but whose names the printer would count).
void name_subtree(ValueNamer& namer, const ir::Node& node);

// Escapes text for an HTML-like label (`<`, `>`, `&`, `"`).
std::string html(std::string_view text);
// Escapes text for an escString attribute such as `tooltip` (backslashes).
std::string esc_string(std::string_view text);
// Shortens to at most `max_chars` characters (UTF-8 aware), ending in `…`.
std::string shorten(std::string_view text, size_t max_chars);
// 1,234,567
std::string thousands(size_t n);

// `mm` for aten::mm, `print` for prim::Print, `tuple` for prim::TupleConstruct, ...;
// other kinds as they are (`prim::dtype`).
std::string short_kind(const std::string& kind);

// A node's arguments as written in its label: values by name, constants by value.
// Constant arguments the schema gives a keyword or default are written `name=value`;
// arguments equal to a default of None are left out (they say nothing).
struct CallArg {
  std::string text;
  bool constant = false;
  bool is_default = false;  // a constant equal to the schema's default
  size_t input = 0;         // the node input it shows
};
std::vector<CallArg> call_args(const ir::Node& node, ValueNamer& namer);
// The op as a call, constants written in: `add(x, y, alpha=1)`.
std::string call_text(const ir::Node& node, ValueNamer& namer);
// A constant's value as the IR text prints it (`1`, `0.5`, `True`, `"s"`, `None`).
std::string constant_text(const ir::Node& constant);
// `s : Tensor[1, 10]`, joined by `, ` for several outputs; empty for none.
std::string outputs_text(const ir::Node& node, ValueNamer& namer);

// `foo1.py:4` (empty when the range is unknown).
std::string location_text(const SourceRange& range);
// The range's source line, trimmed (empty when the source text is not available).
std::string source_line(const SourceRange& range);
// The text the range covers on its line (`x < y`), empty when unavailable.
std::string source_snippet(const SourceRange& range);
// What an If or Loop stands for: the statement from the range's column when it is an
// `if`/`elif`/`while`/`for` (without its colon), else the text the range covers (an
// If made for `a and b` or `x if c else y`); empty when the source is not available.
std::string statement_text(const SourceRange& range);
// `foo1.py:4: s = x + y`, or as much of it as is known.
std::string tooltip_text(const SourceRange& range);

}  // namespace d2s::viz
