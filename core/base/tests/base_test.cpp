// The base room: diagnostics with source ranges, text helpers and number formatting.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "core/base/error.h"
#include "core/base/number_format.h"
#include "core/base/source.h"
#include "core/base/text.h"

namespace d2s {
namespace {

std::shared_ptr<const SourceFile> file() {
  return std::make_shared<SourceFile>("dir/m.py", "x = 1\n\ty = f(x)\nlast");
}

TEST(Source, LinesAndRanges) {
  auto f = file();
  EXPECT_EQ(f->line_count(), 3);
  EXPECT_EQ(f->line_text(2), "\ty = f(x)");
  EXPECT_EQ(f->line_text(3), "last");
  SourceRange r(f, 2, 6, 4);
  EXPECT_EQ(r.file_name(), "m.py");
  EXPECT_TRUE(r.known());
  EXPECT_FALSE(SourceRange().known());
  SourceRange wide = SourceRange::span(SourceRange(f, 2, 2, 1), r);
  EXPECT_EQ(wide.line, 2);
  EXPECT_EQ(wide.col, 2);
  EXPECT_EQ(wide.len, 8);  // from `y` through `)`
}

TEST(Error, FormatsLocationSourceLineCaretAndHint) {
  Error e("no such name 'f'", SourceRange(file(), 2, 6, 1), "define f first");
  EXPECT_EQ(e.exit_code(), 2);
  // The caret keeps the tab of a tab-indented line so that it lines up.
  EXPECT_EQ(e.format(),
            "dir/m.py:2:6: error: no such name 'f'\n"
            "    \ty = f(x)\n"
            "    \t    ^\n"
            "hint: define f first\n");
  Error wide("bad call", SourceRange(file(), 2, 6, 4));
  EXPECT_NE(wide.format().find("^~~~\n"), std::string::npos) << wide.format();
  EXPECT_EQ(Error("plain").format(), "error: plain\n");
}

TEST(Text, QuotingAndNearMisses) {
  EXPECT_EQ(quote_string("a\"b\\c\n\x01"), "\"a\\\"b\\\\c\\n\\x01\"");
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(did_you_mean("hiden", {"hidden", "output"}), "did you mean 'hidden'? ");
  EXPECT_EQ(did_you_mean("zzzzzz", {"hidden", "output"}), "");
  EXPECT_EQ(join_names({"a", "b", "c"}), "a, b, c");
}

TEST(NumberFormat, ShortestTextReadsBackExactly) {
  EXPECT_EQ(format_float32(0.1f), "0.1");
  EXPECT_EQ(format_float32(1e20f), "1.0e+20");
  EXPECT_EQ(format_float32(-0.0f), "-0.0");
  EXPECT_EQ(format_float32(INFINITY), ".inf");
  EXPECT_EQ(format_float64(1.0 / 3), "0.3333333333333333");
  // Every 4099th float32 bit pattern reads back bit-exactly.
  for (uint64_t bits = 0; bits <= 0xffffffffu; bits += 4099 * 4099) {
    uint32_t b = static_cast<uint32_t>(bits);
    float v;
    std::memcpy(&v, &b, sizeof v);
    if (!std::isfinite(v)) continue;
    const std::string s = format_float32(v);
    const float back = std::strtof(s.c_str(), nullptr);
    EXPECT_EQ(std::memcmp(&back, &v, sizeof v), 0) << s;
  }
}

}  // namespace
}  // namespace d2s
