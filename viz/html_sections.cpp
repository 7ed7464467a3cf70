// One model's section of the HTML report: verdict, source beside the picture,
// findings, coverage, input sets and counterexamples (html_report.h says what each
// shows). Every text from the program or its inputs goes through esc().
#include <map>
#include <set>
#include <sstream>

#include "convert/check.h"
#include "convert/diff_internal.h"
#include "viz/html_parts.h"

namespace d2s::viz::html_parts {

namespace {

using convert::DiffReport;
using convert::Finding;
using convert::Severity;

std::string plural(size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string location(const DiffReport& r, const SourceRange& range) {
  const std::string path = r.source ? r.source->path() : std::string("model");
  const size_t slash = path.find_last_of('/');
  return (slash == std::string::npos ? path : path.substr(slash + 1)) + ":" +
         std::to_string(range.line) + ":" + std::to_string(range.col);
}

// A link that selects `line` in the source and the picture.
std::string goto_link(const std::string& id, int line, const std::string& text) {
  return "<a href=\"#" + id + "-L" + std::to_string(line) + "\" data-goto=\"" +
         std::to_string(line) + "\">" + esc(text) + "</a>";
}

// Graphviz's SVG without its XML prolog and doctype, every id prefixed with `id-`.
std::string inline_svg(const std::string& svg, const std::string& id) {
  const size_t start = svg.find("<svg");
  std::string body = start == std::string::npos ? svg : svg.substr(start);
  std::string out;
  out.reserve(body.size() + 1024);
  const std::string needle = " id=\"";
  size_t pos = 0;
  for (size_t hit = body.find(needle); hit != std::string::npos; hit = body.find(needle, pos)) {
    out.append(body, pos, hit + needle.size() - pos);
    out += id + "-";
    pos = hit + needle.size();
  }
  out.append(body, pos, std::string::npos);
  return out;
}

std::string source_pane(const DiffReport& r, const std::string& id) {
  std::set<int> lost;
  std::map<int, const Finding*> finding_at;  // the first finding on each line
  for (const Finding& f : r.findings) {
    if (f.kind == convert::FindingKind::LostBranch) {
      lost.insert(f.lost_lines.begin(), f.lost_lines.end());
    }
    finding_at.emplace(f.range.line, &f);
  }
  // Also what only other sets take: not in the drawn trace either.
  for (int line : lines_lost_by_trace(r)) lost.insert(line);
  std::ostringstream o;
  o << "<div class=\"pane source\"><h3>Source <span class=\"muted\">"
    << esc(r.source ? r.source->path() : "")
    << " · lost lines in red</span></h3><pre class=\"code\">";
  const int count = r.source ? r.source->line_count() : 0;
  for (int line = 1; line <= count; ++line) {
    std::string cls = "line";
    if (lost.count(line)) cls += " lost";
    auto f = finding_at.find(line);
    if (f != finding_at.end()) cls += " finding";
    o << "<span class=\"" << cls << "\" id=\"" << id << "-L" << line << "\" data-line=\"" << line
      << "\"><span class=\"ln\">" << line << "</span>" << esc(r.source->line_text(line));
    if (f != finding_at.end()) {
      const bool lossy = f->second->severity == Severity::Lossy;
      o << "<span class=\"tag" << (lossy ? "" : " info") << "\">"
        << convert::finding_kind_name(f->second->kind) << "</span>";
    }
    if (lost.count(line)) o << "<span class=\"tag\">not in the trace</span>";
    o << "</span>";
  }
  o << "</pre></div>";
  return o.str();
}

std::string picture_pane(const DiffReport& r, const std::string& id,
                         const DiffPictureOptions& options) {
  DiffPictureOptions linked = options;
  linked.link_source_lines = true;
  return "<div class=\"pane picture\"><h3>Parsed graph beside the trace of set 0 <span "
         "class=\"muted\">· click a node or a line to link them</span></h3>" +
         inline_svg(render_diff(r, Format::Svg, linked), id) + "</div>";
}

std::string findings_table(const DiffReport& r, const std::string& id) {
  std::ostringstream o;
  o << "<h3>Findings</h3>";
  if (r.findings.empty()) {
    std::string differ;
    for (const convert::Agreement& a : r.agreement) {
      if (!a.agrees) differ += (differ.empty() ? "" : ", ") + std::to_string(a.set);
    }
    o << "<p class=\"muted\">"
      << (differ.empty() ? "None: the trace keeps every branch and loop of the parsed graph."
                         : "None is lossy, but the trace of set 0, with its guards, does not "
                           "give the parsed graph's answers on set " +
                               differ + " (see the input sets below).")
      << "</p>";
    return o.str();
  }
  o << "<table class=\"findings\"><tr><th>where</th><th>kind</th><th>severity</th>"
       "<th>what happened</th><th>fix</th></tr>";
  for (const Finding& f : r.findings) {
    const char* sev = convert::severity_name(f.severity);
    o << "<tr class=\"finding " << sev << "\"><td class=\"mono\">"
      << goto_link(id, f.range.line, location(r, f.range)) << "</td><td>"
      << convert::finding_kind_name(f.kind) << "</td><td class=\"sev " << sev << "\">" << sev
      << "</td><td>" << esc(f.message) << "</td><td>" << esc(f.fix) << "</td></tr>";
  }
  o << "</table>";
  return o.str();
}

std::string set_headers(const DiffReport& r) {
  std::string h;
  for (size_t s = 0; s < r.set_labels.size(); ++s) h += "<th>set " + std::to_string(s) + "</th>";
  return h;
}

std::string coverage_table(const DiffReport& r, const std::string& id) {
  std::ostringstream o;
  o << "<h3>Coverage per input set</h3>";
  if (r.ifs.empty() && r.loops.empty()) {
    o << "<p class=\"muted\">No branch or loop decided by the inputs.</p>";
    return o.str();
  }
  o << "<table class=\"coverage\"><tr><th>where</th><th>statement</th>" << set_headers(r)
    << "</tr>";
  for (const convert::IfCoverage& c : r.ifs) {
    o << "<tr><td class=\"mono\">" << goto_link(id, c.range.line, location(r, c.range))
      << "</td><td><code>" << esc(r.source ? std::string(r.source->line_text(c.range.line)) : "")
      << "</code></td>";
    for (uint8_t arms : c.arms) {
      const char* text = arms == 3 ? "both" : arms == 1 ? "then" : arms == 2 ? "else" : "–";
      const char* cls = arms == 3   ? "arm-both"
                        : arms == 1 ? "arm-then"
                        : arms == 2 ? "arm-else"
                                    : "none";
      o << "<td class=\"" << cls << "\">" << text << "</td>";
    }
    o << "</tr>";
  }
  for (const convert::LoopCoverage& c : r.loops) {
    o << "<tr><td class=\"mono\">" << goto_link(id, c.range.line, location(r, c.range))
      << "</td><td><code>" << esc(r.source ? std::string(r.source->line_text(c.range.line)) : "")
      << "</code></td>";
    for (const convert::TripCounts& t : c.trips) {
      if (!t.runs) {
        o << "<td class=\"none\">–</td>";
      } else {
        o << "<td class=\"trips\">" << t.min;
        if (t.max != t.min) o << "–" << t.max;
        o << " trips</td>";
      }
    }
    o << "</tr>";
  }
  o << "</table>";
  return o.str();
}

std::string sets_table(const DiffReport& r) {
  std::ostringstream o;
  o << "<h3>Input sets</h3><table class=\"sets\"><tr><th>set</th><th>from</th>"
       "<th>trace of set 0 (with its guards) vs parsed graph</th></tr>";
  for (size_t s = 0; s < r.set_labels.size(); ++s) {
    o << "<tr><td>" << s << "</td><td class=\"mono\">" << esc(r.set_labels[s]) << "</td><td>";
    const convert::Agreement* a = nullptr;
    for (const convert::Agreement& x : r.agreement) {
      if (x.set == s) a = &x;
    }
    if (!a) {
      o << "<span class=\"muted\">not compared</span>";
    } else if (a->agrees) {
      o << "<span class=\"agrees\">agrees</span>";
    } else {
      o << "<span class=\"differs\">" << (a->guard_failed ? "FAILS A GUARD" : "DIFFERS")
        << "</span> " << esc(a->detail);
    }
    o << "</td></tr>";
  }
  o << "</table>";
  return o.str();
}

std::string values_table(const DiffReport& r, const convert::Counterexample& c) {
  std::ostringstream o;
  o << "<table class=\"outputs\"><tr><th>output</th><th>trace</th><th>parsed graph</th></tr>";
  const size_t n = std::max(c.traced.size(), c.parsed.size());
  for (size_t i = 0; i < n; ++i) {
    const std::string name =
        i < r.output_names.size() ? r.output_names[i] : "output " + std::to_string(i);
    o << "<tr><td class=\"mono\">" << esc(name) << "</td><td class=\"mono\">"
      << (i < c.traced.size() ? esc(convert::diff_detail::short_value(c.traced[i])) : "")
      << "</td><td class=\"mono\">"
      << (i < c.parsed.size() ? esc(convert::diff_detail::short_value(c.parsed[i])) : "")
      << "</td></tr>";
  }
  if (!c.traced_error.empty()) {
    o << "<tr><td colspan=\"3\">the trace could not run: " << esc(c.traced_error) << "</td></tr>";
  }
  o << "</table>";
  return o.str();
}

std::string counterexamples(const DiffReport& r, const std::string& id) {
  if (r.counterexamples.empty()) return {};
  std::ostringstream o;
  o << "<h3>Counterexamples</h3>";
  for (const convert::Counterexample& c : r.counterexamples) {
    o << "<div class=\"counterexample\"><h4>" << goto_link(id, c.range.line, location(r, c.range))
      << " " << convert::finding_kind_name(c.kind) << ": ";
    if (!c.found) {
      o << "no input going the other way found in " << plural(c.tries, "try", "tries")
        << "</h4></div>";
      continue;
    }
    if (c.given) {
      o << "set " << c.base_set << ", as given, takes another path — ";
    } else {
      o << "an input that takes another path, from set " << c.base_set << " (" << esc(c.how)
        << ") — ";
    }
    o << (c.differs ? "<span class=\"differs\">the graphs disagree</span>"
                    : "<span class=\"agrees\">the graphs agree</span>")
      << "</h4><div class=\"pair\"><table class=\"inputs\"><tr><th>input</th><th>value</th></tr>";
    for (const auto& [name, value] : c.inputs) {
      bool changed = false;
      for (const std::string& n : c.changed) changed = changed || n == name;
      o << "<tr><td class=\"mono\">" << esc(name) << "</td><td class=\"mono"
        << (changed ? " changed" : "") << "\">" << esc(convert::diff_detail::short_value(value))
        << "</td></tr>";
    }
    o << "</table>" << values_table(r, c) << "</div>";
    if (!c.detail.empty()) o << "<p>" << esc(c.detail) << "</p>";
    o << "</div>";
  }
  return o.str();
}

}  // namespace

std::string esc(std::string_view text) {
  return convert::xml_escape(std::string(text));
}

std::string model_section(const DiffReport& r, const std::string& id,
                          const DiffPictureOptions& options) {
  const char* verdict = diff_verdict(r);
  const char* verdict_class = r.lossy_count() ? "lossy" : !r.agrees() ? "disagrees" : "safe";
  int first_line = 0;
  for (const Finding& f : r.findings) {
    if (f.severity == Severity::Lossy) {
      first_line = f.range.line;
      break;
    }
  }
  if (!first_line) {  // else the first if the trace of set 0 holds one arm of
    for (const convert::IfCoverage& c : r.ifs) {
      if (!c.arms.empty() && c.arms[0] != 3 && c.arms[0] != 0) {
        first_line = c.range.line;
        break;
      }
    }
  }
  if (!first_line && !r.findings.empty()) first_line = r.findings.front().range.line;
  std::ostringstream o;
  o << "<section class=\"model\" id=\"" << id << "\" data-model=\""
    << esc(r.source ? r.source->path() : "") << "\" data-verdict=\"" << verdict << "\"";
  if (first_line) o << " data-first-line=\"" << first_line << "\"";
  o << "><h2><span class=\"verdict " << verdict_class << "\">" << verdict << "</span>"
    << esc(r.source ? r.source->path() : "model") << " <span class=\"muted\">entry " << esc(r.entry)
    << " · " << plural(r.set_labels.size(), "input set", "input sets") << " · "
    << plural(r.lossy_count(), "lossy finding", "lossy findings") << "</span></h2>";
  o << "<p class=\"muted\">parsed graph: " << plural(r.parsed.nodes, "node", "nodes") << ", "
    << plural(r.parsed.ifs, "if", "ifs") << ", " << plural(r.parsed.loops, "loop", "loops")
    << "; trace of set 0: " << plural(r.traced.nodes, "node", "nodes") << " ("
    << r.traced.guarded_nodes << " with its " << plural(r.traced.guards, "guard", "guards")
    << ")</p>";
  o << "<div class=\"panes\">" << source_pane(r, id) << picture_pane(r, id, options) << "</div>";
  o << findings_table(r, id) << coverage_table(r, id) << sets_table(r) << counterexamples(r, id);
  o << "</section>";
  return o.str();
}

}  // namespace d2s::viz::html_parts
