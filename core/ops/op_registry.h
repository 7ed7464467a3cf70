// The operator registry: every operator of the model language, keyed by its
// TorchScript name (`aten::add`), with its argument schema and its CPU kernel.
//
// One table serves the eager interpreter, the tracer, the source lowering and the
// executor, so an op means the same thing on every route. Schemas are written as
// TorchScript writes them and parsed at start-up:
//
//   aten::add(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
//   aten::max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor, Tensor)
//
// A Tensor type may carry TorchScript's alias annotation: `Tensor(a!) self` says the
// op writes into self (it mutates it: add_, copy_, relu_), `Tensor(a)` that the result
// shares set a's memory. The write marks are the one source of an op's effects
// (OpDef::mutates): dead-code elimination, the tracer's and the diff's pruning, the
// executor and the autograd ask them, never the op's name.
//
//   aten::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)
//
// Argument types: Tensor, Scalar (a Python number), int, float, bool, str,
// int[], float[], Tensor[], Any, Any[] (a list or tuple), ScalarType (a dtype),
// each optionally suffixed `?` (may be None). Binding converts as Python would:
// `int` accepts a bool (as 0/1), `float` accepts an int or bool, `int[]`
// accepts a single int, a list or tuple of ints, or — only when it is the sole
// positional argument besides a leading Tensor — trailing positional ints
// (`x.view(2, -1)`); a ScalarType is held as TorchScript's int code (6 =
// float32, 4 = int64, 11 = bool; see dtype_scalar_type) and a dtype name such as
// "float32" is converted to it. A `Tensor` argument also accepts a Python number
// (kept as the number; kernels wrap it as PyTorch wraps scalars), and
// most arithmetic ops also work on plain numbers with Python semantics
// (`aten::add` on two ints gives an int), so Python-level arithmetic, lowered
// scalar code and tensor code all go through the same table.
//
// Overloads share a base name and differ by the part after the dot
// (`aten::max`, `aten::max.dim`, `aten::max.other`); lookup picks the first
// overload whose schema accepts the arguments. Graph nodes are named by the
// base name, as TorchScript prints them.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/base/source.h"
#include "core/tensor/ivalue.h"

namespace d2s {

class Generator;

// An alias annotation: `(a!)` is {"a", true}, `(a)` is {"a", false}, none is empty.
struct AliasInfo {
  std::string set;        // the alias set's name; empty when unannotated
  bool is_write = false;  // `!`: the op writes into this value
  bool empty() const { return set.empty(); }
};

// An argument's type, parsed once from the schema: what binding converts a value to.
enum class ArgType : uint8_t {
  Tensor,
  Scalar,
  Int,
  Float,
  Bool,
  Str,
  Any,
  ScalarType,
  IntList,
  FloatList,
  StrList,
  TensorList,
  OptionalTensorList,  // Tensor?[]: items may be None
  AnyList,
  Dict,  // the graph's runtime dict (core/ops/kernels_dict.cpp)
  Unknown,
};

struct Argument {
  std::string name;
  std::string type;  // as written in the schema without the alias: "Tensor", "int[]", ...
  ArgType kind = ArgType::Unknown;  // `type` without its `?`, parsed
  bool optional = false;            // `type` ends in `?`: None is accepted too
  AliasInfo alias;  // `Tensor(a!)`: the argument's alias set and whether it is written
  std::optional<IValue> default_value;
  bool kwarg_only = false;
};

struct OpSchema {
  std::string name;      // base name, e.g. "aten::max"
  std::string overload;  // e.g. "dim"; empty for the default overload
  std::vector<Argument> arguments;
  std::vector<std::string> returns;       // return types; more than one for tuple results
  std::vector<AliasInfo> return_aliases;  // one per return (empty AliasInfo: a fresh value)
  // Written `...` after the last argument: extra positional values are passed on
  // after the declared ones (aten::format).
  bool varargs = false;

  std::string qualified_name() const;  // "aten::max.dim"
  // Whether the op writes into one of its arguments (an argument marked `(x!)`).
  bool mutates() const;
  // The indices of the arguments the op writes into.
  std::vector<size_t> written_arguments() const;
  // Whether the first return aliases the first argument without a write (`Tensor(a)
  // self ... -> Tensor(a)`, or `Tensor(a)[]`): the op returns views of self.
  bool returns_view_of_self() const;
  std::string str() const;  // the schema as written
  // Parses a schema string; throws d2s::Error on a malformed one.
  static OpSchema parse(std::string_view text);
};

// The one conversion of a value to an argument's type, in place, as Python would: `int`
// accepts a bool (as 0/1), `float` an int or bool, `int[]` a single int or a tuple,
// lists from tuples, a ScalarType from a dtype name. False when the value does not fit
// (v is then unspecified). Every route binds through it: OpRegistry::bind for calls,
// the executor (core/exec/bind.cpp) for graph nodes.
bool fit_argument(ArgType type, bool optional, IValue& v);

// What a kernel may need besides its arguments.
struct OpContext {
  Generator* generator = nullptr;  // for random ops; required by them
  bool training = false;           // dropout is the identity unless training
  // Buffer reuse by liveness: bit i is set when argument i dies with this call and
  // the argument list holds its only reference (the executor moved it out of its
  // slot at its last use). An elementwise kernel may then write its result into
  // that tensor's buffer instead of allocating (kernels::reusable_arg checks the
  // rest). Zero everywhere else, so eager and traced calls never reuse.
  uint32_t dead_args = 0;
};

// A kernel receives the arguments bound to the schema (positional order, defaults
// filled in) and returns one IValue, a tuple when the schema returns several.
// Kernels throw d2s::Error without a range; callers add the node's location.
using Kernel = std::function<IValue(OpContext&, const ValueList&)>;

// What a derivative receives (core/autograd/autograd.h): the op's bound arguments and result
// (data only) and the gradient of each float tensor of the result, in order (zeros
// where none flowed). It returns one value per argument: its gradient (a Tensor; a
// list of Tensors for a Tensor[] argument), or None where the argument gets none.
struct GradInputs {
  const ValueList& args;
  const IValue& result;
  const std::vector<Tensor>& grads;
};
using Derivative = std::function<ValueList(const GradInputs&)>;

// Which of an op's inputs and result its derivative reads the data of (PyTorch's
// "saved variables"). Shapes never change under an in-place op, so a derivative that
// reads only shapes (add, sum, view) saves nothing. The autograd checks, at backward,
// that no saved tensor was overwritten since the op ran (core/autograd/autograd.h); undeclared
// derivatives are taken to read everything.
struct SavedData {
  uint64_t arguments = ~uint64_t{0};  // bit i: argument i
  bool result = true;
  static SavedData nothing() { return {0, false}; }
  static SavedData args(std::initializer_list<size_t> indices, bool result = false) {
    SavedData s{0, result};
    for (size_t i : indices) s.arguments |= uint64_t{1} << i;
    return s;
  }
  static SavedData result_only() { return {0, true}; }
  bool argument(size_t i) const { return i < 64 && (arguments >> i & 1u); }
};

// What an op's table entry says of it besides its schema and kernel, as PyTorch's
// native_functions.yaml tags its entries; and the columns it opts out of. An entry
// either has each column (a derivative, a shape rule, an ONNX mapping) or says it has
// none; `d2s ops --check` (core/ops/op_coverage.h) fails on an entry that does neither.
// Whether an op writes into an argument or returns a view is the schema's to say
// (OpDef::mutates, OpDef::is_view), not a tag.
enum class OpTag : uint32_t {
  Pointwise = 1u << 0,         // elementwise over its broadcast tensor arguments
  Reduction = 1u << 1,         // reduces dims of self (dim=None: all of them)
  FloatPromoting = 1u << 2,    // integer and bool inputs compute, and return, float32
  Random = 1u << 3,            // draws from the generator: never constant-folded
  Nondeterministic = 1u << 4,  // its values are unspecified (empty): never compared
  // Opt-outs.
  NoDerivative = 1u << 8,  // not differentiable: integer, boolean or index results
  NoShapeRule = 1u << 9,   // the parse route leaves its result's shape unknown
  NoOnnx = 1u << 10,       // the ONNX exporter has no mapping for it
};

class OpTags {
 public:
  constexpr OpTags() = default;
  constexpr OpTags(OpTag t) : bits_(static_cast<uint32_t>(t)) {}  // NOLINT: a tag is a set
  constexpr bool has(OpTag t) const { return (bits_ & static_cast<uint32_t>(t)) != 0; }
  constexpr OpTags operator|(OpTags o) const { return OpTags(bits_ | o.bits_); }
  constexpr bool operator==(OpTags o) const { return bits_ == o.bits_; }
  // The tags' names, in declaration order ("pointwise", "float-promoting", ...).
  std::vector<std::string> names() const;

 private:
  constexpr explicit OpTags(uint32_t bits) : bits_(bits) {}
  uint32_t bits_ = 0;
};

constexpr OpTags operator|(OpTag a, OpTag b) {
  return OpTags(a) | OpTags(b);
}

struct OpDef {
  OpSchema schema;
  Kernel kernel;
  OpTags tags;            // as the entry declares them
  Derivative derivative;  // empty: not differentiable (core/autograd/derivatives_*.cpp)
  SavedData saved;        // what `derivative` reads (set with it)
  // Writes into an argument (from the schema's `(a!)` marks): an effect, so never
  // removed when its result is unused, never folded, recorded by the autograd as a
  // rewrite of that argument.
  bool mutates = false;
  // Returns a view of its first argument (the schema marks both `Tensor(a)`, as
  // TorchScript's do for select, transpose, view, ...): core/autograd/views.h keeps the two in
  // step.
  bool is_view = false;

  // Reads the generator (OpTag::Random): never constant-folded, never removed unused.
  bool is_random() const { return tags.has(OpTag::Random); }
};

class OpRegistry {
 public:
  // The table of all built-in ops, built once on first use and immutable after.
  static const OpRegistry& builtin();

  // All overloads of a base name (empty when unknown).
  const std::vector<OpDef>& overloads(std::string_view base_name) const;
  // The overload with this qualified name ("aten::max.dim"), or null.
  const OpDef* find_qualified(std::string_view qualified_name) const;
  // The same from its parts (base "aten::max", overload "dim"), as graph nodes hold them.
  const OpDef* find(std::string_view base_name, std::string_view overload) const;

  // Chooses the overload of `base_name` that accepts these arguments and binds
  // them: positional then keyword, defaults filled, types checked. Throws
  // d2s::Error at `where` that names the op and what did not fit.
  struct Bound {
    const OpDef* op;
    ValueList args;
  };
  Bound bind(std::string_view base_name, const ValueList& positional,
             const std::vector<std::pair<std::string, IValue>>& keywords,
             const SourceRange& where) const;

  // Binds and runs; errors from the kernel get `where` as their range.
  IValue call(OpContext& ctx, std::string_view base_name, const ValueList& positional,
              const std::vector<std::pair<std::string, IValue>>& keywords,
              const SourceRange& where) const;

  // One table entry: the schema as TorchScript writes it, the kernel, and the entry's
  // tags (core/README.md, "Adding an operator").
  void add(std::string_view schema, Kernel kernel, OpTags tags = {});
  // Attaches the derivative of an op already added ("aten::max.dim"); throws for an
  // unknown op or a second derivative.
  void set_derivative(std::string_view qualified_name, Derivative derivative,
                      SavedData saved = SavedData{});
  std::vector<std::string> base_names() const;

 private:
  // Hashed, with lookup by string_view (no std::string built per lookup): the passes
  // and the planner look up every node's kind.
  struct NameHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };
  std::unordered_map<std::string, std::vector<OpDef>, NameHash, std::equal_to<>> ops_;
};

// How Python spellings reach ops: `torch.mm`, `F.relu`, `x.mm(...)`, `x + y`.
// Names are canonical (aliases resolved by the interpreter): "torch.mm",
// "torch.nn.functional.relu", "math.sqrt" for functions; "mm" for Tensor methods
// (the receiver becomes the first argument); "__add__" etc. for operators.
// Returns the op base name, or nullopt when there is no such binding.
std::optional<std::string> op_for_function(std::string_view qualified_python_name);
std::optional<std::string> op_for_method(std::string_view method_name);
std::optional<std::string> op_for_operator(std::string_view dunder_name);

// Every spelling above with the op it reaches, sorted by op then spelling: functions
// as written ("torch.mm", "math.sqrt", "F.relu" for torch.nn.functional.relu, "abs"
// for a builtin), methods and operators as "Tensor.mm", "Tensor.__add__". `d2s ops`
// lists them.
struct PythonSpelling {
  std::string spelling;
  std::string op;  // the base name, "aten::mm"
};
std::vector<PythonSpelling> python_spellings();

}  // namespace d2s
