// Tensor.uniform_ / Tensor.normal_: what they draw (docs/random.md), that they write self
// in place and bump its version, their errors, and that no pass may fold them.
#include <gtest/gtest.h>

#include "core/autograd/autograd.h"
#include "core/ops/tests/kernel_test_util.h"
#include "core/tensor/random.h"

namespace d2s {
namespace {

using test::call;

TEST(RandomInplace, UniformWritesSelfFromTheGenerator) {
  Generator g(4), ref(4);
  Tensor t = Tensor::zeros({2, 3});
  const uint64_t version = t.version();
  Tensor r = call("aten::uniform_", {IValue(t), IValue(-0.5), IValue(2.0)}, {}, &g).to_tensor();
  EXPECT_EQ(r.data<float>(), t.data<float>());  // self, written in place
  EXPECT_GT(t.version(), version);
  for (int i = 0; i < 6; ++i) {
    const float want = static_cast<float>(-0.5 + 2.5 * static_cast<double>(ref.uniform()));
    EXPECT_EQ(t.data<float>()[i], want);
    EXPECT_GE(t.data<float>()[i], -0.5f);
    EXPECT_LT(t.data<float>()[i], 2.0f);
  }
}

TEST(RandomInplace, NormalWritesSelfFromTheGenerator) {
  Generator g(8), ref(8);
  Tensor t = Tensor::zeros({5});
  call("aten::normal_", {IValue(t), IValue(1.5), IValue(0.25)}, {}, &g);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(t.data<float>()[i],
              static_cast<float>(1.5 + 0.25 * static_cast<double>(ref.normal())));
  }
  // An odd count leaves the spare normal pending on the generator, as randn does.
  EXPECT_EQ(g.normal(), ref.normal());
}

TEST(RandomInplace, PyTorchsErrors) {
  Generator g(1);
  Tensor t = Tensor::zeros({3});
  EXPECT_EQ(test::error_of([&] {
              call("aten::uniform_", {IValue(t), IValue(1.0), IValue(0.5)}, {}, &g);
            }),
            "uniform_ expects to return a [from, to) range, but found from=1 > to=0.5");
  EXPECT_EQ(test::error_of([&] {
              call("aten::normal_", {IValue(t), IValue(0.0), IValue(-1.0)}, {}, &g);
            }),
            "normal expects std >= 0.0, but found std -1");
  Tensor l = Tensor::zeros({3}, DType::Int64);
  EXPECT_EQ(test::error_of([&] { call("aten::uniform_", {IValue(l)}, {}, &g); }),
            "\"check_uniform_bounds\" not implemented for 'Long'");
  EXPECT_EQ(test::error_of([&] { call("aten::normal_", {IValue(l)}, {}, &g); }),
            "\"normal_kernel_cpu\" not implemented for 'Long'");
  EXPECT_EQ(test::call_error("aten::uniform_", {IValue(t)}),
            "uniform_(): no random generator was given to this call");
}

TEST(RandomInplace, MarkedRandomAndWriting) {
  for (const char* op : {"aten::uniform_", "aten::normal_"}) {
    const OpDef* def = OpRegistry::builtin().find_qualified(op);
    ASSERT_NE(def, nullptr) << op;
    EXPECT_TRUE(def->is_random()) << op;
    EXPECT_TRUE(def->mutates) << op;
  }
}

}  // namespace
}  // namespace d2s
