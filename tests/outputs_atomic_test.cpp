// Output files are written whole or not at all, and inputs are never written
// (contract §3): for every command that writes -o, a run that fails — in parsing, in
// running, or in a later input set — leaves an existing output byte for byte as it
// was, leaves no temporary file beside it, and leaves every input file's content and
// modification time unchanged. (tests/cli_test.cpp covers `run --mode eager`.)
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "d2s_process.h"

namespace {

namespace fs = std::filesystem;

using d2s::test::slurp;

class Outputs : public d2s::test::ScratchDirTest {
 protected:
  Outputs() : ScratchDirTest("d2s_outputs_test_") {}

  void SetUp() override {
    ScratchDirTest::SetUp();
    fs::create_directories(dir_ / "work");
  }

  // The test's files live in work/ (this hides ScratchDirTest::file).
  void file(const std::string& name, const std::string& text) const {
    d2s::test::write_file(dir_ / "work" / name, text);
  }

  // Runs d2s in work/ (standard streams kept outside it, so that work/ holds only
  // the files the test made and whatever d2s leaves there).
  int d2s(const std::vector<std::string>& args) const {
    return d2s::test::run_d2s(
               dir_ / "work", args,
               {.out = dir_ / "stdout", .err = dir_ / "stderr", .remove_after = false})
        .code;
  }
  std::string err() const { return slurp(dir_ / "stderr"); }

  struct Snapshot {
    std::string content;
    fs::file_time_type mtime;
  };
  std::map<std::string, Snapshot> snapshot() const {
    std::map<std::string, Snapshot> files;
    for (const auto& e : fs::directory_iterator(dir_ / "work")) {
      files[e.path().filename().string()] = {slurp(e.path()), fs::last_write_time(e.path())};
    }
    return files;
  }
  // Every file as it was (content and mtime), and no file more.
  void expect_unchanged(const std::map<std::string, Snapshot>& before) const {
    auto after = snapshot();
    for (const auto& [name, snap] : after) {
      EXPECT_TRUE(before.count(name)) << "d2s left " << name << " behind";
    }
    for (const auto& [name, snap] : before) {
      ASSERT_TRUE(after.count(name)) << name << " was removed";
      EXPECT_EQ(after.at(name).content, snap.content) << name << " was changed";
      EXPECT_TRUE(after.at(name).mtime == snap.mtime) << name << " was written";
    }
  }
};

const char* kOld = "previous contents\n";

TEST_F(Outputs, ParseFailureKeepsTheOldOutput) {
  file("bad.py", "import torch\n\n\ndef f(x):\n    return x +\n");
  for (const char* out : {"old.yaml", "old.txt"}) {
    file(out, kOld);
    auto before = snapshot();
    EXPECT_EQ(d2s({"parse", "bad.py", "-o", out}), 2);
    EXPECT_NE(err().find("bad.py:5:"), std::string::npos) << err();
    expect_unchanged(before);
  }
}

TEST_F(Outputs, TraceFailureKeepsTheOldOutput) {
  file("bad.py", "import torch\n\n\ndef f(x):\n    return torch.mm(x, x)\n");
  file("in.yaml", "x: {shape: [2, 3], data: [1, 2, 3, 4, 5, 6]}\n");
  file("old.yaml", kOld);
  auto before = snapshot();
  EXPECT_EQ(d2s({"trace", "bad.py", "--inputs", "in.yaml", "-o", "old.yaml"}), 2);
  EXPECT_NE(err().find("bad.py:5:"), std::string::npos) << err();
  expect_unchanged(before);
}

TEST_F(Outputs, RunFailureInEveryModeKeepsTheOldOutput) {
  // The second input set fails (mm of a 2x3 by itself): nothing of the first is written.
  file("m.py", "import torch\n\n\ndef f(x):\n    return torch.mm(x, x)\n");
  file("in.yaml",
       "- x: {shape: [2, 2], data: [1, 2, 3, 4]}\n"
       "- x: {shape: [2, 3], data: [1, 2, 3, 4, 5, 6]}\n");
  file("old.yaml", kOld);
  // Every mode fails in the mm (bad input, exit 2): the trace recorded on the first set
  // guards no size of `x` (none was baked), so the second set reaches the mm too.
  struct Failure {
    const char* mode;
    int code;
    const char* where;
  };
  for (const Failure& f : {Failure{"eager", 2, "m.py:5:"}, Failure{"trace", 2, "m.py:5:"},
                           Failure{"parse", 2, "m.py:5:"}}) {
    SCOPED_TRACE(f.mode);
    auto before = snapshot();
    EXPECT_EQ(d2s({"run", "m.py", "--inputs", "in.yaml", "--mode", f.mode, "-o", "old.yaml"}),
              f.code);
    EXPECT_NE(err().find(f.where), std::string::npos) << err();
    expect_unchanged(before);
  }
}

TEST_F(Outputs, GraphRunFailureKeepsTheOldOutputAndTheGraph) {
  file("m.py", "import torch\n\n\ndef f(x):\n    return torch.mm(x, x)\n");
  file("ok.yaml", "x: {shape: [2, 2], data: [1, 2, 3, 4]}\n");
  file("bad.yaml", "x: {shape: [2, 3], data: [1, 2, 3, 4, 5, 6]}\n");
  ASSERT_EQ(d2s({"parse", "m.py", "-o", "g.yaml"}), 0) << err();
  file("old.yaml", kOld);
  auto before = snapshot();
  EXPECT_EQ(d2s({"run", "g.yaml", "--inputs", "bad.yaml", "-o", "old.yaml"}), 2);
  expect_unchanged(before);
  // A successful run replaces the output and still writes no input.
  EXPECT_EQ(d2s({"run", "g.yaml", "--inputs", "ok.yaml", "-o", "old.yaml"}), 0) << err();
  EXPECT_NE(slurp(dir_ / "work" / "old.yaml"), kOld);
  before.erase("old.yaml");
  auto after = snapshot();
  after.erase("old.yaml");
  EXPECT_EQ(after.size(), before.size());
  for (const auto& [name, snap] : before) {
    EXPECT_EQ(after.at(name).content, snap.content) << name;
    EXPECT_TRUE(after.at(name).mtime == snap.mtime) << name;
  }
}

}  // namespace
