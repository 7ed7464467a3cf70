// (i) a training step of the MLP (issue 18): the generated program train_mlp.py run by
// the eager interpreter as `d2s run` runs it — its top level builds the model, the Adam
// optimizer and torch.compile(model) once; the timed loop calls train_step (the forward
// eager) or train_step_compiled (the forward as the parse route's graph on the reference
// executor, gradients through it), each call one forward, loss, backward and Adam step.
#include <benchmark/benchmark.h>

#include <sstream>

#include "bench/bench_common.h"
#include "convert/compile.h"
#include "core/base/source.h"
#include "trace/interpreter.h"

namespace d2s::bench {
namespace {

void BM_TrainStep(benchmark::State& state) {
  const bool compiled = state.range(0) == 1;
  const std::string name = "train_mlp.py";
  Program program = Program::from_string(read_program(name), programs_dir() + "/" + name);
  convert::ParseRouteCompiler compiler;
  std::ostringstream sink;
  RunOptions opts;
  opts.entry = compiled ? "train_step_compiled" : "train_step";
  opts.compile_hook = &compiler;
  opts.out = &sink;
  program.prepare(opts);
  std::vector<int64_t> labels(64);
  for (size_t i = 0; i < labels.size(); ++i) labels[i] = static_cast<int64_t>((i * 7) % 10);
  const NamedInputs inputs = {{"x", IValue(random_tensor({64, 784}, 1))},
                              {"y", IValue(Tensor::from_ints({64}, labels))}};
  program.call_entry(inputs, opts);  // the first call lowers the compiled forward
  if (compiled && (compiler.records().empty() || !compiler.records()[0].lowered)) {
    state.SkipWithError("torch.compile(model) fell back to eager");
    return;
  }
  for (auto _ : state) {
    IValue loss = program.call_entry(inputs, opts);
    benchmark::DoNotOptimize(loss);
  }
  if (compiled) state.counters["graph_nodes"] = static_cast<double>(compiler.records()[0].nodes);
}
BENCHMARK(BM_TrainStep)->Arg(0)->Arg(1)->ArgName("compiled")->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace d2s::bench
