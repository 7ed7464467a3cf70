// The trace-vs-parse diff as a picture (`d2s diff MODEL.py --inputs IN.yaml -o X.svg`,
// contract §3): the parsed graph on the left with what the trace kept and what it lost
// marked, the trace of set 0 on the right, its unrolled iterations folded into ×N boxes.
//
//   convert::DiffReport report = convert::diff_program(program, sets);
//   std::string svg = viz::render_diff(report, viz::Format::Svg);
//
// On the parsed side (docs/render.md, "The diff picture", has the reasons):
//  * an `if` arm the drawn trace (set 0's) ran: green frame, bold, `kept by the trace`;
//  * an arm it did not run (a lost_branch finding): red, dashed frame on a pink fill,
//    with why — `LOST: set 1 takes it` (that set is the counterexample) or `LOST: no
//    input set takes it`;
//  * a loop the trace unrolled: violet frame (the colour of the trace's ×N boxes),
//    `unrolled ×N in the trace`;
//  * a print or assert the trace dropped: red dashed box, `dropped by the trace`;
//  * the `.item()` / `int()` / size a trace baked in: amber, `baked by the trace: 3.0`.
// On the trace's side, the ops that come from a kept arm's lines get the same green.
// The picture's heading is the verdict and the counts.
#pragma once

#include <string>
#include <vector>

#include "convert/diff.h"
#include "viz/render.h"

namespace d2s::viz {

struct DiffPictureOptions {
  RenderOptions render;  // node cap, folding, direction; its title and hooks are not used
  // Every node and If / Loop frame also gets the SVG class `src_L<line>` of its source
  // line, so that the HTML report can light up a line's nodes and a node's line.
  bool link_source_lines = false;
};

// Both graphs of `report` side by side. Throws d2s::Error (exit 2) when the report has
// no graphs or Graphviz fails.
std::string render_diff(const convert::DiffReport& report, Format format,
                        const DiffPictureOptions& options = {});

// "NOT TRACE-SAFE", "TRACE-SAFE BY COVERAGE ONLY" or "TRACE-SAFE", as the text report
// begins (convert/diff_report_text.cpp).
const char* diff_verdict(const convert::DiffReport& report);

// The source lines of the parsed graph's ops in `if` arms the drawn trace (set 0's)
// did not run, whether or not another set takes them: what the picture draws red.
std::vector<int> lines_lost_by_trace(const convert::DiffReport& report);

// `src_L12`: the class the linked picture gives the elements of source line 12.
std::string source_line_class(int line);

}  // namespace d2s::viz
