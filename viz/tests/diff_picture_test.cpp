// The diff picture and the HTML report built from real diffs of the samples: what is
// marked kept and lost, the formats, the links, the escaping, self-containment.
#include "viz/diff_picture.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>

#include "core/base/error.h"
#include "core/io/yaml_io.h"
#include "viz/html_report.h"
#include "viz/tests/viz_test_util.h"

namespace d2s::viz {
namespace {

using testing::count;
using testing::read_text;

// The diff of a sample on the first `max_sets` sets of its committed inputs file.
convert::DiffReport diff_sample(const std::string& name, size_t max_sets = 100) {
  const std::string rel = "samples/" + name;
  Program program =
      Program::from_string(read_text(std::string(D2S_SOURCE_DIR) + "/" + rel + ".py"), rel + ".py");
  const InputFile file =
      load_input_sets(std::string(D2S_SOURCE_DIR) + "/" + rel + ".inputs.yaml", 0);
  std::vector<convert::DiffInputSet> sets;
  for (size_t s = 0; s < file.sets.size() && s < max_sets; ++s) {
    convert::DiffInputSet set;
    set.label = rel + ".inputs.yaml:" + std::to_string(file.sets[s].range.line);
    for (const NamedInput& v : file.sets[s].values) set.inputs.emplace_back(v.name, v.value);
    sets.push_back(std::move(set));
  }
  convert::DiffOptions options;
  options.search = false;
  return convert::diff_program(program, sets, options);
}

// Well-formed XML, checked by Python's parser.
bool well_formed_xml(const std::string& text, const std::string& name) {
  const std::string path =
      (std::filesystem::temp_directory_path() / ("d2s_diff_picture_" + name)).string();
  std::ofstream(path, std::ios::binary) << text;
  const std::string cmd =
      "/usr/bin/python3 -c \"import xml.dom.minidom,sys; xml.dom.minidom.parse(sys.argv[1])\" " +
      path;
  const bool ok = std::system(cmd.c_str()) == 0;
  std::remove(path.c_str());
  return ok;
}

// The SVG text of the cluster with this id (up to the next cluster, node or edge).
std::string cluster_svg(const std::string& svg, const std::string& id) {
  const size_t at = svg.find("id=\"" + id + "\"");
  if (at == std::string::npos) return {};
  const size_t from = svg.find('>', at);  // past the cluster's own class
  const size_t end = std::min({svg.find("class=\"cluster", from), svg.find("class=\"node", from),
                               svg.find("class=\"edge", from)});
  return svg.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

TEST(DiffPicture, Foo1OnOneSetShowsTheLostBranchRedAndDashed) {
  const convert::DiffReport report = diff_sample("foo1", 1);
  ASSERT_FALSE(report.trace_safe);
  const std::string svg = render_diff(report, Format::Svg);
  EXPECT_TRUE(well_formed_xml(svg, "foo1.svg"));
  // Parsed graph left, the trace right, each in its frame.
  EXPECT_NE(svg.find("id=\"cluster_panel0\""), std::string::npos);
  EXPECT_NE(svg.find("id=\"cluster_panel1\""), std::string::npos);
  EXPECT_NE(svg.find("parsed graph (like torch.jit.script)"), std::string::npos);
  EXPECT_NE(svg.find("trace of set 0 (like torch.jit.trace)"), std::string::npos);
  EXPECT_NE(svg.find("NOT TRACE&#45;SAFE"), std::string::npos);
  // The then arm (x < y held for set 0) kept, in green; the else arm lost: red, dashed.
  const std::string then_arm = cluster_svg(svg, "cluster_p0_if0_then");
  const std::string else_arm = cluster_svg(svg, "cluster_p0_if0_else");
  ASSERT_FALSE(then_arm.empty()) << svg;
  ASSERT_FALSE(else_arm.empty()) << svg;
  EXPECT_NE(then_arm.find("stroke=\"#16a34a\""), std::string::npos) << then_arm;
  EXPECT_NE(then_arm.find("kept by the trace"), std::string::npos) << then_arm;
  EXPECT_EQ(then_arm.find("stroke-dasharray"), std::string::npos) << then_arm;
  EXPECT_NE(else_arm.find("stroke=\"#dc2626\""), std::string::npos) << else_arm;
  EXPECT_NE(else_arm.find("stroke-dasharray"), std::string::npos) << else_arm;
  EXPECT_NE(else_arm.find("LOST: no input set takes it"), std::string::npos) << else_arm;
}

TEST(DiffPicture, AnArmOnlyAnotherSetTakesIsLostWithThatSet) {
  const convert::DiffReport report = diff_sample("rnn_cell");
  const std::string svg = render_diff(report, Format::Svg);
  EXPECT_NE(svg.find("LOST: set 1 takes it"), std::string::npos);
  EXPECT_NE(svg.find("kept by the trace"), std::string::npos);
  EXPECT_NE(svg.find("NOT TRACE&#45;SAFE"), std::string::npos);
  EXPECT_EQ(svg.find("COVERAGE ONLY"), std::string::npos);
}

TEST(DiffPicture, BakedValuesAreMarkedAmberWithTheValue) {
  const convert::DiffReport report = diff_sample("item_arith");
  const std::string svg = render_diff(report, Format::Svg);
  EXPECT_NE(svg.find("baked by the trace: 3.0"), std::string::npos) << svg;  // .item()
  EXPECT_NE(svg.find("baked by the trace: 1<"), std::string::npos);          // int(...)
  EXPECT_NE(svg.find("a value the trace baked in"), std::string::npos);      // the legend
  EXPECT_EQ(render_diff(diff_sample("foo1"), Format::Svg).find("baked"), std::string::npos);
}

TEST(DiffPicture, UnrolledLoopIsMarkedAndFoldedInTheTrace) {
  const convert::DiffReport report = diff_sample("foo2");
  const std::string svg = render_diff(report, Format::Svg);
  EXPECT_NE(svg.find("unrolled ×10 in the trace"), std::string::npos) << svg;
  EXPECT_NE(svg.find(">×10<"), std::string::npos) << svg;       // the trace's folded run
  EXPECT_EQ(svg.find("kept by the trace"), std::string::npos);  // no if: no arm marks
}

TEST(DiffPicture, DotAndBitmapsAndLinks) {
  const convert::DiffReport report = diff_sample("foo1", 1);
  const std::string dot = render_diff(report, Format::Dot);
  EXPECT_EQ(dot.rfind("digraph", 0), 0u) << dot.substr(0, 80);
  EXPECT_EQ(count(dot, "subgraph cluster_panel"), 2u);
  EXPECT_NE(dot.find("rounded,filled,dashed"), std::string::npos);
  EXPECT_EQ(dot, render_diff(report, Format::Dot)) << "not deterministic";
  EXPECT_EQ(render_diff(report, Format::Png).substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  EXPECT_EQ(render_diff(report, Format::Pdf).substr(0, 5), "%PDF-");
  // Plain pictures carry no link classes; linked ones one per source line.
  EXPECT_EQ(dot.find("src_L"), std::string::npos);
  DiffPictureOptions linked;
  linked.link_source_lines = true;
  const std::string svg = render_diff(report, Format::Svg, linked);
  EXPECT_NE(svg.find("class=\"node src_L10\""), std::string::npos);    // s = x + y
  EXPECT_NE(svg.find("class=\"cluster src_L9\""), std::string::npos);  // the if
  EXPECT_NE(svg.find("class=\"cluster arm\""), std::string::npos);
}

TEST(DiffPicture, LongUnrolledLoopFoldsAndTheCapHolds) {
  // 3,000 iterations: a trace of about 6,000 nodes, drawn as one ×3,000 box.
  Program program = Program::from_string(
      "import torch\n\n\ndef f(x):\n    for i in range(3000):\n        x = x * 0.5 + 1.0\n"
      "    return x\n",
      "long.py");
  convert::DiffInputSet set;
  set.label = "in.yaml:1";
  set.inputs.emplace_back("x", IValue(Tensor::zeros({2}, DType::Float32)));
  convert::DiffOptions options;
  options.search = false;
  const convert::DiffReport report = convert::diff_program(program, {set}, options);
  ASSERT_GT(report.traced.nodes, 6000u);
  const auto start = std::chrono::steady_clock::now();
  const std::string svg = render_diff(report, Format::Svg);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_NE(svg.find(">×3,000<"), std::string::npos);
  EXPECT_NE(svg.find("unrolled ×3,000 in the trace"), std::string::npos);
  EXPECT_LT(seconds, 10.0);  // about 0.1 s in a Debug build
  // The node cap applies to each graph: past it, one note.
  DiffPictureOptions capped;
  capped.render.max_nodes = 3;
  capped.render.min_fold_repeats = 0;
  const std::string small = render_diff(report, Format::Svg, capped);
  EXPECT_NE(small.find("more nodes not drawn"), std::string::npos);
  EXPECT_LT(count(small, "class=\"node\""), 20u);
}

TEST(DiffPicture, ReportWithoutGraphsIsAnError) {
  EXPECT_THROW(render_diff(convert::DiffReport{}, Format::Svg), Error);
}

TEST(HtmlReport, SelfContainedWellFormedAndComplete) {
  const convert::DiffReport report = diff_sample("foo1", 1);
  const std::string page = html_diff_report(report);
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_TRUE(well_formed_xml(page, "foo1.html"));
  // Nothing fetched: no external scripts, styles, images or fonts.
  EXPECT_EQ(page.find("<link"), std::string::npos);
  EXPECT_EQ(page.find(" src="), std::string::npos);
  EXPECT_EQ(page.find("@import"), std::string::npos);
  EXPECT_EQ(page.find("url("), std::string::npos);
  EXPECT_EQ(std::regex_search(page, std::regex("href=\"(https?:)?//")), false);
  // The source, escaped, with the lost line marked and the finding's line tagged.
  EXPECT_NE(page.find("if x &lt; y:"), std::string::npos);
  EXPECT_EQ(page.find("if x < y:"), std::string::npos);
  EXPECT_TRUE(std::regex_search(
      page, std::regex("<span class=\"line lost\" id=\"m0-L12\" data-line=\"12\">")));
  EXPECT_TRUE(std::regex_search(page, std::regex("class=\"line finding\" id=\"m0-L9\"")));
  EXPECT_NE(page.find("data-first-line=\"9\""), std::string::npos);
  // The picture inline, its ids prefixed; the findings, coverage and sets tables.
  EXPECT_EQ(page.find("<?xml"), std::string::npos);
  EXPECT_NE(page.find("<svg"), std::string::npos);
  EXPECT_NE(page.find("id=\"m0-cluster_p0_if0_else\""), std::string::npos);
  EXPECT_NE(page.find("class=\"node src_L10\""), std::string::npos);
  EXPECT_NE(page.find("<tr class=\"finding lossy\">"), std::string::npos);
  EXPECT_NE(page.find(">lost_branch<"), std::string::npos);
  EXPECT_NE(page.find("<table class=\"coverage\">"), std::string::npos);
  EXPECT_NE(page.find("samples/foo1.inputs.yaml:2"), std::string::npos);
  EXPECT_NE(page.find("<script>//<![CDATA["), std::string::npos);
}

TEST(HtmlReport, AwkwardSourceTextIsEscapedEverywhere) {
  Program program = Program::from_string(
      "import torch\n\n\ndef f(x):\n    if x.sum() > 0:  # </script> & <b>\"q\"</b> ]]>\n"
      "        x = x + 1\n    return x\n",
      "we<ird>&.py");
  convert::DiffInputSet set;
  set.label = "in<1>.yaml:1";
  set.inputs.emplace_back("x", IValue(Tensor::full({2}, 1.0)));
  convert::DiffOptions options;
  options.search = false;
  const std::string page = html_diff_report(convert::diff_program(program, {set}, options));
  EXPECT_TRUE(well_formed_xml(page, "awkward.html"));
  EXPECT_EQ(page.find("</script> &"), std::string::npos);
  EXPECT_EQ(page.find("<b>"), std::string::npos);
  EXPECT_NE(page.find("# &lt;/script&gt; &amp; &lt;b&gt;&quot;q&quot;&lt;/b&gt; ]]&gt;"),
            std::string::npos);
  EXPECT_NE(page.find("we&lt;ird&gt;&amp;.py"), std::string::npos);
  EXPECT_NE(page.find("in&lt;1&gt;.yaml:1"), std::string::npos);
  EXPECT_EQ(count(page, "</script>"), 1u);  // the report's own
}

TEST(HtmlReport, CheckReportHasOneSectionPerModelWithUniqueIds) {
  std::vector<convert::CheckedModel> models;
  models.push_back({"samples/foo1.py", diff_sample("foo1", 1)});
  models.push_back({"samples/foo2.py", diff_sample("foo2")});
  const std::string page = html_check_report(models);
  EXPECT_TRUE(well_formed_xml(page, "check.html"));
  EXPECT_NE(page.find("d2s check: FAIL"), std::string::npos);
  EXPECT_NE(page.find("<section class=\"model\" id=\"m0\""), std::string::npos);
  EXPECT_NE(page.find("<section class=\"model\" id=\"m1\""), std::string::npos);
  std::set<std::string> ids;
  const std::regex id("\\sid=\"([^\"]+)\"");
  for (auto it = std::sregex_iterator(page.begin(), page.end(), id); it != std::sregex_iterator();
       ++it) {
    EXPECT_TRUE(ids.insert((*it)[1]).second) << "duplicate id " << (*it)[1];
  }
}

}  // namespace
}  // namespace d2s::viz
