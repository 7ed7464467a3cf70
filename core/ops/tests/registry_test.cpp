// Schema parsing, overload resolution and argument binding.
#include <gtest/gtest.h>

#include "core/ops/op_registry.h"
#include "core/ops/tests/kernel_test_util.h"

namespace d2s {
namespace {

using test::call_error;
using test::error_of;

const OpRegistry& R() {
  return OpRegistry::builtin();
}

OpRegistry::Bound bind(std::string_view op, const ValueList& pos, const test::Keywords& kw = {}) {
  return R().bind(op, pos, kw, SourceRange());
}

TEST(Schema, ParseAndPrint) {
  OpSchema s = OpSchema::parse(
      "aten::max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)");
  EXPECT_EQ(s.name, "aten::max");
  EXPECT_EQ(s.overload, "dim");
  EXPECT_EQ(s.qualified_name(), "aten::max.dim");
  ASSERT_EQ(s.arguments.size(), 3u);
  EXPECT_EQ(s.arguments[2].type, "bool");
  EXPECT_TRUE(s.arguments[2].default_value->is_bool());
  EXPECT_EQ(s.returns, (std::vector<std::string>{"Tensor", "Tensor"}));
  EXPECT_EQ(s.str(), "aten::max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor, Tensor)");

  OpSchema a =
      OpSchema::parse("aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
  EXPECT_TRUE(a.arguments[2].kwarg_only);
  EXPECT_FALSE(a.arguments[1].kwarg_only);
  EXPECT_EQ(a.str(), "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");

  OpSchema l = OpSchema::parse(
      "aten::f(int[1]? dim=None, float eps=1e-05, float p=2, str m='none', int[] d=[0, -1], "
      "ScalarType? dtype=None) -> Tensor");
  EXPECT_EQ(l.arguments[0].type, "int[]?");  // int[1] is stored as int[]
  EXPECT_EQ(l.arguments[1].default_value->to_double(), 1e-05);
  EXPECT_TRUE(l.arguments[2].default_value->is_double());  // float defaults are floats
  EXPECT_EQ(l.arguments[3].default_value->to_string(), "none");
  EXPECT_EQ(l.arguments[4].default_value->to_int_list(), (std::vector<int64_t>{0, -1}));

  OpSchema v = OpSchema::parse("aten::format(str self, ...) -> str");
  EXPECT_TRUE(v.varargs);
  EXPECT_EQ(v.str(), "aten::format(str self, ...) -> str");
}

TEST(Schema, Malformed) {
  EXPECT_NE(
      error_of([] { OpSchema::parse("aten::f(Tensor self"); }).find("malformed operator schema"),
      std::string::npos);
  EXPECT_NE(
      error_of([] { OpSchema::parse("aten::f(Foo x) -> Tensor"); }).find("unknown type 'Foo'"),
      std::string::npos);
  EXPECT_NE(error_of([] { OpSchema::parse("aten::f(Tensor x) Tensor"); }).find("expected '->'"),
            std::string::npos);
}

TEST(Registry, LookupAndDuplicates) {
  EXPECT_FALSE(R().overloads("aten::max").empty());
  EXPECT_TRUE(R().overloads("aten::nope").empty());
  ASSERT_NE(R().find_qualified("aten::max.dim"), nullptr);
  EXPECT_EQ(R().find_qualified("aten::max.dim")->schema.overload, "dim");
  EXPECT_NE(R().find_qualified("aten::mm"), nullptr);
  EXPECT_EQ(R().find_qualified("aten::max.nope"), nullptr);
  OpRegistry r;
  r.add("x::f(int a) -> int", [](OpContext&, const ValueList& a) { return a[0]; });
  EXPECT_EQ(error_of([&] {
              r.add("x::f(int b) -> int", [](OpContext&, const ValueList& a) { return a[0]; });
            }),
            "operator x::f registered twice");
  EXPECT_EQ(r.base_names(), std::vector<std::string>{"x::f"});
}

TEST(Bind, PositionalKeywordsAndDefaults) {
  Tensor x = Tensor::zeros({2, 3});
  auto b = bind("aten::sum", {x, IValue(1)});
  EXPECT_EQ(b.op->schema.overload, "dim_IntList");
  ASSERT_EQ(b.args.size(), 4u);
  EXPECT_EQ(b.args[1].to_int_list(), std::vector<int64_t>{1});  // an int for int[]
  EXPECT_FALSE(b.args[2].to_bool());                            // default keepdim
  EXPECT_TRUE(b.args[3].is_none());

  auto k = bind("aten::sum", {x},
                {{"dim", IValue::tuple({IValue(0), IValue(1)})}, {"keepdim", IValue(true)}});
  EXPECT_EQ(k.op->schema.overload, "dim_IntList");
  EXPECT_EQ(k.args[1].to_int_list(), (std::vector<int64_t>{0, 1}));
  EXPECT_TRUE(k.args[2].to_bool());

  EXPECT_EQ(bind("aten::sum", {x}).op->schema.overload, "");
  // A keyword-only argument given by name.
  auto a = bind("aten::add", {x, x}, {{"alpha", IValue(2)}});
  EXPECT_EQ(a.op->schema.overload, "Tensor");
  EXPECT_EQ(a.args[2].to_int(), 2);
}

TEST(Bind, VarargsInts) {
  auto z = bind("aten::zeros", {IValue(2), IValue(3)});
  EXPECT_EQ(z.args[0].to_int_list(), (std::vector<int64_t>{2, 3}));
  Tensor x = Tensor::zeros({2, 3});
  auto v = bind("aten::view", {x, IValue(3), IValue(-1)});
  EXPECT_EQ(v.args[1].to_int_list(), (std::vector<int64_t>{3, -1}));
  auto p = bind("aten::permute", {x, IValue(1), IValue(0)});
  EXPECT_EQ(p.args[1].to_int_list(), (std::vector<int64_t>{1, 0}));
  auto t = bind("aten::view", {x, IValue::tuple({IValue(6)})});
  EXPECT_EQ(t.args[1].to_int_list(), std::vector<int64_t>{6});
  // Varargs apply only when the int list is the sole positional argument (after self).
  // randint(10, 3, 4) is (low, high, size), not (high, size=[3, 4]).
  auto r = bind("aten::randint", {IValue(10), IValue(3), IValue(4)});
  EXPECT_EQ(r.op->schema.overload, "low");
  EXPECT_EQ(r.args[2].to_int_list(), std::vector<int64_t>{4});
  EXPECT_EQ(call_error("aten::view", {x, IValue(3), IValue("a")}),
            "view(): argument 'size' (position 2) must be int[], not str");
}

TEST(Bind, ConversionsByType) {
  // int accepts bool (Python's bool is an int); float accepts int; dtype names become codes.
  auto i = bind("aten::add", {IValue(true), IValue(2)});
  EXPECT_EQ(i.op->schema.overload, "int");
  EXPECT_TRUE(i.args[0].is_int());
  auto f = bind("aten::add", {IValue(1), IValue(2.5)});
  EXPECT_EQ(f.op->schema.overload, "float");
  EXPECT_TRUE(f.args[0].is_double());
  auto d = bind("aten::zeros", {IValue(2)}, {{"dtype", IValue("int64")}});
  EXPECT_EQ(d.args[1].to_int(), 4);
  EXPECT_EQ(bind("aten::zeros", {IValue(2)}, {{"dtype", IValue(6)}}).args[1].to_int(), 6);
  // Tensor arguments accept Python numbers, kept as numbers.
  auto w = bind("aten::add", {Tensor::zeros({1}), IValue(1.5)});
  EXPECT_TRUE(w.args[1].is_double());
  // Optional accepts None.
  auto c = bind("aten::clamp", {Tensor::zeros({1})}, {{"min", IValue()}, {"max", IValue(1)}});
  EXPECT_TRUE(c.args[1].is_none());
}

TEST(Bind, ErrorsNameTheOpAndWhatDidNotFit) {
  Tensor x = Tensor::zeros({2, 2});
  EXPECT_EQ(call_error("aten::mm", {x, IValue("a")}),
            "mm(): argument 'mat2' (position 2) must be Tensor, not str");
  EXPECT_EQ(call_error("aten::mm", {x}), "mm(): missing required argument 'mat2'");
  EXPECT_EQ(call_error("aten::mm", {x, x, x}),
            "mm(): expected at most 2 positional argument(s) but got 3");
  EXPECT_EQ(call_error("aten::mm", {x}, {{"other", x}}),
            "mm(): unexpected keyword argument 'other'");
  EXPECT_EQ(call_error("aten::mm", {x, x}, {{"mat2", x}}),
            "mm(): got multiple values for argument 'mat2'");
  EXPECT_EQ(call_error("aten::relu", {x}, {{"dim", IValue("x")}}),
            "relu(): unexpected keyword argument 'dim'");
  EXPECT_EQ(call_error("aten::zeros", {IValue(2)}, {{"dtype", IValue(7)}}),
            "zeros(): argument 'dtype' must be ScalarType?, not int");
  EXPECT_EQ(call_error("aten::nope", {}), "unknown operator 'aten::nope'");
  try {
    bind("aten::max", {x, IValue("a")});
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.message(),
              "max() received an invalid combination of arguments - got (Tensor, str), which no "
              "overload accepts");
    EXPECT_NE(e.hint().find("aten::max.dim(Tensor self, int dim, bool keepdim=False)"),
              std::string::npos);
    EXPECT_NE(e.hint().find("argument 'dim' (position 2) must be int, not str"), std::string::npos);
  }
  try {
    bind("aten::mm", {x});
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.hint(), "the schema is:\n  aten::mm(Tensor self, Tensor mat2) -> Tensor");
  }
}

TEST(Call, AddsTheRangeToKernelErrors) {
  auto file = std::make_shared<SourceFile>("m.py", "y = torch.mm(a, b)\n");
  SourceRange where(file, 1, 5, 8);
  OpContext ctx;
  try {
    R().call(ctx, "aten::mm", {Tensor::zeros({1, 10}), Tensor::zeros({20, 20})}, {}, where);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.message(), "mat1 and mat2 shapes cannot be multiplied (1x10 and 20x20)");
    EXPECT_EQ(e.range().line, 1);
    EXPECT_EQ(e.range().col, 5);
    EXPECT_EQ(e.exit_code(), 2);
  }
  // Binding errors carry the range too.
  try {
    R().call(ctx, "aten::mm", {}, {}, where);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.range().col, 5);
  }
}

TEST(Call, KernelExceptionsBecomeErrors) {
  OpRegistry r;
  r.add("x::boom() -> int",
        [](OpContext&, const ValueList&) -> IValue { throw std::out_of_range("vector"); });
  OpContext ctx;
  EXPECT_EQ(error_of([&] { r.call(ctx, "x::boom", {}, {}, SourceRange()); }),
            "internal error in x::boom: vector");
}

TEST(Call, AllBuiltinSchemasPrintAndReparse) {
  size_t n = 0;
  for (const std::string& name : R().base_names()) {
    for (const OpDef& def : R().overloads(name)) {
      OpSchema again = OpSchema::parse(def.schema.str());
      EXPECT_EQ(again.str(), def.schema.str());
      ++n;
    }
  }
  EXPECT_GT(n, 200u);
}

}  // namespace
}  // namespace d2s
