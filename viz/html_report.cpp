// The HTML report's page: head, style, the models' sections, the script.
#include "viz/html_report.h"

#include <sstream>

#include "viz/html_parts.h"

namespace d2s::viz {

namespace html_parts {

std::string page(const std::string& title, const std::string& body) {
  std::string o;
  o += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/>"
       "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>"
       "<meta name=\"generator\" content=\"d2s\"/><title>";
  o += esc(title);
  o += "</title><style>";
  o += kStyle;
  o += "</style></head><body>";
  o += body;
  // CDATA keeps the page well-formed XML; to an HTML parser the markers are comments.
  o += "<script>//<![CDATA[";
  o += kScript;
  o += "//]]></script></body></html>\n";
  return o;
}

}  // namespace html_parts

using html_parts::esc;

std::string html_diff_report(const convert::DiffReport& report, const DiffPictureOptions& options) {
  const std::string path = report.source ? report.source->path() : std::string("model");
  std::string body = "<header class=\"page\"><h1>d2s diff: " + esc(path) +
                     "</h1><p>what a trace (like torch.jit.trace) of the program loses against "
                     "its parsed graph (like torch.jit.script)</p></header><main>";
  body += html_parts::model_section(report, "m0", options);
  body += "</main>";
  return html_parts::page("d2s diff: " + path, body);
}

std::string html_check_report(const std::vector<convert::CheckedModel>& models,
                              const DiffPictureOptions& options) {
  const std::string summary = convert::check_summary(models);
  const bool passed = convert::check_exit_code(models) == 0;
  std::ostringstream body;
  body << "<header class=\"page\"><h1>d2s check: " << (passed ? "PASS" : "FAIL")
       << "</h1><p id=\"summary\">" << esc(summary) << "</p></header><main>";
  body << "<h3>Models</h3><table class=\"models\"><tr><th>model</th><th>result</th>"
          "<th>verdict</th><th>findings</th></tr>";
  for (size_t i = 0; i < models.size(); ++i) {
    const convert::CheckedModel& m = models[i];
    const size_t lossy = m.report.lossy_count();
    body << "<tr class=\"" << (m.passed() ? "info" : "lossy")
         << "\"><td class=\"mono\"><a href=\"#m" << i << "\">" << esc(m.model)
         << "</a></td><td class=\"sev " << (m.passed() ? "info\">PASS" : "lossy\">FAIL")
         << "</td><td>" << diff_verdict(m.report) << "</td><td>" << lossy << " lossy, "
         << m.report.findings.size() - lossy << " info</td></tr>";
  }
  body << "</table>";
  for (size_t i = 0; i < models.size(); ++i) {
    body << html_parts::model_section(models[i].report, "m" + std::to_string(i), options);
  }
  body << "</main>";
  return html_parts::page("d2s check: " + summary, body.str());
}

}  // namespace d2s::viz
