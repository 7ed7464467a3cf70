// The Python spelling tables: each spelling the contract names maps to an op
// that exists in the registry.
#include <gtest/gtest.h>

#include "core/ops/tests/kernel_test_util.h"

namespace d2s {
namespace {

bool exists(const std::optional<std::string>& op) {
  return op && !OpRegistry::builtin().overloads(*op).empty();
}

TEST(Bindings, Functions) {
  EXPECT_EQ(op_for_function("torch.mm"), "aten::mm");
  EXPECT_EQ(op_for_function("torch.nn.functional.relu"), "aten::relu");
  EXPECT_EQ(op_for_function("math.sqrt"), "aten::sqrt");
  EXPECT_EQ(op_for_function("math.pow"), "aten::float_power");
  EXPECT_EQ(op_for_function("torch.clip"), "aten::clamp");
  EXPECT_EQ(op_for_function("len"), "aten::len");
  EXPECT_EQ(op_for_function("torch.nope"), std::nullopt);
  EXPECT_EQ(op_for_function("math.pi"), std::nullopt);  // constants are the interpreter's
  for (const char* n :
       {"zeros",   "ones",        "full",        "rand",         "randn",     "randint",
        "arange",  "eye",         "tensor",      "zeros_like",   "ones_like", "full_like",
        "add",     "sub",         "mul",         "div",          "neg",       "pow",
        "exp",     "log",         "sqrt",        "rsqrt",        "abs",       "tanh",
        "sigmoid", "relu",        "square",      "clamp",        "maximum",   "minimum",
        "where",   "sin",         "cos",         "floor_divide", "remainder", "reciprocal",
        "sign",    "lt",          "gt",          "le",           "ge",        "eq",
        "ne",      "logical_not", "logical_and", "logical_or",   "sum",       "mean",
        "max",     "min",         "argmax",      "argmin",       "norm",      "prod",
        "all",     "any",         "mm",          "matmul",       "t",         "transpose",
        "permute", "reshape",     "flatten",     "squeeze",      "unsqueeze", "cat",
        "stack",   "numel",       "clone",       "detach",       "chunk",     "split",
        "softmax", "log_softmax", "dropout"}) {
    EXPECT_TRUE(exists(op_for_function(std::string("torch.") + n))) << n;
  }
  for (const char* n : {"relu", "gelu", "softmax", "log_softmax", "linear", "layer_norm", "dropout",
                        "sigmoid", "tanh"}) {
    EXPECT_TRUE(exists(op_for_function(std::string("torch.nn.functional.") + n))) << n;
  }
  for (const char* n :
       {"sqrt", "exp", "log", "tanh", "sin", "cos", "floor", "ceil", "pow", "fabs"}) {
    EXPECT_TRUE(exists(op_for_function(std::string("math.") + n))) << n;
  }
  for (const char* n : {"abs", "round", "min", "max", "len", "int", "float", "bool", "str"}) {
    EXPECT_TRUE(exists(op_for_function(n))) << n;
  }
}

TEST(Bindings, Methods) {
  EXPECT_EQ(op_for_method("mm"), "aten::mm");
  EXPECT_EQ(op_for_method("float"), std::nullopt);  // the interpreter uses aten::to
  EXPECT_EQ(op_for_method("view"), "aten::view");
  EXPECT_EQ(op_for_method("nope"), std::nullopt);
  for (const char* n :
       {"mm",      "t",       "sum",       "view",       "size",       "tanh",    "item",
        "dim",     "numel",   "relu",      "abs",        "clamp",      "max",     "min",
        "argmax",  "reshape", "unsqueeze", "squeeze",    "transpose",  "permute", "detach",
        "clone",   "norm",    "mean",      "pow",        "exp",        "log",     "sqrt",
        "sigmoid", "softmax", "flatten",   "contiguous", "expand",     "all",     "any",
        "to",      "matmul",  "add",       "mul",        "sub",        "div",     "neg",
        "eq",      "lt",      "chunk",     "split",      "masked_fill"}) {
    EXPECT_TRUE(exists(op_for_method(n))) << n;
  }
}

TEST(Bindings, Operators) {
  EXPECT_EQ(op_for_operator("__add__"), "aten::add");
  EXPECT_EQ(op_for_operator("__truediv__"), "aten::div");
  EXPECT_EQ(op_for_operator("__floordiv__"), "aten::floor_divide");
  EXPECT_EQ(op_for_operator("__invert__"), "aten::bitwise_not");
  EXPECT_EQ(op_for_operator("__iadd__"), std::nullopt);
  for (const char* n :
       {"__add__",    "__sub__", "__mul__", "__truediv__", "__floordiv__", "__mod__",  "__pow__",
        "__matmul__", "__neg__", "__lt__",  "__gt__",      "__le__",       "__ge__",   "__eq__",
        "__ne__",     "__and__", "__or__",  "__xor__",     "__invert__",   "__rsub__", "__not__"}) {
    EXPECT_TRUE(exists(op_for_operator(n))) << n;
  }
}

TEST(Bindings, OperatorsWorkOnNumbersAndTensors) {
  // The same op name serves Python numbers and tensors.
  auto op = *op_for_operator("__floordiv__");
  EXPECT_EQ(test::call(op, {IValue(-7), IValue(2)}).to_int(), -4);
  EXPECT_EQ(test::floats(test::callt(op, {test::F({1}, {-7}), IValue(2)})), std::vector<float>{-4});
  auto inv = *op_for_operator("__invert__");
  EXPECT_EQ(test::bools(test::callt(inv, {test::B({1}, {true})})), std::vector<bool>{false});
}

}  // namespace
}  // namespace d2s
