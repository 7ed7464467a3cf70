// Every lowering error: its message, its location (file:line:col of the code at
// fault) and, where there is one, its hint.
#include "convert/tests/lower_test_util.h"

namespace d2s::convert {
namespace {

using testing::lower_error;

// The formatted error contains each of `parts`.
::testing::AssertionResult has(const std::string& msg, std::initializer_list<const char*> parts) {
  if (msg.empty()) return ::testing::AssertionFailure() << "no error";
  for (const char* p : parts) {
    if (msg.find(p) == std::string::npos) {
      return ::testing::AssertionFailure() << "'" << p << "' not in:\n" << msg;
    }
  }
  return ::testing::AssertionSuccess();
}

TEST(LowerError, UnknownNameSuggestsTheCloseOne) {
  EXPECT_TRUE(has(lower_error("import torch\ndef f(x, w_h):\n    return torch.mm(W_h, x)\n"),
                  {"model.py:3:21: error: NameError: name 'W_h' is not defined",
                   "hint: did you mean 'w_h'?", "^~~"}));
}

TEST(LowerError, VariableDefinedInOneBranch) {
  const char* src = R"(def f(x):
    if x.sum() > 0:
        y = x
    return y
)";
  EXPECT_TRUE(has(lower_error(src),
                  {"model.py:4:12: error: variable 'y' is defined in only one branch (the if "
                   "branch) of the if at line 2",
                   "hint: assign it before the if, or in both branches"}));
  // Not an error when it is never read afterwards.
  EXPECT_EQ(lower_error("def f(x):\n    if x.sum() > 0:\n        y = x\n    return x\n"), "");
  // Nor when the other branch always leaves.
  EXPECT_EQ(lower_error("def f(x):\n    if x.sum() > 0:\n        y = x\n    else:\n"
                        "        return x\n    return y\n"),
            "");
}

TEST(LowerError, BranchTypesDiffer) {
  const char* src = R"(def f(x):
    if x.sum() > 0:
        y = x
    else:
        y = 1
    return y
)";
  EXPECT_TRUE(has(lower_error(src), {"model.py:2:5: error: variable 'y' has type Tensor in the "
                                     "if branch and int in the else branch"}));
  EXPECT_TRUE(has(lower_error("def f(x):\n    return x if x.sum() > 0 else 1.5\n"),
                  {"model.py:2:12: error: the two branches give values of different types: "
                   "Tensor and float"}));
}

TEST(LowerError, ReturnTypesDiffer) {
  const char* src = R"(def f(x):
    if x.sum() > 0:
        return x
)";
  EXPECT_TRUE(has(lower_error(src), {"'f' returns Tensor on one path and NoneType on another",
                                     "returns None; return a value on every path"}));
}

TEST(LowerError, LoopVariablesAfterTheLoop) {
  EXPECT_TRUE(has(lower_error("def f(x, n: int):\n    for i in range(n):\n        y = x * i\n"
                              "    return y\n"),
                  {"model.py:4:12: error: variable 'y' is assigned only inside the loop at "
                   "line 2",
                   "hint: assign it before the loop"}));
  EXPECT_TRUE(has(lower_error("def f(x, n: int):\n    for i in range(n):\n        x = x * i\n"
                              "    return i\n"),
                  {"model.py:4:12: error: the loop variable 'i' of the loop at line 2 cannot "
                   "be used after the loop"}));
  EXPECT_TRUE(has(lower_error("import torch\ndef f(x, n: int):\n    s = 0\n"
                              "    for i in range(n):\n        s = s + x\n    return s\n"),
                  {"model.py:4:5: error: variable 's' changes type in the loop: int before it, "
                   "Tensor after an iteration",
                   "torch.zeros"}));
}

TEST(LowerError, MisplacedStatements) {
  EXPECT_TRUE(has(lower_error("def f(x):\n    break\n"),
                  {"model.py:2:5: error: SyntaxError: 'break' outside loop"}));
  EXPECT_TRUE(has(lower_error("def f(x):\n    continue\n"),
                  {"SyntaxError: 'continue' not properly in loop"}));
  EXPECT_TRUE(has(lower_error("x = 1\nreturn x\n"),
                  {"model.py:2:1: error: SyntaxError: 'return' outside function"}));
  EXPECT_TRUE(has(lower_error("def f(x):\n    class A:\n        y = 1\n    return x\n"),
                  {"model.py:2:5: error: a class defined inside a function is not supported",
                   "define it at the top level"}));
  EXPECT_TRUE(has(lower_error("def f(x):\n    try:\n        y = x\n    except ValueError:\n"
                              "        y = x\n    return y\n"),
                  {"model.py:4:5: error: 'try' with 'except' is not supported by the parse route",
                   "eager and trace modes run it"}));
  EXPECT_TRUE(has(lower_error("def f(x):\n    d = {'a', x}\n    return x\n"),
                  {"model.py:2:9: error: a set is not supported by the parse route"}));
  EXPECT_TRUE(has(lower_error("def f(x):\n    import math\n    return x\n"),
                  {"import inside a function is not supported"}));
}

TEST(LowerError, WithOtherContextManagers) {
  EXPECT_TRUE(
      has(lower_error("import torch\ndef f(x):\n    with open('log.txt') as f:\n        pass\n"
                      "    return x\n"),
          {"model.py:3:10: error: NotSupportedError: this context manager is not supported by "
           "d2s",
           "^~~~", "hint: d2s runs 'with' only on torch.no_grad() and torch.enable_grad()"}));
  EXPECT_TRUE(has(lower_error("import torch\ndef f(x):\n    with torch.no_grad(), x:\n"
                              "        pass\n    return x\n"),
                  {"model.py:3:27: error: NotSupportedError: this context manager"}));
}

TEST(LowerError, AssignmentsTheGraphCannotHold) {
  // x[i] = v on a tensor is lowered (lower_inplace_test.cpp); on a tuple it cannot be.
  EXPECT_TRUE(has(lower_error("def f(x):\n    t = (x, x)\n    t[0] = 1\n    return x\n"),
                  {"model.py:3:5: error: assigning to an item of a"}));
  EXPECT_TRUE(has(lower_error("def f(x):\n    a, b = (x, x, x)\n    return a\n"),
                  {"ValueError: too many values to unpack (expected 2)"}));
  EXPECT_TRUE(has(lower_error("def f(x):\n    a, b = x\n    return a\n"),
                  {"cannot unpack a value of type Tensor", "a, b = x[0], x[1]"}));
  const char* module = R"(import torch.nn as nn
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.n = 2
    def forward(self, x):
        self.n = 3
        return x
)";
  EXPECT_TRUE(has(lower_error(module), {"model.py:7:9: error: assigning to an attribute is not "
                                        "supported",
                                        "frozen"}));
}

TEST(LowerError, Backward) {
  // backward() converts to nothing (the graph is the forward); .grad is an error.
  const char* src = "def f(x):\n    loss = x.sum()\n    loss.backward()\n    return loss\n";
  EXPECT_EQ(lower_error(src), "");
  EXPECT_TRUE(has(lower_error("def f(x):\n    return x.grad\n"),
                  {"'.grad' is not supported yet by the parse route"}));
}

TEST(LowerError, CallsThatDoNotFit) {
  EXPECT_TRUE(has(lower_error("def g(a, b):\n    return a\ndef f(x):\n    return g(x)\n"),
                  {"model.py:4:12: error: TypeError: g() missing required argument: 'b'"}));
  EXPECT_TRUE(has(lower_error("def g(a):\n    return a\ndef f(x):\n    return g(x, x)\n"),
                  {"TypeError: g() takes 1 positional argument(s) but 2 were given"}));
  EXPECT_TRUE(has(lower_error("def g(a):\n    return a\ndef f(x):\n    return g(x, c=1)\n"),
                  {"TypeError: g() got an unexpected keyword argument 'c'"}));
  EXPECT_TRUE(has(lower_error("import torch\ndef f(x):\n    return torch.mm(x)\n"),
                  {"model.py:3:12: error: mm(): missing required argument 'mat2'",
                   "mm(Tensor self, Tensor mat2) -> Tensor"}));
  EXPECT_TRUE(has(lower_error("import torch\ndef f(x):\n    return torch.frobnicate(x)\n"),
                  {"torch.frobnicate is not supported by d2s"}));
  EXPECT_TRUE(has(lower_error("def f(x):\n    return x.frobnicate()\n"),
                  {"'Tensor' object has no attribute 'frobnicate'"}));
  EXPECT_TRUE(has(lower_error("import torch\ndef f(x):\n    return torch.max(x, 'a')\n"),
                  {"max() received an invalid combination of argument types - got (Tensor, str)"}));
  EXPECT_TRUE(has(lower_error("def f(x):\n    return print(x, sep=',')\n"),
                  {"print(sep=...) is not supported by the parse route"}));
  EXPECT_TRUE(has(lower_error("def f(x):\n    return min(x, x)\n"),
                  {"the builtin min() on tensors is not supported", "torch.minimum"}));
  EXPECT_TRUE(has(lower_error("def f(n: int):\n    r = range(n)\n    return n\n"),
                  {"model.py:2:15: error: range() with bounds not known at conversion time is only "
                   "supported as the iterable of a for loop"}));
  // A comprehension over a tensor's rows is a prim::Loop (convert/lower_functional.cpp);
  // one over a number is an error.
  EXPECT_EQ(lower_error("def f(x):\n    return [t for t in x]\n"), "");
  EXPECT_TRUE(has(lower_error("def f(x, n: int):\n    return [t for t in n]\n"),
                  {"model.py:2:24: error: a comprehension over this value is not supported",
                   "eager and trace modes run it"}));
}

TEST(LowerError, ModulesInForward) {
  const char* src = R"(import torch
import torch.nn as nn
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear1 = nn.Linear(2, 2)
    def forward(self, x):
        y = self.linear2(x)
        z = nn.Linear(2, 2)(x)
        return y
)";
  EXPECT_TRUE(has(lower_error(src), {"model.py:8:13: error: AttributeError: 'M' object has no "
                                     "attribute 'linear2'",
                                     "did you mean 'linear1'?"}));
  const char* make = R"(import torch.nn as nn
class M(nn.Module):
    def __init__(self):
        super().__init__()
    def forward(self, x):
        return nn.Linear(2, 2)(x)
)";
  EXPECT_TRUE(has(lower_error(make), {"creating Linear inside the converted code is not supported",
                                      "create parameters and modules in __init__"}));
}

TEST(LowerError, IndexingAndIteration) {
  EXPECT_TRUE(has(lower_error("def f(x, i: int):\n    t = (x, x)\n    return t[i]\n"),
                  {"model.py:3:14: error: the index of a tuple must be a constant int"}));
  EXPECT_TRUE(has(lower_error("def f(x):\n    t = (x, x)\n    return t[2]\n"),
                  {"IndexError: index 2 is out of range for a sequence of 2 items"}));
  // A mask index is aten::index; one after `...` needs the rank, as in TorchScript.
  EXPECT_TRUE(has(lower_error("def f(x):\n    return x[..., x > 0]\n"),
                  {"Ellipses followed by tensor indexing is currently not supported"}));
  EXPECT_TRUE(has(lower_error("def f(x, n: int):\n    for i in n:\n        x = x + i\n"
                              "    return x\n"),
                  {"model.py:2:14: error: cannot iterate over a value of type int"}));
  EXPECT_TRUE(has(lower_error("def f(x, n: float):\n    for i in range(n):\n        x = x + i\n"
                              "    return x\n"),
                  {"model.py:2:20: error: TypeError: 'float' object cannot be interpreted as an "
                   "integer"}));
  EXPECT_TRUE(has(lower_error("def f(x):\n    for i in range(0, 4, 0):\n        x = x + i\n"
                              "    return x\n"),
                  {"ValueError: range() arg 3 must not be zero"}));
}

TEST(LowerError, Comparisons) {
  EXPECT_TRUE(has(lower_error("def f(x, y):\n    return x is y\n"),
                  {"'is' is only supported with None in the parse route"}));
  EXPECT_TRUE(has(lower_error("def f(x, y):\n    return x in y\n"),
                  {"the operator 'in' is not supported by the parse route"}));
}

TEST(LowerError, ValuesAndObjects) {
  const char* objects = R"(import torch
import torch.nn as nn
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.ReLU()
        self.b = nn.Tanh()
        self.seq = nn.Sequential(nn.ReLU())
        self.layers = nn.ModuleList([nn.ReLU()])
    def forward(self, x, c: bool):
        if c:
            f = self.a
        else:
            f = self.b
        return f(x)
)";
  EXPECT_TRUE(has(lower_error(objects), {"model.py:15:16: error: 'f' refers to different "
                                         "objects in the two branches of the if at line 11"}));
  auto in_forward = [&](const std::string& body) {
    std::string src = objects;
    src = src.substr(0, src.find("        if c:")) + body;
    return lower_error(src);
  };
  EXPECT_TRUE(has(in_forward("        return self.layers(x)\n"),
                  {"NotImplementedError: Module [ModuleList] is missing the required "
                   "\"forward\" function",
                   "iterate over the ModuleList"}));
  EXPECT_TRUE(has(in_forward("        return self.seq(x, x)\n"),
                  {"TypeError: Sequential.forward() takes exactly one input"}));
  EXPECT_TRUE(has(in_forward("        for m in self.a:\n            x = m(x)\n        return x\n"),
                  {"'ReLU' object is not iterable"}));
  EXPECT_TRUE(has(in_forward("        return self.seq[c](x)\n"),
                  {"the index of a module container must be a constant int"}));
  EXPECT_TRUE(has(in_forward("        return self.a\n"),
                  {"model.py:11:16: error: expected a value here, but this is module instance "
                   "'ReLU'"}));
  EXPECT_TRUE(
      has(in_forward("        return torch(x)\n"), {"TypeError: 'module' object is not callable"}));
  EXPECT_TRUE(has(in_forward("        return M()\n"),
                  {"creating an instance of 'M' is not supported by the parse route"}));
  EXPECT_TRUE(has(in_forward("        return x.sum + 1\n"),
                  {"expected a value here, but this is method 'sum'",
                   "did you forget the parentheses of a call?"}));
  EXPECT_TRUE(has(in_forward("        y = x\n        for i in range(2):\n            y = self.a\n"
                             "        return x\n"),
                  {"'y' is a value before the loop but module instance 'ReLU' inside it"}));
}

TEST(LowerError, BuiltinsMisused) {
  EXPECT_TRUE(has(lower_error("def f(x):\n    return len(x, x)\n"),
                  {"TypeError: len() takes 1 argument(s) (2 given)"}));
  EXPECT_TRUE(has(lower_error("def f(n: int):\n    return max(n)\n"),
                  {"max() of one value is not supported"}));
  // sum() of a tensor's rows is a prim::Loop (lower_iter_runtime.cpp); of an int, nothing.
  EXPECT_TRUE(has(lower_error("def f(n: int):\n    return sum(n)\n"),
                  {"sum() over a value whose length is not known at conversion time is not "
                   "supported by the parse route"}));
  EXPECT_TRUE(has(lower_error("def f(n: int):\n    return n(1)\n"),
                  {"TypeError: 'int' object is not callable"}));
  EXPECT_TRUE(has(lower_error("def f(n: int):\n    return n.bit_length()\n"),
                  {"'int' object has no method 'bit_length' in the parse route"}));
  EXPECT_TRUE(
      has(lower_error("def f(x):\n    return x << 1\n"), {"the operator '<<' is not supported"}));
  EXPECT_TRUE(has(lower_error("def f(x):\n    for i in range(1, 2, 3, 4):\n        x = x\n"
                              "    return x\n"),
                  {"TypeError: range expected 1 to 3 arguments, got 4"}));
  EXPECT_TRUE(has(lower_error("def f(x):\n    for i in range(stop=3):\n        x = x\n"
                              "    return x\n"),
                  {"TypeError: range() takes no keyword arguments"}));
  EXPECT_TRUE(has(lower_error("def f(x):\n    if [x]:\n        x = x\n    return x\n"),
                  {"the truth value of a List[Tensor] is not supported by the parse route"}));
  EXPECT_TRUE(has(lower_error("def f(x):\n    return x.data\n"),
                  {"'.data' is not supported yet by the parse route"}));
}

TEST(LowerError, SubscriptsMisused) {
  EXPECT_TRUE(has(lower_error("def f(x, n: int):\n    return n[0]\n"),
                  {"a value of type int cannot be indexed"}));
  EXPECT_TRUE(has(lower_error("def f(x):\n    return x[0.5]\n"),
                  {"a tensor index must be an int, a slice, None, a tensor or a list, not float"}));
  EXPECT_TRUE(has(lower_error("def f(x):\n    t = (x, x)\n    return t[::0]\n"),
                  {"ValueError: slice step cannot be zero"}));
  EXPECT_TRUE(has(lower_error("def f(x, n: int):\n    t = (x, x)\n    return t[n:]\n"),
                  {"tuple slice bounds must be constant ints"}));
  // A list of run-time length is sliced (aten::slice) and iterated (a prim::Loop over
  // aten::len trips) as TorchScript does (convert/lower_list.cpp).
  EXPECT_EQ(lower_error("def f(x):\n    s = x.shape\n    return s[1:]\n"), "");
  EXPECT_EQ(lower_error("def f(x):\n    for d in x.shape:\n        x = x\n    return x\n"), "");
  EXPECT_TRUE(
      has(lower_error("def f(x, n: int):\n    s = [x]\n    s.append(x)\n    return s[0.5]\n"),
          {"TypeError: list indices must be integers, not float"}));
}

TEST(LowerError, EntryAnnotations) {
  EXPECT_TRUE(has(lower_error("def f(x: str):\n    return x\n"),
                  {"the annotation 'str' of parameter 'x' is not supported by the parse route",
                   "Tensor, int, float, bool, List[T], Tuple[T, ...] (of a fixed length) or "
                   "Optional[T]"}));
}

TEST(LowerError, Weights) {
  const char* src = R"(import torch.nn as nn
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 3)
    def forward(self, x):
        return self.fc(x)
)";
  LowerOptions o;
  o.weights = {{"fc.weight", Tensor::zeros({3, 2})}};
  EXPECT_TRUE(has(lower_error(src, o), {"the weights do not set parameter 'fc.bias'"}));
  o.weights["fc.bias"] = Tensor::zeros({2});
  EXPECT_TRUE(has(lower_error(src, o), {"the weights give 'fc.bias' the shape [2] but the "
                                        "module's parameter has [3]"}));
  o.weights["fc.bias"] = Tensor::zeros({3});
  o.weights["fc.extra"] = Tensor::zeros({3});
  EXPECT_TRUE(has(lower_error(src, o), {"the weights name 'fc.extra', which is not a parameter"}));
  o.weights.erase("fc.extra");
  EXPECT_EQ(lower_error(src, o), "");
}

TEST(LowerError, ForeignModuleUsedInConvertedCode) {
  // Importing numpy is fine; using it in the converted function is the error.
  EXPECT_TRUE(has(lower_error("import torch\nimport numpy as np\ndef f(x):\n"
                              "    return x * np.linalg.norm(2.0)\n"),
                  {"model.py:4:16: error: 'numpy.linalg' comes from the module 'numpy', which "
                   "d2s does not implement (imported at line 2)",
                   "hint: d2s accepts the import"}));
  // The numpy names d2s implements fold when their arguments are constants.
  EXPECT_EQ(lower_error("import torch\nimport numpy as np\ndef f(x):\n"
                        "    return x * np.sqrt(2.0) + np.pi\n"),
            "");
  EXPECT_EQ(lower_error("import torch\nimport numpy as np\ndef f(x):\n    return x\n"), "");
}

TEST(LowerError, ASubmoduleImportKeepsItsPackage) {
  // `import torch.utils.data` binds `torch`, the package, as Python does.
  EXPECT_EQ(lower_error("import torch\nimport torch.utils.data\ndef f(x):\n"
                        "    return torch.exp(x)\n"),
            "");
  EXPECT_TRUE(has(lower_error("import torch\nimport torch.utils.data as tud\ndef f(x):\n"
                              "    return tud.default_collate(x)\n"),
                  {"error: 'tud' comes from the module 'torch', which d2s does not implement "
                   "(imported at line 2)"}));
}

TEST(LowerError, SpreadOfUnknownLength) {
  EXPECT_TRUE(has(lower_error("import torch\ndef g(a, b):\n    return a + b\n"
                              "def f(x):\n    return g(*x.split(2))\n"),
                  {"error: the parse route spreads `*x.split(2)` only when its length is known "
                   "at conversion time",
                   "eager and trace modes"}));
}

TEST(LowerError, SuperOfAnUnrelatedClass) {
  const char* src = R"(import torch
import torch.nn as nn
class A(nn.Module):
    def g(self, x):
        return x
class B(nn.Module):
    def forward(self, x):
        return super(A, self).g(x)
)";
  EXPECT_TRUE(has(lower_error(src),
                  {"model.py:8:16: error: TypeError: super(type, obj): obj must be an instance "
                   "or subtype of type"}));
}

TEST(LowerError, GetattrNeedsAConstantName) {
  const char* src = R"(import torch
import torch.nn as nn
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 2)
    def forward(self, x, k: int):
        return getattr(self, f"fc{k}")(x)
)";
  EXPECT_TRUE(has(lower_error(src),
                  {"model.py:8:30: error: the parse route needs the attribute name of getattr() "
                   "as a string constant",
                   "eager and trace modes run it"}));
}

}  // namespace
}  // namespace d2s::convert
