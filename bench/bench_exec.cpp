// The executor's workloads (issue 6 (a)-(d), (h)): each generated program is lowered
// once by the parse route and planned once; the timed loop is Executor::run only.
#include <benchmark/benchmark.h>

#include "bench/bench_common.h"

namespace d2s::bench {
namespace {

// Runs `exec` on `inputs` in the timed loop and reports what one run held: the peak
// of tensor storage alive in the process (inputs included) and the executor's own
// count of the tensor bytes in live slots, which frees each value after its last use
// and so is the liveness lower bound the storage peak is compared with.
void run_timed(benchmark::State& state, Executor& exec, const ValueList& inputs, double ops) {
  for (auto _ : state) {
    ValueList out = exec.run(inputs);
    benchmark::DoNotOptimize(out);
  }
  reset_storage_peak();
  const size_t before = storage_bytes_live();
  exec.run(inputs);
  state.counters["peak_storage_bytes"] = static_cast<double>(storage_bytes_peak());
  state.counters["baseline_storage_bytes"] = static_cast<double>(before);
  state.counters["liveness_bound_bytes"] = static_cast<double>(exec.stats().peak_tensor_bytes);
  state.counters["instructions"] = static_cast<double>(exec.stats().instructions);
  state.counters["ops"] = ops;
}

// (a) 1,000 elementwise ops in a chain, on an N x N tensor.
void BM_Chain(benchmark::State& state) {
  const int64_t n = state.range(0);
  convert::LoweredGraph g = lower("chain.py", {{"x", {n, n}}});
  Executor exec(*g.graph);
  run_timed(state, exec, {IValue(random_tensor({n, n}, 1))}, 1000);
}
BENCHMARK(BM_Chain)->Arg(1)->Arg(8)->Unit(benchmark::kMicrosecond);

// (b) h = tanh(x @ W + h @ U + b) for 10,000 steps, as one prim::Loop.
void BM_Rnn(benchmark::State& state) {
  const int64_t steps = state.range(0);
  convert::LoweredGraph g = lower(
      "rnn.py", {{"x", {1, 16}}, {"h", {1, 16}}, {"W", {16, 16}}, {"U", {16, 16}}, {"b", {16}}});
  Executor exec(*g.graph);
  ValueList inputs = {IValue(random_tensor({1, 16}, 1)),  IValue(random_tensor({1, 16}, 2)),
                      IValue(random_tensor({16, 16}, 3)), IValue(random_tensor({16, 16}, 4)),
                      IValue(random_tensor({16}, 5)),     IValue(steps)};
  run_timed(state, exec, inputs, 5.0 * static_cast<double>(steps));
}
BENCHMARK(BM_Rnn)->Arg(10000)->Unit(benchmark::kMillisecond);

// (c) the MLP 64x784-512-512-10 with relu.
void BM_Mlp(benchmark::State& state) {
  convert::LoweredGraph g = lower("mlp.py", {{"x", {64, 784}},
                                             {"w1", {512, 784}},
                                             {"b1", {512}},
                                             {"w2", {512, 512}},
                                             {"b2", {512}},
                                             {"w3", {10, 512}},
                                             {"b3", {10}}});
  Executor exec(*g.graph);
  ValueList inputs = {IValue(random_tensor({64, 784}, 1)), IValue(random_tensor({512, 784}, 2)),
                      IValue(random_tensor({512}, 3)),     IValue(random_tensor({512, 512}, 4)),
                      IValue(random_tensor({512}, 5)),     IValue(random_tensor({10, 512}, 6)),
                      IValue(random_tensor({10}, 7))};
  run_timed(state, exec, inputs, 5);
  const double flops = 2.0 * 64 * (784 * 512 + 512 * 512 + 512 * 10);
  state.counters["flops"] =
      benchmark::Counter(flops, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_Mlp)->Unit(benchmark::kMillisecond);

// (d) a 1024 x 1024 matrix product.
void BM_Matmul(benchmark::State& state) {
  const int64_t n = state.range(0);
  convert::LoweredGraph g = lower("matmul.py", {{"a", {n, n}}, {"b", {n, n}}});
  Executor exec(*g.graph);
  ValueList inputs = {IValue(random_tensor({n, n}, 1)), IValue(random_tensor({n, n}, 2))};
  run_timed(state, exec, inputs, 1);
  const double flops = 2.0 * static_cast<double>(n * n * n);
  state.counters["flops"] =
      benchmark::Counter(flops, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_Matmul)->Arg(1024)->Unit(benchmark::kMillisecond);

// (j) one aten::lstm layer: 32 steps of batch 8, input 64, hidden 128 (as
// bench/gen_programs.py's LSTM_SHAPES).
void BM_Lstm(benchmark::State& state) {
  const std::vector<std::pair<std::string, Shape>> shapes = {
      {"x", {32, 8, 64}},   {"h", {1, 8, 128}}, {"c", {1, 8, 128}}, {"w_ih", {512, 64}},
      {"w_hh", {512, 128}}, {"b_ih", {512}},    {"b_hh", {512}}};
  convert::LoweredGraph g = lower("lstm.py", {shapes.begin(), shapes.end()});
  Executor exec(*g.graph);
  ValueList inputs;
  uint64_t seed = 1;
  for (const auto& [name, shape] : shapes) inputs.push_back(IValue(random_tensor(shape, seed++)));
  run_timed(state, exec, inputs, 1);
}
BENCHMARK(BM_Lstm)->Unit(benchmark::kMillisecond);

// (k) a ResNet basic block in inference (conv3x3-BN-ReLU-conv3x3-BN, identity, ReLU) on
// [4, 64, 32, 32], as bench/gen_programs.py's RESNET_BLOCK_SHAPES.
void BM_ResnetBlock(benchmark::State& state) {
  const Shape channels = {64};
  const Shape kernel = {64, 64, 3, 3};
  const std::vector<std::pair<std::string, Shape>> shapes = {
      {"x", {4, 64, 32, 32}}, {"w1", kernel},   {"g1", channels}, {"b1", channels},
      {"m1", channels},       {"v1", channels}, {"w2", kernel},   {"g2", channels},
      {"b2", channels},       {"m2", channels}, {"v2", channels}};
  convert::LoweredGraph g = lower("resnet_block.py", {shapes.begin(), shapes.end()});
  Executor exec(*g.graph);
  ValueList inputs;
  uint64_t seed = 1;
  for (const auto& [name, shape] : shapes) inputs.push_back(IValue(random_tensor(shape, seed++)));
  run_timed(state, exec, inputs, 1);
  const double flops = 2 * 2.0 * 4 * 32 * 32 * 64 * 64 * 9;
  state.counters["flops"] =
      benchmark::Counter(flops, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_ResnetBlock)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace d2s::bench
