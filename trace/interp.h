// The tree-walking interpreter behind trace/interpreter.h. Internal to trace/.
//
// One Interpreter holds one run's state: the module's globals, the generator, the
// call stack and the loop counters. Statements of a block run in a loop; C++
// recursion happens only for nesting (bounded by the parser's nesting limit) and for
// calls (bounded by Limits::max_call_depth), and a stack-depth guard backs both up.
//
// The work is split by job:
//   interp_stmt.cpp  statements, blocks, loops, assignment targets, def and class
//   interp_expr.cpp  expressions, names, attributes
//   interp_index.cpp subscripts: Python indexing, tensor indexing, item assignment
//   interp_call.cpp  calls: user functions, the op path (call_op), tensor methods
//   py_ops.cpp       Python semantics: truth values, operators, comparisons
//   py_format.cpp    str()/repr(), f-string format specs, did-you-mean suggestions
//   builtins.cpp     print, len, range, int, float, min, max, ...; iteration
//   py_methods.cpp   methods of list, tuple, str, torch.Size and nn modules
//   torch_names.cpp  torch / nn / F / math names, and the torch functions d2s handles itself
//   py_classes.cpp   super(Cls, self), classes deriving from nn containers, foreign names
//   nn_modules.cpp   nn.Linear, nn.ReLU, ..., nn.Sequential; parameters
//   entry.cpp        Program: the entry, inputs, weights, the large-stack thread
//
// convert/ builds entry modules with this class too (exec_module, call_value,
// set_training, InstanceValue): keep those stable.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/base/error.h"
#include "core/ops/op_registry.h"
#include "core/tensor/gc.h"
#include "core/tensor/ivalue.h"
#include "core/tensor/random.h"
#include "parse/ast.h"
#include "trace/interpreter.h"
#include "trace/py_objects.h"

namespace d2s::interp {

// The longest list, tuple or str a program may build by repetition or list(range(...)).
inline constexpr int64_t kMaxSequenceItems = 10'000'000;

// How a statement left: on to the next one, or out of the enclosing loop / function.
enum class Flow { Normal, Break, Continue, Return };

// The local names of a function (Python: every name assigned anywhere in its body,
// plus its parameters), each with a slot in the frame.
struct FunctionInfo {
  std::unordered_map<std::string, int> slots;
  std::vector<std::string> names;
};

struct Frame {
  const FunctionInfo* info = nullptr;  // null at module level: names are globals
  std::shared_ptr<LocalSlots> locals = std::make_shared<LocalSlots>();
  const FunctionValue* function = nullptr;  // the running function, for super()
  std::shared_ptr<Closure> closure;         // the running function's enclosing frames
  // The variables of the comprehensions running in this frame (their own scope, as in
  // Python 3), innermost last; read before the frame's locals.
  std::vector<std::pair<std::string, IValue>> comp_vars;
  // The exceptions being handled (`raise` alone re-raises the last).
  std::vector<IValue> handling;
  // While a class body runs, its assignments go here; its defs become methods of
  // `owner` named `class_name.f`.
  std::unordered_map<std::string, IValue>* class_ns = nullptr;
  std::string class_name;
  std::weak_ptr<ClassValue> owner;
  IValue return_value;
};

// Where a parameter was created, for error messages about weights.
struct ParamSite {
  Tensor tensor;
  SourceRange range;
};

class Interpreter {
 public:
  Interpreter(const ast::Module& module, const RunOptions& opts);

  void set_hooks(InterpreterHooks* hooks) { hooks_ = hooks; }
  void set_out(std::ostream* out);
  // The stack this run executes on: its base (an address near the top of the thread's
  // stack) and how many bytes calls and nesting may use below it.
  void set_stack(const char* base, size_t budget) {
    stack_base_ = base;
    stack_budget_ = budget;
  }
  InterpreterHooks* hooks() const { return hooks_; }
  CompileHook* compile_hook() const { return compile_hook_; }
  ExportHook* export_hook() const { return export_hook_; }
  const ast::Module& module() const { return module_; }
  std::ostream* out() const { return out_; }
  // The nn.Module instances held by global names, for a compiled function to call.
  std::vector<std::pair<std::string, std::shared_ptr<InstanceValue>>> global_modules() const;
  // `fn` as a decorated def binds it: wrapped when a decorator is torch.compile or
  // torch.jit.script (trace/compiled_function.cpp), itself otherwise.
  IValue apply_compile_decorators(const ast::FunctionDef& def, IValue fn);
  Generator& generator() { return generator_; }
  const Limits& limits() const { return limits_; }

  // Runs the module's top-level statements.
  void exec_module();
  // A module-level name, or null.
  const IValue* global(const std::string& name) const;

  // Calls any callable value with evaluated arguments. `site` is the call expression
  // when there is one (builtins use its argument ranges in messages and hooks).
  IValue call_value(const IValue& callee, ValueList args, Kwargs kwargs, const SourceRange& range,
                    const ast::Call* site = nullptr);

  // --- the op path: every op of the registry runs through here (interp_call.cpp).
  IValue call_op(std::string_view op, ValueList args, Kwargs kwargs, const SourceRange& range);

  // --- Python semantics (py_ops.cpp)
  // Truth value; for tensors and symbolic values this is a PyConversion::Bool.
  bool truthy(const IValue& v, const SourceRange& range);
  // A plain Python value for `v`: SymbolicValues through the hooks; others unchanged.
  IValue concrete(const IValue& v, PyConversion kind, const SourceRange& range);
  // Reports a conversion of a tensor-derived value to the hooks (no-op without hooks).
  IValue converted(PyConversion kind, const IValue& from, IValue python, const SourceRange& range);
  IValue binary(ast::BinOpKind op, const IValue& lhs, const IValue& rhs, const SourceRange& range,
                bool inplace = false);
  IValue compare(ast::CmpOpKind op, const IValue& lhs, const IValue& rhs, const SourceRange& range);
  bool py_equal(const IValue& a, const IValue& b, const SourceRange& range);
  IValue unary(ast::UnaryOpKind op, const IValue& v, const SourceRange& range);
  // A Python int from an int, bool or (through concrete()) a symbolic int; TypeError
  // naming `what` otherwise. Tensors of one integer element are accepted as Python's
  // __index__ accepts them.
  int64_t to_index(const IValue& v, PyConversion kind, const SourceRange& range,
                   const std::string& what);
  // The concrete value of a SymbolicValue without telling the hooks (for checks that
  // do not decide anything, such as division by zero before an op).
  IValue concrete_silently(const IValue& v) const;
  // Python's checks before arithmetic on two numbers (division by zero, operand types);
  // the kernels check 64-bit overflow.
  void check_number_op(ast::BinOpKind op, const IValue& l, const IValue& r,
                       const std::string& symbol, const SourceRange& range) const;
  // A Python number (int/float/bool) from a number or symbolic number; null otherwise.
  std::optional<IValue> to_number(const IValue& v, PyConversion kind, const SourceRange& range);
  std::string format_value(const IValue& v, const std::string& spec, const SourceRange& range);
  // str(v) and repr(v) as Python writes them (torch.Size, dtypes and modules too).
  std::string py_str(const IValue& v) const;
  std::string py_repr(const IValue& v) const;
  std::string text_of_value(const IValue& v, bool repr, std::vector<const ValueList*>* open) const;

  // --- names, attributes, subscripts (interp_expr.cpp)
  IValue eval(const ast::Expr& e);
  IValue getattr(const IValue& obj, const std::string& attr, const SourceRange& range,
                 const ast::Expr* obj_expr = nullptr);
  void setattr(const IValue& obj, const std::string& attr, IValue value, const SourceRange& range);
  IValue subscript(const IValue& obj, const ValueList& index, const ast::Subscript& e);
  void setitem(const IValue& obj, const ValueList& index, IValue value, const ast::Subscript& e);

  // --- builtins and torch names (builtins.cpp, torch_names.cpp)
  IValue call_builtin(const BuiltinValue& fn, ValueList args, Kwargs kwargs,
                      const SourceRange& range, const ast::Call* site);
  IValue call_builtin_method(const IValue& self, const std::string& name, ValueList args,
                             Kwargs kwargs, const SourceRange& range, const ast::Call* site);
  // The value of a canonical dotted name (`torch.nn.functional.relu`); `written` is
  // how the program spelled it, for messages.
  IValue resolve_qualified(const std::string& qualname, const std::string& written,
                           const SourceRange& range);
  IValue call_torch(const BuiltinValue& fn, ValueList args, Kwargs kwargs, const SourceRange& range,
                    const ast::Call* site);
  IValue call_plain_op(const std::string& op, ValueList args, Kwargs kwargs,
                       const SourceRange& range);
  // Python's iteration: the items of a list, tuple, torch.Size, str, range (small),
  // tensor (rows through aten::unbind, as Tensor.__iter__) or nn container.
  ValueList iterate(const IValue& v, const SourceRange& range);

  // Tensor methods d2s knows: its own (item, size, ...) and those op_for_method maps.
  bool tensor_method_supported(const std::string& name) const;
  std::vector<std::string> tensor_method_names() const;

  // --- classes (py_classes.cpp): super(Cls, self), nn container bases, foreign names
  // super(Cls, self): attribute lookup from the base of Cls, for `self`.
  IValue super_of(const ValueList& args, const SourceRange& range);
  // Sets a module-level name (`__name__` before the top level runs).
  void set_global(const std::string& name, IValue value) { globals_[name] = std::move(value); }
  // nn.Sequential(*mods) / nn.ModuleList(mods): registers the modules of `inst` as
  // children "0", "1", ...; `fname` names the constructor in messages.
  void fill_container(InstanceValue& inst, ValueList args, Kwargs kwargs, const std::string& fname,
                      const SourceRange& range);
  // The error for using a name from a module d2s does not implement.
  [[noreturn]] void fail_foreign(const ForeignValue& f, const std::string& used,
                                 const SourceRange& range) const;

  // --- nn modules (nn_modules.cpp)
  IValue construct_nn(const std::string& qualname, ValueList args, Kwargs kwargs,
                      const SourceRange& range);
  IValue forward_nn(InstanceValue& m, ValueList args, Kwargs kwargs, const SourceRange& range);
  IValue make_parameter(const Tensor& t, bool requires_grad, const SourceRange& range);
  bool is_parameter(const Tensor& t) const;
  // PyTorch's repr(module): `Linear(in_features=10, out_features=5, bias=True)`.
  std::string module_repr(const InstanceValue& m, int depth = 0) const;
  void set_training(InstanceValue& m, bool on);
  // named_parameters() of `m`: own parameters in registration order, then children's.
  void collect_parameters(const InstanceValue& m, const std::string& prefix,
                          std::vector<std::pair<std::string, ParamSite>>* out) const;

  // --- module state and structure (py_module_state.cpp): register_buffer,
  // register_parameter, buffers(), named_buffers(), modules(), named_modules(),
  // children(), named_children(), apply(fn).
  static bool is_module_state_method(const std::string& name);
  IValue call_module_state_method(const IValue& self, InstanceValue& inst, const std::string& name,
                                  ValueList args, Kwargs kwargs, const SourceRange& range);
  // The buffers of `m` and its submodules as state_dict names them (own buffers in
  // registration order, then each child's); None buffers are left out, and with
  // `persistent_only` those registered with persistent=False.
  static void collect_buffers(const InstanceValue& m, const std::string& prefix,
                              bool persistent_only,
                              std::vector<std::pair<std::string, Tensor>>* out);

  // --- nn.ModuleDict (py_module_dict.cpp): submodules by string key, in insertion
  // order; the keys are the children's names (state_dict `heads.a.weight`).
  static bool is_module_dict(const IValue& v);
  static bool is_module_dict_method(const std::string& name);
  // Fills a new ModuleDict from its constructor's argument (a dict, an OrderedDict, a
  // list of (key, module) pairs or another ModuleDict; None for an empty one).
  void module_dict_update(const IValue& d, const IValue& source, const SourceRange& range);
  IValue module_dict_getitem(const IValue& d, const IValue& key, const SourceRange& range);
  void module_dict_setitem(const IValue& d, const IValue& key, IValue value,
                           const SourceRange& range);
  bool module_dict_contains(const IValue& d, const IValue& key) const;
  ValueList module_dict_keys(const IValue& d) const;
  IValue call_module_dict_method(const IValue& d, const std::string& name, ValueList args,
                                 Kwargs kwargs, const SourceRange& range);

  // --- the standard library pieces model files use for structure (py_stdlib.cpp):
  // collections.OrderedDict / namedtuple, functools.partial, itertools basics,
  // warnings.warn, numbers; and numpy's construction-time calls (py_numpy.cpp). Their
  // modules import as foreign modules; these names resolve to values (or null).
  static std::optional<IValue> stdlib_value(const std::string& qualname);
  IValue call_stdlib_name(const std::string& qualname, ValueList args, Kwargs kwargs,
                          const SourceRange& range);
  static std::optional<IValue> numpy_value(const std::string& qualname);
  IValue call_numpy_name(const std::string& qualname, ValueList args, Kwargs kwargs,
                         const SourceRange& range);

  // --- copy.deepcopy (py_deepcopy.cpp)
  static bool is_copy_name(const std::string& qualname);
  IValue call_copy_name(const std::string& qualname, ValueList args, Kwargs kwargs,
                        const SourceRange& range);

  // --- @dataclass config classes (py_dataclass.cpp)
  static bool is_dataclass_name(const std::string& qualname);
  IValue call_dataclass_name(const std::string& qualname, ValueList args, Kwargs kwargs,
                             const SourceRange& range);
  // After a class body ran: records its fields when a decorator is dataclasses.dataclass.
  void apply_dataclass(ClassValue& cls, const ast::ClassDef& s);
  // The generated __init__ of a dataclass `cls` (false when it is none).
  bool dataclass_init(const std::shared_ptr<ClassValue>& cls, const IValue& self, ValueList args,
                      Kwargs kwargs, const SourceRange& range);

  // The source text of a range (one line), for hooks and messages.
  static std::string text_of(const SourceRange& range);
  // Guards the C++ stack: a clear error long before it could overflow.
  void check_stack(const SourceRange& range) const;
  [[noreturn]] void fail(const std::string& message, const SourceRange& range,
                         const std::string& hint = "") const;

 private:
  // --- statements (interp_stmt.cpp)
  Flow exec_block(const ast::Body& body);
  Flow exec_stmt(const ast::Stmt& s);
  Flow exec_if(const ast::If& s);
  Flow exec_for(const ast::For& s);
  Flow exec_while(const ast::While& s);
  Flow exec_with(const ast::With& s);
  void exec_aug_assign(const ast::AugAssign& s);
  void exec_assert(const ast::Assert& s);
  void exec_import(const ast::Import& s);
  void exec_import_from(const ast::ImportFrom& s);
  void exec_def(const ast::FunctionDef& s);
  void exec_class(const ast::ClassDef& s);
  // --- lambdas, comprehensions, closures, exceptions, del (interp_functional.cpp)
  Flow exec_try(const ast::Try& s);
  void exec_raise(const ast::Raise& s);
  void exec_delete(const ast::Delete& s);
  IValue eval_lambda(const ast::Lambda& e);
  IValue eval_comp(const ast::Comp& e);
  IValue eval_dict(const ast::DictExpr& e);
  IValue eval_set(const ast::SetExpr& e);
  void comp_clause(const ast::Comp& e, size_t level, ValueList* out,
                   const std::shared_ptr<class DictValue>& dict);
  void bind_comp_target(const ast::Expr& target, const IValue& value);
  // A FunctionValue for `def` (qualname given), defaults evaluated now, closing over
  // the running function's frame when there is one.
  std::shared_ptr<FunctionValue> make_function(const ast::FunctionDef& def, std::string qualname);
  // A free variable of a nested function, from its closure; null when no enclosing
  // function has it.
  const IValue* closure_lookup(const ast::Name& n, const Frame& f);
  // Parameters with `*args`, `**kwargs` or keyword-only ones, bound as Python does.
  ValueList bind_full(const FunctionValue& fn, ValueList args, Kwargs kwargs,
                      const SourceRange& range);
  void assign(const ast::Expr& target, const IValue& value);
  void store_name(const std::string& name, IValue value);
  void count_iteration(const ast::Stmt& loop, int64_t* trips);

  // --- expressions (interp_expr.cpp)
  IValue eval_inner(const ast::Expr& e);
  IValue lookup(const ast::Name& n);
  IValue eval_fstring(const ast::FString& e);
  IValue eval_compare(const ast::Compare& e);
  IValue eval_boolop(const ast::BoolOp& e);
  IValue eval_subscript(const ast::Subscript& e);
  ValueList eval_indices(const ast::Subscript& e);
  IValue index_tensor(const IValue& t, const ValueList& index, const ast::Subscript& e);
  IValue getattr_tensor(const IValue& t, const std::string& attr, const SourceRange& range);
  IValue getattr_instance(const IValue& obj, InstanceValue& inst, const std::string& attr,
                          const SourceRange& range);
  std::vector<std::string> visible_names() const;

  // --- calls (interp_call.cpp)
  IValue eval_call(const ast::Call& e);
  IValue call_function(const FunctionValue& fn, const IValue* self, ValueList args, Kwargs kwargs,
                       const SourceRange& range);
  IValue call_tensor_method(const IValue& self, const std::string& name, ValueList args,
                            Kwargs kwargs, const SourceRange& range, const ast::Call* site);
  IValue call_instance(const IValue& obj, ValueList args, Kwargs kwargs, const SourceRange& range);
  IValue instantiate(const std::shared_ptr<ClassValue>& cls, ValueList args, Kwargs kwargs,
                     const SourceRange& range);
  const FunctionInfo& function_info(const ast::FunctionDef& def);

  void install_builtins();

  // --- torch functions d2s implements itself (torch_names.cpp)
  IValue torch_range(ValueList args, Kwargs kwargs, const SourceRange& range);
  // torch.nonzero(x, as_tuple=) and x.nonzero(as_tuple=): aten::nonzero, or with
  // as_tuple=True aten::nonzero_numpy (torch.jit.trace's name for it).
  IValue call_nonzero(ValueList args, Kwargs kwargs, const SourceRange& range);
  IValue legacy_constructor(const std::string& q, DType dtype, ValueList args, Kwargs kwargs,
                            const SourceRange& range);

 public:
  // Builtins of interp_functional.cpp (sorted, reversed, any, all, dict, set, exception
  // types, callable); nullopt for another name.
  std::optional<IValue> call_more_builtins(const std::string& q, ValueList& args, Kwargs& kwargs,
                                           const SourceRange& range);
  // `**d` in a call: the dict's items as keyword arguments.
  void spread_kwargs(const IValue& d, Kwargs* kwargs, const SourceRange& range);

 private:
  // Declared first, so destroyed last: once the interpreter's globals and frames are
  // gone, the values only reference cycles among them still hold are freed.
  struct CollectCyclesLast {
    ~CollectCyclesLast() { collect_cycles(); }
  } collect_cycles_last_;
  const ast::Module& module_;
  const OpRegistry& registry_;
  Generator generator_;
  OpContext op_ctx_;
  Limits limits_;
  std::ostream* out_;
  InterpreterHooks* hooks_ = nullptr;
  CompileHook* compile_hook_ = nullptr;
  ExportHook* export_hook_ = nullptr;

  std::unordered_map<std::string, IValue> globals_;
  std::unordered_map<std::string, IValue> builtins_;  // print, len, range, ...
  // Shared with the closures made in the functions: a closure may outlive the
  // interpreter (a lambda kept by __init__ in a module the parse route lowers).
  std::unordered_map<const ast::FunctionDef*, std::shared_ptr<FunctionInfo>> function_infos_;
  std::vector<Frame*> frames_;  // the call stack; frames_.back() is the running one
  Frame module_frame_;
  int64_t total_iterations_ = 0;
  int call_depth_ = 0;
  // Parameters made by nn.Parameter / nn.Linear / nn.LayerNorm in this run, by impl.
  std::unordered_map<const TensorImpl*, ParamSite> parameters_;
  // The stack address at construction and how far calls may take it (bytes).
  const char* stack_base_ = nullptr;
  size_t stack_budget_ = 0;

  friend class CallGuard;
};

// Python's argument binding for built-in callables: `params` are (name, default)
// in order; returns one value per parameter. Errors are Python's TypeErrors naming
// `fname`.
struct ParamSpec {
  const char* name;
  std::optional<IValue> default_value;  // nullopt: required
};
ValueList bind_args(const std::string& fname, const std::vector<ParamSpec>& params, ValueList args,
                    Kwargs kwargs, const SourceRange& range);

// The closest of `candidates` to `name` by edit distance when it is close enough to be
// a likely typo; empty otherwise.
std::string closest_name(const std::string& name, const std::vector<std::string>& candidates);
// Up to `n` candidates sorted by closeness to `name`, for "nearby names" hints.
std::vector<std::string> nearest_names(const std::string& name,
                                       const std::vector<std::string>& candidates, size_t n);

}  // namespace d2s::interp
