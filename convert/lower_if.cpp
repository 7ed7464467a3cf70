// `if` statements and the merge of two arms' variables into prim::If outputs.
#include <map>
#include <utility>

#include "convert/exit_transform.h"
#include "convert/lowerer.h"

namespace d2s::convert {

using ir::Type;
using ir::TypeKind;

namespace {

bool same_constant(const ir::Value* a, const ir::Value* b) {
  auto ca = constant_value(a), cb = constant_value(b);
  if (!ca || !cb) return false;
  if (ca->is_none() || cb->is_none()) return ca->is_none() && cb->is_none();
  if (ca->is_bool() && cb->is_bool()) return ca->to_bool() == cb->to_bool();
  if (ca->is_int() && cb->is_int()) return ca->to_int() == cb->to_int();
  if (ca->is_string() && cb->is_string()) return ca->to_string() == cb->to_string();
  return false;  // floats (-0.0, NaN) and tensors: keep both
}

std::string arm_name(bool then_arm) {
  return then_arm ? "the if branch" : "the else branch";
}

}  // namespace

std::optional<std::pair<std::string, bool>> none_test(const ast::Expr& test) {
  if (test.kind != ast::ExprKind::Compare) return std::nullopt;
  const auto& c = test.as<ast::Compare>();
  if (c.ops.size() != 1) return std::nullopt;
  const bool is_not = c.ops[0] == ast::CmpOpKind::IsNot;
  if (!is_not && c.ops[0] != ast::CmpOpKind::Is) return std::nullopt;
  auto is_none = [](const ast::Expr& e) { return e.kind == ast::ExprKind::None; };
  const ast::Expr& l = *c.left;
  const ast::Expr& r = *c.comparators[0];
  const ast::Expr* name = is_none(r) ? &l : is_none(l) ? &r : nullptr;
  if (!name || name->kind != ast::ExprKind::Name) return std::nullopt;
  return std::make_pair(name->as<ast::Name>().id, is_not);
}

void not_none_names(const ast::Expr& test, bool when_true, std::vector<std::string>* out) {
  // TorchScript's refinement rules: `x is not None` true (or `x is None` false) proves
  // x; `a and b` true proves what a and b prove true, `a or b` false what they prove
  // false; `not a` swaps. Nesting is the expression's, which the parser bounds.
  if (auto t = none_test(test)) {
    if (t->second == when_true) out->push_back(t->first);
    return;
  }
  if (test.kind == ast::ExprKind::UnaryOp && test.as<ast::UnaryOp>().op == ast::UnaryOpKind::Not) {
    not_none_names(*test.as<ast::UnaryOp>().operand, !when_true, out);
    return;
  }
  if (test.kind != ast::ExprKind::BoolOp) return;
  const auto& b = test.as<ast::BoolOp>();
  if (b.is_and != when_true) return;  // `a and b` false / `a or b` true: either may hold
  for (const auto& v : b.values) not_none_names(*v, when_true, out);
}

std::vector<std::pair<std::string, ir::Value*>> Lowerer::refine_not_none(
    const std::vector<std::string>& names, const SourceRange& range) {
  // Each name bound to an Optional reads prim::unchecked_cast of it, typed as its
  // element, in env_ (the caller's scope for the code where the test held).
  std::vector<std::pair<std::string, ir::Value*>> casts;
  for (const std::string& name : names) {
    const Binding* b = env_->lookup(name);
    if (!b || b->is_poisoned() || !b->value.is_value()) continue;
    const Type& t = b->value.value->type();
    if (t.kind != TypeKind::Optional || t.elements.empty()) continue;
    ir::Value* cast = emit_op("prim::unchecked_cast", {b->value.value}, range);
    cast->set_type(t.elements[0]);
    env_->set_value(name, cast);
    casts.emplace_back(name, cast);
  }
  return casts;
}

ir::Value* Lowerer::emit_refined(const std::vector<std::string>& names, const SourceRange& range,
                                 const std::function<ir::Value*()>& emit) {
  if (names.empty()) return emit();
  // A scope of its own, left when `emit` returns or throws.
  Environment scope(env_);
  struct Restore {
    Environment*& env;
    Environment* saved;
    ~Restore() { env = saved; }
  } restore{env_, env_};
  env_ = &scope;
  refine_not_none(names, range);
  return emit();
}

std::optional<Type> join_types(const Type& a, const Type& b) {
  if (a.kind == TypeKind::Any || b.kind == TypeKind::Any) return Type::any();
  if (a.kind != b.kind) return std::nullopt;
  Type out = a;
  switch (a.kind) {
    case TypeKind::Tensor:
      if (a.dtype != b.dtype) out.dtype.reset();
      if (!a.shape || !b.shape || a.shape->size() != b.shape->size()) {
        out.shape.reset();
      } else {
        for (size_t i = 0; i < a.shape->size(); ++i) {
          if (!((*a.shape)[i] == (*b.shape)[i])) (*out.shape)[i] = ir::Dim{};
        }
      }
      return out;
    case TypeKind::Tuple:
      if (a.elements.size() != b.elements.size()) return std::nullopt;
      for (size_t i = 0; i < a.elements.size(); ++i) {
        auto e = join_types(a.elements[i], b.elements[i]);
        if (!e) return std::nullopt;
        out.elements[i] = *e;
      }
      return out;
    case TypeKind::List:
      if (a.elements.empty() || b.elements.empty()) return Type::list(Type::any());
      if (auto e = join_types(a.elements[0], b.elements[0])) return Type::list(*e);
      return std::nullopt;
    case TypeKind::Optional:
      if (a.elements.empty() || b.elements.empty()) return Type::optional(Type::any());
      if (auto e = join_types(a.elements[0], b.elements[0])) return Type::optional(*e);
      return std::nullopt;
    case TypeKind::Dict:
      if (a.elements.size() != 2 || b.elements.size() != 2) return std::nullopt;
      for (size_t i = 0; i < 2; ++i) {
        if (a.elements[i].kind == TypeKind::Any) {
          out.elements[i] = b.elements[i];
        } else if (b.elements[i].kind != TypeKind::Any) {
          auto e = join_types(a.elements[i], b.elements[i]);
          if (!e) return std::nullopt;
          out.elements[i] = *e;
        }
      }
      return out;
    default:
      return out;
  }
}

std::optional<Type> join_optional(const Type& a, const Type& b) {
  auto may_be_none = [](const Type& t) {
    return t.kind == TypeKind::None || t.kind == TypeKind::Optional;
  };
  if (!may_be_none(a) && !may_be_none(b)) return std::nullopt;
  auto element = [](const Type& t) -> std::optional<Type> {
    if (t.kind == TypeKind::None) return std::nullopt;
    if (t.kind == TypeKind::Optional) return t.elements.empty() ? Type::any() : t.elements[0];
    return t;
  };
  std::optional<Type> ea = element(a), eb = element(b);
  if (!ea) return eb ? std::optional<Type>(Type::optional(*eb)) : std::optional<Type>(a);
  if (!eb) return Type::optional(*ea);
  std::optional<Type> j = join_types(*ea, *eb);
  if (!j) return std::nullopt;
  return Type::optional(*j);
}

void Lowerer::lower_if(const ast::If& stmt, GuardScope& guards) {
  ir::Value* cond = emit_condition(*stmt.test);
  if (const std::optional<bool> known = constant_bool(cond)) {
    // Decided at conversion time (`if self.downsample is not None:`, a module's flag):
    // only the arm that runs is lowered, in place, as TorchScript's static if does, so
    // the other arm may use what does not exist here (`x + self.bias` when bias is None).
    lower_body(*known ? stmt.body : stmt.orelse);
    return;
  }
  ir::Node* n = graph_.insert(ir::kind::If, {cond}, 0, stmt.range);
  ir::IfView view(n);
  n->add_block();
  n->add_block();
  auto then_env = std::make_unique<Environment>(env_);
  auto else_env = std::make_unique<Environment>(env_);
  Environment* outer = env_;
  // Optional refinement: in an arm where the test proves a name not None (`x is not
  // None`, `a is not None and b is not None`, `x is None or y is None` false) the name
  // holds prim::unchecked_cast of the Optional, typed as its element (TorchScript's
  // form).
  std::vector<std::pair<std::string, ir::Value*>> casts;
  auto lower_arm = [&](ir::Block* block, Environment* arm_env, const ast::Body& body,
                       bool when_true) {
    ir::WithInsertPoint guard(graph_, block);
    env_ = arm_env;
    std::vector<std::string> names;
    not_none_names(*stmt.test, when_true, &names);
    for (auto& c : refine_not_none(names, stmt.test->range)) casts.push_back(c);
    lower_body(body);
  };
  lower_arm(view.then_block(), then_env.get(), stmt.body, true);
  lower_arm(view.else_block(), else_env.get(), stmt.orelse, false);
  env_ = outer;
  ExitState then_exit = exit_state(*then_env, flag::Skip);
  ExitState else_exit = exit_state(*else_env, flag::Skip);
  // One arm always leaves: what follows runs only after the other arm, so it is
  // lowered into that arm instead of behind a new guard (as TorchScript does).
  if (then_exit == ExitState::Always && else_exit != ExitState::Always) {
    guards.continue_in(n, std::move(then_env), std::move(else_env), false, stmt.range);
    return;
  }
  if (else_exit == ExitState::Always && then_exit != ExitState::Always) {
    guards.continue_in(n, std::move(then_env), std::move(else_env), true, stmt.range);
    return;
  }
  // Past the if, the refinement ends: an arm that did not assign the name again
  // leaves it the Optional it was.
  for (const auto& [name, cast] : casts) {
    for (Environment* arm : {then_env.get(), else_env.get()}) {
      const Binding* b = arm->find_local(name);
      if (b && b->value.is_value() && b->value.value == cast) arm->erase_local(name);
    }
  }
  merge_arms(n, *then_env, *else_env, stmt.range);
}

void Lowerer::merge_arms(ir::Node* if_node, Environment& then_env, Environment& else_env,
                         const SourceRange& range) {
  ir::IfView view(if_node);
  const bool then_exits = exit_state(then_env, flag::Skip) == ExitState::Always;
  const bool else_exits = exit_state(else_env, flag::Skip) == ExitState::Always;

  std::vector<std::string> names = then_env.assigned();
  for (const std::string& n : else_env.assigned()) {
    if (!then_env.find_local(n)) names.push_back(n);
  }

  // Names whose arms hold the same pair of values share one output. Beyond saving
  // outputs this keeps flags that always agree one value ($skip and $ret outside
  // loops), which the exit guards rely on to know what an exited arm did.
  std::map<std::pair<ir::Value*, ir::Value*>, ir::Value*> outputs;

  for (const std::string& name : names) {
    const Binding* tb = then_env.lookup(name);
    const Binding* eb = else_env.lookup(name);
    const bool t_ok = tb && !tb->is_poisoned();
    const bool e_ok = eb && !eb->is_poisoned();
    const bool is_flag = name == flag::Skip || name == flag::Stop || name == flag::Ret;

    // An unbound flag is false; fill it in so that both arms return a bool.
    Sugared tv = t_ok ? tb->value : Sugared{};
    Sugared ev = e_ok ? eb->value : Sugared{};
    if (is_flag) {
      if (!t_ok) tv = Sugared::of(bool_const(false));
      if (!e_ok) ev = Sugared::of(bool_const(false));
    } else if (!t_ok || !e_ok) {
      // Defined on one side only. Fine when the other side always exits (the value
      // is never read there: a placeholder fills the slot); otherwise usable only if
      // never read afterwards, which the poisoned binding checks lazily.
      // The pending return value is read only where $ret is set, so a placeholder
      // always fills the arm that did not return.
      const bool is_retval = name == flag::RetVal;
      bool fill_then = !t_ok && e_ok && (then_exits || is_retval) && ev.is_value();
      bool fill_else = !e_ok && t_ok && (else_exits || is_retval) && tv.is_value();
      if (fill_then) {
        ir::WithInsertPoint g(graph_, view.then_block());
        tv = Sugared::of(uninitialized(ev.value->type(), range));
      } else if (fill_else) {
        ir::WithInsertPoint g(graph_, view.else_block());
        ev = Sugared::of(uninitialized(tv.value->type(), range));
      } else if (is_retval) {
        continue;
      } else {
        if (!t_ok && !e_ok) {
          env_->poison(name, (tb ? tb : eb)->poison, (tb ? tb : eb)->poison_hint);
          continue;
        }
        bool missing_then = !t_ok;
        const Binding* bad = missing_then ? tb : eb;
        std::string msg = bad && bad->is_poisoned()
                              ? bad->poison
                              : "variable '" + name + "' is defined in only one branch (" +
                                    arm_name(!missing_then) + ") of the if at line " +
                                    std::to_string(range.line);
        env_->poison(name, msg,
                     "assign it before the if, or in both branches, so that it has a value "
                     "whichever way the condition goes");
        continue;
      }
    }

    if (!tv.is_value() || !ev.is_value()) {
      if (tv.same_as(ev)) {
        env_->set(name, Binding{tv, {}, {}});
      } else {
        env_->poison(name,
                     "'" + name +
                         "' refers to different objects in the two branches of the if "
                         "at line " +
                         std::to_string(range.line),
                     "only graph values (tensors, numbers, tuples) can differ between branches");
      }
      continue;
    }
    ir::Value* a = tv.value;
    ir::Value* b = ev.value;
    if (a == b) {
      env_->set_value(name, a);
      continue;
    }
    if (same_constant(a, b)) {
      env_->set_value(name, is_flag ? a : constant(*constant_value(a), range));
      continue;
    }
    if (auto it = outputs.find({a, b}); it != outputs.end()) {
      env_->set_value(name, it->second);
      continue;
    }
    // The slot's type: the join of both arms, where an arm that always exits does not
    // count (its value is never read).
    std::optional<Type> type = join_types(a->type(), b->type());
    const bool a_placeholder = a->node()->kind() == ir::kind::Uninitialized;
    const bool b_placeholder = b->node()->kind() == ir::kind::Uninitialized;
    if (!type && name == flag::RetVal && (a_placeholder || b_placeholder)) {
      // One arm did not return: its placeholder takes the other arm's type.
      ir::WithInsertPoint g(graph_, a_placeholder ? view.then_block() : view.else_block());
      (a_placeholder ? a : b) = uninitialized((a_placeholder ? b : a)->type(), range);
      type = (a_placeholder ? b : a)->type();
    }
    if (!type) {
      if ((then_exits || else_exits) && name != flag::RetVal) {
        bool replace_then = then_exits;
        ir::WithInsertPoint g(graph_, replace_then ? view.then_block() : view.else_block());
        (replace_then ? a : b) = uninitialized((replace_then ? b : a)->type(), range);
        type = (replace_then ? b : a)->type();
      } else if (name == flag::RetVal) {
        const std::string& fname = frames_.empty() ? std::string("<module>") : frames_.back().name;
        bool none_side = a->type().kind == TypeKind::None || b->type().kind == TypeKind::None;
        fail("'" + fname + "' returns " + a->type().str() + " on one path and " + b->type().str() +
                 " on another",
             range,
             none_side ? "a path that reaches the end of the function (or a bare `return`) "
                         "returns None; return a value on every path"
                       : "return values of one type on every path");
      } else if ((type = join_optional(a->type(), b->type()))) {
        // None in one arm: an Optional, refined by a later `is None` test.
      } else {
        fail("variable '" + name + "' has type " + a->type().str() + " in the if branch and " +
                 b->type().str() + " in the else branch",
             range, "give it the same type in both branches (e.g. float(x) or torch.tensor(x))");
      }
    }
    ir::Value* out = if_node->add_output();
    out->set_type(*type);
    if (!flag::is_special(name)) out->set_debug_name(name);
    view.then_block()->register_output(a);
    view.else_block()->register_output(b);
    outputs[{tv.value, ev.value}] = out;
    env_->set_value(name, out);
  }
}

}  // namespace d2s::convert
