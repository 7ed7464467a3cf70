// `@torch.compile` / `torch.compile(fn)` / `@torch.jit.script` in `d2s run` (issue 18):
// a compiled function runs by the parse route with gradients flowing into the eager
// training loop (same losses as the eager loop), one that cannot be lowered falls back
// to eager with one warning naming its line, and --explain lists both.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "d2s_process.h"

namespace {

using d2s::test::RunResult;

class Compile : public d2s::test::ScratchDirTest {
 protected:
  Compile() : ScratchDirTest("d2s_compile_test_") {}

  RunResult run(const std::string& program, std::vector<std::string> extra = {}) const {
    d2s::test::write_file(path("p.py"), program);
    std::vector<std::string> args = {"run", "p.py", "--entry", "<module>", "-o", "out.yaml"};
    args.insert(args.end(), extra.begin(), extra.end());
    return d2s::test::run_d2s(
        dir_, args, {.out = path(".stdout"), .err = path(".stderr"), .remove_after = true});
  }
};

size_t count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

TEST_F(Compile, CompiledForwardLowersAndTrainsLikeEager) {
  // The same loop from the same weights (the generator reseeded before each model is
  // built): once calling the model eagerly, once through a compiled function.
  const char* program = R"(import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.ones(8, 3) * 0.3
y = torch.ones(8, 1)
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
torch.manual_seed(0)
model2 = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))


@torch.compile
def forward(x):
    return model2(x)


opt1 = torch.optim.Adam(model.parameters(), lr=0.05)
opt2 = torch.optim.Adam(model2.parameters(), lr=0.05)
for step in range(5):
    opt1.zero_grad()
    l1 = F.mse_loss(model(x), y)
    l1.backward()
    opt1.step()
    opt2.zero_grad()
    l2 = F.mse_loss(forward(x), y)
    l2.backward()
    opt2.step()
    print(l1.item() == l2.item(), l2.item() < 10)
)";
  RunResult r = run(program, {"--explain"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(count(r.out, "True True\n"), 5u) << r.out;
  EXPECT_EQ(count(r.err, "warning"), 0u) << r.err;
  EXPECT_NE(r.err.find("forward (p.py:13): lowered by the parse route"), std::string::npos)
      << r.err;
}

TEST_F(Compile, UnlowerableBodyFallsBackOnceWithItsLine) {
  const char* program = R"(import torch
import torch.nn as nn

model = nn.Linear(3, 1)
x = torch.ones(4, 3)


@torch.compile
def loss_of(x):
    return nn.L1Loss()(model(x), torch.zeros(4, 1))


total = 0.0
for step in range(3):
    total += loss_of(x).item()
print(total > 0)
)";
  RunResult r = run(program, {"--explain"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "True\n");
  EXPECT_EQ(count(r.err, "warning: torch.compile: 'loss_of' cannot be lowered"), 1u) << r.err;
  EXPECT_NE(r.err.find("p.py:8:2: warning"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("p.py:10:12: creating L1Loss inside the converted code"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("loss_of (p.py:8): fell back to eager"), std::string::npos) << r.err;
}

TEST_F(Compile, JitScriptAndCompileCallForms) {
  const char* program = R"(import torch


@torch.jit.script
def double(x):
    return x * 2


def triple(x):
    return x * 3


fast = torch.compile(triple)
print(double(torch.ones(2)).sum().item(), fast(torch.ones(2)).sum().item())
)";
  RunResult r = run(program, {"--explain"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "4.0 6.0\n");
  EXPECT_EQ(count(r.err, "lowered by the parse route"), 2u) << r.err;
}

}  // namespace
