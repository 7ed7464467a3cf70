// Counterexamples: for a lost branch (or a loop whose trip count depends on data),
// an input of the given shapes that goes the way no input set went, run through the
// plain trace and the parsed graph to show what the trace gets wrong.
//
// Candidates, in a fixed order so that a report is reproducible: for each input set,
// each float tensor input negated, scaled by 0.1 and 10, and shifted up and down by
// 1 + max|x|, then all of them at once, then each scalar input nudged (n + 1, 2n + 1,
// 0, -n; -a, 10a, a / 10, a + 1; not b); after those, random draws from d2s's
// Generator (seeded from --seed and the try's number) of a random subset of the
// tensors at scales 0.1, 1 and 10. Tries and wall time are bounded.
//
// Whether a candidate goes the lost way is decided by running it eagerly with hooks
// (on_if / on_loop at the finding's location); a conditional expression, which has no
// hook of its own, by tracing it and reading the TraceLog.
#include <chrono>
#include <cmath>
#include <map>
#include <optional>
#include <sstream>

#include "convert/diff_internal.h"
#include "core/base/error.h"
#include "core/tensor/random.h"
#include "trace/tracer.h"

namespace d2s::convert::diff_detail {

namespace {

struct Candidate {
  size_t base = 0;
  NamedInputs inputs;
  std::string how;
  std::vector<std::string> changed;
};

bool is_float_tensor(const IValue& v) {
  return v.is_tensor() && v.to_tensor().defined() && v.to_tensor().dtype() == DType::Float32 &&
         v.to_tensor().numel() > 0;
}

template <typename F>
Tensor map_floats(const Tensor& t, F f) {
  Tensor out = t.clone();
  float* d = out.data<float>();
  for (int64_t i = 0; i < out.numel(); ++i) d[i] = f(d[i]);
  return out;
}

float max_abs(const Tensor& t) {
  float m = 0;
  const float* d = t.data<float>();
  for (int64_t i = 0; i < t.numel(); ++i) m = std::max(m, std::abs(d[i]));
  return m;
}

std::string number(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

// The candidates of one input set, in order (the random draws come separately).
std::vector<Candidate> fixed_candidates(const NamedInputs& base, size_t index) {
  std::vector<Candidate> out;
  auto with = [&](const std::vector<std::pair<std::string, IValue>>& changes,
                  const std::string& how) {
    Candidate c;
    c.base = index;
    c.inputs = base;
    c.how = how;
    for (const auto& [name, v] : changes) {
      for (auto& [n, value] : c.inputs) {
        if (n == name) value = v;
      }
      c.changed.push_back(name);
    }
    out.push_back(std::move(c));
  };
  std::vector<std::string> tensors;
  for (const auto& [name, v] : base) {
    if (!is_float_tensor(v)) continue;
    tensors.push_back(name);
    const Tensor& t = v.to_tensor();
    const float shift = 1 + max_abs(t);
    with({{name, map_floats(t, [](float x) { return -x; })}}, name + " * -1");
    with({{name, map_floats(t, [](float x) { return x * 0.1f; })}}, name + " * 0.1");
    with({{name, map_floats(t, [](float x) { return x * 10; })}}, name + " * 10");
    with({{name, map_floats(t, [&](float x) { return x + shift; })}}, name + " + " + number(shift));
    with({{name, map_floats(t, [&](float x) { return x - shift; })}}, name + " - " + number(shift));
  }
  if (tensors.size() > 1) {
    for (float k : {-1.0f, 0.1f, 10.0f}) {
      std::vector<std::pair<std::string, IValue>> all;
      for (const auto& [name, v] : base) {
        if (is_float_tensor(v))
          all.emplace_back(name, map_floats(v.to_tensor(), [k](float x) { return x * k; }));
      }
      with(all, "every tensor input * " + number(k));
    }
  }
  for (const auto& [name, v] : base) {
    if (v.is_bool()) {
      with({{name, IValue(!v.to_bool())}}, name + " = " + (v.to_bool() ? "False" : "True"));
    } else if (v.is_int()) {
      const int64_t n = v.to_int();
      for (int64_t m : {n + 1, 2 * n + 1, int64_t{0}, -n}) {
        if (m != n) with({{name, IValue(m)}}, name + " = " + std::to_string(m));
      }
    } else if (v.is_double()) {
      const double a = v.to_double();
      for (double b : {-a, a * 10, a / 10, a + 1}) {
        if (b != a) with({{name, IValue(b)}}, name + " = " + number(b));
      }
    }
  }
  return out;
}

// A random draw: a random non-empty subset of the tensors redrawn from a normal
// distribution at a random scale.
Candidate random_candidate(const NamedInputs& base, size_t index, uint64_t seed, int draw) {
  Generator g(seed ^ (0x9e3779b97f4a7c15ull * static_cast<uint64_t>(draw + 1)) ^ index);
  Candidate c;
  c.base = index;
  c.inputs = base;
  std::vector<size_t> floats;
  for (size_t i = 0; i < base.size(); ++i) {
    if (is_float_tensor(base[i].second)) floats.push_back(i);
  }
  if (floats.empty()) return c;
  const float scales[] = {0.1f, 1.0f, 10.0f};
  for (size_t i : floats) {
    if (g.uniform() < 0.34f) continue;
    const float scale = scales[g.next_u64() % 3];
    c.inputs[i].second =
        map_floats(base[i].second.to_tensor(), [&](float) { return g.normal() * scale; });
    c.changed.push_back(base[i].first);
  }
  if (c.changed.empty()) {
    size_t i = floats[g.next_u64() % floats.size()];
    c.inputs[i].second = map_floats(base[i].second.to_tensor(), [&](float) { return g.normal(); });
    c.changed.push_back(base[i].first);
  }
  c.how = "random draw " + std::to_string(draw) + " of ";
  for (size_t i = 0; i < c.changed.size(); ++i) c.how += (i ? ", " : "") + c.changed[i];
  return c;
}

bool all_finite(const ValueList& values) {
  for (const IValue& v : values) {
    if (v.is_tensor() && v.to_tensor().defined() && v.to_tensor().dtype() == DType::Float32) {
      const Tensor& t = v.to_tensor();
      for (int64_t i = 0; i < t.numel(); ++i) {
        if (!std::isfinite(t.data<float>()[i])) return false;
      }
    } else if (v.is_double() && !std::isfinite(v.to_double())) {
      return false;
    } else if ((v.is_tuple() || v.is_list()) && !all_finite(v.items())) {
      return false;
    }
  }
  return true;
}

// Watches one if or loop location during an eager run.
class Watch final : public InterpreterHooks {
 public:
  explicit Watch(const SourceRange& at) : line_(at.line), col_(at.col) {}
  void on_if(const ast::If& stmt, bool taken) override {
    if (stmt.range.line == line_ && stmt.range.col == col_) arms |= taken ? kThen : kElse;
  }
  void on_loop(const ast::Stmt& stmt, int64_t trips) override {
    if (stmt.range.line == line_ && stmt.range.col == col_) loop_trips.push_back(trips);
  }
  uint8_t arms = 0;
  std::vector<int64_t> loop_trips;

 private:
  int line_, col_;
};

class Searcher {
 public:
  Searcher(const SearchContext& ctx, const Finding& f) : ctx_(ctx), f_(f) {
    run_ = ctx.options->run;
    run_.out = &sink_;
    // A candidate may make a data-dependent loop run far longer than any input set
    // did; it is dropped at a tighter bound than a user's run.
    run_.limits.max_total_iterations = std::min<int64_t>(run_.limits.max_total_iterations, 100'000);
    run_.limits.max_loop_iterations = std::min<int64_t>(run_.limits.max_loop_iterations, 100'000);
  }

  Counterexample run() {
    Counterexample result;
    result.range = f_.range;
    result.kind = f_.kind;
    const auto start = std::chrono::steady_clock::now();
    auto out_of_budget = [&] {
      const double secs =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      return result.tries >= ctx_.options->max_search_tries ||
             secs >= ctx_.options->max_search_seconds;
    };
    std::optional<Counterexample> agreeing;    // goes the lost way, but the graphs agree
    std::optional<Counterexample> not_finite;  // they differ, but with NaN or inf outputs
    const auto& sets = *ctx_.sets;
    auto consider = [&](Candidate&& c) {
      ++result.tries;
      if (!goes_lost_way(c)) return false;
      Counterexample ce = evaluate(std::move(c));
      ce.tries = result.tries;
      if (ce.differs && all_finite(ce.traced) && all_finite(ce.parsed)) {
        result = std::move(ce);
        return true;
      }
      // NaN and inf make a poor example (sqrt of a negated input): keep looking.
      if (ce.differs) {
        if (!not_finite) not_finite = std::move(ce);
        return false;
      }
      if (!agreeing && ce.found) agreeing = std::move(ce);
      return false;
    };
    for (size_t b = 0; b < sets.size() && !out_of_budget(); ++b) {
      for (Candidate& c : fixed_candidates(sets[b].inputs, b)) {
        if (out_of_budget()) break;
        if (consider(std::move(c))) return result;
      }
    }
    for (int draw = 0; !out_of_budget(); ++draw) {
      const size_t b = static_cast<size_t>(draw) % sets.size();
      Candidate c = random_candidate(sets[b].inputs, b, ctx_.options->run.seed, draw);
      if (c.changed.empty()) break;  // no tensor to draw
      if (consider(std::move(c))) return result;
    }
    if (not_finite) return std::move(*not_finite);
    if (agreeing) return std::move(*agreeing);
    return result;
  }

 private:
  bool goes_lost_way(const Candidate& c) {
    try {
      if (f_.kind == FindingKind::LostBranch && f_.expression) return expression_lost(c);
      Watch watch(f_.range);
      eager(c.inputs, &watch);
      if (f_.kind == FindingKind::LostBranch) {
        return watch.arms & (f_.lost == Arm::Then ? kThen : kElse);
      }
      return !watch.loop_trips.empty() && watch.loop_trips != base_trips(c.base);
    } catch (const Error&) {
      return false;  // the program rejects this input (an assert, a limit): not a candidate
    }
  }

  bool expression_lost(const Candidate& c) {
    TraceOptions opts;
    opts.run = run_;
    opts.guards = false;
    opts.max_nodes = ctx_.options->max_trace_nodes;
    TraceResult r = trace_program(*ctx_.program, clone_inputs(c.inputs), opts);
    for (const TraceConversion& conv : r.log.conversions) {
      if (conv.kind != PyConversion::Bool || conv.range.line != f_.range.line) continue;
      const bool v = conv.seen.is_bool() ? conv.seen.to_bool() : conv.seen.to_double() != 0;
      if (v == (f_.lost == Arm::Then)) return true;
    }
    return false;
  }

  void eager(const NamedInputs& inputs, InterpreterHooks* hooks) {
    RunOptions opts = run_;
    opts.hooks = hooks;
    sink_.str({});
    ctx_.program->run(clone_inputs(inputs), opts);
  }

  const std::vector<int64_t>& base_trips(size_t base) {
    auto it = base_trips_.find(base);
    if (it != base_trips_.end()) return it->second;
    Watch watch(f_.range);
    eager((*ctx_.sets)[base].inputs, &watch);
    return base_trips_[base] = watch.loop_trips;
  }

  Counterexample evaluate(Candidate&& c) {
    Counterexample ce;
    ce.range = f_.range;
    ce.kind = f_.kind;
    ce.found = true;
    ce.base_set = c.base;
    ce.how = c.how;
    ce.changed = c.changed;
    try {
      ce.parsed = ctx_.parsed->run(c.inputs);
    } catch (const Error&) {
      ce.found = false;  // the parsed graph cannot run it either: not a useful example
      return ce;
    }
    try {
      ce.traced = (*ctx_.traces)[c.base]->run(c.inputs);
      ce.differs = !values_close(ce.traced, ce.parsed, ctx_.options->rtol, ctx_.options->atol,
                                 &ce.detail, ctx_.output_names);
    } catch (const Error& e) {
      ce.traced_error = e.message();
      ce.differs = true;
    }
    ce.inputs = std::move(c.inputs);
    return ce;
  }

  const SearchContext& ctx_;
  const Finding& f_;
  RunOptions run_;
  std::ostringstream sink_;  // what the program prints during the search
  std::map<size_t, std::vector<int64_t>> base_trips_;
};

}  // namespace

Counterexample given_counterexample(const SearchContext& ctx, const Finding& finding) {
  Counterexample ce;
  ce.range = finding.range;
  ce.kind = finding.kind;
  ce.found = true;
  ce.given = true;
  ce.base_set = finding.counterexample.value_or(0);
  ce.how = "as given";
  ce.inputs = (*ctx.sets)[ce.base_set].inputs;
  try {
    ce.parsed = ctx.parsed->run(ce.inputs);
  } catch (const Error&) {
    ce.found = false;  // reported as an error by the agreement check
    return ce;
  }
  try {
    ce.traced = ctx.traces->front()->run(ce.inputs);
    ce.differs = !values_close(ce.traced, ce.parsed, ctx.options->rtol, ctx.options->atol,
                               &ce.detail, ctx.output_names);
  } catch (const Error& e) {
    ce.traced_error = e.message();
    ce.differs = true;
  }
  return ce;
}

Counterexample search_counterexample(const SearchContext& ctx, const Finding& finding) {
  return Searcher(ctx, finding).run();
}

}  // namespace d2s::convert::diff_detail
