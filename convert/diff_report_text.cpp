// The diff report for people: a verdict first, then each finding as `file:line:col`,
// the source line, what happened, a counterexample where one was found, and a fix;
// then which way each input set went, and whether the trace and the parsed graph
// agree on each set. A reader new to d2s should need nothing else.
#include <algorithm>
#include <sstream>

#include "convert/diff_internal.h"

namespace d2s::convert {

namespace diff_detail {

namespace {

std::string short_number(double v) {
  std::ostringstream s;
  s.precision(5);
  s << v;
  return s.str();
}

// Nested lists of a small tensor's values from `at` on, dims from `dim` on.
void nested(const Tensor& t, size_t dim, int64_t& at, std::string& out) {
  if (dim == t.shape().size()) {
    const double v = t.value_at(at++);
    std::string s = short_number(v);
    // As PyTorch prints floats: `9.`, not `9`, which would read as an integer.
    if (t.dtype() == DType::Float32 && s.find_first_of(".eEni") == std::string::npos) s += ".";
    out += s;
    return;
  }
  out += "[";
  for (int64_t i = 0; i < t.shape()[dim]; ++i) {
    if (i) out += ", ";
    nested(t, dim + 1, at, out);
  }
  out += "]";
}

}  // namespace

std::string short_value(const IValue& v) {
  if (v.is_tensor() && v.to_tensor().defined()) {
    const Tensor& t = v.to_tensor();
    if (t.numel() <= 12) {
      std::string out = "tensor(";
      int64_t at = 0;
      nested(t, 0, at, out);
      return out + ")";
    }
    std::string out = "Tensor" + shape_str(t.shape()) + " [";
    const int64_t shown = 6;
    for (int64_t i = 0; i < shown; ++i) out += (i ? ", " : "") + short_number(t.value_at(i));
    return out + ", ...]";
  }
  if (v.is_tuple() || v.is_list()) {
    std::string out = v.is_tuple() ? "(" : "[";
    for (size_t i = 0; i < v.items().size(); ++i) {
      out += (i ? ", " : "") + short_value(v.items()[i]);
    }
    return out + (v.is_tuple() ? ")" : "]");
  }
  return v.repr();
}

}  // namespace diff_detail

namespace {

using namespace diff_detail;

constexpr size_t kWidth = 100;

// Word-wraps `text` to kWidth columns, every line indented by `indent` spaces.
std::string wrap(const std::string& text, size_t indent) {
  std::istringstream words(text);
  std::string out, line, word;
  const std::string pad(indent, ' ');
  while (words >> word) {
    if (!line.empty() && pad.size() + line.size() + 1 + word.size() > kWidth) {
      out += pad + line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty()) out += pad + line + "\n";
  return out;
}

std::string plural(size_t n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string kind_words(const Finding& f) {
  switch (f.kind) {
    case FindingKind::LostBranch:
      return "lost branch";
    case FindingKind::UnrolledLoop:
      return "unrolled loop";
    case FindingKind::BakedValue:
      return "baked value";
    case FindingKind::DroppedSideEffect:
      return f.op == ir::kind::Print ? "dropped print" : "dropped assert";
    case FindingKind::ShapeSpecialized:
      return "shape specialized";
  }
  return "finding";
}

// `next_h = ..., loss = ...` after `label`; one output per line when that is too long.
std::string outputs_lines(const DiffReport& r, const std::string& label, const ValueList& values) {
  std::vector<std::string> items;
  for (size_t i = 0; i < values.size(); ++i) {
    const std::string name =
        i < r.output_names.size() ? r.output_names[i] : "output " + std::to_string(i);
    items.push_back(name + " = " + short_value(values[i]));
  }
  if (items.empty()) return label + "(no outputs)\n";
  std::string one = label;
  for (size_t i = 0; i < items.size(); ++i) one += (i ? ", " : "") + items[i];
  if (one.size() <= kWidth) return one + "\n";
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    out += (i ? std::string(label.size(), ' ') : label) + items[i] + "\n";
  }
  return out;
}

void write_counterexample(std::ostringstream& o, const DiffReport& r, const Counterexample& c) {
  if (!c.found && c.tries == 0) {
    o << "  counterexample: none searched (no input to vary)\n";
    return;
  }
  if (!c.found) {
    o << "  counterexample: none found in " << plural(static_cast<size_t>(c.tries), "try", "tries")
      << " (inputs of the given shapes: sign flips, scaling, shifts, random draws)\n";
    return;
  }
  if (c.given) {
    o << "  counterexample: set " << c.base_set << ", as given, run through the trace of set 0\n";
  } else {
    o << "  counterexample: set " << c.base_set << " with " << c.how << " (found after "
      << plural(static_cast<size_t>(c.tries), "try", "tries") << ")\n";
  }
  for (const std::string& name : c.changed) {
    for (const auto& [n, v] : c.inputs) {
      if (n == name) o << "    " << n << " = " << short_value(v) << "\n";
    }
  }
  if (!c.traced_error.empty()) {
    o << "    trace:  fails: " << c.traced_error << "\n";
  } else {
    o << outputs_lines(r, "    trace:  ", c.traced);
  }
  o << outputs_lines(r, "    parsed: ", c.parsed);
  if (!c.differs) {
    o << "    (it goes the lost way, but here both graphs happen to give the same answer)\n";
  } else if (!c.detail.empty()) {
    o << "    largest difference (trace vs parsed): " << c.detail << "\n";
  }
}

void write_finding(std::ostringstream& o, const DiffReport& r, const Finding& f) {
  const SourceRange& at = f.range;
  o << at.path() << ":" << at.line << ":" << at.col << ": " << kind_words(f) << " ("
    << severity_name(f.severity) << ")\n";
  if (at.file && at.known()) {
    std::string num = std::to_string(at.line);
    o << "  " << std::string(num.size() < 4 ? 4 - num.size() : 0, ' ') << num << " | "
      << at.file->line_text(at.line) << "\n";
  }
  o << wrap(f.message, 2);
  for (const Counterexample& c : r.counterexamples) {
    if (c.range.line == at.line && c.range.col == at.col && c.kind == f.kind) {
      write_counterexample(o, r, c);
    }
  }
  o << wrap("fix: " + f.fix, 2);
}

std::string arms_text(uint8_t arms) {
  switch (arms) {
    case kThen:
      return "then";
    case kElse:
      return "else";
    case kThen | kElse:
      return "both";
    default:
      return "-";
  }
}

std::string trips_text(const TripCounts& t) {
  if (!t.runs) return "-";
  std::string s =
      t.min == t.max ? std::to_string(t.min) : std::to_string(t.min) + "-" + std::to_string(t.max);
  return t.runs > 1 ? s + " (x" + std::to_string(t.runs) + ")" : s;
}

void write_coverage(std::ostringstream& o, const DiffReport& r) {
  if (r.ifs.empty() && r.loops.empty()) return;
  const size_t n = r.set_labels.size();
  std::vector<std::vector<std::string>> rows;
  for (const IfCoverage& c : r.ifs) {
    std::vector<std::string> row{(c.is_assert    ? "assert "
                                  : c.expression ? "if-expr "
                                  : c.is_elif    ? "elif "
                                                 : "if ") +
                                 std::to_string(c.range.line) + ":" + std::to_string(c.range.col)};
    for (uint8_t a : c.arms) row.push_back(arms_text(a));
    rows.push_back(std::move(row));
  }
  for (const LoopCoverage& c : r.loops) {
    std::vector<std::string> row{std::string(c.is_while ? "while " : "for ") +
                                 std::to_string(c.range.line) + ":" + std::to_string(c.range.col)};
    for (const TripCounts& t : c.trips) row.push_back(trips_text(t));
    rows.push_back(std::move(row));
  }
  std::vector<std::string> head{""};
  for (size_t s = 0; s < n; ++s) head.push_back("set " + std::to_string(s));
  std::vector<size_t> width(n + 1, 0);
  for (size_t i = 0; i <= n; ++i) width[i] = head[i].size();
  for (const auto& row : rows) {
    for (size_t i = 0; i < row.size() && i <= n; ++i) width[i] = std::max(width[i], row[i].size());
  }
  auto line = [&](const std::vector<std::string>& cells) {
    std::string s = " ";
    for (size_t i = 0; i < cells.size() && i <= n; ++i) {
      s += " " + cells[i] + std::string(width[i] - cells[i].size() + 1, ' ');
    }
    while (!s.empty() && s.back() == ' ') s.pop_back();
    o << s << "\n";
  };
  o << "\ncoverage (at each if the side each input set took, at each loop its trips; - = not "
       "reached):\n";
  line(head);
  for (const auto& row : rows) line(row);
}

void write_sets(std::ostringstream& o, const DiffReport& r) {
  o << "\ninput sets:";
  for (size_t s = 0; s < r.set_labels.size(); ++s) {
    o << (s ? "," : "") << " " << s << " = " << r.set_labels[s];
  }
  o << "\n";
  if (r.agreement.empty()) return;
  o << "trace of set 0 (with its guards) vs parsed graph:";
  for (const Agreement& a : r.agreement) {
    o << (a.set ? "," : "") << " set " << a.set
      << (a.agrees         ? " agrees"
          : a.guard_failed ? " FAILS A GUARD"
                           : " DIFFERS");
  }
  o << "\n";
  for (const Agreement& a : r.agreement) {
    if (!a.agrees) o << "  set " << a.set << ": " << a.detail << "\n";
  }
}

}  // namespace

std::string format_diff_text(const DiffReport& r) {
  std::ostringstream o;
  const size_t lossy = r.lossy_count();
  const size_t info = r.findings.size() - lossy;
  const std::string path = r.source ? r.source->path() : std::string("<model>");
  const std::string sets = plural(r.set_labels.size(), "input set", "input sets");
  std::vector<size_t> differ;
  for (const Agreement& a : r.agreement) {
    if (!a.agrees) differ.push_back(a.set);
  }
  if (lossy) {
    o << path << ": NOT TRACE-SAFE (entry " << r.entry << ", " << sets << ")\n";
    o << wrap("The trace of set 0 gives wrong answers or loses effects on some inputs: " +
                  plural(lossy, "lossy finding", "lossy findings") +
                  (info ? " and " + plural(info, "info finding", "info findings") : "") +
                  " below. Each says what to change.",
              0);
  } else if (!differ.empty()) {
    o << path << ": DISAGREES (entry " << r.entry << ", " << sets << ")\n";
    std::string which;
    for (size_t s : differ) which += (which.empty() ? "" : ", ") + std::to_string(s);
    o << wrap(
        "No finding is lossy, but the trace of set 0, with its guards, does not give the "
        "parsed graph's answers on set " +
            which + " (below). `d2s check` fails on this; use the parse route.",
        0);
  } else {
    o << path << ": TRACE-SAFE (entry " << r.entry << ", " << sets << ")\n";
    o << wrap(std::string("The trace keeps everything the parsed graph does") +
                  (r.agreement.empty() ? "" : " and agrees with it on every set") +
                  (info ? "; " + plural(info, "info finding", "info findings") +
                              " below (same answers, bigger graph)."
                        : "."),
              0);
  }
  o << "  parsed graph: " << plural(r.parsed.nodes, "node", "nodes") << ", "
    << plural(r.parsed.ifs, "if", "ifs") << ", " << plural(r.parsed.loops, "loop", "loops")
    << "; trace of set 0: " << plural(r.traced.nodes, "node", "nodes") << " ("
    << r.traced.guarded_nodes << " with its " << plural(r.traced.guards, "guard", "guards")
    << ")\n";
  for (const Finding& f : r.findings) {
    o << "\n";
    write_finding(o, r, f);
  }
  write_coverage(o, r);
  write_sets(o, r);
  return o.str();
}

}  // namespace d2s::convert
