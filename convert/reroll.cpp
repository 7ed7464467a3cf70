// Loop re-rolling of traces (reroll.h): find runs of repetitions in the trace's top
// block and fold each into a prim::Loop. Everything here walks vectors of nodes; no
// recursion follows the trace's length.
#include "convert/reroll.h"

#include <functional>
#include <map>
#include <optional>
#include <unordered_map>

#include "core/ir/verify.h"

namespace d2s::convert {

namespace {

// The source lines of a loop: its header line and the lines indented deeper below it.
std::pair<int, int> loop_lines(const SourceRange& keyword) {
  int last = keyword.line;
  if (!keyword.file) return {keyword.line, last};
  const SourceFile& f = *keyword.file;
  const size_t indent = static_cast<size_t>(keyword.col - 1);
  for (int l = keyword.line + 1; l <= f.line_count(); ++l) {
    std::string_view text = f.line_text(l);
    const size_t first = text.find_first_not_of(" \t");
    if (first == std::string_view::npos || text[first] == '#') continue;
    if (first <= indent) break;
    last = l;
  }
  return {keyword.line, last};
}

bool same_constant(const IValue& a, const IValue& b) {
  if (a.is_tensor() || b.is_tensor()) {
    return a.is_tensor() && b.is_tensor() && a.to_tensor().is_same(b.to_tensor());
  }
  if (a.is_int() && b.is_int()) return a.to_int() == b.to_int();
  if (a.is_double() && b.is_double()) return a.to_double() == b.to_double();
  if (a.is_bool() && b.is_bool()) return a.to_bool() == b.to_bool();
  if (a.type_name() != b.type_name()) return false;
  return a.repr() == b.repr();
}

// What a node is, apart from its inputs and a constant's value: two repetitions of
// one loop body have nodes alike in all of this.
uint64_t signature(const ir::Node& n) {
  size_t h = std::hash<std::string>()(n.kind());
  auto mix = [&h](size_t x) { h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); };
  mix(std::hash<std::string>()(n.overload()));
  mix(static_cast<size_t>(n.range().line));
  mix(static_cast<size_t>(n.range().col));
  mix(static_cast<size_t>(n.range().len));
  mix(n.inputs().size());
  mix(n.outputs().size());
  mix(n.blocks().size());
  return h;
}

bool same_node(const ir::Node& a, const ir::Node& b) {
  if (a.kind() != b.kind() || a.overload() != b.overload() || a.range().line != b.range().line ||
      a.range().col != b.range().col || a.range().len != b.range().len ||
      a.inputs().size() != b.inputs().size() || a.outputs().size() != b.outputs().size() ||
      !a.blocks().empty() || !b.blocks().empty() || a.attrs().size() != b.attrs().size()) {
    return false;
  }
  if (a.kind() == ir::kind::Constant) {
    const IValue* va = a.attr("value");
    const IValue* vb = b.attr("value");
    return va && vb && va->type_name() == vb->type_name();  // values: compared later
  }
  for (size_t i = 0; i < a.attrs().size(); ++i) {
    if (a.attrs()[i].first != b.attrs()[i].first ||
        !same_constant(a.attrs()[i].second, b.attrs()[i].second)) {
      return false;
    }
  }
  return true;
}

// The trace's top block as a vector, with each node's position.
struct TopBlock {
  explicit TopBlock(const ir::Graph& g) : top(g.block()) {
    for (ir::Node* n : top->nodes()) {
      pos[n] = nodes.size();
      nodes.push_back(n);
      sig.push_back(signature(*n));
    }
  }
  // The position of the top-level node holding `user` (the return: one past the end).
  size_t position_of_user(const ir::Node* user) const {
    while (user->owning_block() != top) user = user->owning_block()->owning_node();
    if (user == top->return_node()) return nodes.size();
    return pos.at(user);
  }
  const ir::Block* top;
  std::vector<ir::Node*> nodes;
  std::vector<uint64_t> sig;
  std::unordered_map<const ir::Node*, size_t> pos;
};

// A run of `reps` repetitions of `period` nodes starting at `start`.
struct Run {
  size_t start = 0, period = 0, reps = 0;
  size_t end() const { return start + period * reps; }
};

// Where an input of a repetition's node comes from.
struct Source {
  enum Kind { Outside, Internal, Carried, Invalid } kind = Invalid;
  size_t offset = 0;  // the producing node's place in its repetition (Internal, Carried)
  size_t output = 0;
  ir::Value* value = nullptr;  // Outside
  bool operator==(const Source& o) const {
    return kind == o.kind && offset == o.offset && output == o.output &&
           (kind != Outside || value == o.value);
  }
};

// Counts the repetitions of `period` nodes from `start` that are alike node by node.
size_t count_reps(const TopBlock& tb, size_t start, size_t period, size_t limit) {
  size_t reps = 1;
  while (reps < limit && start + (reps + 1) * period <= tb.nodes.size()) {
    const size_t base = start + reps * period;
    bool alike = true;
    for (size_t j = 0; j < period && alike; ++j) {
      alike = tb.sig[base + j] == tb.sig[start + j] &&
              same_node(*tb.nodes[base + j], *tb.nodes[start + j]);
    }
    if (!alike) break;
    ++reps;
  }
  return reps;
}

class Folder {
 public:
  Folder(ir::Graph& g, const TopBlock& tb, const Run& run) : g_(g), tb_(tb), run_(run) {}

  // Checks the run's data flow; on success fills the plan and returns "".
  std::string check() {
    const size_t p = run_.period;
    sources_.assign(p, {});
    index_.assign(p, std::nullopt);
    for (size_t j = 0; j < p; ++j) {
      const ir::Node* first = node(0, j);
      if (first->kind() == ir::kind::Constant) {
        if (std::string why = check_constant(j); !why.empty()) return why;
        continue;
      }
      for (size_t t = 0; t < first->inputs().size(); ++t) {
        const Source s1 = classify(node(1, j)->input(t), 1);
        if (s1.kind == Source::Invalid)
          return "a repetition reads a value from two repetitions back";
        for (size_t k = 2; k < run_.reps; ++k) {
          if (!(classify(node(k, j)->input(t), k) == s1)) {
            return "the repetitions read different values";
          }
        }
        const Source s0 = classify(first->input(t), 0);
        if (s1.kind == Source::Carried) {
          if (s0.kind != Source::Outside)
            return "the first repetition reads its own values where the others read the one before";
          const auto key = std::make_pair(s1.offset, s1.output);
          auto [it, added] = initial_.emplace(key, s0.value);
          if (added) carried_.push_back(key);
          if (it->second != s0.value) return "a carried value starts from two values";
        } else if (!(s0 == s1)) {
          return "the first repetition reads other values than the rest";
        }
        sources_[j].push_back(s1);
      }
    }
    // Only the last repetition's carried values may be read after the run.
    for (size_t k = 0; k < run_.reps; ++k) {
      for (size_t j = 0; j < p; ++j) {
        for (const ir::Value* out : node(k, j)->outputs()) {
          for (const ir::Use& use : out->uses()) {
            if (tb_.position_of_user(use.user) < run_.end()) continue;
            if (k + 1 != run_.reps || !initial_.count({j, out->offset()})) {
              return "a value of the loop that is not carried is read after it";
            }
          }
        }
      }
    }
    for (const auto& key : carried_) {
      const std::string type = initial_.at(key)->type().str();
      for (size_t k = 0; k < run_.reps; ++k) {
        if (node(k, key.first)->output(key.second)->type().str() != type) {
          return "a carried value's type changes from one trip to the next (" + type + ")";
        }
      }
    }
    return {};
  }

  // Replaces the run with the loop; returns the loop node.
  ir::Node* fold(const SourceRange& range) {
    const size_t p = run_.period;
    ir::WithInsertPoint at(g_, tb_.nodes[run_.start]);
    ir::Value* trips = g_.insert_constant(IValue(static_cast<int64_t>(run_.reps)), range);
    ir::Value* yes = g_.insert_constant(IValue(true), range);
    std::vector<ir::Value*> inputs = {trips, yes};
    for (const auto& key : carried_) inputs.push_back(initial_.at(key));
    ir::Node* loop = g_.insert(ir::kind::Loop, inputs, carried_.size(), range);
    ir::Block* body = loop->add_block();
    ir::Value* i = body->add_input("i");
    i->set_type(ir::Type::of_int());
    std::map<std::pair<size_t, size_t>, ir::Value*> carried_in, made;
    for (const auto& key : carried_) {
      const ir::Value* last = node(run_.reps - 1, key.first)->output(key.second);
      ir::Value* in = body->add_input(last->debug_name());
      in->set_type(last->type());
      carried_in[key] = in;
    }
    {
      ir::WithInsertPoint in_body(g_, body);
      for (size_t j = 0; j < p; ++j) {
        const ir::Node* orig = node(0, j);
        if (index_[j]) {
          made[{j, 0}] = index_value(i, *index_[j], orig->range());
          continue;
        }
        std::vector<ir::Value*> ins;
        for (const Source& s : sources_[j]) {
          ins.push_back(s.kind == Source::Outside    ? s.value
                        : s.kind == Source::Internal ? made.at({s.offset, s.output})
                                                     : carried_in.at({s.offset, s.output}));
        }
        ir::Node* copy = g_.insert(orig->kind(), ins, orig->outputs().size(), orig->range());
        copy->set_overload(orig->overload());
        for (const auto& [name, value] : orig->attrs()) copy->set_attr(name, value);
        for (size_t o = 0; o < orig->outputs().size(); ++o) {
          copy->output(o)->set_type(orig->output(o)->type());
          if (!orig->output(o)->debug_name().empty()) {
            copy->output(o)->set_debug_name(orig->output(o)->debug_name());
          }
          made[{j, o}] = copy->output(o);
        }
      }
      body->register_output(g_.insert_constant(IValue(true), range));
      for (const auto& key : carried_) body->register_output(made.at(key));
    }
    for (size_t c = 0; c < carried_.size(); ++c) {
      ir::Value* last = node(run_.reps - 1, carried_[c].first)->output(carried_[c].second);
      loop->output(c)->set_type(last->type());
      if (!last->debug_name().empty()) loop->output(c)->set_debug_name(last->debug_name());
      last->replace_all_uses_with(loop->output(c));
    }
    for (size_t q = run_.end(); q-- > run_.start;) tb_.nodes[q]->destroy();
    return loop;
  }

 private:
  struct Index {
    int64_t start = 0, step = 1;
  };

  ir::Node* node(size_t rep, size_t offset) const {
    return tb_.nodes[run_.start + rep * run_.period + offset];
  }

  Source classify(ir::Value* v, size_t rep) const {
    Source s;
    auto it = tb_.pos.find(v->node());
    if (it == tb_.pos.end() || it->second < run_.start) {
      s.kind = Source::Outside;
      s.value = v;
      return s;
    }
    const size_t q = it->second - run_.start;
    const size_t from = q / run_.period;
    s.offset = q % run_.period;
    s.output = v->offset();
    s.kind = from == rep ? Source::Internal : from + 1 == rep ? Source::Carried : Source::Invalid;
    return s;
  }

  // A constant alike in every repetition, or an int stepping evenly: the index.
  std::string check_constant(size_t j) {
    const IValue& first = *node(0, j)->attr("value");
    bool alike = true;
    for (size_t k = 1; k < run_.reps && alike; ++k) {
      alike = same_constant(*node(k, j)->attr("value"), first);
    }
    if (alike) return {};
    if (!first.is_int()) return "a constant differs between repetitions";
    const int64_t step = node(1, j)->attr("value")->to_int() - first.to_int();
    for (size_t k = 0; k < run_.reps; ++k) {
      const IValue& v = *node(k, j)->attr("value");
      if (!v.is_int() || v.to_int() != first.to_int() + step * static_cast<int64_t>(k)) {
        return "a constant differs between repetitions, not by a fixed step";
      }
    }
    index_[j] = Index{first.to_int(), step};
    return {};
  }

  ir::Value* index_value(ir::Value* i, const Index& idx, const SourceRange& range) {
    ir::Value* v = i;
    if (idx.step != 1) {
      ir::Node* mul =
          g_.insert("aten::mul", {v, g_.insert_constant(IValue(idx.step), range)}, 1, range);
      mul->set_overload("int");
      mul->output()->set_type(ir::Type::of_int());
      v = mul->output();
    }
    if (idx.start != 0) {
      ir::Node* add =
          g_.insert("aten::add", {v, g_.insert_constant(IValue(idx.start), range)}, 1, range);
      add->set_overload("int");
      add->output()->set_type(ir::Type::of_int());
      v = add->output();
    }
    return v;
  }

  ir::Graph& g_;
  const TopBlock& tb_;
  Run run_;
  std::vector<std::vector<Source>> sources_;
  std::vector<std::optional<Index>> index_;
  std::vector<std::pair<size_t, size_t>> carried_;  // (offset, output), in order found
  std::map<std::pair<size_t, size_t>, ir::Value*> initial_;
};

// One loop of the log: its keyword, its lines, and the trip counts it ran with.
struct LoopSite {
  const TraceLoop* first = nullptr;
  // The loop's lines, then the lines of the functions called from them (a body
  // that is one helper call has all its nodes there).
  std::vector<std::pair<int, int>> lines;
  int64_t max_trips = 0;
  Provenance from = Provenance::Constant;
};

std::string where(const SourceRange& r) {
  return r.file_name() + ":" + std::to_string(r.line);
}

// Finds and folds the runs of one loop site into report.folded; returns why the last
// run that was tried did not fold ("" when none was found).
std::string fold_site(ir::Graph& graph, const LoopSite& site, RerollReport& report) {
  size_t cursor = 0;
  std::string last_reason;
  for (;;) {
    TopBlock tb(graph);
    // Anchors: nodes from the loop's lines; the run may start a little before the
    // first (nodes of a helper the body calls), found by stepping back below.
    bool folded = false;
    size_t anchor = cursor;
    int anchors_tried = 0;
    for (; anchor < tb.nodes.size() && anchors_tried < 8 && !folded; ++anchor) {
      const ir::Node* n = tb.nodes[anchor];
      bool on_lines = false;
      for (const auto& [first, last] : site.lines) {
        on_lines = on_lines || (n->range().line >= first && n->range().line <= last);
      }
      if (!on_lines || n->kind() == ir::kind::Loop) continue;
      ++anchors_tried;
      for (size_t next = anchor + 1; next < tb.nodes.size(); ++next) {
        if (tb.sig[next] != tb.sig[anchor] || !same_node(*tb.nodes[next], *tb.nodes[anchor])) {
          continue;
        }
        Run run{anchor, next - anchor, 0};
        run.reps = count_reps(tb, run.start, run.period, static_cast<size_t>(site.max_trips));
        if (run.reps < 2) continue;
        while (run.start > cursor && tb.sig[run.start - 1] == tb.sig[run.start - 1 + run.period] &&
               same_node(*tb.nodes[run.start - 1], *tb.nodes[run.start - 1 + run.period]) &&
               tb.nodes[run.start - 1]->kind() != ir::kind::Loop) {
          --run.start;
        }
        bool nested = false;
        for (size_t q = run.start; q < run.end() && !nested; ++q) {
          nested = !tb.nodes[q]->blocks().empty();
        }
        if (nested) {
          last_reason = "its repetitions hold a loop folded already (only innermost loops fold)";
          continue;
        }
        Folder folder(graph, tb, run);
        if (std::string why = folder.check(); !why.empty()) {
          last_reason = why;
          continue;
        }
        const size_t before = run.end() - run.start;
        ir::Node* loop = folder.fold(site.first->range);
        report.folded.push_back(
            RerolledLoop{site.first->range, static_cast<int64_t>(run.reps), site.from, before, 0});
        size_t after = 3;  // the loop, its trip count and its condition
        for (auto it = loop->blocks()[0]->nodes().begin(); it != loop->blocks()[0]->nodes().end();
             ++it)
          ++after;
        report.folded.back().nodes_after = after;
        cursor = TopBlock(graph).pos.at(loop) + 1;
        folded = true;
        break;
      }
    }
    if (!folded) break;
  }
  return last_reason;
}

}  // namespace

RerollReport reroll_loops(ir::Graph& graph, const TraceLog& log) {
  RerollReport report;
  // Sites in the order their first run finished: inner loops before outer ones.
  std::vector<LoopSite> sites;
  for (const TraceLoop& l : log.loops) {
    LoopSite* site = nullptr;
    for (auto& s : sites) {
      if (s.first->range.line == l.range.line && s.first->range.col == l.range.col) site = &s;
    }
    if (!site) {
      sites.push_back(LoopSite{&l, {loop_lines(l.range)}, 0, l.from});
      site = &sites.back();
    }
    site->max_trips = std::max(site->max_trips, l.trips);
    site->from = combine(site->from, l.from);
  }
  for (LoopSite& site : sites) {
    const auto [first, last] = site.lines[0];
    for (const TraceCall& call : log.calls) {
      const SourceRange& def = call.def_range;
      if (call.call_range.line < first || call.call_range.line > last || def.col <= 4) continue;
      // def_range is the function's name; its `def` keyword is 4 columns before.
      site.lines.push_back(loop_lines(SourceRange(def.file, def.line, def.col - 4)));
    }
  }
  for (const LoopSite& site : sites) {
    if (site.max_trips < 2) continue;
    const size_t folded_before = report.folded.size();
    std::string why = fold_site(graph, site, report);
    if (report.folded.size() == folded_before) {
      report.kept.push_back(where(site.first->range) + ": " +
                            (why.empty() ? "no repeated run of its nodes found" : why));
    }
  }
  ir::verify(graph);
  return report;
}

}  // namespace d2s::convert
