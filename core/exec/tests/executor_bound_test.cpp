// The executor's calls bound at plan time (BoundCall) and its small vector x matrix
// product into recycled buffers: the same results, bits and errors as the general
// kernels and binder, and no reuse of a buffer that anything else still refers to.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "core/autograd/autograd.h"
#include "core/base/error.h"
#include "core/exec/executor.h"
#include "core/ops/kernels.h"
#include "core/ops/kernels_small_matmul.h"

namespace d2s {
namespace {

using ir::Graph;
using ir::Node;
using ir::Type;
using ir::Value;
namespace kind = ir::kind;

SourceRange here() {
  static auto file = std::make_shared<const SourceFile>("bound.py", "");
  return SourceRange(file, 1, 1);
}

// Deterministic values in [-1, 1) with plenty of mantissa bits, so that a different
// summation order would show in the last bits.
Tensor filled(const Shape& shape, uint32_t seed) {
  Tensor t = Tensor::empty(shape, DType::Float32);
  uint32_t state = seed * 2654435761u + 12345u;
  for (int64_t i = 0; i < t.numel(); ++i) {
    state = state * 1664525u + 1013904223u;
    t.data<float>()[i] = static_cast<float>(state >> 8) / static_cast<float>(1u << 23) - 1.0f;
  }
  return t;
}

bool same_bits(const Tensor& a, const Tensor& b) {
  return a.shape() == b.shape() && a.dtype() == b.dtype() &&
         std::memcmp(a.data<float>(), b.data<float>(), a.numel() * sizeof(float)) == 0;
}

Node* op(Graph& g, const std::string& k, const std::vector<Value*>& in,
         const std::string& overload = {}) {
  Node* n = g.insert(k, in, 1, here());
  if (!overload.empty()) n->set_overload(overload);
  return n;
}

TEST(SmallMatmulTest, WritesTheGeneralKernelsBitsIntoAnyBuffer) {
  const std::vector<std::pair<int64_t, int64_t>> sizes = {{1, 1},   {3, 5},   {16, 16},
                                                          {17, 64}, {64, 17}, {64, 64}};
  uint32_t seed = 1;
  for (const auto& [k, n] : sizes) {
    const Tensor b = filled({k, n}, seed++);
    for (bool vector : {true, false}) {
      const Tensor a = vector ? filled({k}, seed++) : filled({1, k}, seed++);
      bool is_vector = !vector;
      ASSERT_EQ(kernels::small_matmul_cols(a, b, false, &is_vector), n) << k << "x" << n;
      EXPECT_EQ(is_vector, vector);
      const Tensor general = kernels::matmul(a, b);
      // A fresh buffer, and one holding stale values of an earlier product.
      Tensor fresh =
          vector ? Tensor::empty({n}, DType::Float32) : Tensor::empty({1, n}, DType::Float32);
      Tensor stale = vector ? Tensor::full({n}, std::nan(""))
                            : Tensor::full({1, n}, std::numeric_limits<float>::infinity());
      kernels::small_matmul_into(a, b, fresh);
      kernels::small_matmul_into(a, b, stale);
      EXPECT_TRUE(same_bits(fresh, general)) << k << "x" << n << (vector ? " 1-D" : " 2-D");
      EXPECT_TRUE(same_bits(stale, general)) << k << "x" << n << (vector ? " 1-D" : " 2-D");
      if (!vector) {
        EXPECT_TRUE(same_bits(fresh, kernels::mm(a, b)));
      }
    }
  }
}

TEST(SmallMatmulTest, LeavesOtherProductsToTheGeneralKernel) {
  bool vector = false;
  const Tensor b = filled({16, 16}, 1);
  EXPECT_EQ(kernels::small_matmul_cols(filled({2, 16}, 2), b, false, &vector), -1);  // 2 rows
  EXPECT_EQ(kernels::small_matmul_cols(filled({16}, 3), b, true, &vector), -1);      // mm: 1-D
  EXPECT_EQ(kernels::small_matmul_cols(filled({15}, 4), b, false, &vector), -1);     // sizes
  EXPECT_EQ(kernels::small_matmul_cols(filled({65}, 5), filled({65, 4}, 6), false, &vector), -1);
  EXPECT_EQ(kernels::small_matmul_cols(filled({4}, 7), filled({4, 65}, 8), false, &vector), -1);
  EXPECT_EQ(kernels::small_matmul_cols(Tensor::zeros({4}, DType::Int64),
                                       Tensor::zeros({4, 4}, DType::Int64), false, &vector),
            -1);
  EXPECT_EQ(kernels::small_matmul_cols(filled({4}, 9), filled({2, 4, 4}, 10), false, &vector), -1);
}

// h = tanh(x @ W + h @ U + b) for `steps` steps, as the parse route lowers it.
struct Rnn {
  Graph g;
  explicit Rnn(int64_t steps) {
    Value* x = g.add_input("x", Type::tensor());
    Value* h0 = g.add_input("h", Type::tensor());
    Value* w = g.add_input("W", Type::tensor());
    Value* u = g.add_input("U", Type::tensor());
    Value* b = g.add_input("b", Type::tensor());
    Value* n = g.insert_constant(IValue(steps), here());
    Value* yes = g.insert_constant(IValue(true), here());
    Node* loop = g.insert(kind::Loop, {n, yes, h0}, 1, here());
    ir::Block* body = loop->add_block();
    body->add_input("i");
    Value* h = body->add_input("h");
    {
      ir::WithInsertPoint guard(g, body);
      Value* xw = op(g, "aten::matmul", {x, w})->output();
      Value* hu = op(g, "aten::matmul", {h, u})->output();
      Value* s = op(g, "aten::add", {xw, hu}, "Tensor")->output();
      s = op(g, "aten::add", {s, b}, "Tensor")->output();
      body->register_output(yes);
      body->register_output(op(g, "aten::tanh", {s})->output());
    }
    g.register_output(loop->output());
  }
};

TEST(SmallMatmulTest, AnRnnLoopReusesDeadBuffersAndGivesTheGeneralKernelsBits) {
  const int64_t steps = 50;
  for (const Shape& xs : {Shape{1, 16}, Shape{16}}) {
    Rnn rnn(steps);
    Executor exec(rnn.g);
    const Tensor x = filled(xs, 1), h = filled(xs, 2), w = filled({16, 16}, 3),
                 u = filled({16, 16}, 4), b = filled({16}, 5);
    ValueList out = exec.run({IValue(x), IValue(h), IValue(w), IValue(u), IValue(b)});
    // The same steps through the registry's kernels, each result a fresh tensor.
    Tensor ref = h;
    for (int64_t i = 0; i < steps; ++i) {
      Tensor s = kernels::binary_op(kernels::BinaryOp::Add, IValue(kernels::matmul(x, w)),
                                    IValue(kernels::matmul(ref, u)));
      s = kernels::binary_op(kernels::BinaryOp::Add, IValue(s), IValue(b));
      OpContext ctx;
      ref = OpRegistry::builtin().call(ctx, "aten::tanh", {IValue(s)}, {}, here()).to_tensor();
    }
    EXPECT_TRUE(same_bits(out[0].to_tensor(), ref)) << shape_str(xs);
    // From the third step on, both products take buffers that died the step before:
    // the previous h (read last by h @ U) and the product consumed by the first add.
    EXPECT_GE(exec.stats().reused_buffers, 2 * (steps - 2)) << shape_str(xs);
    EXPECT_TRUE(same_bits(h, filled(xs, 2))) << "the caller's h was overwritten";
  }
}

// y = x @ W, kept alive by `keep(y)` beyond its slot; then z = x @ U, which must not
// take y's buffer. Returns (kept, z).
ValueList kept_then_product(const std::string& keep_kind) {
  Graph g;
  Value* x = g.add_input("x", Type::tensor());
  Value* w = g.add_input("W", Type::tensor());
  Value* u = g.add_input("U", Type::tensor());
  Value* y = op(g, "aten::matmul", {x, w})->output();
  Value* kept;
  if (keep_kind == kind::ListConstruct) {
    kept = g.insert(kind::ListConstruct, {y}, 1, here())->output();
  } else {
    Value* shape = g.insert_constant(IValue::int_list({16}), here());
    kept = op(g, keep_kind, {y, shape})->output();
  }
  Value* z = op(g, "aten::matmul", {x, u})->output();
  g.register_output(kept);
  g.register_output(z);
  Executor exec(g);
  return exec.run(
      {IValue(filled({1, 16}, 1)), IValue(filled({16, 16}, 2)), IValue(filled({16, 16}, 3))});
}

TEST(SmallMatmulTest, ABufferStillReferredToIsNeverReused) {
  const Tensor x = filled({1, 16}, 1), w = filled({16, 16}, 2), u = filled({16, 16}, 3);
  const Tensor xw = kernels::matmul(x, w), xu = kernels::matmul(x, u);
  // A view of the product (same storage) outlives the product's slot.
  ValueList viewed = kept_then_product("aten::view");
  EXPECT_TRUE(std::memcmp(viewed[0].to_tensor().data<float>(), xw.data<float>(), 64) == 0);
  EXPECT_TRUE(same_bits(viewed[1].to_tensor(), xu));
  // A list holds the product.
  ValueList listed = kept_then_product(kind::ListConstruct);
  EXPECT_TRUE(same_bits(listed[0].items()[0].to_tensor(), xw));
  EXPECT_TRUE(same_bits(listed[1].to_tensor(), xu));
}

TEST(SmallMatmulTest, AGraphOutputKeepsItsBufferAcrossTheRunAndAfter) {
  // a = x @ W is returned and read by tanh; b = x @ U after a's last read; run twice,
  // the caller keeping the first run's outputs.
  Graph g;
  Value* x = g.add_input("x", Type::tensor());
  Value* w = g.add_input("W", Type::tensor());
  Value* u = g.add_input("U", Type::tensor());
  Value* a = op(g, "aten::matmul", {x, w})->output();
  Value* t = op(g, "aten::tanh", {a})->output();
  Value* b = op(g, "aten::matmul", {t, u})->output();
  g.register_output(a);
  g.register_output(b);
  Executor exec(g);
  const Tensor xv = filled({1, 16}, 1), wv = filled({16, 16}, 2), uv = filled({16, 16}, 3);
  const Tensor xw = kernels::matmul(xv, wv);
  ValueList first = exec.run({IValue(xv), IValue(wv), IValue(uv)});
  ValueList second = exec.run({IValue(xv), IValue(wv), IValue(uv)});
  EXPECT_TRUE(same_bits(first[0].to_tensor(), xw));
  EXPECT_TRUE(same_bits(second[0].to_tensor(), xw));
  EXPECT_TRUE(same_bits(first[1].to_tensor(), second[1].to_tensor()));
  EXPECT_FALSE(first[0].to_tensor().shares_storage(second[0].to_tensor()));
}

TEST(SmallMatmulTest, AProductThatNeedsGradientsIsRecorded) {
  Graph g;
  Value* x = g.add_input("x", Type::tensor());
  Value* w = g.add_input("W", Type::tensor());
  g.register_output(op(g, "aten::matmul", {x, w})->output());
  Executor exec(g);
  Tensor wv = filled({16, 16}, 2);
  wv.set_requires_grad(true);
  ValueList out = exec.run({IValue(filled({1, 16}, 1)), IValue(wv)});
  EXPECT_TRUE(out[0].to_tensor().requires_grad());
  EXPECT_FALSE(is_leaf(out[0].to_tensor()));
  GradModeGuard off(false);
  ValueList plain = exec.run({IValue(filled({1, 16}, 1)), IValue(wv)});
  EXPECT_TRUE(same_bits(plain[0].to_tensor(), out[0].to_tensor()));
}

TEST(ExecutorBoundTest, ConstantsAreConvertedOnceAndDefaultsAppended) {
  // aten::add.float(float a, float b) with an int constant: a float every run.
  Graph g;
  Value* f = g.add_input("f", Type::of_float());
  Value* two = g.insert_constant(IValue(int64_t{2}), here());
  Value* sum = op(g, "aten::add", {f, two}, "float")->output();
  // aten::add.Tensor without alpha: its default 1 appended.
  Value* x = g.add_input("x", Type::tensor());
  Value* y = op(g, "aten::add", {x, x}, "Tensor")->output();
  g.register_output(sum);
  g.register_output(y);
  Executor exec(g);
  for (int run = 0; run < 2; ++run) {
    ValueList out = exec.run({IValue(0.5), IValue(Tensor::full({2}, 1.5))});
    ASSERT_TRUE(out[0].is_double()) << out[0].type_name();
    EXPECT_EQ(out[0].to_double(), 2.5);
    EXPECT_EQ(out[1].to_tensor().value_at(0), 3.0);
  }
}

// Planning refuses a graph that reads a value of another graph, although the planner
// finds slots by Value::unique(), which two graphs share: exit 2, the node named.
TEST(ExecutorBoundTest, AValueOfAnotherGraphIsRefusedWhenPlanning) {
  auto plan_error = [](const Graph& g) {
    try {
      Executor exec(g);
    } catch (const Error& e) {
      return e.message() + " (exit " + std::to_string(e.exit_code()) + ")";
    }
    return std::string("no error");
  };
  Graph other;
  Value* foreign = other.add_input("z", Type::tensor());
  Graph g;
  Value* x = g.add_input("x", Type::tensor());  // the same unique() as `foreign`
  g.register_output(op(g, "aten::add", {x, foreign}, "Tensor")->output());
  const std::string msg = plan_error(g);
  EXPECT_EQ(msg.rfind("a value is used before it is defined (in `", 0), 0u) << msg;
  EXPECT_NE(msg.find("(exit 2)"), std::string::npos) << msg;
}

std::string run_error(Graph& g, const ValueList& inputs) {
  Executor exec(g);  // planning accepts it: the error is the run's
  try {
    exec.run(inputs);
  } catch (const Error& e) {
    return e.message() + "\n" + e.hint();
  }
  return "no error";
}

TEST(ExecutorBoundTest, AnArgumentThatDoesNotFitIsTheBindersErrorAtRunTime) {
  {
    // A constant of the wrong type for a named overload.
    Graph g;
    Value* x = g.add_input("x", Type::tensor());
    Value* s = g.insert_constant(IValue("s"), here());
    g.register_output(op(g, "aten::add", {x, x, s}, "Tensor")->output());
    const std::string msg = run_error(g, {IValue(Tensor::zeros({2}))});
    EXPECT_NE(msg.find("add(): argument 'alpha' (position 3) must be Scalar, not str"),
              std::string::npos)
        << msg;
    EXPECT_NE(msg.find("aten::add.Tensor(Tensor self"), std::string::npos) << msg;
  }
  {
    // A slot of the wrong kind for a named overload.
    Graph g;
    Value* x = g.add_input("x", Type::tensor());
    Value* s = g.add_input("s", Type::of_str());
    g.register_output(op(g, "aten::mul", {x, s}, "Tensor")->output());
    const std::string msg = run_error(g, {IValue(Tensor::zeros({2})), IValue("s")});
    EXPECT_NE(msg.find("mul(): argument 'other' (position 2) must be Tensor, not str"),
              std::string::npos)
        << msg;
  }
  {
    // An op with one overload, not named by the node: the overload search's message.
    Graph g;
    Value* s = g.add_input("s", Type::of_str());
    g.register_output(op(g, "aten::tanh", {s})->output());
    const std::string msg = run_error(g, {IValue("s")});
    EXPECT_NE(msg.find("tanh() received an invalid combination of arguments - got (str)"),
              std::string::npos)
        << msg;
  }
}

TEST(ExecutorBoundTest, AnUnnamedOverloadFollowsTheKindsOfEachRun) {
  // aten::add(a, b) with no overload named: ints, then tensors, then ints again.
  Graph g;
  Value* a = g.add_input("a", Type::any());
  Value* b = g.add_input("b", Type::any());
  Value* one = g.insert_constant(IValue(int64_t{1}), here());
  Value* s = op(g, "aten::add", {a, b})->output();
  g.register_output(op(g, "aten::add", {s, one})->output());
  Executor exec(g);
  ValueList ints = exec.run({IValue(int64_t{2}), IValue(int64_t{3})});
  ASSERT_TRUE(ints[0].is_int());
  EXPECT_EQ(ints[0].to_int(), 6);
  ValueList tensors = exec.run({IValue(Tensor::full({2}, 2.0)), IValue(Tensor::full({2}, 3.0))});
  ASSERT_TRUE(tensors[0].is_tensor());
  EXPECT_EQ(tensors[0].to_tensor().value_at(0), 6.0);
  ValueList floats = exec.run({IValue(2.5), IValue(int64_t{3})});
  ASSERT_TRUE(floats[0].is_double()) << floats[0].type_name();
  EXPECT_EQ(floats[0].to_double(), 6.5);
  ValueList again = exec.run({IValue(int64_t{2}), IValue(int64_t{3})});
  ASSERT_TRUE(again[0].is_int());
  EXPECT_EQ(again[0].to_int(), 6);
}

// y = kind(x[, other]) through the executor, against the registry's call of the same
// op on the same values: the same bits, and whether the call took the op's direct entry
// (core/ops/kernels_fast.h) on the second run. (A node naming no overload of an op
// that has several, as tanh with its float one, chooses on its first call by the
// arguments' kinds and is bound from then on.)
struct DirectCase {
  const char* kind;
  const char* overload;
  IValue other;  // none for a unary op
};

int64_t run_direct_case(const DirectCase& c, const Tensor& x, Tensor* result) {
  Graph g;
  Value* xv = g.add_input("x", Type::tensor());
  std::vector<Value*> in = {xv};
  std::vector<IValue> args = {IValue(x)};
  if (!c.other.is_none()) {
    in.push_back(g.add_input("other", Type::any()));
    args.push_back(c.other);
  }
  g.register_output(op(g, c.kind, in, c.overload)->output());
  Executor exec(g);
  exec.run(args);
  ValueList out = exec.run(args);
  *result = out[0].to_tensor();
  return exec.stats().direct_calls;
}

TEST(ExecutorDirectTest, FloatOperandsTakeTheDirectEntryWithTheKernelsBits) {
  Tensor x = filled({4, 16}, 1);
  x.data<float>()[3] = std::nanf("");
  x.data<float>()[5] = -0.0f;
  const std::vector<DirectCase> cases = {
      {"aten::add", "Tensor", IValue(filled({4, 16}, 2))},
      {"aten::add", "Tensor", IValue(filled({16}, 3))},  // a bias along the last dimension
      {"aten::add", "Tensor", IValue(1.0)},
      {"aten::sub", "Tensor", IValue(int64_t{2})},
      {"aten::mul", "Tensor", IValue(0.5)},
      {"aten::mul", "Tensor", IValue(filled({4, 16}, 4))},
      {"aten::div", "Tensor", IValue(filled({16}, 5))},
      {"aten::tanh", "", IValue()},
      {"aten::relu", "", IValue()},
      {"aten::sigmoid", "", IValue()},
  };
  for (const DirectCase& c : cases) {
    Tensor got;
    EXPECT_EQ(run_direct_case(c, x, &got), 1) << c.kind << " " << c.other.repr();
    ValueList args = {IValue(x)};
    if (!c.other.is_none()) args.push_back(c.other);
    OpContext ctx;
    const Tensor want = OpRegistry::builtin().call(ctx, c.kind, args, {}, here()).to_tensor();
    EXPECT_TRUE(same_bits(got, want)) << c.kind << " " << c.other.repr();
  }
  EXPECT_TRUE(same_bits(x,
                        [] {
                          Tensor again = filled({4, 16}, 1);
                          again.data<float>()[3] = std::nanf("");
                          again.data<float>()[5] = -0.0f;
                          return again;
                        }()))
      << "the caller's x was written";
}

TEST(ExecutorDirectTest, OtherOperandsAndAlphaTakeTheRegistrysCall) {
  const Tensor x = filled({4, 16}, 1);
  Tensor got;
  // A broadcast other than along the last dimension, an int64 tensor, a bool.
  EXPECT_EQ(run_direct_case({"aten::add", "Tensor", IValue(filled({4, 1}, 2))}, x, &got), 0);
  EXPECT_EQ(got.shape(), (Shape{4, 16}));
  EXPECT_EQ(run_direct_case({"aten::mul", "Tensor", IValue(filled({4, 16}, 2))},
                            Tensor::full({4, 16}, 3.0, DType::Int64), &got),
            0);
  EXPECT_EQ(got.dtype(), DType::Float32);
  EXPECT_EQ(
      run_direct_case({"aten::relu", "", IValue()}, Tensor::full({3}, 2.0, DType::Int64), &got), 0);
  EXPECT_EQ(got.dtype(), DType::Int64);
  // add with alpha 2 is bound without the direct entry.
  Graph g;
  Value* a = g.add_input("a", Type::tensor());
  Value* two = g.insert_constant(IValue(int64_t{2}), here());
  g.register_output(op(g, "aten::add", {a, a, two}, "Tensor")->output());
  Executor exec(g);
  ValueList out = exec.run({IValue(Tensor::full({2}, 1.5))});
  EXPECT_EQ(out[0].to_tensor().value_at(0), 4.5);
  EXPECT_EQ(exec.stats().direct_calls, 0);
}

TEST(ExecutorDirectTest, OperandsThatNeedGradientsAreRecorded) {
  Tensor x = filled({2, 3}, 1);
  x.set_requires_grad(true);
  Tensor got;
  EXPECT_EQ(run_direct_case({"aten::tanh", "", IValue()}, x, &got), 0);
  EXPECT_TRUE(got.requires_grad());
  EXPECT_FALSE(is_leaf(got));
  GradModeGuard off(false);
  EXPECT_EQ(run_direct_case({"aten::tanh", "", IValue()}, x, &got), 1);
  EXPECT_FALSE(got.requires_grad());
}

TEST(ExecutorDirectTest, AResultWritesIntoADeadOperandOnlyWhenNothingElseSeesIt) {
  // t = tanh(x); y = t * 0.5 (t dies: its buffer takes y); z = y + y (y is returned,
  // so z takes a fresh buffer); the RNN's steps take the direct entries too.
  Graph g;
  Value* x = g.add_input("x", Type::tensor());
  Value* half = g.insert_constant(IValue(0.5), here());
  Value* t = op(g, "aten::tanh", {x})->output();
  Value* y = op(g, "aten::mul", {t, half}, "Tensor")->output();
  Value* z = op(g, "aten::add", {y, y}, "Tensor")->output();
  g.register_output(y);
  g.register_output(z);
  Executor exec(g);
  const Tensor xv = filled({8}, 1);
  exec.run({IValue(xv)});
  ValueList out = exec.run({IValue(xv)});
  OpContext ctx;
  const Tensor want_y = kernels::binary_op(
      kernels::BinaryOp::Mul,
      OpRegistry::builtin().call(ctx, "aten::tanh", {IValue(xv)}, {}, here()), IValue(0.5));
  EXPECT_TRUE(same_bits(out[0].to_tensor(), want_y));
  EXPECT_TRUE(same_bits(out[1].to_tensor(), kernels::binary_op(kernels::BinaryOp::Add,
                                                               IValue(want_y), IValue(want_y))));
  EXPECT_FALSE(out[0].to_tensor().shares_storage(out[1].to_tensor()));
  EXPECT_TRUE(same_bits(xv, filled({8}, 1))) << "the caller's x was written";
  EXPECT_EQ(exec.stats().direct_calls, 3);

  Rnn rnn(10);
  Executor loop(rnn.g);
  GradModeGuard off(false);
  const ValueList inputs = {IValue(filled({1, 16}, 1)), IValue(filled({1, 16}, 2)),
                            IValue(filled({16, 16}, 3)), IValue(filled({16, 16}, 4)),
                            IValue(filled({16}, 5))};
  loop.run(inputs);
  loop.run(inputs);
  EXPECT_EQ(loop.stats().direct_calls, 3 * 10);  // add, add, tanh per step
}

}  // namespace
}  // namespace d2s
