// Live parity with PyTorch: the number of prim::If / prim::Loop nodes in each
// sample's parsed graph against torch.jit.script's graph of the same program (run
// with /usr/bin/python3; fails when PyTorch is not installed).
//
// Where the counts differ, the table below says by how much and why; every other
// sample must match exactly.
#include <cstdio>
#include <fstream>
#include <map>

#include "convert/tests/lower_test_util.h"

namespace d2s::convert {
namespace {

const char* kScript = R"(
import ast, importlib.util, inspect, sys
import torch

def count(graph):
    c = {"prim::If": 0, "prim::Loop": 0}
    todo = [graph]
    while todo:
        b = todo.pop()
        for n in b.nodes():
            if n.kind() in c:
                c[n.kind()] += 1
            todo.extend(n.blocks())
    return c

for path in sys.argv[1:]:
    name = path.rsplit("/", 1)[-1][:-3]
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        m = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(m)
        tree = ast.parse(open(path).read())
        defs = [n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))]
        obj = getattr(m, defs[-1])
        g = torch.jit.script(obj() if inspect.isclass(obj) else obj).graph
        c = count(g)
        print(name, c["prim::If"], c["prim::Loop"])
    except Exception as e:  # a program TorchScript rejects
        print(name, "error")
)";

struct Delta {
  int ifs = 0;
  int loops = 0;
  const char* why = "";
};

// parse-route count minus torch.jit.script's count.
const std::map<std::string, Delta> kDifferences = {
    {"break_continue",
     {-2, 0,
      "TorchScript guards what follows each break/continue with an If; d2s lowers it into "
      "the If arm that does not exit, and folds `c ? True : False` to c"}},
    {"while_converge",
     {-1, 0,
      "`steps < 20` before the loop is constant (steps = 0): folded, TorchScript keeps the If"}},
    {"dynamic_model",
     {-1, 0, "`if self.training:` is decided at conversion (frozen module), as freezing does"}},
    {"training_flag",
     {-1, 0, "`if self.training:` is decided at conversion (frozen module), as freezing does"}},
};

const char* kSamples[] = {"foo1",         "foo2",           "rnn_cell",      "break_continue",
                          "early_return", "while_converge", "dynamic_model", "training_flag",
                          "mlp",          "module_helper",  "nested_ifs",    "print_branch",
                          "scalar_input", "shape_loop",     "slice_cat",     "tensor_iter",
                          "item_arith",   "layer_norm_gelu"};

TEST(LowerParity, IfAndLoopCountsMatchTorchScript) {
  // scripts/setup.sh installs Debian's python3-torch: a missing PyTorch fails, never skips.
  ASSERT_EQ(std::system("/usr/bin/python3 -c 'import torch' >/dev/null 2>&1"), 0)
      << "PyTorch is not installed for /usr/bin/python3 (run scripts/setup.sh's packages)";
  std::string script_path = ::testing::TempDir() + "d2s_count_script.py";
  std::ofstream(script_path) << kScript;
  std::string cmd = "/usr/bin/python3 " + script_path;
  std::vector<std::string> present;
  for (const char* s : kSamples) {
    std::ifstream probe(testing::sample_path(s));
    if (!probe) continue;  // samples come and go; only those present are compared
    present.push_back(s);
    cmd += " " + testing::sample_path(s);
  }
  cmd += " 2>/dev/null";
  std::map<std::string, std::pair<int, int>> torch_counts;
  FILE* pipe = popen(cmd.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  char buf[512];
  while (fgets(buf, sizeof buf, pipe)) {
    char name[256], a[32];
    int loops = 0;
    int fields = sscanf(buf, "%255s %31s %d", name, a, &loops);
    if (fields == 3) torch_counts[name] = {std::atoi(a), loops};
  }
  pclose(pipe);
  ASSERT_FALSE(torch_counts.empty()) << "the script printed nothing";

  for (const std::string& s : present) {
    auto it = torch_counts.find(s);
    if (it == torch_counts.end()) continue;  // TorchScript rejects the program
    LoweredGraph g = lower_file(testing::sample_path(s));
    int ifs = static_cast<int>(testing::count_kind(g.graph->block(), ir::kind::If));
    int loops = static_cast<int>(testing::count_kind(g.graph->block(), ir::kind::Loop));
    Delta d;
    if (auto k = kDifferences.find(s); k != kDifferences.end()) d = k->second;
    EXPECT_EQ(ifs, it->second.first + d.ifs)
        << s << ": d2s has " << ifs << " prim::If, torch.jit.script " << it->second.first
        << (d.ifs ? std::string(" (expected difference: ") + d.why + ")" : "");
    EXPECT_EQ(loops, it->second.second + d.loops)
        << s << ": d2s has " << loops << " prim::Loop, torch.jit.script " << it->second.second;
  }
  // The textbook's two functions are the reference: same structure exactly.
  EXPECT_EQ(torch_counts["foo1"], std::make_pair(1, 0));
  EXPECT_EQ(torch_counts["foo2"], std::make_pair(0, 1));
}

}  // namespace
}  // namespace d2s::convert
