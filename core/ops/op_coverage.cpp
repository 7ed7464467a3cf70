#include "core/ops/op_coverage.h"

namespace d2s {

namespace {

bool is_tensor_type(const std::string& type) {
  return type.rfind("Tensor", 0) == 0;  // Tensor, Tensor?, Tensor[], Tensor?[]
}

bool takes_tensor(const OpSchema& s) {
  for (const Argument& a : s.arguments) {
    if (is_tensor_type(a.type)) return true;
  }
  return false;
}

bool returns_tensor(const OpSchema& s) {
  for (const std::string& r : s.returns) {
    if (is_tensor_type(r)) return true;
  }
  return false;
}

// What each column is, where it lives, and the tag that opts out of it.
struct Column {
  const char* noun;   // "derivative"
  const char* what;   // "a derivative"
  const char* where;  // "core/autograd/derivatives_*.cpp"
  const char* tag;    // "OpTag::NoDerivative"
};

void check(const OpDef& def, bool applies, bool has, bool opted_out, const Column& c,
           std::vector<std::string>* out) {
  const std::string name = def.schema.qualified_name();
  if (opted_out && has) {
    out->push_back(name + " has " + c.what + " but its table entry says " + c.tag +
                   ": drop the tag");
  } else if (applies && !has && !opted_out) {
    out->push_back(name + " has no " + c.noun + ": add one (" + c.where +
                   ") or tag its table entry " + c.tag);
  }
}

}  // namespace

std::vector<std::string> missing_columns(const OpDef& def, const ColumnsFromAbove& above) {
  std::vector<std::string> out;
  const OpSchema& s = def.schema;
  if (!def.kernel) out.push_back(s.qualified_name() + " has no kernel");
  check(def, takes_tensor(s) && returns_tensor(s), static_cast<bool>(def.derivative),
        def.tags.has(OpTag::NoDerivative),
        {"derivative", "a derivative", "core/autograd/derivatives_*.cpp", "OpTag::NoDerivative"},
        &out);
  // An in-place op's result is its self, whose type the graph has already.
  check(def, returns_tensor(s) && !def.mutates, above.shape_rules.count(s.name) > 0,
        def.tags.has(OpTag::NoShapeRule),
        {"shape rule", "a shape rule", "convert/shape_rules*.cpp", "OpTag::NoShapeRule"}, &out);
  check(def, takes_tensor(s) || returns_tensor(s), above.onnx.count(s.name) > 0,
        def.tags.has(OpTag::NoOnnx),
        {"ONNX mapping", "an ONNX mapping", "onnx/op_export*.cpp", "OpTag::NoOnnx"}, &out);
  return out;
}

std::vector<std::string> op_table_gaps(const OpRegistry& reg, const ColumnsFromAbove& above) {
  std::vector<std::string> out;
  for (const std::string& base : reg.base_names()) {
    for (const OpDef& def : reg.overloads(base)) {
      for (std::string& line : missing_columns(def, above)) out.push_back(std::move(line));
    }
  }
  return out;
}

}  // namespace d2s
