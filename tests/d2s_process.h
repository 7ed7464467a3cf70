// The harness the end-to-end tests share: they run the built d2s program as a user
// does (a shell command line, a working folder, files in and out, an exit code)
// rather than linking cli/, so that what they check is what a user sees.
//
//   class Cli : public d2s::test::ScratchDirTest {
//    protected:
//     Cli() : ScratchDirTest("d2s_cli_test_") {}
//   };
//   TEST_F(Cli, Version) {
//     RunResult r = run_d2s(dir_, {"--version"},
//                           {.out = path(".o"), .err = path(".e"), .remove_after = true});
//     EXPECT_EQ(r.out, "d2s 0.1.0\n");
//   }
//
// D2S_BINARY (the program) and D2S_SOURCE_DIR (the source folder) come from
// tests/CMakeLists.txt.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#ifndef D2S_BINARY
#error "D2S_BINARY must name the built d2s program"
#endif
#ifndef D2S_SOURCE_DIR
#error "D2S_SOURCE_DIR must name the source folder"
#endif

namespace d2s::test {

namespace fs = std::filesystem;

// A whole file's bytes ("" if it cannot be read): outputs are compared byte for byte.
inline std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Writes `text` as the whole of the file at `p`, byte for byte.
inline void write_file(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
}

// `s` as one POSIX shell word: the program gets each argument exactly as the test
// wrote it, spaces and quotes included.
inline std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// What a run of d2s showed: its exit code (128 + the signal if a signal ended it, as a
// shell reports it) and the standard streams that were captured.
struct RunResult {
  int code = -1;
  std::string out, err;
};

// Where a run's standard streams go. An empty path sends the stream to /dev/null and
// leaves that field of RunResult empty. Standard input is always /dev/null, so a run
// that reads it sees end of file rather than waiting on the terminal.
struct RunStreams {
  fs::path out;
  fs::path err;
  // Remove the capture files once read, for tests that check which files a folder holds.
  bool remove_after = false;
};

// Runs d2s with `args` (each passed as one argument, no shell interpretation) in the
// folder `cwd`, as a user would from there.
inline RunResult run_d2s(const fs::path& cwd, const std::vector<std::string>& args,
                         const RunStreams& streams) {
  std::string cmd = "cd " + shell_quote(cwd.string()) + " && " + shell_quote(D2S_BINARY);
  for (const auto& a : args) cmd += " " + shell_quote(a);
  auto target = [](const fs::path& p) {
    return p.empty() ? std::string("/dev/null") : shell_quote(p.string());
  };
  cmd += " >" + target(streams.out) + " 2>" + target(streams.err) + " </dev/null";
  const int status = std::system(cmd.c_str());
  RunResult r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  auto capture = [&streams](const fs::path& p, std::string& text) {
    if (p.empty()) return;
    text = slurp(p);
    if (streams.remove_after) fs::remove(p);
  };
  capture(streams.out, r.out);
  capture(streams.err, r.err);
  return r;
}

// A test with its own empty scratch folder, dir_, made fresh before the test and removed
// after it: tests write their models and inputs there and d2s writes its outputs there,
// so tests never see each other's files. The folder's name holds the pid and the test's
// name, so parallel runs (ctest -j) do not collide.
class ScratchDirTest : public ::testing::Test {
 protected:
  // `prefix` starts the folder's name, e.g. "d2s_cli_test_".
  explicit ScratchDirTest(std::string prefix) : prefix_(std::move(prefix)) {}

  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           (prefix_ + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path path(const std::string& name) const { return dir_ / name; }
  // Writes the file `name` in dir_; returns its path.
  std::string file(const std::string& name, const std::string& text) const {
    write_file(path(name), text);
    return path(name).string();
  }

  fs::path dir_;

 private:
  std::string prefix_;
};

}  // namespace d2s::test
