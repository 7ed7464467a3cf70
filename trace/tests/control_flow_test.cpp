// Control flow, scoping and functions: loops with break/continue, early return,
// nested loops, Python's local-variable rule, defaults and keywords.
#include "trace/tests/test_util.h"

namespace d2s::testing {
namespace {

TEST(ControlFlow, RangeForms) {
  EXPECT_EQ(run_print("for i in range(3):\n    print(i, end=' ')\nfor i in range(2, 5):\n    "
                      "print(i, end=' ')\n"
                      "for i in range(10, 0, -4):\n    print(i, end=' ')\nfor i in range(0):\n    "
                      "print('never')\n"
                      "print(i)"),
            "0 1 2 2 3 4 10 6 2 2\n");
}

TEST(ControlFlow, BreakContinueAndNestedLoops) {
  const char* src =
      "out = []\n"
      "for i in range(5):\n"
      "    if i == 1:\n"
      "        continue\n"
      "    for j in range(5):\n"
      "        if j > i:\n"
      "            break\n"
      "        out.append((i, j))\n"
      "    if i == 3:\n"
      "        break\n"
      "print(out)\n"
      "n = 0\n"
      "while True:\n"
      "    n += 1\n"
      "    if n % 2 == 0:\n"
      "        continue\n"
      "    if n > 6:\n"
      "        break\n"
      "print(n)\n";
  EXPECT_EQ(run_print(src),
            "[(0, 0), (2, 0), (2, 1), (2, 2), (3, 0), (3, 1), (3, 2), (3, 3)]\n7\n");
}

TEST(ControlFlow, EarlyReturnFromLoopsAndBranches) {
  const char* src =
      "def first_over(xs, limit):\n"
      "    for x in xs:\n"
      "        while x > 0:\n"
      "            if x > limit:\n"
      "                return x\n"
      "            x -= 100\n"
      "    return None\n"
      "def sign(v):\n"
      "    if v > 0:\n"
      "        return 1\n"
      "    elif v < 0:\n"
      "        return -1\n"
      "    return 0\n"
      "print(first_over([1, 5, 9], 4), first_over([1], 4), sign(3), sign(-2), sign(0))\n";
  EXPECT_EQ(run_print(src, {}, with_entry("<module>")), "5 None 1 -1 0\n");
}

TEST(ControlFlow, IteratesTensorsListsTuplesAndUnpacks) {
  const char* src =
      "import torch\n"
      "x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])\n"
      "for row in x:\n"
      "    print(row.sum().item(), end=' ')\n"
      "for a, b in x:\n"
      "    print(a.item() + b.item(), end=' ')\n"
      "for k, v in [('a', 1), ('b', 2)]:\n"
      "    print(k, v, end=' ')\n"
      "for c in 'hi':\n"
      "    print(c, end='')\n"
      "print()\n";
  EXPECT_EQ(run_print(src), "3.0 7.0 3.0 7.0 a 1 b 2 hi\n");
}

TEST(ControlFlow, ListAppendedWhileIteratingIsSeen) {
  EXPECT_EQ(run_print("xs = [1]\nfor x in xs:\n    if x < 4:\n        xs.append(x + 1)\nprint(xs)"),
            "[1, 2, 3, 4]\n");
}

TEST(Scoping, LocalsGlobalsAndUnboundLocal) {
  const char* src =
      "g = 10\n"
      "def reads():\n"
      "    return g + 1\n"
      "def shadows():\n"
      "    g = 5\n"
      "    return g\n"
      "def later():\n"
      "    if False:\n"
      "        g = 1\n"
      "    return g\n"
      "print(reads(), shadows(), g)\n"
      "later()\n";
  Error e = run_error(src, {}, with_entry("<module>"));
  EXPECT_EQ(e.message(),
            "UnboundLocalError: cannot access local variable 'g' where it is not associated with a "
            "value");
  EXPECT_EQ(e.range().line, 10);
  EXPECT_EQ(
      run_print("g = 10\ndef reads():\n    return g + 1\ndef shadows():\n    g = 5\n    return g\n"
                "print(reads(), shadows(), g)\n",
                {}, with_entry("<module>")),
      "11 5 10\n");
}

TEST(Scoping, LoopVariablesAndGlobalsSeenByLaterCalls) {
  const char* src =
      "def f():\n"
      "    return scale * 2\n"
      "scale = 3\n"
      "print(f())\n"
      "scale = 4\n"
      "print(f())\n"
      "def g():\n"
      "    for i in range(3):\n"
      "        pass\n"
      "    return i\n"
      "print(g())\n";
  EXPECT_EQ(run_print(src, {}, with_entry("<module>")), "6\n8\n2\n");
}

TEST(Functions, DefaultsKeywordsAndCallsBetweenFunctions) {
  const char* src =
      "def scale(x, factor=2, offset=0.5):\n"
      "    return x * factor + offset\n"
      "def twice(x):\n"
      "    return scale(scale(x), factor=1)\n"
      "print(scale(1), scale(1, 3), scale(1, offset=0), scale(x=2, factor=0), twice(1))\n";
  EXPECT_EQ(run_print(src, {}, with_entry("<module>")), "2.5 3.5 2 0.5 3.0\n");
}

TEST(Functions, DefaultsAreEvaluatedOnceWhenTheDefRuns) {
  const char* src =
      "k = 1\n"
      "def f(a=k):\n"
      "    return a\n"
      "k = 2\n"
      "print(f())\n";
  EXPECT_EQ(run_print(src, {}, with_entry("<module>")), "1\n");
}

TEST(Functions, RecursionAndDecoratorsIgnored) {
  const char* src =
      "import torch\n"
      "@torch.jit.script\n"
      "def fact(n: int) -> int:\n"
      "    if n <= 1:\n"
      "        return 1\n"
      "    return n * fact(n - 1)\n"
      "print(fact(10))\n";
  EXPECT_EQ(run_print(src, {}, with_entry("<module>")), "3628800\n");
}

TEST(Functions, AssertPassesAndFails) {
  EXPECT_EQ(run_print("assert 1 < 2, 'fine'\nprint('ok')"), "ok\n");
  Error e = run_error("x = 3\nassert x < 2, f'x is {x}'\n");
  EXPECT_EQ(e.message(), "AssertionError: x is 3");
  EXPECT_EQ(e.exit_code(), 1);  // as the executor's, so every route exits alike
  EXPECT_EQ(e.range().line, 2);
  EXPECT_NE(e.hint().find("x < 2"), std::string::npos);
  EXPECT_EQ(run_error("assert []\n").message(), "AssertionError");
}

}  // namespace
}  // namespace d2s::testing
