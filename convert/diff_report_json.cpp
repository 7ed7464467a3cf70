// The diff report as JSON (contract §4). Every field is documented in docs/diff.md;
// a field is added there first, then here.
#include "convert/diff_internal.h"
#include "convert/json_writer.h"

namespace d2s::convert {

namespace diff_detail {

namespace {

void write_value(JsonWriter& w, const IValue& v) {
  if (v.is_none()) {
    w.null();
  } else if (v.is_bool()) {
    w.value(v.to_bool());
  } else if (v.is_int()) {
    w.value(v.to_int());
  } else if (v.is_double()) {
    w.value(v.to_double());
  } else if (v.is_string()) {
    w.value(v.to_string());
  } else if (v.is_tensor() && v.to_tensor().defined()) {
    const Tensor& t = v.to_tensor();
    w.begin_object().key("shape").begin_array(true);
    for (int64_t d : t.shape()) w.value(d);
    w.end_array().key("dtype").value(dtype_name(t.dtype())).key("data").begin_array(true);
    for (int64_t i = 0; i < t.numel(); ++i) {
      if (t.dtype() == DType::Float32) {
        w.value_float32(t.data<float>()[i]);
      } else if (t.dtype() == DType::Int64) {
        w.value(t.data<int64_t>()[i]);
      } else {
        w.value(t.value_at(i) != 0);
      }
    }
    w.end_array().end_object();
  } else if (v.is_tuple() || v.is_list()) {
    w.begin_array();
    for (const IValue& item : v.items()) write_value(w, item);
    w.end_array();
  } else {
    w.value(v.repr());
  }
}

void write_values(JsonWriter& w, const ValueList& values) {
  w.begin_array();
  for (const IValue& v : values) write_value(w, v);
  w.end_array();
}

// The given set that proves a lost_branch / unrolled_loop wrong, or null.
void write_counterexample_set(JsonWriter& w, const Finding& f) {
  w.key("counterexample");
  if (f.counterexample) {
    w.value(*f.counterexample);
  } else {
    w.null();
  }
}

void write_finding(JsonWriter& w, const Finding& f) {
  w.begin_object();
  w.key("kind").value(finding_kind_name(f.kind));
  w.key("severity").value(severity_name(f.severity));
  w.key("line").value(f.range.line);
  w.key("column").value(f.range.col);
  switch (f.kind) {
    case FindingKind::LostBranch:
      w.key("taken").value(arm_name(f.taken));
      w.key("lost").value(arm_name(f.lost));
      w.key("lost_lines").begin_array(true);
      for (int l : f.lost_lines) w.value(l);
      w.end_array();
      w.key("test").value(f.test);
      w.key("elif").value(f.is_elif);
      w.key("expression").value(f.expression);
      write_counterexample_set(w, f);
      break;
    case FindingKind::UnrolledLoop:
      w.key("trips").value(f.trips);
      w.key("set_trips").begin_array(true);
      for (const std::optional<int64_t>& t : f.set_trips) {
        if (t) {
          w.value(*t);
        } else {
          w.null();
        }
      }
      w.end_array();
      write_counterexample_set(w, f);
      w.key("source").value(provenance_name(f.source));
      w.key("loop").value(f.is_while ? "while" : "for");
      break;
    case FindingKind::BakedValue:
    case FindingKind::ShapeSpecialized:
      w.key("what").value(f.what);
      w.key("value");
      write_value(w, f.value);
      w.key("conversion").value(f.conversion);
      if (f.kind == FindingKind::ShapeSpecialized) {
        w.key("symbols").begin_array(true);
        for (const std::string& s : f.symbols) w.value(s);
        w.end_array();
      }
      break;
    case FindingKind::DroppedSideEffect:
      w.key("op").value(f.op);
      if (!f.test.empty()) w.key("test").value(f.test);
      break;
  }
  w.key("message").value(f.message);
  w.key("fix").value(f.fix);
  w.end_object();
}

const char* arms_name(uint8_t arms) {
  switch (arms) {
    case kThen:
      return "then";
    case kElse:
      return "else";
    case kThen | kElse:
      return "both";
    default:
      return nullptr;
  }
}

void write_coverage(JsonWriter& w, const DiffReport& r) {
  w.begin_object();
  w.key("ifs").begin_array();
  for (const IfCoverage& c : r.ifs) {
    w.begin_object();
    w.key("line").value(c.range.line).key("column").value(c.range.col);
    w.key("statement")
        .value(c.is_assert    ? "assert"
               : c.expression ? "expression"
               : c.is_elif    ? "elif"
                              : "if");
    w.key("source").value(provenance_name(c.from));
    w.key("sets").begin_array(true);
    for (uint8_t a : c.arms) {
      if (const char* name = arms_name(a)) {
        w.value(name);
      } else {
        w.null();
      }
    }
    w.end_array().end_object();
  }
  w.end_array();
  w.key("loops").begin_array();
  for (const LoopCoverage& c : r.loops) {
    w.begin_object();
    w.key("line").value(c.range.line).key("column").value(c.range.col);
    w.key("loop").value(c.is_while ? "while" : "for");
    w.key("source").value(provenance_name(c.from));
    w.key("sets").begin_array();
    for (const TripCounts& t : c.trips) {
      if (!t.runs) {
        w.null();
        continue;
      }
      w.begin_object().key("runs").value(t.runs).key("min").value(t.min).key("max").value(t.max);
      w.end_object();
    }
    w.end_array().end_object();
  }
  w.end_array();
  w.end_object();
}

void write_counterexample(JsonWriter& w, const Counterexample& c) {
  w.begin_object();
  w.key("kind").value(finding_kind_name(c.kind));
  w.key("line").value(c.range.line).key("column").value(c.range.col);
  w.key("found").value(c.found).key("differs").value(c.differs).key("tries").value(c.tries);
  w.key("given").value(c.given);
  if (c.found) {
    w.key("base_set").value(c.base_set);
    w.key("how").value(c.how);
    w.key("changed").begin_array(true);
    for (const std::string& n : c.changed) w.value(n);
    w.end_array();
    w.key("inputs").begin_object();
    for (const auto& [name, v] : c.inputs) {
      w.key(name);
      write_value(w, v);
    }
    w.end_object();
    w.key("traced");
    if (c.traced_error.empty()) {
      write_values(w, c.traced);
    } else {
      w.null();
      w.key("traced_error").value(c.traced_error);
    }
    w.key("parsed");
    write_values(w, c.parsed);
    w.key("detail").value(c.detail);
  }
  w.end_object();
}

}  // namespace

void write_report_json(JsonWriter& w, const DiffReport& r) {
  w.begin_object();
  w.key("file").value(r.source ? r.source->path() : std::string());
  w.key("entry").value(r.entry);
  w.key("verdict").value(verdict_name(r.verdict()));
  w.key("trace_safe").value(r.trace_safe);
  w.key("lossy").value(r.lossy_count());
  w.key("info").value(r.findings.size() - r.lossy_count());
  w.key("input_sets").begin_array();
  for (const std::string& l : r.set_labels) w.value(l);
  w.end_array();
  w.key("outputs").begin_array(true);
  for (const std::string& n : r.output_names) w.value(n);
  w.end_array();
  w.key("parsed").begin_object();
  w.key("nodes").value(r.parsed.nodes).key("ifs").value(r.parsed.ifs);
  w.key("loops").value(r.parsed.loops).end_object();
  w.key("traced").begin_object();
  w.key("nodes").value(r.traced.nodes).key("guarded_nodes").value(r.traced.guarded_nodes);
  w.key("guards").value(r.traced.guards).end_object();
  w.key("findings").begin_array();
  for (const Finding& f : r.findings) write_finding(w, f);
  w.end_array();
  w.key("coverage");
  write_coverage(w, r);
  w.key("agreement").begin_array();
  for (const Agreement& a : r.agreement) {
    w.begin_object().key("set").value(a.set).key("agrees").value(a.agrees);
    w.key("guard_failed").value(a.guard_failed);
    if (a.line > 0) w.key("line").value(a.line);
    w.key("detail").value(a.detail).end_object();
  }
  w.end_array();
  w.key("counterexamples").begin_array();
  for (const Counterexample& c : r.counterexamples) write_counterexample(w, c);
  w.end_array();
  w.end_object();
}

}  // namespace diff_detail

std::string format_diff_json(const DiffReport& report) {
  JsonWriter w;
  diff_detail::write_report_json(w, report);
  return w.str();
}

}  // namespace d2s::convert
