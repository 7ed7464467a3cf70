// The eager interpreter: runs a model program as PyTorch's dynamic-graph mode does
// (contract §1), op by op, with Python's semantics for the subset.
//
// Usage:
//
//   Program program = Program::load("model.py");
//   RunOptions opts;                       // entry, seed, weights, limits, output stream
//   program.prepare(opts);                 // top level runs; the entry module is built
//   auto params = program.parameters();    // state_dict names -> tensors
//   IValue out = program.call_entry({{"x", x}}, opts);
//
// `run()` does both steps. Every error is a d2s::Error at the AST node it is about.
//
// Design for the tracer (trace/tracer.*, built on this interpreter):
//
// * Every op — tensor ops and Python-number arithmetic alike (`n * 2` is aten::mul on
//   two ints) — goes through one function that binds the call with the OpRegistry and
//   runs the kernel; with hooks set, InterpreterHooks::after_op sees the op, its bound
//   arguments and the result, and may replace the result.
// * Wherever a tensor-derived value becomes a plain Python value — the truth value of
//   an `if`/`while`/`assert`/`and`/`not` operand, `t.item()`, `int(t)`, `float(t)`,
//   `bool(t)`, `len(t)`, a size given to `range()`, the row count of `for row in t`, a
//   Python index — the interpreter computes the Python value and passes it through
//   InterpreterHooks::to_python with the expression's range and text, so the tracer can
//   bake it as a constant and add a guard.
// * Symbolic values: the tracer may return, from after_op, a SymbolicValue (an Object
//   that carries its concrete Python value, e.g. a size plus its graph value). The
//   interpreter stores and passes such values around like any other. When one reaches
//   an op, the op runs on concrete() values and after_op receives the originals in
//   `given` (so the tracer sees its symbolic inputs). When one is needed as a plain
//   Python value (a branch, range(), a list index, a builtin such as min), the
//   interpreter calls to_python with the symbolic value. Eager runs never see one.
// * on_if / on_loop report each executed `if` (including each `elif`) with the arm
//   taken and each loop with its trip count, for the trace-vs-parse diff.
// * Only call_entry() calls hooks: what prepare() computes (top-level statements of a
//   function entry's file, the entry module's __init__) is constant or a parameter to a
//   trace. For the <module> entry the top level *is* the entry and is reported.
// * Plain numbers stay plain: an op on Python numbers with no tensor or symbolic input
//   (`i + 1` in a loop) is reported too, and a tracer records it as a constant. Literal
//   `-1` is a constant, not an aten::neg.
//
// Stacks: prepare() and call_entry() run the program on a large stack (trace/big_stack.h,
// so that Limits::max_call_depth, not the platform's stack size, bounds recursion),
// switched to on the calling thread or, when that stack is in use, on a helper thread
// the caller waits for; hooks are called one at a time, in program order.
// Eager mode passes no hooks and pays one null check per op.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/base/source.h"
#include "core/ops/op_registry.h"
#include "core/tensor/ivalue.h"
#include "core/tensor/tensor.h"
#include "parse/ast.h"

namespace d2s {

// Bounds that keep any program finite; each overrun is a d2s::Error naming the line.
struct Limits {
  int max_call_depth = 200;  // calls nested in one another
  // One million: a `while True:` whose body does a few tensor ops then stops within
  // seconds in a release build (ten million took minutes), still far above what a
  // model's loops need; --max-iterations raises it.
  int64_t max_loop_iterations = 1'000'000;   // iterations of one execution of one loop
  int64_t max_total_iterations = 1'000'000;  // iterations of all loops in one run
};

// Where a tensor-derived (or symbolic) value turned into a plain Python value.
enum class PyConversion {
  Bool,      // truth value: if/while/assert tests, and/or/not operands, bool(x), a ? b : c
  Int,       // int(x)
  Float,     // float(x)
  Item,      // x.item()
  Len,       // len(x), and the row count of `for row in x`
  RangeArg,  // an argument of range()
  Index,     // a Python index or slice bound (`lst[i]`, `x[t]` with a 0-d tensor t)
  Scalar,    // a number used by a Python builtin or statement (min, max, abs, round, ...)
};
const char* py_conversion_name(PyConversion kind);  // "bool", "int", ...

// Base of the values a tracer substitutes for Python numbers (see the header comment).
class SymbolicValue : public Object {
 public:
  // The plain Python value (int, float or bool) this stands for in this run.
  virtual IValue concrete() const = 0;
};

class InterpreterHooks {
 public:
  virtual ~InterpreterHooks() = default;

  // Before an op that writes into an argument (a `Tensor(a!)` of its schema) runs, with
  // the bound arguments: the tracer takes the constants of written tensors it has not
  // seen yet (module buffers) here, so they hold the value before the write.
  virtual void before_write(const OpDef& op, const ValueList& args, const SourceRange& range) {
    (void)op, (void)args, (void)range;
  }

  // After each op ran. `args` are the arguments as the kernel got them (schema order,
  // defaults filled, symbolic values made concrete); `given` has the same positions
  // but holds the values the program passed (SymbolicValues where it passed them;
  // defaults where it passed nothing). Returns the value the program continues with:
  // `result` itself, or a SymbolicValue standing for it (or a tuple/list of them).
  virtual IValue after_op(const OpDef& op, const ValueList& args, const ValueList& given,
                          IValue result, const SourceRange& range) {
    (void)op, (void)args, (void)given, (void)range;
    return result;
  }

  // A tensor or SymbolicValue `value` became the Python value `python_value` (bool,
  // int or float) at the expression `range` whose source text is `text`. Returns the
  // value to continue with — normally python_value.
  virtual IValue to_python(PyConversion kind, const IValue& value, IValue python_value,
                           const SourceRange& range, const std::string& text) {
    (void)kind, (void)value, (void)range, (void)text;
    return python_value;
  }

  // print(...) wrote `text` (with sep and end); `args` are the printed values.
  virtual void on_print(const ValueList& args, const std::string& text, const SourceRange& range) {
    (void)args, (void)text, (void)range;
  }

  // An `if` (or `elif`, which is its own If) chose its body (true) or its else arm.
  virtual void on_if(const ast::If& stmt, bool taken) { (void)stmt, (void)taken; }

  // A `for` or `while` finished after `trips` executions of its body (also when it
  // left by break or return).
  virtual void on_loop(const ast::Stmt& stmt, int64_t trips) { (void)stmt, (void)trips; }

  // A user function or method starts / ends (normally or by return); `name` is how
  // the program names it ("helper", "Model.forward").
  virtual void on_call_enter(const ast::FunctionDef& fn, const std::string& name,
                             const SourceRange& call_range) {
    (void)fn, (void)name, (void)call_range;
  }
  virtual void on_call_exit(const ast::FunctionDef& fn) { (void)fn; }
};

class CompileHook;  // trace/compile_hook.h
class ExportHook;   // trace/export_hook.h

struct RunOptions {
  // The entry: a function, a class (its forward runs) or "<module>"; empty picks the
  // default (the last def/class of the file, or <module> when it defines none).
  std::string entry;
  uint64_t seed = 0;  // parameter initialisation and torch.rand*/dropout
  // Overrides of the entry module's parameters by state_dict name. When non-empty it
  // must name every parameter with its exact shape (as load_state_dict(strict=True)).
  std::map<std::string, Tensor> weights;
  // false (--eval): the entry module and its submodules are put in eval mode after
  // __init__ ran; true leaves `training` as __init__ left it (a fresh module trains).
  bool training = true;
  Limits limits;
  std::ostream* out = nullptr;        // where print() writes; null means std::cout
  InterpreterHooks* hooks = nullptr;  // null in eager mode; used by call_entry only
  // Lowers `@torch.compile` / `@torch.jit.script` functions to graphs (convert/'s, wired
  // in by the CLI); null runs them eagerly, as before.
  CompileHook* compile_hook = nullptr;
  // Writes the file of a `torch.onnx.export(...)` call (onnx/'s exporter, wired in by
  // the CLI); null makes the call an error.
  ExportHook* export_hook = nullptr;
};

// A parameter of the entry (for the CLI's input binding and the tracer).
struct EntryParam {
  std::string name;
  std::string annotation;  // "Tensor", "int", "float", "bool", other text, or ""
  bool has_default = false;
  std::optional<IValue> default_value;  // when the default is a literal
  SourceRange range;
};

struct EntryInfo {
  enum class Kind { Function, Class, Module };
  Kind kind = Kind::Module;
  std::string name;                            // the function or class name, or "<module>"
  std::vector<EntryParam> params;              // without `self`; empty for <module>
  const ast::FunctionDef* function = nullptr;  // the function, or the class's forward
  const ast::ClassDef* cls = nullptr;          // for Kind::Class
  SourceRange range;                           // the def's name, or line 1 for <module>
};

using NamedInputs = std::vector<std::pair<std::string, IValue>>;

class Program {
 public:
  static Program load(const std::string& path);
  static Program from_source(std::shared_ptr<const SourceFile> file);
  static Program from_string(const std::string& text, const std::string& path = "model.py");

  Program(Program&&) noexcept;
  Program& operator=(Program&&) noexcept;
  ~Program();

  const ast::Module& module() const;
  const std::shared_ptr<const SourceFile>& file() const;

  // The entry for `--entry NAME` (empty: the default); throws when there is no such
  // function or class, or a class entry has no forward.
  EntryInfo entry(const std::string& requested = "") const;

  // Starts a fresh run: resets globals and the generator (opts.seed), runs the top-level
  // statements (unless the entry is <module>), builds the entry class with no
  // arguments, sets its training flag and applies opts.weights. Hooks are not called:
  // what this creates is constant (or a parameter) to a trace.
  void prepare(const RunOptions& opts);

  // The entry module's parameters by state_dict name, in named_parameters() order
  // (after prepare; empty for a function or <module> entry).
  std::vector<std::pair<std::string, Tensor>> parameters() const;

  // Calls the entry with the inputs bound by parameter name (prepare() first; prepares
  // itself if it was not). Inputs are checked against the entry's annotations (an int
  // is accepted for float); a missing input without default, an unknown one, or a kind
  // that does not fit the annotation is a d2s::Error. Returns what the entry returns
  // (None for <module>); a torch.Size comes back as a tuple, SymbolicValues as they are.
  IValue call_entry(const NamedInputs& inputs, const RunOptions& opts);

  // prepare(opts) then call_entry(inputs, opts).
  IValue run(const NamedInputs& inputs, const RunOptions& opts);

 private:
  explicit Program(ast::Module module);
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace d2s
