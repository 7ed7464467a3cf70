// Whether every entry of the op table has each of its columns — a derivative, a
// shape rule, an ONNX mapping — or opts out of it explicitly with a tag (OpTag::
// NoDerivative, NoShapeRule, NoOnnx), and whether it says it has none while it has
// one. The shape rules (convert/) and the ONNX mappings (onnx/) live above core/, so
// their keys are passed in; `d2s ops --check` runs this over the real tables.
//
// A column applies to an entry only where its data could flow: a derivative where the
// op takes and returns tensors, a shape rule where it returns one (an in-place op
// returns its self, typed already), an ONNX mapping where it takes or returns one.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "core/ops/op_registry.h"

namespace d2s {

struct ColumnsFromAbove {
  std::set<std::string> shape_rules;  // kinds with a shape rule ("aten::conv2d")
  std::set<std::string> onnx;         // kinds the ONNX exporter maps
};

// One line per problem ("aten::foo.bar returns a tensor but has no shape rule: ...");
// empty when the entry is complete.
std::vector<std::string> missing_columns(const OpDef& def, const ColumnsFromAbove& above);

// The same over every overload of the table, sorted by op.
std::vector<std::string> op_table_gaps(const OpRegistry& reg, const ColumnsFromAbove& above);

}  // namespace d2s
