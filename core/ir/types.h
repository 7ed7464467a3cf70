// Types of IR values: Tensor (dtype and a shape whose dims may be symbolic), int,
// float, bool, None, str, tuple, list, Optional, Dict — TorchScript's type lattice, cut
// to the model language.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/tensor/tensor.h"

namespace d2s::ir {

// One dimension of a tensor shape: a known size, or a symbol such as "B" or "s0"
// that stands for a size known only at run time (a batch dimension).
struct Dim {
  int64_t size = -1;   // >= 0 when known
  std::string symbol;  // non-empty when symbolic

  static Dim known(int64_t n) { return Dim{n, {}}; }
  static Dim symbolic(std::string s) { return Dim{-1, std::move(s)}; }
  bool is_known() const { return symbol.empty() && size >= 0; }
  bool operator==(const Dim& o) const { return size == o.size && symbol == o.symbol; }
};

enum class TypeKind { Any, Tensor, Int, Float, Bool, None, Str, Tuple, List, Optional, Dict };

struct Type {
  TypeKind kind = TypeKind::Any;
  // Tensors: dtype when known, and the shape when the rank is known.
  std::optional<DType> dtype;
  std::optional<std::vector<Dim>> shape;
  // Tuples: element types; lists and optionals: one element type; dicts: the key type,
  // then the value type.
  std::vector<Type> elements;

  static Type any() { return Type{}; }
  static Type tensor(std::optional<DType> dtype = std::nullopt,
                     std::optional<std::vector<Dim>> shape = std::nullopt);
  static Type tensor_of(DType dtype, const Shape& shape);  // fully known
  static Type of_int() { return Type{TypeKind::Int, {}, {}, {}}; }
  static Type of_float() { return Type{TypeKind::Float, {}, {}, {}}; }
  static Type of_bool() { return Type{TypeKind::Bool, {}, {}, {}}; }
  static Type none() { return Type{TypeKind::None, {}, {}, {}}; }
  static Type of_str() { return Type{TypeKind::Str, {}, {}, {}}; }
  static Type tuple(std::vector<Type> elements);
  static Type list(Type element);
  // A value of `element` or None, known only when the graph runs (TorchScript's
  // Optional[T], printed `T?`); an `is None` test refines it (prim::unchecked_cast).
  static Type optional(Type element);
  // A dict made or changed while the graph runs (TorchScript's Dict[K, V], printed
  // `Dict(str, Tensor)`): insertion-ordered, a reference value like a list.
  static Type dict(Type key, Type value);

  bool is_tensor() const { return kind == TypeKind::Tensor; }
  bool operator==(const Type& o) const;

  // As printed in the IR text: `Tensor[1, 20]` (float32), `Tensor[B, 20]`,
  // `Tensor` (unknown shape), `Long[3]`, `Bool[20, 10]` (other dtypes), `int`,
  // `float`, `bool`, `NoneType`, `str`, `(int, Tensor)`, `int[]`, `Tensor?`,
  // `Dict(str, Tensor)`, `Any`.
  std::string str() const;
  // Parses str()'s output; nullopt when malformed.
  static std::optional<Type> parse(const std::string& text);
};

// True when nothing known about `a` contradicts `b`: Any matches everything, and
// unknown dtypes, ranks or dims match any. The verifier checks declared types with it.
bool types_compatible(const Type& a, const Type& b);

}  // namespace d2s::ir
