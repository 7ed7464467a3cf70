// The AST → IR lowering (internal to convert/): one function per statement and
// expression kind, in the style of TorchScript's ir_emitter.cpp, split by job:
//
//   lower_stmt.cpp     statement lists, assignments, return/break/continue, assert
//   lower_if.cpp       `if`, merging two arms' variables into prim::If outputs
//   lower_loop.cpp     `for` and `while` as prim::Loop, loop-carried variables
//   exit_transform.cpp guarding what follows a possible break/continue/return
//   lower_expr.cpp     expressions, operators, conditions (`and`/`or` as prim::If),
//                      f-strings, tuples and lists
//   lower_names.cpp    names, globals, builtins, attributes; static values
//   lower_subscript.cpp  x[i, a:b, None], x.shape[i], tuple and container indexing
//   lower_call.cpp     builtins, torch functions, tensor methods, user functions, and
//                      registry ops with overloads chosen by type (schema_match.h)
//   lower_module.cpp   module instances: attributes, parameters, built-in modules
//   lower.cpp          the driver: entry, globals, graph inputs, outputs, passes
//
// Code is emitted at the graph's insertion point, which WithInsertPoint scopes move
// into If/Loop blocks; `env_` is the innermost variable scope. The lowering iterates
// over statements and recurses only into nested blocks, expressions and inlined calls,
// whose depths are bounded by the parser's nesting limit and max_inline_depth.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "convert/lower.h"
#include "convert/lower_context.h"
#include "core/base/error.h"
#include "core/ir/ir.h"
#include "parse/ast.h"
#include "trace/functional_signatures.h"

namespace d2s::convert {

// The hint of every parse-route refusal of a construct the eager interpreter runs.
inline constexpr const char* kEagerRuns =
    "eager and trace modes run it (d2s run --mode eager, or --mode trace)";

// Names visible at the top level of the program: imports, defs, classes and global
// constants, plus the frozen module's parameters.
struct Globals {
  std::shared_ptr<const SourceFile> file;
  std::unordered_map<std::string, Sugared> names;
  std::unordered_map<std::string, IValue> constants;  // `N = 4` at the top level
  // Names the top level assigns by a computation (`device = torch.device(...)`): their
  // values come from the interpreter's run of the top level, when they are constants.
  std::vector<std::string> computed;
  std::unordered_map<std::string, const ast::ClassDef*> classes;
  std::unordered_map<std::string, ir::Value*> parameters;  // state_dict name → graph input
  // state_dict name → the one constant of a buffer, at the top of the graph, so that a
  // write into it (batch_norm's running statistics) is seen by every later read.
  std::unordered_map<std::string, ir::Value*> buffers;
  // Names imported from modules d2s does not implement: name → (module, import site).
  // Using one is an error (lower_class.cpp); importing it is not.
  std::unordered_map<std::string, std::pair<std::string, SourceRange>> foreign;
  // Standard-library modules d2s implements in part (numpy, numbers, collections,
  // functools, itertools, warnings): name bound → (module, import site). Their names
  // d2s knows resolve; any other is the foreign-module error (lower_stdlib.cpp).
  std::unordered_map<std::string, std::pair<std::string, SourceRange>> partial_modules;
  bool training = true;
};

// An argument at a call site, lowered.
struct CallArg {
  Sugared value;
  SourceRange range;
  const ast::Expr* expr = nullptr;  // for literal-specific handling; may be null
};
struct CallArgs {
  std::vector<CallArg> positional;
  std::vector<std::pair<std::string, CallArg>> keywords;
};

class GuardScope;

// The least type holding both (equal dims stay, different ones become unknown);
// nullopt when the kinds differ.
std::optional<ir::Type> join_types(const ir::Type& a, const ir::Type& b);
// The type of a variable that is None on one path and a T (or Optional[T]) on the
// other: Optional[T], as TorchScript unifies them; nullopt when neither may be None.
std::optional<ir::Type> join_optional(const ir::Type& a, const ir::Type& b);
// `x is not None` / `x is None` of a name: the name, and whether the test is true where
// x is not None (lower_if.cpp); nullopt for another expression.
std::optional<std::pair<std::string, bool>> none_test(const ast::Expr& test);
// The names `test` proves not None where its truth is `when_true` (`x is not None and
// y is not None` true: x and y; `x is None or y is None` false: x and y).
void not_none_names(const ast::Expr& test, bool when_true, std::vector<std::string>* out);

// "did you mean 'x'?" for the closest candidate, or empty.
std::string did_you_mean(const std::string& name, const std::vector<std::string>& candidates);

class Lowerer {
 public:
  Lowerer(ir::Graph& graph, Globals& globals, const LowerOptions& options, SourceRange entry_range);

  // Lowers `fn`'s body with its parameters bound to `args` (self first for methods)
  // and returns what it returns (None when it returns nothing). Used for the entry and
  // for every inlined call.
  Sugared lower_function(const ast::FunctionDef& fn, const std::string& qualname,
                         std::vector<Sugared> args, const SourceRange& call_range,
                         int closure = -1);
  // Lowers top-level statements (the `<module>` entry).
  void lower_module_body(const ast::Body& body);
  // Lowers a script (the `<module>` entry): its top-level statements, then its outputs,
  // the names ast::script_assigned_names lists that hold a tensor or a number at the
  // end (convert/lower_script.cpp).
  void lower_script(const ast::Module& module);

  // ----------------------------------------------------------- statements
  void lower_body(const ast::Body& body);
  // A statement list; `at_end` runs at its end when that is reachable (inside the
  // innermost exit guard), before the guards close.
  void lower_statements(const ast::Body& body, const std::function<void()>& at_end);
  void lower_stmt(const ast::Stmt& stmt, GuardScope& guards);
  void lower_assign(const ast::Assign& stmt);
  void lower_aug_assign(const ast::AugAssign& stmt);
  void lower_ann_assign(const ast::AnnAssign& stmt);
  void assign_target(const ast::Expr& target, const Sugared& value, const SourceRange& range);
  void lower_return(const ast::Return& stmt);
  void lower_break(const ast::Stmt& stmt);
  void lower_continue(const ast::Stmt& stmt);
  void lower_assert(const ast::Assert& stmt);
  void lower_expr_stmt(const ast::ExprStmt& stmt);
  void lower_if(const ast::If& stmt, GuardScope& guards);
  void lower_for(const ast::For& stmt);
  void lower_for_range(const ast::For& stmt, const ast::Call& call);
  // `iterator`: the items are taken from it one by one (the body may call next() too).
  void lower_unrolled(const ast::For& stmt, const std::vector<Sugared>& items,
                      IteratorState* iterator = nullptr);
  void lower_while(const ast::While& stmt);
  void lower_with(const ast::With& stmt);
  // Runs `lower`, then marks the nodes it emitted with the grad mode (ir::kAttrGradEnabled)
  // when there is one.
  void lower_in_grad_mode(std::optional<bool> grad_enabled, const std::function<void()>& lower);
  // A prim::Loop over `body`; `bind_target` binds the loop variable from the trip
  // index; `recompute_cond` (while loops) evaluates the test again after the body.
  void emit_loop(const ast::Stmt& stmt, const ast::Body& body, ir::Value* max_trips,
                 ir::Value* init_cond, const ast::Expr* target,
                 const std::function<void(ir::Value*)>& bind_target,
                 const std::function<ir::Value*()>& recompute_cond);

  // Merges the arms of `if_node` (then_env, else_env, both children of env_) into env_:
  // variables assigned in either arm become If outputs (lower_if.cpp).
  void merge_arms(ir::Node* if_node, Environment& then_env, Environment& else_env,
                  const SourceRange& range);

  // ----------------------------------------------------------- expressions
  ir::Value* emit_expr(const ast::Expr& expr);
  Sugared emit_sugared(const ast::Expr& expr);
  // A Python truth value as a bool value (aten::Bool for tensors and numbers).
  ir::Value* emit_condition(const ast::Expr& expr);
  ir::Value* emit_bool_op_value(const ast::BoolOp& op, const SourceRange& range);
  ir::Value* to_bool(ir::Value* v, const SourceRange& range);
  ir::Value* emit_not(ir::Value* cond, const SourceRange& range);
  // `a and b and c` (or `or`): nested prim::If, one per operand but the last.
  ir::Value* emit_short_circuit(const std::vector<std::function<ir::Value*()>>& terms, bool is_and,
                                const SourceRange& range);
  // Optional refinement (lower_if.cpp): binds each of `names` that holds an Optional
  // to prim::unchecked_cast of it in env_; returns the casts made.
  std::vector<std::pair<std::string, ir::Value*>> refine_not_none(
      const std::vector<std::string>& names, const SourceRange& range);
  // `emit()` in a scope of its own where `names` are refined (the right operand of
  // `x is not None and x.any()`, the arms of `a if x is not None else b`).
  ir::Value* emit_refined(const std::vector<std::string>& names, const SourceRange& range,
                          const std::function<ir::Value*()>& emit);
  // `c ? x : y`-style value Ifs: each arm callback returns the arm's value.
  template <typename ThenFn, typename ElseFn>
  ir::Value* emit_if_value(ir::Value* cond, const SourceRange& range, ThenFn then_fn,
                           ElseFn else_fn);
  Sugared emit_subscript(const ast::Subscript& expr);
  ir::Value* index_sequence(ir::Value* v, const ast::Subscript& expr);
  ir::Value* index_tensor(ir::Value* v, const ast::Subscript& expr);
  // `x[idx] = value` on a tensor, as the eager interpreter does it: the indexed part
  // taken down the select/slice chain, value put into it with the *_scatter ops back up
  // the chain, and the result written into x by aten::copy_ (so every alias sees it).
  void assign_tensor_item(const ast::Subscript& target, ir::Value* value);
  // The parts of a tensor subscript (lower_subscript.cpp): the basic steps (view op,
  // its *_scatter for writes, and their dim and bounds) and aten::index's indices
  // (null where a dimension is not indexed).
  struct IndexItem;
  struct SubscriptPlan {
    struct Step {
      const char* view;     // aten::select, aten::slice, aten::unsqueeze
      const char* scatter;  // its *_scatter; null for unsqueeze
      std::vector<ir::Value*> where;
    };
    std::vector<Step> steps;
    std::vector<ir::Value*> advanced;
    // x[idx] with idx a list or tuple of index tensors (nonzero(as_tuple=True),
    // where(cond)): the list, one tensor per leading dim; no steps then.
    ir::Value* spread = nullptr;
  };
  std::vector<IndexItem> emit_index_items(const ast::Subscript& e);
  SubscriptPlan plan_subscript(ir::Value* base, const ast::Subscript& e);
  SubscriptPlan plan_index_items(ir::Value* base, const std::vector<IndexItem>& items,
                                 const ast::Subscript& e);
  ir::Value* apply_subscript_plan(ir::Value* v, const SubscriptPlan& plan,
                                  const SourceRange& range);
  ir::Value* sequence_index(const ast::Expr& idx);
  ir::Value* index_list(const std::vector<ir::Value*>& advanced, const SourceRange& range);
  ir::Value* emit_binop(ast::BinOpKind op, ir::Value* lhs, ir::Value* rhs,
                        const SourceRange& range);
  ir::Value* emit_unary(ast::UnaryOpKind op, ir::Value* v, const SourceRange& range);
  ir::Value* emit_compare(ast::CmpOpKind op, ir::Value* lhs, ir::Value* rhs,
                          const SourceRange& range);
  ir::Value* emit_fstring(const ast::FString& expr);
  // What print and f-strings show for `v`: a whole shape (`x.shape`, `x.size()`, the
  // int[] of aten::size) as eager PyTorch writes a torch.Size, `torch.Size([2, 3])`,
  // through aten::format; any other value as it is. (docs/language.md, "print".)
  ir::Value* printed_form(ir::Value* v, const SourceRange& range);
  ir::Value* constant(const IValue& v, const SourceRange& range);
  ir::Value* as_value(const Sugared& s, const SourceRange& range);
  Sugared lookup_name(const std::string& name, const SourceRange& range);
  Sugared emit_attribute(const Sugared& base, const std::string& attr, const SourceRange& range);
  Sugared value_attribute(ir::Value* v, const std::string& attr, const SourceRange& range);
  // The value of `v` if it is known at conversion time (a constant, or pure scalar
  // code on constants), without changing the graph.
  std::optional<IValue> static_value(ir::Value* v, int depth = 0);

  // ----------------------------------------------------------- calls
  Sugared emit_call(const ast::Call& call);
  CallArgs emit_args(const ast::Call& call);
  Sugared call_sugared(const Sugared& callee, CallArgs args, const SourceRange& range);
  Sugared call_builtin(const std::string& qualname, CallArgs& args, const SourceRange& range);
  Sugared call_method(ir::Value* self, const std::string& name, CallArgs& args,
                      const SourceRange& range);
  Sugared call_user_function(const ast::FunctionDef& fn, const std::string& qualname,
                             std::optional<Sugared> self, CallArgs& args, const SourceRange& range,
                             int closure = -1);
  // Emits the registry op `base_name` (e.g. "aten::add") with overload resolution by
  // argument types; returns its result (a tuple value for several results).
  // F.batch_norm, F.dropout, F.dropout2d: their Python signature bound, then their op
  // (trace/functional_signatures.h; lower_layers.cpp).
  ir::Value* call_functional_signature(const interp::FunctionalSignature& sig, CallArgs& args,
                                       const SourceRange& range);
  ir::Value* emit_op(const std::string& base_name, const std::vector<CallArg>& positional,
                     const std::vector<std::pair<std::string, CallArg>>& keywords,
                     const SourceRange& range);
  ir::Value* emit_op(const std::string& base_name, const std::vector<ir::Value*>& positional,
                     const SourceRange& range);

  // ----------------------------------------------------------- modules
  Sugared module_attribute(const Sugared& module, const std::string& attr,
                           const SourceRange& range);
  // A function kept in an attribute that reads variables of the function that made it
  // (minGPT's `m = self.mlp; self.mlpf = lambda x: m.dropout(m.c_proj(...))` in
  // __init__): those variables, as the eager run left them, become a finished frame that
  // the inlined call reads as a nested def's (closure_binding). Made once per closure;
  // returns the frame's serial. `owner` is the module holding the attribute: modules
  // among the variables are found among its submodules, for their state_dict names.
  int eager_closure_frame(const interp::Closure& closure, const ModuleRef& owner,
                          const SourceRange& range);
  Binding eager_binding(const std::string& name, const IValue& v, const ModuleRef& owner,
                        const SourceRange& range);
  // A constant placed first in the graph, so that it dominates every use.
  ir::Value* constant_at_top(const IValue& v, const SourceRange& range);
  Sugared call_module(const Sugared& module, CallArgs& args, const SourceRange& range);
  // The forward of a built-in module (nn.Linear, nn.Sequential, ...), also for a class
  // deriving from nn.Sequential that calls super().forward(x).
  Sugared call_nn_forward(const Sugared& module, CallArgs& args, const SourceRange& range);
  // The forward of a convolution, pooling or Flatten layer: its op (lower_layers.cpp).
  // `output_padding`, when given, replaces a transposed convolution's (output_size=).
  Sugared call_layer_forward(const Sugared& module, ir::Value* x, const SourceRange& range,
                             ir::Value* output_padding = nullptr);
  // ConvTranspose{1,2}d.forward(x, output_size): the output_padding list PyTorch computes,
  // checked when the graph runs (lower_conv_transpose.cpp).
  ir::Value* conv_transpose_output_padding(const interp::InstanceValue& inst, ir::Value* x,
                                           ir::Value* output_size, const SourceRange& range);
  // The forward of nn.Embedding and the recurrent layers, with their optional state
  // (lower_rnn.cpp).
  Sugared call_recurrent_forward(const Sugared& module, CallArgs& args, const SourceRange& range);
  // The forward of nn.MultiheadAttention and nn.TransformerEncoder(Layer): a composition
  // of ops (lower_attention.cpp).
  Sugared call_attention_forward(const Sugared& module, CallArgs& args, const SourceRange& range);
  // F.embedding(input, weight, padding_idx=None, ...) as aten::embedding(weight, input, ...).
  Sugared call_functional_embedding(CallArgs& args, const SourceRange& range);
  // torch.nonzero / x.nonzero with as_tuple= (lower_tensorops.cpp); `args` include self.
  Sugared call_nonzero(CallArgs& args, const SourceRange& range);
  Sugared call_type_info(const std::string& q, CallArgs& args, const SourceRange& range);
  // F.interpolate / F.upsample (lower_layers.cpp): the op trace/interpolate.h chooses.
  Sugared call_functional_interpolate(const std::string& fname, CallArgs& args,
                                      const SourceRange& range);
  // The children of a Sequential / ModuleList, for unrolled iteration and indexing.
  std::vector<Sugared> module_children(const Sugared& module, const SourceRange& range);
  // What iterating over a module container gives: its modules, or a ModuleDict's keys.
  std::vector<Sugared> module_items(const Sugared& module, const SourceRange& range);
  // keys(), values(), items() of an nn.ModuleDict, unrolled (lower_module.cpp).
  Sugared call_module_dict_method(const Sugared& method, CallArgs& args, const SourceRange& range);
  // d["key"] of an nn.ModuleDict with a key known at conversion time.
  Sugared module_dict_item(const Sugared& module, const ast::Expr& key, const SourceRange& range);
  const ast::FunctionDef* find_method(const std::string& class_name,
                                      const std::string& method) const;

  // ----------------------------------------------------------- classes (lower_class.cpp)
  // super() / super(Cls, self) in a method: a Sugared Super for `self`.
  Sugared make_super(CallArgs& args, const SourceRange& range);
  // super().attr: the base class's method, bound to the same instance.
  Sugared super_attribute(const Sugared& sup, const std::string& attr, const SourceRange& range);
  // Cls.attr: a class attribute (`expansion = 4`) or a method, from the class body or
  // its bases; null when the classes do not define it.
  std::optional<Sugared> class_attribute(const std::string& class_name, const std::string& attr,
                                         const SourceRange& range);
  // The class a user class derives from ("" for nn.Module and other built-in bases).
  std::string base_class(const std::string& class_name) const;
  // type(), isinstance(), hasattr(), getattr() of modules and values, decided at
  // conversion time; null for another builtin.
  std::optional<Sugared> call_reflection(const std::string& q, CallArgs& args,
                                         const SourceRange& range);
  // The values `*x` spreads into a call, when its length is known at conversion time.
  std::vector<Sugared> spread_items(const ast::Starred& starred);

  // ------------------------------------- lambdas, comprehensions (lower_functional.cpp)
  // A nested def or lambda, closing over the function being lowered.
  Sugared make_closure(const ast::FunctionDef& def, const std::string& name);
  // A variable of the functions around the running nested function; null if none.
  const Binding* closure_binding(const std::string& name) const;
  // Keeps the running frame's variables for the nested functions it made.
  void keep_closure_frame();
  Sugared emit_comp(const ast::Comp& e);
  // What a comprehension makes: items known at conversion time, or, once a clause's
  // length or a filter is known only at run time, a list appended to (lower_functional.cpp);
  // a dict comprehension's entries are set in its dict as they come.
  struct CompOut {
    std::vector<ir::Value*> items;
    ir::Value* list = nullptr;
    ir::Value* dict = nullptr;  // a dict comprehension's dict, written item by item
    void add(Lowerer& l, ir::Value* v, const SourceRange& range);
    void go_dynamic(Lowerer& l, const SourceRange& range);
  };
  void comp_level(const ast::Comp& e, size_t level, CompOut* out);
  // A comprehension clause's iterable: its items when known at conversion time, else
  // its trip count and how to read the item of a trip.
  struct CompIterable {
    std::optional<std::vector<Sugared>> items;
    ir::Value* trips = nullptr;
    std::function<ir::Value*(ir::Value*)> item_at;
  };
  std::optional<CompIterable> comp_iterable(const ast::Expr& iter);
  // ------------------- iterables of run-time length (lower_iter_runtime.cpp)
  // A tensor's rows or a list's items, read trip by trip; nullopt for another value.
  std::optional<CompIterable> runtime_items(ir::Value* x, const SourceRange& r);
  // enumerate(...) / zip(...) of which an argument's length is known only when the
  // graph runs: the trips (zip: the shortest) and an (index, item...) tuple per trip;
  // nullopt when every length is known at conversion time (they unroll).
  std::optional<CompIterable> runtime_enumerate_zip(const std::string& q, const CallArgs& args,
                                                    const SourceRange& range);
  // The items of such an iterable in a list, filled by a prim::Loop.
  ir::Value* runtime_list(const CompIterable& it, const SourceRange& range);
  // sum / any / all over such an iterable, as a prim::Loop; nullopt otherwise.
  std::optional<Sugared> runtime_reduce(const std::string& q, CallArgs& args,
                                        const SourceRange& range);
  // The items of an iterable whose length is known at conversion time.
  std::optional<std::vector<Sugared>> known_items(const ast::Expr& iter);
  std::optional<std::vector<Sugared>> items_of(const Sugared& v, const SourceRange& range);
  std::vector<Sugared> require_items(const Sugared& v, const std::string& what,
                                     const SourceRange& range);
  // next(), iter() and a module's parameters() / named_parameters() (lower_iter.cpp).
  // An iterator over `items`, made here; next() / a for loop take its next item (null
  // when none is left; an error where its position is not known); the items it has
  // left for a builtin or comprehension that reads them all.
  Sugared make_iterator(std::vector<Sugared> items);
  const Sugared* advance_iterator(IteratorState& it, const std::string& what,
                                  const SourceRange& range);
  std::vector<Sugared> iterator_rest(const Sugared& it, const SourceRange& range);
  std::optional<Sugared> call_next_iter(const std::string& q, CallArgs& args,
                                        const SourceRange& range);
  bool is_parameter_walk(const interp::InstanceValue& inst, const std::string& attr) const;
  Sugared call_parameter_walk(const Sugared& method, CallArgs& args, const SourceRange& range);
  // enumerate, zip, sum, any, all, list, tuple, reversed, range; null for another name.
  std::optional<Sugared> call_iter_builtin(const std::string& q, CallArgs& args,
                                           const SourceRange& range);
  // `x in items` / `not in` over items of known length; null otherwise.
  std::optional<Sugared> emit_in(ast::CmpOpKind op, const Sugared& lhs, const Sugared& rhs,
                                 const SourceRange& range);
  // ------------------------------------------------ lists that change (lower_list.cpp)
  // The items of a list known at conversion time: a prim::ListConstruct's inputs while
  // nothing writes into the list; null for a list of run-time length. The read is
  // remembered, so that a later write in the same prim::Loop body is refused.
  std::optional<std::vector<ir::Value*>> static_list_items(ir::Value* v, const SourceRange& range);
  bool list_changes(ir::Value* v) const;
  // Marks the lists a loop body writes into by name as changing, before it is lowered.
  void mark_loop_list_writes(const ast::Body& body);
  void note_list_write(ir::Value* list, const SourceRange& range);
  // index/count/remove/sort compare items: lists of numbers, bools and strings only.
  void require_comparable_items(ir::Value* list, const std::string& method,
                                const SourceRange& range);
  // xs.sort(reverse=...), and sorted(xs) on a copy.
  void list_sort(ir::Value* list, CallArgs& args, const SourceRange& range);
  // The item type of a list from what is put into it; an error for a second type.
  void refine_list_element(ir::Value* list, ir::Value* item, const SourceRange& range);
  void refine_list_element(ir::Value* list, const ir::Type& item, const SourceRange& range);
  ir::Value* list_item_at(ir::Value* list, ir::Value* index, const SourceRange& range);
  Sugared call_list_method(ir::Value* self, const std::string& name, CallArgs& args,
                           const SourceRange& range);
  ir::Value* as_list(ir::Value* v, const SourceRange& range);
  ir::Value* list_copy(ir::Value* list, const SourceRange& range);
  ir::Value* list_concat(ir::Value* lhs, ir::Value* rhs, const SourceRange& range);
  ir::Value* list_add_inplace(ir::Value* list, ir::Value* more, const SourceRange& range);
  void assign_list_item(ir::Value* list, const ast::Subscript& target, ir::Value* value);
  void lower_for_list(const ast::For& stmt, ir::Value* list);
  ir::Value* list_slice(ir::Value* list, const ast::Slice& s);

  // ------------------------------------------------ dicts (lower_dict.cpp)
  // `{k: v, **d}`: prim::DictConstruct (and aten::update for a spread).
  ir::Value* emit_dict(const ast::DictExpr& e);
  // dict(...) of a dict or of keywords.
  Sugared call_dict_builtin(CallArgs& args, const SourceRange& range);
  // A dict's key or value type widened by one more (`what`: "key" or "value"); an
  // error when they have no common type.
  ir::Type dict_join(const ir::Type& have, const ir::Type& item, const char* what,
                     const SourceRange& range);
  // The dict's types from a key and value put into it (`{}` gets them from its first).
  void refine_dict(ir::Value* dict, const ir::Type& key, const ir::Type& value,
                   const SourceRange& range);
  // `key`, checked against the dict's key type.
  ir::Value* dict_key(ir::Value* dict, ir::Value* key, const SourceRange& range);
  ir::Value* dict_item(ir::Value* dict, ir::Value* key, const SourceRange& range);
  void dict_set_item(ir::Value* dict, ir::Value* key, ir::Value* value, const SourceRange& range);
  void assign_dict_item(ir::Value* dict, const ast::Subscript& target, ir::Value* value);
  void delete_dict_item(ir::Value* dict, const ast::Subscript& target);
  ir::Value* dict_contains(ir::Value* dict, ir::Value* key, const SourceRange& range);
  // d.keys(), d.values(), d.items() (`which`): a new list.
  ir::Value* dict_list(ir::Value* dict, const char* which, const SourceRange& range);
  ir::Value* dict_copy(ir::Value* dict, const SourceRange& range);
  void dict_update(ir::Value* dict, ir::Value* more, const SourceRange& range);
  Sugared call_dict_method(ir::Value* self, const std::string& name, CallArgs& args,
                           const SourceRange& range);
  // A module attribute holding a dict of str or int keys and constant values of one type
  // (a vocabulary, a table of sizes): a prim::DictConstruct of constants that the graph
  // may read but not change; nullopt for another value.
  std::optional<ir::Value*> frozen_dict(const IValue& v, const SourceRange& range);
  // Refuses a write into such a dict.
  void note_dict_write(ir::Value* dict, const SourceRange& range);
  // The entry of such a dict for a key known at conversion time; null otherwise.
  ir::Value* frozen_dict_entry(ir::Value* dict, ir::Value* key);

  // ------------------------- `**kwargs` (lower_kwargs.cpp)
  // The keywords a `**param` gathered, known at conversion time (Sugared::Kind::Keywords).
  Sugared make_keywords(const std::string& param, std::vector<std::string> keys,
                        std::vector<Sugared> values);
  // A key of `kw` written as a string (anything else is refused).
  std::string keywords_key(const Sugared& kw, const Sugared& key, const SourceRange& range);
  std::vector<Sugared> keywords_keys(const Sugared& kw, const SourceRange& range);
  Sugared keywords_item(const Sugared& kw, const Sugared& key, const SourceRange& range);
  // `kw` as a graph value: a prim::DictConstruct of its entries (one value type).
  ir::Value* keywords_dict(const Sugared& kw, const SourceRange& range);
  // `f(**kw)`: its entries appended to the call's keywords.
  void spread_keywords(const Sugared& kw, const SourceRange& range, CallArgs* args);
  Sugared keywords_attribute(const Sugared& kw, const std::string& attr, const SourceRange& range);
  Sugared call_keywords_method(const Sugared& method, CallArgs& args, const SourceRange& range);
  [[noreturn]] void refuse_keywords_write(const Sugared& kw, const SourceRange& range);

  void lower_raise(const ast::Raise& stmt);
  void lower_try(const ast::Try& stmt);
  void lower_delete(const ast::Delete& stmt);

  // ------------------------- standard-library pieces (lower_stdlib.cpp)
  // `np.pi`, `numbers.Number`, `functools.partial`: a name of a module d2s implements
  // in part (`module` is its canonical name); the foreign-module error for others.
  Sugared stdlib_attribute(const std::string& module, const std::string& attr,
                           const SourceRange& range);
  // Calls of those names; null for another name.
  // `P(a, b=...)` of a namedtuple class whose fields the program writes as literals: the
  // fields known item by item (Sugared::Kind::Items), as a namedtuple that __init__ keeps.
  Sugared make_namedtuple(const Sugared& cls, CallArgs& args, const SourceRange& range);
  std::optional<Sugared> call_stdlib(const std::string& q, CallArgs& args,
                                     const SourceRange& range);
  // A functools.partial called: its callee, the stored arguments first.
  Sugared call_partial(const Sugared& partial, CallArgs args, const SourceRange& range);
  // A module attribute holding a namedtuple or a functools.partial, as the parse route
  // uses it; null for another object.
  std::optional<Sugared> python_object(const IValue& v, const SourceRange& range);

  // ----------------------------------------------------------- helpers
  ir::Graph& graph() { return graph_; }
  Environment* env() { return env_; }
  void set_env(Environment* e) { env_ = e; }
  // The shared `True` / `False` constants (at the top of the graph).
  ir::Value* bool_const(bool value);
  ir::Value* uninitialized(const ir::Type& type, const SourceRange& range);
  // Tuple items of a tuple value: the TupleConstruct's inputs when it made the value,
  // else a prim::TupleUnpack.
  std::vector<ir::Value*> tuple_items(ir::Value* tuple, const SourceRange& range);
  std::vector<Sugared> unpack(const Sugared& value, const SourceRange& range);
  ir::Value* make_tuple(const std::vector<ir::Value*>& items, const SourceRange& range);
  ir::Value* make_list(const std::vector<ir::Value*>& items, const SourceRange& range);
  [[noreturn]] void fail(const std::string& message, const SourceRange& range,
                         const std::string& hint = {}) const;
  // The source text of a range (one line), for messages.
  std::string text_of(const SourceRange& range) const;
  const LowerOptions& options() const { return options_; }
  Globals& globals() { return globals_; }

 private:
  void bind_flag(const char* name, bool value);
  // Loops enclosing the statement being lowered, in the current function.
  int& loop_depth() { return frames_.empty() ? module_loop_depth_ : frames_.back().loop_depth; }

  ir::Graph& graph_;
  Globals& globals_;
  const LowerOptions& options_;
  SourceRange entry_range_;
  Environment* env_ = nullptr;
  ir::Value* true_ = nullptr;
  ir::Value* false_ = nullptr;
  // The inlining stack: the function being lowered last.
  struct Frame {
    const ast::FunctionDef* fn;
    std::string name;
    int loop_depth = 0;
    int serial = 0;                    // this inlined call, for closures made in it
    int closure = -1;                  // the call whose variables this nested function reads
    Environment* outer_env = nullptr;  // the caller's scope when this call began
    bool made_closure = false;
  };
  std::vector<Frame> frames_;
  int next_serial_ = 0;
  struct FinishedFrame {
    std::unique_ptr<Environment> env;
    int closure = -1;
  };
  std::unordered_map<int, FinishedFrame> finished_frames_;
  std::unordered_map<const interp::Closure*, int> eager_closures_;  // eager_closure_frame
  int module_loop_depth_ = 0;
  // Lists written into (lower_list.cpp), and the prim::Loop bodies being lowered with
  // the lists whose items were read at conversion time inside them.
  std::unordered_set<const ir::Value*> changing_lists_;
  // Dicts made from module attributes (lower_dict.cpp's frozen_dict).
  std::unordered_set<const ir::Value*> frozen_dicts_;
  struct LoopBody {
    const ir::Block* block;
    std::vector<std::pair<const ir::Value*, SourceRange>> static_reads;
  };
  std::vector<LoopBody> loop_bodies_;
};

template <typename ThenFn, typename ElseFn>
ir::Value* Lowerer::emit_if_value(ir::Value* cond, const SourceRange& range, ThenFn then_fn,
                                  ElseFn else_fn) {
  if (auto c = constant_bool(cond)) return *c ? then_fn() : else_fn();
  ir::Node* n = graph_.insert(ir::kind::If, {cond}, 1, range);
  ir::Block* then_block = n->add_block();
  ir::Block* else_block = n->add_block();
  ir::Value* a;
  ir::Value* b;
  {
    ir::WithInsertPoint guard(graph_, then_block);
    a = then_fn();
    then_block->register_output(a);
  }
  {
    ir::WithInsertPoint guard(graph_, else_block);
    b = else_fn();
    else_block->register_output(b);
  }
  auto t = join_types(a->type(), b->type());
  if (!t) {
    fail("the two branches give values of different types: " + a->type().str() + " and " +
             b->type().str(),
         range, "both sides of `a if c else b` need one type; convert one (e.g. float(x))");
  }
  n->output()->set_type(*t);
  return n->output();
}

// Collects every name a statement list assigns (targets, for-loop targets,
// augmented assignments), nested blocks included, in first-assignment order.
std::vector<std::string> assigned_names(const ast::Body& body);

}  // namespace d2s::convert
