// The autograd engine (core/autograd/autograd.h): recording at dispatch, accumulation, grad
// mode, detach, in-place checks, errors, and a tape far longer than the stack allows
// recursion over.
#include "core/autograd/autograd.h"

#include <gtest/gtest.h>

#include <functional>

#include "core/autograd/tests/autograd_test_util.h"
#include "core/base/error.h"
#include "core/exec/executor.h"
#include "core/ir/ir.h"
#include "core/ir/tests/ir_test_util.h"

namespace d2s {
namespace {

using test::call;
using test::callt;
using test::error_of;
using test::leaf;
using test::values;

TEST(Autograd, ChainRuleThroughSharedInputs) {
  // y = sum(x * x + 3 x): dy/dx = 2x + 3; x is used twice, the gradients add.
  Tensor x = leaf({3}, {1, -2, 0.5});
  Tensor y =
      callt("aten::sum",
            {IValue(callt("aten::add", {IValue(callt("aten::mul", {IValue(x), IValue(x)})),
                                        IValue(callt("aten::mul", {IValue(x), IValue(3.0)}))}))});
  EXPECT_TRUE(y.requires_grad());
  EXPECT_FALSE(is_leaf(y));
  backward(y);
  EXPECT_EQ(values(grad_of(x)), (std::vector<float>{5, -1, 4}));
}

TEST(Autograd, BackwardAccumulatesAndGradientArgument) {
  Tensor x = leaf({2}, {1, 2});
  Tensor y = callt("aten::mul", {IValue(x), IValue(2.0)});
  backward(y, Tensor::from_floats({2}, {1, 10}));
  EXPECT_EQ(values(grad_of(x)), (std::vector<float>{2, 20}));
  backward(y, Tensor::from_floats({2}, {1, 1}));  // the graph is kept: accumulates
  EXPECT_EQ(values(grad_of(x)), (std::vector<float>{4, 22}));
  clear_grad(x);
  EXPECT_FALSE(grad_of(x).defined());
}

TEST(Autograd, NoGradAndDetachRecordNothing) {
  Tensor x = leaf({2}, {1, 2});
  {
    NoGradGuard guard;
    EXPECT_FALSE(grad_mode_enabled());
    EXPECT_FALSE(callt("aten::mul", {IValue(x), IValue(2.0)}).requires_grad());
  }
  EXPECT_TRUE(grad_mode_enabled());
  Tensor d = callt("aten::detach", {IValue(x)});
  EXPECT_FALSE(d.requires_grad());
  EXPECT_TRUE(x.requires_grad());
  // Sizes, comparisons and indices carry no gradient.
  EXPECT_FALSE(callt("aten::gt", {IValue(x), IValue(1.0)}).requires_grad());
}

TEST(Autograd, Errors) {
  Tensor x = leaf({2}, {1, 2});
  Tensor y = callt("aten::mul", {IValue(x), IValue(2.0)});
  try {
    backward(y);
    FAIL() << "a two-element root needs a gradient";
  } catch (const Error& e) {
    EXPECT_NE(e.message().find("only for scalar outputs"), std::string::npos) << e.message();
  }
  EXPECT_THROW(backward(Tensor::from_floats({1}, {1})), Error);  // does not require grad
  try {
    call("aten::add_", {IValue(x), IValue(1.0)});
    FAIL() << "in-place on a leaf that requires grad";
  } catch (const Error& e) {
    EXPECT_NE(e.message().find("a leaf Variable that requires grad"), std::string::npos);
  }
  Tensor i = Tensor::from_ints({2}, {1, 2});
  EXPECT_THROW(set_requires_grad(i, true), Error);
  // Creation from a tensor's shape carries no gradient.
  Tensor z = leaf({2}, {1, 2});
  Tensor w = callt("aten::zeros_like", {IValue(z)});
  EXPECT_FALSE(w.requires_grad());
}

TEST(Autograd, LongChainNeedsNoRecursion) {
  // 100k nodes: a recursive walk (or a recursive free) would overflow the stack.
  Tensor x = leaf({1}, {1});
  Tensor y = x;
  for (int i = 0; i < 100000; ++i) y = callt("aten::mul", {IValue(y), IValue(1.0)});
  backward(callt("aten::sum", {IValue(y)}));
  EXPECT_EQ(values(grad_of(x)), (std::vector<float>{1}));
}

// The executor calls ops through run_op: a graph's gradients come from what it ran,
// through the taken If branch and every Loop iteration. Checked against finite
// differences of the same graph.
double sum_of_output(Executor& exec, const ValueList& inputs) {
  NoGradGuard no_grad;
  ValueList out = exec.run(inputs);
  double total = 0;
  for (int64_t i = 0; i < out[0].to_tensor().numel(); ++i) total += out[0].to_tensor().value_at(i);
  return total;
}

void check_graph_gradient(const ir::Graph& g, const std::function<ValueList(const Tensor&)>& with,
                          Tensor x) {
  Executor exec(g);
  Tensor taped = x.clone();
  set_requires_grad(taped, true);
  ValueList out = exec.run(with(taped));
  Tensor total = callt("aten::sum", {out[0]});
  if (total.requires_grad()) backward(total);  // else: the branch taken ignores x
  for (int64_t j = 0; j < x.numel(); ++j) {
    Tensor up = x.clone(), down = x.clone();
    up.data<float>()[j] += 1e-2f;
    down.data<float>()[j] -= 1e-2f;
    const double numeric = (sum_of_output(exec, with(up)) - sum_of_output(exec, with(down))) / 2e-2;
    const double analytic = grad_of(taped).defined() ? grad_of(taped).value_at(j) : 0.0;
    EXPECT_NEAR(analytic, numeric, 1e-2) << j;
  }
}

TEST(Autograd, ExecutorTapesThroughLoop) {
  auto g = ir::testing::make_loop(false);  // for i in range(n): h = tanh(h) + i
  Tensor h = Tensor::from_floats({1, 4}, {0.3f, -0.5f, 0.1f, 0.9f});
  check_graph_gradient(
      *g,
      [](const Tensor& t) {
        return ValueList{IValue(int64_t{3}), IValue(t)};
      },
      h);
}

TEST(Autograd, ExecutorTapesThroughIf) {
  auto g = ir::testing::make_foo1();  // if x < y: s = x + y else: s = y
  const Tensor y = Tensor::from_floats({1, 1}, {0.5f});
  for (float v : {0.2f, 0.8f}) {  // then, else
    check_graph_gradient(
        *g,
        [&](const Tensor& t) {
          return ValueList{IValue(t), IValue(y)};
        },
        Tensor::from_floats({1, 1}, {v}));
  }
}

}  // namespace
}  // namespace d2s
