// Iterables whose length is known only when the graph runs (a tensor's rows, a list
// that changes, `range(n)` of a run-time n) under the builtins that walk them, lowered
// as TorchScript lowers them:
//
//   for i, row in enumerate(x, 1)   prim::Loop(aten::size(x, 0), True); i = index + 1,
//                                   row = aten::select(x, 0, index)
//   for a, b in zip(xs, t)          prim::Loop(prim::min(aten::len(xs), aten::size(t, 0)),
//                                   True); a = aten::__getitem__(xs, index), b = the row
//   sum(xs, start)                  a prim::Loop carrying the running sum
//   any(xs) / all(xs)               a prim::Loop carrying the answer, whose continue
//                                   condition stops it at the first item that decides
//
// A comprehension over enumerate/zip of run-time length uses the same trips and items
// (lower_functional.cpp's comp_iterable); enumerate/zip used as a value anywhere else
// (`enumerate(zip(xs, ys))`, `list(zip(xs, ys))`) is a list of the tuples, filled by a
// prim::Loop as a list comprehension is. Iterables whose length is known at conversion
// time are unrolled instead (lower_functional.cpp's call_iter_builtin).
#include "convert/lowerer.h"

namespace d2s::convert {

using ir::Type;
using ir::TypeKind;

std::optional<Lowerer::CompIterable> Lowerer::runtime_items(ir::Value* x, const SourceRange& r) {
  CompIterable out;
  if (x->type().is_tensor()) {
    // The rows of a tensor.
    out.trips = emit_op("aten::size", {x, constant(IValue(int64_t{0}), r)}, r);
    out.item_at = [this, x, r](ir::Value* i) {
      return emit_op("aten::select", {x, constant(IValue(int64_t{0}), r), i}, r);
    };
    return out;
  }
  if (x->type().kind == TypeKind::Dict) x = dict_list(x, "keys", r);  // a dict's keys
  if (x->type().kind == TypeKind::List) {
    out.trips = emit_op("aten::len", {x}, r);
    out.item_at = [this, x, r](ir::Value* i) { return list_item_at(x, i, r); };
    return out;
  }
  return std::nullopt;
}

std::optional<Lowerer::CompIterable> Lowerer::runtime_enumerate_zip(const std::string& q,
                                                                    const CallArgs& args,
                                                                    const SourceRange& range) {
  if (q != "enumerate" && q != "zip") return std::nullopt;
  if (args.positional.empty()) return std::nullopt;
  // enumerate(xs, start) / enumerate(xs, start=k): only xs is iterated.
  const size_t iterated = q == "enumerate" ? 1 : args.positional.size();
  ir::Value* start = nullptr;
  if (q == "enumerate") {
    if (args.positional.size() > 2) return std::nullopt;
    if (args.positional.size() == 2) start = as_value(args.positional[1].value, range);
    for (const auto& kw : args.keywords) {
      if (kw.first != "start" || start) return std::nullopt;  // call_iter_builtin's errors
      start = as_value(kw.second.value, kw.second.range);
    }
    if (start && start->type().kind != TypeKind::Int) {
      fail("TypeError: enumerate()'s start must be an int, not " + start->type().str(), range);
    }
  } else if (!args.keywords.empty()) {
    return std::nullopt;
  }
  // Which arguments have a run-time length; none: the unrolled form.
  std::vector<std::optional<std::vector<Sugared>>> known;
  bool any_runtime = false;
  for (size_t k = 0; k < iterated; ++k) {
    known.push_back(items_of(args.positional[k].value, args.positional[k].range));
    if (!known.back()) any_runtime = true;
  }
  if (!any_runtime) return std::nullopt;
  CompIterable out;
  std::vector<std::function<ir::Value*(ir::Value*)>> readers;
  for (size_t k = 0; k < iterated; ++k) {
    const CallArg& a = args.positional[k];
    ir::Value* seq = nullptr;
    if (known[k]) {
      // A sequence of known length zipped with one of run-time length: read by index
      // when the graph runs, as a list.
      std::vector<ir::Value*> items;
      for (const Sugared& s : *known[k]) {
        if (!s.is_value()) {
          fail("zip() of " + s.describe() +
                   " with a sequence whose length is known only when the graph runs is not "
                   "supported by the parse route",
               a.range,
               "the parse route unrolls loops over modules only when every zipped sequence's "
               "length is known at conversion time; eager and trace modes run it");
        }
        items.push_back(s.value);
      }
      if (items.empty()) {
        seq = nullptr;  // zip with an empty sequence: no trips
      } else {
        seq = make_list(items, a.range);
      }
    } else {
      if (!a.value.is_value()) {
        fail("cannot iterate over " + a.value.describe() + " in the parse route", a.range);
      }
      seq = a.value.value;
    }
    if (!seq) {
      out.trips = constant(IValue(int64_t{0}), a.range);
      readers.clear();
      break;
    }
    std::optional<CompIterable> it = runtime_items(seq, a.range);
    if (!it) {
      fail(q + "() over a value of type " + seq->type().str() +
               " is not supported by the parse route",
           a.range, "iterate over a tensor, a list, a tuple or range(n)");
    }
    out.trips = out.trips ? emit_op("prim::min", {out.trips, it->trips}, range) : it->trips;
    readers.push_back(it->item_at);
  }
  if (readers.empty()) {
    // No trips: items are never read, but the loop body still binds its target.
    out.item_at = [this, range](ir::Value*) -> ir::Value* {
      fail(
          "zip() with an empty sequence and one of run-time length is not supported by the "
          "parse route",
          range, "drop the empty sequence: the loop never runs");
    };
    return out;
  }
  out.item_at = [this, q, start, readers, range](ir::Value* i) {
    std::vector<ir::Value*> row;
    if (q == "enumerate") {
      row.push_back(start ? emit_binop(ast::BinOpKind::Add, i, start, range) : i);
    }
    for (const auto& read : readers) row.push_back(read(i));
    return make_tuple(row, range);
  };
  return out;
}

ir::Value* Lowerer::runtime_list(const CompIterable& it, const SourceRange& range) {
  // As a list comprehension over the iterable: a list made before a prim::Loop that
  // appends each item.
  CompOut out;
  out.go_dynamic(*this, range);
  ir::Node* loop = graph_.insert(ir::kind::Loop, {it.trips, bool_const(true)}, 0, range);
  ir::Block* body = loop->add_block();
  ir::Value* index = body->add_input();
  index->set_type(Type::of_int());
  {
    ir::WithInsertPoint guard(graph_, body);
    out.add(*this, it.item_at(index), range);
    body->register_output(bool_const(true));
  }
  return out.list;
}

std::optional<Sugared> Lowerer::runtime_reduce(const std::string& q, CallArgs& args,
                                               const SourceRange& range) {
  if ((q != "sum" && q != "any" && q != "all") || args.positional.empty()) return std::nullopt;
  const CallArg& a = args.positional[0];
  if (!a.value.is_value() || items_of(a.value, a.range)) return std::nullopt;
  std::optional<CompIterable> it = runtime_items(a.value.value, a.range);
  if (!it) return std::nullopt;
  ir::Value* init;
  if (q == "sum") {
    init = constant(IValue(int64_t{0}), range);
    if (args.positional.size() > 2) fail("TypeError: sum() takes at most 2 arguments", range);
    if (args.positional.size() == 2) init = as_value(args.positional[1].value, range);
    for (const auto& kw : args.keywords) {
      if (kw.first != "start" || args.positional.size() == 2) {
        fail("TypeError: sum() got an unexpected keyword argument '" + kw.first + "'",
             kw.second.range);
      }
      init = as_value(kw.second.value, kw.second.range);
    }
  } else {
    if (args.positional.size() != 1 || !args.keywords.empty()) {
      fail("TypeError: " + q + "() takes exactly one argument", range);
    }
    init = bool_const(q == "all");
  }
  // %acc = prim::Loop(%trips, True, %init)
  //   block0(%i, %acc.1): %acc.2 = <acc.1 + item | bool(item)>  -> (%cond, %acc.2)
  ir::Node* loop = graph_.insert(ir::kind::Loop, {it->trips, bool_const(true), init}, 1, range);
  ir::Block* body = loop->add_block();
  ir::Value* index = body->add_input();
  index->set_type(Type::of_int());
  ir::Value* acc = body->add_input();
  // The running sum of ints from 0 stays an int; a sum of floats or tensors from the
  // int 0 is that int when the sequence is empty (Python's sum), so the sum's type is
  // known only when the graph runs: Any, whose ops pick their overload per call.
  const Type& seq = a.value.value->type();
  Type item_type = seq.is_tensor()        ? Type::tensor()
                   : seq.elements.empty() ? Type::any()
                                          : seq.elements[0];
  const bool same_kind = init->type().kind == item_type.kind ||
                         (init->type().kind == TypeKind::Int && item_type.kind == TypeKind::Bool);
  acc->set_type(q != "sum" || same_kind ? init->type() : Type::any());
  ir::Value* next;
  ir::Value* cond;
  {
    ir::WithInsertPoint guard(graph_, body);
    ir::Value* item = it->item_at(index);
    if (q == "sum") {
      next = emit_binop(ast::BinOpKind::Add, acc, item, range);
      cond = bool_const(true);
    } else {
      // The answer is the item's truth; any() goes on while it is False, all() while
      // it is True, so that later items are not read (Python's short circuit).
      next = to_bool(item, range);
      cond = q == "any" ? emit_not(next, range) : next;
    }
    body->register_output(cond);
    body->register_output(next);
  }
  std::optional<Type> t = join_types(acc->type(), next->type());
  Type carried = t ? *t : Type::any();
  acc->set_type(carried);
  loop->output()->set_type(carried);
  return Sugared::of(loop->output());
}

}  // namespace d2s::convert
