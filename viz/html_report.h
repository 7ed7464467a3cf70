// The HTML report (`d2s diff -o report.html`, `d2s check --format html -o report.html`,
// contract §3): one self-contained file a CI job keeps as an artifact. No network, no
// external assets: CSS and JavaScript are inline, the picture is inline SVG.
//
//   std::string page = viz::html_diff_report(report);           // one model
//   std::string page = viz::html_check_report(checked_models);  // many, with a summary
//
// Per model: the verdict and counts; the source with the lost lines highlighted beside
// the diff picture (viz/diff_picture.h); the findings table; the per-input coverage;
// the input sets and whether the trace agrees on each; the counterexamples with both
// graphs' outputs. Source lines and drawn nodes are linked both ways: click a line and
// its nodes light up; click a node and its line does. On load, the first lossy
// finding's line (else the first `if` the trace of set 0 holds one arm of) is
// selected, so the page opens on what matters.
//
// The page is well-formed XML as well as HTML (the script sits in a CDATA section), so
// that tests and tools can parse it with an XML parser.
#pragma once

#include <string>
#include <vector>

#include "convert/check.h"
#include "convert/diff.h"
#include "viz/diff_picture.h"

namespace d2s::viz {

// `options.link_source_lines` is always on in a report.
std::string html_diff_report(const convert::DiffReport& report,
                             const DiffPictureOptions& options = {});
std::string html_check_report(const std::vector<convert::CheckedModel>& models,
                              const DiffPictureOptions& options = {});

}  // namespace d2s::viz
