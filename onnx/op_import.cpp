// The d2s counterpart of every ONNX op the importer maps (import_context.h): which
// registry ops each ONNX op becomes. Attributes become constants; inputs that ONNX
// passes as tensors but d2s's ops take as ints (Reshape's shape, ReduceSum's axes,
// Slice's starts, ...) must be known when importing. docs/onnx.md has the table.
#include <algorithm>
#include <map>
#include <numeric>

#include "core/base/error.h"
#include "onnx/import_context.h"
#include "onnx/op_import_util.h"
#include "onnx/tensor_proto.h"

namespace d2s::onnx_io {

// LSTM, GRU, RNN (op_import_recurrent.cpp).
void add_recurrent_imports(std::map<std::string, ImportFn>& table);
// TopK, GatherND, ScatterND (op_import_index.cpp).
void add_index_imports(std::map<std::string, ImportFn>& table);

namespace {

using namespace import_util;

using Fn = ImportFn;

Fn same(const char* kind) {
  return [kind](I& m, Ins ins) -> Outs {
    V x = in(m, ins, 0);
    return {typed(m.op(kind, {x}, I::dtype(x)), I::dtype(x), known_shape(x))};
  };
}

// Float-only functions: d2s computes them in float32, ONNX in the input's type.
Fn floating(const char* kind) {
  return [kind](I& m, Ins ins) -> Outs {
    V x = in(m, ins, 0);
    if (I::dtype(x) != DType::Float32) m.unsupported("non-float input", "int/bool input");
    return {typed(m.op(kind, {x}, DType::Float32), DType::Float32, known_shape(x))};
  };
}

Fn binary(const char* kind, bool to_bool = false) {
  return [kind, to_bool](I& m, Ins ins) -> Outs {
    V a = in(m, ins, 0), b = in(m, ins, 1);
    DType d = to_bool ? DType::Bool : I::dtype(a);
    return {typed(m.op(kind, {a, b}, d), d, broadcast(known_shape(a), known_shape(b)))};
  };
}

Outs div(I& m, Ins ins) {
  V a = in(m, ins, 0), b = in(m, ins, 1);
  DType d = I::dtype(a);
  auto shape = broadcast(known_shape(a), known_shape(b));
  if (d == DType::Float32) return {typed(m.op("aten::div", {a, b}, d), d, shape)};
  // ONNX integer division truncates.
  return {typed(m.op("aten::div", {a, b, m.constant(IValue("trunc"))}, d), d, shape)};
}

Outs pow(I& m, Ins ins) {
  V a = in(m, ins, 0), b = in(m, ins, 1);
  DType d = I::dtype(a);
  V r = m.op("aten::pow", {a, b}, std::nullopt);
  r->set_type(ir::Type::tensor(std::nullopt));
  return {typed(cast(m, typed(r, I::dtype(b) == DType::Float32 ? DType::Float32 : d, {}), d), d,
                broadcast(known_shape(a), known_shape(b)))};
}

Outs mod(I& m, Ins ins) {
  V a = in(m, ins, 0), b = in(m, ins, 1);
  DType d = I::dtype(a);
  auto shape = broadcast(known_shape(a), known_shape(b));
  if (m.attr_int("fmod", 0) == 0) return {typed(m.op("aten::remainder", {a, b}, d), d, shape)};
  if (d != DType::Float32) m.unsupported("integer fmod", "Mod fmod int");
  // C's fmod: a - trunc(a / b) * b.
  V q = m.op("aten::trunc", {m.op("aten::div", {a, b}, d)}, d);
  return {typed(m.op("aten::sub", {a, m.op("aten::mul", {q, b}, d)}, d), d, shape)};
}

// Max/Min/Sum/Mean of any number of inputs.
Fn variadic(const char* kind, bool mean) {
  return [kind, mean](I& m, Ins ins) -> Outs {
    V acc = in(m, ins, 0);
    DType d = I::dtype(acc);
    auto shape = known_shape(acc);
    for (size_t i = 1; i < ins.size(); ++i) {
      shape = broadcast(shape, known_shape(in(m, ins, i)));
      acc = m.op(kind, {acc, ins[i]}, d);
    }
    if (ins.size() == 1) acc = m.op("aten::clone", {acc}, d);
    if (mean) acc = m.op("aten::div", {acc, m.c_float(static_cast<double>(ins.size()))}, d);
    return {typed(acc, d, shape)};
  };
}

Outs matmul(I& m, Ins ins) {
  V a = in(m, ins, 0), b = in(m, ins, 1);
  return {m.op("aten::matmul", {a, b}, I::dtype(a))};
}

Outs gemm(I& m, Ins ins) {
  V a = in(m, ins, 0), b = in(m, ins, 1);
  DType d = I::dtype(a);
  if (m.attr_int("transA", 0)) a = m.op("aten::t", {a}, d);
  if (m.attr_int("transB", 0)) b = m.op("aten::t", {b}, d);
  V y = m.op("aten::mm", {a, b}, d);
  float alpha = m.attr_float("alpha", 1), beta = m.attr_float("beta", 1);
  if (alpha != 1) y = m.op("aten::mul", {y, m.c_float(alpha)}, d);
  if (given(ins, 2)) {
    V c = ins[2];
    if (beta != 1) c = m.op("aten::mul", {c, m.c_float(beta)}, d);
    y = m.op("aten::add", {y, c}, d);
  }
  return {y};
}

Outs identity(I&, Ins ins) {
  return {ins.at(0)};
}

Outs cast_op(I& m, Ins ins) {
  int to = static_cast<int>(m.attr_int("to", 0));
  std::optional<DType> d = dtype_of_elem_type(to);
  if (!d) m.unsupported("cast to " + elem_type_name(to), "dtype " + elem_type_name(to));
  V x = in(m, ins, 0);
  return {typed(m.op("aten::to", {x, m.c_int(dtype_scalar_type(*d))}, *d), *d, known_shape(x))};
}

Outs cast_like(I& m, Ins ins) {
  V x = in(m, ins, 0);
  DType d = I::dtype(in(m, ins, 1));
  return {typed(m.op("aten::to", {x, m.c_int(dtype_scalar_type(d))}, d), d, known_shape(x))};
}

Outs constant(I& m, Ins) {
  const onnx::NodeProto& n = m.node();
  for (const auto& a : n.attribute()) {
    Tensor t;
    if (a.name() == "value") {
      t = tensor_from_proto(a.t());
    } else if (a.name() == "value_float") {
      t = Tensor::scalar(a.f(), DType::Float32);
    } else if (a.name() == "value_int") {
      t = Tensor::scalar(static_cast<double>(a.i()), DType::Int64);
    } else if (a.name() == "value_ints") {
      t = Tensor::from_ints({a.ints_size()}, {a.ints().begin(), a.ints().end()});
    } else if (a.name() == "value_floats") {
      t = Tensor::from_floats({a.floats_size()}, {a.floats().begin(), a.floats().end()});
    } else {
      m.unsupported("a Constant with " + a.name(), "Constant " + a.name());
    }
    V v = m.c_tensor(t);
    v->set_type(ir::Type::tensor_of(t.dtype(), t.shape()));
    return {v};
  }
  m.fail("a Constant without a value");
}

Outs shape(I& m, Ins ins) {
  V x = in(m, ins, 0);
  V sizes = m.op("aten::size", {x}, std::nullopt);
  sizes->set_type(ir::Type::list(ir::Type::of_int()));
  V t = m.op("aten::tensor", {sizes}, DType::Int64);
  int64_t start = m.attr_int("start", 0);
  bool has_end = m.has_attr("end");
  if (start != 0 || has_end) {
    V end = has_end ? m.c_int(m.attr_int("end", 0)) : m.c_none();
    t = m.op("aten::slice", {t, m.c_int(0), m.c_int(start), end, m.c_int(1)}, DType::Int64);
  }
  return {t};
}

Outs size(I& m, Ins ins) {
  V n = m.op("aten::numel", {in(m, ins, 0)}, std::nullopt);
  n->set_type(ir::Type::of_int());
  return {typed(m.op("aten::tensor", {n}, DType::Int64), DType::Int64, Shape{})};
}

// The int list behind a shape tensor that Shape built (aten::tensor(aten::size(x))).
V size_list_behind(V shape) {
  const ir::Node* p = shape->node();
  if (p->kind() == "aten::tensor" && p->input(0)->type().kind == ir::TypeKind::List) {
    return p->input(0);
  }
  return nullptr;
}

// A 1-D int64 tensor as an int[]: its constant values, or — computed at run time,
// of a length known when importing — its elements taken apart (unbind, Int).
V int_list_of(I& m, V t, const char* what) {
  if (m.known(t)) return m.c_ints(m.need_ints(t, what));
  if (V list = size_list_behind(t)) return list;
  auto s = known_shape(t);
  if (!s || s->size() != 1) m.need_ints(t, what);  // throws Unsupported
  V parts = m.op("aten::unbind", {t, m.c_int(0)}, std::nullopt);
  parts->set_type(ir::Type::list(ir::Type::tensor(DType::Int64)));
  ir::Node* unpack =
      m.graph().insert(ir::kind::ListUnpack, {parts}, static_cast<size_t>((*s)[0]), m.range());
  std::vector<V> ints;
  for (V item : unpack->outputs()) {
    item->set_type(ir::Type::tensor(DType::Int64, std::vector<ir::Dim>{}));
    V i = m.op("aten::Int", {item}, std::nullopt);
    i->set_type(ir::Type::of_int());
    ints.push_back(i);
  }
  ir::Node* list = m.graph().insert(ir::kind::ListConstruct, ints, 1, m.range());
  list->output()->set_type(ir::Type::list(ir::Type::of_int()));
  return list->output();
}

Outs constant_of_shape(I& m, Ins ins) {
  V shape = in(m, ins, 0);
  Tensor value = Tensor::scalar(0, DType::Float32);
  for (const auto& a : m.node().attribute()) {
    if (a.name() == "value") value = tensor_from_proto(a.t());
  }
  V list = size_list_behind(shape);
  if (!list) list = int_list_of(m, shape, "shape");
  DType d = value.dtype();
  return {
      m.op("aten::full", {list, m.c_float(value.value_at(0)), m.c_int(dtype_scalar_type(d))}, d)};
}

Outs reshape(I& m, Ins ins) {
  V x = in(m, ins, 0);
  if (!m.known(in(m, ins, 1))) {
    // A shape computed at run time holds no 0 copying a dim (as exports write it).
    return {m.op("aten::reshape", {x, int_list_of(m, ins[1], "shape")}, I::dtype(x))};
  }
  std::vector<int64_t> shape = m.need_ints(in(m, ins, 1), "shape");
  bool allowzero = m.attr_int("allowzero", 0);
  std::vector<V> items;
  bool dynamic = false;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 0 && !allowzero) {
      // 0 copies the input's dim.
      auto s = known_shape(x);
      if (s && i < s->size()) {
        shape[i] = (*s)[i];
      } else {
        dynamic = true;
      }
    }
  }
  V list;
  if (!dynamic) {
    list = m.c_ints(shape);
  } else {
    for (size_t i = 0; i < shape.size(); ++i) {
      if (shape[i] == 0) {
        V s = m.op("aten::size", {x, m.c_int(static_cast<int64_t>(i))}, std::nullopt);
        s->set_type(ir::Type::of_int());
        items.push_back(s);
      } else {
        items.push_back(m.c_int(shape[i]));
      }
    }
    ir::Node* n = m.graph().insert(ir::kind::ListConstruct, items, 1, m.range());
    n->output()->set_type(ir::Type::list(ir::Type::of_int()));
    list = n->output();
  }
  return {m.op("aten::reshape", {x, list}, I::dtype(x))};
}

Outs flatten(I& m, Ins ins) {
  V x = in(m, ins, 0);
  int64_t r = need_rank(m, x);
  int64_t axis = m.attr_int("axis", 1);
  if (axis < 0) axis += r;
  DType d = I::dtype(x);
  V y;
  if (axis == 0) {
    y = m.op("aten::unsqueeze",
             {m.op("aten::flatten", {x, m.c_int(0), m.c_int(-1)}, d), m.c_int(0)}, d);
  } else if (axis == r) {
    y = m.op("aten::unsqueeze",
             {m.op("aten::flatten", {x, m.c_int(0), m.c_int(-1)}, d), m.c_int(1)}, d);
  } else {
    V tail = m.op("aten::flatten", {x, m.c_int(axis), m.c_int(-1)}, d);
    y = m.op("aten::flatten", {tail, m.c_int(0), m.c_int(axis - 1)}, d);
  }
  y->set_type(ir::Type::tensor(d, std::vector<ir::Dim>(2)));
  return {y};
}

Outs transpose(I& m, Ins ins) {
  V x = in(m, ins, 0);
  std::vector<int64_t> perm = m.attr_ints("perm");
  int64_t r = 0;
  if (perm.empty()) {
    r = need_rank(m, x);
    for (int64_t i = r - 1; i >= 0; --i) perm.push_back(i);
  }
  V y = m.op("aten::permute", {x, m.c_ints(perm)}, I::dtype(x));
  if (auto s = known_shape(x)) {
    Shape out;
    for (int64_t p : perm) out.push_back((*s)[static_cast<size_t>(p)]);
    typed(y, I::dtype(x), out);
  } else {
    y->set_type(ir::Type::tensor(I::dtype(x), std::vector<ir::Dim>(perm.size())));
  }
  return {y};
}

// Axes from the input (opset 13) or the attribute (older).
std::vector<int64_t> axes_of(I& m, Ins ins, size_t i, bool* given_any) {
  if (given(ins, i)) {
    *given_any = true;
    return m.need_ints(ins[i], "axes");
  }
  *given_any = m.has_attr("axes");
  return m.attr_ints("axes");
}

Outs unsqueeze(I& m, Ins ins) {
  V x = in(m, ins, 0);
  bool any = false;
  std::vector<int64_t> axes = axes_of(m, ins, 1, &any);
  int64_t r = 0;
  bool nonneg = std::all_of(axes.begin(), axes.end(), [](int64_t a) { return a >= 0; });
  if (!rank(x, &r) && nonneg) {
    std::sort(axes.begin(), axes.end());
    V y = x;
    for (int64_t a : axes) y = m.op("aten::unsqueeze", {y, m.c_int(a)}, I::dtype(x));
    return {y};
  }
  r = need_rank(m, x) + static_cast<int64_t>(axes.size());
  for (auto& a : axes) a = a < 0 ? a + r : a;
  std::sort(axes.begin(), axes.end());
  V y = x;
  for (int64_t a : axes) y = m.op("aten::unsqueeze", {y, m.c_int(a)}, I::dtype(x));
  if (axes.empty()) y = m.op("aten::clone", {x}, I::dtype(x));
  y->set_type(ir::Type::tensor(I::dtype(x), std::vector<ir::Dim>(static_cast<size_t>(r))));
  return {y};
}

Outs squeeze(I& m, Ins ins) {
  V x = in(m, ins, 0);
  bool any = false;
  std::vector<int64_t> axes = axes_of(m, ins, 1, &any);
  if (axes.empty()) return {m.op("aten::squeeze", {x}, I::dtype(x))};
  int64_t r = need_rank(m, x);
  for (auto& a : axes) a = a < 0 ? a + r : a;
  std::sort(axes.rbegin(), axes.rend());
  V y = x;
  for (int64_t a : axes) y = m.op("aten::squeeze", {y, m.c_int(a)}, I::dtype(x));
  y->set_type(
      ir::Type::tensor(I::dtype(x), std::vector<ir::Dim>(static_cast<size_t>(r) - axes.size())));
  return {y};
}

Outs concat(I& m, Ins ins) {
  std::vector<V> items;
  for (size_t i = 0; i < ins.size(); ++i) items.push_back(in(m, ins, i));
  ir::Node* list = m.graph().insert(ir::kind::ListConstruct, items, 1, m.range());
  list->output()->set_type(ir::Type::list(ir::Type::tensor()));
  return {m.op("aten::cat", {list->output(), m.c_int(m.attr_int("axis", 0))}, I::dtype(items[0]))};
}

Outs split(I& m, Ins ins) {
  V x = in(m, ins, 0);
  int64_t axis = m.attr_int("axis", 0);
  std::vector<int64_t> sizes;
  if (given(ins, 1)) {
    sizes = m.need_ints(ins[1], "split");
  } else {
    sizes = m.attr_ints("split");
  }
  const size_t n = static_cast<size_t>(m.node().output_size());
  if (sizes.empty()) {
    auto s = known_shape(x);
    int64_t r = need_rank(m, x);
    if (axis < 0) axis += r;
    if (!s) m.unsupported("an equal split of a dim of unknown size", "unknown shape");
    int64_t dim = (*s)[static_cast<size_t>(axis)];
    int64_t each = (dim + static_cast<int64_t>(n) - 1) / static_cast<int64_t>(n);
    for (size_t i = 0; i < n; ++i) {
      sizes.push_back(std::min(each, dim - each * static_cast<int64_t>(i)));
    }
  }
  V list = m.op("aten::split", {x, m.c_ints(sizes), m.c_int(axis)}, std::nullopt);
  list->set_type(ir::Type::list(ir::Type::tensor(I::dtype(x))));
  ir::Node* unpack = m.graph().insert(ir::kind::ListUnpack, {list}, sizes.size(), m.range());
  Outs outs;
  for (ir::Value* o : unpack->outputs()) outs.push_back(typed(o, I::dtype(x), std::nullopt));
  return outs;
}

Outs slice(I& m, Ins ins) {
  V x = in(m, ins, 0);
  std::vector<int64_t> starts, ends, axes, steps;
  std::vector<V> runtime(2, nullptr);  // a one-element start/end computed at run time
  if (given(ins, 1)) {
    for (size_t b = 0; b < 2; ++b) {
      V bound = in(m, ins, 1 + b);
      if (!m.known(bound)) {
        V i = m.op("aten::Int", {bound}, std::nullopt);
        i->set_type(ir::Type::of_int());
        runtime[b] = i;
      }
    }
    starts = runtime[0] ? std::vector<int64_t>{0} : m.need_ints(ins[1], "starts");
    ends = runtime[1] ? std::vector<int64_t>{0} : m.need_ints(in(m, ins, 2), "ends");
    if ((runtime[0] || runtime[1]) && (starts.size() != 1 || ends.size() != 1)) {
      m.unsupported("several run-time slice bounds", "runtime starts");
    }
    if (given(ins, 3)) axes = m.need_ints(ins[3], "axes");
    if (given(ins, 4)) steps = m.need_ints(ins[4], "steps");
  } else {
    starts = m.attr_ints("starts");
    ends = m.attr_ints("ends");
    axes = m.attr_ints("axes");
  }
  if (axes.empty()) {
    for (size_t i = 0; i < starts.size(); ++i) axes.push_back(static_cast<int64_t>(i));
  }
  if (steps.empty()) steps.assign(starts.size(), 1);
  V y = x;
  for (size_t i = 0; i < starts.size(); ++i) {
    if (steps[i] <= 0) m.unsupported("a slice with a step below 1", "Slice negative step");
    V start = runtime[0] && i == 0 ? runtime[0] : m.c_int(starts[i]);
    V end = runtime[1] && i == 0 ? runtime[1] : m.c_int(ends[i]);
    y = m.op("aten::slice", {y, m.c_int(axes[i]), start, end, m.c_int(steps[i])}, I::dtype(x));
  }
  if (starts.empty()) y = m.op("aten::clone", {x}, I::dtype(x));
  int64_t r = 0;
  if (rank(x, &r))
    y->set_type(ir::Type::tensor(I::dtype(x), std::vector<ir::Dim>(static_cast<size_t>(r))));
  return {y};
}

// Element i of an index tensor as an int64, exactly (a double cannot hold every int64;
// an out-of-range float index becomes a value the kernel's bounds check refuses).
int64_t exact_int(const Tensor& t, int64_t i) {
  if (t.dtype() == DType::Int64) return t.data<int64_t>()[i];
  const double d = t.value_at(i);
  return d >= -9.2e18 && d <= 9.2e18 ? static_cast<int64_t>(d) : INT64_MAX;
}

Outs gather(I& m, Ins ins) {
  V x = in(m, ins, 0), idx = in(m, ins, 1);
  int64_t axis = m.attr_int("axis", 0);
  int64_t r = need_rank(m, x);
  if (axis < 0) axis += r;
  const Tensor* k = m.known(idx);
  auto s = known_shape(x);
  int64_t idx_rank = -1;
  if (!k && rank(idx, &idx_rank) && idx_rank == 0) {
    V i = m.op("aten::Int", {idx}, std::nullopt);
    i->set_type(ir::Type::of_int());
    return {m.op("aten::select", {x, m.c_int(axis), i}, I::dtype(x))};
  }
  if (!k && idx_rank == -1) {
    // Of unknown rank: taken as one index (aten::Int fails at run time otherwise).
    V i = m.op("aten::Int", {idx}, std::nullopt);
    i->set_type(ir::Type::of_int());
    return {m.op("aten::select", {x, m.c_int(axis), i}, I::dtype(x))};
  }
  if (!k && idx_rank >= 2 && axis == 0 && r == 2) {
    // Rows of a table by indices of any rank: aten::embedding (what d2s exports to this
    // Gather). Negative indices, which ONNX allows, fail its bounds check.
    return {m.op("aten::embedding", {x, idx}, I::dtype(x))};
  }
  if (!k && idx_rank >= 1) {
    // Indices of rank 1, or 2 or more on any other axis: PyTorch's x[:, idx]
    // (aten::index with None for the dims before `axis`, which counts negative indices
    // from the end as ONNX does), which d2s exports to this Gather.
    std::vector<V> items(static_cast<size_t>(axis), nullptr);
    for (V& item : items) item = m.c_none();
    items.push_back(idx);
    ir::Node* list = m.graph().insert(ir::kind::ListConstruct, items, 1, m.range());
    list->output()->set_type(ir::Type::list(axis ? ir::Type::any() : ir::Type::tensor()));
    return {m.op("aten::index", {x, list->output()}, I::dtype(x))};
  }
  if (!k) m.unsupported("indices not known when importing", "runtime indices");
  bool negative = false;
  for (int64_t i = 0; i < k->numel(); ++i) negative = negative || k->value_at(i) < 0;
  if (!s && negative && k->dim() != 0)
    m.unsupported("negative indices into a dim of unknown size", "unknown shape");
  if (!s && k->dim() == 0) {
    return {m.op("aten::select", {x, m.c_int(axis), m.c_int(exact_int(*k, 0))}, I::dtype(x))};
  }
  if (!s && k->dim() == 1)
    return {m.op("aten::index_select", {x, m.c_int(axis), idx}, I::dtype(x))};
  if (!s)
    m.unsupported("indices of rank 2 or more into a tensor of unknown shape", "unknown shape");
  const int64_t dim = (*s)[static_cast<size_t>(axis)];
  std::vector<int64_t> flat;
  for (int64_t i = 0; i < k->numel(); ++i) {
    int64_t v = exact_int(*k, i);
    flat.push_back(v < 0 ? v + dim : v);
  }
  DType d = I::dtype(x);
  if (k->dim() == 0) return {m.op("aten::select", {x, m.c_int(axis), m.c_int(flat[0])}, d)};
  V sel = m.op("aten::index_select",
               {x, m.c_int(axis), m.c_tensor(Tensor::from_ints({k->numel()}, flat))}, d);
  Shape out(s->begin(), s->begin() + axis);
  out.insert(out.end(), k->shape().begin(), k->shape().end());
  out.insert(out.end(), s->begin() + axis + 1, s->end());
  return {typed(m.op("aten::reshape", {sel, m.c_ints(out)}, d), d, out)};
}

Outs tile(I& m, Ins ins) {
  V x = in(m, ins, 0);
  return {m.op("aten::repeat", {x, m.c_ints(m.need_ints(in(m, ins, 1), "repeats"))}, I::dtype(x))};
}

Outs expand(I& m, Ins ins) {
  V x = in(m, ins, 0);
  std::vector<int64_t> shape = m.need_ints(in(m, ins, 1), "shape");
  DType d = I::dtype(x);
  if (d == DType::Bool) m.unsupported("Expand of a bool tensor", "Expand bool");
  // Bidirectional broadcast: x + zeros(shape).
  V zeros = m.c_tensor(Tensor::zeros(shape, d));
  return {typed(m.op("aten::add", {x, zeros}, d), d, broadcast(known_shape(x), shape))};
}

Outs where(I& m, Ins ins) {
  V c = in(m, ins, 0), a = in(m, ins, 1), b = in(m, ins, 2);
  return {m.op("aten::where", {c, a, b}, I::dtype(a))};
}

Outs clip(I& m, Ins ins) {
  V x = in(m, ins, 0);
  DType d = I::dtype(x);
  V lo = given(ins, 1) ? ins[1] : m.c_none();
  V hi = given(ins, 2) ? ins[2] : m.c_none();
  if (m.has_attr("min")) lo = m.c_tensor(Tensor::scalar(m.attr_float("min", 0), d));
  if (m.has_attr("max")) hi = m.c_tensor(Tensor::scalar(m.attr_float("max", 0), d));
  V y = x;
  // ONNX applies max(x, lo) then min(., hi), also when lo > hi.
  if (!is_none(lo)) y = m.op("aten::maximum", {y, lo}, d);
  if (!is_none(hi)) y = m.op("aten::minimum", {y, hi}, d);
  if (y == x) y = m.op("aten::clone", {x}, d);
  return {typed(y, d, known_shape(x))};
}

// Reduce*: axes from the attribute or (ReduceSum from opset 13) the input; keepdims.
struct Reduce {
  std::vector<int64_t> axes;  // normalised, all dims when none were given
  bool keepdim;
  bool noop;  // noop_with_empty_axes and no axes: the identity
  bool all_of_unknown_rank = false;
};

Reduce reduce_args(I& m, Ins ins, V x) {
  bool any = false;
  Reduce r;
  r.axes = axes_of(m, ins, 1, &any);
  r.keepdim = m.attr_int("keepdims", 1) != 0;
  r.noop = r.axes.empty() && m.attr_int("noop_with_empty_axes", 0);
  int64_t rk = 0;
  if (!rank(x, &rk)) {
    if (!r.axes.empty() &&
        std::all_of(r.axes.begin(), r.axes.end(), [](int64_t a) { return a >= 0; })) {
      return r;
    }
    if (r.axes.empty() && !r.keepdim) {
      r.all_of_unknown_rank = true;
      return r;
    }
    need_rank(m, x);
  }
  if (r.axes.empty()) {
    for (int64_t i = 0; i < rk; ++i) r.axes.push_back(i);
  }
  for (auto& a : r.axes) a = a < 0 ? a + rk : a;
  if (auto s = known_shape(x)) {
    for (int64_t a : r.axes) {
      if ((*s)[static_cast<size_t>(a)] == 0)
        m.unsupported("a reduction over an empty dim", "empty reduce");
    }
  }
  return r;
}

// fn(x, axes list, keepdim) for the reductions d2s has over a list of dims.
Fn reduce(const std::function<V(I&, V, V, V)>& fn, bool float_only = true,
          const char* all_kind = nullptr) {
  return [fn, float_only, all_kind](I& m, Ins ins) -> Outs {
    V x = in(m, ins, 0);
    if (float_only && I::dtype(x) != DType::Float32) m.unsupported("int input", "int input");
    Reduce r = reduce_args(m, ins, x);
    if (r.all_of_unknown_rank) {
      if (!all_kind) need_rank(m, x);
      return {m.op(all_kind, {x}, I::dtype(x))};
    }
    if (r.noop) return {m.op("aten::clone", {x}, I::dtype(x))};
    if (r.axes.empty()) return {m.op("aten::clone", {x}, I::dtype(x))};
    return {fn(m, x, m.c_ints(r.axes), m.c_bool(r.keepdim))};
  };
}

Outs reduce_prod(I& m, Ins ins) {
  V x = in(m, ins, 0);
  Reduce r = reduce_args(m, ins, x);
  if (r.noop || r.axes.empty()) return {m.op("aten::clone", {x}, I::dtype(x))};
  std::sort(r.axes.rbegin(), r.axes.rend());
  V y = x;
  for (int64_t a : r.axes)
    y = m.op("aten::prod", {y, m.c_int(a), m.c_bool(r.keepdim)}, I::dtype(x));
  return {y};
}

Outs arg_extreme(I& m, Ins ins, bool largest) {
  V x = in(m, ins, 0);
  if (m.attr_int("select_last_index", 0)) {
    m.unsupported("select_last_index", "ArgMax/ArgMin select_last_index");
  }
  int64_t axis = m.attr_int("axis", 0);
  bool keep = m.attr_int("keepdims", 1);
  return {m.op(largest ? "aten::argmax" : "aten::argmin", {x, m.c_int(axis), m.c_bool(keep)},
               DType::Int64)};
}

Outs trilu(I& m, Ins ins) {
  V x = in(m, ins, 0);
  int64_t k = 0;
  if (given(ins, 1)) k = m.need_ints(ins[1], "k")[0];
  bool upper = m.attr_int("upper", 1);
  return {typed(m.op(upper ? "aten::triu" : "aten::tril", {x, m.c_int(k)}, I::dtype(x)),
                I::dtype(x), known_shape(x))};
}

Outs range(I& m, Ins ins) {
  std::vector<V> items;
  for (size_t i = 0; i < 3; ++i) {
    V v = m.op("aten::item", {in(m, ins, i)}, std::nullopt);
    v->set_type(I::dtype(ins[i]) == DType::Float32 ? ir::Type::of_float() : ir::Type::of_int());
    items.push_back(v);
  }
  DType d = I::dtype(ins[0]);
  V r = m.op("aten::arange", {items[0], items[1], items[2], m.c_int(dtype_scalar_type(d))}, d);
  // The overload with the three bounds (matching may pick arange(end, dtype, ...) for
  // these four arguments, which `d2s code` then writes as a call PyTorch refuses).
  r->node()->set_overload("start_step");
  return {r};
}

Outs not_op(I& m, Ins ins) {
  V x = in(m, ins, 0);
  return {typed(m.op("aten::logical_not", {x}, DType::Bool), DType::Bool, known_shape(x))};
}

const std::map<std::string, Fn>& table() {
  static const std::map<std::string, Fn> t = [] {
    std::map<std::string, Fn> m;
    m["Relu"] = same("aten::relu");
    m["Abs"] = same("aten::abs");
    m["Neg"] = same("aten::neg");
    m["Sign"] = same("aten::sign");
    for (const auto& [op, kind] :
         std::vector<std::pair<const char*, const char*>>{{"Sigmoid", "aten::sigmoid"},
                                                          {"Tanh", "aten::tanh"},
                                                          {"Exp", "aten::exp"},
                                                          {"Log", "aten::log"},
                                                          {"Sqrt", "aten::sqrt"},
                                                          {"Sin", "aten::sin"},
                                                          {"Cos", "aten::cos"},
                                                          {"Tan", "aten::tan"},
                                                          {"Asin", "aten::asin"},
                                                          {"Acos", "aten::acos"},
                                                          {"Atan", "aten::atan"},
                                                          {"Sinh", "aten::sinh"},
                                                          {"Cosh", "aten::cosh"},
                                                          {"Erf", "aten::erf"},
                                                          {"Reciprocal", "aten::reciprocal"},
                                                          {"Floor", "aten::floor"},
                                                          {"Ceil", "aten::ceil"},
                                                          {"Round", "aten::round"},
                                                          {"Softplus", "aten::softplus"}}) {
      m[op] = floating(kind);
    }
    m["Add"] = binary("aten::add");
    m["Sub"] = binary("aten::sub");
    m["Mul"] = binary("aten::mul");
    m["Div"] = div;
    m["Pow"] = pow;
    m["Mod"] = mod;
    m["Equal"] = binary("aten::eq", true);
    m["Less"] = binary("aten::lt", true);
    m["Greater"] = binary("aten::gt", true);
    m["LessOrEqual"] = binary("aten::le", true);
    m["GreaterOrEqual"] = binary("aten::ge", true);
    m["And"] = binary("aten::logical_and", true);
    m["Or"] = binary("aten::logical_or", true);
    m["Xor"] = binary("aten::logical_xor", true);
    m["Not"] = not_op;
    m["Max"] = variadic("aten::maximum", false);
    m["Min"] = variadic("aten::minimum", false);
    m["Sum"] = variadic("aten::add", false);
    m["Mean"] = variadic("aten::add", true);
    m["MatMul"] = matmul;
    m["Gemm"] = gemm;
    m["Identity"] = identity;
    m["Cast"] = cast_op;
    m["CastLike"] = cast_like;
    m["Constant"] = constant;
    m["Shape"] = shape;
    m["ConstantOfShape"] = constant_of_shape;
    m["Size"] = size;
    m["Reshape"] = reshape;
    m["Flatten"] = flatten;
    m["Transpose"] = transpose;
    m["Unsqueeze"] = unsqueeze;
    m["Squeeze"] = squeeze;
    m["Concat"] = concat;
    m["Split"] = split;
    m["Slice"] = slice;
    m["Gather"] = gather;
    m["Tile"] = tile;
    m["Expand"] = expand;
    m["Where"] = where;
    m["Clip"] = clip;
    m["ReduceSum"] = reduce(
        [](I& m, V x, V axes, V keep) {
          return m.op("aten::sum", {x, axes, keep}, I::dtype(x));
        },
        false, "aten::sum");
    m["ReduceMean"] = reduce(
        [](I& m, V x, V axes, V keep) {
          return m.op("aten::mean", {x, axes, keep}, DType::Float32);
        },
        true, "aten::mean");
    m["ReduceMax"] = reduce(
        [](I& m, V x, V axes, V keep) {
          return m.op("aten::amax", {x, axes, keep}, I::dtype(x));
        },
        false, "aten::max");
    m["ReduceMin"] = reduce(
        [](I& m, V x, V axes, V keep) {
          return m.op("aten::amin", {x, axes, keep}, I::dtype(x));
        },
        false, "aten::min");
    m["ReduceProd"] = reduce_prod;
    m["ReduceSumSquare"] = reduce([](I& m, V x, V axes, V keep) {
      return m.op("aten::sum", {m.op("aten::mul", {x, x}, DType::Float32), axes, keep},
                  DType::Float32);
    });
    m["ReduceL1"] = reduce([](I& m, V x, V axes, V keep) {
      return m.op("aten::sum", {m.op("aten::abs", {x}, DType::Float32), axes, keep},
                  DType::Float32);
    });
    m["ReduceL2"] = reduce([](I& m, V x, V axes, V keep) {
      V s = m.op("aten::sum", {m.op("aten::mul", {x, x}, DType::Float32), axes, keep},
                 DType::Float32);
      return m.op("aten::sqrt", {s}, DType::Float32);
    });
    m["ReduceLogSum"] = reduce([](I& m, V x, V axes, V keep) {
      return m.op("aten::log", {m.op("aten::sum", {x, axes, keep}, DType::Float32)},
                  DType::Float32);
    });
    m["ReduceLogSumExp"] = reduce([](I& m, V x, V axes, V keep) {
      return m.op("aten::logsumexp", {x, axes, keep}, DType::Float32);
    });
    m["ArgMax"] = [](I& m, Ins ins) { return arg_extreme(m, ins, true); };
    m["ArgMin"] = [](I& m, Ins ins) { return arg_extreme(m, ins, false); };
    m["Trilu"] = trilu;
    m["Range"] = range;
    add_nn_imports(m);
    add_recurrent_imports(m);
    add_index_imports(m);
    return m;
  }();
  return t;
}

}  // namespace

const ImportFn* find_import(const std::string& op_type) {
  auto it = table().find(op_type);
  return it == table().end() ? nullptr : &it->second;
}

std::vector<std::string> imported_op_types() {
  std::vector<std::string> out = {"If", "Loop"};
  for (const auto& [k, _] : table()) out.push_back(k);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace d2s::onnx_io
