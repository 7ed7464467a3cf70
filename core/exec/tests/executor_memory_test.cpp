// What the benchmarks rely on: the executor's count of live tensor bytes, the
// process-wide storage counters, constants kept across runs, and the kernels' fast
// paths giving what the general paths give.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/exec/executor.h"
#include "core/ops/kernels.h"

namespace d2s {
namespace {

using ir::Graph;
using ir::Node;
using ir::Type;
using ir::Value;
namespace kind = ir::kind;

SourceRange here() {
  static auto file = std::make_shared<const SourceFile>("chain.py", "");
  return SourceRange(file, 1, 1);
}

std::vector<float> floats(const Tensor& t) {
  return std::vector<float>(t.data<float>(), t.data<float>() + t.numel());
}

// `for i in range(trips)` carrying one value from `init`: the loop node, its body, the
// body's carried input and the constant True the body returns as its condition.
struct CountedLoop {
  Node* node;
  ir::Block* body;
  Value* acc;
  Value* keep_going;
};
CountedLoop counted_loop(Graph& g, int64_t trips, Value* init) {
  Value* n = g.insert_constant(IValue(trips), here());
  Value* t = g.insert_constant(IValue(true), here());
  Node* loop = g.insert(kind::Loop, {n, t, init}, 1, here());
  ir::Block* body = loop->add_block();
  body->add_input("i");
  Value* acc = body->add_input("acc");
  return CountedLoop{loop, body, acc, t};
}

TEST(ExecutorMemoryTest, PeakTensorBytesIsTheLivenessBoundOfAChain) {
  // y1 = x * 2; y2 = y1 * 2; y3 = y2 * 2 on 100 floats: at most two live at once.
  Graph g;
  Value* v = g.add_input("x", Type::tensor());
  Value* two = g.insert_constant(IValue(2.0), here());
  for (int i = 0; i < 3; ++i) v = g.insert("aten::mul", {v, two}, 1, here())->output();
  g.register_output(v);
  Executor exec(g);
  Tensor x = Tensor::full({100}, 1.0);
  ValueList out = exec.run({IValue(x)});
  EXPECT_EQ(floats(out[0].to_tensor()), std::vector<float>(100, 8));
  EXPECT_EQ(exec.stats().peak_tensor_bytes, 2 * 100 * sizeof(float));
}

TEST(ExecutorMemoryTest, ConstantsInALoopBodySurviveEveryIterationAndRun) {
  // for i in range(5): acc = acc * 0.5 + 1.0, run twice.
  Graph g;
  CountedLoop loop = counted_loop(g, 5, g.add_input("x", Type::tensor()));
  {
    ir::WithInsertPoint guard(g, loop.body);
    Value* half = g.insert_constant(IValue(0.5), here());
    Value* one = g.insert_constant(IValue(1.0), here());
    Node* mul = g.insert("aten::mul", {loop.acc, half}, 1, here());
    Node* add = g.insert("aten::add", {mul->output(), one}, 1, here());
    loop.body->register_output(loop.keep_going);
    loop.body->register_output(add->output());
  }
  g.register_output(loop.node->output());
  Executor exec(g);
  float expected = 4;
  for (int i = 0; i < 5; ++i) expected = expected * 0.5f + 1.0f;
  for (int run = 0; run < 2; ++run) {
    ValueList out = exec.run({IValue(Tensor::full({3}, 4.0))});
    EXPECT_EQ(floats(out[0].to_tensor()), std::vector<float>(3, expected)) << "run " << run;
  }
}

// Buffer reuse by liveness (OpContext::dead_args): a value read for the last time by
// an elementwise op gives its buffer to the result, so a chain allocates once; the
// caller's inputs and values read again later are never overwritten.
TEST(ExecutorMemoryTest, AChainReusesTheBufferOfEachValueAtItsLastUse) {
  // y = relu(tanh(x * 2 + 1)) - 0.5 on 100 floats.
  Graph g;
  Value* v = g.add_input("x", Type::tensor());
  v = g.insert("aten::mul", {v, g.insert_constant(IValue(2.0), here())}, 1, here())->output();
  v = g.insert("aten::add", {v, g.insert_constant(IValue(1.0), here())}, 1, here())->output();
  v = g.insert("aten::tanh", {v}, 1, here())->output();
  v = g.insert("aten::relu", {v}, 1, here())->output();
  v = g.insert("aten::sub", {v, g.insert_constant(IValue(0.5), here())}, 1, here())->output();
  g.register_output(v);
  Executor exec(g);
  const Tensor x = Tensor::full({100}, -0.25);
  reset_storage_peak();
  const size_t before = storage_bytes_live();
  ValueList out = exec.run({IValue(x)});
  // One result buffer for the five ops: the first cannot take the caller's input.
  EXPECT_EQ(storage_bytes_peak() - before, 100 * sizeof(float));
  const float expected = std::max(std::tanh(-0.25f * 2 + 1), 0.0f) - 0.5f;
  for (float y : floats(out[0].to_tensor())) EXPECT_NEAR(y, expected, 1e-6);
  EXPECT_EQ(floats(x), std::vector<float>(100, -0.25f)) << "the caller's input was overwritten";
}

TEST(ExecutorMemoryTest, AValueReadAgainLaterKeepsItsBuffer) {
  // y = x * 2; a = y + 1; b = y * y; c = -y: y dies only at the last op, and y * y
  // reads the same value twice.
  Graph g;
  Value* x = g.add_input("x", Type::tensor());
  Value* y =
      g.insert("aten::mul", {x, g.insert_constant(IValue(2.0), here())}, 1, here())->output();
  Value* a =
      g.insert("aten::add", {y, g.insert_constant(IValue(1.0), here())}, 1, here())->output();
  Value* b = g.insert("aten::mul", {y, y}, 1, here())->output();
  Value* c = g.insert("aten::neg", {y}, 1, here())->output();
  g.register_output(a);
  g.register_output(b);
  g.register_output(c);
  Executor exec(g);
  ValueList out = exec.run({IValue(Tensor::full({4}, 3.0))});
  EXPECT_EQ(floats(out[0].to_tensor()), std::vector<float>(4, 7));
  EXPECT_EQ(floats(out[1].to_tensor()), std::vector<float>(4, 36));
  EXPECT_EQ(floats(out[2].to_tensor()), std::vector<float>(4, -6));
}

TEST(ExecutorMemoryTest, AValueFromOutsideALoopSurvivesEveryIteration) {
  // for i in range(3): acc = tanh(acc + w) with w from outside the loop: w's last
  // use is the loop, so no iteration may take its buffer.
  Graph g;
  Value* x = g.add_input("x", Type::tensor());
  Value* w0 = g.add_input("w", Type::tensor());
  Value* w =
      g.insert("aten::mul", {w0, g.insert_constant(IValue(1.0), here())}, 1, here())->output();
  CountedLoop loop = counted_loop(g, 3, x);
  {
    ir::WithInsertPoint guard(g, loop.body);
    Node* add = g.insert("aten::add", {loop.acc, w}, 1, here());
    Node* tanh = g.insert("aten::tanh", {add->output()}, 1, here());
    loop.body->register_output(loop.keep_going);
    loop.body->register_output(tanh->output());
  }
  g.register_output(loop.node->output());
  Executor exec(g);
  float expected = 0;
  for (int i = 0; i < 3; ++i) expected = std::tanh(expected + 0.5f);
  ValueList out = exec.run({IValue(Tensor::full({3}, 0.0)), IValue(Tensor::full({3}, 0.5))});
  for (float y : floats(out[0].to_tensor())) EXPECT_NEAR(y, expected, 1e-6);
}

TEST(ExecutorMemoryTest, StorageCountersFollowAllocations) {
  reset_storage_peak();
  const size_t before = storage_bytes_live();
  {
    Tensor big = Tensor::zeros({1000});
    Tensor tiny = Tensor::zeros({2});  // inline in its Storage, counted all the same
    EXPECT_EQ(storage_bytes_live(), before + 1002 * sizeof(float));
  }
  EXPECT_EQ(storage_bytes_live(), before);
  EXPECT_GE(storage_bytes_peak(), before + 1002 * sizeof(float));
}

TEST(ExecutorMemoryTest, BiasBroadcastFastPathMatchesElementwiseSums) {
  Tensor a = Tensor::from_floats({2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor b = Tensor::from_floats({3}, {10, 20, 30});
  Tensor sum = kernels::binary_op(kernels::BinaryOp::Add, IValue(a), IValue(b));
  EXPECT_EQ(sum.shape(), (Shape{2, 3}));
  EXPECT_EQ(floats(sum), (std::vector<float>{11, 22, 33, 14, 25, 36}));
  Tensor quotient = kernels::binary_op(kernels::BinaryOp::Div, IValue(a), IValue(int64_t{2}));
  EXPECT_EQ(floats(quotient), (std::vector<float>{0.5, 1, 1.5, 2, 2.5, 3}));
  // [3] + [2, 3] broadcasts the other way: the general path, same answer.
  Tensor flipped = kernels::binary_op(kernels::BinaryOp::Add, IValue(b), IValue(a));
  EXPECT_EQ(floats(flipped), floats(sum));
}

TEST(ExecutorMemoryTest, LinearFastPathMatchesTransposedProductPlusBias) {
  Tensor x = Tensor::from_floats({2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor w = Tensor::from_floats({2, 3}, {1, 0, -1, 0.5, 0.5, 0.5});
  Tensor b = Tensor::from_floats({2}, {100, 200});
  Tensor out;
  ASSERT_TRUE(kernels::linear_2d(x, w, IValue(b), &out));
  Tensor general = kernels::matmul(x, kernels::permute(w, {1, 0}));
  general = kernels::binary_op(kernels::BinaryOp::Add, IValue(general), IValue(b));
  EXPECT_EQ(floats(out), floats(general));
  // Shapes that do not fit are left to the general path and its message.
  EXPECT_FALSE(kernels::linear_2d(x, Tensor::zeros({2, 4}), IValue(), &out));
}

}  // namespace
}  // namespace d2s
