// Every sample program of samples/ runs eagerly on small inputs, with results checked
// by hand-computed values where they are easy to state.
#include <cmath>
#include <fstream>
#include <sstream>

#include "trace/tests/test_util.h"

namespace d2s::testing {
namespace {

std::string sample(const std::string& name) {
  return std::string(D2S_SOURCE_DIR) + "/samples/" + name;
}

IValue run_sample(const std::string& name, const NamedInputs& inputs,
                  std::string* printed = nullptr, RunOptions opts = {}) {
  Program p = Program::load(sample(name));
  std::ostringstream out;
  opts.out = &out;
  IValue v = p.run(inputs, opts);
  if (printed) *printed = out.str();
  return v;
}

Tensor vec(const std::vector<float>& v) {
  return floats({static_cast<int64_t>(v.size())}, v);
}

TEST(Samples, Foo1TakesABranchFromData) {
  EXPECT_EQ(run_sample("foo1.py", {{"x", vec({1})}, {"y", vec({2})}, {"z", vec({0})}})
                .to_tensor()
                .value_at(0),
            3.0);
  EXPECT_EQ(run_sample("foo1.py", {{"x", vec({3})}, {"y", vec({2})}, {"z", vec({0})}})
                .to_tensor()
                .value_at(0),
            4.0);
}

TEST(Samples, Foo2AddsTheLoopIndex) {
  Tensor s = vec({1, 2});
  IValue out = run_sample("foo2.py", {{"s", s}});
  EXPECT_EQ(out.to_tensor().value_at(0), 46.0);  // 1 + (0 + 1 + ... + 9)
  EXPECT_EQ(s.value_at(0), 46.0);                // `s += i` is in place, as in PyTorch
}

TEST(Samples, EarlyReturnAndNestedIfs) {
  EXPECT_EQ(run_sample("early_return.py", {{"x", vec({-1, -2})}}).to_tensor().value_at(0), 0.0);
  EXPECT_EQ(run_sample("early_return.py", {{"x", vec({6, 1})}}).to_tensor().value_at(0), 10.0);
  EXPECT_EQ(run_sample("early_return.py", {{"x", vec({1, 2})}}).to_tensor().value_at(1), 5.0);
  EXPECT_EQ(
      run_sample("nested_ifs.py", {{"x", vec({1, 2})}, {"y", vec({1, 1})}}).to_tensor().value_at(1),
      3.0);
  EXPECT_EQ(run_sample("nested_ifs.py", {{"x", vec({-1, -2})}, {"y", vec({0, 0})}})
                .to_tensor()
                .value_at(1),
            0.0);
}

TEST(Samples, LoopsOverShapesRowsAndData) {
  Tensor x = floats({3, 2}, {1, 2, 3, 4, 5, 6});
  // acc = 1*row0 + 2*row1 + 3*row2
  EXPECT_EQ(run_sample("shape_loop.py", {{"x", x}}).to_tensor().value_at(0), 22.0);
  Tensor w = floats({2, 2}, {1, 0, 0, 1});
  IValue t = run_sample("tensor_iter.py", {{"x", x}, {"w", w}});
  EXPECT_EQ(t.to_tensor().shape(), (Shape{2, 2}));
  EXPECT_EQ(t.to_tensor().value_at(0), 9.0);
  IValue bc = run_sample("break_continue.py",
                         {{"x", floats({3, 2}, {1, 1, -5, 0, 3, 3})}, {"limit", IValue(4.0)}});
  EXPECT_EQ(bc.tuple_items()[1].to_int(), 2);
  IValue wc = run_sample("while_converge.py", {{"a", vec({4, 9})}});
  EXPECT_NEAR(wc.tuple_items()[0].to_tensor().value_at(1), 3.0, 1e-4);
  EXPECT_GT(wc.tuple_items()[1].to_int(), 2);
}

TEST(Samples, ScalarsItemAndSlicing) {
  IValue s = run_sample(
      "scalar_input.py",
      {{"x", floats({1, 2}, {1, 1})}, {"w", floats({2, 2}, {0, 0, 0, 0})}, {"n", IValue(2)}});
  EXPECT_EQ(s.to_tensor().value_at(0), 0.25);
  IValue ia = run_sample("item_arith.py", {{"x", vec({1, -4})}, {"y", vec({8, 4})}});
  EXPECT_EQ(ia.tuple_items()[1].to_int(), 0);
  EXPECT_EQ(ia.tuple_items()[0].to_tensor().value_at(0), 1.0);  // 8/4 + 0 - 1
  IValue sc =
      run_sample("slice_cat.py",
                 {{"x", floats({4, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})}});
  EXPECT_EQ(sc.tuple_items()[0].to_tensor().value_at(0), 2.0);
  EXPECT_EQ(sc.tuple_items()[2].to_tensor().shape(), (Shape{2, 2}));
  IValue vb = run_sample("view_batch.py", {{"x", floats({2, 1, 2}, {1, 2, 3, 4})},
                                           {"w", floats({2, 2}, {1, 0, 0, 1})},
                                           {"b", vec({0, 0})}});
  EXPECT_EQ(vb.tuple_items()[0].to_tensor().value_at(1), 1.0);
}

TEST(Samples, FunctionalAndModuleModels) {
  Tensor x = floats({1, 3}, {1, 2, 3});
  Tensor w = floats({3, 3}, {1, 0, 0, 0, 1, 0, 0, 0, 1});
  IValue ln = run_sample("layer_norm_gelu.py", {{"x", x},
                                                {"w", w},
                                                {"b", vec({0, 0, 0})},
                                                {"gamma", vec({1, 1, 1})},
                                                {"beta", vec({0, 0, 0})}});
  const Tensor& p = ln.tuple_items()[0].to_tensor();
  EXPECT_NEAR(p.value_at(0) + p.value_at(1) + p.value_at(2), 1.0, 1e-5);  // softmax rows sum to 1

  IValue mlp = run_sample("mlp.py", {{"x", floats({2, 8}, std::vector<float>(16, 0.5f))}});
  EXPECT_EQ(mlp.tuple_items()[0].to_tensor().shape(), (Shape{2, 4}));
  EXPECT_EQ(mlp.tuple_items()[1].to_tensor().dtype(), DType::Int64);

  EXPECT_EQ(
      run_sample("module_helper.py", {{"x", floats({1, 4}, {1, 2, 3, 4})}}).to_tensor().shape(),
      (Shape{1, 4}));
  std::string printed;
  run_sample("dynamic_model.py", {{"x", floats({1, 10}, std::vector<float>(10, 1.0f))}}, &printed);
  EXPECT_EQ(printed, "Input shape: torch.Size([1, 10])\n");
  IValue tf = run_sample("training_flag.py", {{"x", floats({1, 6}, std::vector<float>(6, 0.1f))}});
  EXPECT_EQ(tf.tuple_items().size(), 2u);
  RunOptions eval;
  eval.training = false;
  tf = run_sample("training_flag.py", {{"x", floats({1, 6}, std::vector<float>(6, 0.1f))}}, nullptr,
                  eval);
  EXPECT_EQ(tf.tuple_items()[1].to_tensor().value_at(0), 0.0);
}

TEST(Samples, PrintBranchAndRnnCell) {
  std::string printed;
  run_sample("print_branch.py", {{"x", vec({2, -4})}}, &printed);
  EXPECT_EQ(printed, "normalising 2 values\n");
  run_sample("print_branch.py", {{"x", vec({0.5, -0.5})}}, &printed);
  EXPECT_EQ(printed, "already within [-1, 1]\n");
  Tensor eye = floats({2, 2}, {1, 0, 0, 1});
  IValue r = run_sample("rnn_cell.py", {{"x", floats({1, 2}, {1, 1})},
                                        {"prev_h", floats({1, 2}, {0, 0})},
                                        {"w_h", eye},
                                        {"w_x", eye}});
  EXPECT_NEAR(r.tuple_items()[1].to_tensor().value_at(0), 0.0, 1e-6);
}

}  // namespace
}  // namespace d2s::testing
