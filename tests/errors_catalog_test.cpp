// The error catalogue (docs/errors.md) as tests: every case under tests/errors/ is a
// `<name>.expect` file naming the d2s command line to run (from the source folder) and
// what the user must see:
//
//   args:  run tests/errors/name_error.py --inputs tests/errors/x.inputs.yaml
//   exit:  2                      (1 for a failed guard or assertion)
//   error: <the first line of standard error, exactly>
//   caret: yes|no                 (a line of only `^~~~` under the source line)
//   hint:  <text the `hint: ` line contains>, or `-` for no hint
//
// A second test keeps the catalogue and the cases in sync: every case is documented
// (docs/errors.md names `tests/errors/<name>.expect`) and every documented case exists.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "d2s_process.h"

namespace {

namespace fs = std::filesystem;

const fs::path kSource = D2S_SOURCE_DIR;
const fs::path kCases = kSource / "tests" / "errors";

using d2s::test::RunResult;
using d2s::test::slurp;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The `key: value` lines of an .expect file (comments and blank lines skipped).
std::map<std::string, std::string> read_expect(const fs::path& p) {
  std::map<std::string, std::string> fields;
  for (const std::string& line : lines_of(slurp(p))) {
    if (line.empty() || line[0] == '#') continue;
    size_t colon = line.find(": ");
    if (colon == std::string::npos) continue;
    fields[line.substr(0, colon)] = line.substr(colon + 2);
  }
  return fields;
}

std::vector<std::string> case_names() {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(kCases)) {
    if (entry.path().extension() == ".expect") names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// Runs d2s with `args` (split on spaces; no case needs quoting) in the source folder.
RunResult run_d2s(const std::string& args, const fs::path& scratch) {
  std::vector<std::string> words;
  std::istringstream in(args);
  for (std::string w; in >> w;) words.push_back(w);
  return d2s::test::run_d2s(kSource, words,
                            {.out = {}, .err = scratch / "stderr", .remove_after = false});
}

class ErrorCase : public ::testing::TestWithParam<std::string> {};

TEST_P(ErrorCase, PrintsTheCataloguedMessage) {
  const std::string name = GetParam();
  auto expect = read_expect(kCases / (name + ".expect"));
  for (const char* key : {"args", "exit", "error", "caret", "hint"}) {
    ASSERT_TRUE(expect.count(key)) << name << ".expect has no '" << key << ":' line";
  }
  fs::path scratch =
      fs::temp_directory_path() / ("d2s_errors_" + name + "_" + std::to_string(::getpid()));
  fs::create_directories(scratch);
  RunResult r = run_d2s(expect["args"], scratch);
  fs::remove_all(scratch);
  SCOPED_TRACE("d2s " + expect["args"] + "\n" + r.err);

  EXPECT_EQ(r.code, std::stoi(expect["exit"]));
  std::vector<std::string> err = lines_of(r.err);
  ASSERT_FALSE(err.empty());
  EXPECT_EQ(err[0], expect["error"]);
  // One form for every message: `file:line:col: error: ` for what is located in a
  // file, `d2s: error: ` (or `file: error: `) for the rest.
  EXPECT_TRUE(std::regex_search(err[0], std::regex(R"(^\S+(:\d+:\d+)?: error: )")));
  bool located = std::regex_search(err[0], std::regex(R"(^\S+:\d+:\d+: error: )"));

  bool caret = false;
  for (size_t i = 1; i < err.size(); ++i) {
    if (std::regex_match(err[i], std::regex(R"( *\^~*)"))) {
      caret = true;
      // The caret sits under the quoted source line just above it.
      EXPECT_GE(i, 2u) << "a caret line needs the source line above it";
    }
  }
  EXPECT_EQ(caret ? "yes" : "no", expect["caret"]);
  if (located && expect["caret"] == "no") {
    ADD_FAILURE() << "a located message must show its line and a caret";
  }

  std::string hint;
  for (const std::string& line : err) {
    if (line.rfind("hint: ", 0) == 0) hint = line.substr(6);
  }
  if (expect["hint"] == "-") {
    EXPECT_EQ(hint, "");
  } else {
    EXPECT_NE(hint.find(expect["hint"]), std::string::npos) << "hint: " << hint;
  }
}

INSTANTIATE_TEST_SUITE_P(Catalogue, ErrorCase, ::testing::ValuesIn(case_names()),
                         [](const auto& info) { return info.param; });

TEST(ErrorCatalogue, EveryCaseIsDocumentedAndEveryEntryHasACase) {
  std::string doc = slurp(kSource / "docs" / "errors.md");
  ASSERT_FALSE(doc.empty());
  std::set<std::string> cases;
  for (const std::string& name : case_names()) {
    cases.insert(name);
    EXPECT_NE(doc.find("tests/errors/" + name + ".expect"), std::string::npos)
        << "docs/errors.md does not document the case " << name;
  }
  std::regex ref(R"(tests/errors/([A-Za-z0-9_]+)\.expect)");
  for (auto it = std::sregex_iterator(doc.begin(), doc.end(), ref); it != std::sregex_iterator();
       ++it) {
    EXPECT_TRUE(cases.count((*it)[1].str()))
        << "docs/errors.md names tests/errors/" << (*it)[1].str() << ".expect, which is missing";
  }
}

}  // namespace
