// The parser's forms for lambdas, comprehensions, dict and set displays, `*args` /
// `**kwargs` / keyword-only parameters, `**` in calls, `...`, and try / raise / del /
// global (issue 16 (c), (e)), checked through the s-expression dump, plus their errors.
#include <gtest/gtest.h>

#include "parse/tests/parse_test_util.h"

namespace d2s {
namespace {

using testing::dump;
using testing::error_of;
using testing::parse;

std::string expr(const std::string& text) {
  ast::Module m = parse("x = " + text + "\n");
  return dump_expr(*m.body.at(0)->as<ast::Assign>().value);
}

std::string first_line_of_error(const std::string& text) {
  std::string e = error_of(text);
  return e.substr(0, e.find('\n'));
}

TEST(ParseFunctional, LambdasAndComprehensions) {
  EXPECT_EQ(expr("lambda a, b=2: a * b"), "(lambda a b (* a b))");
  EXPECT_EQ(expr("lambda: 0"), "(lambda 0)");
  EXPECT_EQ(expr("[i * 2 for i in y if i]"), "(listcomp (* i 2) (for i y i))");
  EXPECT_EQ(expr("[(i, j) for i in a for j in b]"), "(listcomp (tuple i j) (for i a) (for j b))");
  EXPECT_EQ(expr("{k: v for k, v in d}"), "(dictcomp k v (for (tuple k v) d))");
  EXPECT_EQ(expr("{i for i in y}"), "(setcomp i (for i y))");
  EXPECT_EQ(expr("(i for i in y)"), "(genexp i (for i y))");
  EXPECT_EQ(expr("sum(i for i in y)"), "(call sum (genexp i (for i y)))");
  EXPECT_EQ(expr("{'a': 1, **b}"), "(dict (\"a\" 1) (_ b))");
  EXPECT_EQ(expr("{}"), "(dict)");
  EXPECT_EQ(expr("{1, 2}"), "(set 1 2)");
  EXPECT_EQ(expr("x[..., 0]"), "(sub x ... 0)");
  EXPECT_EQ(expr("f(*a, k=1, **kw)"), "(call f (* a) (= k 1) (=  kw))");
}

TEST(ParseFunctional, Parameters) {
  EXPECT_EQ(dump("def f(a, *args, k, m=1, **kw):\n  pass\n"),
            "(def f (a *args kw:k kw:(m = 1) **kw)\n  (pass))\n");
  EXPECT_EQ(dump("def f(a, *, k):\n  pass\n"), "(def f (a kw:k)\n  (pass))\n");
  EXPECT_EQ(first_line_of_error("def f(**kw, a):\n  pass\n"),
            "m.py:1:13: error: SyntaxError: arguments cannot follow var-keyword argument");
  EXPECT_EQ(first_line_of_error("def f(*, a, *b):\n  pass\n"),
            "m.py:1:13: error: SyntaxError: * argument may appear only once");
}

TEST(ParseFunctional, ExceptionsAndDel) {
  EXPECT_EQ(dump("try:\n  a\nexcept (A, B) as e:\n  b\nelse:\n  c\nfinally:\n  d\n"),
            "(try\n  (expr a)\n  (except (tuple A B) as e\n    (expr b))\n  (else\n    (expr c))\n "
            " (finally\n    "
            "(expr d)))\n");
  EXPECT_EQ(dump("raise E('x') from err\n"), "(raise (call E \"x\") from err)\n");
  EXPECT_EQ(dump("raise\n"), "(raise _)\n");
  EXPECT_EQ(dump("del a, x[0]\n"), "(del a (sub x 0))\n");
  EXPECT_EQ(dump("def f():\n  global n, m\n"), "(def f ()\n  (global n m))\n");
  EXPECT_EQ(first_line_of_error("try:\n  a\n"),
            "m.py:2:4: error: SyntaxError: expected 'except' or 'finally' block");
  EXPECT_EQ(first_line_of_error("try:\n  a\nexcept:\n  b\nexcept E:\n  c\n"),
            "m.py:5:1: error: SyntaxError: default 'except:' must be last");
  EXPECT_EQ(first_line_of_error("del f(x)\n"),
            "m.py:1:5: error: SyntaxError: cannot delete function call");
}

}  // namespace
}  // namespace d2s
