// Python semantics of the subset, checked against CPython 3.11's output for the same
// lines (each expectation below is what `python3` prints).
#include "trace/tests/test_util.h"

namespace d2s::testing {
namespace {

TEST(PythonSemantics, IntAndFloatArithmetic) {
  EXPECT_EQ(
      run_print(
          "print(7 / 2, 6 / 3, 7 // 2, -7 // 2, 7 // -2, -7 % 3, 7 % -3, 7.5 // 2, -7.5 % 2)"),
      "3.5 2.0 3 -4 -4 2 -2 3.0 0.5\n");
  EXPECT_EQ(run_print("print(2 ** 10, 2 ** -1, 2.0 ** 3, (-2) ** 3, 10 - 3 * 2, (1 + 2) * 3)"),
            "1024 0.5 8.0 -8 4 9\n");
  EXPECT_EQ(run_print("print(1 + 2.5, 3 * 1.5, 1e20, 1e-5, 0.1 + 0.2, 1 / 3, 10 / 4, float(3), "
                      "int(-3.7), int('42'))"),
            "3.5 4.5 1e+20 1e-05 0.30000000000000004 0.3333333333333333 2.5 3.0 -3 42\n");
  EXPECT_EQ(run_print("print(1.0, -0.0, 1e16, 1.5e16, 123456789.0, 2.0**60, 1/0.0001)"),
            "1.0 -0.0 1e+16 1.5e+16 123456789.0 1.152921504606847e+18 10000.0\n");
  EXPECT_EQ(run_print("print(int(True), float(True), int(3.99), int(-0.5), str(12), str(1.5))"),
            "1 1.0 3 0 12 1.5\n");
}

TEST(PythonSemantics, BoolIsAnIntAndBitwiseOps) {
  EXPECT_EQ(
      run_print("print(True + True, True * 3, -True, ~5, 5 & 3, 5 | 3, 5 ^ 3, 1 << 4, 256 >> 2, "
                "True & False)"),
      "2 3 -1 -6 1 7 6 16 64 False\n");
}

TEST(PythonSemantics, AugmentedAssignment) {
  EXPECT_EQ(
      run_print("n = 10\nn //= 3\nn **= 2\nn %= 5\nn -= 1\nprint(n)\nm = 1\nm /= 4\nprint(m)"),
      "3\n0.25\n");
}

TEST(PythonSemantics, ShortCircuitReturnsTheOperand) {
  // `0 and 1/0` must not evaluate the division.
  EXPECT_EQ(run_print("print(0 or 5, 3 and 4, None or 'x', 0 and 1/0, [] or [1], '' or 'empty')"),
            "5 4 x 0 [1] empty\n");
}

TEST(PythonSemantics, Truthiness) {
  EXPECT_EQ(
      run_print("print(bool(0), bool(0.0), bool(''), bool('a'), bool([]), bool([0]), bool(()), "
                "bool(None), bool(2))"),
      "False False False True False True False False True\n");
  EXPECT_EQ(run_print("import torch\nprint(bool(torch.tensor([0.0])), bool(torch.ones(1, 1)), "
                      "not torch.zeros(1))"),
            "False True True\n");
}

TEST(PythonSemantics, ComparisonsAndChains) {
  EXPECT_EQ(
      run_print("print(1 < 2 < 3, 1 < 3 < 2, 3 > 2 == 2, 1 == 1.0, 'a' < 'b', (1, 2) < (1, 3), "
                "[1, 2] == [1, 2], (1, 2) == [1, 2])"),
      "True False True True True True True False\n");
  EXPECT_EQ(run_print("print(1 if True else 2, 'a' if 0 else 'b', None is None, 3 in [1, 2, 3], "
                      "4 not in (1, 2), 'bc' in 'abcd')"),
            "1 b True True True True\n");
}

TEST(PythonSemantics, Builtins) {
  EXPECT_EQ(
      run_print("print(abs(-3), abs(-2.5), min(3, 1, 2), max([4, 9, 2]), min(2.5, 1), max(1, 2.0), "
                "round(2.5), round(3.5), round(2.675, 2), sum([1, 2, 3]))"),
      "3 2.5 1 9 1 2.0 2 4 2.67 6\n");
  EXPECT_EQ(run_print("print(len([1, 2]), len((1,)), len('h\xc3\xa9llo'), len(range(0, 10, 3)), "
                      "list(range(5, 0, -2)), tuple(range(3)))"),
            "2 1 5 4 [5, 3, 1] (0, 1, 2)\n");
  EXPECT_EQ(run_print("print(list(enumerate(['a', 'b'], 1)), list(zip([1, 2, 3], 'xy')), "
                      "isinstance(3, int), isinstance(True, int), isinstance(3.0, (int, str)))"),
            "[(1, 'a'), (2, 'b')] [(1, 'x'), (2, 'y')] True True False\n");
}

TEST(PythonSemantics, TupleUnpacking) {
  EXPECT_EQ(run_print("a, b = 1, 2\na, b = b, a\n(c, d), e = (3, 4), 5\n[f, g] = 'xy'\n"
                      "print(a, b, c, d, e, f, g)"),
            "2 1 3 4 5 x y\n");
}

TEST(PythonSemantics, ListsTuplesStrings) {
  EXPECT_EQ(run_print("x = [1, 2, 3]\ny = x\ny += [4]\nprint(x, x[-1], x[1:3], x[::-1], x[:-1], "
                      "(1, 2, 3)[1:], 'hello'[1:4], [0] * 3, (1,) * 2, 'ab' * 2)"),
            "[1, 2, 3, 4] 4 [2, 3] [4, 3, 2, 1] [1, 2, 3] (2, 3) ell [0, 0, 0] (1, 1) abab\n");
  EXPECT_EQ(run_print("print([1, 2] + [3], (1,) + (2, 3), 'a' + 'b')"), "[1, 2, 3] (1, 2, 3) ab\n");
  EXPECT_EQ(run_print("x = []\nx.append(1)\nx.extend([2, 3])\nx.insert(0, 0)\nv = x.pop()\n"
                      "x[0] = 9\nprint(x, v, x.index(2), ','.join(['a', 'b']), 'a{}c'.format(1))"),
            "[9, 1, 2] 3 2 a,b a1c\n");
}

TEST(PythonSemantics, FStringsAndPrint) {
  EXPECT_EQ(
      run_print("print(f\"{1/3:.3f} {42:5d} {'s':>3}|{3.14159:8.2f}|{1234567:,}|{0.5:%}|{7:03d}|"
                "{2.5:e}|{1e-7}|{12.0:.3}\")"),
      "0.333    42   s|    3.14|1,234,567|50.000000%|007|2.500000e+00|1e-07|12.0\n");
  EXPECT_EQ(run_print("print(f\"{[1, 'a']} {(1,)} {None} {True} {'q'!r}\")"),
            "[1, 'a'] (1,) None True 'q'\n");
  EXPECT_EQ(run_print("print('a', 'b', sep='-', end='!\\n')\nprint()"), "a-b!\n\n");
}

TEST(PythonSemantics, TensorPrintingAndShapes) {
  const char* src =
      "import torch\n"
      "x = torch.zeros(1, 10)\n"
      "print(f'Input shape: {x.shape}')\n"
      "print(x.shape[0], x.size(1), x.size(), len(x), x.dim(), x.numel(), x.dtype)\n"
      "print(torch.tensor([[1.0, 2.0]]), torch.tensor(3).item(), x.shape == (1, 10))\n"
      "print(f'{torch.tensor(2.5):.2f}', torch.float32, torch.long)\n";
  EXPECT_EQ(run_print(src),
            "Input shape: torch.Size([1, 10])\n"
            "1 10 torch.Size([1, 10]) 1 2 10 torch.float32\n"
            "tensor([[1., 2.]]) 3 True\n"
            "2.50 torch.float32 torch.int64\n");
}

TEST(PythonSemantics, TensorArithmeticAndReflectedOperators) {
  const char* src =
      "import torch\n"
      "x = torch.tensor([1.0, 2.0, 4.0])\n"
      "print(2 - x, x - 2, 1 + x, 2 * x, 8 / x, x ** 2, -x, x @ x, 0 < x)\n";
  EXPECT_EQ(run_print(src),
            "tensor([ 1.,  0., -2.]) tensor([-1.,  0.,  2.]) tensor([2., 3., 5.]) "
            "tensor([2., 4., 8.]) tensor([8., 4., 2.]) tensor([ 1.,  4., 16.]) "
            "tensor([-1., -2., -4.]) tensor(21.) tensor([True, True, True])\n");
}

TEST(PythonSemantics, TensorIndexing) {
  const char* src =
      "import torch\n"
      "x = torch.arange(12).reshape(3, 4)\n"
      "print(x[0], x[-1, 1], x[:, 1:3], x[1:, ::2].shape, x[None].shape, x[:, None, 0].shape)\n";
  EXPECT_EQ(
      run_print(src),
      "tensor([0, 1, 2, 3]) tensor(9) tensor([[ 1,  2],\n        [ 5,  6],\n        [ 9, 10]]) "
      "torch.Size([2, 2]) torch.Size([1, 3, 4]) torch.Size([3, 1])\n");
}

TEST(PythonSemantics, InPlaceAugmentedAssignmentOnTensorsAliases) {
  // Tensor.__iadd__ is in place: the alias sees it, as in PyTorch.
  EXPECT_EQ(
      run_print("import torch\nx = torch.zeros(2)\ny = x\ny += 1\nz = x\nz = z + 1\nprint(x, z)"),
      "tensor([1., 1.]) tensor([2., 2.])\n");
}

}  // namespace
}  // namespace d2s::testing

namespace d2s::testing {
namespace {

TEST(PythonSemantics, SelfContainingListsPrintAndCompare) {
  // The cycle is broken at the end: d2s's values are reference-counted, not collected.
  EXPECT_EQ(run_print("a = [1]\na.append(a)\nprint(a, a == a, len(a))\na.pop()"),
            "[1, [...]] True 2\n");
}

TEST(PythonSemantics, ModulesNamespacesAndConstants) {
  const char* src =
      "import math\nimport torch\nfrom torch import nn\nimport torch.nn.functional as F\n"
      "from torch.nn import functional as G\n"
      "print(math.pi, math.floor(2.5), math.sqrt(4.0), F.relu(torch.tensor([-1.0, 2.0])), G.relu "
      "is not None)\n"
      "print(torch.zeros(2, dtype=torch.long), torch.ones(1).dtype == torch.float32, nn.Linear)\n"
      "x = torch.tensor([[1.0, 2.0]])\n"
      "print(x.T.shape, x.t().shape, isinstance(x, torch.Tensor))\n";
  EXPECT_EQ(run_print(src),
            "3.141592653589793 2 2.0 tensor([0., 2.]) True\n"
            "tensor([0, 0]) True <class 'torch.nn.Linear'>\n"
            "torch.Size([2, 1]) torch.Size([2, 1]) True\n");
}

}  // namespace
}  // namespace d2s::testing

namespace d2s::testing {
namespace {

TEST(PythonSemantics, TensorItemAssignmentWritesInPlace) {
  const char* src =
      "import torch\n"
      "x = torch.zeros(2, 3)\n"
      "y = x\n"
      "x[0] = 1\n"
      "x[1, 1:] = torch.tensor([5.0, 6.0])\n"
      "x[:, 0] += 2\n"
      "print(y)\n";
  EXPECT_EQ(run_print(src), "tensor([[3., 1., 1.],\n        [2., 5., 6.]])\n");
}

}  // namespace
}  // namespace d2s::testing
