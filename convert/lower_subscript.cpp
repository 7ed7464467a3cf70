// Subscripts: tensor indexing as aten::select / aten::slice / aten::unsqueeze chains
// (as TorchScript emits them), `x.shape[i]` as aten::size(x, i), and static indexing of
// tuples, written-out lists and nn.Sequential containers.
#include "convert/lowerer.h"

namespace d2s::convert {

using ir::Type;
using ir::TypeKind;

namespace {

// A static index into a sequence of `n` items, Python's negative indices included.
size_t normalize_index(int64_t i, size_t n, const SourceRange& range, const Lowerer& l) {
  int64_t size = static_cast<int64_t>(n);
  if (i < -size || i >= size)
    l.fail("IndexError: index " + std::to_string(i) + " is out of range for a sequence of " +
               std::to_string(n) + " items",
           range);
  return static_cast<size_t>(i < 0 ? i + size : i);
}

}  // namespace

Sugared Lowerer::emit_subscript(const ast::Subscript& e) {
  Sugared base = emit_sugared(*e.value);
  // A typing generic as a value (`torch.jit.annotate(List[Tensor], [])`): the type
  // itself, which the parse route needs no more of.
  if (base.kind == Sugared::Kind::Builtin && base.name.rfind("typing.", 0) == 0) return base;
  if (base.kind == Sugared::Kind::Module) {
    std::vector<Sugared> children = module_children(base, e.value->range);
    if (e.indices.size() != 1 || e.indices[0]->kind == ast::ExprKind::Slice) {
      fail("a module container can only be indexed by one int here", e.range);
    }
    auto i = static_value(emit_expr(*e.indices[0]));
    if (!i || !i->is_int()) fail("the index of a module container must be a constant int", e.range);
    return children[normalize_index(i->to_int(), children.size(), e.range, *this)];
  }
  ir::Value* v = as_value(base, e.value->range);
  const Type& t = v->type();
  if (t.kind == TypeKind::Tuple ||
      (t.kind == TypeKind::List && v->node()->kind() == ir::kind::ListConstruct)) {
    return Sugared::of(index_sequence(v, e));
  }
  if (t.kind == TypeKind::List) {
    // x.shape[i] / x.size()[i]: the size of one dimension.
    ir::Node* producer = v->node();
    if (producer->kind() == "aten::size" && producer->inputs().size() == 1 &&
        e.indices.size() == 1 && e.indices[0]->kind != ast::ExprKind::Slice) {
      ir::Value* dim = emit_expr(*e.indices[0]);
      return Sugared::of(emit_op("aten::size", {producer->input(0), dim}, e.range));
    }
    fail("indexing a list of unknown length is not supported by the parse route", e.range,
         "index the tensor's shape directly (x.shape[i]) or use a tuple");
  }
  if (!t.is_tensor() && t.kind != TypeKind::Any) {
    fail("a value of type " + t.str() + " cannot be indexed", e.range);
  }
  return Sugared::of(index_tensor(v, e));
}

ir::Value* Lowerer::index_sequence(ir::Value* v, const ast::Subscript& e) {
  std::vector<ir::Value*> items =
      v->type().kind == TypeKind::Tuple ? tuple_items(v, e.range) : v->node()->inputs();
  if (e.indices.size() != 1) fail("a tuple takes one index", e.range);
  const ast::Expr& idx = *e.indices[0];
  if (idx.kind != ast::ExprKind::Slice) {
    auto i = static_value(emit_expr(idx));
    if (!i || !(i->is_int() || i->is_bool())) {
      fail("the index of a tuple must be a constant int in the parse route", idx.range,
           "each item of a tuple may have its own type, so the index must be known");
    }
    return items[normalize_index(i->to_int(), items.size(), idx.range, *this)];
  }
  // A static slice of a tuple is a new tuple.
  const auto& s = idx.as<ast::Slice>();
  auto bound = [&](const ast::ExprPtr& b) -> std::optional<int64_t> {
    if (!b) return std::nullopt;
    auto c = static_value(emit_expr(*b));
    if (!c || !c->is_int()) fail("tuple slice bounds must be constant ints", b->range);
    return c->to_int();
  };
  // Python's slice.indices().
  const int64_t n = static_cast<int64_t>(items.size());
  const int64_t step = bound(s.step).value_or(1);
  if (step == 0) fail("ValueError: slice step cannot be zero", idx.range);
  const int64_t lower = step > 0 ? 0 : -1, upper = step > 0 ? n : n - 1;
  auto adjust = [&](std::optional<int64_t> x, int64_t dflt) {
    if (!x) return dflt;
    int64_t i = *x;
    if (i < 0) return std::max(i + n, lower);
    return std::min(i, upper);
  };
  const int64_t lo = adjust(bound(s.lower), step > 0 ? lower : upper);
  const int64_t hi = adjust(bound(s.upper), step > 0 ? upper : lower);
  std::vector<ir::Value*> out;
  for (int64_t i = lo; step > 0 ? i < hi : i > hi; i += step) out.push_back(items[i]);
  return v->type().kind == TypeKind::Tuple ? make_tuple(out, e.range) : make_list(out, e.range);
}

ir::Value* Lowerer::index_tensor(ir::Value* v, const ast::Subscript& e) {
  // Indices apply left to right: an int removes a dimension (select), a slice keeps it
  // (slice), None inserts one (unsqueeze).
  int64_t dim = 0;
  for (const ast::ExprPtr& idx : e.indices) {
    if (idx->kind == ast::ExprKind::Ellipsis) {
      // `...` stands for the dimensions the other indices leave: the indices after it
      // count from the end, so they apply right to left with negative dims and the
      // rank need not be known.
      const size_t at = static_cast<size_t>(&idx - e.indices.data());
      int64_t d = -1;
      for (size_t k = e.indices.size(); k-- > at + 1;) {
        const ast::Expr& item = *e.indices[k];
        const SourceRange& r = item.range;
        if (item.kind == ast::ExprKind::Ellipsis) {
          fail("IndexError: an index can only have a single ellipsis ('...')", r);
        }
        if (item.kind == ast::ExprKind::Slice) {
          const auto& sl = item.as<ast::Slice>();
          if (sl.lower || sl.upper || sl.step) {
            ir::Value* start = sl.lower ? emit_expr(*sl.lower) : constant(IValue(), r);
            ir::Value* end = sl.upper ? emit_expr(*sl.upper) : constant(IValue(), r);
            ir::Value* step = sl.step ? emit_expr(*sl.step) : constant(IValue(int64_t{1}), r);
            v = emit_op("aten::slice", {v, constant(IValue(d), r), start, end, step}, e.range);
          }
          --d;
        } else if (item.kind == ast::ExprKind::None) {
          v = emit_op("aten::unsqueeze", {v, constant(IValue(d), r)}, e.range);
          --d;
        } else {
          ir::Value* i = emit_expr(item);
          if (i->type().kind != TypeKind::Int) {
            fail("after '...' the parse route takes ints, slices and None as indices", r,
                 "eager and trace modes run it");
          }
          v = emit_op("aten::select", {v, constant(IValue(d), r), i}, e.range);
        }
      }
      break;
    }
    if (idx->kind == ast::ExprKind::Slice) {
      const auto& s = idx->as<ast::Slice>();
      if (!s.lower && !s.upper && !s.step) {  // `:` keeps the whole dimension: no op
        ++dim;
        continue;
      }
      ir::Value* start = s.lower ? emit_expr(*s.lower) : constant(IValue(), idx->range);
      ir::Value* end = s.upper ? emit_expr(*s.upper) : constant(IValue(), idx->range);
      ir::Value* step = s.step ? emit_expr(*s.step) : constant(IValue(int64_t{1}), idx->range);
      v = emit_op("aten::slice", {v, constant(IValue(dim), idx->range), start, end, step}, e.range);
      ++dim;
      continue;
    }
    if (idx->kind == ast::ExprKind::None) {
      v = emit_op("aten::unsqueeze", {v, constant(IValue(dim), idx->range)}, e.range);
      ++dim;
      continue;
    }
    ir::Value* i = emit_expr(*idx);
    TypeKind k = i->type().kind;
    if (k == TypeKind::Tensor) {
      fail("indexing with a tensor is not supported by the parse route", idx->range,
           "use torch.where or index_select, or int(i) for a one-element index");
    }
    if (k != TypeKind::Int && k != TypeKind::Bool && k != TypeKind::Any) {
      fail("a tensor index must be an int, a slice or None, not " + i->type().str(), idx->range);
    }
    v = emit_op("aten::select", {v, constant(IValue(dim), idx->range), i}, e.range);
  }
  return v;
}

void Lowerer::assign_tensor_item(const ast::Subscript& target, ir::Value* value) {
  ir::Value* base = emit_expr(*target.value);
  if (!base->type().is_tensor() && base->type().kind != TypeKind::Any) {
    fail("assigning to an item of a " + base->type().str() + " is not supported by the parse route",
         target.range, "build a new value instead, e.g. a new tuple");
  }
  struct Step {
    const char* scatter;  // aten::select_scatter, aten::slice_scatter, or null (unsqueeze)
    std::vector<ir::Value*> where;  // dim and the index or the slice bounds
  };
  std::vector<ir::Value*> views{base};
  std::vector<Step> steps;
  int64_t dim = 0;
  for (const ast::ExprPtr& idx : target.indices) {
    ir::Value* d = constant(IValue(dim), idx->range);
    if (idx->kind == ast::ExprKind::Slice) {
      const auto& sl = idx->as<ast::Slice>();
      ++dim;
      if (!sl.lower && !sl.upper && !sl.step) continue;  // `:`: the whole dimension
      ir::Value* start = sl.lower ? emit_expr(*sl.lower) : constant(IValue(), idx->range);
      ir::Value* end = sl.upper ? emit_expr(*sl.upper) : constant(IValue(), idx->range);
      ir::Value* step = sl.step ? emit_expr(*sl.step) : constant(IValue(int64_t{1}), idx->range);
      steps.push_back({"aten::slice_scatter", {d, start, end, step}});
      views.push_back(emit_op("aten::slice", {views.back(), d, start, end, step}, target.range));
      continue;
    }
    if (idx->kind == ast::ExprKind::None) {
      steps.push_back({nullptr, {d}});
      views.push_back(emit_op("aten::unsqueeze", {views.back(), d}, target.range));
      ++dim;
      continue;
    }
    ir::Value* i = emit_expr(*idx);
    const TypeKind k = i->type().kind;
    if (k != TypeKind::Int && k != TypeKind::Bool && k != TypeKind::Any) {
      fail(
          "an index of an item assignment must be an int, a slice or None in the parse "
          "route, not " +
              i->type().str(),
          idx->range, "use torch.where to write where a mask holds");
    }
    steps.push_back({"aten::select_scatter", {d, i}});
    views.push_back(emit_op("aten::select", {views.back(), d, i}, target.range));
  }
  const TypeKind vk = value->type().kind;
  ir::Value* src;
  if (vk == TypeKind::Int || vk == TypeKind::Float || vk == TypeKind::Bool) {
    src = emit_op("aten::full_like", {views.back(), value}, target.range);
  } else {
    src = emit_op("aten::expand_as", {value, views.back()}, target.range);
  }
  for (size_t k = steps.size(); k-- > 0;) {
    const Step& s = steps[k];
    if (!s.scatter) {
      src = emit_op("aten::squeeze", {src, s.where[0]}, target.range);
      continue;
    }
    std::vector<ir::Value*> args = {views[k], src};
    args.insert(args.end(), s.where.begin(), s.where.end());
    src = emit_op(s.scatter, args, target.range);
  }
  emit_op("aten::copy_", {base, src}, target.range);
}

}  // namespace d2s::convert
