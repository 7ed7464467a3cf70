// From alignment to findings. Findings describe the trace of set 0, the trace a user
// would ship; the other sets are evidence (counterexamples) and coverage. The rules
// (docs/diff.md says the same for users):
//
//  * lost_branch: an aligned if (statement, or `a if c else b`) whose decision came
//    from data, a size or a scalar input, that set 0 reached and took one side of
//    (every time it reached it). The other side is lost, whatever other sets do: the
//    first other set that takes it is the finding's counterexample. Decisions on
//    Python constants (`if self.training:`) are folded by the parse route too: never
//    a finding. Ifs set 0 did not reach are inside a lost side (or a loop trip the
//    trace does not have): part of that finding.
//  * dropped_side_effect: every print() set 0's trace ran (a trace keeps none), and an
//    assert on data that held for set 0 (the trace drops the check).
//  * unrolled_loop: every loop set 0's trace ran; `source` is where its trip count
//    came from: the header's provenance, raised by the decisions inside its body when
//    the loop can stop early (break, return), and `data` when a scalar input sets it.
//    Lossy unless constant, and lossy whenever the sets' trip counts differ (the first
//    set whose count differs from set 0's is the counterexample).
//  * baked_value: a tensor value set 0's trace turned into a Python number (item, int,
//    float, bool, index, ...) where no if or loop statement used it (those are
//    reported as that statement), and every scalar input the parsed graph uses (a
//    trace bakes them).
//  * shape_specialized: the same for a size (x.shape[0]) that Python code used: the
//    trace holds the number, the parsed graph the symbol. Sizes that flow only into
//    tensor ops stay symbolic in both routes and are not reported; neither are the
//    input shapes a trace records.
//
// One finding per source location, lossy ones first within a line.
#include <algorithm>
#include <map>
#include <optional>
#include <sstream>

#include "convert/diff_internal.h"
#include "trace/tracer.h"

namespace d2s::convert::diff_detail {

std::string range_text(const SourceRange& r) {
  if (!r.file || !r.known()) return {};
  std::string_view line = r.file->line_text(r.line);
  const size_t start = static_cast<size_t>(std::max(r.col - 1, 0));
  if (start >= line.size()) return {};
  return std::string(line.substr(start, static_cast<size_t>(std::max(r.len, 1))));
}

std::string format_lines(const std::vector<int>& lines) {
  std::string out;
  for (size_t i = 0; i < lines.size();) {
    size_t j = i;
    while (j + 1 < lines.size() && lines[j + 1] == lines[j] + 1) ++j;
    if (!out.empty()) out += ", ";
    out += std::to_string(lines[i]);
    if (j > i) out += "-" + std::to_string(lines[j]);
    i = j + 1;
  }
  return out;
}

namespace {

constexpr const char* kParseRoute =
    "convert with the parse route (`d2s run --mode parse`, like torch.jit.script)";

std::string lines_phrase(const std::vector<int>& lines) {
  return (lines.size() == 1 ? "line " : "lines ") + format_lines(lines);
}

std::string times(int64_t n) {
  return n == 1 ? "once" : std::to_string(n) + " times";
}

// The statement's own text, trimmed (`if x < y:`), for messages.
std::string statement_text(const SourceRange& r) {
  if (!r.file || !r.known()) return {};
  std::string s(r.file->line_text(r.line));
  size_t b = s.find_first_not_of(" \t");
  size_t e = s.find_last_not_of(" \t\r");
  if (b == std::string::npos) return {};
  s = s.substr(b, e - b + 1);
  if (size_t hash = s.find("  #"); hash != std::string::npos) s = s.substr(0, hash);
  return s;
}

bool lost_block_raises(const AlignedIf& a, Arm lost) {
  const size_t idx = lost == Arm::Then ? 0 : 1;
  for (const ir::Node* n : a.nodes) {
    if (n->blocks().size() <= idx) continue;
    for (const ir::Node* inner : n->blocks()[idx]->nodes()) {
      if (inner->prim() == ir::Prim::RaiseException) return true;
    }
  }
  return false;
}

class FindingMaker {
 public:
  explicit FindingMaker(const FindingInputs& in) : in_(in), num_sets_(in.sets->size()) {}

  std::vector<Finding> run() {
    for (const AlignedIf& a : in_.alignment->ifs) branch(a);
    for (const AlignedLoop& l : in_.alignment->loops) loop(l);
    const TraceLog& traced = *in_.logs->front();  // set 0's: the trace the findings describe
    for (const TracePrint& p : traced.prints) print(p);
    for (const AlignedIf& a : in_.alignment->ifs) {
      if (a.expression) expression_lines_.insert(a.range.line);
    }
    for (const TraceConversion& c : traced.conversions) conversion(c);
    scalar_inputs();
    std::stable_sort(out_.begin(), out_.end(), [](const Finding& a, const Finding& b) {
      if (a.range.line != b.range.line) return a.range.line < b.range.line;
      if (a.severity != b.severity) return a.severity == Severity::Lossy;
      return a.range.col < b.range.col;
    });
    return std::move(out_);
  }

 private:
  // Who the trace was made from, for messages: "the input set" or "set 0 (the traced set)".
  std::string traced_phrase() const {
    return num_sets_ == 1 ? "the input set" : "set 0 (the traced set)";
  }

  bool first_at(const SourceRange& r, FindingKind kind) {
    return seen_.insert(loc_key(r) ^ (static_cast<uint64_t>(kind) << 60)).second;
  }

  void branch(const AlignedIf& a) {
    if (a.from == Provenance::Constant || a.arms.empty()) return;
    // Set 0's trace: not reached (inside a lost side), or both sides (in a loop).
    const uint8_t arms = a.arms.front();
    if (arms != kThen && arms != kElse) return;
    const Arm taken = arms == kThen ? Arm::Then : Arm::Else;
    const Arm lost = taken == Arm::Then ? Arm::Else : Arm::Then;
    const std::string seen = taken == Arm::Then ? "True" : "False";
    const std::string other = taken == Arm::Then ? "False" : "True";
    const std::string test = a.test.empty() ? "the condition" : "`" + a.test + "`";
    std::optional<size_t> witness;  // the first other set that takes the lost side
    for (size_t s = 1; s < a.arms.size() && !witness; ++s) {
      if (a.arms[s] & (lost == Arm::Then ? kThen : kElse)) witness = s;
    }

    if (lost_block_raises(a, lost)) {
      Finding f = base(FindingKind::DroppedSideEffect, a.range, Severity::Lossy);
      f.op = ir::kind::RaiseException;
      f.test = a.test;
      f.message = "`" + statement_text(a.range) + "` held for " + traced_phrase() +
                  ", so the trace drops the check: on an input where " + test + " is " + other +
                  " the traced graph returns a result instead of raising AssertionError.";
      f.fix = "Keep the check: " + std::string(kParseRoute) +
              ", which keeps it as prim::RaiseException; or check the inputs before calling the "
              "model.";
      out_.push_back(std::move(f));
      return;
    }

    Finding f = base(FindingKind::LostBranch, a.range, Severity::Lossy);
    f.taken = taken;
    f.lost = lost;
    f.is_elif = a.is_elif;
    f.expression = a.expression;
    f.test = a.test;
    f.counterexample = witness;
    if (a.expression) {
      f.lost_lines = {a.range.line};
    } else if (auto it = in_.ast->ifs.find(loc_key(a.range)); it != in_.ast->ifs.end()) {
      f.lost_lines = lost_lines(*in_.ast, *it->second, lost);
    }
    std::string why = a.from_input ? " (it depends on a scalar input, which a trace bakes)"
                      : a.from == Provenance::Shape ? " (it depends on a tensor's size)"
                                                    : "";
    std::ostringstream m;
    if (a.expression) {
      m << "The conditional expression here tested " << test << why << ": " << seen << " for "
        << traced_phrase() << ", so the trace kept only the value "
        << (taken == Arm::Then ? "before `if`" : "after `else`") << ". On an input where it is "
        << other << ", the traced graph still uses that value.";
    } else {
      m << "`" << statement_text(a.range) << "` was " << seen << " for " << traced_phrase() << why
        << ", so the trace ";
      const std::string lines = f.lost_lines.empty() ? "" : " (" + lines_phrase(f.lost_lines) + ")";
      if (lost == Arm::Then) {
        m << "dropped its body" << lines << ". On an input where " << test
          << " is True, the traced graph skips it and gives a wrong answer.";
      } else if (f.lost_lines.empty()) {
        m << "always runs its body" << kept_lines(a) << ". On an input where " << test
          << " is False, the traced graph still runs it and gives a wrong answer.";
      } else {
        m << "dropped the other side" << lines << ". On an input where " << test
          << " is False, the traced graph still takes this side and gives a wrong answer.";
      }
    }
    if (witness) {
      m << " Set " << *witness << " is such an input: it takes the " << arm_name(lost)
        << " side, which the trace does not have.";
    }
    f.message = m.str();
    const std::string where =
        "torch.where(" + (a.test.empty() ? std::string("cond") : a.test) + ", a, b)";
    f.fix = "Keep both sides in the graph: " + std::string(kParseRoute) + ".";
    if (a.from_input) {
      f.fix += " Or pass the input as a tensor and choose elementwise with `" + where + "`.";
    } else if (a.from == Provenance::Data) {
      f.fix += " If both sides compute tensors elementwise, write `" + where +
               "` instead of the if, so that a trace keeps both.";
    }
    out_.push_back(std::move(f));
  }

  // " (lines 11-12)": the body of a statement-level if, for messages.
  std::string kept_lines(const AlignedIf& a) const {
    auto it = in_.ast->ifs.find(loc_key(a.range));
    if (it == in_.ast->ifs.end()) return "";
    std::vector<int> lines = lost_lines(*in_.ast, *it->second, Arm::Then);
    return lines.empty() ? "" : " (" + lines_phrase(lines) + ")";
  }

  void loop(const AlignedLoop& l) {
    if (l.trips.empty() || !l.trips.front().runs) return;  // not in set 0's trace
    const TripCounts& traced = l.trips.front();
    const int64_t lo = traced.min, hi = traced.max;
    std::optional<size_t> witness;  // the first set whose trip counts differ from set 0's
    std::vector<std::optional<int64_t>> per_set;
    for (size_t s = 0; s < l.trips.size(); ++s) {
      const TripCounts& t = l.trips[s];
      per_set.push_back(t.runs ? std::optional<int64_t>(t.max) : std::nullopt);
      if (s > 0 && t.runs && !witness && (t.min != lo || t.max != hi)) witness = s;
    }
    Provenance source = l.from;
    const bool stops_early = l.may_exit && !l.is_while && l.body_from > l.from;
    if (l.may_exit) source = combine(source, l.body_from);
    Finding f = base(FindingKind::UnrolledLoop, l.range,
                     source == Provenance::Constant && !witness ? Severity::Info : Severity::Lossy);
    f.trips = hi;
    f.set_trips = std::move(per_set);
    f.counterexample = witness;
    f.source = source;
    f.is_while = l.is_while;
    const std::string count =
        lo == hi ? times(lo)
                 : "between " + std::to_string(lo) + " and " + std::to_string(hi) + " times";
    std::ostringstream m;
    m << "`" << statement_text(l.range) << "` ran " << count
      << (num_sets_ == 1 ? std::string() : " for " + traced_phrase())
      << "; the trace repeats its body "
      << (lo == hi ? times(lo) : "as often as the traced input needed")
      << " instead of keeping a loop";
    switch (source) {
      case Provenance::Constant:
        if (witness) {
          m << ". Its count does not come from a tensor, yet it differs between the input sets.";
          f.fix = "Keep the loop in the graph: " + std::string(kParseRoute) + ".";
          break;
        }
        m << ". The count is a constant, so the answers are the same, only the graph is bigger.";
        f.fix = "Nothing to fix. For a smaller graph, " + std::string(kParseRoute) +
                ", which keeps one prim::Loop.";
        break;
      case Provenance::Shape:
        m << ". The count comes from a tensor's size, so the trace is right only for inputs "
             "of the traced shape (its guard on the size rejects others).";
        f.fix =
            "Use whole-tensor ops instead of a Python loop over a size (e.g. `x.sum(0)`), "
            "or " +
            std::string(kParseRoute) + ", which takes the count from the input.";
        break;
      case Provenance::Data:
        m << (l.from_input  ? ". The count comes from a scalar input, which the trace bakes"
              : stops_early ? ". The loop stops early (break or return) on a tensor test"
                            : ". The count depends on tensor values")
          << ", so an input that needs another count gets a wrong answer.";
        f.fix = "Keep the loop in the graph: " + std::string(kParseRoute) +
                ", which keeps it as a prim::Loop with its test.";
        break;
    }
    if (witness) {
      const TripCounts& t = l.trips[*witness];
      m << " Set " << *witness << " runs it "
        << (t.min == t.max
                ? times(t.min)
                : "between " + std::to_string(t.min) + " and " + std::to_string(t.max) + " times")
        << ", which the trace of set 0 does not do.";
    }
    f.message = m.str();
    out_.push_back(std::move(f));
  }

  void print(const TracePrint& p) {
    if (!first_at(p.range, FindingKind::DroppedSideEffect)) return;
    Finding f = base(FindingKind::DroppedSideEffect, p.range, Severity::Lossy);
    f.op = ir::kind::Print;
    std::string text = p.text;
    while (!text.empty() && text.back() == '\n') text.pop_back();
    if (text.size() > 60) text = text.substr(0, 57) + "...";
    f.message = "This print() ran while tracing (it wrote \"" + text +
                "\"), but a traced graph keeps no prints: running it prints nothing.";
    f.fix = "Keep the print: " + std::string(kParseRoute) +
            ", which keeps prim::Print; or print outside the traced code.";
    out_.push_back(std::move(f));
  }

  void conversion(const TraceConversion& c) {
    if (c.source == ConversionSource::Baked || c.from == Provenance::Constant) return;
    // A decision of an if/while/for statement or conditional expression is that
    // statement's finding.
    if (in_.traces->statement_lines.count(c.range.line)) return;
    if (c.kind == PyConversion::Bool && expression_lines_.count(c.range.line)) return;
    const bool shape = c.from == Provenance::Shape;
    const FindingKind kind = shape ? FindingKind::ShapeSpecialized : FindingKind::BakedValue;
    if (!first_at(c.range, kind)) return;
    Finding f = base(kind, c.range, Severity::Lossy);
    f.what = c.expr;
    f.value = c.seen;
    f.conversion = py_conversion_name(c.kind);
    const std::string v = c.seen.repr();
    if (shape) {
      f.symbols = size_symbols(c.range.line);
      std::string sym = f.symbols.empty() ? "" : " (";
      for (size_t i = 0; i < f.symbols.size(); ++i) sym += (i ? ", " : "") + f.symbols[i];
      if (!f.symbols.empty()) sym += " in the parsed graph)";
      f.message = "`" + c.expr + "` is a size" + sym +
                  " that Python code used, so the trace holds the number " + v +
                  ": it is right only for inputs of the traced shape.";
      f.fix =
          "Keep sizes in tensor ops (`x.view(x.size(0), -1)` stays symbolic in a trace), "
          "or " +
          std::string(kParseRoute) + ".";
    } else {
      f.message = "`" + c.expr + "` (" + f.conversion + ") was " + v +
                  " when traced; the trace uses the constant " + v +
                  " on every input, so an input where it differs gets a wrong answer.";
      f.fix = fix_for(c.kind);
    }
    out_.push_back(std::move(f));
  }

  static std::string fix_for(PyConversion kind) {
    switch (kind) {
      case PyConversion::Bool:
        return "Make the choice a tensor op (`torch.where(cond, a, b)`), or " +
               std::string(kParseRoute) + ".";
      case PyConversion::Index:
        return "Index with a tensor (`torch.index_select`, `torch.gather`) instead of a Python "
               "number, or " +
               std::string(kParseRoute) + ".";
      default:
        return "Keep it a tensor: drop `.item()` / `int()` / `float()` and compute with tensor "
               "ops (they broadcast), or pass the value as an input; or " +
               std::string(kParseRoute) + ".";
    }
  }

  void scalar_inputs() {
    const ir::Graph& g = *in_.parsed;
    for (size_t i = 0; i < in_.lowered->num_arguments && i < g.inputs().size(); ++i) {
      const ir::Value* v = g.inputs()[i];
      if (v->type().is_tensor() || v->type().kind == ir::TypeKind::Any || !v->has_uses()) continue;
      const EntryParam* param = nullptr;
      for (const EntryParam& p : in_.entry->params) {
        if (p.name == v->debug_name()) param = &p;
      }
      if (!param) continue;
      // The value the reference trace (set 0) baked: set 0's, else the default.
      std::optional<IValue> value;
      for (const auto& [name, val] : in_.sets->front().inputs) {
        if (name == param->name) value = val;
      }
      if (!value && param->default_value) value = *param->default_value;
      for (const DiffInputSet& s : *in_.sets) {
        for (const auto& [name, val] : s.inputs) {
          if (!value && name == param->name) value = val;
        }
      }
      // A list of tensors (an LSTM's (h, c)) is a graph input of the trace too, as in
      // torch.jit.trace (trace/tracer.cpp add_sequence_input): nothing is baked.
      if (value && is_tensor_sequence(*value)) continue;
      Finding f = base(FindingKind::BakedValue, param->range, Severity::Lossy);
      f.what = param->name;
      if (value) f.value = *value;
      f.conversion = "input";
      const std::string type = v->type().str();
      f.message = "The " + type + " input `" + param->name + "` is baked: the trace holds " +
                  (value ? "the constant " + value->repr() : std::string("a constant")) +
                  " and ignores the value passed (torch.jit.trace does the same).";
      f.fix = "Pass it as a tensor (`torch.tensor(" + param->name +
              ")`) so that a trace keeps it an input, or " + std::string(kParseRoute) +
              ", which keeps `" + param->name + "` a graph input.";
      out_.push_back(std::move(f));
    }
  }

  // The parsed graph's symbolic dims read by aten::size on `line` (x_0), for messages.
  std::vector<std::string> size_symbols(int line) {
    if (!sizes_indexed_) {
      sizes_indexed_ = true;
      std::vector<const ir::Block*> stack{in_.parsed->block()};
      while (!stack.empty()) {
        const ir::Block* b = stack.back();
        stack.pop_back();
        for (const ir::Node* n : b->nodes()) {
          if (n->sym() == ir::op::size) sizes_by_line_.emplace(n->range().line, n);
          for (const ir::Block* inner : n->blocks()) stack.push_back(inner);
        }
      }
    }
    std::vector<std::string> out;
    auto [lo, hi] = sizes_by_line_.equal_range(line);
    for (auto it = lo; it != hi; ++it) {
      const ir::Node* n = it->second;
      const ir::Type& t = n->input(0)->type();
      if (!t.shape) continue;
      std::optional<int64_t> dim;
      if (n->inputs().size() > 1 && n->input(1)->node()->prim() == ir::Prim::Constant) {
        const IValue* d = n->input(1)->node()->attr("value");
        if (d && d->is_int()) dim = d->to_int();
      }
      const int64_t rank = static_cast<int64_t>(t.shape->size());
      for (int64_t i = 0; i < rank; ++i) {
        if (dim && !(*dim == i || *dim + rank == i)) continue;
        const std::string& s = (*t.shape)[static_cast<size_t>(i)].symbol;
        if (!s.empty() && std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
      }
    }
    return out;
  }

  static Finding base(FindingKind kind, const SourceRange& r, Severity severity) {
    Finding f;
    f.kind = kind;
    f.range = r;
    f.severity = severity;
    return f;
  }

  const FindingInputs& in_;
  size_t num_sets_;
  std::vector<Finding> out_;
  std::unordered_set<uint64_t> seen_;
  std::unordered_set<int> expression_lines_;
  bool sizes_indexed_ = false;
  std::unordered_multimap<int, const ir::Node*> sizes_by_line_;
};

}  // namespace

std::vector<Finding> make_findings(const FindingInputs& in) {
  return FindingMaker(in).run();
}

}  // namespace d2s::convert::diff_detail
