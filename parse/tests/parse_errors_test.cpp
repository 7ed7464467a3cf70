// Parse errors: the message, position and hint of each, the nesting limit, and
// robustness on truncated, mutated and random input.
#include <gtest/gtest.h>

#include <random>

#include "parse/tests/parse_test_util.h"

namespace d2s {
namespace {

using testing::error_of;
using testing::parse;

// The first line of the diagnostic (`file:line:col: error: message`).
std::string head(const std::string& text, ParseLimits limits = {}) {
  std::string e = error_of(text, limits);
  return e.substr(0, e.find('\n'));
}
// The hint of the diagnostic, without "hint: ".
std::string hint(const std::string& text) {
  std::string e = error_of(text);
  size_t at = e.find("\nhint: ");
  if (at == std::string::npos) return "(no hint)";
  std::string h = e.substr(at + 7);
  return h.substr(0, h.find('\n'));
}

TEST(ParseErrors, FullDiagnosticOfAnUnexpectedToken) {
  EXPECT_EQ(error_of("def f(x):\n    y = torch.mm(x w)\n"),
            "m.py:2:20: error: SyntaxError: invalid syntax: expected ',' or ')' in the argument "
            "list, found name 'w'\n"
            "        y = torch.mm(x w)\n"
            "                       ^\n"
            "hint: perhaps you forgot a comma?\n");
}

TEST(ParseErrors, ErrorsAreExitCodeTwo) {
  try {
    parse("x = )\n");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), 2);
    EXPECT_EQ(e.range().line, 1);
  }
}

TEST(ParseErrors, UnexpectedTokens) {
  EXPECT_EQ(head("x = a b\n"),
            "m.py:1:7: error: SyntaxError: invalid syntax: expected the end of the line, found "
            "name 'b'");
  EXPECT_EQ(hint("x = a b\n"),
            "perhaps you forgot an operator or a comma, or meant to start a new line?");
  EXPECT_EQ(head("x = 1 +\n"),
            "m.py:1:8: error: SyntaxError: invalid syntax: expected an expression, found newline");
  EXPECT_EQ(hint("x = 1 +\n"),
            "the line ends in the middle of an expression; to continue it on the next line, wrap "
            "it in ( )");
  EXPECT_EQ(head("import\n"),
            "m.py:1:7: error: SyntaxError: invalid syntax: expected a module name, found newline");
  EXPECT_EQ(hint("import\n"), "the line ends too early: complete the statement");
  EXPECT_EQ(head("x = )\n"), "m.py:1:5: error: SyntaxError: unmatched ')'");
  EXPECT_EQ(head("x = [1 2]\n"),
            "m.py:1:8: error: SyntaxError: invalid syntax: expected ',' or ']', found number 2");
  EXPECT_EQ(head("x[]\n"),
            "m.py:1:3: error: SyntaxError: invalid syntax: expected an index, found ']'");
  EXPECT_EQ(head("def (x): pass\n"),
            "m.py:1:5: error: SyntaxError: invalid syntax: expected a function name after 'def', "
            "found '('");
  EXPECT_EQ(head("x.1\n"),
            "m.py:1:2: error: SyntaxError: invalid syntax: expected the end of the line, found "
            "number .1");
  EXPECT_EQ(head("x = a.if\n"),
            "m.py:1:7: error: SyntaxError: invalid syntax: expected an attribute name after '.', "
            "found 'if'");
  EXPECT_EQ(head("x = 1 if y\n"),
            "m.py:1:11: error: SyntaxError: expected 'else' after 'if' expression");
  EXPECT_EQ(head("x = a == not b\n"),
            "m.py:1:10: error: SyntaxError: invalid syntax: 'not' cannot follow this operator");
  EXPECT_EQ(hint("x = a == not b\n"), "wrap the negation in parentheses, e.g. a == (not b)");
  EXPECT_EQ(head("x = 1:\n"), "m.py:1:6: error: SyntaxError: invalid syntax: unexpected ':'");
}

TEST(ParseErrors, MissingColon) {
  EXPECT_EQ(error_of("if x > 0\n    y = 1\n"),
            "m.py:1:9: error: SyntaxError: expected ':'\n"
            "    if x > 0\n"
            "            ^\n"
            "hint: end the 'if' line with ':' (found newline)\n");
  EXPECT_EQ(head("for i in x\n  pass\n"), "m.py:1:11: error: SyntaxError: expected ':'");
  EXPECT_EQ(head("while x\n  pass\n"), "m.py:1:8: error: SyntaxError: expected ':'");
  EXPECT_EQ(head("def f(x)\n  pass\n"), "m.py:1:9: error: SyntaxError: expected ':'");
  EXPECT_EQ(hint("def f(x) -> int\n  pass\n"), "end the 'def' line with ':' (found newline)");
  EXPECT_EQ(head("class A\n  x = 1\n"), "m.py:1:8: error: SyntaxError: expected ':'");
  EXPECT_EQ(head("if x:\n  pass\nelse\n  pass\n"), "m.py:3:5: error: SyntaxError: expected ':'");
  EXPECT_EQ(head("if x = 1:\n  pass\n"),
            "m.py:1:6: error: SyntaxError: invalid syntax: '=' in a condition");
  EXPECT_EQ(hint("if x = 1:\n  pass\n"),
            "use '==' to compare; assign in a separate statement before the 'if'");
}

TEST(ParseErrors, Indentation) {
  EXPECT_EQ(error_of("def f(x):\nreturn x\n"),
            "m.py:2:1: error: IndentationError: expected an indented block after function "
            "definition on line 1\n"
            "    return x\n"
            "    ^~~~~~\n"
            "hint: indent the body (4 spaces is usual), or write 'pass' for an empty body\n");
  EXPECT_EQ(head("for i in x:\n\n# c\ny\n"),
            "m.py:4:1: error: IndentationError: expected an indented block after 'for' "
            "statement on line 1");
  EXPECT_EQ(head("if a:\n  pass\nelif b:\nx\n"),
            "m.py:4:1: error: IndentationError: expected an indented block after 'elif' "
            "statement on line 3");
  EXPECT_EQ(head("class A:\n"),
            "m.py:1:9: error: IndentationError: expected an indented block after class "
            "definition on line 1");
  EXPECT_EQ(error_of("x = 1\n    y = 2\n"),
            "m.py:2:1: error: IndentationError: unexpected indent\n"
            "        y = 2\n"
            "    ^~~~\n"
            "hint: indent only the body of a def, class, if, for or while; line this up with the "
            "statement before it\n");
  EXPECT_EQ(head("if x:\n    a\n  b\n"),
            "m.py:3:3: error: IndentationError: unindent does not match any outer indentation "
            "level");
  EXPECT_EQ(head("if x:\n\tpass\n"), "m.py:2:1: error: TabError: indentation contains a tab");
  EXPECT_EQ(head("else:\n  pass\n"),
            "m.py:1:1: error: SyntaxError: invalid syntax: 'else' without a matching 'if'");
  EXPECT_EQ(head("if x: if y: pass\n"),
            "m.py:1:7: error: SyntaxError: invalid syntax: a compound statement cannot follow ':' "
            "on the same line");
  EXPECT_EQ(head("x = 1; if y: pass\n"),
            "m.py:1:8: error: SyntaxError: invalid syntax: 'if' must start its own line");
}

TEST(ParseErrors, InvalidAssignmentTargets) {
  EXPECT_EQ(
      error_of("f() = 3\n"),
      "m.py:1:1: error: SyntaxError: cannot assign to function call here. Maybe you meant "
      "'==' instead of '='?\n"
      "    f() = 3\n"
      "    ^~~\n"
      "hint: the left side of '=' must be a name, attribute, subscript or a tuple of those\n");
  EXPECT_EQ(head("1 = x\n"),
            "m.py:1:1: error: SyntaxError: cannot assign to literal here. Maybe you meant '==' "
            "instead of '='?");
  EXPECT_EQ(head("x = a + b = c\n"),
            "m.py:1:5: error: SyntaxError: cannot assign to expression here. Maybe you meant "
            "'==' instead of '='?");
  EXPECT_EQ(head("a, f(x) = 1, 2\n"),
            "m.py:1:4: error: SyntaxError: cannot assign to function call here. Maybe you meant "
            "'==' instead of '='?");
  EXPECT_EQ(head("None = 1\n"),
            "m.py:1:1: error: SyntaxError: cannot assign to None here. Maybe you meant '==' "
            "instead of '='?");
  EXPECT_EQ(head("(a, b) += 1\n"),
            "m.py:1:1: error: SyntaxError: 'tuple' is an illegal expression for augmented "
            "assignment");
  EXPECT_EQ(hint("f() += 1\n"),
            "the left side of an augmented assignment must be a name, attribute or subscript");
  EXPECT_EQ(head("a, b: int = 1, 2\n"),
            "m.py:1:1: error: SyntaxError: only single target (not tuple) can be annotated");
  EXPECT_EQ(head("f(): int = 1\n"), "m.py:1:1: error: SyntaxError: illegal target for annotation");
  EXPECT_EQ(head("for f() in x: pass\n"),
            "m.py:1:5: error: SyntaxError: cannot assign to function call");
  EXPECT_EQ(head("for self.i in x: pass\n"),
            "m.py:1:5: error: NotSupportedError: an attribute as a loop variable is not "
            "supported by d2s");
  EXPECT_EQ(head("for a, x[0] in y: pass\n"),
            "m.py:1:8: error: NotSupportedError: a subscript as a loop variable is not "
            "supported by d2s");
  EXPECT_EQ(head("f(x.y=1)\n"),
            "m.py:1:3: error: SyntaxError: expression cannot contain assignment, perhaps you "
            "meant \"==\"?");
}

TEST(ParseErrors, ControlFlowOutsideItsContext) {
  EXPECT_EQ(error_of("break\n"),
            "m.py:1:1: error: SyntaxError: 'break' outside loop\n"
            "    break\n"
            "    ^~~~~\n"
            "hint: use 'break' only inside the body of a 'for' or 'while' loop\n");
  EXPECT_EQ(head("if x:\n  continue\n"),
            "m.py:2:3: error: SyntaxError: 'continue' not properly in loop");
  EXPECT_EQ(head("for i in x:\n  def f():\n    break\n"),
            "m.py:3:5: error: SyntaxError: 'break' outside loop");
  EXPECT_EQ(error_of("x = 1\nreturn x\n"),
            "m.py:2:1: error: SyntaxError: 'return' outside function\n"
            "    return x\n"
            "    ^~~~~~\n"
            "hint: use 'return' only inside a 'def'; top-level statements end without one\n");
  EXPECT_EQ(head("class A:\n  return 1\n"),
            "m.py:2:3: error: SyntaxError: 'return' outside function");
  EXPECT_EQ(error_of("def f():\n  for i in x:\n    if i: break\n  while 1: continue\n  return\n"),
            "no error");
}

TEST(ParseErrors, MalformedWith) {
  EXPECT_EQ(error_of("with torch.no_grad()\n    y = x\n"),
            "m.py:1:21: error: SyntaxError: expected ':'\n"
            "    with torch.no_grad()\n"
            "                        ^\n"
            "hint: end the 'with' line with ':' (found newline)\n");
  EXPECT_EQ(head("with torch.no_grad():\ny = x\n"),
            "m.py:2:1: error: IndentationError: expected an indented block after 'with' "
            "statement on line 1");
  EXPECT_EQ(head("with torch.no_grad() as (a, b):\n    pass\n"),
            "m.py:1:25: error: SyntaxError: invalid syntax: expected a name after 'as', found "
            "'('");
  EXPECT_EQ(head("with:\n    pass\n"),
            "m.py:1:5: error: SyntaxError: invalid syntax: expected an expression, found ':'");
  EXPECT_EQ(head("if x: with torch.no_grad(): pass\n"),
            "m.py:1:7: error: SyntaxError: invalid syntax: a compound statement cannot follow "
            "':' on the same line");
  std::string deep;
  for (int i = 0; i < 201; ++i) {
    deep += std::string(static_cast<size_t>(i) * 1, ' ') + "with torch.no_grad():\n";
  }
  deep += std::string(201, ' ') + "pass\n";
  EXPECT_NE(head(deep).find("nesting too deep"), std::string::npos) << head(deep);
}

TEST(ParseErrors, UnsupportedFeatures) {
  EXPECT_EQ(head("def f():\n  yield 1\n"),
            "m.py:2:3: error: NotSupportedError: 'yield' is not supported by d2s");
  EXPECT_EQ(head("def f():\n  x = yield\n"),
            "m.py:2:7: error: NotSupportedError: 'yield' is not supported by d2s");
  EXPECT_EQ(head("nonlocal n\n"),
            "m.py:1:1: error: NotSupportedError: 'nonlocal' is not supported by d2s");
  EXPECT_EQ(head("async def f(): pass\n"),
            "m.py:1:1: error: NotSupportedError: 'async' is not supported by d2s");
  EXPECT_EQ(head("x = await y\n"),
            "m.py:1:5: error: NotSupportedError: 'await' is not supported by d2s");
  EXPECT_EQ(head("class A:\n  pass\n"),
            "m.py:1:1: error: NotSupportedError: a 'class' without a body is not supported by "
            "d2s");
  EXPECT_EQ(hint("class A:\n  pass\n"),
            "give the class an __init__ and a forward method, or remove it");
  EXPECT_EQ(head("def f(x, /): pass\n"),
            "m.py:1:10: error: NotSupportedError: '/' (positional-only parameters) is not "
            "supported by d2s");
  EXPECT_EQ(head("a, *b = x\n"),
            "m.py:1:4: error: NotSupportedError: '*' unpacking is not supported by d2s");
  EXPECT_EQ(head("if (n := 3): pass\n"),
            "m.py:1:7: error: NotSupportedError: ':=' (assignment expression) is not supported "
            "by d2s");
  EXPECT_EQ(head("for i in x:\n  pass\nelse:\n  pass\n"),
            "m.py:3:1: error: NotSupportedError: 'for ... else' is not supported by d2s");
  EXPECT_EQ(head("while x:\n  pass\nelse:\n  pass\n"),
            "m.py:3:1: error: NotSupportedError: 'while ... else' is not supported by d2s");
  EXPECT_EQ(head("from . import x\n"),
            "m.py:1:6: error: NotSupportedError: a relative import is not supported by d2s");
  EXPECT_EQ(head("from torch import *\n"),
            "m.py:1:19: error: NotSupportedError: 'from ... import *' is not supported by d2s");
  EXPECT_EQ(head("class A(B, metaclass=M):\n  x = 1\n"),
            "m.py:1:12: error: NotSupportedError: a class keyword argument (such as metaclass=) "
            "is not supported by d2s");
  EXPECT_EQ(head("x = b'abc'\n"),
            "m.py:1:5: error: NotSupportedError: bytes literals are not supported by d2s");
  EXPECT_EQ(head("x = 2j\n"),
            "m.py:1:5: error: NotSupportedError: complex literals are not supported by d2s");
  EXPECT_EQ(head("x = f'{a:{w}}'\n"),
            "m.py:1:10: error: NotSupportedError: nested replacement fields in an f-string "
            "format spec are not supported by d2s");
}

TEST(ParseErrors, ParametersAndArguments) {
  EXPECT_EQ(head("def f(x, x): pass\n"),
            "m.py:1:10: error: SyntaxError: duplicate argument 'x' in function definition");
  EXPECT_EQ(head("def f(a=1, b): pass\n"),
            "m.py:1:12: error: SyntaxError: parameter without a default follows parameter with "
            "a default");
  EXPECT_EQ(head("f(a=1, a=2)\n"), "m.py:1:8: error: SyntaxError: keyword argument repeated: a");
  EXPECT_EQ(head("f(a=1, b)\n"),
            "m.py:1:8: error: SyntaxError: positional argument follows keyword argument");
  EXPECT_EQ(hint("f(a=1, b)\n"), "put the positional arguments before the keyword arguments");
  EXPECT_EQ(head("@decorator\nx = 1\n"),
            "m.py:2:1: error: SyntaxError: invalid syntax: expected 'def' or 'class' after a "
            "decorator, found name 'x'");
  EXPECT_EQ(head("from torch import a,\n"),
            "m.py:1:20: error: SyntaxError: trailing comma not allowed without surrounding "
            "parentheses");
}

TEST(ParseErrors, FStrings) {
  EXPECT_EQ(error_of("print(f'{}')\n"),
            "m.py:1:9: error: SyntaxError: f-string: empty expression not allowed\n"
            "    print(f'{}')\n"
            "            ^~\n"
            "hint: put an expression between the braces, or write '{{' for a literal brace\n");
  EXPECT_EQ(head("s = f'a}'\n"),
            "m.py:1:8: error: SyntaxError: f-string: single '}' is not allowed");
  EXPECT_EQ(head("s = f'{x'\n"), "m.py:1:7: error: SyntaxError: f-string: expecting '}'");
  EXPECT_EQ(head("s = f'{x!z}'\n"),
            "m.py:1:9: error: SyntaxError: f-string: invalid conversion character");
  EXPECT_EQ(head("s = f'{x\\n}'\n"),
            "m.py:1:9: error: SyntaxError: f-string expression part cannot include a backslash");
  EXPECT_EQ(head("s = f'{x # c}'\n"),
            "m.py:1:10: error: SyntaxError: f-string expression part cannot include '#'");
  // An error inside a field points at the field's own column.
  EXPECT_EQ(head("s = f'value {a +}'\n"),
            "m.py:1:17: error: SyntaxError: invalid syntax: expected an expression, found end of "
            "file");
  EXPECT_EQ(head("s = f'{a b}'\n"),
            "m.py:1:10: error: SyntaxError: invalid syntax: expected '}' to end the f-string "
            "field, found name 'b'");
}

TEST(ParseErrors, NestingTooDeep) {
  std::string parens = "x = " + std::string(300, '(') + "1" + std::string(300, ')') + "\n";
  EXPECT_EQ(head(parens),
            "m.py:1:205: error: SyntaxError: nesting too deep: more than 200 levels of brackets, "
            "blocks or chained operators");
  std::string expected_hint =
      "split the code: compute parts in intermediate variables, or move inner blocks into "
      "helper functions";
  EXPECT_EQ(hint(parens), expected_hint);

  std::string sum = "x = a";
  for (int i = 0; i < 10000; ++i) sum += "+a";
  EXPECT_EQ(head(sum + "\n"),
            "m.py:1:406: error: SyntaxError: nesting too deep: more than 200 levels of brackets, "
            "blocks or chained operators");

  EXPECT_NE(head("x = " + std::string(10000, '-') + "1\n").find("nesting too deep"),
            std::string::npos);
  EXPECT_NE(head("x = " + std::string(10000, '[') + "\n").find("nesting too deep"),
            std::string::npos);
  std::string attrs = "x = a";
  for (int i = 0; i < 10000; ++i) attrs += ".b()";
  EXPECT_NE(head(attrs + "\n").find("nesting too deep"), std::string::npos);
  std::string nots = "x = ";
  for (int i = 0; i < 10000; ++i) nots += "not ";
  EXPECT_NE(head(nots + "a\n").find("nesting too deep"), std::string::npos);
  std::string ifexp = "x = a";
  for (int i = 0; i < 10000; ++i) ifexp += " if c else a";
  EXPECT_NE(head(ifexp + "\n").find("nesting too deep"), std::string::npos);
  std::string power = "x = a";
  for (int i = 0; i < 10000; ++i) power += "**a";
  EXPECT_NE(head(power + "\n").find("nesting too deep"), std::string::npos);

  std::string blocks;
  for (int i = 0; i < 300; ++i) blocks += std::string(static_cast<size_t>(i), ' ') + "if x:\n";
  blocks += std::string(300, ' ') + "pass\n";
  EXPECT_EQ(head(blocks),
            "m.py:201:201: error: SyntaxError: nesting too deep: more than 200 levels of "
            "brackets, blocks or chained operators");

  std::string elifs = "if a:\n  pass\n";
  for (int i = 0; i < 10000; ++i) elifs += "elif b:\n  pass\n";
  EXPECT_EQ(head(elifs),
            "m.py:401:1: error: SyntaxError: nesting too deep: more than 200 levels of brackets, "
            "blocks or chained operators");
}

TEST(ParseErrors, NestingLimitIsConfigurable) {
  ParseLimits limits;
  limits.max_nesting = 3;
  EXPECT_EQ(error_of("x = (((1)))\n", limits), "no error");
  EXPECT_EQ(head("x = ((((1))))\n", limits),
            "m.py:1:8: error: SyntaxError: nesting too deep: more than 3 levels of brackets, "
            "blocks or chained operators");
  EXPECT_EQ(error_of("x = a + b + c + d\n", limits), "no error");
  EXPECT_NE(head("x = a + b + c + d + e\n", limits).find("nesting too deep"), std::string::npos);
}

TEST(ParseErrors, NeverCrashesOnAnyPrefixOfAProgram) {
  const std::string program =
      "import torch\nimport torch.nn as nn\n\n"
      "class M(nn.Module):\n"
      "    def __init__(self):\n"
      "        super().__init__()\n"
      "        self.l = nn.Linear(3, 4)  # comment\n"
      "    def forward(self, x: Tensor, n: int = 3) -> Tensor:\n"
      "        '''doc \\n string'''\n"
      "        for i, (a, b) in enumerate(zip(x, x)):\n"
      "            if a > 0 and not b: continue\n"
      "            elif a is not None: x = x[:, 1:3] @ w ** -2\n"
      "            else:\n"
      "                x += f\"{x.shape!r:>4} {{ok}}\" 'y'\n"
      "        while x.sum() > 1e-3: x = x / 2 if n else \\\n"
      "            x * 0x_ff\n"
      "        assert n, \"msg\"\n"
      "        return self.l(x), [1, 2.5, True, None]\n";
  for (size_t n = 0; n <= program.size(); ++n) {
    std::string e = error_of(program.substr(0, n));
    EXPECT_TRUE(e == "no error" || e.find("error: ") != std::string::npos) << n;
  }
  EXPECT_EQ(error_of(program), "no error");

  // Byte mutations of the program: every result parses or is one clean error.
  std::mt19937 rng(1234);
  const std::string alphabet = "()[]{}:;,.=+-*/@'\"\\#\n\t fxr0123456789_ \x80\xff\xc3";
  for (int i = 0; i < 3000; ++i) {
    std::string mutated = program;
    int edits = 1 + static_cast<int>(rng() % 4);
    for (int k = 0; k < edits; ++k) {
      size_t at = rng() % mutated.size();
      char c = alphabet[rng() % alphabet.size()];
      switch (rng() % 3) {
        case 0:
          mutated[at] = c;
          break;
        case 1:
          mutated.insert(mutated.begin() + static_cast<std::ptrdiff_t>(at), c);
          break;
        default:
          mutated.erase(at, 1);
      }
    }
    std::string e = error_of(mutated);
    EXPECT_TRUE(e == "no error" || e.find("error: ") != std::string::npos) << mutated;
  }
}

TEST(ParseErrors, NeverCrashesOnRandomBytes) {
  std::mt19937 rng(99);
  for (int i = 0; i < 2000; ++i) {
    std::string bytes(rng() % 64, '\0');
    for (char& c : bytes) c = static_cast<char>(rng() % 256);
    std::string e = error_of(bytes);
    EXPECT_TRUE(e == "no error" || e.find("error: ") != std::string::npos);
  }
  std::string nul("\0", 1);
  EXPECT_NE(error_of(nul).find("null bytes"), std::string::npos);
}

}  // namespace
}  // namespace d2s
