// Inputs that fuzzing (fuzz/, docs/fuzzing.md) found to crash or hang core/, kept under
// fuzz/regressions/ and replayed here: each must end in a result or a d2s::Error.
// Files are picked by prefix: inputs_yaml_* go to the inputs and weights readers,
// ir_yaml_* to the graph reader.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/base/source.h"
#include "core/io/graph_yaml.h"
#include "core/io/yaml_io.h"
#include "core/ir/verify.h"

namespace d2s {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> regressions(const std::string& prefix) {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(fs::path(D2S_SOURCE_DIR) / "fuzz" / "regressions")) {
    if (e.path().filename().string().rfind(prefix, 0) == 0) files.push_back(e.path());
  }
  return files;
}

std::shared_ptr<const SourceFile> load(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::make_shared<const SourceFile>(p.filename().string(),
                                            std::string(std::istreambuf_iterator<char>(in), {}));
}

TEST(FuzzRegressions, InputsYamlEndsInAResultOrAnError) {
  auto files = regressions("inputs_yaml_");
  EXPECT_FALSE(files.empty());
  for (const auto& p : files) {
    SCOPED_TRACE(p.string());
    auto file = load(p);
    try {
      (void)parse_input_sets(file, 0);
    } catch (const Error& e) {
      EXPECT_FALSE(e.message().empty());
    }
    try {
      (void)parse_weights(file, 0);
    } catch (const Error& e) {
      EXPECT_FALSE(e.message().empty());
    }
  }
}

TEST(FuzzRegressions, IrYamlEndsInAGraphOrAnError) {
  for (const auto& p : regressions("ir_yaml_")) {
    SCOPED_TRACE(p.string());
    try {
      auto graph = ir::graph_from_yaml(load(p));
      ir::verify(*graph);
    } catch (const Error& e) {
      EXPECT_FALSE(e.message().empty());
    }
  }
}

}  // namespace
}  // namespace d2s
