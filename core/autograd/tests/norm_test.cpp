// The normalisation kernels beyond the finite-difference walk (autograd_fd_test.cpp):
// batch_norm's running-statistics update (momentum, unbiased variance, the write the
// schema marks), its eval mode through the running statistics and that mode's
// derivative, and the messages of bad configurations.
#include <gtest/gtest.h>

#include <cmath>

#include "core/autograd/autograd.h"
#include "core/base/error.h"
#include "core/ops/op_registry.h"

namespace d2s {
namespace {

IValue call(const std::string& op, const ValueList& args) {
  OpContext ctx;
  return OpRegistry::builtin().call(ctx, "aten::" + op, args, {}, SourceRange());
}

TEST(BatchNorm, TrainingUpdatesRunningStatisticsWithUnbiasedVariance) {
  // One channel, values 1, 2, 3, 6: mean 3, biased variance 3.5, unbiased 14/3.
  Tensor x = Tensor::from_floats({4, 1}, {1, 2, 3, 6});
  Tensor rm = Tensor::from_floats({1}, {1.0f});
  Tensor rv = Tensor::from_floats({1}, {2.0f});
  const uint64_t version = rm.version();
  Tensor y = call("batch_norm", {IValue(x), IValue(), IValue(), IValue(rm), IValue(rv),
                                 IValue(true), IValue(0.25), IValue(0.0), IValue(true)})
                 .to_tensor();
  EXPECT_NEAR(rm.value_at(0), 0.25 * 3 + 0.75 * 1, 1e-6);
  EXPECT_NEAR(rv.value_at(0), 0.25 * 14.0 / 3.0 + 0.75 * 2, 1e-6);
  EXPECT_NEAR(y.value_at(3), (6 - 3) / std::sqrt(3.5), 1e-5);
  EXPECT_GT(rm.version(), version);  // the write is seen by the autograd's checks
  EXPECT_TRUE(OpRegistry::builtin().find_qualified("aten::batch_norm")->mutates);
}

TEST(BatchNorm, EvalUsesRunningStatisticsAndLeavesThem) {
  Tensor x = Tensor::from_floats({2, 2}, {1, 2, 3, 4});
  Tensor rm = Tensor::from_floats({2}, {1.0f, -1.0f});
  Tensor rv = Tensor::from_floats({2}, {4.0f, 0.25f});
  Tensor w = Tensor::from_floats({2}, {2.0f, 1.0f});
  Tensor y = call("batch_norm", {IValue(x), IValue(w), IValue(), IValue(rm), IValue(rv),
                                 IValue(false), IValue(0.1), IValue(0.0), IValue(true)})
                 .to_tensor();
  EXPECT_NEAR(y.value_at(0), 2 * (1 - 1) / 2.0, 1e-6);
  EXPECT_NEAR(y.value_at(3), (4 + 1) / 0.5, 1e-5);
  EXPECT_EQ(rm.value_at(0), 1.0f);
  EXPECT_EQ(rv.value_at(1), 0.25f);
}

TEST(BatchNorm, EvalDerivativeMatchesFiniteDifferences) {
  Tensor rm = Tensor::from_floats({3}, {0.2f, -0.4f, 1.0f});
  Tensor rv = Tensor::from_floats({3}, {0.5f, 2.0f, 1.5f});
  std::vector<float> xs = {0.3f, -1.2f, 0.7f, 1.1f, -0.5f, 0.9f};
  std::vector<float> ws = {1.5f, -0.7f, 0.4f};
  auto f = [&](const std::vector<float>& xv, const std::vector<float>& wv, bool taped, Tensor* gx,
               Tensor* gw) {
    Tensor x = Tensor::from_floats({2, 3}, xv);
    Tensor w = Tensor::from_floats({3}, wv);
    if (taped) {
      set_requires_grad(x, true);
      set_requires_grad(w, true);
    }
    OpContext ctx;
    Tensor y = run_op(*OpRegistry::builtin().find_qualified("aten::batch_norm"), ctx,
                      {IValue(x), IValue(w), IValue(), IValue(rm), IValue(rv), IValue(false),
                       IValue(0.1), IValue(1e-5), IValue(true)})
                   .to_tensor();
    Tensor weights = Tensor::from_floats({2, 3}, {0.5f, -1.0f, 0.25f, 2.0f, 1.0f, -0.5f});
    if (taped) {
      backward(y, weights);
      *gx = grad_of(x);
      *gw = grad_of(w);
    }
    double total = 0;
    for (int64_t i = 0; i < y.numel(); ++i) total += y.value_at(i) * weights.value_at(i);
    return total;
  };
  Tensor gx, gw;
  f(xs, ws, true, &gx, &gw);
  const double eps = 1e-2;
  for (size_t i = 0; i < xs.size(); ++i) {
    std::vector<float> up = xs, down = xs;
    up[i] += static_cast<float>(eps);
    down[i] -= static_cast<float>(eps);
    const double numeric =
        (f(up, ws, false, nullptr, nullptr) - f(down, ws, false, nullptr, nullptr)) / (2 * eps);
    EXPECT_NEAR(gx.value_at(static_cast<int64_t>(i)), numeric, 1e-3) << "x " << i;
  }
  for (size_t i = 0; i < ws.size(); ++i) {
    std::vector<float> up = ws, down = ws;
    up[i] += static_cast<float>(eps);
    down[i] -= static_cast<float>(eps);
    const double numeric =
        (f(xs, up, false, nullptr, nullptr) - f(xs, down, false, nullptr, nullptr)) / (2 * eps);
    EXPECT_NEAR(gw.value_at(static_cast<int64_t>(i)), numeric, 1e-3) << "w " << i;
  }
}

TEST(BatchNorm, Messages) {
  auto message = [](const ValueList& args) {
    try {
      call("batch_norm", args);
    } catch (const Error& e) {
      return e.message();
    }
    return std::string("no error");
  };
  Tensor one = Tensor::from_floats({1, 2}, {1, 2});
  EXPECT_EQ(message({IValue(one), IValue(), IValue(), IValue(), IValue(), IValue(true), IValue(0.1),
                     IValue(1e-5), IValue(true)}),
            "ValueError: Expected more than 1 value per channel when training, got input size "
            "torch.Size([1, 2])");
  EXPECT_EQ(message({IValue(one), IValue(), IValue(), IValue(), IValue(), IValue(false),
                     IValue(0.1), IValue(1e-5), IValue(true)}),
            "running_mean and running_var must be defined in evaluation mode");
}

TEST(BinaryCrossEntropy, WeightRequiringGradIsPyTorchsError) {
  Tensor w = Tensor::from_floats({2}, {0.5f, 2.0f});
  set_requires_grad(w, true);
  try {
    call("binary_cross_entropy", {IValue(Tensor::from_floats({2}, {0.2f, 0.7f})),
                                  IValue(Tensor::from_floats({2}, {0.0f, 1.0f})), IValue(w)});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.message(),
              "The function 'binary_cross_entropy' is not differentiable with respect to "
              "argument 'weight'. This input cannot have requires_grad True.");
  }
}

TEST(GroupNorm, ChannelsMustDivide) {
  try {
    call("group_norm", {IValue(Tensor::zeros({2, 6, 2})), IValue(int64_t{4})});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(e.message().find("divisible by num_groups"), std::string::npos);
  }
}

}  // namespace
}  // namespace d2s
