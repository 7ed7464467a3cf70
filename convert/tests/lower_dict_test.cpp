// Dicts in the parse route (convert/lower_dict.cpp, issue 16 item 4): the printed IR
// against TorchScript's forms (`# CHECK:` lines, lower_test_util.h's file_check), the
// executed graph against the eager interpreter, and the conversion-time refusals.
#include "convert/tests/lower_test_util.h"

namespace d2s::convert {
namespace {

using testing::file_check;
using testing::lower_and_print;

std::vector<float> ramp(int64_t n, float step = 0.5f) {
  std::vector<float> data(static_cast<size_t>(n));
  for (size_t i = 0; i < data.size(); ++i) data[i] = step * static_cast<float>(i) - 1.0f;
  return data;
}

const char* kRuntimeDict = R"(import torch
from torch import Tensor
def f(x: Tensor):
    d = {"a": x * 2, "b": x + 1}
    if bool(x.sum() > 0):
        d["c"] = x.relu()
    out = d["a"]
    for k, v in d.items():
        out = out + v
    return out, len(d), "c" in d
)";

TEST(LowerDict, ADictIsConstructedWrittenInABranchAndWalkedByALoop) {
  // torch.jit.script's graph: the dict is no If output and no loop-carried value; the
  // If arm writes into it, and items() is a list the Loop reads by index.
  EXPECT_TRUE(file_check(lower_and_print(kRuntimeDict), R"(
    # CHECK: %d : Dict(str, Tensor) = prim::DictConstruct(%2, %4, %5, %7)
    # CHECK: = prim::If(%12)
    # CHECK-NEXT: block0():
    # CHECK-NEXT: %13 : Tensor = aten::relu(%x)
    # CHECK-NEXT: %14 : str = prim::Constant[value="c"]()
    # CHECK-NEXT: = aten::_set_item(%d, %14, %13)
    # CHECK-NEXT: -> ()
    # CHECK: %out : Tensor = aten::__getitem__(%d, %15)
    # CHECK-NEXT: %17 : (str, Tensor)[] = aten::items(%d)
    # CHECK-NEXT: %18 : int = aten::len(%17)
    # CHECK-NEXT: %out.1 : Tensor = prim::Loop(%18, %1, %out)
    # CHECK-NEXT: block0(%20 : int, %out.2 : Tensor):
    # CHECK-NEXT: %22 : (str, Tensor) = aten::__getitem__(%17, %20)
    # CHECK-NEXT: %k : str, %v : Tensor = prim::TupleUnpack(%22)
    # CHECK: %26 : int = aten::len(%d)
    # CHECK: %28 : bool = aten::__contains__(%d, %27)
    # CHECK-NEXT: return (%out.1, %26, %28)
  )"));
  testing::Differential d;
  for (float step : {0.5f, -0.5f}) {
    EXPECT_TRUE(d.run_source(kRuntimeDict, {{"x", testing::t({2, 3}, ramp(6, step))}})) << step;
  }
}

const char* kIntKeysInLoop = R"(import torch
from torch import Tensor
from typing import Dict
def f(x: Tensor, n: int):
    d: Dict[int, Tensor] = {}
    for i in range(n):
        d[i] = x * float(i)
    d[0] = x + 10.0
    total = torch.zeros_like(x)
    for k in d:
        total = total * 0.5 + d[k]
    kept = d.pop(1, x)
    return total, kept, len(d), 2 in d, d.get(7) is None
)";

TEST(LowerDict, AnEmptyDictTakesItsTypesFromItsFirstWriteInALoop) {
  const std::string ir = lower_and_print(kIntKeysInLoop);
  EXPECT_TRUE(file_check(ir, R"(
    # CHECK: Dict(int, Tensor) = prim::DictConstruct()
    # CHECK: prim::Loop
    # CHECK: aten::_set_item
    # CHECK: aten::keys
  )")) << ir;
  testing::Differential d;
  for (int64_t n : {0, 1, 4}) {
    EXPECT_TRUE(d.run_source(kIntKeysInLoop, {{"x", testing::t({3}, ramp(3))}, {"n", IValue(n)}}))
        << n;
  }
}

TEST(LowerDict, MethodsCopiesAndSpreadsRunAsInPython) {
  const char* src = R"(import torch
from torch import Tensor
def f(x: Tensor, k: int):
    d = {"w": x * 3.0, "v": x - 1.0}
    e = dict(u=x * 2.0, w=x + 0.5)
    d.update(e)
    f = d.copy()
    f["z"] = x
    g = {**d, "y": x}
    del g["u"]
    popped = d.pop("v")
    sizes = dict(a=k, b=k * 2)
    sizes["c"] = len(f)
    print(sizes, len(g), list(g.keys()))
    vals = [v.sum() for v in d.values()]
    return popped + d.get("q", x), len(d), sum(vals), "u" not in g
)";
  testing::Differential d;
  EXPECT_TRUE(d.run_source(src, {{"x", testing::t({2}, ramp(2))}, {"k", IValue(int64_t{3})}}));
}

TEST(LowerDict, AMissingKeyIsAKeyErrorWhenTheGraphRuns) {
  const char* src = R"(import torch
def f(x):
    d = {"a": x}
    return d["b"]
)";
  LoweredGraph lowered = lower_string(src);
  Executor exec(*lowered.graph, ExecOptions{});
  try {
    exec.run({IValue(testing::t({2}, ramp(2)))});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.message(), "KeyError: 'b'");
    EXPECT_EQ(e.range().line, 4u);
    EXPECT_NE(e.hint().find("d.get(key, default)"), std::string::npos) << e.hint();
  }
}

TEST(LowerDict, ValuesOfTwoTypesAreRefused) {
  std::string err = testing::lower_error(R"(import torch
def f(x):
    d = {"a": x, "n": 1}
    return d["a"]
)");
  EXPECT_NE(err.find("a dict with values of type Tensor cannot hold a value of type int"),
            std::string::npos)
      << err;
  err = testing::lower_error(R"(import torch
def f(x):
    d = {"a": x}
    d["n"] = 2.5
    return d["a"]
)");
  EXPECT_NE(err.find("cannot hold a value of type float"), std::string::npos) << err;
  EXPECT_NE(err.find("eager and trace modes run it"), std::string::npos) << err;
}

TEST(LowerDict, KeysOtherThanStrAndIntAndKeysOfAnotherTypeAreRefused) {
  std::string err = testing::lower_error(R"(import torch
def f(x):
    d = {1.5: x}
    return x
)");
  EXPECT_NE(err.find("a dict key must be a str or an int in the parse route, not float"),
            std::string::npos)
      << err;
  err = testing::lower_error(R"(import torch
def f(x):
    d = {"a": x}
    return d[0]
)");
  EXPECT_NE(err.find("this dict has keys of type str, not int"), std::string::npos) << err;
}

TEST(LowerDict, ADefaultOfAnotherTypeAndUnknownMethodsAreRefused) {
  std::string err = testing::lower_error(R"(import torch
def f(x):
    d = {"a": x}
    return d.get("b", 3)
)");
  EXPECT_NE(err.find("the default of dict.get() has type int, but the dict's values are Tensor"),
            std::string::npos)
      << err;
  err = testing::lower_error(R"(import torch
def f(x):
    d = {"a": x}
    return d.setdefault("b", x)
)");
  EXPECT_NE(err.find("'dict' object has no method 'setdefault' in the parse route"),
            std::string::npos)
      << err;
  err = testing::lower_error(R"(import torch
def f(x):
    d = {k: v for k, v in [("a", x), ("b", 2)]}
    return d["a"]
)");
  // A dict comprehension lowers (tests/parity/parse_dicts/dict_comprehension.py); its
  // entries still share one value type.
  EXPECT_NE(err.find("a dict with values of type Tensor cannot hold a value of type int"),
            std::string::npos)
      << err;
  err = testing::lower_error(R"(import torch
def f(x):
    d = dict([("a", x)])
    return d["a"]
)");
  EXPECT_NE(err.find("dict() of a"), std::string::npos) << err;
}

TEST(LowerDict, ADictAttributeOfTheModuleIsFrozenAndReadAtConversionTime) {
  const char* src = R"(import torch
import torch.nn as nn
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.index = {"a": 0, "b": 2}
    def forward(self, x, k: int):
        return x * float(self.index["b"]), self.index.get("z", 7), "a" in self.index, sum(self.index.values()) + k
)";
  const std::string ir = lower_and_print(src);
  EXPECT_TRUE(file_check(ir, R"(
    # CHECK-NOT: aten::__getitem__
    # CHECK-NOT: aten::__contains__
    # CHECK: aten::values
  )")) << ir;
  testing::Differential d;
  for (int64_t k : {0, 1, 2}) {
    EXPECT_TRUE(d.run_source(src, {{"x", testing::t({2}, ramp(2))}, {"k", IValue(k)}})) << k;
  }
  const std::string err = testing::lower_error(R"(import torch
import torch.nn as nn
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.index = {"a": 0}
    def forward(self, x):
        self.index["b"] = 1
        return x
)");
  EXPECT_NE(err.find("a dict attribute of the module cannot be changed in the parse route"),
            std::string::npos)
      << err;
}

}  // namespace
}  // namespace d2s::convert
