// Interned node kinds, as TorchScript's Symbol: a node's kind string is interned once
// when the node is made (ir::Node::sym()), so that passes, the verifier and the
// planner test a kind with an integer compare instead of a string compare per node.
//
//  * The IR's own prim kinds are one list (D2S_IR_PRIMS below) with their arity,
//    number of blocks and effects; Node::prim() gives a node's entry, Prim::None for
//    registry ops (aten::*, and registry ops spelled prim::, such as prim::dtype).
//  * Registry ops that passes name (aten::size, aten::mm, ...) are listed too
//    (D2S_NAMED_OPS), so that `n->sym() == ir::op::size` is a compile-time constant
//    compare. Any other kind is interned on first use and gets a fresh id.
//  * A symbol's namespace (prim, aten, other) is part of its id: no prefix compare.
//
// kind() stays the string, for printing and for code that builds strings.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace d2s::ir {

// What a prim does besides computing its outputs (core/ir/effects.h asks this).
enum class PrimEffect : uint8_t {
  Pure,        // builds, takes apart or chooses values (If/Loop: their blocks' effects)
  SideEffect,  // does something a program sees: prints
  MayRaise,    // checks something at run time and raises when it fails
};

// A count in the prim list that is not fixed.
inline constexpr uint8_t kVariadic = 255;

// X(Name, "kind", min inputs, max inputs, outputs, blocks, effect): every prim kind of
// the IR itself. The verifier checks these counts; the planner switches on the kind.
// prim::Param and prim::Return are the block sentinels.
#define D2S_IR_PRIMS(X)                                               \
  X(Param, "prim::Param", 0, 0, kVariadic, 0, Pure)                   \
  X(Return, "prim::Return", 0, kVariadic, 0, 0, Pure)                 \
  X(Constant, "prim::Constant", 0, 0, 1, 0, Pure)                     \
  X(If, "prim::If", 1, 1, kVariadic, 2, Pure)                         \
  X(Loop, "prim::Loop", 2, kVariadic, kVariadic, 1, Pure)             \
  X(Guard, "prim::Guard", 1, 1, 0, 0, MayRaise)                       \
  X(Print, "prim::Print", 0, kVariadic, 0, 0, SideEffect)             \
  X(RaiseException, "prim::RaiseException", 0, 1, 0, 0, MayRaise)     \
  X(TupleConstruct, "prim::TupleConstruct", 0, kVariadic, 1, 0, Pure) \
  X(TupleUnpack, "prim::TupleUnpack", 1, 1, kVariadic, 0, Pure)       \
  X(TupleIndex, "prim::TupleIndex", 1, 2, 1, 0, Pure)                 \
  X(ListConstruct, "prim::ListConstruct", 0, kVariadic, 1, 0, Pure)   \
  X(ListUnpack, "prim::ListUnpack", 1, 1, kVariadic, 0, Pure)         \
  X(Uninitialized, "prim::Uninitialized", 0, 0, 1, 0, Pure)

// X(name, "kind"): registry ops that passes, the executor, the diff and the viz name.
// Listed here (not compared as strings where they are used) so each is one integer.
#define D2S_NAMED_OPS(X)                    \
  X(DictConstruct, "prim::DictConstruct")   \
  X(unchecked_cast, "prim::unchecked_cast") \
  X(dtype, "prim::dtype")                   \
  X(shape, "prim::shape")                   \
  X(size, "aten::size")                     \
  X(dim, "aten::dim")                       \
  X(numel, "aten::numel")                   \
  X(detach, "aten::detach")                 \
  X(item, "aten::item")                     \
  X(Int, "aten::Int")                       \
  X(Float, "aten::Float")                   \
  X(Bool, "aten::Bool")                     \
  X(len, "aten::len")                       \
  X(keys, "aten::keys")                     \
  X(values, "aten::values")                 \
  X(items, "aten::items")                   \
  X(copy, "aten::copy")                     \
  X(mm, "aten::mm")                         \
  X(matmul, "aten::matmul")                 \
  X(backward, "aten::backward")             \
  X(is, "aten::__is__")                     \
  X(isnot, "aten::__isnot__")               \
  X(not_, "aten::__not__")                  \
  X(and_, "aten::__and__")                  \
  X(or_, "aten::__or__")                    \
  X(add, "aten::add")                       \
  X(sub, "aten::sub")                       \
  X(mul, "aten::mul")                       \
  X(neg, "aten::neg")                       \
  X(lt, "aten::lt")                         \
  X(le, "aten::le")                         \
  X(gt, "aten::gt")                         \
  X(ge, "aten::ge")                         \
  X(eq, "aten::eq")                         \
  X(ne, "aten::ne")                         \
  X(abs, "aten::abs")                       \
  X(relu, "aten::relu")                     \
  X(tanh, "aten::tanh")                     \
  X(sigmoid, "aten::sigmoid")               \
  X(exp, "aten::exp")                       \
  X(log, "aten::log")                       \
  X(sin, "aten::sin")                       \
  X(cos, "aten::cos")                       \
  X(sqrt, "aten::sqrt")                     \
  X(rsqrt, "aten::rsqrt")                   \
  X(square, "aten::square")                 \
  X(reciprocal, "aten::reciprocal")         \
  X(clone, "aten::clone")                   \
  X(contiguous, "aten::contiguous")         \
  X(floor, "aten::floor")                   \
  X(ceil, "aten::ceil")                     \
  X(round, "aten::round")                   \
  X(sign, "aten::sign")                     \
  X(erf, "aten::erf")                       \
  X(gelu, "aten::gelu")                     \
  X(silu, "aten::silu")                     \
  X(zeros_like, "aten::zeros_like")         \
  X(ones_like, "aten::ones_like")

// The IR's prim kinds; None for every other kind.
enum class Prim : uint8_t {
  None = 0,
#define D2S_PRIM_ENUM(name, ...) name,
  D2S_IR_PRIMS(D2S_PRIM_ENUM)
#undef D2S_PRIM_ENUM
};

// A prim's entry in D2S_IR_PRIMS.
struct PrimInfo {
  std::string_view name;
  uint8_t min_inputs;
  uint8_t max_inputs;  // kVariadic: any number
  uint8_t outputs;     // kVariadic: any number
  uint8_t blocks;
  PrimEffect effect;
};
const PrimInfo& prim_info(Prim p);  // p != Prim::None

enum class SymbolNamespace : uint8_t { Other = 0, Prim = 1, Aten = 2 };

constexpr SymbolNamespace namespace_of(std::string_view kind) {
  if (kind.substr(0, 6) == "prim::") return SymbolNamespace::Prim;
  if (kind.substr(0, 6) == "aten::") return SymbolNamespace::Aten;
  return SymbolNamespace::Other;
}

// An interned kind: its index in the intern table, with its namespace in the top bits.
// Index 0 is no kind; the IR prims are 1..N in Prim order, then the named ops.
class Symbol {
 public:
  constexpr Symbol() = default;
  constexpr Symbol(uint32_t index, SymbolNamespace ns)
      : id_(index | static_cast<uint32_t>(ns) << kNsShift) {}
  // The symbol of a kind string; interned (thread-safe) on first use.
  static Symbol intern(std::string_view kind);

  constexpr uint32_t index() const { return id_ & ((1u << kNsShift) - 1); }
  constexpr SymbolNamespace ns() const { return static_cast<SymbolNamespace>(id_ >> kNsShift); }
  constexpr bool is_prim_namespace() const { return ns() == SymbolNamespace::Prim; }
  constexpr bool is_aten() const { return ns() == SymbolNamespace::Aten; }
  // The IR prim this is, or Prim::None.
  constexpr Prim prim() const;
  std::string name() const;  // the kind string

  constexpr bool operator==(const Symbol& o) const { return id_ == o.id_; }
  constexpr bool operator!=(const Symbol& o) const { return id_ != o.id_; }

 private:
  static constexpr uint32_t kNsShift = 28;
  uint32_t id_ = 0;
};

namespace symbol_detail {
enum : uint32_t {
  kNoSymbol = 0,
#define D2S_PRIM_INDEX(name, ...) k_prim_##name,
  D2S_IR_PRIMS(D2S_PRIM_INDEX)
#undef D2S_PRIM_INDEX
      kLastPrim = k_prim_Uninitialized,
#define D2S_OP_INDEX(name, text) k_op_##name,
  D2S_NAMED_OPS(D2S_OP_INDEX)
#undef D2S_OP_INDEX
      kNumBuiltinSymbols
};
}  // namespace symbol_detail

constexpr Prim Symbol::prim() const {
  return index() <= symbol_detail::kLastPrim ? static_cast<Prim>(index()) : Prim::None;
}

// ir::op::size, ir::op::mm, ...: the named ops' symbols.
namespace op {
#define D2S_OP_SYMBOL(name, text) \
  inline constexpr Symbol name{symbol_detail::k_op_##name, namespace_of(text)};
D2S_NAMED_OPS(D2S_OP_SYMBOL)
#undef D2S_OP_SYMBOL
}  // namespace op

// What a prim::Guard re-checks (its attribute "what", as the tracer writes it), parsed
// once when a plan is built instead of compared as a string per run. The executor
// treats Shape and Rank apart; the rest compare a value.
#define D2S_GUARD_KINDS(X) \
  X(Bool, "bool")          \
  X(Int, "int")            \
  X(Float, "float")        \
  X(Item, "item")          \
  X(Len, "len")            \
  X(Length, "length")      \
  X(Range, "range")        \
  X(Index, "index")        \
  X(Scalar, "scalar")      \
  X(Input, "input")        \
  X(Rank, "rank")          \
  X(Shape, "shape")        \
  X(Unnamed, "?")

enum class GuardKind : uint8_t {
  Value,  // no "what" attribute: a value compared
#define D2S_GUARD_ENUM(name, text) name,
  D2S_GUARD_KINDS(D2S_GUARD_ENUM)
#undef D2S_GUARD_ENUM
};
// The kind named by a guard's "what" ("" gives Value); false for an unknown name.
bool parse_guard_kind(std::string_view what, GuardKind* out);
// The names parse_guard_kind accepts, for messages: "bool, int, ...".
std::string guard_kind_names();

}  // namespace d2s::ir
