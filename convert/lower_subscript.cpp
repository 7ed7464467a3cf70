// Subscripts: tensor indexing as aten::select / aten::slice / aten::unsqueeze chains and
// aten::index for tensor, list and range indices (as TorchScript emits them), writes
// through them (aten::index_put_ for x[mask] = v), `x.shape[i]` as aten::size(x, i), and static
// indexing of tuples, written-out lists and nn.Sequential containers.
#include <algorithm>

#include "convert/lowerer.h"
#include "trace/py_objects.h"

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
  if (base.kind == Sugared::Kind::Module &&
      base.module->instance->nn == interp::NnKind::ModuleDict) {
    if (e.indices.size() != 1 || e.indices[0]->kind == ast::ExprKind::Slice) {
      fail("an nn.ModuleDict is indexed by one key", e.range);
    }
    return module_dict_item(base, *e.indices[0], e.range);
  }
  if (base.kind == Sugared::Kind::Keywords) {
    if (e.indices.size() != 1 || e.indices[0]->kind == ast::ExprKind::Slice) {
      fail("TypeError: unhashable type: 'slice'", e.range);
    }
    return keywords_item(base, emit_sugared(*e.indices[0]), e.indices[0]->range);
  }
  if (base.kind == Sugared::Kind::Items) {
    if (e.indices.size() != 1 || e.indices[0]->kind == ast::ExprKind::Slice) {
      fail("a tuple of modules can only be indexed by one int here", e.range);
    }
    auto i = static_value(emit_expr(*e.indices[0]));
    if (!i || !i->is_int()) fail("the index of a tuple of modules must be a constant int", e.range);
    return (*base.items)[normalize_index(i->to_int(), base.items->size(), e.range, *this)];
  }
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
  if (t.kind == TypeKind::Dict) {  // d[key] (lower_dict.cpp)
    if (e.indices.size() != 1 || e.indices[0]->kind == ast::ExprKind::Slice) {
      fail("a dict is indexed by one key", e.range);
    }
    return Sugared::of(dict_item(v, emit_expr(*e.indices[0]), e.range));
  }
  if (t.kind == TypeKind::Tuple || (t.kind == TypeKind::List && static_list_items(v, e.range))) {
    return Sugared::of(index_sequence(v, e));
  }
  if (std::optional<IValue> c = constant_value(v);
      c && c->is_list() && e.indices.size() == 1 && e.indices[0]->kind != ast::ExprKind::Slice) {
    // A list frozen from a module attribute (`self.sizes[1]`): its item, known now.
    auto i = static_value(emit_expr(*e.indices[0]));
    if (i && (i->is_int() || i->is_bool())) {
      const ValueList& items = c->list_items();
      return Sugared::of(
          constant(items[normalize_index(i->to_int(), items.size(), e.range, *this)], e.range));
    }
  }
  if (t.kind == TypeKind::List) {
    // x.shape[i] / x.size()[i]: the size of one dimension.
    ir::Node* producer = v->node();
    if (producer->kind() == "aten::size" && producer->inputs().size() == 1 &&
        e.indices.size() == 1 && e.indices[0]->kind != ast::ExprKind::Slice) {
      ir::Value* dim = emit_expr(*e.indices[0]);
      return Sugared::of(emit_op("aten::size", {producer->input(0), dim}, e.range));
    }
    // A list of run-time length (one that changes): its item when the graph runs.
    if (e.indices.size() == 1 && e.indices[0]->kind != ast::ExprKind::Slice) {
      ir::Value* index = emit_expr(*e.indices[0]);
      const TypeKind k = index->type().kind;
      if (k != TypeKind::Int && k != TypeKind::Bool && k != TypeKind::Any) {
        fail("TypeError: list indices must be integers, not " + index->type().str(),
             e.indices[0]->range);
      }
      return Sugared::of(list_item_at(v, index, e.range));
    }
    if (e.indices.size() == 1) return Sugared::of(list_slice(v, e.indices[0]->as<ast::Slice>()));
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
    ir::Value* index = emit_expr(idx);
    auto i = static_value(index);
    if (v->type().kind == TypeKind::List && (!i || !(i->is_int() || i->is_bool()))) {
      // A list's items share one type: an index known only at run time reads it then.
      return list_item_at(v, index, e.range);
    }
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

// One index of a tensor subscript, its expressions emitted in source order.
struct Lowerer::IndexItem {
  enum Kind { Full, Slice, NewAxis, Ellipsis, Basic, Advanced, Spread } kind;
  ir::Value* a = nullptr;  // Basic: the int; Advanced: the index tensor; Slice: start
  ir::Value* b = nullptr;  // Slice: end
  ir::Value* c = nullptr;  // Slice: step
  SourceRange range;
};

// A list, tuple or range(...) inside a subscript as the index tensor PyTorch makes of
// it: aten::tensor with dtype long (bool for a list of bools), as TorchScript writes it.
ir::Value* Lowerer::sequence_index(const ast::Expr& idx) {
  const SourceRange& r = idx.range;
  if (idx.kind == ast::ExprKind::Call) {
    const auto& call = idx.as<ast::Call>();
    std::vector<CallArg> args;
    for (const ast::ExprPtr& a : call.args) args.push_back({Sugared::of(emit_expr(*a)), a->range});
    if (args.empty() || args.size() > 3 || !call.keywords.empty()) {
      fail("range() in a subscript takes 1 to 3 positional ints", r);
    }
    std::vector<std::pair<std::string, CallArg>> kw;
    kw.push_back({"dtype", {Sugared::of(constant(IValue(int64_t{4}), r)), r}});
    if (args.size() == 1) return emit_op("aten::arange", args, kw, r);
    if (args.size() == 2) args.push_back({Sugared::of(constant(IValue(int64_t{1}), r)), r});
    return emit_op("aten::arange", args, kw, r);
  }
  ir::Value* list = emit_expr(idx);
  if (list->type().kind == TypeKind::Tuple) list = make_list(tuple_items(list, r), r);
  const Type& t = list->type();
  const bool bools = !t.elements.empty() && t.elements[0].kind == TypeKind::Bool;
  if (t.kind != TypeKind::List ||
      (!t.elements.empty() && !bools && t.elements[0].kind != TypeKind::Int &&
       t.elements[0].kind != TypeKind::Any)) {
    fail("a list used as a tensor index must hold ints or bools, not " + t.str(), r);
  }
  const int64_t dtype = bools ? 11 : 4;  // TorchScript's Bool and Long codes
  std::vector<std::pair<std::string, CallArg>> kw;
  kw.push_back({"dtype", {Sugared::of(constant(IValue(dtype), r)), r}});
  return emit_op("aten::tensor", {CallArg{Sugared::of(list), r}}, kw, r);
}

std::vector<Lowerer::IndexItem> Lowerer::emit_index_items(const ast::Subscript& e) {
  std::vector<IndexItem> items;
  for (const ast::ExprPtr& idx : e.indices) {
    const SourceRange& r = idx->range;
    switch (idx->kind) {
      case ast::ExprKind::Ellipsis:
        items.push_back({IndexItem::Ellipsis, nullptr, nullptr, nullptr, r});
        continue;
      case ast::ExprKind::None:
        items.push_back({IndexItem::NewAxis, nullptr, nullptr, nullptr, r});
        continue;
      case ast::ExprKind::Slice: {
        const auto& s = idx->as<ast::Slice>();
        if (!s.lower && !s.upper && !s.step) {  // `:` keeps the whole dimension: no op
          items.push_back({IndexItem::Full, nullptr, nullptr, nullptr, r});
          continue;
        }
        ir::Value* start = s.lower ? emit_expr(*s.lower) : constant(IValue(), r);
        ir::Value* end = s.upper ? emit_expr(*s.upper) : constant(IValue(), r);
        ir::Value* step = s.step ? emit_expr(*s.step) : constant(IValue(int64_t{1}), r);
        items.push_back({IndexItem::Slice, start, end, step, r});
        continue;
      }
      case ast::ExprKind::List:
      case ast::ExprKind::Tuple:
        items.push_back({IndexItem::Advanced, sequence_index(*idx), nullptr, nullptr, r});
        continue;
      case ast::ExprKind::Call:
        if (const auto& f = *idx->as<ast::Call>().func;
            f.kind == ast::ExprKind::Name && f.as<ast::Name>().id == "range") {
          items.push_back({IndexItem::Advanced, sequence_index(*idx), nullptr, nullptr, r});
          continue;
        }
        break;
      default:
        break;
    }
    ir::Value* i = emit_expr(*idx);
    const TypeKind k = i->type().kind;
    const std::vector<Type>& elements = i->type().elements;
    const bool all_tensors =
        !elements.empty() &&
        std::all_of(elements.begin(), elements.end(), [](const Type& t) { return t.is_tensor(); });
    if (all_tensors && (k == TypeKind::List || k == TypeKind::Tuple)) {
      // A sequence of index tensors (nonzero(as_tuple=True)): one per dim, as PyTorch
      // reads a tuple index.
      ir::Value* list = k == TypeKind::Tuple ? make_list(tuple_items(i, r), r) : i;
      items.push_back({IndexItem::Spread, list, nullptr, nullptr, r});
    } else if (k == TypeKind::Tensor && i->type().dtype == DType::Int64 && i->type().shape &&
               i->type().shape->empty()) {
      // A 0-d integer tensor is a Python int (its __index__), as PyTorch eager's
      // applySlicing reads it: a select that drops the dim. As an advanced index it would
      // move the dims when another tensor index follows (x[idx[0], :, [4, 3]]).
      items.push_back({IndexItem::Basic, emit_op("aten::Int", {i}, r), nullptr, nullptr, r});
    } else if (k == TypeKind::Tensor) {
      items.push_back({IndexItem::Advanced, i, nullptr, nullptr, r});
    } else if (k == TypeKind::List) {
      items.push_back({IndexItem::Advanced, sequence_index(*idx), nullptr, nullptr, r});
    } else if (k == TypeKind::Int || k == TypeKind::Bool || k == TypeKind::Any) {
      items.push_back({IndexItem::Basic, i, nullptr, nullptr, r});
    } else {
      fail("a tensor index must be an int, a slice, None, a tensor or a list, not " +
               i->type().str(),
           r);
    }
  }
  return items;
}

// Indices apply as PyTorch's applySlicing applies them: an int removes a dimension
// (select), a slice keeps it (slice), None inserts one (unsqueeze), and each tensor index
// counts one dimension and is recorded there for one aten::index after the basic steps.
// `...` stands for the dimensions the others leave; when the rank is unknown, the
// indices after it count from the end (negative dims), which basic indices allow.
Lowerer::SubscriptPlan Lowerer::plan_subscript(ir::Value* base, const ast::Subscript& e) {
  return plan_index_items(base, emit_index_items(e), e);
}

Lowerer::SubscriptPlan Lowerer::plan_index_items(ir::Value* base,
                                                 const std::vector<IndexItem>& items,
                                                 const ast::Subscript& e) {
  SubscriptPlan plan;
  for (const IndexItem& it : items) {
    if (it.kind != IndexItem::Spread) continue;
    if (items.size() != 1) {
      fail("a list or tuple of index tensors must be the whole index in the parse route", it.range,
           "index with its tensors written out: x[idx[0], idx[1]]");
    }
    plan.spread = it.a;
    return plan;
  }
  const Type& bt = base->type();
  // The base's rank, -1 when unknown.
  const int64_t rank = bt.is_tensor() && bt.shape ? static_cast<int64_t>(bt.shape->size()) : -1;
  auto consumes = [](const IndexItem& it) -> int64_t {
    if (it.kind == IndexItem::Ellipsis || it.kind == IndexItem::NewAxis) return 0;
    if (it.kind == IndexItem::Advanced) {
      const Type& t = it.a->type();
      if (t.dtype == DType::Bool && t.shape) return static_cast<int64_t>(t.shape->size());
    }
    return 1;
  };
  int64_t consumed = 0;
  for (const IndexItem& it : items) consumed += consumes(it);
  if (rank >= 0 && consumed > rank) {
    fail("IndexError: too many indices for tensor of dimension " + std::to_string(rank), e.range);
  }
  int64_t dim = 0;
  bool from_end = false;  // after `...` with an unknown rank: dims count from the end
  for (size_t k = 0; k < items.size(); ++k) {
    const IndexItem& it = items[k];
    if (it.kind == IndexItem::Ellipsis) {
      if (from_end || (k > 0 && std::any_of(items.begin(), items.begin() + k, [](auto& x) {
                         return x.kind == IndexItem::Ellipsis;
                       }))) {
        fail("IndexError: an index can only have a single ellipsis ('...')", it.range);
      }
      if (rank >= 0) {
        dim += rank - consumed;
        continue;
      }
      from_end = true;
      for (size_t j = k + 1; j < items.size(); ++j) {
        if (items[j].kind == IndexItem::Advanced) {
          fail("Ellipses followed by tensor indexing is currently not supported", items[j].range,
               "the parse route needs the tensor's rank here; eager and trace modes run it");
        }
      }
      continue;
    }
    // From the end: as many dims stay right of this one as later indices consume.
    int64_t right = 0;
    for (size_t j = k + 1; from_end && j < items.size(); ++j) {
      right += items[j].kind == IndexItem::NewAxis ? 0 : 1;
    }
    ir::Value* d = constant(IValue(from_end ? -1 - right : dim), it.range);
    switch (it.kind) {
      case IndexItem::Full:
      case IndexItem::Spread:  // the whole index, planned above
        break;
      case IndexItem::Slice:
        plan.steps.push_back({"aten::slice", "aten::slice_scatter", {d, it.a, it.b, it.c}});
        break;
      case IndexItem::NewAxis:
        plan.steps.push_back({"aten::unsqueeze", nullptr, {d}});
        break;
      case IndexItem::Basic:
        plan.steps.push_back({"aten::select", "aten::select_scatter", {d, it.a}});
        continue;  // the dimension goes away
      case IndexItem::Advanced:
        plan.advanced.resize(static_cast<size_t>(dim), nullptr);
        plan.advanced.push_back(it.a);
        break;
      case IndexItem::Ellipsis:
        break;
    }
    ++dim;
  }
  return plan;
}

ir::Value* Lowerer::index_list(const std::vector<ir::Value*>& advanced, const SourceRange& range) {
  std::vector<ir::Value*> items;
  for (ir::Value* a : advanced) items.push_back(a ? a : constant(IValue(), range));
  return make_list(items, range);
}

ir::Value* Lowerer::apply_subscript_plan(ir::Value* v, const SubscriptPlan& plan,
                                         const SourceRange& range) {
  if (plan.spread) return emit_op("aten::index", {v, plan.spread}, range);
  for (const SubscriptPlan::Step& s : plan.steps) {
    std::vector<ir::Value*> args{v};
    args.insert(args.end(), s.where.begin(), s.where.end());
    v = emit_op(s.view, args, range);
  }
  if (!plan.advanced.empty()) {
    v = emit_op("aten::index", {v, index_list(plan.advanced, range)}, range);
  }
  return v;
}

ir::Value* Lowerer::index_tensor(ir::Value* v, const ast::Subscript& e) {
  std::vector<IndexItem> items = emit_index_items(e);
  // A tensor index whose rank is known only when the graph runs may be a 0-d int, which
  // PyTorch eager reads as an int (a select): that places the other tensor indices'
  // dims differently when one of them has dims of its own. Both readings, chosen by the
  // index's dim() when the graph runs.
  size_t maybe_int = items.size();
  size_t advanced = 0;
  for (size_t k = 0; k < items.size(); ++k) {
    if (items[k].kind != IndexItem::Advanced) continue;
    ++advanced;
    const ir::Type& t = items[k].a->type();
    if (maybe_int == items.size() && !t.shape && t.dtype != DType::Bool) {
      maybe_int = k;
    }
  }
  if (maybe_int == items.size() || advanced < 2)
    return apply_subscript_plan(v, plan_index_items(v, items, e), e.range);
  const SourceRange& r = items[maybe_int].range;
  ir::Value* index = items[maybe_int].a;
  ir::Value* zero = constant(IValue(int64_t{0}), r);
  ir::Value* long_code = constant(IValue(dtype_scalar_type(DType::Int64)), r);
  ir::Value* is_int =
      emit_op("aten::__and__",
              {emit_op("aten::eq", {emit_op("aten::dim", {index}, r), zero}, r),
               emit_op("aten::eq", {emit_op("prim::dtype", {index}, r), long_code}, r)},
              r);
  ir::Node* choice = graph_.insert(ir::kind::If, {is_int}, 1, e.range);
  {
    ir::WithInsertPoint guard(graph_, choice->add_block());
    std::vector<IndexItem> as_int = items;
    as_int[maybe_int] = {IndexItem::Basic, emit_op("aten::Int", {index}, r), nullptr, nullptr, r};
    choice->blocks()[0]->register_output(
        apply_subscript_plan(v, plan_index_items(v, as_int, e), e.range));
  }
  {
    ir::WithInsertPoint guard(graph_, choice->add_block());
    choice->blocks()[1]->register_output(
        apply_subscript_plan(v, plan_index_items(v, items, e), e.range));
  }
  choice->output()->set_type(ir::Type::tensor(v->type().dtype));
  return choice->output();
}

void Lowerer::assign_tensor_item(const ast::Subscript& target, ir::Value* value) {
  Sugared sb = emit_sugared(*target.value);
  if (sb.kind == Sugared::Kind::Keywords) refuse_keywords_write(sb, target.range);
  ir::Value* base = as_value(sb, target.value->range);
  if (base->type().kind == TypeKind::List) return assign_list_item(base, target, value);
  if (base->type().kind == TypeKind::Dict) return assign_dict_item(base, target, value);
  if (!base->type().is_tensor() && base->type().kind != TypeKind::Any) {
    fail("assigning to an item of a " + base->type().str() + " is not supported by the parse route",
         target.range, "build a new value instead, e.g. a new tuple");
  }
  const SubscriptPlan plan = plan_subscript(base, target);
  if (plan.spread) {
    emit_op("aten::index_put_", {base, plan.spread, value}, target.range);
    return;
  }
  if (plan.steps.empty() && !plan.advanced.empty()) {
    // x[mask] = v, x[idx] = v: one in-place index_put_, as TorchScript writes it.
    emit_op("aten::index_put_", {base, index_list(plan.advanced, target.range), value},
            target.range);
    return;
  }
  std::vector<ir::Value*> views{base};
  for (const SubscriptPlan::Step& s : plan.steps) {
    std::vector<ir::Value*> args{views.back()};
    args.insert(args.end(), s.where.begin(), s.where.end());
    views.push_back(emit_op(s.view, args, target.range));
  }
  const TypeKind vk = value->type().kind;
  ir::Value* src;
  if (!plan.advanced.empty()) {
    src = emit_op("aten::index_put", {views.back(), index_list(plan.advanced, target.range), value},
                  target.range);
  } else if (vk == TypeKind::Int || vk == TypeKind::Float || vk == TypeKind::Bool) {
    src = emit_op("aten::full_like", {views.back(), value}, target.range);
  } else {
    src = emit_op("aten::expand_as", {value, views.back()}, target.range);
  }
  for (size_t k = plan.steps.size(); k-- > 0;) {
    const SubscriptPlan::Step& s = plan.steps[k];
    if (!s.scatter) {  // unsqueeze: squeeze the dim back out
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
