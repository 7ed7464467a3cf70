// break / continue / early return without jumps, as TorchScript's exit_transforms
// does: the graph has no jumps, so an exit sets flags that later code tests.
//
// Three flags, bound like variables in the environment (lower_context.h, flag::):
//   $skip  the rest of the current loop iteration (or function body) must not run:
//          set by break, continue and return;
//   $stop  the loop must not start another iteration: set by break and return;
//   $ret   the function has returned; $retval holds what it returned.
// A flag that is unbound, or bound to a constant, is known at conversion time; only
// a flag merged from arms that disagree is a run-time value. So:
//  * after a statement whose $skip is known true (`return x`, or an If whose arms all
//    exit) the rest of the statement list is dead code and is not lowered;
//  * after an If of which one arm always exits, the rest of the list is lowered into
//    the other arm (no new If: TorchScript moves the rest into the non-exiting arm);
//  * after any other statement that may exit, the rest is guarded:
//        prim::If(%skip)  block0(): -> (...)      block1(): <rest> -> (...)
//  * a loop's continue condition is `not $stop` (and, for `while`, the test, evaluated
//    only when not stopping); $ret/$retval leave the loop as carried values;
//  * a function returns $retval; one that may fall off the end returns None there.
// The guards are opened and closed by GuardScope without recursion, so a list of
// N statements that may each return costs N nested blocks but no C++ stack.
#pragma once

#include <memory>
#include <vector>

#include "convert/lower_context.h"
#include "core/ir/ir.h"

namespace d2s::convert {

class Lowerer;

enum class ExitState { Never, Maybe, Always };

// The state of `flag` as seen from `env` (unbound = Never).
ExitState exit_state(const Environment& env, const char* flag);

// Nested prim::If guards opened while lowering one statement list, closed in reverse.
class GuardScope {
 public:
  explicit GuardScope(Lowerer& lowerer) : lowerer_(lowerer) {}
  GuardScope(const GuardScope&) = delete;
  GuardScope& operator=(const GuardScope&) = delete;

  // Lowering continues inside one arm of `if_node` (the one whose env is `cont_env`),
  // because the other arm (`exit_env`) always exits.
  void continue_in(ir::Node* if_node, std::unique_ptr<Environment> then_env,
                   std::unique_ptr<Environment> else_env, bool continue_in_then,
                   const SourceRange& range);
  // Emits `prim::If(cond)` whose then arm is empty (the exit already happened) and
  // continues in its else arm. `flag_name` is the flag `cond` holds.
  void guard(ir::Value* cond, const char* flag_name, const SourceRange& range);
  // Closes every open guard, innermost first, merging each If's arms.
  void close();
  bool empty() const { return open_.empty(); }

 private:
  struct Open {
    ir::Node* node;
    std::unique_ptr<Environment> then_env;
    std::unique_ptr<Environment> else_env;
    Environment* outer;
    ir::Node* outer_insert_point;
    SourceRange range;
  };
  void enter(Open open, bool in_then);
  Lowerer& lowerer_;
  std::vector<Open> open_;
};

}  // namespace d2s::convert
