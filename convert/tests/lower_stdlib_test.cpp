// The parse route's refusals of the standard-library pieces and nn.ModuleDict uses it
// cannot decide at conversion time (lower_stdlib.cpp, lower_module.cpp): each names
// the construct and the line, and the modes that run it.
#include "convert/tests/lower_test_util.h"

namespace d2s::convert {
namespace {

using testing::lower_error;

::testing::AssertionResult has(const std::string& msg, std::initializer_list<const char*> parts) {
  if (msg.empty()) return ::testing::AssertionFailure() << "no error";
  for (const char* p : parts) {
    if (msg.find(p) == std::string::npos) {
      return ::testing::AssertionFailure() << "'" << p << "' not in:\n" << msg;
    }
  }
  return ::testing::AssertionSuccess();
}

TEST(LowerStdlib, ModuleDictKeyMustBeKnown) {
  EXPECT_TRUE(has(lower_error("import torch\nimport torch.nn as nn\nclass M(nn.Module):\n"
                              "    def __init__(self):\n        super().__init__()\n"
                              "        self.d = nn.ModuleDict({'a': nn.ReLU()})\n"
                              "    def forward(self, x):\n"
                              "        k = 'a' if x.sum() > 0 else 'b'\n"
                              "        return self.d[k](x)\n"),
                  {"model.py:9:23: error: the key of an nn.ModuleDict must be a str known at "
                   "conversion time in the parse route",
                   "eager and trace modes run any key"}));
  EXPECT_TRUE(has(lower_error("import torch\nimport torch.nn as nn\nclass M(nn.Module):\n"
                              "    def __init__(self):\n        super().__init__()\n"
                              "        self.d = nn.ModuleDict({'a': nn.ReLU()})\n"
                              "    def forward(self, x):\n        return self.d['b'](x)\n"),
                  {"model.py:8:16: error: KeyError: 'b'"}));
}

TEST(LowerStdlib, RefusalsNameTheConstruct) {
  EXPECT_TRUE(has(lower_error("import torch\nimport numpy as np\ndef f(x):\n"
                              "    return x * np.sqrt(x.sum().item())\n"),
                  {"model.py:4:16: error: np.sqrt of a value known only when the graph runs is "
                   "not supported by the parse route",
                   "eager and trace modes run it"}));
  EXPECT_TRUE(has(lower_error("import torch\nimport itertools\ndef f(x):\n"
                              "    return list(itertools.chain([x], [x]))\n"),
                  {"model.py:4:17: error: 'itertools.chain' in converted code is not supported "
                   "by the parse route",
                   "eager and trace modes run it"}));
  EXPECT_TRUE(has(lower_error("import torch\nfrom collections import OrderedDict\ndef f(x):\n"
                              "    d = OrderedDict()\n    return x\n"),
                  {"'collections.OrderedDict' in converted code is not supported by the parse "
                   "route"}));
  // What is decided at conversion time lowers.
  EXPECT_EQ(lower_error("import torch\nimport numbers\nfrom functools import partial\n"
                        "def f(x):\n    g = partial(torch.add, alpha=2.0)\n"
                        "    return g(x, x) if isinstance(1.5, numbers.Real) else x\n"),
            "");
}

}  // namespace
}  // namespace d2s::convert
