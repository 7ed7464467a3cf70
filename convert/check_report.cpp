// The reports of `d2s check` (check.h): text, JSON, GitHub annotations, JUnit XML.
#include <sstream>

#include "convert/check.h"
#include "convert/diff_internal.h"
#include "convert/json_writer.h"

namespace d2s::convert {

namespace {

std::string plural(size_t n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// `foo1.py:9:5` with the path as the user gave it.
std::string where(const CheckedModel& m, const Finding& f) {
  return m.model + ":" + std::to_string(f.range.line) + ":" + std::to_string(f.range.col);
}

// One line per problem: `file:line:col: kind (severity): message`.
std::string finding_line(const CheckedModel& m, const Finding& f) {
  return where(m, f) + ": " + finding_kind_name(f.kind) + " (" + severity_name(f.severity) +
         "): " + f.message;
}

std::string disagreement_line(const CheckedModel& m, const Agreement& a) {
  const std::string label =
      a.set < m.report.set_labels.size() ? " (" + m.report.set_labels[a.set] + ")" : "";
  return m.model + ": the trace of set 0 and the parsed graph disagree on set " +
         std::to_string(a.set) + label + ": " + a.detail;
}

}  // namespace

std::string check_summary(const std::vector<CheckedModel>& models) {
  size_t safe = 0, lossy = 0, findings = 0, disagree = 0;
  for (const CheckedModel& m : models) {
    if (m.report.lossy_count()) {
      ++lossy;
      findings += m.report.lossy_count();
    } else if (!m.report.agrees()) {
      ++disagree;
    } else {
      ++safe;
    }
  }
  std::string s = "check: " + plural(models.size(), "model", "models") + ", " +
                  std::to_string(safe) + " trace-safe, " + std::to_string(lossy) + " lossy";
  if (lossy) s += " (" + plural(findings, "finding", "findings") + ")";
  if (disagree) s += ", " + std::to_string(disagree) + (disagree == 1 ? " disagrees" : " disagree");
  return s;
}

int check_exit_code(const std::vector<CheckedModel>& models) {
  for (const CheckedModel& m : models) {
    if (!m.passed()) return 1;
  }
  return 0;
}

std::string format_check_text(const std::vector<CheckedModel>& models) {
  std::ostringstream o;
  for (const CheckedModel& m : models) {
    const DiffReport& r = m.report;
    const size_t info = r.findings.size() - r.lossy_count();
    o << (m.passed() ? "PASS " : "FAIL ") << m.model << " (entry " << r.entry << ", "
      << plural(r.set_labels.size(), "input set", "input sets");
    if (r.lossy_count()) o << ", " << plural(r.lossy_count(), "lossy finding", "lossy findings");
    if (info) o << ", " << plural(info, "info finding", "info findings");
    o << ")\n";
    if (m.passed()) continue;
    for (const Finding& f : r.findings) {
      if (f.severity == Severity::Lossy) o << "  " << finding_line(m, f) << "\n";
    }
    for (const Agreement& a : r.agreement) {
      if (!a.agrees) o << "  " << disagreement_line(m, a) << "\n";
    }
  }
  if (check_exit_code(models)) {
    o << "hint: `d2s diff MODEL.py --inputs IN.yaml` explains each finding with a fix and a "
         "counterexample\n";
  }
  o << check_summary(models) << "\n";
  return o.str();
}

std::string format_check_json(const std::vector<CheckedModel>& models) {
  JsonWriter w;
  w.begin_object();
  w.key("passed").value(check_exit_code(models) == 0);
  w.key("summary").value(check_summary(models));
  w.key("models").begin_array();
  for (const CheckedModel& m : models) {
    w.begin_object();
    w.key("model").value(m.model);
    w.key("passed").value(m.passed());
    w.key("report");
    diff_detail::write_report_json(w, m.report);
    w.end_object();
  }
  w.end_array();
  w.end_object();
  return w.str();
}

std::string github_escape(const std::string& text, bool property) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '%':
        out += "%25";
        break;
      case '\r':
        out += "%0D";
        break;
      case '\n':
        out += "%0A";
        break;
      case ':':
        out += property ? "%3A" : ":";
        break;
      case ',':
        out += property ? "%2C" : ",";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string format_check_github(const std::vector<CheckedModel>& models) {
  std::ostringstream o;
  for (const CheckedModel& m : models) {
    for (const Finding& f : m.report.findings) {
      const bool lossy = f.severity == Severity::Lossy;
      const std::string title =
          std::string("d2s ") + finding_kind_name(f.kind) + " (" + severity_name(f.severity) + ")";
      o << (lossy ? "::warning " : "::notice ") << "file=" << github_escape(m.model, true)
        << ",line=" << f.range.line << ",col=" << f.range.col
        << ",title=" << github_escape(title, true)
        << "::" << github_escape(f.message + " Fix: " + f.fix, false) << "\n";
    }
    for (const Agreement& a : m.report.agreement) {
      if (a.agrees) continue;
      o << "::warning file=" << github_escape(m.model, true);
      if (a.line > 0) o << ",line=" << a.line;
      o << ",title=" << github_escape("d2s trace and parse disagree", true)
        << "::" << github_escape(disagreement_line(m, a), false) << "\n";
    }
  }
  o << check_summary(models) << "\n";
  return o.str();
}

std::string xml_escape(const std::string& text) {
  std::string out;
  for (char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        // XML 1.0 allows no control characters but tab, LF and CR.
        if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') break;
        out += ch;
    }
  }
  return out;
}

std::string format_check_junit(const std::vector<CheckedModel>& models) {
  size_t failed = 0;
  for (const CheckedModel& m : models) failed += m.passed() ? 0 : 1;
  std::ostringstream o;
  const std::string counts = " tests=\"" + std::to_string(models.size()) + "\" failures=\"" +
                             std::to_string(failed) + "\" errors=\"0\"";
  o << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  o << "<testsuites name=\"d2s check\"" << counts << ">\n";
  o << "  <testsuite name=\"d2s check\"" << counts << " skipped=\"0\">\n";
  for (const CheckedModel& m : models) {
    const DiffReport& r = m.report;
    o << "    <testcase classname=\"d2s.check\" name=\"" << xml_escape(m.model) << "\" file=\""
      << xml_escape(m.model) << "\">\n";
    for (const Finding& f : r.findings) {
      if (f.severity != Severity::Lossy) continue;
      o << "      <failure type=\"" << finding_kind_name(f.kind) << "\" message=\""
        << xml_escape(where(m, f) + ": " + finding_kind_name(f.kind)) << "\">"
        << xml_escape(finding_line(m, f) + "\nfix: " + f.fix) << "</failure>\n";
    }
    for (const Agreement& a : r.agreement) {
      if (a.agrees) continue;
      o << "      <failure type=\"disagreement\" message=\""
        << xml_escape(m.model + ": trace and parse disagree on set " + std::to_string(a.set))
        << "\">" << xml_escape(disagreement_line(m, a)) << "</failure>\n";
    }
    std::string out;
    for (const Finding& f : r.findings) {
      if (f.severity == Severity::Info) out += finding_line(m, f) + "\n";
    }
    if (!out.empty()) o << "      <system-out>" << xml_escape(out) << "</system-out>\n";
    o << "    </testcase>\n";
  }
  o << "  </testsuite>\n";
  o << "</testsuites>\n";
  return o.str();
}

}  // namespace d2s::convert
