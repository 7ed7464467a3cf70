// The parse route of the convolution and pooling layers (convert/lower_layers.cpp) and
// their shape rules (convert/shape_rules_conv.cpp): each module becomes its op with
// the module's parameters as graph inputs and its hyperparameters as int lists, and
// the output shapes follow PyTorch's formulas with the batch symbol carried through.
#include <gtest/gtest.h>

#include "convert/tests/lower_test_util.h"

namespace d2s::convert {
namespace {

using testing::file_check;

const char* const kCnn = R"(import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, (3, 5), stride=2, padding=(2, 1), bias=False)
        self.same = nn.Conv2d(8, 8, 4, padding="same", dilation=2, groups=8)
        self.pool = nn.MaxPool2d(3, stride=2, ceil_mode=True)
        self.amp = nn.AdaptiveMaxPool2d((5, 3))
        self.flat = nn.Flatten()

    def forward(self, x, s):
        h = self.pool(self.same(self.conv(x)))
        a = F.avg_pool1d(s, 4, 3, 2)
        return self.flat(self.amp(h)), a, F.conv1d(s, torch.ones(2, 5, 3), padding=1)
)";

TEST(LowerLayers, ModulesBecomeOpsWithPyTorchShapes) {
  LowerOptions o;
  o.input_shapes = {{"x", {2, 3, 11, 9}}, {"s", {4, 5, 10}}};
  EXPECT_TRUE(file_check(testing::lower_and_print(kCnn, o), R"(
    # CHECK: graph(%x : Tensor[x_0, x_1, x_2, x_3],
    # CHECK-NEXT: %s : Tensor[s_0, s_1, s_2],
    # CHECK-NEXT: %conv.weight : Tensor[8, 3, 3, 5],
    # CHECK-NEXT: %same.weight : Tensor[8, 1, 4, 4],
    # CHECK-NEXT: %same.bias : Tensor[8]):
    # CHECK: int[] = prim::ListConstruct(
    # CHECK: Tensor[x_0, 8, *, *] = aten::conv2d(%x, %conv.weight,
    # CHECK: Tensor[x_0, 8, *, *] = aten::conv2d(
    # CHECK: Tensor[x_0, 8, *, *] = aten::max_pool2d(
    # CHECK: Tensor[s_0, s_1, *] = aten::avg_pool1d(%s,
    # CHECK: Long[x_0, 8, 5, 3] = aten::adaptive_max_pool2d(%h,
    # CHECK: Tensor[x_0, 120] = aten::flatten(
    # CHECK: Tensor[s_0, 2, *] = aten::conv1d(%s,
  )"));
}

const char* const kKnownSizes = R"(import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, (3, 5), stride=2, padding=(2, 1))
        self.pool = nn.MaxPool2d(3, stride=2, padding=1, ceil_mode=True)

    def forward(self, x):
        return self.pool(self.conv(x.view(2, 3, 11, 9)))
)";

TEST(LowerLayers, KnownSizesGiveKnownDims) {
  // conv: (11 + 4 - 3) / 2 + 1 = 7, (9 + 2 - 5) / 2 + 1 = 4; pool (ceil_mode):
  // ceil((7 + 2 - 3) / 2) + 1 = 4, ceil((4 + 2 - 3) / 2) + 1 = 3.
  EXPECT_TRUE(file_check(testing::lower_and_print(kKnownSizes), R"(
    # CHECK: Tensor[2, 8, 7, 4] = aten::conv2d(
    # CHECK: Tensor[2, 8, 4, 3] = aten::max_pool2d(
  )"));
}

}  // namespace
}  // namespace d2s::convert
