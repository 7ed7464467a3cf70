// Whether an op node can raise (passes.h, cannot_raise): dead-code elimination keeps
// an unused op that can, so that the parse route raises where eager PyTorch does
// (`t.item()` of a two-element tensor, a shape mismatch whose result nobody reads).
//
// A node is proven unable to raise in two ways:
//  * it is total on the kinds its inputs have: a tensor's size/dim/numel/dtype,
//    pointwise math of one float tensor, and scalar arithmetic and comparisons that
//    no int or float value makes fail;
//  * its kernel runs without error on stand-ins of its inputs: constants as they are,
//    tensors of a known float or bool dtype and a fully known (small) shape as zeros,
//    lists built in the graph item by item. A shape error, a one-element check or a
//    dtype refusal depends only on what these stand-ins carry. Integer tensors,
//    runtime scalars and symbolic dims are not stood in for: an index, a divisor or a
//    size may decide whether the op raises, so such a node stays.
#include <string_view>

#include "convert/lower_context.h"
#include "convert/passes.h"
#include "core/autograd/autograd.h"
#include "core/ir/effects.h"
#include "core/ops/op_registry.h"

namespace d2s::convert {

namespace {

constexpr int64_t kMaxStandInElements = 1 << 14;

// Whether the node's interned kind is one of `kinds`: integer compares.
bool listed(ir::Symbol kind, std::initializer_list<ir::Symbol> kinds) {
  for (ir::Symbol k : kinds) {
    if (kind == k) return true;
  }
  return false;
}

bool is_scalar(const ir::Type& t) {
  return t.kind == ir::TypeKind::Int || t.kind == ir::TypeKind::Float ||
         t.kind == ir::TypeKind::Bool;
}

bool total_on_its_inputs(const ir::Node& n) {
  namespace op = ir::op;
  const ir::Symbol k = n.sym();
  if (listed(k, {op::dim, op::numel, op::dtype, op::detach})) return true;
  if (k == op::size && n.inputs().size() == 1) return true;
  // Pointwise math of one float tensor: defined for every shape and value (NaN
  // where the math is undefined, as in PyTorch).
  if (n.inputs().size() == 1 && n.input(0)->type().is_tensor() &&
      n.input(0)->type().dtype == DType::Float32 &&
      listed(k, {op::neg,   op::relu,   op::tanh,       op::sigmoid,  op::exp,
                 op::log,   op::abs,    op::sin,        op::cos,      op::sqrt,
                 op::rsqrt, op::square, op::reciprocal, op::clone,    op::contiguous,
                 op::floor, op::ceil,   op::round,      op::sign,     op::erf,
                 op::gelu,  op::silu,   op::zeros_like, op::ones_like})) {
    return true;
  }
  // Reads of a dict that no value makes fail (core/ops/kernels_dict.cpp), and a dict made
  // of str or int keys (the only keys whose hashing cannot fail).
  if (k == op::DictConstruct) {
    for (size_t i = 0; i < n.inputs().size(); i += 2) {
      const ir::TypeKind key = n.input(i)->type().kind;
      if (key != ir::TypeKind::Str && key != ir::TypeKind::Int) return false;
    }
    return true;
  }
  if (!n.inputs().empty() && n.input(0)->type().kind == ir::TypeKind::Dict &&
      listed(k, {op::len, op::keys, op::values, op::items, op::copy})) {
    return true;
  }
  bool all_scalars = !n.inputs().empty();
  for (const ir::Value* v : n.inputs()) all_scalars &= is_scalar(v->type());
  return all_scalars &&
         listed(k, {op::add, op::sub, op::mul, op::neg, op::lt, op::le, op::gt, op::ge, op::eq,
                    op::ne, op::not_, op::and_, op::or_, op::Float, op::Int, op::Bool, op::abs});
}

// A value standing in for `v` when running the node's kernel, or nullopt.
std::optional<IValue> stand_in(const ir::Value* v, bool allow_list) {
  if (auto c = constant_value(v)) return c;
  const ir::Type& t = v->type();
  if (t.kind == ir::TypeKind::None) return IValue();
  if (t.is_tensor()) {
    if (!t.dtype || *t.dtype == DType::Int64 || !t.shape) return std::nullopt;
    Shape shape;
    int64_t elements = 1;
    for (const ir::Dim& d : *t.shape) {
      if (!d.is_known()) return std::nullopt;
      shape.push_back(d.size);
      elements *= d.size;
      if (elements > kMaxStandInElements) return std::nullopt;
    }
    return IValue(Tensor::zeros(shape, *t.dtype));
  }
  const ir::Node* producer = v->node();
  if (allow_list && ir::is_unchanged_list(*v)) {
    ValueList items;
    for (const ir::Value* item : producer->inputs()) {
      auto s = stand_in(item, false);
      if (!s) return std::nullopt;
      items.push_back(*s);
    }
    return IValue::list(std::move(items));
  }
  return std::nullopt;
}

bool runs_on_stand_ins(const ir::Node& n) {
  const OpRegistry& reg = OpRegistry::builtin();
  ValueList args;
  for (const ir::Value* v : n.inputs()) {
    auto s = stand_in(v, true);
    if (!s) return false;
    args.push_back(*s);
  }
  try {
    NoGradGuard no_grad;
    OpContext ctx;  // no generator: random ops are kept anyway
    // The named overload, resolved when the node was made; else the binder chooses.
    const OpDef* def = n.overload().empty() ? nullptr : n.op();
    if (def) {
      const auto& params = def->schema.arguments;
      for (size_t i = args.size(); i < params.size(); ++i) {
        if (!params[i].default_value) return false;
        args.push_back(*params[i].default_value);
      }
      def->kernel(ctx, args);
    } else {
      OpRegistry::Bound bound = reg.bind(n.kind(), args, {}, n.range());
      bound.op->kernel(ctx, bound.args);
    }
  } catch (const std::exception&) {
    return false;  // it raises on these values, or could not be tried
  }
  return true;
}

}  // namespace

bool cannot_raise(const ir::Node& n) {
  return total_on_its_inputs(n) || runs_on_stand_ins(n);
}

}  // namespace d2s::convert
