// Running a graph (either route's, or one read from an IR file) on named inputs, as
// `d2s run --mode trace|parse` and `d2s run GRAPH.yaml` do.
//
//   GraphRunOptions opts;                  // seed, training, prints, weights, limits
//   GraphRunner runner(*graph, opts);      // plans the graph, resolves its parameters
//   IValue out = runner.run(input_set);    // binds by name, executes, returns as eager
//
// A graph's inputs are named (docs/ir.md): the entry's arguments by parameter name,
// then, for a module entry, its parameters by state_dict name (`linear1.weight`).
// Binding, per graph input:
//  * an argument of the entry: the input set's value of that name, else the
//    parameter's default in the source program, else an error naming the input and
//    its type. Values are checked against the input's type (a tensor for a tensor,
//    of its dtype for a trace and of any dtype for a parsed graph, as TorchScript's
//    Tensor; an int is accepted for a float, as Python does). Shapes are checked
//    only for graphs that are not traces: a trace's input shapes are re-checked by
//    its shape guards (exit 1), or deliberately not at all (`--no-guards`, where a
//    symbolic batch size adapts as in torch.jit.trace).
//  * a parameter: from the weights (`--weights`), which must then name every
//    parameter with its shape (load_state_dict(strict=True)); else from
//    GraphRunOptions::parameters (what the conversion used); else the source program
//    (graph.source, the entry's class) is prepared with the seed exactly as `d2s run
//    MODEL.py` prepares it, and its parameters are taken.
// An input-set value naming an argument of the entry that the graph does not take
// is accepted and ignored: the trace baked it (a scalar input under --no-guards, an
// argument left out), and torch.jit.trace ignores it too. Any other unknown name is
// an error pointing into the inputs file.
//
// Outputs come back as the eager interpreter returns them, so that the outputs
// YAML is the same: several graph outputs as a tuple, one as itself, none as None.
// Each run starts with a fresh generator seeded by GraphRunOptions::seed (eager mode
// re-prepares the program for each input set too) and works on copies of the inputs
// and parameters, so in-place ops in the graph change neither.
//
// Errors are d2s::Error: exit 2 for inputs that cannot be bound, the executor's own
// (exit 1 for a failed guard or assert).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/exec/executor.h"
#include "core/io/yaml_io.h"
#include "core/ir/ir.h"
#include "core/tensor/ivalue.h"
#include "core/tensor/random.h"
#include "trace/interpreter.h"

namespace d2s::convert {

struct GraphRunOptions {
  uint64_t seed = 0;            // random ops; the default initialisation of parameters
  bool training = true;         // the executor's flag, and the prepared module's
  std::ostream* out = nullptr;  // where prim::Print writes; null discards
  int64_t max_loop_iterations = Limits{}.max_total_iterations;
  // `--weights`: every parameter by state_dict name; each key's range is where a
  // message about it points.
  std::vector<NamedTensor> weights;
  // Parameter values the conversion that made the graph used (LoweredGraph::
  // parameters); used when no weights are given.
  std::vector<std::pair<std::string, Tensor>> parameters;
  // The inputs file, named in hints ("add `x: ...` to IN.yaml"); empty when none.
  std::string inputs_path;
  // `--grad`: each run marks the parameters and the inputs given `requires_grad: true`
  // as requiring grad (grad_leaves()), so the executor tapes what it runs.
  bool grad = false;
};

class GraphRunner {
 public:
  // Plans the graph and resolves its parameters. Throws d2s::Error (exit 2) for a
  // graph the executor cannot run or parameters that cannot be found.
  GraphRunner(const ir::Graph& graph, GraphRunOptions options);
  ~GraphRunner();
  GraphRunner(const GraphRunner&) = delete;
  GraphRunner& operator=(const GraphRunner&) = delete;

  // Binds one input set (ranges point into the inputs file) and runs the graph.
  IValue run(const InputSet& set);
  // The same for values without a file (tests, other tools).
  IValue run(const NamedInputs& inputs);

  // The parameter values every run uses, by state_dict name in graph-input order.
  const std::vector<std::pair<std::string, Tensor>>& parameters() const { return params_; }
  // With GraphRunOptions::grad: the tensors the last run started from that require
  // grad, by input or parameter name (core/autograd/autograd.h gradients_of_first_output).
  const std::vector<std::pair<std::string, Tensor>>& grad_leaves() const { return grad_leaves_; }

 private:
  enum class Role { Argument, Parameter };
  struct Slot {
    std::string name;
    ir::Type type;
    Role role = Role::Argument;
    std::optional<IValue> default_value;  // an argument's default in the source
    size_t param = 0;                     // index into params_ for a parameter
  };

  void resolve_entry(const ir::Graph& graph);
  void resolve_parameters(const ir::Graph& graph);
  IValue bind_argument(const Slot& slot, const NamedInput& given) const;
  std::string slot_label(const Slot& slot) const;

  GraphRunOptions options_;
  std::string route_;
  std::string entry_label_;  // "'foo1'", "'DynamicModel.forward'"
  std::optional<EntryInfo> entry_;
  std::shared_ptr<Program> program_;  // the source program, when known (keeps the AST alive)
  std::vector<Slot> slots_;
  std::vector<std::pair<std::string, Tensor>> params_;
  std::unique_ptr<Generator> generator_;
  std::unique_ptr<Executor> executor_;
  std::vector<std::pair<std::string, Tensor>> grad_leaves_;
};

// Convenience: GraphRunner(graph, options).run(inputs).
IValue run_graph(const ir::Graph& graph, const NamedInputs& inputs,
                 const GraphRunOptions& options = {});

}  // namespace d2s::convert
