// Lists that change (convert/lower_list.cpp): the printed IR of list writes and reads
// against TorchScript's forms (`# CHECK:` lines, lower_test_util.h's file_check), the
// executed graph, and the errors for what a graph's list cannot carry.
#include "convert/tests/lower_test_util.h"

namespace d2s::convert {
namespace {

using testing::file_check;
using testing::lower_and_print;
using testing::lower_error;

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The program of torch.jit.script's documentation of lists: one list, filled in a loop
// whose trip count is the input's first dimension.
const char* kAppendLoop = R"(import torch
from torch import Tensor
def f(x: Tensor) -> Tensor:
    outs = []
    for t in range(x.size(0)):
        outs.append(torch.tanh(x[t]))
    return torch.stack(outs)
)";

TEST(LowerList, AppendInALoopWritesTheOneListNotACarriedCopy) {
  // TorchScript's graph: the list is made before the loop, aten::append writes into it
  // inside the body (no loop-carried value), aten::stack reads it after.
  EXPECT_TRUE(file_check(lower_and_print(kAppendLoop), R"(
    # CHECK: %outs : List[Tensor] = prim::ListConstruct()
    # CHECK: %4 : int = aten::size(%x,
    # CHECK: = prim::Loop(%4,
    # CHECK-NEXT: block0(%t : int):
    # CHECK: List[Tensor] = aten::append(%outs,
    # CHECK: Tensor = aten::stack(%outs)
  )"));
}

TEST(LowerList, AppendInALoopRunsForEveryLength) {
  // The graph against the eager interpreter, for lengths the lowering never saw.
  testing::Differential d;
  for (int64_t rows : {1, 2, 5}) {
    std::vector<float> data(static_cast<size_t>(rows * 2));
    for (size_t i = 0; i < data.size(); ++i) data[i] = 0.25f * static_cast<float>(i) - 0.5f;
    EXPECT_TRUE(d.run_source(kAppendLoop, {{"x", testing::t({rows, 2}, data)}})) << rows;
  }
}

TEST(LowerList, ReadsOfAChangingListAreOps) {
  const char* src = R"(import torch
def f(x, n: int):
    xs = [x]
    for i in range(n):
        xs.append(xs[-1] * 2.0)
    k = len(xs)
    ys = list(xs)
    xs += ys[1:]
    total = x * 0.0
    for y in xs:
        total = total + y
    return total + xs.pop(0) + k
)";
  // xs[-1] inside the loop is read when each trip runs (the body writes xs), and every
  // read after the loop too: TorchScript's aten::__getitem__, aten::len, aten::list,
  // aten::slice, aten::add_, and a prim::Loop over aten::len trips.
  EXPECT_TRUE(file_check(lower_and_print(src), R"(
    # CHECK: %xs : List[Tensor] = prim::ListConstruct(%x)
    # CHECK: = prim::Loop(%n,
    # CHECK: Tensor = aten::__getitem__(%xs,
    # CHECK: List[Tensor] = aten::append(%xs,
    # CHECK: %k : int = aten::len(%xs)
    # CHECK: %ys : List[Tensor] = aten::list(%xs)
    # CHECK: List[Tensor] = aten::slice(%ys,
    # CHECK: %xs.1 : List[Tensor] = aten::add_(%xs,
    # CHECK: %19 : int = aten::len(%xs.1)
    # CHECK: prim::Loop(%19,
    # CHECK: aten::__getitem__(%xs.1,
    # CHECK: Tensor = aten::pop(%xs.1,
  )"));
  testing::Differential d;
  for (int64_t n : {0, 2, 4}) {
    EXPECT_TRUE(d.run_source(src, {{"x", testing::t({2}, {1.0f, -1.0f})}, {"n", IValue(n)}})) << n;
  }
}

TEST(LowerList, AListWrittenOutKeepsItsItemsUntilItIsWritten) {
  // Nothing writes into `sizes`: len() folds and the loop over it unrolls, as before.
  const char* src = R"(import torch
def f(x):
    sizes = [1, 2]
    for s in sizes:
        x = x * s
    return x + len(sizes)
)";
  const std::string ir = lower_and_print(src);
  EXPECT_FALSE(has(ir, "prim::Loop")) << ir;
  EXPECT_FALSE(has(ir, "aten::len")) << ir;
}

TEST(LowerList, ALoopThatWritesAListReadsItWhenTheGraphRuns) {
  // The body reads hs[-1] before it appends to hs: marked as changing before the body
  // is lowered, so each trip reads the list as it is then.
  const char* src = R"(import torch
def f(x, n: int):
    hs = [x]
    for i in range(n):
        h = hs[-1] + 1.0
        hs.append(h)
    return hs[-1]
)";
  testing::Differential d;
  for (int64_t n : {0, 3}) {
    EXPECT_TRUE(d.run_source(src, {{"x", testing::t({1}, {0.5f})}, {"n", IValue(n)}})) << n;
  }
}

TEST(LowerList, AWriteAfterAConversionTimeReadInTheSameLoopIsRefused) {
  // `alias` is a second name for `hs`: the body's read of hs[-1] was decided at
  // conversion time, and the write through the alias comes later in the same body.
  const char* src = R"(import torch
def f(x, n: int):
    hs = [x]
    for i in range(n):
        h = hs[-1] + 1.0
        alias = hs
        alias.append(h)
    return hs[-1]
)";
  const std::string e = lower_error(src);
  EXPECT_TRUE(has(e, "writes into a list whose items were read at conversion time at line 5")) << e;
  EXPECT_TRUE(has(e, "eager and trace modes run it")) << e;
}

TEST(LowerList, AListHoldsOneItemType) {
  const std::string e = lower_error(R"(import torch
def f(x, n: int):
    xs = [x]
    xs.append(n)
    return xs[0]
)");
  EXPECT_TRUE(has(e, "a list of Tensor cannot hold a int in the parse route")) << e;
  EXPECT_TRUE(has(e, "model.py:4:5")) << e;
}

TEST(LowerList, AModuleListAttributeIsNotChanged) {
  const std::string e = lower_error(R"(import torch
import torch.nn as nn
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.sizes = [1, 2]
    def forward(self, x):
        s = self.sizes
        s.append(3)
        return x * len(s)
)");
  EXPECT_TRUE(has(e, "a list attribute of the module cannot be changed in the parse route")) << e;
}

TEST(LowerList, UnknownListMethodNamesTheOnesThatWork) {
  const std::string e = lower_error(R"(import torch
def f(x, n: int):
    xs = [x]
    xs.rotate()
    return xs[0]
)");
  EXPECT_TRUE(has(e, "'list' object has no method 'rotate' in the parse route")) << e;
  EXPECT_TRUE(has(e,
                  "append, insert, pop, extend, copy, index, count, remove, reverse, sort and "
                  "clear"))
      << e;
}

TEST(LowerList, AComprehensionOfRunTimeLengthIsALoopThatAppends) {
  // torch.jit.script's form: the list before the loop, one aten::append per trip, and a
  // filter known only at run time as a prim::If around the append.
  const char* src = R"(import torch
def f(x, n: int):
    ys = [x * float(i) for i in range(n) if i % 2 == 0]
    zs = [y + 1.0 for y in (x, x * 2.0)]
    return torch.stack(ys + zs).sum(0)
)";
  EXPECT_TRUE(file_check(lower_and_print(src), R"(
    # CHECK: %ys : List[Tensor] = prim::ListConstruct()
    # CHECK: = prim::Loop(%n,
    # CHECK: = prim::If(
    # CHECK: aten::append(%ys,
    # CHECK-NOT: prim::Loop
    # CHECK: %zs : List[Tensor] = prim::ListConstruct(
  )"));
  testing::Differential d;
  for (int64_t n : {0, 1, 4}) {
    EXPECT_TRUE(d.run_source(src, {{"x", testing::t({2}, {0.5f, -1.0f})}, {"n", IValue(n)}})) << n;
  }
}

TEST(LowerList, ALongLoopMakingAListPerTripKeepsMemoryFlat) {
  // A list made, appended to and stacked in every trip: each trip's list and tensors
  // are freed when the next trip replaces them, so the peak does not grow with trips.
  const char* src = R"(import torch
def f(x, n: int):
    total = x * 0.0
    for i in range(n):
        tmp = [x, total]
        tmp.append(x * 0.001)
        total = torch.stack(tmp).sum(0) - x
    return total
)";
  LoweredGraph lowered =
      lower_program(std::make_shared<const SourceFile>("model.py", src), LowerOptions{});
  auto peak_for = [&](int64_t trips) {
    Executor exec(*lowered.graph);
    Tensor x = Tensor::full({256}, 1.0);
    const size_t before = storage_bytes_live();
    reset_storage_peak();
    ValueList out = exec.run({IValue(x), IValue(trips)});
    EXPECT_EQ(out.at(0).to_tensor().shape(), (Shape{256}));
    out.clear();
    EXPECT_EQ(storage_bytes_live(), before) << trips;
    return storage_bytes_peak() - before;
  };
  const size_t short_run = peak_for(10);
  EXPECT_EQ(peak_for(20000), short_run);
}

}  // namespace
}  // namespace d2s::convert
