// Inputs that fuzzing (docs/fuzzing.md) found to crash or hang the parser or the
// pipeline, kept under fuzz/regressions/ and replayed here in every build (the plain
// one, the sanitizer one and the fuzz one): each must end in a result or a d2s::Error.
// Files are picked by prefix: parse_* go to the parser, pipeline_* through every route
// as fuzz_pipeline runs them. (The YAML ones are replayed by
// core/io/tests/fuzz_regressions_test.cpp.)
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/base/source.h"
#include "fuzz/pipeline_routes.h"
#include "parse/parser.h"

namespace d2s::fuzz {
namespace {

namespace fs = std::filesystem;

// The files of `dir` (under the source folder) whose names start with `prefix`.
std::vector<fs::path> files_in(const fs::path& dir, const std::string& prefix) {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(fs::path(D2S_SOURCE_DIR) / dir)) {
    if (e.path().filename().string().rfind(prefix, 0) == 0) files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<fs::path> regressions(const std::string& prefix) {
  return files_in(fs::path("fuzz") / "regressions", prefix);
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(FuzzRegressions, ParserEndsInAnAstOrAnError) {
  for (const fs::path& p : regressions("parse_")) {
    SCOPED_TRACE(p.filename().string());
    auto file = std::make_shared<const SourceFile>(p.filename().string(), slurp(p));
    try {
      (void)parse_program(file);
    } catch (const Error& e) {
      EXPECT_FALSE(e.format().empty());
    }
  }
}

TEST(FuzzRegressions, PipelineEndsInAResultOrAnErrorInEveryRoute) {
  // What fuzz_pipeline found (docs/fuzzing.md: reference cycles that leaked, which the
  // sanitizer build's leak check reports at exit), plus the programs of the limits
  // catalogue (an endless loop, deep recursion, a huge tensor, a long trace): under the
  // fuzz limits each must end, in every route, and free what it made.
  auto files = regressions("pipeline_");
  for (const fs::path& p : files_in(fs::path("tests") / "errors", "limit_")) {
    if (p.extension() == ".py") files.push_back(p);
  }
  ASSERT_GE(files.size(), 4u);
  set_pipeline_limits();
  for (const fs::path& p : files) {
    SCOPED_TRACE(p.filename().string());
    EXPECT_NO_THROW(run_every_route(slurp(p)));
  }
}

}  // namespace
}  // namespace d2s::fuzz
