// TorchScript's structured values in the parse route when they are known only when the
// graph runs (issue 16 item 4): tuples carried by a prim::Loop, enumerate/zip over
// iterables of run-time length, sum/any/all over them. The printed IR against
// TorchScript's forms (`# CHECK:` lines, lower_test_util.h's file_check) and the
// executed graph against the eager interpreter.
#include "convert/tests/lower_test_util.h"

namespace d2s::convert {
namespace {

using testing::file_check;
using testing::lower_and_print;

std::vector<float> ramp(int64_t n) {
  std::vector<float> data(static_cast<size_t>(n));
  for (size_t i = 0; i < data.size(); ++i) data[i] = 0.25f * static_cast<float>(i) - 0.75f;
  return data;
}

const char* kTupleCarried = R"(import torch
from torch import Tensor
def f(x: Tensor) -> Tensor:
    h = (torch.zeros(x.size(1)), torch.ones(x.size(1)))
    for t in range(x.size(0)):
        a, b = h
        h = (torch.tanh(a + x[t]), b * 0.5 + a)
    return h[0] + h[1]
)";

TEST(LowerStructured, ATupleIsCarriedByTheLoopAsOneValue) {
  // torch.jit.script's graph: the tuple is one loop-carried value, unpacked in the body
  // and made again at its end.
  EXPECT_TRUE(file_check(lower_and_print(kTupleCarried), R"(
    # CHECK: %h : (Tensor[*], Tensor[*]) = prim::TupleConstruct(%5, %9)
    # CHECK: %h.1 : (Tensor, Tensor) = prim::Loop(%12, %1, %h)
    # CHECK-NEXT: block0(%t : int, %h.2 : (Tensor, Tensor)):
    # CHECK-NEXT: %a : Tensor, %b : Tensor = prim::TupleUnpack(%h.2)
    # CHECK: %h.3 : (Tensor, Tensor) = prim::TupleConstruct(%21, %24)
    # CHECK-NEXT: -> (%1, %h.3)
    # CHECK: %26 : Tensor, %27 : Tensor = prim::TupleUnpack(%h.1)
  )"));
  testing::Differential d;
  for (int64_t rows : {0, 1, 4}) {
    EXPECT_TRUE(d.run_source(kTupleCarried, {{"x", testing::t({rows, 2}, ramp(rows * 2))}}))
        << rows;
  }
}

const char* kEnumerateZip = R"(import torch
from torch import Tensor
def f(x: Tensor, n: int) -> Tensor:
    ws = [float(k) for k in range(n)]
    acc = torch.zeros(x.size(1))
    for i, row in enumerate(x, 1):
        acc = acc + row * float(i)
    for w, row in zip(ws, x):
        acc = acc * w + row
    return acc
)";

TEST(LowerStructured, EnumerateAndZipOfRunTimeLengthAreOneLoopEach) {
  // enumerate: the loop's index plus the start; zip: prim::min of the lengths as the
  // trip count, each sequence read at the index (TorchScript's forms).
  EXPECT_TRUE(file_check(lower_and_print(kEnumerateZip), R"(
    # CHECK: %11 : int = prim::Constant[value=1]()
    # CHECK: %13 : int = aten::size(%x, %12)
    # CHECK: %acc.1 : Tensor = prim::Loop(%13, %2, %acc)
    # CHECK-NEXT: block0(%15 : int, %acc.2 : Tensor):
    # CHECK-NEXT: %i : int = aten::add(%15, %11)
    # CHECK: %row : Tensor = aten::select(%x, %18, %15)
    # CHECK: %23 : int = aten::len(%ws)
    # CHECK: %25 : int = aten::size(%x, %24)
    # CHECK: %26 : int = prim::min(%23, %25)
    # CHECK: %acc.4 : Tensor = prim::Loop(%26, %2, %acc.1)
    # CHECK-NEXT: block0(%28 : int, %acc.5 : Tensor):
    # CHECK-NEXT: %w : float = aten::__getitem__(%ws, %28)
    # CHECK: %row.1 : Tensor = aten::select(%x, %31, %28)
  )"));
  testing::Differential d;
  for (int64_t n : {0, 2, 5}) {
    EXPECT_TRUE(d.run_source(kEnumerateZip, {{"x", testing::t({3, 2}, ramp(6))}, {"n", IValue(n)}}))
        << n;
  }
}

const char* kReductions = R"(import torch
from torch import Tensor
def f(x: Tensor, n: int) -> Tensor:
    ks = [k * 2 for k in range(n)]
    flags = [bool(r.sum() > 0) for r in x]
    return sum(x) + sum(ks) + float(any(flags)) + float(all(flags))
)";

TEST(LowerStructured, SumAnyAllOfRunTimeLengthAreLoops) {
  // sum carries the running sum (Any for tensors: Python's sum starts from the int 0);
  // any/all carry the answer and stop at the first item that decides it.
  EXPECT_TRUE(file_check(lower_and_print(kReductions), R"(
    # CHECK: %2 : bool = prim::Constant[value=False]()
    # CHECK: %22 : int = prim::Constant[value=0]()
    # CHECK-NEXT: %23 : Any = prim::Loop(%21, %3, %22)
    # CHECK-NEXT: block0(%24 : int, %25 : Any):
    # CHECK: %27 : Tensor = aten::select(%x, %26, %24)
    # CHECK-NEXT: %28 : Any = aten::add(%25, %27)
    # CHECK-NEXT: -> (%3, %28)
    # CHECK: %31 : int = prim::Loop(%29, %3, %30)
    # CHECK-NEXT: block0(%32 : int, %33 : int):
    # CHECK-NEXT: %34 : int = aten::__getitem__(%ks, %32)
    # CHECK-NEXT: %35 : int = aten::add(%33, %34)
    # CHECK: %38 : bool = prim::Loop(%37, %3, %2)
    # CHECK: %41 : bool = aten::__getitem__(%flags, %39)
    # CHECK-NEXT: %42 : bool = aten::__not__(%41)
    # CHECK-NEXT: -> (%42, %41)
    # CHECK: %46 : bool = prim::Loop(%45, %3, %3)
    # CHECK: %49 : bool = aten::__getitem__(%flags, %47)
    # CHECK-NEXT: -> (%49, %49)
  )"));
  testing::Differential d;
  for (int64_t rows : {1, 3}) {
    for (int64_t n : {0, 3}) {
      EXPECT_TRUE(d.run_source(kReductions,
                               {{"x", testing::t({rows, 2}, ramp(rows * 2))}, {"n", IValue(n)}}))
          << rows << " " << n;
    }
  }
}

TEST(LowerStructured, ZipOfAModuleListWithARunTimeLengthIsRefused) {
  const char* src = R"(import torch
import torch.nn as nn
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.fcs = nn.ModuleList([nn.Linear(2, 2), nn.Linear(2, 2)])
    def forward(self, x):
        for fc, row in zip(self.fcs, x):
            x = x + fc(row)
        return x
)";
  const std::string err = testing::lower_error(src);
  EXPECT_NE(err.find("zip() of module"), std::string::npos) << err;
  EXPECT_NE(err.find("eager and trace modes run it"), std::string::npos) << err;
}

}  // namespace
}  // namespace d2s::convert

namespace d2s::convert {
namespace {

const char* kOptional = R"(import torch
from torch import Tensor
from typing import Optional
def f(x: Tensor, bias: Optional[Tensor] = None) -> Tensor:
    y = x * 2.0
    if bias is not None:
        y = y + bias
    h = None
    if bool(y.sum() > 0):
        h = y * 3.0
    if h is None:
        return y
    return h + 1.0
)";

TEST(LowerStructured, AnOptionalIsTestedAndRefinedAsTorchScriptDoes) {
  // torch.jit.script's graph: `Tensor?` inputs, aten::__isnot__ / aten::__is__ against
  // None, prim::unchecked_cast at the top of the arm where the value is not None (also
  // the arm that an early return leaves to the rest of the function), and a variable
  // that is None on one path an If output of type Tensor?.
  EXPECT_TRUE(file_check(lower_and_print(kOptional), R"(
    # CHECK: %bias : Tensor?
    # CHECK: %5 : bool = aten::__isnot__(%bias, %4)
    # CHECK-NEXT: %y.1 : Tensor = prim::If(%5)
    # CHECK-NEXT: block0():
    # CHECK-NEXT: %7 : Tensor = prim::unchecked_cast(%bias)
    # CHECK-NEXT: %y.2 : Tensor = aten::add(%y, %7)
    # CHECK: %h.1 : Tensor? = prim::If(
    # CHECK: -> (%h)
    # CHECK: bool = aten::__is__(%h.1,
    # CHECK: block1():
    # CHECK-NEXT: Tensor = prim::unchecked_cast(%h.1)
  )"));
  testing::Differential d;
  for (float sign : {1.0f, -1.0f}) {
    const Tensor x = testing::t({2}, {sign * 0.5f, sign * 1.5f});
    EXPECT_TRUE(d.run_source(kOptional, {{"x", x}, {"bias", IValue()}})) << sign;
    EXPECT_TRUE(d.run_source(kOptional, {{"x", x}, {"bias", testing::t({2}, {0.25f, -0.5f})}}))
        << sign;
  }
}

TEST(LowerStructured, AnAssertThatAnOptionalIsNotNoneRefinesItAfterwards) {
  const char* src = R"(import torch
from typing import Optional
def f(x, bias: Optional[torch.Tensor] = None):
    assert bias is not None, "need a bias"
    return x + bias
)";
  // TorchScript's form: the assert's prim::If, then prim::unchecked_cast after it.
  EXPECT_TRUE(file_check(lower_and_print(src), R"(
    # CHECK: %3 : bool = aten::__isnot__(%bias, %2)
    # CHECK-NEXT: = prim::If(%3)
    # CHECK: prim::RaiseException[kind="AssertionError"](%4)
    # CHECK: %5 : Tensor = prim::unchecked_cast(%bias)
    # CHECK-NEXT: %6 : Tensor = aten::add(%x, %5)
  )"));
}

TEST(LowerStructured, AnOptionalUsedWithoutATestIsRefused) {
  const char* src = R"(import torch
from typing import Optional
def f(x, bias: Optional[torch.Tensor] = None):
    return x + bias
)";
  const std::string err = testing::lower_error(src);
  EXPECT_NE(err.find("argument 'other' must be Tensor, not Tensor?"), std::string::npos) << err;
}

}  // namespace
}  // namespace d2s::convert
