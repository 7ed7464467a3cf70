// Limits end to end (docs/errors.md, "Limits"): an endless loop stops with a message
// naming the loop's line in every route, and each limit flag is honoured.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#ifndef D2S_BINARY
#error "D2S_BINARY must name the built d2s program"
#endif

namespace {

namespace fs = std::filesystem;

struct Result {
  int code = -1;
  std::string err;
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::string quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

class Limits : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("d2s_limits_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  void file(const std::string& name, const std::string& text) const {
    std::ofstream(dir_ / name, std::ios::binary) << text;
  }

  Result d2s(const std::vector<std::string>& args) const {
    std::string cmd = "cd " + quote(dir_.string()) + " && " + quote(D2S_BINARY);
    for (const auto& a : args) cmd += " " + quote(a);
    cmd += " >/dev/null 2>" + quote((dir_ / ".stderr").string()) + " </dev/null";
    int status = std::system(cmd.c_str());
    Result r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r.err = slurp(dir_ / ".stderr");
    return r;
  }

  fs::path dir_;
};

const char* kWhileTrue =
    "import torch\n"
    "\n"
    "\n"
    "def f(x):\n"
    "    while True:\n"
    "        x = x + 1\n"
    "    return x\n";

TEST_F(Limits, WhileTrueNamesTheLoopLineInEveryRoute) {
  file("loop.py", kWhileTrue);
  file("in.yaml", "x: {shape: [2], data: [1, 2]}\n");
  for (const char* mode : {"eager", "trace", "parse"}) {
    SCOPED_TRACE(mode);
    Result r =
        d2s({"run", "loop.py", "--inputs", "in.yaml", "--mode", mode, "--max-iterations", "500"});
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err.rfind("loop.py:5:5: error: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find("line 5"), std::string::npos) << r.err;
    // The source line is quoted with its own indentation after the 4-space margin.
    EXPECT_NE(r.err.find("\n        while True:\n        ^~~~~\n"), std::string::npos) << r.err;
  }
}

TEST_F(Limits, TensorElementsFlag) {
  file("big.py", "import torch\n\n\ndef f(x):\n    return torch.zeros(50, 50) + x\n");
  file("in.yaml", "x: {shape: [1], data: [1]}\n");
  Result r = d2s({"run", "big.py", "--inputs", "in.yaml", "--max-tensor-elements", "1000"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err.rfind("big.py:5:12: error: tensor of shape [50, 50] is too large", 0), 0u)
      << r.err;
  EXPECT_NE(r.err.find("--max-tensor-elements"), std::string::npos) << r.err;
  // Raised high enough, the same run succeeds.
  r = d2s({"run", "big.py", "--inputs", "in.yaml", "--max-tensor-elements", "2500"});
  EXPECT_EQ(r.code, 0) << r.err;
  // Inputs files obey it too.
  file("huge.yaml", "x: {shape: [100, 100], fill: zeros}\n");
  r = d2s({"run", "big.py", "--inputs", "huge.yaml", "--max-tensor-elements", "1000"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("huge.yaml:1:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--max-tensor-elements"), std::string::npos) << r.err;
  r = d2s({"run", "big.py", "--inputs", "in.yaml", "--max-tensor-elements", "0"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--max-tensor-elements"), std::string::npos) << r.err;
}

TEST_F(Limits, GraphNodesFlag) {
  file("m.py", "import torch\n\n\ndef f(x):\n    return (x + 1) * 2 - 3\n");
  file("in.yaml", "x: {shape: [1], data: [1]}\n");
  ASSERT_EQ(d2s({"parse", "m.py", "-o", "g.yaml"}).code, 0);
  Result r = d2s({"run", "g.yaml", "--inputs", "in.yaml", "--max-graph-nodes", "2"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err.rfind("g.yaml:", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("more than 2 nodes"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--max-graph-nodes"), std::string::npos) << r.err;
  r = d2s({"run", "g.yaml", "--inputs", "in.yaml"});
  EXPECT_EQ(r.code, 0) << r.err;
}

}  // namespace
