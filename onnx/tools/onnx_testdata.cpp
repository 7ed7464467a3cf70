// onnx_testdata DATA_DIR [--floor N] [--verbose]: runs every test of ONNX's backend test
// data under DATA_DIR (folders holding model.onnx) on d2s (onnx/testdata.h), prints
// how many ran, passed and were skipped (by the missing op or type), and exits 1 when
// a run test failed or fewer than N ran (the committed floor: the count only goes up).
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "onnx/testdata.h"

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  if (argc < 2) {
    std::cerr << "usage: onnx_testdata DATA_DIR [--floor N] [--verbose]\n";
    return 2;
  }
  long floor = 0;
  bool verbose = false;
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--floor" && i + 1 < argc) floor = std::stol(argv[++i]);
    if (a == "--verbose") verbose = true;
  }
  std::vector<fs::path> tests;
  for (const auto& e : fs::recursive_directory_iterator(argv[1])) {
    if (e.is_regular_file() && e.path().filename() == "model.onnx") {
      tests.push_back(e.path().parent_path());
    }
  }
  std::sort(tests.begin(), tests.end());
  long ran = 0, passed = 0, skipped = 0;
  std::map<std::string, long> skips;
  std::vector<std::string> failures;
  for (const fs::path& t : tests) {
    d2s::onnx_io::TestOutcome r = d2s::onnx_io::run_onnx_test(t.string());
    std::string name = t.parent_path().filename().string() + "/" + t.filename().string();
    if (r.kind == d2s::onnx_io::TestOutcome::Skipped) {
      ++skipped;
      ++skips[r.reason];
      if (verbose) std::cout << "skip " << name << ": " << r.reason << "\n";
      continue;
    }
    ++ran;
    if (r.kind == d2s::onnx_io::TestOutcome::Passed) {
      ++passed;
      if (verbose) std::cout << "pass " << name << "\n";
    } else {
      failures.push_back(name + ": " + r.reason);
    }
  }
  std::vector<std::pair<long, std::string>> by_count;
  for (const auto& [k, n] : skips) by_count.emplace_back(n, k);
  std::sort(by_count.rbegin(), by_count.rend());
  std::cout << "skipped, by what d2s lacks:\n";
  for (const auto& [n, k] : by_count) std::cout << "  " << n << "  " << k << "\n";
  for (const auto& f : failures) std::cout << "FAIL " << f << "\n";
  std::cout << "ONNX backend tests: " << tests.size() << " found, " << ran << " ran, " << passed
            << " passed, " << failures.size() << " failed, " << skipped << " skipped\n";
  if (!failures.empty()) return 1;
  if (ran < floor) {
    std::cout << "fewer tests ran than the committed floor of " << floor << "\n";
    return 1;
  }
  return 0;
}
