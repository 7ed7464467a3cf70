// Overload resolution by argument *types* (the parse route's counterpart of
// OpRegistry::bind, which sees run-time values): picks the registry overload a call
// will run, says how each schema argument is filled, and gives the result types.
//
// The rules mirror OpRegistry::bind so that a lowered node runs the overload the
// eager interpreter would have run on values of those types: overloads are tried in
// registry order (Python-number overloads first), a Tensor argument also takes a
// Python number, `int[]` also takes one int or a tuple of ints, the int-varargs form
// `x.view(2, -1)` packs trailing ints, and a `?` type also takes None. A value of
// unknown type (Any) is accepted anywhere.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/base/source.h"
#include "core/ir/types.h"
#include "core/ops/op_registry.h"
#include "core/tensor/ivalue.h"

namespace d2s::ir {
class Value;
}  // namespace d2s::ir

namespace d2s::convert {

// What is known about an argument at conversion time.
struct ArgInfo {
  const ir::Type* type;            // the argument's type, held by its graph value
  std::optional<IValue> constant;  // the value of a prim::Constant argument
};

struct SchemaMatch {
  const OpDef* op = nullptr;
  // One per schema argument, in schema order.
  struct Slot {
    enum class Kind { Given, Default, PackedInts } kind = Kind::Default;
    size_t given = 0;            // Given: index into (positional..., keywords...)
    std::vector<size_t> packed;  // PackedInts: the given ints that form the list
    IValue default_value;        // Default
    // The schema type ("int[]", "Tensor?", ...), held by the op table: every overload
    // tried builds its slots, so they copy no strings.
    const std::string* type = nullptr;
  };
  std::vector<Slot> slots;
  std::vector<size_t> varargs;  // given indices passed after the declared arguments
};

// Matches one schema; nullopt (with the reason in `why` when non-null) if it does
// not accept the arguments.
std::optional<SchemaMatch> match_schema(
    const OpSchema& schema, const std::vector<ArgInfo>& positional,
    const std::vector<std::pair<std::string, ArgInfo>>& keywords, std::string* why = nullptr);

// The first overload of `base_name` that accepts the arguments. Throws d2s::Error at
// `range` naming the op, what did not fit and the candidate schemas.
SchemaMatch match_op(std::string_view base_name, const std::vector<ArgInfo>& positional,
                     const std::vector<std::pair<std::string, ArgInfo>>& keywords,
                     const SourceRange& range);

// Whether a value of type `t` fits a schema argument type ("Tensor", "int[]?", ...).
bool type_accepts(const std::string& schema_type, const ir::Type& t);

// The types of an op's results given its (bound, schema-order) inputs' types:
// the schema's return types, with "Scalar" resolved from the inputs (Python's
// promotion of numbers; item() follows the tensor's dtype). Shapes are left to the
// shape rules (shape_rules.h).
std::vector<ir::Type> result_types(const OpDef& op, const std::vector<ir::Value*>& inputs);

// The type a schema type string stands for ("int[]" → int[], "Tensor" → Tensor).
ir::Type type_of_schema_type(const std::string& schema_type);

}  // namespace d2s::convert
