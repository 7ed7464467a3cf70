// Lists that change, as TorchScript has them: a list is a reference value, and
// `outs.append(y)`, `outs.insert(i, y)`, `outs.pop(i)`, `outs[i] = y`, `outs += ys`,
// `outs.extend(ys)` are nodes that write into it (aten::append,
// aten::insert, aten::pop, aten::_set_item, aten::add_, aten::extend;
// core/ops/kernels_list.cpp), kept by dead-code elimination and run in order by the
// executor. A list appended to inside a prim::Loop is not loop-carried: the loop body
// writes into the one list every reader holds, as in TorchScript's graph
//
//   %outs : Tensor[] = prim::ListConstruct()
//   = prim::Loop(%n, %true)
//     block0(%t : int):
//       %3 : Tensor[] = aten::append(%outs, %y)
//   %4 : Tensor = aten::stack(%outs, %0)
//
// Reads of such a list are ops too (aten::len, aten::__getitem__, aten::list, a
// prim::Loop over aten::len trips), since its length is known only when the graph
// runs. A list written out (`[a, b]`) that nothing writes into keeps its items known at
// conversion time, so the lowering still unrolls over it and folds len() of it.
//
// Order matters for that: a loop body is lowered once for all its trips, so an item
// read at conversion time inside a prim::Loop of a list the same body writes into
// later would see only the first trip's list. Such lists are marked as changing before
// the body is lowered (the names the body writes through directly), and a write that
// comes after such a read anyway (through another name) is an error naming both lines.
#include "convert/lowerer.h"
#include "core/ir/effects.h"

namespace d2s::convert {

using ir::Type;
using ir::TypeKind;

namespace {

// Whether `block` is `outer` or lies inside it.
bool block_within(const ir::Block* block, const ir::Block* outer) {
  for (const ir::Block* b = block; b;
       b = b->owning_node() ? b->owning_node()->owning_block() : nullptr) {
    if (b == outer) return true;
  }
  return false;
}

bool is_list_method(const std::string& name) {
  return name == "append" || name == "insert" || name == "pop" || name == "extend" ||
         name == "__setitem__" || name == "__iadd__" || name == "remove" || name == "reverse" ||
         name == "sort" || name == "clear";
}

// The names a statement list writes into as lists directly: `n.append(...)` and the
// other list methods as statements, `n[i] = v`, `n += v` (nested blocks included).
void collect_list_writes(const ast::Body& body, std::vector<std::string>* out) {
  auto name_of = [](const ast::Expr& e) -> const std::string* {
    return e.kind == ast::ExprKind::Name ? &e.as<ast::Name>().id : nullptr;
  };
  for (const ast::StmtPtr& s : body) {
    switch (s->kind) {
      case ast::StmtKind::Expr: {
        const ast::Expr& e = *s->as<ast::ExprStmt>().value;
        if (e.kind != ast::ExprKind::Call) break;
        const ast::Expr& f = *e.as<ast::Call>().func;
        if (f.kind != ast::ExprKind::Attribute) break;
        const auto& attr = f.as<ast::Attribute>();
        if (const std::string* n = name_of(*attr.value); n && is_list_method(attr.attr))
          out->push_back(*n);
        break;
      }
      case ast::StmtKind::Assign:
        for (const auto& t : s->as<ast::Assign>().targets) {
          if (t->kind != ast::ExprKind::Subscript) continue;
          if (const std::string* n = name_of(*t->as<ast::Subscript>().value)) out->push_back(*n);
        }
        break;
      case ast::StmtKind::AugAssign:
        if (const std::string* n = name_of(*s->as<ast::AugAssign>().target)) out->push_back(*n);
        break;
      case ast::StmtKind::If:
        collect_list_writes(s->as<ast::If>().body, out);
        collect_list_writes(s->as<ast::If>().orelse, out);
        break;
      case ast::StmtKind::For:
        collect_list_writes(s->as<ast::For>().body, out);
        break;
      case ast::StmtKind::While:
        collect_list_writes(s->as<ast::While>().body, out);
        break;
      case ast::StmtKind::With:
        collect_list_writes(s->as<ast::With>().body, out);
        break;
      default:
        break;
    }
  }
}

}  // namespace

bool Lowerer::list_changes(ir::Value* v) const {
  if (changing_lists_.count(v)) return true;
  // A use that writes into it (aten::append, ...), emitted earlier.
  for (const ir::Use& u : v->uses()) {
    if (ir::mutates_inputs(*u.user)) return true;
  }
  return false;
}

std::optional<std::vector<ir::Value*>> Lowerer::static_list_items(ir::Value* v,
                                                                  const SourceRange& range) {
  if (v->type().kind != TypeKind::List || v->node()->kind() != ir::kind::ListConstruct)
    return std::nullopt;
  // `[]` is made to be filled: TorchScript's `outs = []` before a loop of appends.
  if (v->node()->inputs().empty() || list_changes(v)) return std::nullopt;
  for (LoopBody& body : loop_bodies_) body.static_reads.emplace_back(v, range);
  return v->node()->inputs();
}

void Lowerer::mark_loop_list_writes(const ast::Body& body) {
  std::vector<std::string> names;
  collect_list_writes(body, &names);
  for (const std::string& n : names) {
    const Binding* b = env_->lookup(n);
    if (b && !b->is_poisoned() && b->value.is_value() &&
        b->value.value->type().kind == TypeKind::List)
      changing_lists_.insert(b->value.value);
  }
}

void Lowerer::note_list_write(ir::Value* list, const SourceRange& range) {
  if (constant_value(list)) {
    fail("a list attribute of the module cannot be changed in the parse route", range,
         "module attributes are frozen when the module is converted; copy it first "
         "(`xs = list(self.xs)`), or " +
             std::string(kEagerRuns));
  }
  changing_lists_.insert(list);
  const ir::Block* here = graph_.insert_point()->owning_block();
  for (const LoopBody& body : loop_bodies_) {
    if (!block_within(here, body.block) || block_within(list->node()->owning_block(), body.block))
      continue;
    for (const auto& [read, where] : body.static_reads) {
      if (read != list) continue;
      fail("this writes into a list whose items were read at conversion time at line " +
               std::to_string(where.line) +
               ", earlier in the same loop body: later trips of the loop would read a stale list",
           range,
           "write into the list through the name it was created with (the parse route then reads "
           "it when the graph runs), or " +
               std::string(kEagerRuns));
    }
  }
}

void Lowerer::refine_list_element(ir::Value* list, ir::Value* item, const SourceRange& range) {
  refine_list_element(list, item->type(), range);
}

void Lowerer::refine_list_element(ir::Value* list, const Type& item, const SourceRange& range) {
  const Type& t = list->type();
  if (t.kind != TypeKind::List) return;
  const Type elem = t.elements.empty() ? Type::any() : t.elements[0];
  if (elem.kind == TypeKind::Any) {
    // `outs = []`: the first item written into it gives its type, as
    // `outs: List[Tensor] = []` would.
    list->set_type(Type::list(item));
    return;
  }
  if (item.kind == TypeKind::Any) return;
  if (auto j = join_types(elem, item)) {
    list->set_type(Type::list(*j));
    return;
  }
  if (elem.kind == TypeKind::Float && (item.kind == TypeKind::Int || item.kind == TypeKind::Bool))
    return;
  fail("a list of " + elem.str() + " cannot hold a " + item.str() +
           " in the parse route: a graph's list has one item type",
       range, std::string("keep one type per list (TorchScript's List[T]); ") + kEagerRuns);
}

ir::Value* Lowerer::list_item_at(ir::Value* list, ir::Value* index, const SourceRange& range) {
  ir::Value* out = emit_op("aten::__getitem__", {list, index}, range);
  const Type& t = list->type();
  if (!t.elements.empty()) out->set_type(t.elements[0]);
  return out;
}

Sugared Lowerer::call_list_method(ir::Value* self, const std::string& name, CallArgs& args,
                                  const SourceRange& range) {
  if (name == "sort") {
    list_sort(self, args, range);
    return Sugared::of(constant(IValue(), range));
  }
  if (!args.keywords.empty()) {
    fail("list." + name + "() takes no keyword arguments", args.keywords[0].second.range);
  }
  std::vector<ir::Value*> a;
  for (const CallArg& c : args.positional) a.push_back(as_value(c.value, c.range));
  auto expect = [&](size_t lo, size_t hi) {
    if (a.size() < lo || a.size() > hi) {
      fail("TypeError: list." + name + "() takes " +
               (lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi)) +
               " argument(s) (" + std::to_string(a.size()) + " given)",
           range);
    }
  };
  auto need_int = [&](ir::Value* v) {
    const TypeKind k = v->type().kind;
    if (k != TypeKind::Int && k != TypeKind::Bool && k != TypeKind::Any) {
      fail("TypeError: '" + v->type().str() + "' object cannot be interpreted as an integer",
           range);
    }
  };
  if (name == "append") {
    expect(1, 1);
    note_list_write(self, range);
    refine_list_element(self, a[0], range);
    emit_op("aten::append", {self, a[0]}, range)->set_type(self->type());
    return Sugared::of(constant(IValue(), range));
  }
  if (name == "insert") {
    expect(2, 2);
    need_int(a[0]);
    note_list_write(self, range);
    refine_list_element(self, a[1], range);
    emit_op("aten::insert", {self, a[0], a[1]}, range);
    return Sugared::of(constant(IValue(), range));
  }
  if (name == "pop") {
    expect(0, 1);
    if (!a.empty()) need_int(a[0]);
    note_list_write(self, range);
    std::vector<ir::Value*> in{self};
    if (!a.empty()) in.push_back(a[0]);
    ir::Value* out = emit_op("aten::pop", in, range);
    if (!self->type().elements.empty()) out->set_type(self->type().elements[0]);
    return Sugared::of(out);
  }
  if (name == "extend") {
    expect(1, 1);
    ir::Value* more = as_list(a[0], range);
    note_list_write(self, range);
    if (!more->type().elements.empty() && more->type().elements[0].kind != TypeKind::Any) {
      refine_list_element(self, more->type().elements[0], range);
    }
    emit_op("aten::extend", {self, more}, range);
    return Sugared::of(constant(IValue(), range));
  }
  // The spellings `d2s code` writes for `xs[i] = v` and `xs += ys` (statements in
  // Python), read back as what they stand for.
  if (name == "__setitem__") {
    expect(2, 2);
    need_int(a[0]);
    note_list_write(self, range);
    refine_list_element(self, a[1], range);
    emit_op("aten::_set_item", {self, a[0], a[1]}, range)->set_type(self->type());
    return Sugared::of(constant(IValue(), range));
  }
  if (name == "__iadd__") {
    expect(1, 1);
    return Sugared::of(list_add_inplace(self, a[0], range));
  }
  if (name == "copy") {
    expect(0, 0);
    return Sugared::of(list_copy(self, range));
  }
  if (name == "index" || name == "count") {
    expect(1, 1);
    require_comparable_items(self, name, range);
    ir::Value* out = emit_op("aten::" + name, {self, a[0]}, range);
    out->set_type(Type::of_int());
    return Sugared::of(out);
  }
  if (name == "remove") {
    expect(1, 1);
    require_comparable_items(self, name, range);
    note_list_write(self, range);
    emit_op("aten::remove", {self, a[0]}, range);
    return Sugared::of(constant(IValue(), range));
  }
  if (name == "reverse" || name == "clear") {
    expect(0, 0);
    note_list_write(self, range);
    emit_op("aten::" + name, {self}, range);
    return Sugared::of(constant(IValue(), range));
  }
  fail("'list' object has no method '" + name + "' in the parse route", range,
       "lists take append, insert, pop, extend, copy, index, count, remove, reverse, sort and "
       "clear there; " +
           std::string(kEagerRuns));
}

void Lowerer::require_comparable_items(ir::Value* list, const std::string& method,
                                       const SourceRange& range) {
  const Type& t = list->type();
  const TypeKind k = t.elements.empty() ? TypeKind::Any : t.elements[0].kind;
  if (k == TypeKind::Int || k == TypeKind::Float || k == TypeKind::Bool || k == TypeKind::Str) {
    return;
  }
  const bool tensors = !t.elements.empty() && t.elements[0].is_tensor();
  fail("list." + method + "() of " + (tensors ? std::string("a list of tensors") : "a " + t.str()) +
           " is not supported by the parse route",
       range,
       std::string("the graph compares items of lists of numbers, bools and strings (a "
                   "tensor's == and < are tensors); ") +
           kEagerRuns);
}

void Lowerer::list_sort(ir::Value* list, CallArgs& args, const SourceRange& range) {
  // xs.sort(reverse=False): in place, stable; `key=` needs a function value the graph
  // does not have.
  if (!args.positional.empty()) {
    fail("TypeError: sort() takes no positional arguments", args.positional[0].range);
  }
  ir::Value* reverse = bool_const(false);
  for (auto& [name, a] : args.keywords) {
    if (name == "reverse") {
      reverse = to_bool(as_value(a.value, a.range), a.range);
    } else if (name == "key") {
      fail("sort(key=...) is not supported by the parse route", a.range,
           std::string("the graph has no function values; ") + kEagerRuns);
    } else {
      fail("TypeError: '" + name + "' is an invalid keyword argument for sort()", a.range);
    }
  }
  require_comparable_items(list, "sort", range);
  note_list_write(list, range);
  emit_op("aten::sort", {list, reverse}, range);
}

ir::Value* Lowerer::as_list(ir::Value* v, const SourceRange& range) {
  if (v->type().kind == TypeKind::List) return v;
  if (v->type().kind == TypeKind::Tuple) return make_list(tuple_items(v, range), range);
  fail("expected a list here, got " + v->type().str(), range);
}

ir::Value* Lowerer::list_copy(ir::Value* list, const SourceRange& range) {
  if (auto items = static_list_items(list, range)) return make_list(*items, range);
  // `list(d.keys())`: a dict's keys, values or items are a new list no one else holds
  // yet (lower_dict.cpp), so it is the copy.
  const std::string& made_by = list->node()->kind();
  if ((made_by == "aten::keys" || made_by == "aten::values" || made_by == "aten::items") &&
      !list->has_uses() && list->debug_name().empty())
    return list;
  ir::Value* out = emit_op("aten::list", {list}, range);
  out->set_type(list->type());
  return out;
}

ir::Value* Lowerer::list_concat(ir::Value* lhs, ir::Value* rhs, const SourceRange& range) {
  auto a = static_list_items(lhs, range);
  auto b = static_list_items(rhs, range);
  if (a && b) {
    std::vector<ir::Value*> items = *a;
    items.insert(items.end(), b->begin(), b->end());
    return make_list(items, range);
  }
  ir::Value* out = emit_op("aten::add", {lhs, rhs}, range);
  Type t = lhs->type();
  if (auto j = join_types(lhs->type(), rhs->type())) t = *j;
  out->set_type(t);
  return out;
}

ir::Value* Lowerer::list_add_inplace(ir::Value* list, ir::Value* more, const SourceRange& range) {
  more = as_list(more, range);
  note_list_write(list, range);
  if (!more->type().elements.empty() && more->type().elements[0].kind != TypeKind::Any) {
    refine_list_element(list, more->type().elements[0], range);
  }
  ir::Value* out = emit_op("aten::add_", {list, more}, range);
  out->set_type(list->type());
  return out;
}

void Lowerer::assign_list_item(ir::Value* list, const ast::Subscript& target, ir::Value* value) {
  if (target.indices.size() != 1 || target.indices[0]->kind == ast::ExprKind::Slice) {
    fail("assigning to a slice of a list is not supported by the parse route", target.range,
         kEagerRuns);
  }
  ir::Value* index = emit_expr(*target.indices[0]);
  const TypeKind k = index->type().kind;
  if (k != TypeKind::Int && k != TypeKind::Bool && k != TypeKind::Any) {
    fail("TypeError: list indices must be integers, not " + index->type().str(),
         target.indices[0]->range);
  }
  note_list_write(list, target.range);
  refine_list_element(list, value, target.range);
  emit_op("aten::_set_item", {list, index, value}, target.range)->set_type(list->type());
}

ir::Value* Lowerer::list_slice(ir::Value* list, const ast::Slice& s) {
  // outs[a:b:c] of a list of run-time length: a new list (aten::slice), as TorchScript.
  auto bound = [&](const ast::ExprPtr& b) {
    return b ? emit_expr(*b) : constant(IValue(), s.range);
  };
  ir::Value* start = bound(s.lower);
  ir::Value* end = bound(s.upper);
  ir::Value* step = s.step ? emit_expr(*s.step) : constant(IValue(int64_t{1}), s.range);
  ir::Value* out = emit_op("aten::slice", {list, start, end, step}, s.range);
  out->set_type(list->type());
  return out;
}

void Lowerer::lower_for_list(const ast::For& stmt, ir::Value* list) {
  // `for y in outs` over a list of run-time length: aten::len trips, each item read by
  // aten::__getitem__ when its trip runs, as TorchScript lowers it.
  const SourceRange& r = stmt.iter->range;
  ir::Value* trips = emit_op("aten::len", {list}, r);
  emit_loop(
      stmt, stmt.body, trips, bool_const(true), stmt.target.get(),
      [&](ir::Value* i) { assign_target(*stmt.target, Sugared::of(list_item_at(list, i, r)), r); },
      nullptr);
}

}  // namespace d2s::convert
