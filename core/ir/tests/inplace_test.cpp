// In-place ops: the schema's alias marks (`Tensor(a!)`), the mutation fact they give
// each op, version counters, and the autograd's rules for in-place ops (issue 15
// item 3): an error on a leaf that requires grad, a recorded rewrite otherwise, and
// an error at backward when a tensor a derivative reads was overwritten since.
#include <gtest/gtest.h>

#include <functional>

#include "core/autograd/autograd.h"
#include "core/autograd/tests/autograd_test_util.h"
#include "core/base/error.h"
#include "core/ir/effects.h"
#include "core/ops/op_registry.h"

namespace d2s {
namespace {

using test::call;
using test::callt;
using test::error_of;
using test::leaf;
using test::values;

TEST(OpSchemaAlias, ParsesAndPrintsTorchScriptAliasMarks) {
  OpSchema s = OpSchema::parse(
      "aten::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)");
  ASSERT_EQ(s.arguments.size(), 3u);
  EXPECT_EQ(s.arguments[0].type, "Tensor");  // the binder sees the plain type
  EXPECT_EQ(s.arguments[0].alias.set, "a");
  EXPECT_TRUE(s.arguments[0].alias.is_write);
  EXPECT_TRUE(s.arguments[1].alias.empty());
  ASSERT_EQ(s.return_aliases.size(), 1u);
  EXPECT_EQ(s.return_aliases[0].set, "a");
  EXPECT_TRUE(s.mutates());
  EXPECT_EQ(s.written_arguments(), (std::vector<size_t>{0}));
  EXPECT_EQ(s.str(),
            "aten::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)");
  OpSchema view = OpSchema::parse("aten::view(Tensor(a) self, int[] size) -> Tensor(a)");
  EXPECT_FALSE(view.mutates());
  EXPECT_EQ(view.str(), "aten::view(Tensor(a) self, int[] size) -> Tensor(a)");
  EXPECT_EQ(OpSchema::parse("aten::f(Tensor(a!)[] xs) -> ()").str(),
            "aten::f(Tensor(a!)[] xs) -> ()");
  EXPECT_THROW(OpSchema::parse("aten::f(int(a!) n) -> int"), Error);
  // A list that an op writes into (kernels_list.cpp): the mark on Any, as on Tensor.
  OpSchema append = OpSchema::parse("aten::append.t(Any(a!)[] self, Any el) -> Any(a!)[]");
  EXPECT_EQ(append.written_arguments(), (std::vector<size_t>{0}));
  EXPECT_EQ(append.str(), "aten::append.t(Any(a!)[] self, Any el) -> Any(a!)[]");
  EXPECT_THROW(OpSchema::parse("aten::f(Tensor(a! x) -> Tensor"), Error);
}

TEST(OpSchemaAlias, EveryInPlaceOpOfTheTableIsMarked) {
  const OpRegistry& reg = OpRegistry::builtin();
  for (const char* name :
       {"aten::add_.Tensor", "aten::sub_.Tensor", "aten::mul_.Tensor", "aten::div_.Tensor",
        "aten::copy_", "aten::relu_", "aten::clamp_", "aten::fill_.Scalar", "aten::zero_"}) {
    const OpDef* def = reg.find_qualified(name);
    ASSERT_NE(def, nullptr) << name;
    EXPECT_TRUE(def->mutates) << name;
    EXPECT_TRUE(def->derivative) << name;
  }
  // Nothing else writes: a table entry that does must say so in its schema. batch_norm
  // is the one op without a trailing underscore that writes (its running statistics,
  // which TorchScript's schema leaves unmarked); the list ops of kernels_list.cpp
  // (overload "t": append, insert, pop, _set_item, extend, remove, reverse, sort,
  // clear) write into their list, and
  // the dict ops of kernels_dict.cpp that take a `Dict(a!)` into their dict.
  for (const std::string& base : reg.base_names()) {
    for (const OpDef& def : reg.overloads(base)) {
      const std::string& n = def.schema.name;
      if (n.rfind("aten::", 0) != 0) continue;  // grad::add_ is add_'s backward, not a write
      const bool underscore = n.size() > 2 && n.back() == '_' && n[n.size() - 2] != '_';
      const bool list_write =
          def.schema.overload == "t" &&
          (n == "aten::append" || n == "aten::insert" || n == "aten::pop" ||
           n == "aten::_set_item" || n == "aten::extend" || n == "aten::remove" ||
           n == "aten::reverse" || n == "aten::sort" || n == "aten::clear");
      const bool dict_write = !def.schema.arguments.empty() &&
                              def.schema.arguments[0].type == "Dict" &&
                              (n == "aten::_set_item" || n == "aten::pop" || n == "aten::Delete" ||
                               n == "aten::update" || n == "aten::clear");
      EXPECT_EQ(def.mutates, underscore || list_write || dict_write || n == "aten::batch_norm")
          << def.schema.str();
    }
  }
}

TEST(OpSchemaAlias, NodeEffectsComeFromTheMarks) {
  ir::Graph g;
  ir::Value* x = g.add_input("x", ir::Type::tensor(DType::Float32));
  ir::Node* add = g.insert("aten::add_", {x, x}, 1, SourceRange());
  add->set_overload("Tensor");
  ir::Node* pure = g.insert("aten::add", {x, x}, 1, SourceRange());
  ir::Node* random = g.insert("aten::rand_like", {x}, 1, SourceRange());
  ir::Node* unknown = g.insert("aten::frobnicate", {x}, 1, SourceRange());
  EXPECT_TRUE(ir::mutates_inputs(*add));
  EXPECT_TRUE(ir::has_own_effects(*add));
  EXPECT_FALSE(ir::removable_when_unused(*add));
  EXPECT_FALSE(ir::has_own_effects(*pure));
  EXPECT_TRUE(ir::removable_when_unused(*pure));
  EXPECT_TRUE(ir::has_own_effects(*random));
  EXPECT_TRUE(ir::has_own_effects(*unknown));
  // Without a recorded overload, the overloads that fit the first input decide:
  // torch.sort of a tensor is pure, list.sort of the same name writes into its list.
  ir::Node* tensor_sort = g.insert("aten::sort", {x}, 2, SourceRange());
  ir::Value* xs = g.add_input("xs", ir::Type::list(ir::Type::of_int()));
  ir::Node* list_sort = g.insert("aten::sort", {xs}, 0, SourceRange());
  EXPECT_FALSE(ir::mutates_inputs(*tensor_sort));
  EXPECT_TRUE(ir::removable_when_unused(*tensor_sort));
  EXPECT_TRUE(ir::mutates_inputs(*list_sort));
  EXPECT_FALSE(ir::removable_when_unused(*list_sort));
}

TEST(VersionCounter, InPlaceWritesBumpItAndViewsShareIt) {
  Tensor x = Tensor::from_floats({2, 2}, {1, 2, 3, 4});
  Tensor v = callt("aten::view", {IValue(x), IValue::int_list({4})});
  EXPECT_EQ(x.version(), 0u);
  call("aten::add_", {IValue(x), IValue(1.0)});
  call("aten::relu_", {IValue(v)});
  EXPECT_EQ(x.version(), 2u);
  EXPECT_EQ(v.version(), 2u);
  callt("aten::add", {IValue(x), IValue(1.0)});  // out of place: no write
  EXPECT_EQ(x.version(), 2u);
}

TEST(InPlaceAutograd, AccumulatorInALoop) {
  // total = 0; total += w * x three times: d(sum total)/dw = 3x.
  Tensor w = leaf({2}, {0.5, -1});
  Tensor x = Tensor::from_floats({2}, {2, 3});
  Tensor total = Tensor::zeros({2});
  Tensor alias = total;
  for (int i = 0; i < 3; ++i)
    call("aten::add_", {IValue(total), IValue(callt("aten::mul", {IValue(w), IValue(x)}))});
  EXPECT_TRUE(alias.requires_grad());  // the alias sees the new history
  EXPECT_FALSE(is_leaf(alias));
  backward(callt("aten::sum", {IValue(alias)}));
  EXPECT_EQ(values(grad_of(w)), (std::vector<float>{6, 9}));
}

TEST(InPlaceAutograd, DerivativeTakesTheValueBeforeTheWrite) {
  // y = w * 2; y.mul_(y0) with y0 = y's old value copied: y = (2w)^2 elementwise,
  // dy/dw = 8w. mul_'s self gradient uses other, other's uses the old self.
  Tensor w = leaf({2}, {1, 3});
  Tensor y = callt("aten::mul", {IValue(w), IValue(2.0)});
  Tensor y0 = callt("aten::clone", {IValue(y)});
  call("aten::mul_", {IValue(y), IValue(y0)});
  backward(callt("aten::sum", {IValue(y)}));
  EXPECT_EQ(values(grad_of(w)), (std::vector<float>{8, 24}));
  // relu_: the gradient passes where the result is positive.
  Tensor u = leaf({3}, {-1, 2, 0.5});
  Tensor h = callt("aten::mul", {IValue(u), IValue(1.0)});
  call("aten::relu_", {IValue(h)});
  backward(callt("aten::sum", {IValue(h)}));
  EXPECT_EQ(values(grad_of(u)), (std::vector<float>{0, 1, 1}));
}

TEST(InPlaceAutograd, LeafThatRequiresGradIsAnError) {
  Tensor w = leaf({2}, {1, 2});
  EXPECT_NE(error_of([&] {
              call("aten::mul_", {IValue(w), IValue(2.0)});
            })
                .find("RuntimeError: a leaf Variable that requires grad is being used in an "
                      "in-place operation."),
            std::string::npos);
  NoGradGuard no_grad;  // an optimizer's step: allowed
  call("aten::sub_", {IValue(w), IValue(1.0)});
  EXPECT_EQ(values(w), (std::vector<float>{0, 1}));
}

TEST(InPlaceAutograd, OverwritingASavedTensorFailsAtBackward) {
  Tensor w = leaf({2}, {1, 2});
  Tensor x = Tensor::from_floats({2}, {3, 4});
  Tensor y = callt("aten::mul", {IValue(w), IValue(x)});  // saves x
  call("aten::add_", {IValue(x), IValue(1.0)});
  const std::string msg = error_of([&] { backward(callt("aten::sum", {IValue(y)})); });
  EXPECT_NE(msg.find("RuntimeError: one of the variables needed for gradient computation has "
                     "been modified by an inplace operation: [torch.FloatTensor [2]]"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("is at version 1; expected version 0 instead"), std::string::npos) << msg;
  // A sum reads no data: writing into what it summed is fine, as in PyTorch.
  Tensor a = callt("aten::mul", {IValue(w), IValue(1.0)});
  Tensor s = callt("aten::sum", {IValue(a)});
  call("aten::add_", {IValue(a), IValue(1.0)});
  clear_grad(w);
  backward(s);
  EXPECT_EQ(values(grad_of(w)), (std::vector<float>{1, 1}));
  // relu_ saves its result: writing into it afterwards is an error.
  Tensor h = callt("aten::mul", {IValue(w), IValue(1.0)});
  call("aten::relu_", {IValue(h)});
  Tensor r = callt("aten::sum", {IValue(h)});
  call("aten::mul_", {IValue(h), IValue(2.0)});
  EXPECT_NE(error_of([&] { backward(r); }).find("modified by an inplace operation"),
            std::string::npos);
}

}  // namespace
}  // namespace d2s
