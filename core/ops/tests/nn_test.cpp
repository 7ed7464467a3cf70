#include <gtest/gtest.h>

#include <cmath>

#include "core/ops/tests/kernel_test_util.h"

namespace d2s {
namespace {

using test::call;
using test::call_error;
using test::callt;
using test::F;

TEST(NN, Linear) {
  Tensor x = F({2, 3}, {1, 2, 3, -1, 0, 1});
  Tensor w = F({2, 3}, {1, 0, 0, 0.5f, 0.5f, 0.5f});
  Tensor b = F({2}, {10, 20});
  Tensor y = callt("aten::linear", {x, w, b});
  ASSERT_EQ(y.shape(), (Shape{2, 2}));
  std::vector<float> want;
  for (int i = 0; i < 2; ++i)
    for (int o = 0; o < 2; ++o) {
      float s = b.data<float>()[o];
      for (int k = 0; k < 3; ++k) s += x.data<float>()[i * 3 + k] * w.data<float>()[o * 3 + k];
      want.push_back(s);
    }
  EXPECT_EQ(test::floats(y), want);
  EXPECT_EQ(callt("aten::linear", {Tensor::zeros({4, 2, 3}), w}).shape(), (Shape{4, 2, 2}));
  EXPECT_EQ(callt("aten::linear", {Tensor::zeros({3}), w}).shape(), Shape{2});
  EXPECT_EQ(call_error("aten::linear", {Tensor::zeros({1, 10}), Tensor::zeros({20, 20})}),
            "mat1 and mat2 shapes cannot be multiplied (1x10 and 20x20)");
  EXPECT_EQ(call_error("aten::linear", {Tensor::zeros({2, 3, 10}), Tensor::zeros({5, 20})}),
            "mat1 and mat2 shapes cannot be multiplied (6x10 and 20x5)");
}

TEST(NN, Gelu) {
  Tensor x = F({3}, {-1, 0, 2});
  Tensor y = callt("aten::gelu", {x});
  for (int i = 0; i < 3; ++i) {
    double v = x.data<float>()[i];
    EXPECT_NEAR(y.data<float>()[i], 0.5 * v * (1 + std::erf(v / std::sqrt(2.0))), 1e-6);
  }
  Tensor t = callt("aten::gelu", {x}, {{"approximate", IValue("tanh")}});
  for (int i = 0; i < 3; ++i) {
    double v = x.data<float>()[i];
    double want = 0.5 * v * (1 + std::tanh(std::sqrt(2 / M_PI) * (v + 0.044715 * v * v * v)));
    EXPECT_NEAR(t.data<float>()[i], want, 1e-6);
  }
  EXPECT_EQ(call_error("aten::gelu", {x}, {{"approximate", IValue("x")}}),
            "approximate argument must be either none or tanh.");
  EXPECT_EQ(call_error("aten::gelu", {test::I({1}, {1})}),
            "\"GeluKernelImpl\" not implemented for 'Long'");
}

TEST(NN, SoftmaxAndLogSoftmax) {
  Tensor x = F({2, 3}, {1, 2, 3, 0, 0, 0});
  Tensor s = callt("aten::softmax", {x, IValue(1)});
  double e1 = std::exp(1.0), e2 = std::exp(2.0), e3 = std::exp(3.0), z = e1 + e2 + e3;
  EXPECT_NEAR(s.data<float>()[0], e1 / z, 1e-7);
  EXPECT_NEAR(s.data<float>()[2], e3 / z, 1e-7);
  EXPECT_NEAR(s.data<float>()[4], 1.0 / 3, 1e-7);
  Tensor s0 = callt("aten::softmax", {x}, {{"dim", IValue(0)}});
  EXPECT_NEAR(s0.data<float>()[0], std::exp(1.0) / (std::exp(1.0) + 1), 1e-7);
  Tensor l = callt("aten::log_softmax", {x, IValue(-1)});
  EXPECT_NEAR(l.data<float>()[1], 2 - std::log(z), 1e-6);
  // Large values do not overflow (the max is subtracted first).
  Tensor big = callt("aten::softmax", {F({2}, {1000, 1000}), IValue(0)});
  EXPECT_EQ(test::floats(big), (std::vector<float>{0.5f, 0.5f}));
  // No dim: PyTorch's legacy choice (dim 1 for 2-D input).
  EXPECT_NEAR(callt("aten::softmax", {x}).data<float>()[0], e1 / z, 1e-7);
  EXPECT_EQ(call_error("aten::softmax", {test::I({2}, {1, 2}), IValue(0)}),
            "\"softmax_lastdim_kernel_impl\" not implemented for 'Long'");
  EXPECT_EQ(callt("aten::softmax", {test::I({2}, {1, 2}), IValue(0), IValue(6)}).dtype(),
            DType::Float32);
}

TEST(NN, LayerNorm) {
  Tensor x = F({2, 4}, {1, 2, 3, 4, -1, -1, 1, 1});
  Tensor w = F({4}, {1, 2, 1, 1});
  Tensor b = F({4}, {0, 0, 0, 1});
  Tensor y = callt("aten::layer_norm", {x, IValue::list({IValue(4)}), w, b});
  for (int r = 0; r < 2; ++r) {
    double mean = 0, var = 0;
    for (int j = 0; j < 4; ++j) mean += x.data<float>()[r * 4 + j] / 4.0;
    for (int j = 0; j < 4; ++j) var += std::pow(x.data<float>()[r * 4 + j] - mean, 2) / 4.0;
    for (int j = 0; j < 4; ++j) {
      double want =
          (x.data<float>()[r * 4 + j] - mean) / std::sqrt(var + 1e-5) * w.data<float>()[j] +
          b.data<float>()[j];
      EXPECT_NEAR(y.data<float>()[r * 4 + j], want, 1e-5);
    }
  }
  EXPECT_EQ(call_error("aten::layer_norm", {Tensor::zeros({2, 5}), IValue::list({IValue(10)})}),
            "Given normalized_shape=[10], expected input with shape [*, 10], but got input of "
            "size[2, 5]");
  EXPECT_EQ(call_error("aten::layer_norm",
                       {Tensor::zeros({2, 4}), IValue::list({IValue(4)}), Tensor::zeros({5})}),
            "Expected weight to be of same shape as normalized_shape, but got weight of shape [5] "
            "and normalized_shape = [4]");
}

TEST(NN, Dropout) {
  Tensor x = Tensor::full({1000}, 2);
  // Identity outside training.
  EXPECT_EQ(test::floats(callt("aten::dropout", {x, IValue(0.5)})), test::floats(x));
  Generator g(1);
  Tensor y = call("aten::dropout", {x, IValue(0.25)}, {}, &g, true).to_tensor();
  Generator ref(1);
  for (int i = 0; i < 1000; ++i) {
    bool keep = static_cast<double>(ref.uniform()) < 0.75;
    EXPECT_EQ(y.data<float>()[i], keep ? 2 * (1.0f / 0.75f) : 0.0f) << i;
  }
  // An explicit training argument wins over the context.
  Generator g2(1);
  EXPECT_EQ(test::floats(
                call("aten::dropout", {x, IValue(0.25)}, {{"training", IValue(false)}}, &g2, true)
                    .to_tensor()),
            test::floats(x));
  EXPECT_EQ(test::floats(call("aten::dropout", {x, IValue(1.0)}, {}, &g2, true).to_tensor()),
            std::vector<float>(1000, 0));
  EXPECT_EQ(call_error("aten::dropout", {x, IValue(1.5)}),
            "dropout probability has to be between 0 and 1, but got 1.5");
  EXPECT_EQ(test::error_of([&] { call("aten::dropout", {x}, {}, nullptr, true); }),
            "dropout(): no random generator was given to this call");
}

TEST(NN, OtherActivationsAndLoss) {
  Tensor x = F({2}, {-2, 3});
  EXPECT_NEAR(callt("aten::silu", {x}).data<float>()[1], 3 / (1 + std::exp(-3.0)), 1e-6);
  EXPECT_EQ(test::floats(callt("aten::leaky_relu", {x})), (std::vector<float>{-0.02f, 3}));
  EXPECT_NEAR(callt("aten::softplus", {x}).data<float>()[0], std::log1p(std::exp(-2.0)), 1e-6);
  Tensor t = F({2}, {0, 1});
  EXPECT_EQ(callt("aten::mse_loss", {x, t}).item(), (4.0 + 4.0) / 2);
  EXPECT_EQ(callt("aten::mse_loss", {x, t}, {{"reduction", IValue("sum")}}).item(), 8);
  EXPECT_EQ(callt("aten::mse_loss", {x, t}, {{"reduction", IValue("none")}}).shape(), Shape{2});
}

}  // namespace
}  // namespace d2s
