// The reports: diff text and JSON (read back with yaml-cpp, which reads JSON), and
// check's text, JSON, GitHub annotations and JUnit XML.
#include <yaml-cpp/yaml.h>

#include <regex>
#include <sstream>

#include "convert/check.h"
#include "convert/json_writer.h"
#include "convert/tests/diff_test_util.h"

namespace d2s::convert {
namespace {

using testing::diff_sample;
using testing::quick;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(DiffReportJson, ContractFields) {
  DiffReport r = diff_sample("foo1", 0, quick(true));
  YAML::Node j = YAML::Load(format_diff_json(r));
  EXPECT_EQ(j["entry"].as<std::string>(), "foo1");
  EXPECT_EQ(j["verdict"].as<std::string>(), "lossy");
  EXPECT_FALSE(j["trace_safe"].as<bool>());
  EXPECT_EQ(j["lossy"].as<int>(), 1);
  EXPECT_EQ(j["parsed"]["nodes"].as<size_t>(), r.parsed.nodes);
  EXPECT_EQ(j["parsed"]["ifs"].as<int>(), 1);
  EXPECT_EQ(j["parsed"]["loops"].as<int>(), 0);
  EXPECT_EQ(j["traced"]["nodes"].as<size_t>(), r.traced.nodes);
  EXPECT_EQ(j["traced"]["guards"].as<int>(), 4);
  EXPECT_EQ(j["input_sets"].size(), 1u);
  EXPECT_EQ(j["outputs"][0].as<std::string>(), "s");

  const YAML::Node f = j["findings"][0];
  EXPECT_EQ(f["kind"].as<std::string>(), "lost_branch");
  EXPECT_EQ(f["severity"].as<std::string>(), "lossy");
  EXPECT_EQ(f["line"].as<int>(), 9);
  EXPECT_EQ(f["column"].as<int>(), 5);
  EXPECT_EQ(f["taken"].as<std::string>(), "then");
  EXPECT_EQ(f["lost"].as<std::string>(), "else");
  ASSERT_EQ(f["lost_lines"].size(), 1u);
  EXPECT_EQ(f["lost_lines"][0].as<int>(), 12);
  EXPECT_EQ(f["test"].as<std::string>(), "x < y");
  EXPECT_FALSE(f["elif"].as<bool>());
  EXPECT_TRUE(f["counterexample"].IsNull());  // one set: no given set takes the else side
  EXPECT_FALSE(f["message"].as<std::string>().empty());
  EXPECT_TRUE(contains(f["fix"].as<std::string>(), "d2s run --mode parse"));

  const YAML::Node cov = j["coverage"]["ifs"][0];
  EXPECT_EQ(cov["line"].as<int>(), 9);
  EXPECT_EQ(cov["statement"].as<std::string>(), "if");
  EXPECT_EQ(cov["source"].as<std::string>(), "data");
  EXPECT_EQ(cov["sets"][0].as<std::string>(), "then");
  EXPECT_TRUE(j["agreement"][0]["agrees"].as<bool>());
  EXPECT_FALSE(j["agreement"][0]["guard_failed"].as<bool>());

  const YAML::Node c = j["counterexamples"][0];
  EXPECT_EQ(c["kind"].as<std::string>(), "lost_branch");
  EXPECT_EQ(c["line"].as<int>(), 9);
  EXPECT_TRUE(c["found"].as<bool>());
  EXPECT_TRUE(c["differs"].as<bool>());
  EXPECT_FALSE(c["given"].as<bool>());
  EXPECT_EQ(c["how"].as<std::string>(), "x * 10");
  EXPECT_EQ(c["inputs"]["x"]["shape"][0].as<int>(), 1);
  EXPECT_FLOAT_EQ(c["inputs"]["x"]["data"][0].as<float>(), 5.0f);
  EXPECT_EQ(c["inputs"]["x"]["dtype"].as<std::string>(), "float32");
  EXPECT_FLOAT_EQ(c["traced"][0]["data"][0].as<float>(), 6.5f);
  EXPECT_FLOAT_EQ(c["parsed"][0]["data"][0].as<float>(), 2.25f);
}

TEST(DiffReportJson, EveryKindsFields) {
  YAML::Node j = YAML::Load(format_diff_json(diff_sample("scalar_input", 0)));
  const YAML::Node baked = j["findings"][0];
  EXPECT_EQ(baked["kind"].as<std::string>(), "baked_value");
  EXPECT_EQ(baked["what"].as<std::string>(), "n");
  EXPECT_EQ(baked["value"].as<int>(), 2);
  EXPECT_EQ(baked["conversion"].as<std::string>(), "input");
  const YAML::Node loop = j["findings"][2];
  EXPECT_EQ(loop["kind"].as<std::string>(), "unrolled_loop");
  EXPECT_EQ(loop["trips"].as<int>(), 2);
  EXPECT_EQ(loop["source"].as<std::string>(), "data");
  EXPECT_EQ(loop["loop"].as<std::string>(), "for");
  EXPECT_EQ(j["coverage"]["loops"][0]["sets"][0]["max"].as<int>(), 2);
  // All three sets: each set's count, and the first that differs as the counterexample.
  j = YAML::Load(format_diff_json(diff_sample("scalar_input")));
  const YAML::Node loops = j["findings"][2];
  ASSERT_EQ(loops["set_trips"].size(), 3u);
  EXPECT_EQ(loops["set_trips"][0].as<int>(), 2);
  EXPECT_EQ(loops["set_trips"][1].as<int>(), 5);
  EXPECT_EQ(loops["set_trips"][2].as<int>(), 0);
  EXPECT_EQ(loops["counterexample"].as<int>(), 1);
  EXPECT_EQ(j["verdict"].as<std::string>(), "lossy");
  // Two sets taking both sides of foo1's if: the given set 1 is the counterexample.
  j = YAML::Load(format_diff_json(diff_sample("foo1", -1, quick(true))));
  EXPECT_EQ(j["findings"][0]["counterexample"].as<int>(), 1);
  EXPECT_TRUE(j["counterexamples"][0]["given"].as<bool>());
  EXPECT_EQ(j["counterexamples"][0]["base_set"].as<int>(), 1);
  EXPECT_EQ(j["counterexamples"][0]["tries"].as<int>(), 0);
  EXPECT_TRUE(j["agreement"][1]["guard_failed"].as<bool>());
  EXPECT_EQ(j["agreement"][1]["line"].as<int>(), 9);

  j = YAML::Load(format_diff_json(diff_sample("print_branch", 0)));
  EXPECT_EQ(j["findings"][1]["kind"].as<std::string>(), "dropped_side_effect");
  EXPECT_EQ(j["findings"][1]["op"].as<std::string>(), "prim::Print");
  // Not reached by a set: null.
  j = YAML::Load(format_diff_json(diff_sample("nested_ifs")));
  EXPECT_TRUE(j["coverage"]["ifs"][1]["sets"][2].IsNull());
  EXPECT_EQ(j["coverage"]["ifs"][2]["statement"].as<std::string>(), "elif");
}

TEST(DiffReportJson, WriterEscapesAndNonFiniteNumbers) {
  JsonWriter w;
  w.begin_object().key("s").value("a \"q\" \\ \n\t\x01 é").key("nan").value(std::nan(""));
  w.key("xs").begin_array(true).value(1).value(2.5).end_array().key("e").begin_array();
  w.end_array().end_object();
  YAML::Node j = YAML::Load(w.str());
  EXPECT_EQ(j["s"].as<std::string>(), "a \"q\" \\ \n\t\x01 é");
  EXPECT_EQ(j["nan"].as<std::string>(), "nan");
  EXPECT_DOUBLE_EQ(j["xs"][1].as<double>(), 2.5);
  EXPECT_EQ(j["e"].size(), 0u);
}

TEST(DiffReportText, SaysWhatHappenedAndWhatToDo) {
  std::string text = format_diff_text(diff_sample("rnn_cell", 0, quick(true)));
  EXPECT_EQ(text.rfind(testing::sample_file("rnn_cell", ".py") + ": NOT TRACE-SAFE", 0), 0u)
      << text;
  EXPECT_TRUE(contains(text, "samples/rnn_cell.py:10:5: lost branch (lossy)\n")) << text;
  EXPECT_TRUE(contains(text, "    10 |     if h2h.mean() > w_x.mean():")) << text;
  EXPECT_TRUE(contains(text, "counterexample: set 0 with prev_h * -1")) << text;
  EXPECT_TRUE(contains(text, "    trace:  next_h = ")) << text;
  EXPECT_TRUE(contains(text, "    parsed: next_h = ")) << text;
  EXPECT_TRUE(contains(text, "fix: Keep both sides")) << text;
  EXPECT_TRUE(contains(text, "torch.where(")) << text;
  EXPECT_TRUE(contains(text, "coverage")) << text;

  text = format_diff_text(diff_sample("mlp"));
  EXPECT_TRUE(contains(text, ": TRACE-SAFE (entry MLP.forward, 2 input sets)")) << text;
  text = format_diff_text(diff_sample("foo1"));
  EXPECT_TRUE(contains(text, ": NOT TRACE-SAFE (entry foo1, 2 input sets)")) << text;
  EXPECT_FALSE(contains(text, "COVERAGE ONLY")) << text;
  EXPECT_TRUE(contains(text, "Set 1 is such an input")) << text;
  EXPECT_TRUE(contains(text, "counterexample: set 1, as given, run through the trace of set 0"))
      << text;
  EXPECT_TRUE(contains(text, "set 1 FAILS A GUARD")) << text;
  text = format_diff_text(diff_sample("foo2"));
  EXPECT_TRUE(contains(text, "samples/foo2.py:9:5: unrolled loop (info)")) << text;
  EXPECT_TRUE(contains(text, "fix: Nothing to fix.")) << text;
}

std::vector<CheckedModel> mlp_and_foo1() {
  std::vector<CheckedModel> models;
  models.push_back({"samples/mlp.py", diff_sample("mlp")});
  models.push_back({"samples/foo1.py", diff_sample("foo1", 0)});
  models.push_back({"samples/foo2.py", diff_sample("foo2")});
  return models;
}

TEST(CheckReport, SummaryAndExitCode) {
  auto models = mlp_and_foo1();
  EXPECT_EQ(check_summary(models), "check: 3 models, 2 trace-safe, 1 lossy (1 finding)");
  EXPECT_EQ(check_exit_code(models), 1);
  models.erase(models.begin() + 1);
  EXPECT_EQ(check_exit_code(models), 0);
  // Both sets of foo1: set 1 takes the side set 0's trace lost.
  std::vector<CheckedModel> both{{"samples/foo1.py", diff_sample("foo1")}};
  EXPECT_EQ(check_summary(both), "check: 1 model, 0 trace-safe, 1 lossy (1 finding)");
  EXPECT_EQ(check_exit_code(both), 1);
  // No lossy finding, but the guarded trace of set 0 cannot run set 1 (a split's length).
  std::vector<CheckedModel> split{
      {"split.py", testing::diff_source("import torch\n\n\ndef f(x):\n"
                                        "    return torch.stack(x.split(2)).sum(0)\n",
                                        {{{"x", testing::t({4}, {1, 2, 3, 4})}},
                                         {{"x", testing::t({6}, {1, 2, 3, 4, 5, 6})}}})}};
  EXPECT_EQ(check_summary(split), "check: 1 model, 0 trace-safe, 0 lossy, 1 disagrees");
  EXPECT_EQ(check_exit_code(split), 1);
  EXPECT_TRUE(contains(format_check_github(split),
                       "::warning file=split.py,line=5,title=d2s trace and parse disagree::"))
      << format_check_github(split);
}

TEST(CheckReport, Text) {
  std::string text = format_check_text(mlp_and_foo1());
  EXPECT_TRUE(contains(text, "PASS samples/mlp.py (entry MLP.forward, 2 input sets)\n")) << text;
  EXPECT_TRUE(contains(text, "FAIL samples/foo1.py (entry foo1, 1 input set, 1 lossy finding)\n"))
      << text;
  EXPECT_TRUE(contains(text, "  samples/foo1.py:9:5: lost_branch (lossy): `if x < y:`")) << text;
  EXPECT_TRUE(contains(text, "check: 3 models, 2 trace-safe, 1 lossy (1 finding)\n")) << text;
}

TEST(CheckReport, GithubAnnotations) {
  std::string text = format_check_github(mlp_and_foo1());
  std::istringstream in(text);
  const std::regex annotation(
      R"(::(warning|notice) file=[^,:]+,line=[0-9]+,col=[0-9]+,title=[^:,]+::[^\r\n]+)");
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), 3u) << text;  // foo1's lost branch, foo2's loop, the summary
  EXPECT_TRUE(std::regex_match(lines[0], annotation)) << lines[0];
  EXPECT_EQ(lines[0].rfind("::warning file=samples/foo1.py,line=9,col=5,title=d2s lost_branch "
                           "(lossy)::",
                           0),
            0u)
      << lines[0];
  EXPECT_TRUE(std::regex_match(lines[1], annotation)) << lines[1];
  EXPECT_EQ(lines[1].rfind("::notice file=samples/foo2.py,line=9,col=5,", 0), 0u) << lines[1];
  EXPECT_EQ(lines[2], check_summary(mlp_and_foo1()));
  EXPECT_EQ(github_escape("a:b,c%\nd", true), "a%3Ab%2Cc%25%0Ad");
  EXPECT_EQ(github_escape("a:b,c%\nd", false), "a:b,c%25%0Ad");
}

// A small XML well-formedness check: balanced tags, quoted attributes, no raw `<` or
// `&` in text (enough to catch an unescaped message).
::testing::AssertionResult well_formed(const std::string& xml, std::map<std::string, int>* counts) {
  std::vector<std::string> open;
  size_t i = xml.find("?>");
  if (xml.rfind("<?xml", 0) != 0 || i == std::string::npos) {
    return ::testing::AssertionFailure() << "no XML declaration";
  }
  for (i += 2; i < xml.size();) {
    if (xml[i] == '&') {
      size_t semi = xml.find(';', i);
      static const std::regex entity("&(amp|lt|gt|quot|apos);");
      if (semi == std::string::npos || !std::regex_match(xml.substr(i, semi - i + 1), entity)) {
        return ::testing::AssertionFailure() << "bad entity at " << i;
      }
      i = semi + 1;
      continue;
    }
    if (xml[i] != '<') {
      ++i;
      continue;
    }
    size_t end = xml.find('>', i);
    if (end == std::string::npos) return ::testing::AssertionFailure() << "unclosed tag";
    std::string tag = xml.substr(i + 1, end - i - 1);
    if (tag.find('<') != std::string::npos) return ::testing::AssertionFailure() << "raw <";
    const bool closing = tag[0] == '/';
    const bool empty = tag.back() == '/';
    std::string name = tag.substr(closing ? 1 : 0);
    name = name.substr(0, name.find_first_of(" /"));
    static const std::regex attrs(R"([A-Za-z:_-]+(\s+[A-Za-z_:-]+="[^"<]*")*\s*/?)");
    if (!closing && !std::regex_match(tag, attrs)) {
      return ::testing::AssertionFailure() << "bad tag <" << tag << ">";
    }
    if (closing) {
      if (open.empty() || open.back() != name) {
        return ::testing::AssertionFailure() << "</" << name << "> does not close its element";
      }
      open.pop_back();
    } else {
      ++(*counts)[name];
      if (!empty) open.push_back(name);
    }
    i = end + 1;
  }
  if (!open.empty()) return ::testing::AssertionFailure() << "<" << open.back() << "> not closed";
  return ::testing::AssertionSuccess();
}

TEST(CheckReport, JUnit) {
  std::vector<CheckedModel> models = mlp_and_foo1();
  models.push_back({"samples/print_<&>.py", diff_sample("print_branch")});
  const std::string xml = format_check_junit(models);
  std::map<std::string, int> counts;
  EXPECT_TRUE(well_formed(xml, &counts)) << xml;
  EXPECT_EQ(counts["testsuites"], 1);
  EXPECT_EQ(counts["testsuite"], 1);
  EXPECT_EQ(counts["testcase"], 4);
  // foo1: its lost branch; print_branch: two prints and the set it disagrees on.
  EXPECT_EQ(counts["failure"], 4);
  EXPECT_TRUE(contains(xml, "<testsuites name=\"d2s check\" tests=\"4\" failures=\"2\"")) << xml;
  EXPECT_TRUE(contains(xml, "name=\"samples/print_&lt;&amp;&gt;.py\"")) << xml;
  EXPECT_EQ(xml_escape("a<b>&\"'\x01"), "a&lt;b&gt;&amp;&quot;&apos;");
}

TEST(CheckReport, Json) {
  YAML::Node j = YAML::Load(format_check_json(mlp_and_foo1()));
  EXPECT_FALSE(j["passed"].as<bool>());
  EXPECT_EQ(j["summary"].as<std::string>(), "check: 3 models, 2 trace-safe, 1 lossy (1 finding)");
  ASSERT_EQ(j["models"].size(), 3u);
  EXPECT_EQ(j["models"][1]["model"].as<std::string>(), "samples/foo1.py");
  EXPECT_FALSE(j["models"][1]["passed"].as<bool>());
  EXPECT_EQ(j["models"][1]["report"]["findings"][0]["kind"].as<std::string>(), "lost_branch");
}

}  // namespace
}  // namespace d2s::convert
