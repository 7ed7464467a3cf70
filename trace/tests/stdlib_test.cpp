// nn.ModuleDict, the container methods and the standard-library pieces
// (py_module_dict.cpp, py_methods.cpp, py_stdlib.cpp, py_numpy.cpp): their results
// and every error they give, with PyTorch's and Python's wording.
#include "trace/tests/test_util.h"

namespace d2s::testing {
namespace {

const char* kPrelude =
    "import torch\nimport torch.nn as nn\nfrom collections import OrderedDict, namedtuple\n"
    "from functools import partial\nimport itertools\nimport numpy as np\n";

std::string run(const std::string& body) {
  return run_print(std::string(kPrelude) + body);
}
Error error(const std::string& body) {
  return run_error(std::string(kPrelude) + body);
}

TEST(ModuleDict, KeysValuesItemsAndUpdateInOrder) {
  EXPECT_EQ(run("d = nn.ModuleDict({'b': nn.ReLU()})\nd['a'] = nn.Tanh()\n"
                "d.update([('c', nn.Identity())])\n"
                "print(list(d), len(d), 'a' in d, 'z' in d, [type(m).__name__ for m in "
                "d.values()])\n"
                "print([k for k, m in d.items()], type(d.pop('b')).__name__, list(d.keys()))\n"),
            "['b', 'a', 'c'] 3 True False ['ReLU', 'Tanh', 'Identity']\n"
            "['b', 'a', 'c'] ReLU ['a', 'c']\n");
}

TEST(ModuleDict, AddModuleChecksAsPyTorch) {
  EXPECT_EQ(error("d = nn.ModuleDict()\nd[1] = nn.ReLU()\n").message(),
            "TypeError: module name should be a string. Got int");
  EXPECT_EQ(error("d = nn.ModuleDict()\nd['a.b'] = nn.ReLU()\n").message(),
            "KeyError: 'module name can\\'t contain \".\", got: a.b'");
  EXPECT_EQ(error("d = nn.ModuleDict()\nd['keys'] = nn.ReLU()\n").message(),
            "KeyError: \"attribute 'keys' already exists\"");
  EXPECT_EQ(error("d = nn.ModuleDict()\nd['a'] = 3\n").message(),
            "TypeError: int is not a Module subclass");
  Error missing = error("d = nn.ModuleDict({'a': nn.ReLU()})\nm = d['b']\n");
  EXPECT_EQ(missing.message(), "KeyError: 'b'");
  EXPECT_EQ(missing.hint(), "its keys are 'a'");
  EXPECT_EQ(error("d = nn.ModuleDict(3)\n").message(),
            "TypeError: ModuleDict.update should be called with an iterable of key/value "
            "pairs, but got int");
  EXPECT_EQ(error("d = nn.ModuleDict([('a', nn.ReLU(), 1)])\n").message(),
            "ValueError: ModuleDict update sequence element #0 has length 3; 2 is required");
  EXPECT_EQ(error("d = nn.ModuleDict({'a': nn.ReLU()})\ny = d(torch.ones(1))\n").message(),
            "NotImplementedError: Module [ModuleDict] is missing the required \"forward\" "
            "function");
}

TEST(Containers, ExtendAndInsertRenumber) {
  EXPECT_EQ(run("l = nn.ModuleList([nn.ReLU()])\nl.extend([nn.Tanh(), nn.Identity()])\n"
                "l.insert(1, nn.Sigmoid())\n"
                "print([type(m).__name__ for m in l], type(l[3]).__name__)\n"),
            "['ReLU', 'Sigmoid', 'Tanh', 'Identity'] Identity\n");
  EXPECT_EQ(error("l = nn.ModuleList([nn.ReLU()])\nl.insert(5, nn.Tanh())\n").message(),
            "ModuleList.insert at index 5 of a container of 1 modules is not supported by d2s");
  EXPECT_EQ(error("l = nn.ModuleList()\nl.extend([1])\n").message(),
            "TypeError: int is not a Module subclass");
  EXPECT_EQ(error("s = nn.Sequential(OrderedDict([('a', nn.ReLU())]))\n"
                  "s.insert(0, nn.Tanh())\n")
                .message(),
            "KeyError: '0'");
}

TEST(Stdlib, SequentialOfAnOrderedDictNamesItsChildren) {
  EXPECT_EQ(run("s = nn.Sequential(OrderedDict([('fc', nn.Linear(2, 3)), ('act', nn.ReLU())]))\n"
                "print([n for n, p in s.named_parameters()], type(s.act).__name__, "
                "OrderedDict(a=1))\n"),
            "['fc.weight', 'fc.bias'] ReLU OrderedDict([('a', 1)])\n");
  EXPECT_EQ(error("s = nn.Sequential(OrderedDict([('a.b', nn.ReLU())]))\n").message(),
            "KeyError: 'module name can\\'t contain \".\", got: a.b'");
}

TEST(Stdlib, NamedtuplePartialItertoolsNumpy) {
  EXPECT_EQ(run("P = namedtuple('P', 'x, y')\np = P(1, y=2)\na, b = p\n"
                "print(p, p.y, p[0], a + b, P._fields, len(p), isinstance(p, tuple))\n"),
            "P(x=1, y=2) 2 1 3 ('x', 'y') 2 True\n");
  EXPECT_EQ(run("f = partial(max, 3)\ng = partial(round, ndigits=1)\n"
                "print(f(1), f(5), g(2.26), g(2.26, ndigits=0))\n"),
            "3 5 2.3 2.0\n");
  EXPECT_EQ(
      run("print(list(itertools.chain([1], (2, 3))), list(itertools.islice(range(9), 2, 7, 2)),"
          " list(itertools.accumulate([1, 2, 3])), list(itertools.repeat('a', 2)))\n"),
      "[1, 2, 3] [2, 4, 6] [1, 3, 6] ['a', 'a']\n");
  EXPECT_EQ(run("print(np.sqrt(4), np.prod((2, 3)), np.prod([2, 1.5]), float(np.float32(0.1)), "
                "np.int64(2.7))\n"),
            "2.0 6 3.0 0.10000000149011612 2\n");
  EXPECT_EQ(error("P = namedtuple('P', ['x', 'x'])\n").message(),
            "ValueError: Encountered duplicate field name: 'x'");
  EXPECT_EQ(error("P = namedtuple('P', ['_x'])\n").message(),
            "ValueError: Field names cannot start with an underscore: '_x'");
  EXPECT_EQ(error("f = partial(3)\n").message(), "TypeError: the first argument must be callable");
  EXPECT_EQ(error("r = list(itertools.repeat(1))\n").message(),
            "itertools.repeat is endless, and d2s evaluates this use of it whole");
  EXPECT_EQ(error("x = np.sqrt([1.0])\n").message(),
            "d2s implements np.sqrt of a Python number only, not of a list");
  // Names of the module d2s does not implement keep the foreign-module error.
  EXPECT_EQ(error("x = np.tile(3)\n").message(),
            "'numpy.tile' comes from the module 'numpy', which d2s does not implement (imported "
            "at line 6)");
}

TEST(Imports, ASubmoduleDoesNotShadowItsPackage) {
  // `import torch.utils.data` binds `torch`, the package (pytorch/examples' VAE has it
  // after `import torch`): torch stays usable; the submodule d2s lacks is an error only
  // where it is used.
  EXPECT_EQ(run_print("import torch\nimport torch.utils.data\nprint(torch.exp(torch.zeros(1)))\n"),
            "tensor([1.])\n");
  EXPECT_EQ(run_error("import torch.utils.data as tud\nx = tud.DataLoader\n").message(),
            "'torch.utils.data.DataLoader' comes from the module 'torch', which d2s does not "
            "implement (imported at line 1)");
}

}  // namespace
}  // namespace d2s::testing
