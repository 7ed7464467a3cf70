// Lambdas and nested functions (inlined at their call sites, reading the variables of
// the function that defined them as they are when the call runs), comprehensions
// unrolled over an iterable of known length and lowered to a prim::Loop appending to
// one list over an iterable whose length is known only when the graph runs, the builtins over such
// iterables (enumerate, zip, sum, any, all, list, tuple, reversed, range), and raise / try / del.
// What cannot be lowered is an error that names the construct and says that eager and trace modes
// run it.
#include <algorithm>

#include "convert/lowerer.h"

namespace d2s::convert {

using ir::Type;
using ir::TypeKind;

// ------------------------------------------------------- lambdas and closures

Sugared Lowerer::make_closure(const ast::FunctionDef& def, const std::string& name) {
  Sugared s = Sugared::of_kind(Sugared::Kind::Function, name);
  s.fn = &def;
  if (!frames_.empty()) {
    s.closure = frames_.back().serial;
    frames_.back().made_closure = true;
  }
  return s;
}

const Binding* Lowerer::closure_binding(const std::string& name) const {
  if (flag::is_special(name)) return nullptr;
  int serial = frames_.empty() ? -1 : frames_.back().closure;
  for (int hops = 0; serial >= 0 && hops <= static_cast<int>(frames_.size()) + 64; ++hops) {
    const Environment* env = nullptr;
    int next = -1;
    for (size_t k = 0; k < frames_.size(); ++k) {
      if (frames_[k].serial != serial) continue;
      // A live frame: its variables as they are now (the scope it was in when it
      // called the next frame; Python closures read variables when they run).
      env = frames_[k + 1 < frames_.size() ? k + 1 : k].outer_env;
      next = frames_[k].closure;
      break;
    }
    if (!env) {
      auto it = finished_frames_.find(serial);
      if (it == finished_frames_.end()) return nullptr;
      env = it->second.env.get();
      next = it->second.closure;
    }
    if (const Binding* b = env->lookup(name)) return b;
    serial = next;
  }
  return nullptr;
}

void Lowerer::keep_closure_frame() {
  Frame& f = frames_.back();
  if (!f.made_closure) return;
  // A nested function may outlive its defining call (`return scaler`): keep the
  // variables as the call left them.
  auto env = std::make_unique<Environment>(nullptr);
  for (const std::string& name : env_->visible_names()) {
    if (flag::is_special(name)) continue;
    if (const Binding* b = env_->lookup(name)) env->set(name, *b);
  }
  finished_frames_[f.serial] = FinishedFrame{std::move(env), f.closure};
}

// -------------------------------------------------------------- comprehensions

std::optional<std::vector<Sugared>> Lowerer::known_items(const ast::Expr& iter) {
  if (iter.kind == ast::ExprKind::Call) {
    const auto& call = iter.as<ast::Call>();
    Sugared callee = emit_sugared(*call.func);
    CallArgs args = emit_args(call);
    Sugared v = call_sugared(callee, std::move(args), call.range);
    if (v.kind == Sugared::Kind::Module || v.kind == Sugared::Kind::Items ||
        v.kind == Sugared::Kind::Iterator || v.is_value()) {
      return items_of(v, iter.range);
    }
    return std::nullopt;
  }
  return items_of(emit_sugared(iter), iter.range);
}

std::optional<std::vector<Sugared>> Lowerer::items_of(const Sugared& v, const SourceRange& range) {
  if (v.kind == Sugared::Kind::Module) return module_items(v, range);
  if (v.kind == Sugared::Kind::Items) return *v.items;
  if (v.kind == Sugared::Kind::Keywords) return keywords_keys(v, range);  // a dict's keys
  if (v.kind == Sugared::Kind::Iterator) return iterator_rest(v, range);
  if (!v.is_value()) return std::nullopt;
  if (std::optional<IValue> c = constant_value(v.value); c && (c->is_list() || c->is_tuple())) {
    // A list or tuple frozen from a module attribute (`self.sizes`): its items.
    std::vector<Sugared> out;
    for (const IValue& item : c->items()) out.push_back(Sugared::of(constant(item, range)));
    return out;
  }
  const ir::Type& t = v.value->type();
  if (t.kind == TypeKind::Tuple) return unpack(v, range);
  if (auto items = static_list_items(v.value, range)) {
    std::vector<Sugared> out;
    for (ir::Value* item : *items) out.push_back(Sugared::of(item));
    return out;
  }
  return std::nullopt;
}

std::vector<Sugared> Lowerer::require_items(const Sugared& v, const std::string& what,
                                            const SourceRange& range) {
  if (auto items = items_of(v, range)) return *items;
  fail(what +
           " over a value whose length is not known at conversion time is not supported by "
           "the parse route",
       range,
       std::string("the parse route unrolls it over a range with constant bounds, a tuple, a "
                   "list written out or a module list; ") +
           kEagerRuns);
}

Sugared Lowerer::emit_comp(const ast::Comp& e) {
  if (e.comp == ast::CompKind::Set) {
    fail("a set comprehension is not supported by the parse route (it has no set values)", e.range,
         kEagerRuns);
  }
  CompOut out;
  if (e.comp == ast::CompKind::Dict) {
    // `{k: v for ...}`: an empty dict, then one aten::_set_item per item, unrolled or
    // in the prim::Loop, as torch.jit.script lowers it (lower_dict.cpp types the dict
    // from its first entry).
    out.dict = emit_op("prim::DictConstruct", {}, e.range);
    out.dict->set_type(Type::dict(Type::any(), Type::any()));
    comp_level(e, 0, &out);
    return Sugared::of(out.dict);
  }
  comp_level(e, 0, &out);
  if (out.list) return Sugared::of(out.list);
  if (out.items.empty()) {
    fail("a comprehension that makes an empty list is not supported by the parse route", e.range,
         std::string("the list's item type is unknown; ") + kEagerRuns);
  }
  return Sugared::of(make_list(out.items, e.range));
}

void Lowerer::comp_level(const ast::Comp& e, size_t level, CompOut* out) {
  const ast::CompFor& clause = e.generators[level];
  // Each item gets its own scope: comprehension variables do not leak (Python 3).
  Environment* saved = env_;
  auto inner = [&] {
    if (level + 1 < e.generators.size()) {
      comp_level(e, level + 1, out);
    } else if (out->dict) {
      ir::Value* key = emit_expr(*e.elt);  // the key first, as Python 3.8 evaluates it
      ir::Value* value = emit_expr(*e.value);
      dict_set_item(out->dict, key, value, SourceRange::span(e.elt->range, e.value->range));
    } else {
      out->add(*this, emit_expr(*e.elt), e.elt->range);
    }
  };
  // The item once bound: its `if` filters, then the next clause or the item itself.
  // A filter known at conversion time drops or keeps the item then; one known only
  // when the graph runs is a prim::If around the rest, appending to the list then.
  auto filtered = [&](size_t first_if, auto&& self_ref) -> void {
    if (first_if == clause.ifs.size()) return inner();
    ir::Value* cond = emit_condition(*clause.ifs[first_if]);
    std::optional<IValue> cv = static_value(cond);
    if (cv && cv->is_bool()) {
      if (cv->to_bool()) self_ref(first_if + 1, self_ref);
      return;
    }
    out->go_dynamic(*this, e.range);
    ir::Node* n = graph_.insert(ir::kind::If, {cond}, 0, clause.ifs[first_if]->range);
    ir::Block* then_block = n->add_block();
    n->add_block();
    ir::WithInsertPoint guard(graph_, then_block);
    Environment arm(env_);
    env_ = &arm;
    self_ref(first_if + 1, self_ref);
    env_ = arm.parent();
  };
  std::optional<CompIterable> it = comp_iterable(*clause.iter);
  if (it && it->items) {
    for (const Sugared& item : *it->items) {
      Environment scope(saved);
      env_ = &scope;
      assign_target(*clause.target, item, clause.target->range);
      filtered(0, filtered);
      env_ = saved;
    }
    return;
  }
  if (!it) {
    fail("a comprehension over this value is not supported by the parse route", clause.iter->range,
         std::string("iterate over range(n), a tensor, a list, a tuple or a module list; ") +
             kEagerRuns);
  }
  // A length known only when the graph runs: a prim::Loop appending to one list made
  // before it, as torch.jit.script lowers a comprehension.
  out->go_dynamic(*this, e.range);
  const SourceRange& r = clause.iter->range;
  ir::Node* loop = graph_.insert(ir::kind::Loop, {it->trips, bool_const(true)}, 0, r);
  ir::Block* body = loop->add_block();
  ir::Value* index = body->add_input();
  index->set_type(Type::of_int());
  {
    ir::WithInsertPoint guard(graph_, body);
    Environment scope(saved);
    env_ = &scope;
    assign_target(*clause.target, Sugared::of(it->item_at(index)), clause.target->range);
    filtered(0, filtered);
    body->register_output(bool_const(true));
    env_ = saved;
  }
}

std::optional<Lowerer::CompIterable> Lowerer::comp_iterable(const ast::Expr& iter) {
  CompIterable out;
  const SourceRange& r = iter.range;
  Sugared v;
  if (iter.kind == ast::ExprKind::Call) {
    const auto& call = iter.as<ast::Call>();
    Sugared callee = emit_sugared(*call.func);
    if (callee.kind == Sugared::Kind::Builtin && callee.name == "range" && call.keywords.empty() &&
        !call.args.empty() && call.args.size() <= 3) {
      // range() with bounds known only at run time: trips and items as a for loop has them.
      std::vector<ir::Value*> b;
      bool all_static = true;
      for (const auto& a : call.args) {
        b.push_back(emit_expr(*a));
        std::optional<IValue> c = static_value(b.back());
        all_static = all_static && c && (c->is_int() || c->is_bool());
      }
      if (!all_static) {
        ir::Value* start = b.size() == 1 ? nullptr : b[0];
        ir::Value* step = b.size() == 3 ? b[2] : nullptr;
        if (!step) {
          out.trips = start ? emit_binop(ast::BinOpKind::Sub, b[1], start, r) : b[0];
        } else {
          ir::Value* diff = emit_binop(ast::BinOpKind::Sub, start, b[1], r);
          out.trips = emit_unary(ast::UnaryOpKind::Neg,
                                 emit_binop(ast::BinOpKind::FloorDiv, diff, step, r), r);
        }
        out.item_at = [this, start, step, r](ir::Value* i) {
          ir::Value* value = i;
          if (step) value = emit_binop(ast::BinOpKind::Mul, value, step, r);
          if (start) value = emit_binop(ast::BinOpKind::Add, start, value, r);
          return value;
        };
        return out;
      }
    }
    CallArgs args = emit_args(call);
    if (callee.kind == Sugared::Kind::Builtin) {
      if (auto it = runtime_enumerate_zip(callee.name, args, call.range)) return it;
    }
    v = call_sugared(callee, std::move(args), call.range);
  } else {
    v = emit_sugared(iter);
  }
  if (auto items = items_of(v, r)) {
    out.items = std::move(*items);
    return out;
  }
  if (!v.is_value()) return std::nullopt;
  return runtime_items(v.value, r);
}

void Lowerer::CompOut::add(Lowerer& l, ir::Value* v, const SourceRange& range) {
  if (!list) {
    items.push_back(v);
    return;
  }
  l.refine_list_element(list, v, range);
  l.emit_op("aten::append", {list, v}, range)->set_type(list->type());
}

void Lowerer::CompOut::go_dynamic(Lowerer& l, const SourceRange& range) {
  if (list || dict) return;  // a dict is written into item by item either way
  // The items made so far (from clauses unrolled before) start the list.
  list = l.make_list(items, range);
  items.clear();
}

// ------------------------------------------------------------------- builtins

std::optional<Sugared> Lowerer::emit_in(ast::CmpOpKind op, const Sugared& lhs, const Sugared& rhs,
                                        const SourceRange& range) {
  if (op != ast::CmpOpKind::In && op != ast::CmpOpKind::NotIn) return std::nullopt;
  if (rhs.is_value() && rhs.value->type().kind == TypeKind::Dict) {  // lower_dict.cpp
    ir::Value* found = dict_contains(rhs.value, as_value(lhs, range), range);
    return Sugared::of(op == ast::CmpOpKind::NotIn ? emit_not(found, range) : found);
  }
  std::optional<std::vector<Sugared>> items = items_of(rhs, range);
  if (!items) return std::nullopt;
  ir::Value* x = as_value(lhs, range);
  std::optional<IValue> sx = static_value(x);
  std::vector<std::function<ir::Value*()>> terms;
  bool found = false, all_static = sx.has_value();
  for (const Sugared& item : *items) {
    ir::Value* v = as_value(item, range);
    std::optional<IValue> sv = static_value(v);
    if (sx && sv && !sx->is_tensor() && !sv->is_tensor()) {
      bool eq = sx->is_string() || sv->is_string()
                    ? sx->is_string() && sv->is_string() && sx->to_string() == sv->to_string()
                : sx->is_none() || sv->is_none() ? sx->is_none() && sv->is_none()
                : (sx->is_int() || sx->is_double() || sx->is_bool()) &&
                        (sv->is_int() || sv->is_double() || sv->is_bool())
                    ? sx->to_double() == sv->to_double()
                    : false;
      found = found || eq;
      continue;
    }
    all_static = false;
    terms.push_back([this, x, v, range] {
      return to_bool(emit_compare(ast::CmpOpKind::Eq, x, v, range), range);
    });
  }
  ir::Value* result;
  if (all_static || found) {
    result = bool_const(found);
  } else if (terms.empty()) {
    result = bool_const(false);
  } else {
    result = emit_short_circuit(terms, false, range);
  }
  if (op == ast::CmpOpKind::NotIn) result = emit_not(result, range);
  return Sugared::of(result);
}

std::optional<Sugared> Lowerer::call_iter_builtin(const std::string& q, CallArgs& args,
                                                  const SourceRange& range) {
  static const char* const kNames[] = {"enumerate", "zip",   "sum",      "any",  "all",
                                       "list",      "tuple", "reversed", "range"};
  if (std::none_of(std::begin(kNames), std::end(kNames), [&](const char* n) { return q == n; })) {
    return std::nullopt;
  }
  auto arg_items = [&](size_t i) {
    return require_items(args.positional[i].value, q + "()", args.positional[i].range);
  };
  auto values = [&](const std::vector<Sugared>& items) {
    std::vector<ir::Value*> vs;
    for (const Sugared& s : items) vs.push_back(as_value(s, range));
    return vs;
  };
  auto keyword = [&](const char* name) -> const CallArg* {
    for (const auto& [k, a] : args.keywords) {
      if (k == name) return &a;
      fail("TypeError: " + q + "() got an unexpected keyword argument '" + k + "'", a.range);
    }
    return nullptr;
  };
  if (q == "range") {
    if (!args.keywords.empty()) fail("TypeError: range() takes no keyword arguments", range);
    std::vector<int64_t> b;
    for (const CallArg& a : args.positional) {
      std::optional<IValue> c = static_value(as_value(a.value, a.range));
      if (!c || !(c->is_int() || c->is_bool())) {
        fail(
            "range() with bounds not known at conversion time is only supported as the iterable "
            "of a for loop by the parse route",
            a.range, kEagerRuns);
      }
      b.push_back(c->to_int());
    }
    if (b.empty() || b.size() > 3) fail("TypeError: range expected 1 to 3 arguments", range);
    int64_t start = b.size() == 1 ? 0 : b[0], stop = b.size() == 1 ? b[0] : b[1];
    int64_t step = b.size() == 3 ? b[2] : 1;
    if (step == 0) fail("ValueError: range() arg 3 must not be zero", range);
    std::vector<ir::Value*> items;
    for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step) {
      if (items.size() >= 100000)
        fail("range() of more than 100000 items in the parse route", range);
      items.push_back(constant(IValue(i), range));
    }
    // An empty range is an empty tuple: iterating it (a comprehension's inner clause)
    // makes no items; a list needs an item type, which an empty range has not.
    if (items.empty()) return Sugared::of(make_tuple({}, range));
    return Sugared::of(make_list(items, range));
  }
  if (q == "list" && args.positional.empty() && args.keywords.empty()) {
    return Sugared::of(make_list({}, range));  // list(): an empty list to fill
  }
  if (args.positional.empty()) fail("TypeError: " + q + "() needs an argument", range);
  if (q == "list" && args.positional[0].value.is_value()) {
    // list(xs) of a list of run-time length: a copy when the graph runs (aten::list).
    ir::Value* v = args.positional[0].value.value;
    if (v->type().kind == TypeKind::List && !constant_value(v) && !static_list_items(v, range))
      return Sugared::of(list_copy(v, range));
  }
  if (std::optional<Sugared> r = runtime_reduce(q, args, range)) return r;
  if (auto it = runtime_enumerate_zip(q, args, range)) {
    return Sugared::of(runtime_list(*it, range));
  }
  if (q == "enumerate") {
    int64_t start = 0;
    if (const CallArg* s = keyword("start")) {
      std::optional<IValue> c = static_value(as_value(s->value, s->range));
      if (!c || !c->is_int()) fail("enumerate(start=) must be a constant int here", s->range);
      start = c->to_int();
    }
    std::vector<Sugared> items = arg_items(0);
    if (!std::all_of(items.begin(), items.end(), [](const Sugared& s) { return s.is_value(); })) {
      // enumerate(self.blocks): (index, module) pairs, unrolled where they are used.
      std::vector<Sugared> pairs;
      for (const Sugared& item : items) {
        pairs.push_back(Sugared::of_items({Sugared::of(constant(IValue(start++), range)), item}));
      }
      return Sugared::of_items(std::move(pairs));
    }
    std::vector<ir::Value*> rows;
    for (const Sugared& item : items) {
      rows.push_back(make_tuple({constant(IValue(start++), range), as_value(item, range)}, range));
    }
    if (rows.empty()) fail("enumerate() of an empty sequence in the parse route", range);
    return Sugared::of(make_list(rows, range));
  }
  if (q == "zip") {
    std::vector<std::vector<Sugared>> lists;
    size_t n = SIZE_MAX;
    for (size_t i = 0; i < args.positional.size(); ++i) {
      lists.push_back(arg_items(i));
      n = std::min(n, lists.back().size());
    }
    bool all_values = true;
    for (const auto& l : lists) {
      for (size_t k = 0; k < n; ++k) all_values = all_values && l[k].is_value();
    }
    if (!all_values) {
      // zip(self.heads, names): rows holding modules, unrolled where they are used.
      std::vector<Sugared> rows;
      for (size_t k = 0; k < n; ++k) {
        std::vector<Sugared> row;
        for (const auto& l : lists) row.push_back(l[k]);
        rows.push_back(Sugared::of_items(std::move(row)));
      }
      return Sugared::of_items(std::move(rows));
    }
    std::vector<ir::Value*> rows;
    for (size_t k = 0; k < n; ++k) {
      std::vector<ir::Value*> row;
      for (const auto& l : lists) row.push_back(as_value(l[k], range));
      rows.push_back(make_tuple(row, range));
    }
    if (rows.empty()) fail("zip() of empty sequences in the parse route", range);
    return Sugared::of(make_list(rows, range));
  }
  if (q == "sum") {
    ir::Value* acc = constant(IValue(int64_t{0}), range);
    if (args.positional.size() > 1) acc = as_value(args.positional[1].value, range);
    if (const CallArg* s = keyword("start")) acc = as_value(s->value, s->range);
    for (ir::Value* v : values(arg_items(0))) acc = emit_binop(ast::BinOpKind::Add, acc, v, range);
    return Sugared::of(acc);
  }
  if (q == "any" || q == "all") {
    std::vector<ir::Value*> vs = values(arg_items(0));
    std::vector<std::function<ir::Value*()>> terms;
    for (ir::Value* v : vs) terms.push_back([this, v, range] { return to_bool(v, range); });
    if (terms.empty()) return Sugared::of(bool_const(q == "all"));
    return Sugared::of(emit_short_circuit(terms, q == "all", range));
  }
  std::vector<Sugared> items = arg_items(0);
  if (!std::all_of(items.begin(), items.end(), [](const Sugared& s) { return s.is_value(); })) {
    // reversed(self.blocks), list(d.values()): modules stay conversion-time items.
    if (q == "reversed") std::reverse(items.begin(), items.end());
    if (q == "sum" || q == "any" || q == "all") values(items);  // the error for a module
    return Sugared::of_items(std::move(items));
  }
  std::vector<ir::Value*> vs = values(items);
  if (q == "reversed") std::reverse(vs.begin(), vs.end());
  if (q == "tuple") return Sugared::of(make_tuple(vs, range));
  if (vs.empty()) fail("an empty list() in the parse route", range);
  return Sugared::of(make_list(vs, range));
}

// ------------------------------------------------------- raise, try, del

void Lowerer::lower_raise(const ast::Raise& stmt) {
  if (!stmt.exc) {
    fail("'raise' without an exception is not supported by the parse route", stmt.range,
         std::string("the parse route has no exception handlers to re-raise from; ") + kEagerRuns);
  }
  std::string kind;
  ir::Value* msg = nullptr;
  const ast::Expr& e = *stmt.exc;
  const ast::Expr* callee = e.kind == ast::ExprKind::Call ? e.as<ast::Call>().func.get() : &e;
  if (callee->kind == ast::ExprKind::Name) kind = callee->as<ast::Name>().id;
  static const char* const kTypes[] = {
      "Exception",       "ValueError",        "RuntimeError",   "TypeError",
      "KeyError",        "IndexError",        "AssertionError", "NotImplementedError",
      "AttributeError",  "ZeroDivisionError", "StopIteration",  "LookupError",
      "ArithmeticError", "OverflowError"};
  if (std::none_of(std::begin(kTypes), std::end(kTypes),
                   [&](const char* t) { return kind == t; })) {
    fail("'raise' of this value is not supported by the parse route", e.range,
         std::string("raise a built-in exception such as ValueError(\"message\"); ") + kEagerRuns);
  }
  if (e.kind == ast::ExprKind::Call) {
    const auto& call = e.as<ast::Call>();
    if (call.args.size() > 1 || !call.keywords.empty()) {
      fail("'raise' with more than one argument is not supported by the parse route", e.range,
           kEagerRuns);
    }
    if (!call.args.empty()) {
      msg = emit_expr(*call.args[0]);
      if (msg->type().kind != TypeKind::Str) {
        msg = emit_op("aten::format", {constant(IValue("{}"), e.range), msg}, e.range);
      }
    }
  }
  if (stmt.cause) (void)emit_sugared(*stmt.cause);
  if (!msg) msg = constant(IValue(""), stmt.range);
  ir::Node* raise = graph_.insert(ir::kind::RaiseException, {msg}, 0, stmt.range);
  raise->set_attr("kind", IValue(kind));
}

void Lowerer::lower_try(const ast::Try& stmt) {
  if (!stmt.handlers.empty()) {
    fail(
        "'try' with 'except' is not supported by the parse route: a graph has no exception "
        "handlers (TorchScript has none either)",
        stmt.handlers[0].range, kEagerRuns);
  }
  // try/finally without handlers: the body, then the finally block.
  lower_body(stmt.body);
  lower_body(stmt.finalbody);
}

void Lowerer::lower_delete(const ast::Delete& stmt) {
  for (const ast::ExprPtr& t : stmt.targets) {
    if (t->kind == ast::ExprKind::Subscript) {
      // `del d[k]` of a dict (lower_dict.cpp).
      const auto& s = t->as<ast::Subscript>();
      Sugared sb = emit_sugared(*s.value);
      if (sb.kind == Sugared::Kind::Keywords) refuse_keywords_write(sb, t->range);
      ir::Value* base = as_value(sb, s.value->range);
      if (base->type().kind == TypeKind::Dict) {
        delete_dict_item(base, s);
        continue;
      }
    }
    if (t->kind != ast::ExprKind::Name) {
      fail("'del' of anything but a name is not supported by the parse route", t->range,
           kEagerRuns);
    }
    const std::string& name = t->as<ast::Name>().id;
    (void)lookup_name(name, t->range);  // NameError when unbound
    env_->poison(name, "NameError: name '" + name + "' is not defined",
                 "'" + name + "' was deleted with 'del' before this line");
  }
}

}  // namespace d2s::convert
