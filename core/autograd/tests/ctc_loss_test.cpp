// aten::ctc_loss (core/autograd/ctc_loss.cpp): values a hand computation gives, and each bad
// argument's message. PyTorch parity (values and gradients) is in
// tests/parity/training/ctc_loss.py; the derivative's finite differences in
// autograd_fd_test.cpp.
#include <cmath>

#include "core/ops/tests/kernel_test_util.h"

namespace d2s::test {
namespace {

IValue ints_v(std::vector<int64_t> v) {
  return IValue::int_list(v);
}

// T = 2, one sequence, C = 2, uniform probabilities 1/2: for target [1] the alignments
// are (1,1), (0,1), (1,0), each of probability 1/4, so nll = -log(3/4).
TEST(CtcLoss, TwoFramesOneLabelByHand) {
  const float h = std::log(0.5f);
  Tensor lp = F({2, 1, 2}, {h, h, h, h});
  Tensor loss =
      callt("aten::ctc_loss", {IValue(lp), IValue(I({1, 1}, {1})), ints_v({2}), ints_v({1}),
                               IValue(int64_t{0}), IValue("sum"), IValue(false)});
  EXPECT_NEAR(loss.item(), -std::log(0.75), 1e-6);
  // 'mean' divides by the target length (1) and the batch (1): the same value.
  Tensor mean = callt("aten::ctc_loss",
                      {IValue(lp), IValue(I({1}, {1})), IValue(I({1}, {2})), IValue(I({1}, {1})),
                       IValue(int64_t{0}), IValue("mean"), IValue(false)});
  EXPECT_NEAR(mean.item(), -std::log(0.75), 1e-6);
}

// A repeated label needs a blank between: [1, 1] in 2 frames cannot align.
TEST(CtcLoss, ImpossibleAlignmentIsInfiniteUnlessZeroInfinity) {
  const float h = std::log(0.5f);
  Tensor lp = F({2, 1, 2}, {h, h, h, h});
  ValueList args{IValue(lp),   IValue(I({1, 2}, {1, 1})), ints_v({2}),
                 ints_v({2}),  IValue(int64_t{0}),        IValue("none"),
                 IValue(false)};
  EXPECT_TRUE(std::isinf(callt("aten::ctc_loss", args).item()));
  args[6] = IValue(true);
  EXPECT_EQ(callt("aten::ctc_loss", args).item(), 0.0);
}

TEST(CtcLoss, BadArgumentsSayWhat) {
  Tensor lp = Tensor::zeros({3, 2, 4});
  auto err = [&](IValue targets, IValue il, IValue tl, int64_t blank = 0) {
    return error_of([&] {
      call("aten::ctc_loss", {IValue(lp), std::move(targets), std::move(il), std::move(tl),
                              IValue(blank), IValue("mean"), IValue(false)});
    });
  };
  const IValue padded(I({2, 2}, {1, 2, 3, 1}));
  EXPECT_NE(err(padded, ints_v({3, 3}), ints_v({2, 2}), 4).find("blank must be in label range"),
            std::string::npos);
  EXPECT_NE(
      err(padded, ints_v({3}), ints_v({2, 2})).find("input_lengths must be of size batch_size"),
      std::string::npos);
  EXPECT_NE(
      err(padded, ints_v({3, 3}), ints_v({2})).find("target_lengths must be of size batch_size"),
      std::string::npos);
  EXPECT_NE(err(padded, ints_v({4, 3}), ints_v({2, 2}))
                .find("Expected input_lengths to have value at most 3, but got value 4"),
            std::string::npos);
  EXPECT_NE(err(padded, ints_v({3, 3}), ints_v({3, 2})).find("size at least 3 at dimension 1"),
            std::string::npos);
  EXPECT_NE(err(padded, ints_v({3, 3}), ints_v({2, -1})).find("target_lengths must be >= 0"),
            std::string::npos);
  EXPECT_NE(err(IValue(I({2, 2}, {1, 7, 3, 1})), ints_v({3, 3}), ints_v({2, 2}))
                .find("is not a class index in [0, 4)"),
            std::string::npos);
  EXPECT_NE(err(IValue(I({3}, {1, 2, 3})), ints_v({3, 3}), ints_v({2, 2}))
                .find("Expected tensor to have size 4 at dimension 0, but got size 3"),
            std::string::npos);
  EXPECT_NE(err(padded, IValue("x"), ints_v({2, 2}))
                .find("input_lengths must be a tuple of ints or a Tensor"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              call("aten::ctc_loss",
                   {IValue(Tensor::zeros({3})), padded, ints_v({3, 3}), ints_v({2, 2}),
                    IValue(int64_t{0}), IValue("mean"), IValue(false)});
            }).find("log_probs must be [T, N, C] or [T, C]"),
            std::string::npos);
}

}  // namespace
}  // namespace d2s::test
