#include <gtest/gtest.h>

#include <cmath>

#include "core/ops/tests/kernel_test_util.h"

namespace d2s {
namespace {

using test::B;
using test::call;
using test::call_error;
using test::callt;
using test::F;
using test::I;

Tensor iota(const Shape& s) {
  std::vector<int64_t> v;
  for (int64_t i = 0; i < shape_numel(s); ++i) v.push_back(i);
  return I(s, v);
}

TEST(Shape, ReshapeAndView) {
  Tensor x = iota({2, 6});
  Tensor v = callt("aten::view", {x, IValue(3), IValue(-1)});
  EXPECT_EQ(v.shape(), (Shape{3, 4}));
  EXPECT_TRUE(v.shares_storage(x));
  EXPECT_EQ(callt("aten::reshape", {x, IValue::tuple({IValue(-1)})}).shape(), Shape{12});
  EXPECT_EQ(callt("aten::view", {Tensor::zeros({0, 4}), IValue(-1), IValue(2)}).shape(),
            (Shape{0, 2}));
  EXPECT_EQ(call_error("aten::view", {x, IValue(5), IValue(-1)}),
            "shape '[5, -1]' is invalid for input of size 12");
  EXPECT_EQ(call_error("aten::view", {x, IValue(-1), IValue(-1)}),
            "only one dimension can be inferred");
  EXPECT_EQ(call_error("aten::reshape", {x, IValue(3), IValue(5)}),
            "shape '[3, 5]' is invalid for input of size 12");
  EXPECT_EQ(call_error("aten::reshape", {x, IValue(-2), IValue(6)}), "invalid shape dimension -2");
}

TEST(Shape, FlattenSqueezeUnsqueeze) {
  Tensor x = Tensor::zeros({2, 1, 3, 1});
  EXPECT_EQ(callt("aten::flatten", {x}).shape(), Shape{6});
  EXPECT_EQ(callt("aten::flatten", {x, IValue(1)}).shape(), (Shape{2, 3}));
  EXPECT_EQ(callt("aten::flatten", {x, IValue(1), IValue(2)}).shape(), (Shape{2, 3, 1}));
  EXPECT_EQ(callt("aten::flatten", {Tensor::scalar(1)}).shape(), Shape{1});
  EXPECT_EQ(call_error("aten::flatten", {x, IValue(2), IValue(1)}),
            "flatten() has invalid args: start_dim cannot come after end_dim");
  EXPECT_EQ(callt("aten::squeeze", {x}).shape(), (Shape{2, 3}));
  EXPECT_EQ(callt("aten::squeeze", {x, IValue(1)}).shape(), (Shape{2, 3, 1}));
  EXPECT_EQ(callt("aten::squeeze", {x, IValue(0)}).shape(), (Shape{2, 1, 3, 1}));
  EXPECT_EQ(callt("aten::squeeze", {x, IValue(-1)}).shape(), (Shape{2, 1, 3}));
  EXPECT_EQ(callt("aten::unsqueeze", {x, IValue(-1)}).shape(), (Shape{2, 1, 3, 1, 1}));
  EXPECT_EQ(callt("aten::unsqueeze", {Tensor::scalar(1), IValue(0)}).shape(), Shape{1});
  EXPECT_EQ(call_error("aten::unsqueeze", {x, IValue(5)}),
            "Dimension out of range (expected to be in range of [-5, 4], but got 5)");
}

TEST(Shape, CatAndStack) {
  Tensor a = iota({2, 2}), b = I({2, 1}, {10, 11});
  Tensor c = callt("aten::cat", {IValue::list({a, b}), IValue(1)});
  EXPECT_EQ(c.shape(), (Shape{2, 3}));
  EXPECT_EQ(test::ints(c), (std::vector<int64_t>{0, 1, 10, 2, 3, 11}));
  Tensor r = callt("aten::cat", {IValue::tuple({a, a})});
  EXPECT_EQ(test::ints(r), (std::vector<int64_t>{0, 1, 2, 3, 0, 1, 2, 3}));
  // Promotion, and legacy skipping of 1-D empty tensors.
  Tensor p = callt("aten::cat", {IValue::list({I({1}, {1}), F({1}, {0.5f}), Tensor::zeros({0})})});
  EXPECT_EQ(test::floats(p), (std::vector<float>{1, 0.5f}));
  EXPECT_EQ(call_error("aten::cat", {IValue::list({a, iota({3, 3})}), IValue(1)}),
            "Sizes of tensors must match except in dimension 1. Expected size 2 but got size 3 for "
            "tensor number 1 in the list.");
  EXPECT_EQ(call_error("aten::cat", {IValue::list({})}),
            "torch.cat(): expected a non-empty list of Tensors");
  EXPECT_EQ(call_error("aten::cat", {IValue::list({a, iota({4})})}),
            "Tensors must have same number of dimensions: got 2 and 1");
  EXPECT_EQ(call_error("aten::cat", {IValue::list({Tensor::scalar(1)})}),
            "zero-dimensional tensor (at position 0) cannot be concatenated");

  Tensor s = callt("aten::stack", {IValue::list({I({2}, {1, 2}), I({2}, {3, 4})}), IValue(1)});
  EXPECT_EQ(s.shape(), (Shape{2, 2}));
  EXPECT_EQ(test::ints(s), (std::vector<int64_t>{1, 3, 2, 4}));
  EXPECT_EQ(callt("aten::stack", {IValue::list({Tensor::scalar(1), Tensor::scalar(2)})}).shape(),
            Shape{2});
  EXPECT_EQ(
      call_error("aten::stack", {IValue::list({iota({2}), iota({3})})}),
      "stack expects each tensor to be equal size, but got [2] at entry 0 and [3] at entry 1");
  EXPECT_EQ(call_error("aten::stack", {IValue::list({})}), "stack expects a non-empty TensorList");
}

TEST(Shape, SizeQueries) {
  Tensor x = Tensor::zeros({2, 3});
  EXPECT_EQ(call("aten::size", {x}).to_int_list(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(call("aten::size", {x, IValue(-1)}).to_int(), 3);
  EXPECT_EQ(call("aten::dim", {x}).to_int(), 2);
  EXPECT_EQ(call("aten::numel", {x}).to_int(), 6);
  EXPECT_EQ(call("prim::dtype", {x}).to_int(), 6);
  EXPECT_EQ(call_error("aten::size", {x, IValue(2)}),
            "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
}

TEST(Shape, CloneDetachContiguous) {
  Tensor x = F({2}, {1, 2});
  x.set_requires_grad(true);
  Tensor c = callt("aten::clone", {x});
  EXPECT_FALSE(c.shares_storage(x));
  Tensor d = callt("aten::detach", {x});
  EXPECT_TRUE(d.shares_storage(x));
  EXPECT_FALSE(d.requires_grad());
  EXPECT_TRUE(callt("aten::contiguous", {x}).is_same(x));
}

TEST(Shape, Expand) {
  Tensor x = I({2, 1}, {1, 2});
  Tensor e = callt("aten::expand", {x, IValue(3), IValue(-1), IValue(3)});
  EXPECT_EQ(e.shape(), (Shape{3, 2, 3}));
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 3; ++k) EXPECT_EQ(e.data<int64_t>()[i * 6 + j * 3 + k], j + 1);
  EXPECT_EQ(callt("aten::expand_as", {x, Tensor::zeros({2, 4})}).shape(), (Shape{2, 4}));
  EXPECT_EQ(call_error("aten::expand", {iota({2, 2}), IValue(2), IValue(3)}),
            "The expanded size of the tensor (3) must match the existing size (2) at non-singleton "
            "dimension 1.  Target sizes: [2, 3].  Tensor sizes: [2, 2]");
  EXPECT_EQ(call_error("aten::expand", {iota({2, 2}), IValue(2)}),
            "expand(torch.LongTensor{[2, 2]}, size=[2]): the number of sizes provided (1) must be "
            "greater or equal to the number of dimensions in the tensor (2)");
  EXPECT_EQ(call_error("aten::expand", {iota({2}), IValue(-1), IValue(2)}),
            "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing "
            "dimension 0");
}

TEST(Shape, SelectAndSlice) {
  Tensor x = iota({3, 4});
  EXPECT_EQ(test::ints(callt("aten::select", {x, IValue(0), IValue(-1)})),
            (std::vector<int64_t>{8, 9, 10, 11}));
  EXPECT_EQ(test::ints(callt("aten::select", {x, IValue(1), IValue(2)})),
            (std::vector<int64_t>{2, 6, 10}));
  EXPECT_EQ(call_error("aten::select", {x, IValue(0), IValue(5)}),
            "select(): index 5 out of range for tensor of size [3, 4] at dimension 0");
  EXPECT_EQ(call_error("aten::select", {Tensor::scalar(1), IValue(0), IValue(0)}),
            "select() cannot be applied to a 0-dim tensor.");
  // x[:, 1:3]
  Tensor s = callt("aten::slice", {x, IValue(1), IValue(1), IValue(3)});
  EXPECT_EQ(s.shape(), (Shape{3, 2}));
  EXPECT_EQ(test::ints(s), (std::vector<int64_t>{1, 2, 5, 6, 9, 10}));
  // x[-2:], x[:-1], x[::2], x[5:], x[-10:2] (Python clamping), x[1:None]
  auto rows = [&](IValue start, IValue end, int64_t step) {
    return test::ints(callt("aten::slice", {iota({5}), IValue(0), start, end, IValue(step)}));
  };
  EXPECT_EQ(rows(IValue(-2), IValue(), 1), (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(rows(IValue(), IValue(-1), 1), (std::vector<int64_t>{0, 1, 2, 3}));
  EXPECT_EQ(rows(IValue(), IValue(), 2), (std::vector<int64_t>{0, 2, 4}));
  EXPECT_EQ(rows(IValue(1), IValue(), 3), (std::vector<int64_t>{1, 4}));
  EXPECT_EQ(rows(IValue(5), IValue(), 1), std::vector<int64_t>{});
  EXPECT_EQ(rows(IValue(-10), IValue(2), 1), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(rows(IValue(3), IValue(1), 1), std::vector<int64_t>{});
  EXPECT_EQ(rows(IValue(1), IValue(100), 1), (std::vector<int64_t>{1, 2, 3, 4}));
  EXPECT_EQ(rows(IValue(1), IValue(), INT64_MAX), std::vector<int64_t>{1});  // no overflow
  EXPECT_EQ(call_error("aten::slice", {x, IValue(0), IValue(0), IValue(2), IValue(0)}),
            "slice step must be positive");
}

TEST(Shape, ChunkSplitUnbind) {
  Tensor x = iota({5});
  IValue c = call("aten::chunk", {x, IValue(2)});
  ASSERT_EQ(c.list_items().size(), 2u);
  EXPECT_EQ(test::ints(c.list_items()[0].to_tensor()), (std::vector<int64_t>{0, 1, 2}));
  EXPECT_EQ(test::ints(c.list_items()[1].to_tensor()), (std::vector<int64_t>{3, 4}));
  IValue s = call("aten::split", {x, IValue(2)});
  ASSERT_EQ(s.list_items().size(), 3u);
  EXPECT_EQ(test::ints(s.list_items()[2].to_tensor()), std::vector<int64_t>{4});
  IValue ss = call("aten::split", {x, IValue::list({IValue(1), IValue(4)})});
  EXPECT_EQ(test::ints(ss.list_items()[1].to_tensor()), (std::vector<int64_t>{1, 2, 3, 4}));
  EXPECT_EQ(call_error("aten::split", {x, IValue::list({IValue(1), IValue(1)})}),
            "split_with_sizes expects split_sizes to sum exactly to 5 (input tensor's size at "
            "dimension 0), but got split_sizes=[1, 1]");
  EXPECT_EQ(call("aten::chunk", {x, IValue(INT64_MAX)}).list_items().size(), 5u);
  EXPECT_EQ(call_error("aten::split", {x, IValue::list({IValue(-1), IValue(6)})}),
            "split_with_sizes expects split_sizes have only non-negative entries, but got "
            "split_sizes=[-1, 6]");
  EXPECT_EQ(call_error("aten::chunk", {x, IValue(0)}),
            "chunk expects `chunks` to be greater than 0, got: 0");
  IValue u = call("aten::unbind", {iota({2, 3}), IValue(1)});
  ASSERT_EQ(u.list_items().size(), 3u);
  EXPECT_EQ(test::ints(u.list_items()[1].to_tensor()), (std::vector<int64_t>{1, 4}));
}

TEST(Shape, Conversions) {
  Tensor f = F({2}, {1.7f, -0.5f});
  EXPECT_EQ(test::ints(callt("aten::to", {f, IValue(4)})), (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(test::ints(callt("aten::to", {f}, {{"dtype", IValue("long")}})),
            (std::vector<int64_t>{1, 0}));
  EXPECT_TRUE(callt("aten::to", {f, IValue(6)}).is_same(f));  // same dtype: self
  EXPECT_FALSE(callt("aten::to", {f, IValue(6)}, {{"copy", IValue(true)}}).is_same(f));
  EXPECT_EQ(callt("aten::to", {f, I({1}, {1})}).dtype(), DType::Int64);
  EXPECT_EQ(callt("aten::to", {f, IValue("cpu")}).dtype(), DType::Float32);
  EXPECT_EQ(call_error("aten::to", {f, IValue("cuda")}),
            "d2s runs on the CPU only; got device 'cuda'");
  EXPECT_EQ(test::bools(callt("aten::to", {f, IValue(11)})), (std::vector<bool>{true, true}));
  EXPECT_EQ(callt("aten::to", {B({1}, {true}), IValue("float32")}).dtype(), DType::Float32);
  EXPECT_EQ(callt("aten::type_as", {I({1}, {3}), f}).dtype(), DType::Float32);
}

TEST(Shape, RepeatTrilIndexSelect) {
  Tensor r = callt("aten::repeat", {I({2}, {1, 2}), IValue(2), IValue(2)});
  EXPECT_EQ(r.shape(), (Shape{2, 4}));
  EXPECT_EQ(test::ints(r), (std::vector<int64_t>{1, 2, 1, 2, 1, 2, 1, 2}));
  Tensor ones = Tensor::full({3, 3}, 1);
  EXPECT_EQ(test::floats(callt("aten::tril", {ones})),
            (std::vector<float>{1, 0, 0, 1, 1, 0, 1, 1, 1}));
  EXPECT_EQ(test::floats(callt("aten::triu", {ones, IValue(1)})),
            (std::vector<float>{0, 1, 1, 0, 0, 1, 0, 0, 0}));
  Tensor is = callt("aten::index_select", {iota({3, 2}), IValue(0), I({2}, {2, 0})});
  EXPECT_EQ(test::ints(is), (std::vector<int64_t>{4, 5, 0, 1}));
  EXPECT_EQ(call_error("aten::index_select", {iota({3}), IValue(0), I({1}, {3})}),
            "index out of range in self");
}

// x[idx] = v is lowered to the scatter ops and copy_.
TEST(Shape, ScatterAndCopy) {
  Tensor x = Tensor::zeros({2, 3});
  Tensor s = callt("aten::select_scatter", {x, F({3}, {1, 2, 3}), IValue(0), IValue(-1)});
  EXPECT_EQ(test::floats(s), (std::vector<float>{0, 0, 0, 1, 2, 3}));
  EXPECT_EQ(test::floats(x), std::vector<float>(6, 0));  // not in place
  Tensor c = callt("aten::select_scatter", {x, I({2}, {7, 8}), IValue(1), IValue(1)});
  EXPECT_EQ(test::floats(c), (std::vector<float>{0, 7, 0, 0, 8, 0}));  // converted to float
  Tensor sl = callt("aten::slice_scatter",
                    {x, F({2, 2}, {1, 2, 3, 4}), IValue(1), IValue(), IValue(), IValue(2)});
  EXPECT_EQ(test::floats(sl), (std::vector<float>{1, 0, 2, 3, 0, 4}));
  EXPECT_EQ(call_error("aten::select_scatter", {x, F({2}, {1, 2}), IValue(0), IValue(0)}),
            "select_scatter(): expected src to have a size equal to the slice of self. src size = "
            "[2], slice size = [3]");
  Tensor alias = x.view_as_shape({6});
  Tensor r = callt("aten::copy_", {x, F({3}, {1, 2, 3})});
  EXPECT_TRUE(r.is_same(x));
  EXPECT_EQ(test::floats(alias), (std::vector<float>{1, 2, 3, 1, 2, 3}));
  EXPECT_EQ(call_error("aten::copy_", {x, F({2, 2}, {1, 2, 3, 4})}),
            "The size of tensor a (2) must match the size of tensor b (3) at non-singleton "
            "dimension 1");
}

TEST(Shape, NumpyTAndRoundDecimals) {
  Tensor y = callt("aten::numpy_T", {Tensor::zeros({2, 3, 4})});
  EXPECT_EQ(y.shape(), (Shape{4, 3, 2}));
  EXPECT_EQ(
      test::floats(callt("aten::round", {F({2}, {1.2345f, 15.0f})}, {{"decimals", IValue(2)}})),
      (std::vector<float>{std::nearbyint(1.2345f * 100) / 100, 15}));
  EXPECT_EQ(test::floats(callt("aten::round", {F({1}, {1250})}, {{"decimals", IValue(-2)}})),
            std::vector<float>{1200});
}

}  // namespace
}  // namespace d2s
