// Expected strings are PyTorch 1.13's print(t) output.
#include <gtest/gtest.h>

#include <cmath>

#include "core/ops/tests/kernel_test_util.h"

namespace d2s {
namespace {

using test::B;
using test::F;
using test::I;

std::string str(const IValue& v) {
  return v.str();
}

std::vector<float> range(int n) {
  std::vector<float> v;
  for (int i = 0; i < n; ++i) v.push_back(static_cast<float>(i));
  return v;
}

TEST(Print, Basics) {
  EXPECT_EQ(str(F({1, 2}, {0.1f, 0.2f})), "tensor([[0.1000, 0.2000]])");
  EXPECT_EQ(str(Tensor::scalar(3)), "tensor(3.)");
  EXPECT_EQ(str(Tensor::scalar(0.5)), "tensor(0.5000)");
  EXPECT_EQ(str(Tensor::scalar(2, DType::Int64)), "tensor(2)");
  EXPECT_EQ(str(Tensor::scalar(1, DType::Bool)), "tensor(True)");
  EXPECT_EQ(str(B({2}, {true, false})), "tensor([ True, False])");
  EXPECT_EQ(str(B({2}, {true, true})), "tensor([True, True])");
  EXPECT_EQ(str(I({2}, {1, 2})), "tensor([1, 2])");
  EXPECT_EQ(str(F({2}, {1, 2})), "tensor([1., 2.])");
}

TEST(Print, WidthsAndSigns) {
  EXPECT_EQ(str(F({2}, {1.5f, -2.25f})), "tensor([ 1.5000, -2.2500])");
  EXPECT_EQ(str(F({2}, {0.1f, 10.0f})), "tensor([ 0.1000, 10.0000])");
  EXPECT_EQ(str(I({2, 2}, {1, -2, 30, 4})), "tensor([[ 1, -2],\n        [30,  4]])");
  EXPECT_EQ(str(F({1}, {-0.0f})), "tensor([-0.])");
  EXPECT_EQ(str(F({2}, {NAN, 1})), "tensor([nan, 1.])");
  EXPECT_EQ(str(F({3}, {INFINITY, -INFINITY, 0.5f})), "tensor([   inf,   -inf, 0.5000])");
}

TEST(Print, ScientificMode) {
  EXPECT_EQ(str(F({2}, {1e-5f, 1.0f})), "tensor([1.0000e-05, 1.0000e+00])");
  EXPECT_EQ(str(F({1}, {1e10f})), "tensor([1.0000e+10])");
  EXPECT_EQ(str(F({2}, {100.0f, 1000000.0f})), "tensor([1.0000e+02, 1.0000e+06])");
  EXPECT_EQ(str(F({2}, {-1e-5f, 1.0f})), "tensor([-1.0000e-05,  1.0000e+00])");
}

TEST(Print, MultiDimensional) {
  EXPECT_EQ(str(Tensor::zeros({2, 3})), "tensor([[0., 0., 0.],\n        [0., 0., 0.]])");
  EXPECT_EQ(str(Tensor::zeros({2, 1, 2})), "tensor([[[0., 0.]],\n\n        [[0., 0.]]])");
}

TEST(Print, LineWrapping) {
  EXPECT_EQ(str(F({20}, range(20))),
            "tensor([ 0.,  1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10., 11., 12., 13.,\n"
            "        14., 15., 16., 17., 18., 19.])");
}

TEST(Print, Summarized) {
  EXPECT_EQ(str(F({2000}, range(2000))),
            "tensor([0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 1.9970e+03, 1.9980e+03,\n"
            "        1.9990e+03])");
  std::vector<int64_t> v;
  for (int i = 0; i <= 1000; ++i) v.push_back(i);
  EXPECT_EQ(str(I({1001}, v)), "tensor([   0,    1,    2,  ...,  998,  999, 1000])");
  EXPECT_EQ(str(Tensor::zeros({1001, 2})),
            "tensor([[0., 0.],\n        [0., 0.],\n        [0., 0.],\n        ...,\n"
            "        [0., 0.],\n        [0., 0.],\n        [0., 0.]])");
}

TEST(Print, EmptyTensors) {
  EXPECT_EQ(str(Tensor::zeros({0})), "tensor([])");
  EXPECT_EQ(str(Tensor::zeros({0, 3})), "tensor([], size=(0, 3))");
  EXPECT_EQ(str(Tensor::zeros({0}, DType::Int64)), "tensor([], dtype=torch.int64)");
}

TEST(Print, RequiresGradSuffix) {
  Tensor t = Tensor::full({2}, 1);
  t.set_requires_grad(true);
  EXPECT_EQ(str(t), "tensor([1., 1.], requires_grad=True)");
  Tensor s = Tensor::scalar(0.5);
  s.set_requires_grad(true);
  EXPECT_EQ(str(s), "tensor(0.5000, requires_grad=True)");
}

TEST(Print, SuffixPlacement) {
  Tensor t = F({20}, std::vector<float>(20, 0.5f));
  t.set_requires_grad(true);
  EXPECT_EQ(str(t),
            "tensor([0.5000, 0.5000, 0.5000, 0.5000, 0.5000, 0.5000, 0.5000, 0.5000, 0.5000,\n"
            "        0.5000, 0.5000, 0.5000, 0.5000, 0.5000, 0.5000, 0.5000, 0.5000, 0.5000,\n"
            "        0.5000, 0.5000], requires_grad=True)");
  // A full last line leaves no room: the suffix goes on a line of its own.
  Tensor u = F({18}, std::vector<float>(18, 0.5f));
  u.set_requires_grad(true);
  EXPECT_EQ(str(u),
            "tensor([0.5000, 0.5000, 0.5000, 0.5000, 0.5000, 0.5000, 0.5000, 0.5000, 0.5000,\n"
            "        0.5000, 0.5000, 0.5000, 0.5000, 0.5000, 0.5000, 0.5000, 0.5000, 0.5000],\n"
            "       requires_grad=True)");
}

TEST(Print, PythonFloats) {
  EXPECT_EQ(str(IValue(0.1)), "0.1");
  EXPECT_EQ(str(IValue(2.0)), "2.0");
  EXPECT_EQ(str(IValue(-0.0)), "-0.0");
  EXPECT_EQ(str(IValue(1e-05)), "1e-05");
  EXPECT_EQ(str(IValue(0.0001)), "0.0001");
  EXPECT_EQ(str(IValue(1e16)), "1e+16");
  EXPECT_EQ(str(IValue(1e15)), "1000000000000000.0");
  EXPECT_EQ(str(IValue(123456789.123)), "123456789.123");
  EXPECT_EQ(str(IValue(1.5e-7)), "1.5e-07");
  EXPECT_EQ(str(IValue(1e100)), "1e+100");
  EXPECT_EQ(str(IValue(INFINITY)), "inf");
  EXPECT_EQ(str(IValue(-INFINITY)), "-inf");
  EXPECT_EQ(str(IValue(NAN)), "nan");
  EXPECT_EQ(str(IValue(1.0 / 3)), "0.3333333333333333");
}

TEST(Print, OtherValues) {
  EXPECT_EQ(str(IValue()), "None");
  EXPECT_EQ(str(IValue(true)), "True");
  EXPECT_EQ(str(IValue(int64_t{-7})), "-7");
  EXPECT_EQ(str(IValue("it's")), "it's");
  EXPECT_EQ(IValue("it's").repr(), "\"it's\"");
  EXPECT_EQ(IValue("a\nb").repr(), "'a\\nb'");
  EXPECT_EQ(str(IValue::tuple({IValue(1)})), "(1,)");
  EXPECT_EQ(str(IValue::tuple({IValue(1), IValue("a")})), "(1, 'a')");
  EXPECT_EQ(str(IValue::list({IValue(F({1}, {1})), IValue(2.5)})), "[tensor([1.]), 2.5]");
  EXPECT_EQ(str(IValue::list({})), "[]");
}

TEST(IValue, Accessors) {
  EXPECT_EQ(IValue(true).to_int(), 1);
  EXPECT_EQ(IValue(3).to_double(), 3.0);
  EXPECT_EQ(IValue::int_list({1, 2}).to_int_list(), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(IValue::tuple({IValue(1)}).items().size(), 1u);
  EXPECT_EQ(IValue(1.5).type_name(), "float");
  EXPECT_EQ(IValue().type_name(), "NoneType");
  EXPECT_EQ(IValue(F({1}, {1})).type_name(), "Tensor");
  EXPECT_THROW(IValue(1).items(), Error);
  EXPECT_THROW(IValue::list({IValue("a")}).to_int_list(), Error);
}

}  // namespace
}  // namespace d2s

namespace d2s {
namespace {

TEST(Print, CyclicListPrintsEllipsis) {
  IValue l = IValue::list({IValue(1)});
  l.list_items().push_back(l);  // a = [1]; a.append(a)
  EXPECT_EQ(l.str(), "[1, [...]]");
  l.list_items().clear();  // break the cycle so the list is freed
}

}  // namespace
}  // namespace d2s
