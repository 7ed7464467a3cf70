// numpy arrays made into tensors (py_ndarray.cpp), iterators (py_iterators.cpp) and
// obj.__dict__ / vars() (py_instance_dict.cpp), @staticmethod, Module.add_module
// (py_module_state.cpp): their results and the
// errors they give,
// with numpy's, Python's and PyTorch's wording where those have one.
#include "trace/tests/test_util.h"

namespace d2s::testing {
namespace {

const char* kPrelude =
    "import torch\nimport torch.nn as nn\nimport itertools\nimport numpy as np\n";

// The top level runs as the entry (the programs below define classes to use there).
std::string run(const std::string& body) {
  return run_print(std::string(kPrelude) + body, {}, with_entry("<module>"));
}
Error error(const std::string& body) {
  return run_error(std::string(kPrelude) + body, {}, with_entry("<module>"));
}

TEST(NumpyArrays, ConstructorsInferNumpysDtypeAndShape) {
  EXPECT_EQ(run("a = np.array([[1, 2], [3, 4]])\nb = np.array([1, 2.5])\n"
                "c = np.array([True, False])\n"
                "print(a.shape, a.ndim, a.size, a.tolist(), b.tolist(), c.tolist())\n"),
            "(2, 2) 2 4 [[1, 2], [3, 4]] [1.0, 2.5] [True, False]\n");
  EXPECT_EQ(run("print(np.eye(2, 3, k=1).tolist(), np.identity(2).tolist())\n"),
            "[[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]] [[1.0, 0.0], [0.0, 1.0]]\n");
  EXPECT_EQ(run("print(np.arange(4).tolist(), np.arange(0.0, 1, 0.3).tolist(), "
                "np.linspace(0, 1, 5).tolist())\n"),
            "[0, 1, 2, 3] [0.0, 0.3, 0.6, 0.8999999999999999] [0.0, 0.25, 0.5, 0.75, 1.0]\n");
  EXPECT_EQ(run("print(np.zeros((2, 0)).tolist(), np.full(2, 3).tolist(), "
                "np.ones(3, dtype=int).tolist())\n"),
            "[[], []] [3, 3] [1, 1, 1]\n");
  EXPECT_EQ(run("a = np.arange(6).reshape(2, -1)\nprint(a.T.tolist(), a.flatten().tolist(), "
                "np.array([1.7, -1.7]).astype(np.int64).tolist())\n"),
            "[[0, 3], [1, 4], [2, 5]] [0, 1, 2, 3, 4, 5] [1, -1]\n");
  EXPECT_EQ(
      run("print(np.tril(np.ones((2, 3))).tolist(), np.triu([[1, 2], [3, 4]], 1).tolist())\n"),
      "[[1.0, 0.0, 0.0], [1.0, 1.0, 0.0]] [[0, 2], [0, 0]]\n");
  EXPECT_EQ(error("a = np.array([[1, 2], [3]])\n").message(),
            "ValueError: setting an array element with a sequence. The requested array has an "
            "inhomogeneous shape after 1 dimensions.");
  EXPECT_EQ(error("a = np.arange(6).reshape(4, -1)\n").message(),
            "ValueError: cannot reshape array of size 6 into shape (4, -1)");
  EXPECT_EQ(error("a = np.zeros(2, dtype=np.sqrt)\n").message(),
            "d2s's numpy arrays have the dtypes float64, float32, int64 and bool, not sqrt");
}

TEST(NumpyArrays, TensorsKeepTheArraysDtypeAndFloat64IsAnError) {
  EXPECT_EQ(run("t = torch.from_numpy(np.eye(2).astype(np.float32))\n"
                "print(t, t.dtype)\n"),
            "tensor([[1., 0.],\n        [0., 1.]]) torch.float32\n");
  EXPECT_EQ(run("print(torch.from_numpy(np.arange(3)), torch.tensor(np.array([True])), "
                "torch.as_tensor(np.eye(1), dtype=torch.float32), torch.FloatTensor(np.eye(1)), "
                "torch.tensor(np.zeros((0, 2), dtype=np.float32)).shape)\n"),
            "tensor([0, 1, 2]) tensor([True]) tensor([[1.]]) tensor([[1.]]) torch.Size([0, 2])\n");
  EXPECT_EQ(run("t = torch.ones(2)\nprint(torch.as_tensor(t) is t, torch.as_tensor([1, 2]), "
                "torch.as_tensor(t, dtype=torch.int64))\n"),
            "True tensor([1, 2]) tensor([1, 1])\n");
  Error f64 = error("t = torch.tensor(np.eye(2))\n");
  EXPECT_EQ(f64.message(),
            "torch.tensor() of a float64 array makes a torch.float64 tensor, and d2s has no "
            "float64 tensors");
  EXPECT_NE(f64.hint().find("dtype=torch.float32"), std::string::npos);
  EXPECT_EQ(error("t = torch.from_numpy([1, 2])\n").message(),
            "TypeError: expected np.ndarray (got list)");
}

TEST(Iterators, IterNextAndParameterGenerators) {
  EXPECT_EQ(run("it = iter([1, 2, 3])\nprint(next(it), list(it), next(it, 'end'))\n"),
            "1 [2, 3] end\n");
  EXPECT_EQ(
      run("it = iter('ab')\nfor c in it:\n    break\nprint(c, next(it), type(it).__name__)\n"),
      "a b str_iterator\n");
  EXPECT_EQ(run("m = nn.Linear(2, 3)\np = m.parameters()\nprint(type(p).__name__, "
                "tuple(next(p).shape), len(list(p)), list(p))\n"),
            "generator (3, 2) 1 []\n");
  EXPECT_EQ(run("m = nn.Linear(2, 3)\nprint([n for n, _ in m.named_parameters()], "
                "next(m.named_parameters())[0])\n"),
            "['weight', 'bias'] weight\n");
  EXPECT_EQ(error("x = next(iter([]))\n").message(), "StopIteration");
  EXPECT_EQ(error("x = next([1])\n").message(), "TypeError: 'list' object is not an iterator");
  EXPECT_EQ(run("try:\n    next(iter(()))\nexcept StopIteration:\n    print('stopped')\n"),
            "stopped\n");
}

TEST(Iterators, EndlessItertoolsStopWhereTheyAreUsed) {
  EXPECT_EQ(run("c = itertools.count(1.5, 2)\nprint(next(c), next(c), "
                "list(zip('ab', itertools.cycle([0, 1]))), "
                "list(itertools.islice(itertools.count(), 2, 8, 3)), "
                "list(zip(itertools.repeat(7), [1, 2])))\n"),
            "1.5 3.5 [('a', 0), ('b', 1)] [2, 5] [(7, 1), (7, 2)]\n");
  EXPECT_EQ(run("for i in itertools.count(3):\n    if i * i > 30:\n        break\nprint(i)\n"),
            "6\n");
  EXPECT_EQ(run("print(list(itertools.cycle([])), list(zip(itertools.cycle([]), [1])))\n"),
            "[] []\n");
  Error endless = error("x = list(itertools.cycle([1]))\n");
  EXPECT_EQ(endless.message(),
            "itertools.cycle is endless, and d2s evaluates this use of it whole");
  EXPECT_NE(endless.hint().find("islice"), std::string::npos);
  EXPECT_EQ(error("x = list(zip(itertools.count(), itertools.count()))\n").message(),
            "itertools.count is endless, and d2s evaluates this use of it whole");
  EXPECT_EQ(error("x = itertools.count('a')\n").message(), "TypeError: a number is required");
  // A `for` loop over an endless iterator without a break stops at the loop limit.
  RunOptions opts = with_entry("<module>");
  opts.limits.max_loop_iterations = 100;
  Error limit =
      run_error(std::string(kPrelude) + "for i in itertools.count():\n    pass\n", {}, opts);
  EXPECT_NE(limit.message().find("100"), std::string::npos) << limit.message();
}

TEST(InstanceDict, WritesReachTheObjectAndModulesKeepTheirState) {
  EXPECT_EQ(run("class Cfg:\n    def __init__(self, **kw):\n        self.__dict__.update(kw)\n"
                "c = Cfg(a=1, b='x')\nc.__dict__['d'] = 2.5\nvars(c).pop('b')\n"
                "print(c.a, c.d, hasattr(c, 'b'), vars(c), sorted(c.__dict__))\n"),
            "1 2.5 False {'a': 1, 'd': 2.5} ['a', 'd']\n");
  EXPECT_EQ(run("class Opts:\n    def __init__(self, **kw):\n        for k, v in kw.items():\n"
                "            setattr(self, k, v)\no = Opts(lr=0.1)\nprint(o.lr, vars(o))\n"),
            "0.1 {'lr': 0.1}\n");
  EXPECT_EQ(run("class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                "        self.fc = nn.Linear(1, 1)\n        self.k = 3\n"
                "        self.register_buffer('b', torch.zeros(1))\n"
                "print(list(vars(M())))\n"),
            "['training', 'k']\n");
  EXPECT_EQ(error("class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                  "        self.fc = nn.Linear(1, 1)\n        self.__dict__['fc'] = 1\nm = M()\n")
                .message(),
            "d2s does not write the registered parameter, buffer or submodule 'fc' of a module "
            "through its __dict__");
  EXPECT_EQ(error("x = vars(3)\n").message(),
            "TypeError: vars() argument must have __dict__ attribute");
}

TEST(Staticmethod, ReadThroughAnInstanceOrTheClassItTakesNoSelf) {
  EXPECT_EQ(run("class M(nn.Module):\n    @staticmethod\n    def cfg(n=2):\n        return n * 3\n"
                "    def __init__(self):\n        super().__init__()\n"
                "        self.n = self.cfg() + M.cfg(1)\nprint(M().n)\n"),
            "9\n");
}

TEST(AddModule, NamesAChildWithPyTorchsChecks) {
  EXPECT_EQ(run("class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                "        self.add_module('layer%d' % 1, nn.Linear(2, 2))\n"
                "        self.register_module('none', None)\n"
                "m = M()\nprint([n for n, _ in m.named_parameters()], m.none, "
                "[n for n, _ in m.named_children()])\n"),
            "['layer1.weight', 'layer1.bias'] None ['layer1']\n");
  const std::string cls =
      "class M(nn.Module):\n    def __init__(self, n, m):\n"
      "        super().__init__()\n        self.y = 3\n"
      "        self.add_module(n, m)\n";
  EXPECT_EQ(error(cls + "M(1, nn.ReLU())\n").message(),
            "TypeError: module name should be a string. Got int");
  EXPECT_EQ(error(cls + "M('a.b', nn.ReLU())\n").message(),
            "KeyError: 'module name can\\'t contain \".\", got: a.b'");
  EXPECT_EQ(error(cls + "M('', nn.ReLU())\n").message(),
            "KeyError: 'module name can\\'t be empty string \"\"'");
  EXPECT_EQ(error(cls + "M('x', 3)\n").message(), "TypeError: int is not a Module subclass");
  EXPECT_EQ(error(cls + "M('y', nn.ReLU())\n").message(),
            "KeyError: \"attribute 'y' already exists\"");
}

TEST(ModuleDictSubclass, SelfItemAssignmentAndUpdateRegisterChildren) {
  EXPECT_EQ(run("class Heads(nn.ModuleDict):\n    def __init__(self):\n"
                "        super().__init__({'a': nn.Linear(2, 2)})\n"
                "        self['b'] = nn.ReLU()\n        self.update({'c': nn.Tanh()})\n"
                "h = Heads()\nprint(list(h), len(h), isinstance(h, nn.ModuleDict), "
                "[n for n, _ in h.named_parameters()])\n"),
            "['a', 'b', 'c'] 3 True ['a.weight', 'a.bias']\n");
}

}  // namespace
}  // namespace d2s::testing
