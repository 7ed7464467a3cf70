// The parse route's entry parameters (issue 16 items 1 and 5), the iterators it keeps at
// conversion time (item 3) and Optional refinement through and / or / not (item 4):
// the printed IR against TorchScript's forms, the executed graph against the eager
// interpreter, and the refusals. Live PyTorch checks the same programs in
// tests/parity/parse_entry/.
#include "convert/tests/lower_test_util.h"

namespace d2s::convert {
namespace {

using testing::file_check;
using testing::lower_and_print;
using testing::lower_error;

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(LowerEntryParams, ANoneDefaultMakesTheParameterOptional) {
  const char* src = R"(import torch
def f(x, mask=None, scale: float = None, k: int = 2):
    if mask is not None:
        x = x * mask
    if scale is not None:
        x = x * scale
    return x * k
)";
  // Unannotated with None: Tensor?; annotated with None: float?; a number default: int.
  EXPECT_TRUE(file_check(lower_and_print(src), R"(
    # CHECK: %mask : Tensor?
    # CHECK: %scale : float?
    # CHECK: %k : int
    # CHECK: prim::unchecked_cast(%mask)
  )"));
  testing::Differential d;
  const Tensor x = testing::t({2}, {0.5f, -1.5f});
  EXPECT_TRUE(d.run_source(src, {{"x", x}, {"mask", IValue()}, {"scale", IValue()}, {"k", 3}}));
  EXPECT_TRUE(d.run_source(
      src, {{"x", x}, {"mask", testing::t({2}, {0.0f, 1.0f})}, {"scale", IValue(2.5)}, {"k", 1}}));
}

TEST(LowerEntryParams, ListsAndTuplesAreTypedFromTheirAnnotations) {
  const char* src = R"(import torch
import typing
from typing import List, Optional, Tuple, Union
def f(x: torch.Tensor, scales: List[float], shape: typing.List[int], xs: list[torch.Tensor],
      size: Tuple[int, int], dims: Optional[List[int]] = None, u: Union[None, int] = None):
    for s in scales:
        x = x * s
    h, w = size
    y = x.view(shape) * (h + w)
    if dims is not None:
        y = y.permute(dims)
    return y, torch.stack(xs).sum(0)
)";
  EXPECT_TRUE(file_check(lower_and_print(src), R"(
    # CHECK: %scales : float[]
    # CHECK: %shape : int[]
    # CHECK: %xs : List[Tensor]
    # CHECK: %size : (int, int)
    # CHECK: %dims : int[]?
    # CHECK: %u : int?
    # CHECK: prim::Loop
    # CHECK: prim::TupleUnpack(%size)
  )"));
  testing::Differential d;
  const Tensor x = testing::t({2, 3}, {1, 2, 3, 4, 5, 6});
  const IValue xs =
      IValue::list({IValue(testing::t({2}, {1, 2})), IValue(testing::t({2}, {3, 4}))});
  EXPECT_TRUE(d.run_source(src, {{"x", x},
                                 {"scales", IValue::list({IValue(0.5), IValue(2.0)})},
                                 {"shape", IValue::list({IValue(int64_t{3}), IValue(int64_t{2})})},
                                 {"xs", xs},
                                 {"size", IValue::tuple({IValue(int64_t{1}), IValue(int64_t{2})})},
                                 {"dims", IValue::list({IValue(int64_t{1}), IValue(int64_t{0})})},
                                 {"u", IValue()}}));
}

TEST(LowerEntryParams, OtherAnnotationsAreRefusedSayingWhichAreTaken) {
  for (const char* annotation : {"str", "Tuple[int, ...]", "Dict[str, int]", "Union[int, float]",
                                 "List[int, int]", "Optional[None]"}) {
    const std::string err =
        lower_error(std::string("def f(x: ") + annotation + "):\n    return x\n");
    EXPECT_TRUE(has(err, "of parameter 'x' is not supported by the parse route")) << err;
    EXPECT_TRUE(has(err, "List[T], Tuple[T, ...] (of a fixed length) or Optional[T]")) << err;
  }
}

TEST(LowerEntryParams, RefinementFollowsAndOrAndNot) {
  const char* src = R"(import torch
from typing import Optional
def f(x, y: Optional[torch.Tensor] = None, m: Optional[torch.Tensor] = None):
    if y is not None and m is not None:
        x = x + y * m
    if m is not None and bool(m.any()):
        x = x - m
    if not (y is None or m is None):
        x = x * y
    z = y if y is not None else x
    if y is None or m is None:
        return x + z
    assert y is not None and m is not None
    return x + y + m
)";
  // TorchScript's forms: both names cast at the top of the `and`'s arm; the right
  // operand of `m is not None and ...` reads a cast of m inside the short circuit's If.
  EXPECT_TRUE(file_check(lower_and_print(src), R"(
    # CHECK: Tensor = prim::If(
    # CHECK-NEXT: block0():
    # CHECK-NEXT: Tensor = prim::unchecked_cast(%y)
    # CHECK-NEXT: Tensor = prim::unchecked_cast(%m)
    # CHECK: aten::__isnot__(%m,
    # CHECK-NEXT: bool = prim::If(
    # CHECK-NEXT: block0():
    # CHECK-NEXT: Tensor = prim::unchecked_cast(%m)
    # CHECK-NEXT: aten::any(
  )"));
  testing::Differential d;
  const Tensor x = testing::t({2}, {0.5f, -1.5f});
  const Tensor y = testing::t({2}, {2.0f, 3.0f});
  const Tensor m = testing::t({2}, {0.0f, 1.0f});
  for (const IValue& yv : {IValue(), IValue(y)}) {
    for (const IValue& mv : {IValue(), IValue(m), IValue(testing::t({2}, {0.0f, 0.0f}))}) {
      EXPECT_TRUE(d.run_source(src, {{"x", x}, {"y", yv}, {"m", mv}}));
    }
  }
}

TEST(LowerEntryParams, AnIteratorKeepsItsPositionAtConversionTime) {
  const char* src = R"(import torch
def f(x):
    it = iter((1.0, 2.0, 3.0, 4.0, 5.0))
    a = next(it)
    b = next(it)
    for s in it:
        x = x * s
        c = next(it, 0.5)
    d = next(it, -1.0)
    r = iter(range(3))
    return x + a + b + c + d + next(r) + next(r)
)";
  // Nothing of the iterator is left in the graph: its items are constants.
  const std::string ir = lower_and_print(src);
  EXPECT_FALSE(has(ir, "prim::If")) << ir;
  EXPECT_FALSE(has(ir, "prim::Loop")) << ir;
  testing::Differential d;
  EXPECT_TRUE(d.run_source(src, {{"x", testing::t({2}, {0.5f, -1.5f})}}));
  EXPECT_TRUE(
      has(lower_error("def f(x):\n    it = iter(())\n    return x * next(it)\n"), "StopIteration"));
  EXPECT_TRUE(has(lower_error("def f(x):\n    return x * next([1.0])\n"),
                  "TypeError: 'list' object is not an iterator"));
}

TEST(LowerEntryParams, AnIteratorWhosePositionIsKnownOnlyAtRunTimeIsRefused) {
  // Made outside the if that advances it.
  std::string err = lower_error(
      "def f(x):\n    it = iter((1.0, 2.0))\n    if bool(x.sum() > 0):\n"
      "        x = x * next(it)\n    return x * next(it)\n");
  EXPECT_TRUE(has(err, "next() of an iterator made outside the if or loop it runs in")) << err;
  EXPECT_TRUE(has(err, "--mode eager")) << err;
  // After a loop over it that may break when the graph runs.
  err = lower_error(
      "def f(x):\n    it = iter((1.0, 2.0))\n    for s in it:\n        if bool(x.sum() > s):\n"
      "            break\n    return x * next(it)\n");
  EXPECT_TRUE(has(err,
                  "position is known only when the graph runs (the for loop at line 3 may "
                  "stop early when the graph runs)"))
      << err;
  // After zip took its items.
  err = lower_error(
      "def f(x):\n    it = iter((1.0, 2.0))\n    for a, b in zip(it, (3.0,)):\n"
      "        x = x * a\n    return x * next(it)\n");
  EXPECT_TRUE(has(err, "its items were read at line 3")) << err;
  // Over a list of run-time length.
  err = lower_error(
      "def f(x):\n    rows = [r for r in x]\n    it = iter(rows)\n    return next(it)\n");
  EXPECT_TRUE(has(err,
                  "iter() of a value of type List[Tensor], whose length is known only when the "
                  "graph runs, is not supported by the parse route"))
      << err;
}

}  // namespace
}  // namespace d2s::convert
