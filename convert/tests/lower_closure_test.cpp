// Functions kept in a module's attributes that close over the variables of the function
// that made them (minGPT's `m = self.mlp; self.mlpf = lambda x: ...` in __init__): the
// parse route reads those variables as the eager __init__ left them.
#include "convert/tests/lower_test_util.h"

namespace d2s::convert {
namespace {

using testing::lower_error;

const char* kMinGptMlp = R"(import math
import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, n_embd=8):
        super().__init__()
        self.mlp = nn.ModuleDict(dict(
            c_fc=nn.Linear(n_embd, 4 * n_embd),
            c_proj=nn.Linear(4 * n_embd, n_embd),
            act=nn.GELU(),
        ))
        m = self.mlp
        scale = 1.0 / math.sqrt(n_embd)
        shift = torch.full((n_embd,), 0.25)

        def inner(t):
            return m.act(m.c_fc(t)) * scale

        self.mlpf = lambda x: m.c_proj(inner(x)) + shift

    def forward(self, x):
        return x + self.mlpf(x)
)";

TEST(LowerClosure, AnAttributeLambdaReadsInitsVariables) {
  // The module by its state_dict name, a float, a tensor (frozen, as attributes are) and
  // a nested def closing over the same frame: the graph computes what eager mode does.
  testing::Differential d;
  d.options.entry = "Block";
  for (int64_t rows : {1, 3}) {
    std::vector<float> data(static_cast<size_t>(rows * 8));
    for (size_t i = 0; i < data.size(); ++i) data[i] = 0.1f * static_cast<float>(i) - 0.5f;
    EXPECT_TRUE(d.run_source(kMinGptMlp, {{"x", testing::t({rows, 8}, data)}})) << rows;
  }
  // The linear layers are the module's parameters, not constants.
  const std::string ir = testing::lower_and_print(kMinGptMlp, d.options);
  EXPECT_NE(ir.find("mlp.c_fc.weight"), std::string::npos) << ir;
}

// A module whose __init__ keeps `h`, an object the graph cannot hold, and `k`, a number,
// beside a lambda computing `body`.
std::string net_with_lambda(const std::string& body) {
  return "import torch\n"
         "import torch.nn as nn\n"
         "class Holder:\n"
         "    def __init__(self):\n"
         "        self.k = 2.0\n"
         "class Net(nn.Module):\n"
         "    def __init__(self):\n"
         "        super().__init__()\n"
         "        h = Holder()\n"
         "        k = 3.0\n"
         "        self.f = lambda x: " +
         body +
         "\n"
         "    def forward(self, x):\n"
         "        return self.f(x)\n";
}

TEST(LowerClosure, AValueTheGraphCannotHoldIsNamedWhenRead) {
  LowerOptions o;
  o.entry = "Net";
  // A closure may hold anything the function does not read.
  EXPECT_EQ(lower_error(net_with_lambda("x * k"), o), "");
  const std::string err = lower_error(net_with_lambda("x * h"), o);
  EXPECT_NE(err.find(":11:32: error: the parse route cannot use 'h' (a Holder, not one of the "
                     "module's submodules): a function kept in an attribute of 'Net' reads it "
                     "from the function that made it"),
            std::string::npos)
      << err;
}

}  // namespace
}  // namespace d2s::convert
