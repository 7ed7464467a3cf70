// The parser: every construct of the model language, checked through the
// s-expression dump, plus source ranges and size limits.
#include <gtest/gtest.h>

#include "parse/tests/parse_test_util.h"

namespace d2s {
namespace {

using testing::dump;
using testing::error_of;
using testing::parse;

// The dump of a one-statement program's statement, without the final newline.
std::string one(const std::string& text) {
  std::string out = dump(text);
  if (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}
// The dump of the expression in `x = <expr>`.
std::string expr(const std::string& text) {
  ast::Module m = parse("x = " + text + "\n");
  return dump_expr(*m.body.at(0)->as<ast::Assign>().value);
}

TEST(Parser, EmptyPrograms) {
  EXPECT_EQ(dump(""), "");
  EXPECT_EQ(dump("\n\n# nothing\n"), "");
}

TEST(Parser, Imports) {
  EXPECT_EQ(dump("import torch\n"
                 "import torch.nn as nn, math\n"
                 "import torch.nn.functional as F\n"
                 "from torch import Tensor\n"
                 "from torch import (Tensor as T,\n    nn,)\n"),
            "(import torch)\n"
            "(import (torch.nn as nn) math)\n"
            "(import (torch.nn.functional as F))\n"
            "(from torch import Tensor)\n"
            "(from torch import (Tensor as T) nn)\n");
}

TEST(Parser, FunctionWithAnnotationsDefaultsAndDecorators) {
  EXPECT_EQ(one("@torch.jit.script\n"
                "@torch.no_grad()\n"
                "def f(x: Tensor, n: int = 3, eps=1e-5, flag: bool = True) -> Tensor:\n"
                "    return x\n"),
            "(def f ((x : Tensor) (n : int = 3) (eps = 1e-05) (flag : bool = True)) -> Tensor\n"
            "  (decorator (. (. torch jit) script))\n"
            "  (decorator (call (. torch no_grad)))\n"
            "  (return x))");
  EXPECT_EQ(one("def g(): pass\n"), "(def g ()\n  (pass))");
  EXPECT_EQ(one("def g(a, b,): return a, b\n"), "(def g (a b)\n  (return (tuple a b)))");
}

TEST(Parser, ClassWithBasesAndMethods) {
  EXPECT_EQ(one("class M(nn.Module):\n"
                "    \"\"\"A model.\"\"\"\n"
                "    def __init__(self):\n"
                "        super().__init__()\n"
                "        self.linear1 = nn.Linear(10, 20, bias=False)\n"
                "        self.n = 3\n"
                "\n"
                "    def forward(self, x):\n"
                "        return self.helper(x)\n"),
            "(class M ((. nn Module))\n"
            "  (expr \"A model.\")\n"
            "  (def __init__ (self)\n"
            "    (expr (call (. (call super) __init__)))\n"
            "    (= (. self linear1) (call (. nn Linear) 10 20 (= bias False)))\n"
            "    (= (. self n) 3))\n"
            "  (def forward (self x)\n"
            "    (return (call (. self helper) x))))");
  EXPECT_EQ(one("class A:\n  x = 1\n"), "(class A ()\n  (= x 1))");
}

TEST(Parser, Assignments) {
  EXPECT_EQ(one("a, b = b, a\n"), "(= (tuple a b) (tuple b a))");
  EXPECT_EQ(one("(a, b), [c, d] = x\n"), "(= (tuple (tuple a b) (list c d)) x)");
  EXPECT_EQ(one("x = y = z[0] = 1\n"), "(= x y (sub z 0) 1)");
  EXPECT_EQ(one("self.w.data = t\n"), "(= (. (. self w) data) t)");
  EXPECT_EQ(one("t = 1,\n"), "(= t (tuple 1))");
  EXPECT_EQ(dump("x += 1\nx -= 1\nx *= 2\nx /= 2\nx @= w\nx //= 2\nx %= 2\nx **= 2\n"),
            "(+= x 1)\n(-= x 1)\n(*= x 2)\n(/= x 2)\n(@= x w)\n(//= x 2)\n(%= x 2)\n(**= x 2)\n");
  EXPECT_EQ(one("self.count += 1\n"), "(+= (. self count) 1)");
  EXPECT_EQ(one("n: int = 3\n"), "(ann n int 3)");
  EXPECT_EQ(one("h: Tensor\n"), "(ann h Tensor)");
}

TEST(Parser, IfElifElse) {
  EXPECT_EQ(one("if x > 0:\n"
                "    y = 1\n"
                "elif x < -1:\n"
                "    y = 2\n"
                "elif x == 0: y = 3\n"
                "else:\n"
                "    y = 4\n"),
            "(if (cmp x > 0)\n"
            "  (= y 1)\n"
            "  (else\n"
            "    (elif (cmp x < (- 1))\n"
            "      (= y 2)\n"
            "      (else\n"
            "        (elif (cmp x == 0)\n"
            "          (= y 3)\n"
            "          (else\n"
            "            (= y 4)))))))");
}

TEST(Parser, ElifIsNestedIfWithItsOwnRange) {
  ast::Module m = parse("if a:\n  pass\nelif b:\n  pass\n");
  const auto& top = m.body.at(0)->as<ast::If>();
  EXPECT_FALSE(top.is_elif);
  ASSERT_EQ(top.orelse.size(), 1u);
  const auto& elif = top.orelse[0]->as<ast::If>();
  EXPECT_TRUE(elif.is_elif);
  EXPECT_EQ(elif.range.line, 3);
  EXPECT_EQ(elif.range.col, 1);
  EXPECT_EQ(elif.range.len, 4);
  EXPECT_TRUE(elif.orelse.empty());
}

TEST(Parser, Loops) {
  EXPECT_EQ(one("for i in range(10):\n"
                "    if i % 2: continue\n"
                "    while i > 0:\n"
                "        i -= 1\n"
                "        if i == 3:\n"
                "            break\n"),
            "(for i (call range 10)\n"
            "  (if (% i 2)\n"
            "    (continue))\n"
            "  (while (cmp i > 0)\n"
            "    (-= i 1)\n"
            "    (if (cmp i == 3)\n"
            "      (break))))");
  EXPECT_EQ(one("for i, (a, b) in enumerate(pairs): pass\n"),
            "(for (tuple i (tuple a b)) (call enumerate pairs)\n  (pass))");
  EXPECT_EQ(one("for row in x, y: pass\n"), "(for row (tuple x y)\n  (pass))");
}

TEST(Parser, With) {
  EXPECT_EQ(one("with torch.no_grad():\n"
                "    y = x * 2\n"
                "    with enable_grad() as g, torch.no_grad(): print(y)\n"),
            "(with (call (. torch no_grad))\n"
            "  (= y (* x 2))\n"
            "  (with ((call enable_grad) as g) (call (. torch no_grad))\n"
            "    (expr (call print y))))");
  // Any context expression parses; the routes reject what is not a grad mode.
  EXPECT_EQ(one("with open(p) as f: pass\n"), "(with ((call open p) as f)\n  (pass))");
  ast::Module m = parse("def f(x):\n    with torch.no_grad() as g:\n        return x\n");
  const auto& w = m.body.at(0)->as<ast::FunctionDef>().body.at(0)->as<ast::With>();
  EXPECT_EQ(w.kind, ast::StmtKind::With);
  EXPECT_EQ(w.range.line, 2);
  EXPECT_EQ(w.range.col, 5);
  EXPECT_EQ(w.range.len, 4);
  EXPECT_EQ(w.items.at(0).target->range.col, 29);
  EXPECT_EQ(w.body.at(0)->range.line, 3);
  EXPECT_EQ(ast::grad_context(*w.items.at(0).context), ast::GradContext::NoGrad);
}

TEST(Parser, GradContexts) {
  auto kind = [](const std::string& e) {
    ast::Module m = parse("x = " + e + "\n");
    return ast::grad_context(*m.body.at(0)->as<ast::Assign>().value);
  };
  EXPECT_EQ(kind("torch.no_grad()"), ast::GradContext::NoGrad);
  EXPECT_EQ(kind("no_grad()"), ast::GradContext::NoGrad);
  EXPECT_EQ(kind("torch.enable_grad()"), ast::GradContext::EnableGrad);
  EXPECT_EQ(kind("enable_grad()"), ast::GradContext::EnableGrad);
  EXPECT_EQ(kind("torch.no_grad"), ast::GradContext::Other);
  EXPECT_EQ(kind("torch.no_grad(1)"), ast::GradContext::Other);
  EXPECT_EQ(kind("np.no_grad()"), ast::GradContext::Other);
  EXPECT_EQ(kind("open(p)"), ast::GradContext::Other);
}

TEST(Parser, SimpleStatements) {
  EXPECT_EQ(dump("def f(x):\n"
                 "    pass\n"
                 "    assert x > 0, \"x must be positive\"\n"
                 "    assert x\n"
                 "    print(x); loss.backward()\n"
                 "    return\n"),
            "(def f (x)\n"
            "  (pass)\n"
            "  (assert (cmp x > 0) \"x must be positive\")\n"
            "  (assert x)\n"
            "  (expr (call print x))\n"
            "  (expr (call (. loss backward)))\n"
            "  (return))\n");
  EXPECT_EQ(dump("x = 1;\n"), "(= x 1)\n");
}

TEST(Parser, OperatorPrecedence) {
  EXPECT_EQ(expr("a + b * c"), "(+ a (* b c))");
  EXPECT_EQ(expr("a - b - c"), "(- (- a b) c)");
  EXPECT_EQ(expr("a ** b ** c"), "(** a (** b c))");
  EXPECT_EQ(expr("-x ** 2"), "(- (** x 2))");
  EXPECT_EQ(expr("2 ** -1"), "(** 2 (- 1))");
  EXPECT_EQ(expr("a @ b + c"), "(+ (@ a b) c)");
  EXPECT_EQ(expr("a // b % c / d"), "(/ (% (// a b) c) d)");
  EXPECT_EQ(expr("a | b ^ c & d << e"), "(| a (^ b (& c (<< d e))))");
  EXPECT_EQ(expr("~a >> +b"), "(>> (~ a) (+ b))");
  EXPECT_EQ(expr("(a + b) * c"), "(* (+ a b) c)");
  EXPECT_EQ(expr("not a == b"), "(not (cmp a == b))");
  EXPECT_EQ(expr("a and b or c and d or e"), "(or (and a b) (and c d) e)");
  EXPECT_EQ(expr("not a and not b"), "(and (not a) (not b))");
  EXPECT_EQ(expr("a + b < c * d"), "(cmp (+ a b) < (* c d))");
}

TEST(Parser, Comparisons) {
  EXPECT_EQ(expr("a < b <= c"), "(cmp a < b <= c)");
  EXPECT_EQ(expr("a is not None"), "(cmp a is not None)");
  EXPECT_EQ(expr("a is None"), "(cmp a is None)");
  EXPECT_EQ(expr("a not in b"), "(cmp a not in b)");
  EXPECT_EQ(expr("a in b != c >= d > e"), "(cmp a in b != c >= d > e)");
}

TEST(Parser, ConditionalExpressions) {
  EXPECT_EQ(expr("a if c else b"), "(ifexp c a b)");
  EXPECT_EQ(expr("a if c else b if d else e"), "(ifexp c a (ifexp d b e))");
  EXPECT_EQ(expr("a or b if c and d else e"), "(ifexp (and c d) (or a b) e)");
}

TEST(Parser, CallsAttributesSubscripts) {
  EXPECT_EQ(expr("torch.mm(W_h, prev_h.t())"), "(call (. torch mm) W_h (call (. prev_h t)))");
  EXPECT_EQ(expr("F.softmax(x, dim=-1)"), "(call (. F softmax) x (= dim (- 1)))");
  EXPECT_EQ(expr("f(a, b,)"), "(call f a b)");
  EXPECT_EQ(expr("f()"), "(call f)");
  EXPECT_EQ(expr("f(\n  a,\n  k=1,\n)"), "(call f a (= k 1))");
  EXPECT_EQ(expr("x[0]"), "(sub x 0)");
  EXPECT_EQ(expr("x[-1]"), "(sub x (- 1))");
  EXPECT_EQ(expr("x[:, 1:3]"), "(sub x (slice _ _ _) (slice 1 3 _))");
  EXPECT_EQ(expr("x[::2, a:, :b, 1:2:3]"),
            "(sub x (slice _ _ 2) (slice a _ _) (slice _ b _) (slice 1 2 3))");
  EXPECT_EQ(expr("x[i, j]"), "(sub x i j)");
  EXPECT_EQ(expr("x.shape[0]"), "(sub (. x shape) 0)");
  EXPECT_EQ(expr("f(x)(y)[0].z"), "(. (sub (call (call f x) y) 0) z)");
}

TEST(Parser, Literals) {
  EXPECT_EQ(expr("[1, 2.5, True, False, None, 'a']"), "(list 1 2.5 True False None \"a\")");
  EXPECT_EQ(expr("[]"), "(list)");
  EXPECT_EQ(expr("[1,]"), "(list 1)");
  EXPECT_EQ(expr("()"), "(tuple)");
  EXPECT_EQ(expr("(1,)"), "(tuple 1)");
  EXPECT_EQ(expr("(1)"), "1");
  EXPECT_EQ(expr("'a' \"b\" '''c'''"), "\"abc\"");
  EXPECT_EQ(expr("1e-3"), "0.001");
  EXPECT_EQ(expr("0x10"), "16");
}

TEST(Parser, FStrings) {
  EXPECT_EQ(expr("f'h={h.shape!r:>10} {{lit}} {n + 1}'"),
            "(fstr \"h=\" {(. h shape) !r :>10} \" {lit} \" {(+ n 1)})");
  EXPECT_EQ(expr("f'{x=}'"), "(fstr \"x=\" {x !r})");
  EXPECT_EQ(expr("f'{x = :.2f}'"), "(fstr \"x = \" {x :.2f})");
  EXPECT_EQ(expr("'a' f'{b}' 'c'"), "(fstr \"a\" {b} \"c\")");
  EXPECT_EQ(expr("rf'\\n{x}'"), "(fstr \"\\\\n\" {x})");
  EXPECT_EQ(expr("f'\\t{x[\"k\"]}'"), "(fstr \"\\t\" {(sub x \"k\")})");
  EXPECT_EQ(expr("f'{f\"{x}\"}'"), "(fstr {(fstr {x})})");
  EXPECT_EQ(expr("f'{a, b}'"), "(fstr {(tuple a b)})");
  EXPECT_EQ(expr("f'{a != b}'"), "(fstr {(cmp a != b)})");
  EXPECT_EQ(expr("f'{x[1:2]}'"), "(fstr {(sub x (slice 1 2 _))})");
}

TEST(Parser, FStringFieldsHaveTrueSourceColumns) {
  ast::Module m = parse("print(f\"loss={loss.item():.3f} step {step}\")\n");
  const auto& call = m.body[0]->as<ast::ExprStmt>().value->as<ast::Call>();
  const auto& fs = call.args.at(0)->as<ast::FString>();
  ASSERT_EQ(fs.parts.size(), 4u);
  const ast::Expr& item = *fs.parts[1].expr;  // loss.item()
  EXPECT_EQ(item.range.line, 1);
  EXPECT_EQ(item.range.col, 15);
  EXPECT_EQ(item.range.len, 11);
  const ast::Expr& step = *fs.parts[3].expr;
  EXPECT_EQ(step.range.col, 38);
  EXPECT_EQ(step.range.len, 4);
  EXPECT_EQ(fs.range.col, 7);  // the f-string covers f"..." whole
  EXPECT_EQ(fs.range.len, 37);

  ast::Module multi = parse("s = f'''a\n  {x +\n y}'''\n");
  const auto& mf = multi.body[0]->as<ast::Assign>().value->as<ast::FString>();
  const auto& bin = mf.parts.at(1).expr->as<ast::BinOp>();
  EXPECT_EQ(bin.lhs->range.line, 2);
  EXPECT_EQ(bin.lhs->range.col, 4);
  EXPECT_EQ(bin.rhs->range.line, 3);
  EXPECT_EQ(bin.rhs->range.col, 2);
}

TEST(Parser, ExpressionRanges) {
  ast::Module m = parse("def f(W_h, prev_h):\n    h2h = torch.mm(W_h, prev_h.t()) + 1\n");
  const auto& def = m.body[0]->as<ast::FunctionDef>();
  EXPECT_EQ(def.range.col, 1);
  EXPECT_EQ(def.range.len, 3);  // `def`
  EXPECT_EQ(def.name_range.col, 5);
  const auto& assign = def.body[0]->as<ast::Assign>();
  EXPECT_EQ(assign.range.line, 2);
  EXPECT_EQ(assign.range.col, 5);  // the first expression: `h2h`
  EXPECT_EQ(assign.range.len, 3);
  const auto& add = assign.value->as<ast::BinOp>();
  EXPECT_EQ(add.range.col, 11);
  EXPECT_EQ(add.range.len, 29);  // torch.mm(...) + 1
  EXPECT_EQ(add.op_range.col, 37);
  const auto& call = add.lhs->as<ast::Call>();
  EXPECT_EQ(call.range.col, 11);
  EXPECT_EQ(call.range.len, 25);  // torch.mm(W_h, prev_h.t())
  const auto& w = call.args[0]->as<ast::Name>();
  EXPECT_EQ(w.id, "W_h");
  EXPECT_EQ(w.range.col, 20);
  EXPECT_EQ(w.range.len, 3);
  EXPECT_EQ(call.func->range.len, 8);  // torch.mm
  const auto& t = call.args[1]->as<ast::Call>();
  EXPECT_EQ(t.range.col, 25);
  EXPECT_EQ(t.range.len, 10);  // prev_h.t()
}

TEST(Parser, StatementRangesAreTheirKeyword) {
  ast::Module m = parse(
      "for i in x:\n"
      "    while i:\n"
      "        break\n"
      "import torch\n"
      "if a: pass\n");
  const auto& loop = m.body[0]->as<ast::For>();
  EXPECT_EQ(loop.range.col, 1);
  EXPECT_EQ(loop.range.len, 3);
  const auto& w = loop.body[0]->as<ast::While>();
  EXPECT_EQ(w.range.line, 2);
  EXPECT_EQ(w.range.col, 5);
  EXPECT_EQ(w.range.len, 5);
  EXPECT_EQ(w.body[0]->range.col, 9);
  EXPECT_EQ(m.body[1]->range.len, 6);  // import
  EXPECT_EQ(m.body[2]->range.line, 5);
  EXPECT_EQ(m.body[2]->range.len, 2);  // if
}

TEST(Parser, MultiLineExpressionRangeFallsBackToItsStart) {
  ast::Module m = parse("y = f(a,\n      b)\n");
  const auto& call = m.body[0]->as<ast::Assign>().value->as<ast::Call>();
  EXPECT_EQ(call.range.line, 1);
  EXPECT_EQ(call.range.col, 5);
  EXPECT_EQ(call.args[1]->range.line, 2);
  EXPECT_EQ(call.args[1]->range.col, 7);
}

TEST(Parser, TopLevelScriptLikeTheSeedRnn) {
  EXPECT_EQ(dump("import torch\n"
                 "W_h = torch.randn(20, 20)\n"
                 "for t in range(3):\n"
                 "    h = torch.tanh(torch.mm(W_h, h.t()) + x)\n"
                 "print(h)\n"),
            "(import torch)\n"
            "(= W_h (call (. torch randn) 20 20))\n"
            "(for t (call range 3)\n"
            "  (= h (call (. torch tanh) (+ (call (. torch mm) W_h (call (. h t))) x))))\n"
            "(expr (call print h))\n");
}

TEST(Parser, OperatorSymbols) {
  EXPECT_STREQ(ast::binop_symbol(ast::BinOpKind::FloorDiv), "//");
  EXPECT_STREQ(ast::binop_symbol(ast::BinOpKind::MatMul), "@");
  EXPECT_STREQ(ast::binop_symbol(ast::BinOpKind::Pow), "**");
  EXPECT_STREQ(ast::unaryop_symbol(ast::UnaryOpKind::Not), "not");
  EXPECT_STREQ(ast::unaryop_symbol(ast::UnaryOpKind::Invert), "~");
  EXPECT_STREQ(ast::cmpop_symbol(ast::CmpOpKind::IsNot), "is not");
  EXPECT_STREQ(ast::cmpop_symbol(ast::CmpOpKind::NotIn), "not in");
}

TEST(Parser, DumpStatementAlone) {
  ast::Module m = parse("while x:\n  x -= 1\n");
  EXPECT_EQ(dump_stmt(*m.body[0]), "(while x\n  (-= x 1))");
}

TEST(Parser, ModuleKeepsTheFile) {
  ast::Module m = parse("x = 1\n");
  ASSERT_TRUE(m.file);
  EXPECT_EQ(m.file->path(), "m.py");
}

TEST(Parser, TwentyThousandStatements) {
  std::string text = "def f(x):\n";
  for (int i = 0; i < 20000; ++i) text += "    x = torch.mm(x, w) + " + std::to_string(i) + "\n";
  text += "    return x\n";
  for (int i = 0; i < 20000; ++i)
    text += "y" + std::to_string(i) + " = " + std::to_string(i) + "\n";
  ast::Module m = parse(text);
  ASSERT_EQ(m.body.size(), 20001u);
  EXPECT_EQ(m.body[0]->as<ast::FunctionDef>().body.size(), 20001u);
  EXPECT_EQ(m.body.back()->range.line, 40002);
}

TEST(Parser, NestingWithinTheLimitParses) {
  std::string parens = "x = " + std::string(150, '(') + "1" + std::string(150, ')') + "\n";
  EXPECT_EQ(dump(parens), "(= x 1)\n");
  std::string chain = "x = a";
  for (int i = 0; i < 150; ++i) chain += " + a";
  EXPECT_EQ(error_of(chain + "\n"), "no error");
  std::string blocks;
  for (int i = 0; i < 100; ++i) blocks += std::string(static_cast<size_t>(i), ' ') + "if x:\n";
  blocks += std::string(100, ' ') + "pass\n";
  EXPECT_EQ(error_of(blocks), "no error");
}

TEST(Parser, ChainedComparisonsAndBoolOpsStayFlat) {
  std::string text = "x = a";
  for (int i = 0; i < 5000; ++i) text += " and a";
  ast::Module m = parse(text + "\n");
  EXPECT_EQ(m.body[0]->as<ast::Assign>().value->as<ast::BoolOp>().values.size(), 5001u);
}

}  // namespace
}  // namespace d2s
