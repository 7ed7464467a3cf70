// Programs that make reference cycles (a recursive nested function, an object holding
// itself, a module pointing back at its parent, a list in itself) free them: after a
// run the values alive are those of before it. Python's cycle collector does this;
// without core/tensor/gc.h each of these leaked what the cycle reached, inputs included.
#include <gtest/gtest.h>

#include "core/tensor/gc.h"
#include "trace/tests/test_util.h"

namespace d2s::testing {
namespace {

// Runs `src` twice (the first run makes any lazily built tables) and returns how many
// values the second left alive.
long nodes_left_by_second_run(const std::string& src) {
  (void)run_value(src);
  const size_t before = gc_live_nodes();
  (void)run_value(src);
  return static_cast<long>(gc_live_nodes()) - static_cast<long>(before);
}

TEST(CyclePrograms, RecursiveNestedFunction) {
  EXPECT_EQ(nodes_left_by_second_run(R"(
def f():
    def fact(n):
        return 1 if n <= 1 else n * fact(n - 1)
    return fact(5)
)"),
            0);
}

TEST(CyclePrograms, ObjectThatHoldsItselfAndChildThatHoldsItsParent) {
  EXPECT_EQ(nodes_left_by_second_run(R"(
import torch.nn as nn
class Node:
    def __init__(self):
        self.me = self
class Child(nn.Module):
    def __init__(self):
        super().__init__()
        self.parent = [None]
class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.child = Child()
        self.child.parent[0] = self
    def forward(self):
        n = Node()
        return 1
)"),
            0);
}

TEST(CyclePrograms, ContainersThatHoldThemselves) {
  EXPECT_EQ(nodes_left_by_second_run(R"(
def f():
    a = [1]
    a.append(a)
    d = {}
    d["d"] = d
    return len(a)
)"),
            0);
}

TEST(CyclePrograms, ACycleAModuleHoldsSurvivesEveryCall) {
  // call_entry collects after each call; the module's own cycle is still reachable.
  Program p = Program::from_string(R"(
import torch.nn as nn
class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.ring = [1]
        self.ring.append(self.ring)
    def forward(self):
        self.ring[0] = self.ring[1][1][0] + 1
        return self.ring[1][0]
)");
  RunOptions opts;
  EXPECT_EQ(p.run({}, opts).to_int(), 2);
  EXPECT_EQ(p.call_entry({}, opts).to_int(), 3);
  EXPECT_EQ(p.call_entry({}, opts).to_int(), 4);
}

}  // namespace
}  // namespace d2s::testing
