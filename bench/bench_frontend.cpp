// The two routes on generated programs (issue 6 (e)): `d2s parse` is lex, parse and
// lower with the graph passes; `d2s trace` is an eager run with the tracer's hooks.
// Both start from the program's text, as torch.jit.script and torch.jit.trace do.
#include <benchmark/benchmark.h>

#include "bench/bench_common.h"
#include "core/base/source.h"
#include "trace/tracer.h"

namespace d2s::bench {
namespace {

std::string program_name(int64_t nested, int64_t statements) {
  return std::string(nested ? "nested_" : "straight_") + std::to_string(statements) + ".py";
}

void BM_Parse(benchmark::State& state) {
  const std::string name = program_name(state.range(0), state.range(1));
  const std::string text = read_program(name);
  size_t nodes = 0;
  for (auto _ : state) {
    convert::LowerOptions opts;
    opts.input_shapes = {{"x", {4}}};
    convert::LoweredGraph g =
        convert::lower_program(std::make_shared<const SourceFile>(name, text), opts);
    nodes = 0;
    for (ir::Node* n : g.graph->block()->nodes()) nodes += n != nullptr;
    benchmark::DoNotOptimize(g);
  }
  state.counters["statements"] = static_cast<double>(state.range(1));
  state.counters["top_nodes"] = static_cast<double>(nodes);
}

void BM_Trace(benchmark::State& state) {
  const std::string name = program_name(state.range(0), state.range(1));
  const std::string text = read_program(name);
  const Tensor x = random_tensor({4}, 1);
  for (auto _ : state) {
    Program program = Program::from_string(text, name);
    TraceResult r = trace_program(program, {{"x", IValue(x.clone())}});
    benchmark::DoNotOptimize(r);
  }
  state.counters["statements"] = static_cast<double>(state.range(1));
}

void frontend_args(benchmark::internal::Benchmark* b) {
  for (int64_t nested : {0, 1}) {
    for (int64_t n : {100, 1000, 10000}) b->Args({nested, n});
  }
  b->ArgNames({"nested", "statements"})->Unit(benchmark::kMillisecond);
}
BENCHMARK(BM_Parse)->Apply(frontend_args);
BENCHMARK(BM_Trace)->Apply(frontend_args);

}  // namespace
}  // namespace d2s::bench
