// The op table's coverage rule (core/ops/op_coverage.h) on entries made up for the
// purpose: each column missing, opted out of, and claimed absent while present.
#include "core/ops/op_coverage.h"

#include <gtest/gtest.h>

namespace d2s {
namespace {

OpDef entry(const char* schema, OpTags tags = {}) {
  OpDef def;
  def.schema = OpSchema::parse(schema);
  def.kernel = [](OpContext&, const ValueList&) { return IValue(); };
  def.tags = tags;
  def.mutates = def.schema.mutates();
  return def;
}

Derivative some_derivative() {
  return [](const GradInputs&) { return ValueList{}; };
}

bool mentions(const std::vector<std::string>& lines, const std::string& text) {
  for (const std::string& l : lines) {
    if (l.find(text) != std::string::npos) return true;
  }
  return false;
}

TEST(OpCoverage, ACompleteTensorEntryHasNoGaps) {
  OpDef def = entry("aten::exp(Tensor self) -> Tensor");
  def.derivative = some_derivative();
  EXPECT_TRUE(missing_columns(def, {{"aten::exp"}, {"aten::exp"}}).empty());
}

TEST(OpCoverage, EachMissingColumnIsNamedWithWhereItGoesAndItsOptOut) {
  const OpDef def = entry("aten::exp(Tensor self) -> Tensor");
  const std::vector<std::string> gaps = missing_columns(def, {});
  ASSERT_EQ(gaps.size(), 3u);
  EXPECT_TRUE(mentions(gaps, "aten::exp has no derivative: add one (core/autograd/"));
  EXPECT_TRUE(mentions(gaps, "or tag its table entry OpTag::NoDerivative"));
  EXPECT_TRUE(mentions(gaps, "aten::exp has no shape rule"));
  EXPECT_TRUE(mentions(gaps, "OpTag::NoShapeRule"));
  EXPECT_TRUE(mentions(gaps, "aten::exp has no ONNX mapping"));
  EXPECT_TRUE(mentions(gaps, "OpTag::NoOnnx"));
}

TEST(OpCoverage, AnExplicitOptOutFillsTheColumn) {
  const OpDef def = entry("aten::isnan(Tensor self) -> Tensor",
                          OpTag::NoDerivative | OpTag::NoShapeRule | OpTag::NoOnnx);
  EXPECT_TRUE(missing_columns(def, {}).empty());
}

TEST(OpCoverage, AnOptOutOfAColumnThatIsThereIsAnError) {
  OpDef def = entry("aten::exp(Tensor self) -> Tensor",
                    OpTag::NoDerivative | OpTag::NoShapeRule | OpTag::NoOnnx);
  def.derivative = some_derivative();
  const std::vector<std::string> gaps = missing_columns(def, {{"aten::exp"}, {"aten::exp"}});
  ASSERT_EQ(gaps.size(), 3u);
  EXPECT_TRUE(mentions(gaps,
                       "aten::exp has a derivative but its table entry says "
                       "OpTag::NoDerivative: drop the tag"));
  EXPECT_TRUE(mentions(gaps, "has a shape rule but"));
  EXPECT_TRUE(mentions(gaps, "has an ONNX mapping but"));
}

TEST(OpCoverage, ColumnsApplyOnlyWhereTensorsFlow) {
  // No tensor in or out: none of the three applies.
  EXPECT_TRUE(missing_columns(entry("aten::len.str(str s) -> int"), {}).empty());
  // A tensor in, an int out: only ONNX applies.
  const std::vector<std::string> dim = missing_columns(entry("aten::dim(Tensor self) -> int"), {});
  ASSERT_EQ(dim.size(), 1u);
  EXPECT_TRUE(mentions(dim, "no ONNX mapping"));
  // A tensor out of no tensor (a factory): a shape rule and ONNX, no derivative.
  const std::vector<std::string> zeros =
      missing_columns(entry("aten::zeros(int[] size, *, ScalarType? dtype=None) -> Tensor"), {});
  EXPECT_EQ(zeros.size(), 2u);
  EXPECT_FALSE(mentions(zeros, "derivative"));
  // An in-place op returns its self, typed already: no shape rule of its own.
  const std::vector<std::string> relu_ =
      missing_columns(entry("aten::relu_(Tensor(a!) self) -> Tensor(a!)", OpTag::NoOnnx), {});
  ASSERT_EQ(relu_.size(), 1u);
  EXPECT_TRUE(mentions(relu_, "no derivative"));
}

TEST(OpCoverage, AnEntryWithoutAKernelIsAGap) {
  OpDef def = entry("aten::len.str(str s) -> int");
  def.kernel = nullptr;
  EXPECT_EQ(missing_columns(def, {}), std::vector<std::string>{"aten::len.str has no kernel"});
}

TEST(OpCoverage, TagsHaveNames) {
  EXPECT_EQ((OpTag::Pointwise | OpTag::FloatPromoting | OpTag::NoOnnx).names(),
            (std::vector<std::string>{"pointwise", "float-promoting", "no-onnx"}));
  EXPECT_TRUE(OpTags().names().empty());
}

}  // namespace
}  // namespace d2s
