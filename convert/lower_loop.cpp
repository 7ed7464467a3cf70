// `for` and `while` as prim::Loop (TorchScript's form):
//
//   %out... = prim::Loop(%max_trip_count, %initial_cond, %carried...)
//     block0(%i, %carried...):  <body>  -> (%continue_cond, %carried'...)
//
// Every variable the body assigns that already had a value before the loop is carried
// (TorchScript's rule; the DCE pass drops the ones nothing reads). A variable first
// assigned inside the body, and the loop target, cannot be read after the loop: the
// loop may run zero times (a clear error if the program reads one).
//
//   for i in range(a, b, c)  trip count -((a - b) // c), i = a + index * c
//   for row in t             trip count aten::size(t, 0), row = aten::select(t, 0, index)
//   for x in (a, b) / [a, b] / an nn.Sequential or ModuleList: unrolled
//   for i, x in enumerate(xs) / for a, b in zip(xs, ys) of a run-time length:
//                    one loop, its index reading each sequence (lower_iter_runtime.cpp)
//   while cond               Loop(INT64_MAX, cond), cond evaluated again at the body's end
#include <limits>

#include "convert/exit_transform.h"
#include "convert/lowerer.h"

namespace d2s::convert {

using ir::Type;
using ir::TypeKind;

namespace {

void collect_target_names(const ast::Expr& target, std::vector<std::string>* out) {
  if (target.kind == ast::ExprKind::Name) {
    out->push_back(target.as<ast::Name>().id);
  } else if (target.kind == ast::ExprKind::Tuple) {
    for (const auto& e : target.as<ast::TupleExpr>().elts) collect_target_names(*e, out);
  } else if (target.kind == ast::ExprKind::List) {
    for (const auto& e : target.as<ast::ListExpr>().elts) collect_target_names(*e, out);
  }
}

void collect_assigned(const ast::Body& body, std::vector<std::string>* out) {
  for (const ast::StmtPtr& s : body) {
    switch (s->kind) {
      case ast::StmtKind::Assign:
        for (const auto& t : s->as<ast::Assign>().targets) collect_target_names(*t, out);
        break;
      case ast::StmtKind::AugAssign:
        collect_target_names(*s->as<ast::AugAssign>().target, out);
        break;
      case ast::StmtKind::AnnAssign:
        if (s->as<ast::AnnAssign>().value)
          collect_target_names(*s->as<ast::AnnAssign>().target, out);
        break;
      case ast::StmtKind::If:
        collect_assigned(s->as<ast::If>().body, out);
        collect_assigned(s->as<ast::If>().orelse, out);
        break;
      case ast::StmtKind::For:
        collect_target_names(*s->as<ast::For>().target, out);
        collect_assigned(s->as<ast::For>().body, out);
        break;
      case ast::StmtKind::While:
        collect_assigned(s->as<ast::While>().body, out);
        break;
      case ast::StmtKind::With:
        for (const auto& item : s->as<ast::With>().items) {
          if (item.target) collect_target_names(*item.target, out);
        }
        collect_assigned(s->as<ast::With>().body, out);
        break;
      default:
        break;
    }
  }
}

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

}  // namespace

std::vector<std::string> assigned_names(const ast::Body& body) {
  std::vector<std::string> all, out;
  collect_assigned(body, &all);
  for (const auto& n : all) {
    if (!contains(out, n)) out.push_back(n);
  }
  return out;
}

void Lowerer::lower_for(const ast::For& stmt) {
  const ast::Expr& iter = *stmt.iter;
  Sugared iterable;
  if (iter.kind == ast::ExprKind::Call) {
    const auto& call = iter.as<ast::Call>();
    Sugared callee = emit_sugared(*call.func);
    if (callee.kind == Sugared::Kind::Builtin && callee.name == "range") {
      return lower_for_range(stmt, call);
    }
    CallArgs args = emit_args(call);
    if (callee.kind == Sugared::Kind::Builtin) {
      // enumerate/zip over a length known only when the graph runs: one prim::Loop,
      // its index counting the items (lower_iter_runtime.cpp).
      if (auto it = runtime_enumerate_zip(callee.name, args, call.range)) {
        emit_loop(
            stmt, stmt.body, it->trips, bool_const(true), stmt.target.get(),
            [&](ir::Value* i) {
              assign_target(*stmt.target, Sugared::of(it->item_at(i)), stmt.range);
            },
            nullptr);
        return;
      }
    }
    iterable = call_sugared(callee, std::move(args), call.range);
  } else {
    iterable = emit_sugared(iter);
  }
  if (iterable.kind == Sugared::Kind::Module) {
    return lower_unrolled(stmt, module_items(iterable, iter.range));
  }
  if (iterable.kind == Sugared::Kind::Items) return lower_unrolled(stmt, *iterable.items);
  if (iterable.kind == Sugared::Kind::Keywords) {
    return lower_unrolled(stmt, keywords_keys(iterable, iter.range));
  }
  if (iterable.kind == Sugared::Kind::Iterator) {
    return lower_unrolled(stmt, {}, iterable.iterator.get());
  }
  if (!iterable.is_value()) {
    fail("cannot iterate over " + iterable.describe(), iter.range);
  }
  ir::Value* v = iterable.value;
  const Type& t = v->type();
  if (t.kind == TypeKind::Tuple) return lower_unrolled(stmt, unpack(iterable, iter.range));
  if (t.kind == TypeKind::List) {
    if (auto items = static_list_items(v, iter.range)) {
      std::vector<Sugared> unrolled;
      for (ir::Value* item : *items) unrolled.push_back(Sugared::of(item));
      return lower_unrolled(stmt, unrolled);
    }
    if (auto c = constant_value(v); c && c->is_list()) {
      return lower_unrolled(stmt, *items_of(iterable, iter.range));
    }
    return lower_for_list(stmt, v);
  }
  // `for k in d`: the keys, read when the graph runs (lower_dict.cpp).
  if (t.kind == TypeKind::Dict) return lower_for_list(stmt, dict_list(v, "keys", iter.range));
  if (t.is_tensor()) {
    // Rows of a tensor: as many trips as its first dimension.
    ir::Value* trips =
        emit_op("aten::size", {v, constant(IValue(int64_t{0}), iter.range)}, iter.range);
    emit_loop(
        stmt, stmt.body, trips, bool_const(true), stmt.target.get(),
        [&](ir::Value* i) {
          ir::Value* row =
              emit_op("aten::select", {v, constant(IValue(int64_t{0}), iter.range), i}, iter.range);
          assign_target(*stmt.target, Sugared::of(row), stmt.range);
        },
        nullptr);
    return;
  }
  fail("cannot iterate over a value of type " + t.str() + " in the parse route", iter.range,
       t.kind == TypeKind::List
           ? "only lists written out in the program ([a, b]) can be iterated over; use a tuple"
           : "iterate over range(n), a tensor, a tuple or an nn.Sequential");
}

void Lowerer::lower_for_range(const ast::For& stmt, const ast::Call& call) {
  if (!call.keywords.empty()) fail("TypeError: range() takes no keyword arguments", call.range);
  if (call.args.empty() || call.args.size() > 3) {
    fail("TypeError: range expected 1 to 3 arguments, got " + std::to_string(call.args.size()),
         call.range);
  }
  std::vector<ir::Value*> args;
  for (const auto& a : call.args) {
    ir::Value* v = emit_expr(*a);
    TypeKind k = v->type().kind;
    if (k != TypeKind::Int && k != TypeKind::Bool && k != TypeKind::Any) {
      fail("TypeError: '" + v->type().str() + "' object cannot be interpreted as an integer",
           a->range,
           v->type().is_tensor() ? "convert it first: range(int(t))" : "pass an int to range()");
    }
    args.push_back(v);
  }
  const SourceRange& r = call.range;
  ir::Value* trips;
  ir::Value* start = nullptr;
  ir::Value* step = nullptr;
  if (args.size() == 1) {
    trips = args[0];
  } else {
    start = args[0];
    if (args.size() == 3) {
      step = args[2];
      if (auto c = static_value(step); c && c->is_int() && c->to_int() == 0) {
        fail("ValueError: range() arg 3 must not be zero", call.args[2]->range);
      }
    }
    if (!step) {
      trips = emit_binop(ast::BinOpKind::Sub, args[1], start, r);
    } else {
      // len(range(a, b, c)) = ceil((b - a) / c) = -((a - b) // c), for either sign of c.
      ir::Value* diff = emit_binop(ast::BinOpKind::Sub, start, args[1], r);
      trips =
          emit_unary(ast::UnaryOpKind::Neg, emit_binop(ast::BinOpKind::FloorDiv, diff, step, r), r);
    }
  }
  emit_loop(
      stmt, stmt.body, trips, bool_const(true), stmt.target.get(),
      [&](ir::Value* i) {
        // `for i in range(n)`: the loop's counter is `i` itself, and is printed as %i,
        // as TorchScript names it.
        if (!start && !step && stmt.target->kind == ast::ExprKind::Name) {
          i->set_debug_name(stmt.target->as<ast::Name>().id);
        }
        ir::Value* value = i;
        if (step) value = emit_binop(ast::BinOpKind::Mul, value, step, r);
        if (start) value = emit_binop(ast::BinOpKind::Add, start, value, r);
        assign_target(*stmt.target, Sugared::of(value), stmt.range);
      },
      nullptr);
}

void Lowerer::lower_while(const ast::While& stmt) {
  ir::Value* cond = emit_condition(*stmt.test);
  ir::Value* max_trips = constant(IValue(std::numeric_limits<int64_t>::max()), stmt.range);
  emit_loop(
      stmt, stmt.body, max_trips, cond, nullptr, [](ir::Value*) {},
      [&] { return emit_condition(*stmt.test); });
}

void Lowerer::emit_loop(const ast::Stmt& stmt, const ast::Body& body, ir::Value* max_trips,
                        ir::Value* init_cond, const ast::Expr* target,
                        const std::function<void(ir::Value*)>& bind_target,
                        const std::function<ir::Value*()>& recompute_cond) {
  std::vector<std::string> targets;
  if (target) collect_target_names(*target, &targets);
  std::vector<std::string> assigned = assigned_names(body);
  std::vector<std::string> carried;
  std::vector<ir::Value*> inputs{max_trips, init_cond};
  for (const std::string& name : assigned) {
    if (contains(targets, name)) continue;
    const Binding* b = env_->lookup(name);
    if (!b || b->is_poisoned() || !b->value.is_value()) continue;
    carried.push_back(name);
    inputs.push_back(b->value.value);
  }
  ir::Node* loop = graph_.insert(ir::kind::Loop, inputs, carried.size(), stmt.range);
  ir::Block* body_block = loop->add_block();
  ir::Value* index = body_block->add_input();
  index->set_type(Type::of_int());
  Environment body_env(env_);
  for (size_t k = 0; k < carried.size(); ++k) {
    ir::Value* p = body_block->add_input(carried[k]);
    p->set_type(inputs[k + 2]->type());
    body_env.set_value(carried[k], p);
  }
  Environment* outer = env_;
  ++loop_depth();
  ir::Value* ret_out = nullptr;
  ir::Value* retval_out = nullptr;
  {
    ir::WithInsertPoint guard(graph_, body_block);
    env_ = &body_env;
    // Lists the body writes into are read when the graph runs, in every trip
    // (lower_list.cpp).
    mark_loop_list_writes(body);
    loop_bodies_.push_back(LoopBody{body_block, {}});
    bind_target(index);
    lower_body(body);
    loop_bodies_.pop_back();
    // The continue condition: stop after break/return, else the loop's own test.
    ir::Value* cond = nullptr;  // every ExitState case below sets it
    switch (exit_state(body_env, flag::Stop)) {
      case ExitState::Always:
        cond = bool_const(false);
        break;
      case ExitState::Never:
        cond = recompute_cond ? recompute_cond() : bool_const(true);
        break;
      case ExitState::Maybe: {
        ir::Value* stop = body_env.lookup(flag::Stop)->value.value;
        cond = recompute_cond
                   ? emit_if_value(
                         stop, stmt.range, [&] { return bool_const(false); }, recompute_cond)
                   : emit_not(stop, stmt.range);
        break;
      }
    }
    body_block->register_output(cond);
    for (size_t k = 0; k < carried.size(); ++k) {
      const Binding* b = body_env.lookup(carried[k]);
      if (b->is_poisoned()) fail(b->poison, stmt.range, b->poison_hint);
      if (!b->value.is_value()) {
        fail("'" + carried[k] + "' is a value before the loop but " + b->value.describe() +
                 " inside it",
             stmt.range);
      }
      ir::Value* v = b->value.value;
      ir::Value* param = body_block->inputs()[k + 1];
      auto joined = join_types(param->type(), v->type());
      if (!joined) {
        fail("variable '" + carried[k] + "' changes type in the loop: " + param->type().str() +
                 " before it, " + v->type().str() + " after an iteration",
             stmt.range,
             "give it its final type before the loop (e.g. torch.zeros(...) instead of 0)");
      }
      param->set_type(*joined);
      loop->output(k)->set_type(*joined);
      loop->output(k)->set_debug_name(carried[k]);
      body_block->register_output(v);
    }
    // A return inside the body leaves the loop with the flag and the value as extra
    // carried values. Each iteration starts with nothing returned, so the body never
    // reads them: their initial values are placeholders.
    if (exit_state(body_env, flag::Ret) != ExitState::Never) {
      ir::Value* ret = body_env.lookup(flag::Ret)->value.value;
      ir::Value* retval = body_env.lookup(flag::RetVal)->value.value;
      ir::Value* retval_init;
      {
        ir::WithInsertPoint before(graph_, loop);
        retval_init = uninitialized(retval->type(), stmt.range);
      }
      loop->add_input(bool_const(false));
      body_block->add_input()->set_type(Type::of_bool());
      body_block->register_output(ret);
      ret_out = loop->add_output();
      ret_out->set_type(Type::of_bool());
      loop->add_input(retval_init);
      body_block->add_input()->set_type(retval->type());
      body_block->register_output(retval);
      retval_out = loop->add_output();
      retval_out->set_type(retval->type());
    }
  }
  --loop_depth();
  env_ = outer;
  for (size_t k = 0; k < carried.size(); ++k) env_->set_value(carried[k], loop->output(k));
  if (ret_out) {
    env_->set_value(flag::Ret, ret_out);
    env_->set_value(flag::RetVal, retval_out);
    env_->set_value(flag::Skip, ret_out);
    if (loop_depth() > 0) env_->set_value(flag::Stop, ret_out);
  }
  const std::string line = std::to_string(stmt.range.line);
  for (const std::string& name : assigned) {
    if (contains(carried, name) || contains(targets, name)) continue;
    env_->poison(name,
                 "variable '" + name + "' is assigned only inside the loop at line " + line +
                     ", so it has no value after it when the loop runs zero times",
                 "assign it before the loop");
  }
  for (const std::string& name : targets) {
    env_->poison(name,
                 "the loop variable '" + name + "' of the loop at line " + line +
                     " cannot be used after the loop in the parse route",
                 "copy it to another variable inside the loop");
  }
}

void Lowerer::lower_unrolled(const ast::For& stmt, const std::vector<Sugared>& items,
                             IteratorState* iterator) {
  // A loop over a fixed sequence runs its body once per item, one after the other, as
  // straight-line code; break and return guard the remaining iterations.
  ++loop_depth();
  GuardScope guards(*this);
  bool may_stop = false;  // a trip may have broken out when the graph runs
  for (size_t k = 0;; ++k) {
    Sugared item;
    if (iterator) {
      // `for m in it`: the iterator's next item, taken as the trip starts (the body's
      // own next() calls take theirs). Once a trip may have stopped the loop, the
      // position after it is the run's, but the guarded trips still read in order.
      const Sugared* next =
          !may_stop ? advance_iterator(*iterator, "a for loop", stmt.iter->range)
                    : (iterator->next < iterator->items.size() ? &iterator->items[iterator->next++]
                                                               : nullptr);
      if (!next) break;
      item = *next;
    } else {
      if (k >= items.size()) break;
      item = items[k];
    }
    assign_target(*stmt.target, item, stmt.range);
    lower_body(stmt.body);
    ExitState stop = exit_state(*env_, flag::Stop);
    if (stop == ExitState::Always) break;
    if (stop == ExitState::Maybe) {
      guards.guard(env_->lookup(flag::Stop)->value.value, flag::Stop, stmt.range);
      if (iterator && !may_stop) {
        may_stop = true;
        iterator->lost = "the for loop at line " + std::to_string(stmt.range.line) +
                         " may stop early when the graph runs";
      }
    }
    // `continue` ends only its own iteration.
    if (exit_state(*env_, flag::Skip) != ExitState::Never) bind_flag(flag::Skip, false);
  }
  guards.close();
  --loop_depth();
  // After the loop only a return still skips the code that follows.
  const Binding* ret = env_->lookup(flag::Ret);
  ir::Value* returned = ret && ret->value.is_value() ? ret->value.value : bool_const(false);
  env_->set_value(flag::Skip, returned);
  env_->set_value(flag::Stop, loop_depth() > 0 ? returned : bool_const(false));
}

}  // namespace d2s::convert
