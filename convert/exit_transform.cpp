#include "convert/exit_transform.h"

#include "convert/lowerer.h"

namespace d2s::convert {

ExitState exit_state(const Environment& env, const char* flag) {
  const Binding* b = env.lookup(flag);
  if (!b || b->is_poisoned() || !b->value.is_value()) return ExitState::Never;
  auto c = constant_bool(b->value.value);
  if (!c) return ExitState::Maybe;
  return *c ? ExitState::Always : ExitState::Never;
}

void GuardScope::enter(Open open, bool in_then) {
  ir::Graph& g = lowerer_.graph();
  ir::IfView view(open.node);
  Environment* env = in_then ? open.then_env.get() : open.else_env.get();
  g.set_insert_point(in_then ? view.then_block() : view.else_block());
  lowerer_.set_env(env);
  open_.push_back(std::move(open));
}

void GuardScope::continue_in(ir::Node* if_node, std::unique_ptr<Environment> then_env,
                             std::unique_ptr<Environment> else_env, bool continue_in_then,
                             const SourceRange& range) {
  Environment* outer = lowerer_.env();
  ir::Node* point = lowerer_.graph().insert_point();
  enter(Open{if_node, std::move(then_env), std::move(else_env), outer, point, range},
        continue_in_then);
}

void GuardScope::guard(ir::Value* cond, const char* flag_name, const SourceRange& range) {
  ir::Graph& g = lowerer_.graph();
  Environment* outer = lowerer_.env();
  ir::Node* n = g.insert(ir::kind::If, {cond}, 0, range);
  // Marked, so that tools matching Ifs to source `if` statements (the trace-vs-parse
  // diff) can tell this one was made by the lowering.
  n->set_attr("exit_guard", IValue(true));
  n->add_block();
  n->add_block();
  // In the then arm the guarded flag is known to be set, so the merge treats that arm
  // as exiting; in the else arm no exit has happened (flags false).
  auto then_env = std::make_unique<Environment>(outer);
  then_env->set_value(flag_name, lowerer_.bool_const(true));
  then_env->set_value(flag::Skip, lowerer_.bool_const(true));
  // A flag holding the very value tested is known there too: after a loop that may
  // return, $skip and $ret are one value, so the exited arm has surely returned.
  for (const char* f : {flag::Stop, flag::Ret}) {
    const Binding* b = outer->lookup(f);
    if (b && b->value.is_value() && b->value.value == cond) {
      then_env->set_value(f, lowerer_.bool_const(true));
    }
  }
  auto else_env = std::make_unique<Environment>(outer);
  for (const char* f : {flag::Skip, flag::Stop, flag::Ret}) {
    if (outer->lookup(f)) else_env->set_value(f, lowerer_.bool_const(false));
  }
  ir::Node* point = g.insert_point();
  enter(Open{n, std::move(then_env), std::move(else_env), outer, point, range}, false);
}

void GuardScope::close() {
  ir::Graph& g = lowerer_.graph();
  while (!open_.empty()) {
    Open o = std::move(open_.back());
    open_.pop_back();
    g.set_insert_point(o.outer_insert_point);
    lowerer_.set_env(o.outer);
    lowerer_.merge_arms(o.node, *o.then_env, *o.else_env, o.range);
  }
}

}  // namespace d2s::convert
