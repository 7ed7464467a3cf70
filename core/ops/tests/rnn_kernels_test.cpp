// The recurrent kernels' dropout between layers (kernels_rnn.cpp), which the parity suite
// cannot compare with PyTorch (its generator differs): the identity when not training,
// every element dropped at p = 1 in training (the second layer then sees zeros), and the
// gradient refused in training, whose result keeps no masks.
#include <gtest/gtest.h>

#include "core/base/error.h"
#include "core/ops/kernels_rnn.h"
#include "core/tensor/random.h"

namespace d2s {
namespace {

using kernels::rnn::Mode;

Tensor filled(const Shape& shape, Generator& g, float scale) {
  Tensor t = Tensor::empty(shape, DType::Float32);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = (2 * g.uniform() - 1) * scale;
  return t;
}

kernels::rnn::SequenceArgs two_layer_gru(double dropout, bool train) {
  Generator g(5);
  kernels::rnn::SequenceArgs a;
  a.mode = Mode::Gru;
  a.input = filled({4, 2, 3}, g, 1.0f);
  a.h0 = filled({2, 2, 3}, g, 1.0f);
  for (const Shape& s : {Shape{9, 3}, Shape{9, 3}, Shape{9}, Shape{9}, Shape{9, 3}, Shape{9, 3},
                         Shape{9}, Shape{9}}) {
    a.params.push_back(filled(s, g, 0.5f));
  }
  a.num_layers = 2;
  a.dropout = dropout;
  a.train = train;
  return a;
}

bool same(const Tensor& x, const Tensor& y) {
  if (x.shape() != y.shape()) return false;
  for (int64_t i = 0; i < x.numel(); ++i) {
    if (x.data<float>()[i] != y.data<float>()[i]) return false;
  }
  return true;
}

TEST(RnnKernels, DropoutIsTheIdentityWhenNotTraining) {
  Generator gen(1);
  const auto plain = kernels::rnn::run_sequence(two_layer_gru(0.0, false), &gen);
  const auto eval = kernels::rnn::run_sequence(two_layer_gru(0.7, false), &gen);
  EXPECT_TRUE(same(plain.output, eval.output));
  EXPECT_TRUE(same(plain.h_n, eval.h_n));
}

TEST(RnnKernels, DropoutOfOneInTrainingFeedsZerosToTheNextLayer) {
  Generator gen(1);
  kernels::rnn::SequenceArgs a = two_layer_gru(1.0, true);
  const auto dropped = kernels::rnn::run_sequence(a, &gen);
  // The second layer alone, from its own state, over zeros.
  kernels::rnn::SequenceArgs second = a;
  second.input = Tensor::zeros({4, 2, 3});
  second.h0 = Tensor::zeros({1, 2, 3});
  std::copy_n(a.h0.data<float>() + 6, 6, second.h0.data<float>());
  second.params.assign(a.params.begin() + 4, a.params.end());
  second.num_layers = 1;
  second.train = false;
  const auto alone = kernels::rnn::run_sequence(second, &gen);
  EXPECT_TRUE(same(dropped.output, alone.output));
}

TEST(RnnKernels, TheGradientWithDropoutInTrainingIsRefused) {
  const kernels::rnn::SequenceArgs a = two_layer_gru(0.5, true);
  const Tensor g = Tensor::zeros({4, 2, 3});
  try {
    kernels::rnn::sequence_backward(a, g, Tensor::zeros({2, 2, 3}), Tensor());
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(e.message().find("dropout between layers in training mode"), std::string::npos)
        << e.message();
  }
  // Not training, or one layer: the gradient runs.
  EXPECT_NO_THROW(kernels::rnn::sequence_backward(two_layer_gru(0.5, false), g,
                                                  Tensor::zeros({2, 2, 3}), Tensor()));
}

}  // namespace
}  // namespace d2s
