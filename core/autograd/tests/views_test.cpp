// Views kept in step with their base (core/autograd/views.h): writes through a view reach the
// base and its other views, in values and in autograd history; PyTorch's strides,
// contiguity, view()'s error and reshape's copy; PyTorch's errors for in-place writes
// on views. Expected gradients here are worked out by hand from the programs.
#include "core/autograd/views.h"

#include <gtest/gtest.h>

#include <functional>

#include "core/autograd/autograd.h"
#include "core/autograd/tests/autograd_test_util.h"
#include "core/base/error.h"
#include "core/ops/op_registry.h"

namespace d2s {
namespace {

using test::call;
using test::callt;
using test::error_of;
using test::leaf;
using test::values;

IValue ints(std::vector<int64_t> v) {
  return IValue::int_list(std::move(v));
}

TEST(ViewOps, SchemasMarkThemAsViews) {
  const OpRegistry& r = OpRegistry::builtin();
  for (const char* name : {"aten::select", "aten::slice", "aten::narrow", "aten::transpose",
                           "aten::permute", "aten::view", "aten::unsqueeze", "aten::expand",
                           "aten::unbind", "aten::split", "aten::chunk"}) {
    ASSERT_FALSE(r.overloads(name).empty()) << name;
    EXPECT_TRUE(r.overloads(name).front().is_view) << name;
  }
  EXPECT_FALSE(r.overloads("aten::add").front().is_view);
  EXPECT_FALSE(r.overloads("aten::add_").front().is_view);
}

TEST(ViewWrites, WriteThroughASelectReachesTheBaseAndItsOtherViews) {
  Tensor h = Tensor::from_floats({2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor col = callt("aten::select", {IValue(h), 1, 0});  // [1, 4]
  Tensor row = callt("aten::select", {IValue(h), 0, 1});
  call("aten::add_", {IValue(row), IValue(Tensor::scalar(10))});
  EXPECT_EQ(values(h), (std::vector<float>{1, 2, 3, 14, 15, 16}));
  EXPECT_EQ(values(col), (std::vector<float>{1, 14}));
  // The versions move together, as PyTorch's one counter per storage.
  EXPECT_EQ(h.version(), 1u);
  EXPECT_EQ(col.version(), 1u);
  // And a write into the base reaches the views.
  call("aten::mul_", {IValue(h), IValue(Tensor::scalar(2))});
  EXPECT_EQ(values(col), (std::vector<float>{2, 28}));
  EXPECT_EQ(values(row), (std::vector<float>{28, 30, 32}));
}

TEST(ViewWrites, TheBaseGetsTheWrittenHistory) {
  // h = 2x; h[0] += y; loss = sum(h * h): dloss/dy = 2 h[0], dloss/dx[0] = 2 h[0] * 2
  // (x[0] still reaches h[0] through the add), dloss/dx[1] = 2 h[1] * 2.
  Tensor x = leaf({2, 2}, {1, 2, 3, 4});
  Tensor y = leaf({2}, {10, 20});
  Tensor h = callt("aten::mul", {IValue(x), IValue(Tensor::scalar(2))});
  call("aten::add_", {call("aten::select", {IValue(h), 0, 0}), IValue(y)});
  EXPECT_EQ(values(h), (std::vector<float>{12, 24, 6, 8}));
  Tensor loss = callt("aten::sum", {call("aten::mul", {IValue(h), IValue(h)})});
  backward(loss);
  EXPECT_EQ(values(grad_of(y)), (std::vector<float>{24, 48}));
  EXPECT_EQ(values(grad_of(x)), (std::vector<float>{48, 96, 24, 32}));
}

TEST(ViewWrites, OverwriteThroughATransposeCutsTheOldValue) {
  // h = x + 0; h.t()[0] = y (copy_): h[:, 0] is y, so x[:, 0] gets no gradient.
  Tensor x = leaf({2, 2}, {1, 2, 3, 4});
  Tensor y = leaf({2}, {5, 6});
  Tensor h = callt("aten::add", {IValue(x), IValue(Tensor::scalar(0))});
  Tensor t = callt("aten::t", {IValue(h)});
  call("aten::copy_", {call("aten::select", {IValue(t), 0, 0}), IValue(y)});
  EXPECT_EQ(values(h), (std::vector<float>{5, 2, 6, 4}));
  backward(callt("aten::sum", {call("aten::mul", {IValue(h), IValue(h)})}));
  EXPECT_EQ(values(grad_of(x)), (std::vector<float>{0, 4, 0, 8}));
  EXPECT_EQ(values(grad_of(y)), (std::vector<float>{10, 12}));
}

TEST(ViewLayout, StridesContiguityViewAndReshape) {
  Tensor x = Tensor::from_floats({2, 3}, {1, 2, 3, 4, 5, 6});
  EXPECT_EQ(strides_of(x), (std::vector<int64_t>{3, 1}));
  Tensor t = callt("aten::transpose", {IValue(x), 0, 1});
  EXPECT_EQ(strides_of(t), (std::vector<int64_t>{1, 3}));
  EXPECT_FALSE(is_contiguous(t));
  Tensor s = callt("aten::slice", {IValue(x), 1, 1, IValue(), 1});
  EXPECT_EQ(strides_of(s), (std::vector<int64_t>{3, 1}));
  EXPECT_FALSE(is_contiguous(s));
  Tensor e = callt("aten::expand", {call("aten::unsqueeze", {IValue(x), 0}), ints({4, 2, 3})});
  EXPECT_EQ(strides_of(e), (std::vector<int64_t>{0, 3, 1}));
  EXPECT_NE(error_of([&] {
              call("aten::view", {IValue(t), ints({-1})});
            }).find("view size is not compatible with input tensor's size and stride"),
            std::string::npos);
  // reshape of the transposed copies: writing it leaves x alone; of x it is a view.
  Tensor r = callt("aten::reshape", {IValue(t), ints({6})});
  call("aten::fill_", {IValue(r), IValue(0.0)});
  EXPECT_EQ(values(x), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  Tensor v = callt("aten::reshape", {IValue(x), ints({6})});
  call("aten::fill_", {IValue(v), IValue(0.0)});
  EXPECT_EQ(values(x), (std::vector<float>(6, 0.0f)));
  // contiguous() of the transposed is a copy, of x itself.
  EXPECT_FALSE(callt("aten::contiguous", {IValue(t)}).impl()->view);
  EXPECT_TRUE(callt("aten::contiguous", {IValue(x)}).is_same(x));
}

TEST(ViewErrors, PyTorchsMessages) {
  Tensor x = leaf({2, 2}, {1, 2, 3, 4});
  EXPECT_NE(error_of([&] {
              call("aten::add_", {call("aten::select", {IValue(x), 0, 0}), IValue(1.0)});
            }).find("a view of a leaf Variable that requires grad is being used in an in-place"),
            std::string::npos);
  Tensor h = callt("aten::mul", {IValue(x), IValue(2.0)});
  IValue parts = call("aten::split", {IValue(h), 1, 0});
  EXPECT_NE(error_of([&] {
              call("aten::mul_", {parts.items()[1], IValue(3.0)});
            })
                .find("Output 1 of SplitBackward0 is a view and is being modified inplace. This "
                      "view is the output of a function that returns multiple views."),
            std::string::npos);
  Tensor v;
  {
    NoGradGuard no_grad;
    v = callt("aten::select", {IValue(h), 0, 0});
  }
  EXPECT_NE(error_of([&] {
              call("aten::mul_", {IValue(v), IValue(3.0)});
            })
                .find("A view was created in no_grad mode and is being modified inplace with "
                      "grad mode enabled."),
            std::string::npos);
  Tensor e = callt("aten::expand", {call("aten::select", {IValue(h), 0, 0}), ints({3, 2})});
  EXPECT_NE(error_of([&] {
              call("aten::add_", {IValue(e), IValue(1.0)});
            }).find("more than one element of the written-to tensor refers to a single memory"),
            std::string::npos);
  // Under no_grad the write is allowed and reaches the leaf (an optimizer's step).
  {
    NoGradGuard no_grad;
    call("aten::add_", {call("aten::select", {IValue(x), 0, 0}), IValue(1.0)});
  }
  EXPECT_EQ(values(x), (std::vector<float>{2, 3, 3, 4}));
}

}  // namespace
}  // namespace d2s
