// libFuzzer target: small programs through every route — eager (trace/interpreter.h),
// trace (trace/tracer.h), and parse → lower (convert/lower.h) → execute on the
// Executor — on small inputs, with tight limits so that every run is short. Each route
// must end in a result or a d2s::Error; the routes are tried independently so that a
// program one route rejects still exercises the others.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "convert/lower.h"
#include "core/error.h"
#include "core/executor.h"
#include "core/ir_verify.h"
#include "core/random.h"
#include "core/source.h"
#include "core/tensor.h"
#include "trace/interpreter.h"
#include "trace/tracer.h"

namespace {

// Tight bounds: a fuzzed program may loop, recurse or allocate as much as it likes;
// the limits (and their messages) are what is under test.
constexpr int64_t kMaxElements = int64_t{1} << 16;
constexpr int64_t kMaxIterations = 200;

d2s::RunOptions run_options(std::ostream& out) {
  d2s::RunOptions opts;
  opts.limits.max_call_depth = 24;
  opts.limits.max_loop_iterations = kMaxIterations;
  opts.limits.max_total_iterations = kMaxIterations;
  opts.out = &out;
  return opts;
}

// One value per entry parameter, by annotation: ints and floats small, tensors 2x3.
d2s::NamedInputs make_inputs(const d2s::EntryInfo& entry, d2s::Generator& gen,
                             std::map<std::string, d2s::Shape>& shapes) {
  d2s::NamedInputs inputs;
  for (const auto& p : entry.params) {
    if (p.annotation == "int") {
      inputs.emplace_back(p.name, d2s::IValue(int64_t{2}));
    } else if (p.annotation == "float") {
      inputs.emplace_back(p.name, d2s::IValue(0.5));
    } else if (p.annotation == "bool") {
      inputs.emplace_back(p.name, d2s::IValue(true));
    } else {
      std::vector<float> data(6);
      for (float& v : data) v = gen.normal();
      inputs.emplace_back(p.name, d2s::IValue(d2s::Tensor::from_floats({2, 3}, data)));
      shapes[p.name] = {2, 3};
    }
  }
  return inputs;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  d2s::set_max_tensor_elements(kMaxElements);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto file = std::make_shared<const d2s::SourceFile>(
      "fuzz.py", std::string(reinterpret_cast<const char*>(data), size));
  std::ostringstream out;
  d2s::NamedInputs inputs;
  std::map<std::string, d2s::Shape> shapes;
  std::optional<d2s::Program> program;
  try {
    program.emplace(d2s::Program::from_source(file));
    d2s::Generator gen(1);
    inputs = make_inputs(program->entry(), gen, shapes);
  } catch (const d2s::Error& e) {
    (void)e.format();
    return 0;  // no program or no entry: the other routes would stop at the same place
  }

  try {  // eager
    (void)program->run(inputs, run_options(out));
  } catch (const d2s::Error& e) {
    (void)e.format();
  }

  try {  // trace
    d2s::TraceOptions topts;
    topts.run = run_options(out);
    topts.max_nodes = 2000;
    auto traced = d2s::trace_program(*program, inputs, topts);
    d2s::ir::verify(*traced.graph);
  } catch (const d2s::Error& e) {
    (void)e.format();
  }

  try {  // parse → lower → execute
    d2s::convert::LowerOptions lopts;
    lopts.input_shapes = shapes;
    lopts.max_inline_depth = 16;
    auto lowered = d2s::convert::lower_program(file, lopts);
    d2s::ir::verify(*lowered.graph);
    d2s::ValueList args;
    for (size_t i = 0; i < lowered.num_arguments && i < inputs.size(); ++i) {
      args.push_back(inputs[i].second);
    }
    for (auto& [name, tensor] : lowered.parameters) args.push_back(d2s::IValue(tensor));
    d2s::Generator gen(0);
    d2s::ExecOptions eopts;
    eopts.generator = &gen;
    eopts.out = &out;
    eopts.max_loop_iterations = kMaxIterations;
    d2s::Executor exec(*lowered.graph, eopts);
    (void)exec.run(args);
  } catch (const d2s::Error& e) {
    (void)e.format();
  }
  return 0;
}
