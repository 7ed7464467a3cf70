// What the ONNX op mappings (op_import.cpp, op_import_nn.cpp) share: reading a node's
// inputs and building typed d2s values.
#pragma once

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "onnx/import_context.h"

namespace d2s::onnx_io::import_util {

using V = ir::Value*;
using Ins = const std::vector<V>&;
using Outs = std::vector<V>;
using I = Importer;

inline V in(I& m, Ins ins, size_t i) {
  if (i >= ins.size() || !ins[i]) m.fail("input " + std::to_string(i) + " is missing");
  return ins[i];
}
inline bool given(Ins ins, size_t i) {
  return i < ins.size() && ins[i];
}

inline bool is_none(const V v) {
  if (v->node()->kind() != ir::kind::Constant) return false;
  const IValue* c = v->node()->attr("value");
  return c && c->is_none();
}

inline V cast(I& m, V v, DType to) {
  if (I::dtype(v) == to) return v;
  return m.op("aten::to", {v, m.c_int(dtype_scalar_type(to))}, to);
}

inline bool rank(const V v, int64_t* r) {
  const ir::Type& t = v->type();
  if (!t.is_tensor() || !t.shape) return false;
  *r = static_cast<int64_t>(t.shape->size());
  return true;
}

inline int64_t need_rank(I& m, V v) {
  int64_t r = 0;
  if (!rank(v, &r)) m.unsupported("the rank of its input is not known", "unknown rank");
  return r;
}

// The output's shape when every dim of the input is known.
inline std::optional<Shape> known_shape(V v) {
  const ir::Type& t = v->type();
  if (!t.is_tensor() || !t.shape) return std::nullopt;
  Shape s;
  for (const auto& d : *t.shape) {
    if (!d.is_known()) return std::nullopt;
    s.push_back(d.size);
  }
  return s;
}

// Sets a value's type to a tensor of `shape` (when known) and its dtype.
inline V typed(V v, DType d, const std::optional<Shape>& shape) {
  if (shape) {
    v->set_type(ir::Type::tensor_of(d, *shape));
  } else {
    v->set_type(ir::Type::tensor(d));
  }
  return v;
}

inline std::optional<Shape> broadcast(const std::optional<Shape>& a,
                                      const std::optional<Shape>& b) {
  if (!a || !b) return std::nullopt;
  Shape out(std::max(a->size(), b->size()), 1);
  for (size_t i = 0; i < out.size(); ++i) {
    int64_t x = i < out.size() - a->size() ? 1 : (*a)[i - (out.size() - a->size())];
    int64_t y = i < out.size() - b->size() ? 1 : (*b)[i - (out.size() - b->size())];
    if (x != y && x != 1 && y != 1) return std::nullopt;
    out[i] = x == 1 ? y : x;
  }
  return out;
}

// The layers' mappings (op_import_nn.cpp): activations, normalisation, dropout,
// convolution and pooling.
void add_nn_imports(std::map<std::string, ImportFn>& table);

}  // namespace d2s::onnx_io::import_util
