// `d2s check`, the CI gate (contract §3): a model passes when its diff's verdict is
// `trace-safe`: no finding is lossy and the trace of its first input set, with its
// guards, runs and agrees with its parsed graph on every set. The reports (check_report.cpp) for
// people, tools, GitHub and JUnit:
//
//   text    PASS/FAIL per model, its findings one per line, then a summary line
//   json    {"passed", "summary", "models": [{"model", "passed", "report": <diff json>}]}
//   github  one workflow annotation per finding (`::warning` for lossy findings, where
//           the failing exit code already stops the job; `::notice` for info ones)
//   junit   <testsuites><testsuite><testcase> per model, one <failure> per lossy
//           finding and per input set the graphs disagree on
//
// docs/ci.md shows a GitHub Actions job using them.
#pragma once

#include <string>
#include <vector>

#include "convert/diff.h"

namespace d2s::convert {

struct CheckedModel {
  std::string model;  // the path as given on the command line
  DiffReport report;

  bool passed() const { return report.verdict() == Verdict::TraceSafe; }
};

// "check: 2 models, 1 trace-safe, 1 lossy (3 findings)" (and ", 1 disagrees" for
// models without lossy findings whose graphs differ on some set).
std::string check_summary(const std::vector<CheckedModel>& models);
// 0 when every model passed, 1 otherwise.
int check_exit_code(const std::vector<CheckedModel>& models);

std::string format_check_text(const std::vector<CheckedModel>& models);
std::string format_check_json(const std::vector<CheckedModel>& models);
std::string format_check_github(const std::vector<CheckedModel>& models);
std::string format_check_junit(const std::vector<CheckedModel>& models);

// For the GitHub formats: `%`, CR and LF escaped (and, in a property, `:` and `,`).
std::string github_escape(const std::string& text, bool property);
// For XML text and attributes: & < > " ' escaped, characters XML 1.0 forbids dropped.
std::string xml_escape(const std::string& text);

}  // namespace d2s::convert
