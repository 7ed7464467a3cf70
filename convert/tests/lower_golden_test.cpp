// Golden IR: the printed graph of each program, checked with `# CHECK:` lines in order
// (lower_test_util.h's file_check), as TorchScript tests its emitter with FileCheck.
#include "convert/tests/lower_test_util.h"

namespace d2s::convert {
namespace {

using testing::file_check;

std::string print_sample(const std::string& name, const LowerOptions& o = {}) {
  return ir::print_graph(*lower_file(testing::sample_path(name), o).graph);
}

const char* kModuleHelper =
    R"(# An nn.Module with a plain attribute (`self.n`), an nn.Parameter and a helper method:
# `range(self.n)` has a constant trip count (tracing unrolls it: info, not lossy) and the
# helper call is inlined in both routes.
import torch
import torch.nn as nn
from torch import Tensor


class Refiner(nn.Module):
    def __init__(self):
        super().__init__()
        self.n = 3
        self.proj = nn.Linear(4, 4)
        self.scale = nn.Parameter(torch.full([4], 0.5))

    def step(self, h: Tensor) -> Tensor:
        return torch.tanh(self.proj(h)) * self.scale + h

    def forward(self, x: Tensor) -> Tensor:
        h = x
        for i in range(self.n):
            h = self.step(h)
        return h
)";

const char* kViewBatch =
    R"(# `x.view(x.size(0), -1)`: the batch size flows only into a tensor op, so tracing keeps it
# symbolic (aten::size feeding aten::view) as torch.jit.trace does. Trace-safe: no branch,
# no baked value; the only difference between routes is the input shape a trace records.
import torch
from torch import Tensor


def view_batch(x: Tensor, w: Tensor, b: Tensor) -> Tensor:
    h = x.view(x.size(0), -1)
    h = torch.relu(torch.matmul(h, w) + b)
    return h.argmax(dim=1), h
)";

const char* kShapeLoop =
    R"(# A Python loop over `x.shape[0]`: tracing reads the size as a plain int, unrolls the
# loop that many times and bakes the count in; a trace made on 3 rows is wrong (its
# shape guard fails) on 5 rows, while the parsed prim::Loop takes its count from x.
import torch
from torch import Tensor


def shape_loop(x: Tensor) -> Tensor:
    assert x.dim() == 2, "expected a matrix"
    acc = torch.zeros(x.shape[1])
    for i in range(x.shape[0]):
        acc = acc + x[i] * (i + 1)
    return acc
)";

const char* kPrintBranch =
    R"(# print() inside a data-dependent branch: the trace keeps neither the print (a dropped side
# effect) nor the branch it did not take; the parsed graph keeps prim::Print in each arm.
import torch
from torch import Tensor


def print_branch(x: Tensor) -> Tensor:
    m = x.abs().max()
    if m > 1.0:
        print(f"normalising {x.numel()} values")
        x = x / m
    else:
        print("already within [-1, 1]")
    return x
)";

TEST(LowerGolden, Foo1IfElse) {
  EXPECT_TRUE(file_check(print_sample("foo1"), R"(
    # CHECK: graph(%x : Tensor,
    # CHECK: %z : Tensor):
    # CHECK: Bool = aten::lt(%x, %y)  # foo1.py:9:8
    # CHECK-NEXT: bool = aten::Bool(
    # CHECK-NEXT: %s : Tensor = prim::If(
    # CHECK-NEXT: block0():
    # CHECK-NEXT: %s.1 : Tensor = aten::add(%x, %y)  # foo1.py:10:13
    # CHECK-NEXT: -> (%s.1)
    # CHECK-NEXT: block1():
    # CHECK-NEXT: %s.2 : Tensor = aten::square(%y)  # foo1.py:12:13
    # CHECK-NEXT: -> (%s.2)
    # CHECK-NEXT: return (%s)
  )"));
}

TEST(LowerGolden, Foo2ForRange) {
  EXPECT_TRUE(file_check(print_sample("foo2"), R"(
    # CHECK: graph(%s : Tensor):
    # CHECK: bool = prim::Constant[value=True]()
    # CHECK: int = prim::Constant[value=10]()
    # CHECK: %s.1 : Tensor = prim::Loop(
    # CHECK-NEXT: block0(
    # CHECK-NEXT: = aten::add_(%s.2,
    # CHECK-NEXT: -> (%1, %s.2)
    # CHECK-NEXT: return (%s.1)
    # CHECK-NOT: prim::If
  )"));
}

TEST(LowerGolden, RnnCellWithSymbolicShapes) {
  LowerOptions o;
  o.input_shapes = {{"x", {1, 10}}, {"prev_h", {1, 20}}, {"w_h", {20, 20}}, {"w_x", {20, 10}}};
  // Two different symbols broadcast to an unknown dim (`*`): either may be 1.
  EXPECT_TRUE(file_check(print_sample("rnn_cell", o), R"(
    # CHECK: graph(%x : Tensor[x_0, x_1],
    # CHECK: %prev_h : Tensor[prev_h_0, prev_h_1],
    # CHECK: Tensor[prev_h_1, prev_h_0] = aten::t(%prev_h)
    # CHECK: %h2h : Tensor[w_h_0, prev_h_0] = aten::mm(%w_h,
    # CHECK: Tensor[] = aten::mean(%h2h)
    # CHECK: Bool[] = aten::gt(
    # CHECK: %h2h.1 : Tensor[*, *] = prim::If(
    # CHECK: Tensor[x_1, x_0] = aten::t(%x)
    # CHECK: %i2h : Tensor[w_x_0, x_0] = aten::mm(%w_x,
    # CHECK: %h2h.2 : Tensor[*, *] = aten::add(%h2h, %i2h)
    # CHECK: -> (%h2h.2)
    # CHECK: -> (%h2h)
    # CHECK: %next_h : Tensor[*, *] = aten::tanh(%h2h.1)
    # CHECK: %loss : Tensor[] = aten::sum(%next_h)
    # CHECK: return (%next_h, %loss)
  )"));
}

TEST(LowerGolden, WhileWithBreakAndContinue) {
  const char* src = R"(import torch
def f(x, n: int):
    i = 0
    total = x * 0
    while True:
        i += 1
        if i % 2 == 0:
            continue
        total = total + x * i
        if i >= n:
            break
    return total, i
)";
  // The break becomes the loop's condition (no jumps); the continue skips the rest of
  // the body by placing it in the If's other arm.
  EXPECT_TRUE(file_check(testing::lower_and_print(src), R"(
    # CHECK: int = prim::Constant[value=9223372036854775807]()  # model.py:5:5
    # CHECK: %i.1 : int, %total.1 : Tensor = prim::Loop(
    # CHECK: %i.3 : int = aten::add(%i.2,
    # CHECK: int = aten::remainder(%i.3,
    # CHECK: %total.3 : Tensor, %
    # CHECK-NEXT: block0():
    # CHECK-NEXT: -> (%total.2,
    # CHECK-NEXT: block1():
    # CHECK: %total.4 : Tensor = aten::add(%total.2,
    # CHECK: bool = aten::ge(%i.3, %n)
    # CHECK: bool = aten::__not__(
    # CHECK: -> (
    # CHECK: return (%total.1, %i.1)
  )"));
}

TEST(LowerGolden, EarlyReturnInsideLoop) {
  const char* src = R"(import torch
def find(x, limit: float):
    acc = torch.zeros(x.shape[1])
    for i in range(x.shape[0]):
        acc = acc + x[i]
        if acc.sum() > limit:
            return acc, i
    return acc * 0, -1
)";
  // The return sets a flag that stops the loop; the value leaves the loop as a carried
  // value (initially prim::Uninitialized); after the loop an If picks the return.
  EXPECT_TRUE(file_check(testing::lower_and_print(src), R"(
    # CHECK: aten::size(%x,
    # CHECK: (Tensor, int) = prim::Uninitialized()
    # CHECK: %acc.1 : Tensor, %
    # CHECK: aten::select(%x,
    # CHECK: prim::If(
    # CHECK: prim::TupleConstruct(%acc.3,
    # CHECK: prim::Uninitialized()
    # CHECK: aten::__not__(
    # CHECK: (Tensor, int) = prim::If[exit_guard=True](
    # CHECK: aten::mul(%acc.1,
    # CHECK: prim::TupleUnpack(
    # CHECK: return (
  )"));
}

const char* kTrainingFlag = R"(import torch
import torch.nn as nn
import torch.nn.functional as F


class TrainingFlag(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 8)
        self.fc2 = nn.Linear(8, 3)
        self.p = 0.0

    def forward(self, x):
        h = F.dropout(torch.tanh(self.fc1(x)), p=self.p, training=self.training)
        out = self.fc2(h)
        if self.training:
            return out, out.square().mean()
        return out, torch.zeros(())
)";

TEST(LowerGolden, ModuleTrainingBranchFolded) {
  // `if self.training:` is a constant of the frozen module: the pass inlines the
  // taken arm, so no prim::If remains; parameters are inputs by state_dict name.
  EXPECT_TRUE(file_check(testing::lower_and_print(kTrainingFlag), R"(
    # CHECK: graph(%x : Tensor,
    # CHECK-NEXT: %fc1.weight : Tensor[8, 6],
    # CHECK-NEXT: %fc1.bias : Tensor[8],
    # CHECK-NEXT: %fc2.weight : Tensor[3, 8],
    # CHECK-NEXT: %fc2.bias : Tensor[3]):
    # CHECK: aten::linear(%x, %fc1.weight, %fc1.bias)  # model.py:14:34
    # CHECK: aten::tanh(
    # CHECK: float = prim::Constant[value=0.0]()  # model.py:14:50
    # CHECK: bool = prim::Constant[value=True]()  # model.py:14:67
    # CHECK: %h : Tensor = aten::dropout(
    # CHECK: %out : Tensor = aten::linear(%h, %fc2.weight, %fc2.bias)
    # CHECK: aten::square(%out)
    # CHECK: aten::mean(
    # CHECK: return (%out,
    # CHECK-NOT: prim::If
  )"));
  LowerOptions eval;
  eval.training = false;
  EXPECT_TRUE(file_check(testing::lower_and_print(kTrainingFlag, eval), R"(
    # CHECK: bool = prim::Constant[value=False]()
    # CHECK: aten::dropout(
    # CHECK: aten::zeros(
    # CHECK: return (%out,
    # CHECK-NOT: prim::If
  )"));
}

TEST(LowerGolden, ModuleWithLinearAndHelper) {
  // h starts as x ([x_0, x_1]) and becomes [x_0, 4]: the loop joins them.
  LowerOptions o;
  o.input_shapes = {{"x", {2, 4}}};
  EXPECT_TRUE(file_check(testing::lower_and_print(kModuleHelper, o), R"(
    # CHECK: graph(%x : Tensor[x_0, x_1],
    # CHECK-NEXT: %scale : Tensor[4],
    # CHECK-NEXT: %proj.weight : Tensor[4, 4],
    # CHECK-NEXT: %proj.bias : Tensor[4]):
    # CHECK: int = prim::Constant[value=3]()  # model.py:21:24
    # CHECK: %h : Tensor[x_0, *] = prim::Loop(
    # CHECK: Tensor[x_0, 4] = aten::linear(%h.1, %proj.weight, %proj.bias)  # model.py:17:27
    # CHECK: aten::tanh(
    # CHECK: aten::mul(
    # CHECK: aten::add(
    # CHECK: return (%h)
  )"));
}

TEST(LowerGolden, ViewKeepsTheBatchSymbol) {
  LowerOptions o;
  o.input_shapes = {{"x", {2, 3, 2}}, {"w", {6, 4}}, {"b", {4}}};
  EXPECT_TRUE(file_check(testing::lower_and_print(kViewBatch, o), R"(
    # CHECK: int = aten::size(%x,
    # CHECK: %h : Tensor[x_0, *] = aten::view(%x,
    # CHECK: Tensor[x_0, w_1] = aten::matmul(%h, %w)
    # CHECK: Long[x_0] = aten::argmax(
  )"));
}

TEST(LowerGolden, AssertAndPrint) {
  EXPECT_TRUE(file_check(testing::lower_and_print(kShapeLoop), R"(
    # CHECK: int = aten::dim(%x)
    # CHECK: bool = aten::eq(
    # CHECK: prim::If(
    # CHECK: block1():
    # CHECK: str = prim::Constant[value="expected a matrix"]()
    # CHECK: prim::RaiseException[kind="AssertionError"](
    # CHECK: prim::Loop(
  )"));
  EXPECT_TRUE(file_check(testing::lower_and_print(kPrintBranch), R"(
    # CHECK: prim::If(
    # CHECK: str = prim::Constant[value="normalising {} values"]()
    # CHECK: str = aten::format(
    # CHECK: = prim::Print(
    # CHECK: block1():
    # CHECK: = prim::Print(
  )"));
}

}  // namespace
}  // namespace d2s::convert
