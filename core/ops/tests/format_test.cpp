// aten::format against what Python's str.format prints.
#include <gtest/gtest.h>

#include "core/ops/tests/kernel_test_util.h"

namespace d2s {
namespace {

std::string fmt(const std::string& f, ValueList args) {
  args.insert(args.begin(), IValue(f));
  return test::call("aten::format", args).to_string();
}

TEST(Format, Fields) {
  EXPECT_EQ(fmt("x={} y={}", {IValue(1), IValue(2.5)}), "x=1 y=2.5");
  EXPECT_EQ(fmt("{1}{0}", {IValue("a"), IValue("b")}), "ba");
  EXPECT_EQ(fmt("{{}} {}", {IValue(true)}), "{} True");
  EXPECT_EQ(fmt("{!r} {}", {IValue("s"), IValue("s")}), "'s' s");
  EXPECT_EQ(fmt("{}", {IValue()}), "None");
  EXPECT_EQ(fmt("t={}", {IValue(test::F({2}, {1, 2}))}), "t=tensor([1., 2.])");
  EXPECT_EQ(fmt("{}", {IValue::int_list({1, 2})}), "[1, 2]");
}

TEST(Format, Specs) {
  EXPECT_EQ(fmt("{:.2f}", {IValue(3.14159)}), "3.14");
  EXPECT_EQ(fmt("{:.3f}", {IValue(2)}), "2.000");
  EXPECT_EQ(fmt("{:8.3f}|", {IValue(-1.5)}), "  -1.500|");
  EXPECT_EQ(fmt("{:<6}|{:>6}|{:^6}|", {IValue(1), IValue("ab"), IValue("ab")}),
            "1     |    ab|  ab  |");
  EXPECT_EQ(fmt("{:05d}", {IValue(42)}), "00042");
  EXPECT_EQ(fmt("{:+d}", {IValue(42)}), "+42");
  EXPECT_EQ(fmt("{:,}", {IValue(1234567)}), "1,234,567");
  EXPECT_EQ(fmt("{:.2e}", {IValue(12345.678)}), "1.23e+04");
  EXPECT_EQ(fmt("{:g}", {IValue(0.0001)}), "0.0001");
  EXPECT_EQ(fmt("{:.1%}", {IValue(0.256)}), "25.6%");
  EXPECT_EQ(fmt("{:.3}", {IValue(1.0)}), "1.0");
  EXPECT_EQ(fmt("{:.3}", {IValue(1234.5)}), "1.23e+03");
  EXPECT_EQ(fmt("{:.2}", {IValue("abc")}), "ab");
  EXPECT_EQ(fmt("{:*>5}", {IValue("x")}), "****x");
  EXPECT_EQ(fmt("{:.4f}", {IValue(Tensor::scalar(0.5))}), "0.5000");  // 0-d tensor formats its item
}

TEST(Format, Errors) {
  auto err = [](const std::string& f, ValueList args) {
    args.insert(args.begin(), IValue(f));
    return test::call_error("aten::format", args);
  };
  EXPECT_EQ(err("{:d}", {IValue(1.5)}),
            "ValueError: Unknown format code 'd' for object of type 'float'");
  EXPECT_EQ(err("{} {}", {IValue(1)}),
            "IndexError: Replacement index 1 out of range for positional args tuple");
  EXPECT_EQ(err("{", {}), "ValueError: Single '{' encountered in format string");
  EXPECT_EQ(err("}", {}), "ValueError: Single '}' encountered in format string");
  EXPECT_EQ(err("{:.2f}", {IValue(test::F({2}, {1, 2}))}),
            "TypeError: unsupported format string passed to Tensor.__format__");
}

}  // namespace
}  // namespace d2s
