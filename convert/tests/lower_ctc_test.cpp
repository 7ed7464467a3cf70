// The parse route of F.ctc_loss / nn.CTCLoss's op and its shape rule
// (convert/shape_rules.cpp): a float loss, one per sequence unreduced ([N] of [T, N, C]
// log_probs, with the batch symbol carried through), 0-d reduced.
#include <gtest/gtest.h>

#include "convert/tests/lower_test_util.h"

namespace d2s::convert {
namespace {

using testing::file_check;

const char* const kCtc = R"(import torch
import torch.nn.functional as F


def f(x, one):
    lp = F.log_softmax(x, dim=2)
    targets = torch.tensor([[1, 2], [3, 3]])
    per = F.ctc_loss(lp, targets, [5, 4], [2, 2], reduction="none")
    mean = F.ctc_loss(lp, targets, [5, 4], [2, 2])
    single = F.ctc_loss(F.log_softmax(one, dim=1), torch.tensor([1, 2]), 5, 2, reduction="none")
    return per, mean, single
)";

TEST(LowerCtc, LossShapes) {
  LowerOptions o;
  o.input_shapes = {{"x", {5, 2, 4}}, {"one", {5, 4}}};
  EXPECT_TRUE(file_check(testing::lower_and_print(kCtc, o), R"(
    # CHECK: Tensor[x_1] = aten::ctc_loss(
    # CHECK: Tensor[] = aten::ctc_loss(
    # CHECK: Tensor[] = aten::ctc_loss(
  )"));
}

}  // namespace
}  // namespace d2s::convert
