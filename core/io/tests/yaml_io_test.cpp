// Reading inputs and weights YAML (core/io/yaml_io.h).
#include "core/io/yaml_io.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/base/error.h"
#include "core/tensor/random.h"

namespace d2s {
namespace {

InputFile parse(const std::string& text, uint64_t seed = 0) {
  return parse_input_sets(std::make_shared<SourceFile>("in.yaml", text), seed);
}

// The formatted error for `text`, or "" when it parses.
std::string parse_error(const std::string& text) {
  try {
    parse(text);
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), 2);
    return e.format();
  }
  return "";
}

std::vector<float> floats(const Tensor& t) {
  std::vector<float> out;
  for (int64_t i = 0; i < t.numel(); ++i) out.push_back(static_cast<float>(t.value_at(i)));
  return out;
}

const IValue& value(const InputFile& f, const std::string& name, size_t set = 0) {
  const NamedInput* in = f.sets.at(set).find(name);
  EXPECT_NE(in, nullptr) << name;
  return in->value;
}

// ---------------------------------------------------------------------------
// Accepted forms

TEST(YamlInputs, FlatFloatTensor) {
  InputFile f = parse("x: {shape: [2, 2], data: [1, 2.5, -3, 1e-3]}\n");
  ASSERT_EQ(f.sets.size(), 1u);
  EXPECT_FALSE(f.is_list);
  const Tensor& t = value(f, "x").to_tensor();
  EXPECT_EQ(t.dtype(), DType::Float32);
  EXPECT_EQ(t.shape(), (Shape{2, 2}));
  EXPECT_EQ(floats(t), (std::vector<float>{1, 2.5f, -3, 1e-3f}));
  EXPECT_FALSE(t.requires_grad());
}

TEST(YamlInputs, NestedDataMatchingShape) {
  InputFile f = parse("x:\n  shape: [2, 3]\n  data: [[1, 2, 3], [4, 5, 6]]\n");
  const Tensor& t = value(f, "x").to_tensor();
  EXPECT_EQ(t.shape(), (Shape{2, 3}));
  EXPECT_EQ(floats(t), (std::vector<float>{1, 2, 3, 4, 5, 6}));
}

TEST(YamlInputs, ShapeInferredFromDataWhenAbsent) {
  InputFile f = parse("a: {data: [[1, 2], [3, 4], [5, 6]]}\nb: {data: 7}\nc: {data: []}\n");
  EXPECT_EQ(value(f, "a").to_tensor().shape(), (Shape{3, 2}));
  EXPECT_EQ(value(f, "b").to_tensor().shape(), Shape{});
  EXPECT_EQ(value(f, "c").to_tensor().shape(), Shape{0});
}

TEST(YamlInputs, ZeroDimAndEmptyTensors) {
  InputFile f = parse(
      "s: {shape: [], data: [2.5]}\nt: {shape: [], data: 3}\n"
      "e: {shape: [2, 0], data: []}\n");
  EXPECT_EQ(value(f, "s").to_tensor().dim(), 0);
  EXPECT_EQ(value(f, "s").to_tensor().item(), 2.5);
  EXPECT_EQ(value(f, "t").to_tensor().item(), 3.0);
  EXPECT_EQ(value(f, "e").to_tensor().numel(), 0);
}

TEST(YamlInputs, Dtypes) {
  InputFile f = parse(
      "m: {shape: [3], dtype: bool, data: [true, false, true]}\n"
      "i: {shape: [2], dtype: int64, data: [9007199254740993, -4]}\n"
      "f: {shape: [1], dtype: float32, data: [0.5]}\n");
  const Tensor& m = value(f, "m").to_tensor();
  EXPECT_EQ(m.dtype(), DType::Bool);
  EXPECT_EQ(m.value_at(0), 1.0);
  EXPECT_EQ(m.value_at(1), 0.0);
  const Tensor& i = value(f, "i").to_tensor();
  EXPECT_EQ(i.dtype(), DType::Int64);
  EXPECT_EQ(i.data<int64_t>()[0], 9007199254740993LL);  // past 2^53: no float detour
  EXPECT_EQ(i.data<int64_t>()[1], -4);
  EXPECT_EQ(value(f, "f").to_tensor().dtype(), DType::Float32);
}

TEST(YamlInputs, SpecialFloats) {
  InputFile f = parse("x: {shape: [3], data: [.nan, .inf, -.inf]}\n");
  const Tensor& t = value(f, "x").to_tensor();
  EXPECT_TRUE(std::isnan(t.value_at(0)));
  EXPECT_EQ(t.value_at(1), std::numeric_limits<double>::infinity());
  EXPECT_EQ(t.value_at(2), -std::numeric_limits<double>::infinity());
}

TEST(YamlInputs, PlainScalars) {
  InputFile f = parse("n: 5\nalpha: 0.5\nflag: true\noff: False\nnothing: null\nbig: -1e3\n");
  EXPECT_TRUE(value(f, "n").is_int());
  EXPECT_EQ(value(f, "n").to_int(), 5);
  EXPECT_TRUE(value(f, "alpha").is_double());
  EXPECT_EQ(value(f, "alpha").to_double(), 0.5);
  EXPECT_TRUE(value(f, "flag").is_bool());
  EXPECT_TRUE(value(f, "flag").to_bool());
  EXPECT_FALSE(value(f, "off").to_bool());
  EXPECT_TRUE(value(f, "nothing").is_none());
  EXPECT_TRUE(value(f, "big").is_double());
  EXPECT_EQ(value(f, "big").to_double(), -1000.0);
}

TEST(YamlInputs, ListValue) {
  InputFile f = parse("sizes: [1, 2, 3]\n");
  ASSERT_TRUE(value(f, "sizes").is_list());
  EXPECT_EQ(value(f, "sizes").to_int_list(), (std::vector<int64_t>{1, 2, 3}));
}

TEST(YamlInputs, OrderIsFileOrder) {
  InputFile f = parse("z: 1\na: 2\nm: 3\n");
  ASSERT_EQ(f.sets[0].values.size(), 3u);
  EXPECT_EQ(f.sets[0].values[0].name, "z");
  EXPECT_EQ(f.sets[0].values[1].name, "a");
  EXPECT_EQ(f.sets[0].values[2].name, "m");
  EXPECT_EQ(f.sets[0].values[1].range.line, 2);
  EXPECT_EQ(f.sets[0].values[1].range.col, 1);
}

TEST(YamlInputs, RequiresGrad) {
  InputFile f = parse(
      "w: {shape: [2], fill: randn, requires_grad: true}\n"
      "x: {shape: [1], data: [1], requires_grad: false}\n");
  EXPECT_EQ(f.sets[0].grad_names(), std::vector<std::string>{"w"});
  EXPECT_TRUE(value(f, "w").to_tensor().requires_grad());
  EXPECT_FALSE(value(f, "x").to_tensor().requires_grad());
}

TEST(YamlInputs, FillWithExplicitSeedUsesTheGenerator) {
  InputFile f = parse(
      "h: {shape: [2, 3], fill: randn, seed: 3}\n"
      "u: {shape: [4], fill: rand, seed: 7}\n"
      "z: {shape: [2], fill: zeros}\no: {shape: [2], dtype: int64, fill: ones}\n");
  Generator g(3);
  std::vector<float> want;
  for (int i = 0; i < 6; ++i) want.push_back(g.normal());
  EXPECT_EQ(floats(value(f, "h").to_tensor()), want);
  Generator g2(7);
  want.clear();
  for (int i = 0; i < 4; ++i) want.push_back(g2.uniform());
  EXPECT_EQ(floats(value(f, "u").to_tensor()), want);
  EXPECT_EQ(floats(value(f, "z").to_tensor()), (std::vector<float>{0, 0}));
  EXPECT_EQ(value(f, "o").to_tensor().dtype(), DType::Int64);
  EXPECT_EQ(value(f, "o").to_tensor().data<int64_t>()[1], 1);
  // An explicit seed ignores the command's seed.
  InputFile other = parse("h: {shape: [2, 3], fill: randn, seed: 3}\n", 99);
  EXPECT_EQ(floats(value(other, "h").to_tensor()), floats(value(f, "h").to_tensor()));
}

TEST(YamlInputs, FillWithoutSeedIsDerivedFromCommandSeedSetAndKey) {
  const char* text =
      "- {a: {shape: [4], fill: randn}, b: {shape: [4], fill: randn}}\n"
      "- {a: {shape: [4], fill: randn}}\n";
  InputFile f1 = parse(text, 0), f2 = parse(text, 0), f3 = parse(text, 1);
  auto a0 = floats(value(f1, "a", 0).to_tensor());
  EXPECT_EQ(a0, floats(value(f2, "a", 0).to_tensor()));  // deterministic
  EXPECT_NE(a0, floats(value(f1, "b", 0).to_tensor()));  // per key
  EXPECT_NE(a0, floats(value(f1, "a", 1).to_tensor()));  // per set
  EXPECT_NE(a0, floats(value(f3, "a", 0).to_tensor()));  // per command seed
  Generator g(fill_seed(0, 0, "a"));
  std::vector<float> want;
  for (int i = 0; i < 4; ++i) want.push_back(g.normal());
  EXPECT_EQ(a0, want);
}

TEST(YamlInputs, ADerivedSeedWrittenIntoTheFileReadsBack) {
  // Derived seeds span all 64 unsigned bits; the parity harness writes them out.
  const uint64_t derived = fill_seed(0, 0, "a");
  InputFile implicit = parse("a: {shape: [4], fill: randn}\n", 0);
  InputFile written =
      parse("a: {shape: [4], fill: randn, seed: " + std::to_string(derived) + "}\n", 0);
  EXPECT_EQ(floats(value(written, "a").to_tensor()), floats(value(implicit, "a").to_tensor()));
  InputFile top = parse("a: {shape: [1], fill: randn, seed: 18446744073709551615}\n", 0);
  Generator g(UINT64_MAX);
  EXPECT_EQ(floats(value(top, "a").to_tensor()), std::vector<float>{g.normal()});
}

TEST(YamlInputs, FillSeedRuleIsStable) {
  // docs/files.md gives this rule; other tools reproduce it, so it must not drift.
  EXPECT_EQ(fill_seed(0, 0, "x"), fill_seed(0, 0, "x"));
  EXPECT_NE(fill_seed(0, 0, "x"), fill_seed(0, 0, "y"));
  EXPECT_NE(fill_seed(0, 0, "x"), fill_seed(0, 1, "x"));
  EXPECT_NE(fill_seed(0, 0, "x"), fill_seed(1, 0, "x"));
}

TEST(YamlInputs, SeveralSets) {
  InputFile f = parse("- x: {shape: [1], data: [1]}\n- x: {shape: [1], data: [2]}\n  n: 3\n");
  EXPECT_TRUE(f.is_list);
  ASSERT_EQ(f.sets.size(), 2u);
  EXPECT_EQ(value(f, "x", 1).to_tensor().item(), 2.0);
  EXPECT_EQ(value(f, "n", 1).to_int(), 3);
  EXPECT_EQ(f.sets[1].range.line, 2);
}

TEST(YamlInputs, OneSetInAListIsStillAList) {
  InputFile f = parse("- n: 1\n");
  EXPECT_TRUE(f.is_list);
  EXPECT_EQ(f.sets.size(), 1u);
}

TEST(YamlInputs, EmptyFileIsOneEmptySet) {
  for (const char* text : {"", "# nothing\n", "{}\n"}) {
    InputFile f = parse(text);
    ASSERT_EQ(f.sets.size(), 1u) << text;
    EXPECT_TRUE(f.sets[0].values.empty());
  }
}

// ---------------------------------------------------------------------------
// Errors: each names in.yaml:line:col, shows the line with a caret, and hints.

TEST(YamlInputErrors, SyntaxError) {
  std::string e = parse_error("x: {shape: [1], data: [1]\ny: 2\n");
  EXPECT_NE(e.find("in.yaml:"), std::string::npos) << e;
  EXPECT_NE(e.find("YAML syntax error"), std::string::npos) << e;
  EXPECT_NE(e.find("^"), std::string::npos) << e;
  EXPECT_NE(e.find("hint:"), std::string::npos) << e;
}

TEST(YamlInputErrors, TabIndentation) {
  std::string e = parse_error("x:\n\tshape: [1]\n");
  EXPECT_NE(e.find("YAML syntax error"), std::string::npos) << e;
}

TEST(YamlInputErrors, TopLevelNotAMapOrList) {
  std::string e = parse_error("42\n");
  EXPECT_NE(e.find("in.yaml:1:1: error: the file is '42', not a map"), std::string::npos) << e;
}

TEST(YamlInputErrors, ListItemNotAMap) {
  std::string e = parse_error("- x: 1\n- 3\n");
  EXPECT_NE(e.find("in.yaml:2:3: error: input set 2 is '3', not a map"), std::string::npos) << e;
}

TEST(YamlInputErrors, EmptyList) {
  EXPECT_NE(parse_error("[]\n").find("no input sets"), std::string::npos);
}

TEST(YamlInputErrors, UnknownKeyWithSuggestion) {
  std::string e = parse_error("x: {shap: [2], data: [1, 2]}\n");
  EXPECT_NE(e.find("in.yaml:1:5: error: unknown key 'shap' in a tensor spec"), std::string::npos)
      << e;
  EXPECT_NE(e.find("    x: {shap: [2], data: [1, 2]}\n        ^~~~\n"), std::string::npos) << e;
  EXPECT_NE(e.find("did you mean 'shape'?"), std::string::npos) << e;
}

TEST(YamlInputErrors, ShapeNotAList) {
  EXPECT_NE(parse_error("x: {shape: 3, data: [1, 2, 3]}\n")
                .find("1:12: error: shape must be a list of non-negative integers"),
            std::string::npos);
}

TEST(YamlInputErrors, ShapeNegativeOrNotInteger) {
  EXPECT_NE(parse_error("x: {shape: [2, -1], data: []}\n")
                .find("1:16: error: shape entries must be non-negative, not -1"),
            std::string::npos);
  EXPECT_NE(parse_error("x: {shape: [2.5], data: []}\n")
                .find("error: a shape entry must be an integer, not '2.5'"),
            std::string::npos);
}

TEST(YamlInputErrors, ShapeTooLarge) {
  EXPECT_NE(parse_error("x: {shape: [100000, 100000, 100000], fill: zeros}\n").find("too large"),
            std::string::npos);
}

TEST(YamlInputErrors, DataLengthMismatchSaysBothNumbers) {
  std::string e = parse_error("x:\n  shape: [2, 3]\n  data: [1, 2, 3, 4, 5]\n");
  EXPECT_NE(e.find("in.yaml:3:9: error: data has 5 values but shape [2, 3] needs 6"),
            std::string::npos)
      << e;
}

TEST(YamlInputErrors, NestedDataShapeMismatch) {
  EXPECT_NE(parse_error("x: {shape: [4], data: [[1, 2], [3, 4]]}\n")
                .find("data is nested as [2, 2] but shape is [4]"),
            std::string::npos);
}

TEST(YamlInputErrors, RaggedData) {
  std::string e = parse_error("x: {data: [[1, 2], [3]]}\n");
  EXPECT_NE(e.find("1:20: error: ragged data: this row has 1 value, an earlier row 2"),
            std::string::npos)
      << e;
}

TEST(YamlInputErrors, BadDtype) {
  std::string e = parse_error("x: {shape: [1], dtype: float64, data: [1]}\n");
  EXPECT_NE(e.find("1:24: error: unknown dtype 'float64'"), std::string::npos) << e;
  EXPECT_NE(e.find("float32, int64, bool"), std::string::npos) << e;
}

TEST(YamlInputErrors, UnknownFill) {
  std::string e = parse_error("x: {shape: [1], fill: randm}\n");
  EXPECT_NE(e.find("1:23: error: unknown fill 'randm'"), std::string::npos) << e;
  EXPECT_NE(e.find("did you mean 'randn'?"), std::string::npos) << e;
}

TEST(YamlInputErrors, BadDataValues) {
  EXPECT_NE(parse_error("x: {shape: [2], data: [1, abc]}\n")
                .find("1:27: error: float32 data value 'abc' is not a number"),
            std::string::npos);
  EXPECT_NE(parse_error("x: {shape: [1], dtype: int64, data: [1.5]}\n")
                .find("int64 data value '1.5' is not an integer"),
            std::string::npos);
  EXPECT_NE(parse_error("x: {shape: [1], dtype: bool, data: [1]}\n")
                .find("bool data value '1' is not true or false"),
            std::string::npos);
  EXPECT_NE(parse_error("x: {shape: [1], data: [\"1\"]}\n").find("is not a number"),
            std::string::npos);
}

TEST(YamlInputErrors, SpecShapeRules) {
  EXPECT_NE(parse_error("x: {shape: [1]}\n").find("needs data or fill"), std::string::npos);
  EXPECT_NE(parse_error("x: {shape: [1], data: [1], fill: zeros}\n").find("not both"),
            std::string::npos);
  EXPECT_NE(parse_error("x: {fill: randn}\n").find("needs a shape"), std::string::npos);
  EXPECT_NE(parse_error("x: {shape: [1], data: [1], seed: 2}\n").find("seed applies only"),
            std::string::npos);
  EXPECT_NE(parse_error("x: {shape: [1], dtype: int64, fill: randn}\n")
                .find("fill: randn gives float32 values, not int64"),
            std::string::npos);
  EXPECT_NE(
      parse_error("x: {shape: [1], fill: randn, seed: -1}\n").find("seed must be non-negative"),
      std::string::npos);
  EXPECT_NE(parse_error("x: {shape: [1], dtype: int64, data: [1], requires_grad: true}\n")
                .find("only float32 tensors can require gradients"),
            std::string::npos);
  EXPECT_NE(parse_error("x: {shape: [1], data: [1], requires_grad: yes}\n")
                .find("requires_grad must be true or false"),
            std::string::npos);
}

TEST(YamlInputErrors, StringValue) {
  std::string e = parse_error("name: hello\n");
  EXPECT_NE(e.find("1:7: error: 'hello' is not an input value"), std::string::npos) << e;
}

TEST(YamlInputErrors, IntegerOverflow) {
  EXPECT_NE(parse_error("n: 99999999999999999999\n").find("does not fit in 64 bits"),
            std::string::npos);
}

TEST(YamlInputErrors, DuplicateKeys) {
  std::string e = parse_error("x: 1\nx: 2\n");
  EXPECT_NE(e.find("duplicate"), std::string::npos) << e;
  EXPECT_NE(parse_error("x: {shape: [1], shape: [1], data: [1]}\n").find("duplicate key 'shape'"),
            std::string::npos);
}

TEST(YamlInputErrors, SeveralDocuments) {
  EXPECT_NE(parse_error("x: 1\n---\nx: 2\n").find("more than one YAML document"),
            std::string::npos);
}

TEST(YamlInputErrors, UnreadableFile) {
  try {
    load_input_sets("/nonexistent/in.yaml", 0);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(e.message().find("cannot read file '/nonexistent/in.yaml'"), std::string::npos);
    EXPECT_EQ(e.exit_code(), 2);
  }
}

// ---------------------------------------------------------------------------
// Weights

TEST(YamlWeights, MapOfTensors) {
  auto w = parse_weights(std::make_shared<SourceFile>(
      "w.yaml",
      "linear1.weight: {shape: [2, 2], data: [1, 2, 3, 4]}\n0.bias: {shape: [2], "
      "fill: zeros}\n"));
  ASSERT_EQ(w.size(), 2u);
  EXPECT_EQ(w[0].name, "linear1.weight");
  EXPECT_EQ(floats(w[0].tensor), (std::vector<float>{1, 2, 3, 4}));
  EXPECT_EQ(w[1].name, "0.bias");
  EXPECT_EQ(w[1].range.line, 2);
  EXPECT_TRUE(parse_weights(std::make_shared<SourceFile>("w.yaml", "")).empty());
}

TEST(YamlWeights, Errors) {
  auto err = [](const std::string& text) {
    try {
      parse_weights(std::make_shared<SourceFile>("w.yaml", text));
    } catch (const Error& e) {
      return e.format();
    }
    return std::string();
  };
  EXPECT_NE(err("- a: 1\n").find("w.yaml:1:1: error: a weights file is a map"), std::string::npos);
  EXPECT_NE(err("a: 3\n").find("weight 'a' must be a tensor spec, not '3'"), std::string::npos);
  EXPECT_NE(err("a: {shape: [2], data: [1]}\n").find("data has 1 value but shape [2] needs 2"),
            std::string::npos);
}

}  // namespace
}  // namespace d2s
