#include "fuzz/pipeline_routes.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "convert/lower.h"
#include "core/base/error.h"
#include "core/base/source.h"
#include "core/exec/executor.h"
#include "core/ir/verify.h"
#include "core/tensor/random.h"
#include "core/tensor/tensor.h"
#include "trace/interpreter.h"
#include "trace/tracer.h"

namespace d2s::fuzz {
namespace {

// Tight bounds: a fuzzed program may loop, recurse or allocate as much as it likes;
// the limits (and their messages) are what is under test.
constexpr int64_t kMaxElements = int64_t{1} << 16;
constexpr int64_t kMaxIterations = 200;

RunOptions run_options(std::ostream& out) {
  RunOptions opts;
  opts.limits.max_call_depth = 24;
  opts.limits.max_loop_iterations = kMaxIterations;
  opts.limits.max_total_iterations = kMaxIterations;
  opts.out = &out;
  return opts;
}

// One value per entry parameter, by annotation: ints and floats small, tensors 2x3.
NamedInputs make_inputs(const EntryInfo& entry, Generator& gen,
                        std::map<std::string, Shape>& shapes) {
  NamedInputs inputs;
  for (const auto& p : entry.params) {
    if (p.annotation == "int") {
      inputs.emplace_back(p.name, IValue(int64_t{2}));
    } else if (p.annotation == "float") {
      inputs.emplace_back(p.name, IValue(0.5));
    } else if (p.annotation == "bool") {
      inputs.emplace_back(p.name, IValue(true));
    } else {
      std::vector<float> data(6);
      for (float& v : data) v = gen.normal();
      inputs.emplace_back(p.name, IValue(Tensor::from_floats({2, 3}, data)));
      shapes[p.name] = {2, 3};
    }
  }
  return inputs;
}

void run_eager(Program& program, const NamedInputs& inputs, std::ostream& out) {
  try {
    (void)program.run(inputs, run_options(out));
  } catch (const Error& e) {
    (void)e.format();
  }
}

void run_trace(Program& program, const NamedInputs& inputs, std::ostream& out) {
  try {
    TraceOptions topts;
    topts.run = run_options(out);
    topts.max_nodes = 2000;
    auto traced = trace_program(program, inputs, topts);
    ir::verify(*traced.graph);
  } catch (const Error& e) {
    (void)e.format();
  }
}

void run_parsed(const std::shared_ptr<const SourceFile>& file, const NamedInputs& inputs,
                const std::map<std::string, Shape>& shapes, std::ostream& out) {
  try {
    convert::LowerOptions lopts;
    lopts.input_shapes = shapes;
    lopts.max_inline_depth = 16;
    auto lowered = convert::lower_program(file, lopts);
    ir::verify(*lowered.graph);
    ValueList args;
    for (size_t i = 0; i < lowered.num_arguments && i < inputs.size(); ++i) {
      args.push_back(inputs[i].second);
    }
    for (auto& [name, tensor] : lowered.parameters) args.push_back(IValue(tensor));
    Generator gen(0);
    ExecOptions eopts;
    eopts.generator = &gen;
    eopts.out = &out;
    eopts.max_loop_iterations = kMaxIterations;
    Executor exec(*lowered.graph, eopts);
    (void)exec.run(args);
  } catch (const Error& e) {
    (void)e.format();
  }
}

}  // namespace

void set_pipeline_limits() {
  set_max_tensor_elements(kMaxElements);
}

void run_every_route(std::string_view text) {
  auto file = std::make_shared<const SourceFile>("fuzz.py", std::string(text));
  std::ostringstream out;
  NamedInputs inputs;
  std::map<std::string, Shape> shapes;
  std::optional<Program> program;
  try {
    program.emplace(Program::from_source(file));
    Generator gen(1);
    inputs = make_inputs(program->entry(), gen, shapes);
  } catch (const Error& e) {
    (void)e.format();
    return;  // no program or no entry: the other routes would stop at the same place
  }
  // The routes are tried independently so that a program one route rejects still
  // exercises the others.
  run_eager(*program, inputs, out);
  run_trace(*program, inputs, out);
  run_parsed(file, inputs, shapes, out);
}

}  // namespace d2s::fuzz
