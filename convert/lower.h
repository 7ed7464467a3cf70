// The parse route: a model program's AST lowered to the graph IR with its control
// flow intact, as torch.jit.script does it (contract §2, "parse").
//
//   LowerOptions opts;                      // entry, seed, weights, training, shapes
//   LoweredGraph lowered = lower_file("model.py", opts);
//   print_graph(*lowered.graph);            // prim::If / prim::Loop, SSA values, types
//   // run it: the graph's inputs are the entry's arguments (in order; defaults in
//   // lowered.argument_defaults), then the values of lowered.parameters.
//
// What the lowering does (internals in convert/lowerer.h, one file per job):
//  * The entry (a function, a class whose `forward` runs, or `<module>`) becomes the
//    graph. Its parameters are graph inputs: annotated `int`/`float`/`bool` ones are
//    scalar inputs, everything else a Tensor. For a class, the instance is built by the
//    eager interpreter (its `__init__` runs, as TorchScript scripts an instance), then
//    frozen: parameters become graph inputs named by state_dict name after the forward
//    arguments (with their shapes), plain attributes and `self.training` (as
//    __init__ left them; --eval sets training to False) become constants (so
//    `if self.training:` folds away), submodules and helper methods are inlined.
//    A returned tuple gives one graph output per item.
//  * Every user function is inlined; recursion is an error, and so is inlining deeper
//    than max_inline_depth.
//  * Variables are SSA values; an If returns what its arms assign, a Loop carries what
//    its body assigns (TorchScript's rules; lower_if.cpp, lower_loop.cpp).
//  * break / continue / early return become exit flags, without jumps
//    (convert/exit_transform.h).
//  * `s += x` on a tensor is the out-of-place aten::add rebinding s. PyTorch adds in
//    place: the results differ only when another name aliases the same tensor (the
//    other name sees the update in eager mode, not in the graph).
//  * `a and b` / `a or b` give one of their operands, as in Python (TorchScript gives
//    a bool); in a condition only their truth is taken.
//  * Afterwards the passes run (constant folding, dead-code elimination, shape
//    inference; convert/passes.h), unless `run_passes` is false.
//  * Types: every value has one. Tensor inputs with a known example shape
//    (input_shapes) get one symbol per dim named `<input>_<axis>` (x_0, x_1, ...), so a
//    batch dimension stays symbolic and a printed type says where a size comes from;
//    parameters have known shapes; the shape rules carry symbols through the ops.
//  * Every node has the source range of the code that made it: the expression for an
//    op, the statement's keyword for an If or a Loop. The Ifs the exit transform adds
//    (guarding what follows code that may exit) carry the attribute exit_guard=True.
//
// Errors are d2s::Error at the AST range that caused them, with a hint.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/base/source.h"
#include "core/ir/ir.h"
#include "core/tensor/ivalue.h"
#include "core/tensor/tensor.h"
#include "parse/ast.h"

namespace d2s::interp {
class InstanceValue;
}

namespace d2s::convert {

struct LowerOptions {
  // A function, a class (its forward) or "<module>"; empty picks the default
  // (the last def/class, or <module> when the file defines none) as the interpreter does.
  std::string entry;
  uint64_t seed = 0;  // initialisation of the entry module's parameters
  // Overrides of the entry module's parameters by state_dict name (all of them, with
  // their exact shapes, as load_state_dict(strict=True) wants).
  std::map<std::string, Tensor> weights;
  // false (--eval) puts every module in eval mode after its __init__ ran; true leaves
  // each module's `training` as __init__ left it (a fresh module trains, as in
  // PyTorch). Either way the flags are frozen into the graph.
  bool training = true;
  // Example shapes of tensor inputs, when known (e.g. from an inputs file): such an
  // input gets its rank and one symbol per dimension (see pass_shape_inference.cpp);
  // the others get a Tensor type of unknown rank.
  std::map<std::string, Shape> input_shapes;
  // Dtypes of tensor inputs, when known; the others are taken to be float32, the
  // model language's tensor type.
  std::map<std::string, DType> input_dtypes;
  // Example values of the inputs that are not tensors (a tuple of tensors, an int, a
  // list), when known: an unannotated parameter given one takes its type, where
  // TorchScript would take it to be a Tensor (`forward(self, input, hidden)` of an
  // LSTM model given the (h, c) pair is a Tuple[Tensor, Tensor]).
  std::map<std::string, IValue> input_examples;
  // Constant folding, dead-code elimination and shape inference after lowering.
  bool run_passes = true;
  // How deep user functions and submodule calls may be inlined into one another.
  int max_inline_depth = 64;
};

struct LoweredGraph {
  std::unique_ptr<ir::Graph> graph;
  // The entry module's parameters by state_dict name, in graph-input order (they are
  // the graph inputs after the entry's own arguments); empty for a function entry.
  std::vector<std::pair<std::string, Tensor>> parameters;
  // How many leading graph inputs are the entry's own arguments.
  size_t num_arguments = 0;
  // The default value of each argument (`alpha: float = 0.5`), for a caller that was
  // not given one; nullopt where the parameter has none.
  std::vector<std::optional<IValue>> argument_defaults;
};

// A function of a running program lowered on its own (torch.compile in eager mode,
// convert/compile.h): `function` with tensor arguments of the given shapes, the module
// instances `modules` callable by their global names (their parameters are graph inputs
// named `<global>.<state_dict name>`, after the arguments), or the forward of `self`
// (parameters by state_dict name). `parameters` of the result lists them in input order.
struct LiveFunction {
  const ast::Module* module = nullptr;
  std::shared_ptr<const SourceFile> file;
  const ast::FunctionDef* function = nullptr;
  std::string name;
  std::shared_ptr<interp::InstanceValue> self;
  std::vector<std::pair<std::string, std::shared_ptr<interp::InstanceValue>>> modules;
  std::vector<Shape> arg_shapes;
  std::vector<DType> arg_dtypes;
  bool training = true;
  // torch.onnx.export: when set, each argument's dims have the example's sizes except
  // the ones listed (dim -> symbol), which stay symbolic (its dynamic_axes). Unset, every
  // dim is a symbol `<param>_<axis>` (torch.compile: any batch size).
  std::optional<std::vector<std::map<int64_t, std::string>>> arg_free_dims;
};
LoweredGraph lower_live_function(const LiveFunction& f);

// Parses and lowers a program. Throws d2s::Error.
LoweredGraph lower_program(std::shared_ptr<const SourceFile> file,
                           const LowerOptions& options = {});
LoweredGraph lower_file(const std::string& path, const LowerOptions& options = {});
// Convenience for tests: lowers program text.
LoweredGraph lower_string(const std::string& text, const LowerOptions& options = {},
                          const std::string& path = "model.py");

}  // namespace d2s::convert
