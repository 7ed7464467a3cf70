// diff_program: both routes, alignment, findings, agreement and counterexamples,
// put together into one DiffReport (the steps are described in diff.h).
#include "convert/diff.h"

#include <algorithm>
#include <optional>
#include <sstream>

#include "convert/diff_internal.h"
#include "core/base/error.h"
#include "core/ir/effects.h"
#include "core/ops/op_registry.h"
#include "trace/tracer.h"

namespace d2s::convert {

using namespace diff_detail;

const char* finding_kind_name(FindingKind kind) {
  switch (kind) {
    case FindingKind::LostBranch:
      return "lost_branch";
    case FindingKind::UnrolledLoop:
      return "unrolled_loop";
    case FindingKind::BakedValue:
      return "baked_value";
    case FindingKind::DroppedSideEffect:
      return "dropped_side_effect";
    case FindingKind::ShapeSpecialized:
      return "shape_specialized";
  }
  return "?";
}

const char* severity_name(Severity severity) {
  return severity == Severity::Lossy ? "lossy" : "info";
}

size_t DiffReport::lossy_count() const {
  return static_cast<size_t>(std::count_if(findings.begin(), findings.end(), [](const Finding& f) {
    return f.severity == Severity::Lossy;
  }));
}

bool DiffReport::agrees() const {
  return std::all_of(agreement.begin(), agreement.end(),
                     [](const Agreement& a) { return a.agrees; });
}

const char* verdict_name(Verdict verdict) {
  switch (verdict) {
    case Verdict::TraceSafe:
      return "trace-safe";
    case Verdict::Lossy:
      return "lossy";
    case Verdict::Disagrees:
      return "disagrees";
  }
  return "?";
}

Verdict DiffReport::verdict() const {
  if (lossy_count() > 0) return Verdict::Lossy;
  return agrees() ? Verdict::TraceSafe : Verdict::Disagrees;
}

namespace {

bool by_position(const SourceRange& a, const SourceRange& b) {
  return a.line != b.line ? a.line < b.line : a.col < b.col;
}

void fill_coverage(const Alignment& al, const AstIndex& ast, DiffReport& report) {
  for (const AlignedIf& a : al.ifs) {
    if (a.from == Provenance::Constant) continue;  // decided at conversion time
    const bool is_assert = a.expression && ast.assert_lines.count(a.range.line) > 0;
    report.ifs.push_back(IfCoverage{a.range, a.is_elif, a.expression, is_assert, a.from, a.arms});
  }
  for (const AlignedLoop& l : al.loops) {
    Provenance from = l.may_exit ? combine(l.from, l.body_from) : l.from;
    report.loops.push_back(LoopCoverage{l.range, l.is_while, from, l.trips});
  }
  std::sort(report.ifs.begin(), report.ifs.end(),
            [](const IfCoverage& a, const IfCoverage& b) { return by_position(a.range, b.range); });
  std::sort(
      report.loops.begin(), report.loops.end(),
      [](const LoopCoverage& a, const LoopCoverage& b) { return by_position(a.range, b.range); });
}

// The guarded trace of set 0 and the parsed graph on every set. Every set ran eagerly
// (it was traced), so a parsed graph that cannot run one is a limit of the parse
// route: an error (exit 2), not a verdict on the trace.
void compare_sets(const std::vector<DiffInputSet>& sets, const GraphRun& trace,
                  const GraphRun& parsed, const DiffOptions& options, DiffReport& report) {
  for (size_t s = 0; s < sets.size(); ++s) {
    Agreement a;
    a.set = s;
    ValueList p, t;
    try {
      p = parsed.run(sets[s].inputs);
    } catch (const Error& e) {
      const std::string hint = "the program runs eagerly on input set " + std::to_string(s) + " (" +
                               sets[s].label +
                               ") but its parsed graph does not, so d2s cannot compare the routes" +
                               (e.hint().empty() ? std::string() : "; " + e.hint());
      throw Error(e.message(), e.range(), hint, 2);
    }
    try {
      t = trace.run(sets[s].inputs);
      a.agrees = values_close(t, p, options.rtol, options.atol, &a.detail, &report.output_names);
    } catch (const Error& e) {
      a.agrees = false;
      a.guard_failed = e.exit_code() == 1;  // a guard; anything else is the trace failing
      a.line = e.range().known() ? e.range().line : 0;
      const std::string at = a.line ? " (line " + std::to_string(a.line) + ")" : std::string();
      a.detail = (a.guard_failed ? "" : "the trace failed: ") + e.message() + at;
    }
    report.agreement.push_back(std::move(a));
  }
}

// The guarded trace made plain (what --no-guards gives): its guards dropped, then
// what only they used. A trace is one flat block, so one backward pass finds it all;
// it counts the nodes it passes (the guarded trace's size) and those it drops.
struct Stripped {
  size_t guarded_nodes = 0;
  size_t dropped = 0;
};
Stripped strip_guards(ir::Graph& graph) {
  ir::Block* top = graph.block();
  Stripped out;
  for (ir::Node* n = top->return_node()->prev(); n && n != top->param_node();) {
    ir::Node* prev = n->prev();
    ++out.guarded_nodes;
    if (n->prim() == ir::Prim::Guard || ir::removable_when_unused(*n)) {
      n->destroy();
      ++out.dropped;
    }
    n = prev;
  }
  return out;
}

bool worth_searching(const Finding& f) {
  if (f.severity != Severity::Lossy || f.counterexample) return false;
  if (f.kind == FindingKind::LostBranch) return true;
  // Only a trip count from data can change while the shapes stay as given.
  return f.kind == FindingKind::UnrolledLoop && f.source == Provenance::Data;
}

}  // namespace

DiffReport diff_program(Program& program, const std::vector<DiffInputSet>& sets,
                        const DiffOptions& options) {
  if (sets.empty())
    throw Error("d2s diff needs at least one input set", {}, "pass --inputs IN.yaml");
  RunOptions run = options.run;
  std::ostringstream prints;  // what the program prints while traced: in the report, not shown
  run.out = &prints;
  run.hooks = nullptr;

  // The trace route. Set 0 with guards (what `d2s trace` writes: it is run on every
  // set), then made plain (the torch.jit.trace graph, drawn and searched); the
  // other sets without guards. One trace per set: tracing is most of a diff's time.
  std::vector<TraceResult> traces;
  traces.reserve(sets.size());
  // Set 0's trace with its guards, when it is a trace of its own (a script's). Else
  // traces[0] stays guarded until the agreement run has planned it (an Executor does
  // not need its graph after planning), and is then made plain in place: no copy of
  // a trace that may hold 100,000 nodes.
  std::unique_ptr<ir::Graph> guarded;
  bool strip_pending = false;
  DiffReport report;
  // A script (<module>) returns nothing, so its plain trace keeps every op: it cannot
  // be had by dropping what only guards use; it is traced once more instead.
  const EntryInfo entry = program.entry(run.entry);
  const bool script = entry.kind == EntryInfo::Kind::Module;
  for (size_t s = 0; s < sets.size(); ++s) {
    TraceOptions t;
    t.run = run;
    t.guards = s == 0;
    t.max_nodes = options.max_trace_nodes;
    traces.push_back(trace_program(program, clone_inputs(sets[s].inputs), t));
    if (s == 0) {
      report.traced.guards = static_cast<size_t>(traces[0].log.guards);
      if (script) {
        report.traced.guarded_nodes = traces[0].graph->node_count();
        guarded = std::move(traces[0].graph);
        t.guards = false;
        traces[0] = trace_program(program, clone_inputs(sets[s].inputs), t);
        report.traced.nodes = traces[0].graph->node_count();
      } else {
        strip_pending = true;
      }
    }
  }
  report.source = program.file();
  for (const DiffInputSet& set : sets) report.set_labels.push_back(set.label);

  // The parse route, with set 0's tensors as example shapes (dims stay symbolic).
  LowerOptions lower;
  lower.entry = run.entry;
  lower.seed = run.seed;
  lower.weights = run.weights;
  lower.training = run.training;
  for (const auto& [name, v] : sets[0].inputs) {
    if (!v.is_tensor()) lower.input_examples[name] = v;
    if (!v.is_tensor() || !v.to_tensor().defined()) continue;
    lower.input_shapes[name] = v.to_tensor().shape();
    lower.input_dtypes[name] = v.to_tensor().dtype();
  }
  LoweredGraph lowered = lower_program(program.file(), lower);
  report.entry = lowered.graph->entry;
  report.parsed.nodes = lowered.graph->node_count();
  for (size_t i = 0; i < lowered.graph->outputs().size(); ++i) {
    const std::string& name = lowered.graph->outputs()[i]->debug_name();
    report.output_names.push_back(name.empty() ? "output " + std::to_string(i) : name);
  }

  std::vector<const TraceLog*> logs;
  for (const TraceResult& t : traces) logs.push_back(&t.log);
  const TraceIndex index = index_traces(logs);
  const AstIndex ast = index_ast(program.module());
  const Alignment alignment = align(*lowered.graph, index, ast);
  report.parsed.ifs = alignment.parsed_ifs;
  report.parsed.loops = alignment.parsed_loops;

  FindingInputs in;
  in.parsed = lowered.graph.get();
  in.lowered = &lowered;
  in.logs = &logs;
  in.traces = &index;
  in.ast = &ast;
  in.alignment = &alignment;
  in.entry = &entry;
  in.sets = &sets;
  report.findings = make_findings(in);
  report.trace_safe = report.lossy_count() == 0;
  fill_coverage(alignment, ast, report);

  // traces[0] made plain, counted on the way (it is flat: no extra walk to count).
  auto make_plain = [&] {
    if (!strip_pending) return;
    strip_pending = false;
    const Stripped stripped = strip_guards(*traces[0].graph);
    report.traced.guarded_nodes = stripped.guarded_nodes;
    report.traced.nodes = stripped.guarded_nodes - stripped.dropped;
  };

  // The graphs go with the report, for pictures (GraphRun tells the parsed graph by
  // lowered.graph, so they move out only when the runs are done).
  auto keep_graphs = [&] {
    report.parsed_graph = std::move(lowered.graph);
    report.traced_graph = std::move(traces[0].graph);
  };

  const bool search = options.search &&
                      std::any_of(report.findings.begin(), report.findings.end(), worth_searching);
  const bool given = std::any_of(report.findings.begin(), report.findings.end(),
                                 [](const Finding& f) { return f.counterexample.has_value(); });
  if (!options.compare && !search && !given) {
    make_plain();
    keep_graphs();
    return report;
  }
  GraphRun parsed(*lowered.graph, lowered, options);
  // Set 0's guarded trace, planned before make_plain() strips it in place (a plan does
  // not need its graph). The agreement table runs it with its guards. Unless set 0 has
  // a plain trace of its own (a script's), the search runs the same plan with its
  // guards passing, which computes what the plain trace computes: a 100,000-node trace
  // is planned once, not twice.
  std::optional<GraphRun> guarded_run;
  if (options.compare || !guarded) {
    guarded_run.emplace(guarded ? *guarded : *traces[0].graph, lowered, options);
  }
  make_plain();
  if (options.compare) compare_sets(sets, *guarded_run, parsed, options, report);
  std::vector<const GraphRun*> runs;  // the plain trace of each set, for the search
  std::vector<GraphRun> planned;      // those not run through guarded_run
  planned.reserve(traces.size());
  for (size_t s = 0; s < traces.size(); ++s) {
    if (s == 0 && !guarded) {
      guarded_run->set_check_guards(false);
      runs.push_back(&*guarded_run);
      continue;
    }
    planned.emplace_back(*traces[s].graph, lowered, options);
    runs.push_back(&planned.back());
  }
  SearchContext ctx{&program, &options, &sets, &runs, &parsed, &report.output_names};
  int searches = 0;
  for (const Finding& f : report.findings) {
    if (f.counterexample) {
      report.counterexamples.push_back(given_counterexample(ctx, f));
    } else if (search && worth_searching(f) && searches++ < options.max_searches) {
      report.counterexamples.push_back(search_counterexample(ctx, f));
    }
  }
  keep_graphs();
  return report;
}

}  // namespace d2s::convert
