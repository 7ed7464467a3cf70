// Pictures of the samples: SVG structure, PNG/PDF bytes, golden DOT, errors captured.
#include "viz/render.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "convert/lower.h"
#include "core/base/error.h"
#include "viz/tests/viz_test_util.h"

namespace d2s::viz {
namespace {

using testing::count;
using testing::parsed;
using testing::read_text;

// Well-formed XML, checked by Python's parser (Debian's python3, which scripts/setup.sh
// installs with python3-torch).
void expect_well_formed_xml(const std::string& svg, const std::string& name) {
  const char* python = "/usr/bin/python3";
  const std::string path =
      (std::filesystem::temp_directory_path() / ("d2s_viz_" + name + ".svg")).string();
  std::ofstream(path, std::ios::binary) << svg;
  const std::string cmd =
      std::string(python) +
      " -c \"import xml.dom.minidom,sys; xml.dom.minidom.parse(sys.argv[1])\" " + path;
  EXPECT_EQ(std::system(cmd.c_str()), 0) << name << " is not well-formed XML";
  std::remove(path.c_str());
}

TEST(RenderSvg, Foo1ShowsTheIfWithBothArms) {
  auto g = parsed("foo1");
  std::string svg = render_graph(*g, Format::Svg);
  expect_well_formed_xml(svg, "foo1");
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  EXPECT_NE(svg.find("<title>foo1</title>"), std::string::npos);
  // The If and its arms are clusters; the label has the `if` line and where it is.
  EXPECT_NE(svg.find("id=\"cluster_if0\""), std::string::npos);
  EXPECT_NE(svg.find("id=\"cluster_if0_then\""), std::string::npos);
  EXPECT_NE(svg.find("id=\"cluster_if0_else\""), std::string::npos);
  EXPECT_NE(svg.find(">if x &lt; y<"), std::string::npos) << svg;
  EXPECT_NE(svg.find(">foo1.py:9<"), std::string::npos);
  // Ops by their short names, inputs and the output as their own nodes.
  EXPECT_NE(svg.find(">add<"), std::string::npos);
  EXPECT_NE(svg.find(">square<"), std::string::npos);
  EXPECT_NE(svg.find(">return<"), std::string::npos);
  for (const char* input : {">x<", ">y<", ">z<"}) EXPECT_NE(svg.find(input), std::string::npos);
  // Every op's source line is its tooltip.
  EXPECT_NE(svg.find("xlink:title=\"foo1.py:10: s = x + y\""), std::string::npos);
  EXPECT_NE(svg.find("xlink:title=\"foo1.py:12: s = torch.square(y)\""), std::string::npos);
  // Constants are written into their user's label, not drawn.
  EXPECT_EQ(svg.find("prim::Constant"), std::string::npos);
  EXPECT_EQ(svg.find(">constant<"), std::string::npos);
}

TEST(RenderSvg, Foo2ShowsTheLoopWithTripCountAndCarriedValue) {
  auto g = parsed("foo2");
  std::string svg = render_graph(*g, Format::Svg);
  expect_well_formed_xml(svg, "foo2");
  EXPECT_NE(svg.find("id=\"cluster_loop0\""), std::string::npos);
  EXPECT_NE(svg.find(">for i in range(10)<"), std::string::npos) << svg;
  EXPECT_NE(svg.find("10 trips"), std::string::npos);
  EXPECT_NE(svg.find("carries s"), std::string::npos);
  EXPECT_NE(svg.find(">next<"), std::string::npos);
  EXPECT_NE(svg.find("xlink:title=\"foo2.py:10: s += i\""), std::string::npos);
}

TEST(RenderSvg, RnnCellKeepsBothResults) {
  auto g = parsed("rnn_cell");
  std::string svg = render_graph(*g, Format::Svg);
  expect_well_formed_xml(svg, "rnn_cell");
  EXPECT_NE(svg.find(">return 0<"), std::string::npos);
  EXPECT_NE(svg.find(">return 1<"), std::string::npos);
  EXPECT_NE(svg.find(">mm<"), std::string::npos);
  EXPECT_NE(svg.find("id=\"cluster_if0_then\""), std::string::npos);
  // The else arm only forwards h2h: it still shows what it yields.
  EXPECT_NE(svg.find("→ h2h"), std::string::npos);
}

TEST(RenderSvg, TracedGuardsAreMarkedWithExpressionAndValue) {
  auto g = testing::traced(
      "import torch\ndef f(x, y):\n    if x.sum() > y.sum():\n        return x * 2\n    return y\n",
      {{"x", IValue(Tensor::full({2}, 3.0f))}, {"y", IValue(Tensor::full({2}, 1.0f))}});
  std::string svg = render_graph(*g, Format::Svg);
  expect_well_formed_xml(svg, "guards");
  EXPECT_NE(svg.find(">guard<"), std::string::npos);
  EXPECT_NE(svg.find("x.sum() &gt; y.sum()"), std::string::npos);
  EXPECT_NE(svg.find("seen True"), std::string::npos);
  EXPECT_NE(svg.find("#fef3c7"), std::string::npos);  // the guard colour
  // The conversions that only feed a guard are drawn as part of it.
  EXPECT_EQ(svg.find(">Bool<"), std::string::npos);
  EXPECT_EQ(svg.find(">size<"), std::string::npos);
}

TEST(RenderSvg, AwkwardTextIsEscaped) {
  // Markup characters, quotes, backslashes and non-ASCII text in constants and source
  // lines; a print without results. Any label Graphviz could not parse is an error.
  auto g = std::move(convert::lower_string("import torch\n"
                                           "def f(x):\n"
                                           "    print(\"a<b & \\\"c\\\" \\\\ é → <ok/>\", x)\n"
                                           "    assert x.sum() > -1e9, \"bad <input> & ]]> more\"\n"
                                           "    return x\n")
                         .graph);
  std::string svg;
  ASSERT_NO_THROW(svg = render_graph(*g, Format::Svg));
  expect_well_formed_xml(svg, "awkward");
  EXPECT_NE(svg.find(">print<"), std::string::npos);
  EXPECT_NE(svg.find("&lt;b &amp;"), std::string::npos);
  std::string png;
  ASSERT_NO_THROW(png = render_graph(*g, Format::Png));
}

TEST(RenderBytes, PngAndPdfHaveTheirMagic) {
  auto g = parsed("rnn_cell");
  std::string png = render_graph(*g, Format::Png);
  ASSERT_GT(png.size(), 8u);
  EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  std::string pdf = render_graph(*g, Format::Pdf);
  EXPECT_EQ(pdf.substr(0, 5), "%PDF-");
}

TEST(RenderDot, IsDeterministic) {
  auto a = parsed("rnn_cell");
  auto b = parsed("rnn_cell");
  EXPECT_EQ(render_graph(*a, Format::Dot), render_graph(*b, Format::Dot));
}

// Golden DOT of the parsed samples. D2S_UPDATE_GOLDEN=1 rewrites the files.
void expect_golden(const std::string& name) {
  auto g = parsed(name);
  const std::string dot = render_graph(*g, Format::Dot);
  const std::string path = std::string(D2S_SOURCE_DIR) + "/viz/tests/golden/" + name + ".dot";
  if (std::getenv("D2S_UPDATE_GOLDEN")) std::ofstream(path, std::ios::binary) << dot;
  const std::string golden = read_text(path);
  ASSERT_FALSE(golden.empty()) << "missing " << path << " (run with D2S_UPDATE_GOLDEN=1)";
  EXPECT_EQ(dot, golden) << "the DOT of " << name
                         << " changed; if that is intended, rerun with D2S_UPDATE_GOLDEN=1";
}

TEST(RenderDot, GoldenFoo1) {
  expect_golden("foo1");
}

TEST(RenderDot, GoldenFoo2) {
  expect_golden("foo2");
}

TEST(RenderErrors, GraphvizWarningsDoNotReachStderr) {
  auto g = parsed("foo1");
  RenderOptions o;
  o.hooks.node = [](const ir::Node&, ElementStyle& s) { s.attrs.set("shape", "no_such_shape"); };
  ::testing::internal::CaptureStderr();
  std::string svg = render_graph(*g, Format::Svg, o);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(err, "");
  EXPECT_NE(svg.find("<svg"), std::string::npos);
}

TEST(RenderErrors, GraphvizErrorsBecomeOneD2sError) {
  auto g = parsed("foo1");
  RenderOptions o;
  // A label Graphviz cannot parse: it would draw the node's name instead.
  o.hooks.node = [](const ir::Node&, ElementStyle& s) { s.attrs.set("label", "<B>unclosed"); };
  ::testing::internal::CaptureStderr();
  try {
    render_graph(*g, Format::Svg, o);
    ADD_FAILURE() << "expected a d2s::Error";
  } catch (const Error& e) {
    EXPECT_NE(e.message().find("Graphviz could not draw the svg"), std::string::npos)
        << e.message();
    EXPECT_NE(e.message().find("in label of node"), std::string::npos) << e.message();
    EXPECT_LT(e.message().size(), 1000u);  // one message, not one per node
    EXPECT_EQ(e.exit_code(), 2);
  }
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
  // Graphviz's error state does not leak into the next picture.
  EXPECT_NO_THROW(render_graph(*g, Format::Svg));
}

TEST(RenderFormat, FromExtension) {
  EXPECT_EQ(format_from_extension("a/b.svg"), Format::Svg);
  EXPECT_EQ(format_from_extension("B.PNG"), Format::Png);
  EXPECT_EQ(format_from_extension(".pdf"), Format::Pdf);
  EXPECT_EQ(format_from_extension("dot"), Format::Dot);
  EXPECT_EQ(format_from_extension("x.jpg"), std::nullopt);
  EXPECT_EQ(format_from_extension("dir.svg/file"), std::nullopt);
  EXPECT_STREQ(format_name(Format::Png), "png");
}

}  // namespace
}  // namespace d2s::viz
