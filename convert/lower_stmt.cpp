// Statements: statement lists (with exit guards), assignments, return / break /
// continue, assert, expression statements, and whole function bodies.
#include <functional>

#include "convert/exit_transform.h"
#include "convert/lowerer.h"

namespace d2s::convert {

namespace {

// True when `body` contains a return statement (nested blocks included). Recursion
// follows statement nesting only, which the parser bounds.
bool has_return(const ast::Body& body) {
  for (const ast::StmtPtr& s : body) {
    switch (s->kind) {
      case ast::StmtKind::Return:
        return true;
      case ast::StmtKind::If: {
        const auto& i = s->as<ast::If>();
        if (has_return(i.body) || has_return(i.orelse)) return true;
        break;
      }
      case ast::StmtKind::For:
        if (has_return(s->as<ast::For>().body)) return true;
        break;
      case ast::StmtKind::While:
        if (has_return(s->as<ast::While>().body)) return true;
        break;
      case ast::StmtKind::With:
        if (has_return(s->as<ast::With>().body)) return true;
        break;
      default:
        break;
    }
  }
  return false;
}

// The in-place op behind `op=` on a tensor (Tensor.__iadd__ is add_), or null.
const char* inplace_op(ast::BinOpKind op) {
  switch (op) {
    case ast::BinOpKind::Add:
      return "aten::add_";
    case ast::BinOpKind::Sub:
      return "aten::sub_";
    case ast::BinOpKind::Mul:
      return "aten::mul_";
    case ast::BinOpKind::Div:
      return "aten::div_";
    default:
      return nullptr;
  }
}

}  // namespace

void Lowerer::lower_body(const ast::Body& body) {
  lower_statements(body, nullptr);
}

void Lowerer::lower_statements(const ast::Body& body, const std::function<void()>& at_end) {
  GuardScope guards(*this);
  for (const ast::StmtPtr& s : body) {
    lower_stmt(*s, guards);
    ExitState state = exit_state(*env_, flag::Skip);
    if (state == ExitState::Always) break;  // the rest is dead code: not lowered
    if (state == ExitState::Maybe) {
      guards.guard(env_->lookup(flag::Skip)->value.value, flag::Skip, s->range);
    }
  }
  if (at_end && exit_state(*env_, flag::Skip) != ExitState::Always) at_end();
  guards.close();
}

void Lowerer::lower_stmt(const ast::Stmt& s, GuardScope& guards) {
  switch (s.kind) {
    case ast::StmtKind::Expr:
      return lower_expr_stmt(s.as<ast::ExprStmt>());
    case ast::StmtKind::Assign:
      return lower_assign(s.as<ast::Assign>());
    case ast::StmtKind::AugAssign:
      return lower_aug_assign(s.as<ast::AugAssign>());
    case ast::StmtKind::AnnAssign:
      return lower_ann_assign(s.as<ast::AnnAssign>());
    case ast::StmtKind::If:
      return lower_if(s.as<ast::If>(), guards);
    case ast::StmtKind::For:
      return lower_for(s.as<ast::For>());
    case ast::StmtKind::While:
      return lower_while(s.as<ast::While>());
    case ast::StmtKind::With:
      return lower_with(s.as<ast::With>());
    case ast::StmtKind::Break:
      return lower_break(s);
    case ast::StmtKind::Continue:
      return lower_continue(s);
    case ast::StmtKind::Return:
      return lower_return(s.as<ast::Return>());
    case ast::StmtKind::Pass:
      return;
    case ast::StmtKind::Assert:
      return lower_assert(s.as<ast::Assert>());
    case ast::StmtKind::FunctionDef:
      // At the top level functions are globals (collected before lowering); inside a
      // function, a nested function inlined where it is called.
      if (frames_.empty()) return;
      env_->set(
          s.as<ast::FunctionDef>().name,
          Binding{make_closure(s.as<ast::FunctionDef>(), s.as<ast::FunctionDef>().name), {}, {}});
      return;
    case ast::StmtKind::ClassDef:
      if (frames_.empty()) return;
      fail("a class defined inside a function is not supported by the parse route", s.range,
           "define it at the top level of the file");
    case ast::StmtKind::Raise:
      return lower_raise(s.as<ast::Raise>());
    case ast::StmtKind::Try:
      return lower_try(s.as<ast::Try>());
    case ast::StmtKind::Delete:
      return lower_delete(s.as<ast::Delete>());
    case ast::StmtKind::Global:
      return;  // globals are read-only constants in the parse route
    case ast::StmtKind::Import:
    case ast::StmtKind::ImportFrom:
      if (frames_.empty()) return;
      fail("import inside a function is not supported by the parse route", s.range,
           "move the import to the top of the file");
  }
}

// ------------------------------------------------------------------ assignments

void Lowerer::lower_assign(const ast::Assign& stmt) {
  Sugared value = emit_sugared(*stmt.value);
  for (const ast::ExprPtr& target : stmt.targets) assign_target(*target, value, stmt.range);
}

void Lowerer::lower_ann_assign(const ast::AnnAssign& stmt) {
  if (!stmt.value) return;  // `x: int` declares nothing at run time
  assign_target(*stmt.target, emit_sugared(*stmt.value), stmt.range);
}

void Lowerer::assign_target(const ast::Expr& target, const Sugared& value,
                            const SourceRange& range) {
  switch (target.kind) {
    case ast::ExprKind::Name: {
      const std::string& name = target.as<ast::Name>().id;
      // Values are named after the first variable that holds them, as TorchScript
      // names them; the printer makes names unique.
      if (value.is_value() && value.value->debug_name().empty() &&
          value.value->node()->kind() != ir::kind::Param && value.value != true_ &&
          value.value != false_) {
        value.value->set_debug_name(name);
      }
      env_->set(name, Binding{value, {}, {}});
      return;
    }
    case ast::ExprKind::Tuple:
    case ast::ExprKind::List: {
      const auto& elts = target.kind == ast::ExprKind::Tuple ? target.as<ast::TupleExpr>().elts
                                                             : target.as<ast::ListExpr>().elts;
      std::vector<Sugared> items;
      if (value.is_value() && value.value->type().kind == ir::TypeKind::List &&
          !static_list_items(value.value, target.range)) {
        // A list of a length known only at run time (`B, T, C = x.size()`, the chunks
        // of x.split(n)): prim::ListUnpack into as many values as there are targets,
        // which checks the length when the graph runs, as TorchScript does.
        ir::Node* n = graph_.insert(ir::kind::ListUnpack, {value.value}, elts.size(), target.range);
        for (ir::Value* out : n->outputs()) {
          out->set_type(*value.value->type().elements.begin());
          items.push_back(Sugared::of(out));
        }
      } else {
        items = unpack(value, target.range);
      }
      if (items.size() != elts.size()) {
        fail(items.size() > elts.size()
                 ? "ValueError: too many values to unpack (expected " +
                       std::to_string(elts.size()) + ")"
                 : "ValueError: not enough values to unpack (expected " +
                       std::to_string(elts.size()) + ", got " + std::to_string(items.size()) + ")",
             target.range);
      }
      for (size_t i = 0; i < elts.size(); ++i) assign_target(*elts[i], items[i], range);
      return;
    }
    case ast::ExprKind::Subscript:
      return assign_tensor_item(target.as<ast::Subscript>(), as_value(value, range));
    case ast::ExprKind::Attribute:
      fail("assigning to an attribute is not supported by the parse route", target.range,
           "module attributes are frozen when the module is converted; use a local variable");
    default:
      fail("cannot assign to this expression", target.range);
  }
}

void Lowerer::lower_aug_assign(const ast::AugAssign& stmt) {
  if (stmt.target->kind != ast::ExprKind::Name && stmt.target->kind != ast::ExprKind::Subscript) {
    fail("augmented assignment to an attribute is not supported by the parse route",
         stmt.target->range, "assign the result to a variable instead");
  }
  ir::Value* current = emit_expr(*stmt.target);
  ir::Value* rhs = emit_expr(*stmt.value);
  SourceRange range = SourceRange::span(stmt.target->range, stmt.value->range);
  if (stmt.target->kind == ast::ExprKind::Subscript) {
    // `x[i] += v`: the item (a copy) updated, then written back as `x[i] = item`, as the
    // eager interpreter does it.
    const char* inplace = inplace_op(stmt.op);
    ir::Value* item = inplace && current->type().is_tensor()
                          ? (emit_op(inplace, {current, rhs}, range), current)
                          : emit_binop(stmt.op, current, rhs, range);
    assign_tensor_item(stmt.target->as<ast::Subscript>(), item);
    return;
  }
  // `t += x` on a tensor is Tensor.__iadd__, add_: t is written in place and the name
  // keeps its value, so every alias of the tensor (another name, a list or tuple that
  // holds it) sees the write, as in eager PyTorch and TorchScript. Other operators
  // (`//=`, `**=`, ...) have no in-place form on tensors and, like every `op=` on a
  // Python number, rebind the name to a new value.
  if (const char* inplace = inplace_op(stmt.op); inplace && current->type().is_tensor()) {
    emit_op(inplace, {current, rhs}, range);
    return;
  }
  // `xs += ys` on a list extends it in place (aten::add_), and the name takes its
  // result, the same list, as TorchScript writes it.
  ir::Value* result = stmt.op == ast::BinOpKind::Add && current->type().kind == ir::TypeKind::List
                          ? list_add_inplace(current, rhs, range)
                          : emit_binop(stmt.op, current, rhs, range);
  if (result->debug_name().empty()) result->set_debug_name(stmt.target->as<ast::Name>().id);
  env_->set_value(stmt.target->as<ast::Name>().id, result);
}

// --------------------------------------------------------------- exits

void Lowerer::bind_flag(const char* name, bool value) {
  env_->set_value(name, bool_const(value));
}

void Lowerer::lower_return(const ast::Return& stmt) {
  if (frames_.empty()) fail("SyntaxError: 'return' outside function", stmt.range);
  ir::Value* v = stmt.value ? as_value(emit_sugared(*stmt.value), stmt.value->range)
                            : constant(IValue(), stmt.range);
  env_->set_value(flag::RetVal, v);
  bind_flag(flag::Ret, true);
  bind_flag(flag::Skip, true);
  if (loop_depth() > 0) bind_flag(flag::Stop, true);
}

void Lowerer::lower_break(const ast::Stmt& stmt) {
  if (loop_depth() == 0) {
    fail("SyntaxError: 'break' outside loop", stmt.range);
  }
  bind_flag(flag::Skip, true);
  bind_flag(flag::Stop, true);
}

void Lowerer::lower_continue(const ast::Stmt& stmt) {
  if (loop_depth() == 0) {
    fail("SyntaxError: 'continue' not properly in loop", stmt.range);
  }
  bind_flag(flag::Skip, true);
}

// ------------------------------------------------------------------ others

// with torch.no_grad() / torch.enable_grad(): the body is lowered inline, and its nodes
// carry the grad mode (ir::kAttrGradEnabled) so that the executor and `d2s grad` treat
// them as PyTorch does (an in-place write into a leaf that requires grad is allowed
// under no_grad; what is computed there has no gradient). `as NAME` binds None, what
// the context managers' __enter__ returns. The last manager of `with a, b:` decides.
void Lowerer::lower_with(const ast::With& stmt) {
  std::optional<bool> grad_enabled;
  for (const ast::WithItem& item : stmt.items) {
    const ast::GradContext kind = ast::grad_context(*item.context);
    if (kind == ast::GradContext::Other) {
      fail(ast::kOtherContextError, item.context->range, ast::kOtherContextHint);
    }
    grad_enabled = kind == ast::GradContext::EnableGrad;
    if (item.target) {
      assign_target(*item.target, Sugared::of(constant(IValue(), item.target->range)), stmt.range);
    }
  }
  lower_in_grad_mode(grad_enabled, [&] { lower_body(stmt.body); });
}

void Lowerer::lower_in_grad_mode(std::optional<bool> grad_enabled,
                                 const std::function<void()>& lower) {
  if (!grad_enabled) return lower();
  ir::Node* end = graph_.insert_point();
  ir::Node* before = end->prev();
  lower();
  // The nodes lowered here, nested blocks included; a node already marked comes from an
  // inner `with` (or decorated call), whose mode wins.
  std::vector<ir::Node*> todo;
  for (ir::Node* n = before->next(); n && n != end && n != graph_.insert_point(); n = n->next()) {
    todo.push_back(n);
  }
  while (!todo.empty()) {
    ir::Node* n = todo.back();
    todo.pop_back();
    if (n->kind() == ir::kind::Constant || n->attr(ir::kAttrGradEnabled)) continue;
    n->set_attr(ir::kAttrGradEnabled, IValue(*grad_enabled));
    for (ir::Block* b : n->blocks()) {
      for (ir::Node* inner : b->nodes()) todo.push_back(inner);
    }
  }
}

void Lowerer::lower_assert(const ast::Assert& stmt) {
  ir::Value* cond = emit_condition(*stmt.test);
  ir::Node* n = graph_.insert(ir::kind::If, {cond}, 0, stmt.range);
  n->add_block();
  ir::Block* else_block = n->add_block();
  {
    ir::WithInsertPoint guard(graph_, else_block);
    ir::Value* msg;
    if (stmt.msg) {
      msg = emit_expr(*stmt.msg);
      if (msg->type().kind != ir::TypeKind::Str) {
        msg = emit_op("aten::format", {constant(IValue("{}"), stmt.msg->range), msg},
                      stmt.msg->range);
      }
    } else {
      msg = constant(IValue(""), stmt.range);
    }
    ir::Node* raise = graph_.insert(ir::kind::RaiseException, {msg}, 0, stmt.range);
    raise->set_attr("kind", IValue("AssertionError"));
  }
  // `assert x is not None` (also `assert a is not None and b is not None`): past it,
  // the names are not None (TorchScript refines them there too).
  std::vector<std::string> names;
  not_none_names(*stmt.test, true, &names);
  refine_not_none(names, stmt.test->range);
}

void Lowerer::lower_expr_stmt(const ast::ExprStmt& stmt) {
  // A docstring or a bare literal does nothing.
  if (stmt.value->kind == ast::ExprKind::Str) return;
  (void)emit_sugared(*stmt.value);
}

// ------------------------------------------------------------------ functions

Sugared Lowerer::lower_function(const ast::FunctionDef& fn, const std::string& qualname,
                                std::vector<Sugared> args, const SourceRange& call_range,
                                int closure) {
  for (const Frame& f : frames_) {
    if (f.fn == &fn) {
      fail("recursive call to '" + qualname + "' cannot be converted", call_range,
           "the parse route inlines every call, so recursion never ends; write it as a loop");
    }
  }
  if (static_cast<int>(frames_.size()) >= options_.max_inline_depth) {
    fail("calls are nested more than " + std::to_string(options_.max_inline_depth) + " deep ('" +
             qualname + "')",
         call_range, "the parse route inlines every call; flatten the call chain");
  }
  frames_.push_back(Frame{&fn, qualname, 0, next_serial_++, closure, env_, false});
  Environment root(nullptr);
  Environment* saved = env_;
  env_ = &root;
  for (size_t i = 0; i < fn.params.size() && i < args.size(); ++i) {
    const Sugared& a = args[i];
    if (a.is_value() && a.value->debug_name().empty()) a.value->set_debug_name(fn.params[i].name);
    root.set(fn.params[i].name, Binding{a, {}, {}});
    if (fn.params[i].kind == ast::ParamKind::VarKw && a.kind != Sugared::Kind::Keywords) {
      root.poison(fn.params[i].name,
                  "'**" + fn.params[i].name +
                      "' cannot be read in the parse route (it has no dict values yet)",
                  kEagerRuns);
    }
  }
  std::function<void()> implicit_return;
  if (has_return(fn.body)) {
    // A path that falls off the end returns None, as in Python; merging it with the
    // other returns reports a function that returns a value only on some paths.
    implicit_return = [&] {
      env_->set_value(flag::RetVal, constant(IValue(), fn.range));
      bind_flag(flag::Ret, true);
      bind_flag(flag::Skip, true);
    };
  }
  // @torch.no_grad() / @torch.enable_grad(): the body's nodes carry the grad mode, as
  // a `with` body's do; the same recogniser as the `with` statement's.
  std::optional<bool> grad_enabled;
  for (const ast::ExprPtr& d : fn.decorators) {
    const ast::GradContext kind = ast::grad_context(*d);
    if (kind != ast::GradContext::Other) grad_enabled = kind == ast::GradContext::EnableGrad;
  }
  lower_in_grad_mode(grad_enabled, [&] { lower_statements(fn.body, implicit_return); });
  Sugared result;
  if (exit_state(*env_, flag::Ret) == ExitState::Always) {
    result = env_->lookup(flag::RetVal)->value;
  } else {
    result = Sugared::of(constant(IValue(), fn.range));
  }
  keep_closure_frame();
  env_ = saved;
  frames_.pop_back();
  return result;
}

void Lowerer::lower_module_body(const ast::Body& body) {
  Environment root(nullptr);
  env_ = &root;
  lower_body(body);
  env_ = nullptr;
}

}  // namespace d2s::convert
