// Aligning traces with the parsed graph: the TraceLogs and the AST indexed by source
// location, then one walk over the parsed graph's If/Loop tree that matches each
// prim::If / prim::Loop with what the traces did there. Hash maps keep every step
// constant time, so alignment is linear in the size of the graph and the logs.
#include <algorithm>

#include "convert/diff_internal.h"

namespace d2s::convert::diff_detail {

namespace {

template <typename Facts>
Facts& per_set(std::unordered_map<LocKey, std::vector<Facts>>& map, LocKey key, size_t num_sets,
               size_t set) {
  auto& v = map[key];
  if (v.empty()) v.resize(num_sets);
  return v[set];
}

void add_trips(TripCounts& t, int64_t trips) {
  t.min = t.runs == 0 ? trips : std::min(t.min, trips);
  t.max = t.runs == 0 ? trips : std::max(t.max, trips);
  ++t.runs;
}

bool truthy(const IValue& v) {
  if (v.is_bool()) return v.to_bool();
  if (v.is_number()) return v.to_double() != 0;
  return !v.is_none();
}

}  // namespace

TraceIndex index_traces(const std::vector<const TraceLog*>& logs) {
  TraceIndex index;
  index.num_sets = logs.size();
  for (size_t s = 0; s < logs.size(); ++s) {
    const TraceLog& log = *logs[s];
    for (const TraceIf& i : log.ifs) {
      IfFacts& f = per_set(index.ifs, loc_key(i.range), logs.size(), s);
      f.arms |= i.taken ? kThen : kElse;
      f.from = combine(f.from, i.from);
      f.is_elif = i.is_elif;
      f.range = i.range;
      f.test_range = i.test_range;
      index.statement_lines.insert(i.range.line);
      index.statement_lines.insert(i.test_range.line);
    }
    for (const TraceLoop& l : log.loops) {
      LoopFacts& f = per_set(index.loops, loc_key(l.range), logs.size(), s);
      add_trips(f.trips, l.trips);
      f.from = combine(f.from, l.from);
      f.is_while = l.is_while;
      f.range = l.range;
      for (int line : {l.range.line, l.header_range.line}) {
        index.statement_lines.insert(line);
        index.loop_lines.insert(line);
      }
    }
    for (const TraceConversion& c : log.conversions) {
      if (c.kind != PyConversion::Bool) continue;
      auto& v = index.bool_lines[c.range.line];
      if (v.empty()) v.resize(logs.size());
      IfFacts& f = v[s];
      f.arms |= truthy(c.seen) ? kThen : kElse;
      f.from = combine(f.from, c.from);
      if (!f.range.known()) f.range = c.range;
      f.test_range = c.range;
    }
  }
  return index;
}

// ------------------------------------------------------------------ the AST

namespace {

int last_line(const ast::Body& body);

void index_body(const ast::Body& body, AstIndex& index) {
  for (size_t i = 0; i < body.size(); ++i) {
    const ast::Stmt& s = *body[i];
    switch (s.kind) {
      case ast::StmtKind::If: {
        const auto& stmt = s.as<ast::If>();
        index.ifs[loc_key(stmt.range)] = &stmt;
        index.place[&stmt] = AstIndex::Place{&body, i};
        index_body(stmt.body, index);
        index_body(stmt.orelse, index);
        // An elif shares its owner's place: what follows the chain follows both.
        if (stmt.orelse.size() == 1 && stmt.orelse[0]->kind == ast::StmtKind::If &&
            stmt.orelse[0]->as<ast::If>().is_elif) {
          index.place[&stmt.orelse[0]->as<ast::If>()] = AstIndex::Place{&body, i};
        }
        break;
      }
      case ast::StmtKind::For:
      case ast::StmtKind::While: {
        const ast::Body& inner =
            s.kind == ast::StmtKind::For ? s.as<ast::For>().body : s.as<ast::While>().body;
        if (!inner.empty()) {
          index.loop_bodies[loc_key(s.range)] = {inner.front()->range.line, last_line(inner)};
        }
        index_body(inner, index);
        break;
      }
      case ast::StmtKind::With:
        index_body(s.as<ast::With>().body, index);
        break;
      case ast::StmtKind::FunctionDef:
        index_body(s.as<ast::FunctionDef>().body, index);
        break;
      case ast::StmtKind::ClassDef:
        index_body(s.as<ast::ClassDef>().body, index);
        break;
      case ast::StmtKind::Assert:
        index.assert_lines.insert(s.range.line);
        break;
      default:
        break;
    }
  }
}

// The last line on which a statement of `body` (nested ones included) starts.
int last_line(const ast::Body& body) {
  int last = 0;
  for (const ast::StmtPtr& s : body) {
    last = std::max(last, s->range.line);
    switch (s->kind) {
      case ast::StmtKind::If:
        last =
            std::max({last, last_line(s->as<ast::If>().body), last_line(s->as<ast::If>().orelse)});
        break;
      case ast::StmtKind::For:
        last = std::max(last, last_line(s->as<ast::For>().body));
        break;
      case ast::StmtKind::While:
        last = std::max(last, last_line(s->as<ast::While>().body));
        break;
      case ast::StmtKind::With:
        last = std::max(last, last_line(s->as<ast::With>().body));
        break;
      default:
        break;
    }
  }
  return last;
}

void body_lines(const ast::Body& body, size_t from, std::vector<int>& out) {
  for (size_t i = from; i < body.size(); ++i) {
    const ast::Stmt& s = *body[i];
    out.push_back(s.range.line);
    switch (s.kind) {
      case ast::StmtKind::If:
        body_lines(s.as<ast::If>().body, 0, out);
        body_lines(s.as<ast::If>().orelse, 0, out);
        break;
      case ast::StmtKind::For:
        body_lines(s.as<ast::For>().body, 0, out);
        break;
      case ast::StmtKind::While:
        body_lines(s.as<ast::While>().body, 0, out);
        break;
      case ast::StmtKind::With:
        body_lines(s.as<ast::With>().body, 0, out);
        break;
      default:
        break;
    }
  }
}

// The body never falls through to what follows it.
bool always_exits(const ast::Body& body) {
  if (body.empty()) return false;
  const ast::Stmt& last = *body.back();
  switch (last.kind) {
    case ast::StmtKind::Return:
    case ast::StmtKind::Break:
    case ast::StmtKind::Continue:
      return true;
    case ast::StmtKind::If: {
      const auto& i = last.as<ast::If>();
      return always_exits(i.body) && always_exits(i.orelse);
    }
    case ast::StmtKind::With:
      return always_exits(last.as<ast::With>().body);
    default:
      return false;
  }
}

}  // namespace

AstIndex index_ast(const ast::Module& module) {
  AstIndex index;
  index_body(module.body, index);
  return index;
}

std::vector<int> lost_lines(const AstIndex& index, const ast::If& stmt, Arm lost) {
  const ast::Body& lost_arm = lost == Arm::Then ? stmt.body : stmt.orelse;
  const ast::Body& kept_arm = lost == Arm::Then ? stmt.orelse : stmt.body;
  std::vector<int> lines;
  body_lines(lost_arm, 0, lines);
  // The trace left the block with the kept arm, so it never saw what follows the if
  // (unless the lost arm leaves too: then nothing follows on any path).
  if (always_exits(kept_arm) && !always_exits(lost_arm)) {
    auto it = index.place.find(&stmt);
    if (it != index.place.end()) body_lines(*it->second.body, it->second.index + 1, lines);
  }
  std::sort(lines.begin(), lines.end());
  lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
  return lines;
}

// ------------------------------------------------------------------ alignment

bool depends_on_scalar_input(const ir::Value* v) {
  // Bounded: a value computed from more than this many values is taken not to be.
  constexpr size_t kMaxVisited = 200'000;
  std::vector<const ir::Value*> stack{v};
  std::unordered_set<const ir::Value*> seen;
  auto push = [&](const ir::Value* x) {
    if (x) stack.push_back(x);
  };
  while (!stack.empty() && seen.size() < kMaxVisited) {
    const ir::Value* x = stack.back();
    stack.pop_back();
    if (!seen.insert(x).second) continue;
    const ir::Node* p = x->node();
    if (p->prim() == ir::Prim::Param) {
      const ir::Block* b = p->owning_block();
      const ir::Node* owner = b ? b->owning_node() : nullptr;
      if (!owner) {
        if (!x->type().is_tensor()) return true;
        continue;
      }
      if (owner->prim() == ir::Prim::Loop) {
        const size_t i = x->offset();
        if (i == 0) {
          push(owner->input(0));  // the trip index follows the trip count
        } else {
          if (i + 1 < owner->inputs().size()) push(owner->input(i + 1));
          if (i < b->outputs().size()) push(b->outputs()[i]);
        }
      }
      continue;
    }
    if (p->prim() == ir::Prim::If) {
      push(p->input(0));
      for (const ir::Block* b : p->blocks()) {
        if (x->offset() < b->outputs().size()) push(b->outputs()[x->offset()]);
      }
      continue;
    }
    if (p->prim() == ir::Prim::Loop) {
      push(p->input(0));
      push(p->input(1));
      const size_t i = x->offset();
      if (i + 2 < p->inputs().size()) push(p->input(i + 2));
      const ir::Block* body = p->blocks().at(0);
      if (i + 1 < body->outputs().size()) push(body->outputs()[i + 1]);
      continue;
    }
    for (const ir::Value* in : p->inputs()) push(in);
  }
  return false;
}

namespace {

bool is_exit_guard(const ir::Node* n) {
  const IValue* a = n->attr("exit_guard");
  return a && a->is_bool() && a->to_bool();
}

bool is_constant_true(const ir::Value* v) {
  if (v->node()->prim() != ir::Prim::Constant) return false;
  const IValue* value = v->node()->attr("value");
  return value && value->is_bool() && value->to_bool();
}

class Aligner {
 public:
  Aligner(const TraceIndex& index, Alignment& out) : index_(index), out_(out) {}

  void run(const ir::Graph& parsed, const AstIndex& ast) {
    walk(parsed);
    add_unmatched_ifs();
    loop_body_provenance(ast);
  }

 private:
  // Decisions the traces made where the parsed graph has no If: the parse route
  // folded the statement into something else (`if c: break` sets the stop flag).
  void add_unmatched_ifs() {
    for (const auto& [key, facts] : index_.ifs) {
      if (if_at_.count(key)) continue;
      AlignedIf a;
      a.arms.assign(index_.num_sets, 0);
      for (size_t s = 0; s < facts.size(); ++s) {
        const IfFacts& f = facts[s];
        a.arms[s] = f.arms;
        a.from = combine(a.from, f.from);
        if (f.arms) {
          a.range = f.range;
          a.is_elif = f.is_elif;
          if (a.test.empty()) a.test = range_text(f.test_range);
        }
      }
      if (a.from == Provenance::Constant) continue;  // folded by both routes
      if_at_.emplace(key, out_.ifs.size());
      out_.ifs.push_back(std::move(a));
    }
  }

  // What may stop a loop early is decided in its body: the trip count of a loop that
  // can exit is as data-dependent as the decisions made there.
  void loop_body_provenance(const AstIndex& ast) {
    std::vector<std::pair<int, Provenance>> decisions;  // by line
    for (const AlignedIf& a : out_.ifs) decisions.emplace_back(a.range.line, a.from);
    std::sort(decisions.begin(), decisions.end());
    for (AlignedLoop& l : out_.loops) {
      auto body = ast.loop_bodies.find(loc_key(l.range));
      if (body == ast.loop_bodies.end()) continue;
      auto it = std::lower_bound(decisions.begin(), decisions.end(),
                                 std::make_pair(body->second.first, Provenance::Constant));
      for (; it != decisions.end() && it->first <= body->second.second; ++it) {
        l.body_from = combine(l.body_from, it->second);
      }
    }
  }

  void walk(const ir::Graph& parsed) {
    stack_.push_back(parsed.block());
    while (!stack_.empty()) {
      const ir::Block* block = stack_.back();
      stack_.pop_back();
      for (const ir::Node* n : block->nodes()) {
        if (n->prim() == ir::Prim::If) {
          visit_if(n);
        } else if (n->prim() == ir::Prim::Loop) {
          visit_loop(n);
        } else {
          for (const ir::Block* b : n->blocks()) stack_.push_back(b);
        }
      }
    }
  }

  void visit_if(const ir::Node* n) {
    const int line = n->range().line;
    const LocKey key = loc_key(n->range());
    if (is_exit_guard(n)) {
      // The exit transform's guard after code that may return or break: not a user
      // decision; what runs inside is aligned on its own.
      push_arms(n, kThen | kElse);
      return;
    }
    if (auto it = index_.ifs.find(key); it != index_.ifs.end()) {
      AlignedIf& a = aligned_if(key, n);
      if (a.nodes.size() == 1) {  // first parsed If at this location: take the facts
        for (size_t s = 0; s < it->second.size(); ++s) {
          const IfFacts& f = it->second[s];
          a.arms[s] = f.arms;
          a.from = combine(a.from, f.from);
          if (f.arms) {
            a.is_elif = f.is_elif;
            if (a.test.empty()) a.test = range_text(f.test_range);
          }
        }
        // A decision the trace made from plain Python values that the parse route
        // could not fold: it comes from a scalar input, baked by the trace.
        if (a.from == Provenance::Constant && depends_on_scalar_input(n->input(0))) {
          a.from_input = true;
          a.from = Provenance::Data;
        }
      }
      push_arms(n, union_arms(a.arms));
      return;
    }
    if (!index_.statement_lines.count(line)) {
      if (auto it = index_.bool_lines.find(line); it != index_.bool_lines.end()) {
        // `a if c else b`, an assert: the decision is a truth value on this line.
        AlignedIf& a = aligned_if(key, n);
        a.expression = true;
        if (a.nodes.size() == 1) {
          for (size_t s = 0; s < it->second.size(); ++s) {
            const IfFacts& f = it->second[s];
            a.arms[s] = f.arms;
            a.from = combine(a.from, f.from);
            if (f.arms && a.test.empty()) a.test = range_text(f.test_range);
          }
        }
        push_arms(n, union_arms(a.arms));
        return;
      }
    }
    // `and` / `or` inside an if or while test: evaluated as part of that statement.
    if (index_.statement_lines.count(line)) push_arms(n, kThen | kElse);
    // Otherwise no trace reached this if: nothing inside it ran.
  }

  void visit_loop(const ir::Node* n) {
    const LocKey key = loc_key(n->range());
    auto it = index_.loops.find(key);
    if (it == index_.loops.end()) return;  // no trace reached it
    auto [pos, inserted] = loop_at_.try_emplace(key, out_.loops.size());
    if (inserted) {
      AlignedLoop a;
      a.range = n->range();
      a.trips.resize(index_.num_sets);
      for (size_t s = 0; s < it->second.size(); ++s) {
        const LoopFacts& f = it->second[s];
        a.trips[s] = f.trips;
        a.from = combine(a.from, f.from);
        if (f.trips.runs) a.is_while = f.is_while;
      }
      ir::LoopView view(const_cast<ir::Node*>(n));
      a.may_exit = !is_constant_true(view.body_cond());
      if (a.from == Provenance::Constant && (depends_on_scalar_input(view.max_trip_count()) ||
                                             depends_on_scalar_input(view.initial_cond()))) {
        a.from_input = true;
        a.from = Provenance::Data;
      }
      out_.loops.push_back(std::move(a));
    }
    const size_t idx = pos->second;
    out_.loops[idx].nodes.push_back(n);
    bool ran = false;
    for (const TripCounts& t : out_.loops[idx].trips) ran = ran || t.max > 0;
    if (ran) stack_.push_back(n->blocks().at(0));
  }

  AlignedIf& aligned_if(LocKey key, const ir::Node* n) {
    auto [pos, inserted] = if_at_.try_emplace(key, out_.ifs.size());
    if (inserted) {
      AlignedIf a;
      a.range = n->range();
      a.arms.assign(index_.num_sets, 0);
      out_.ifs.push_back(std::move(a));
    }
    AlignedIf& a = out_.ifs[pos->second];
    a.nodes.push_back(n);
    return a;
  }

  static uint8_t union_arms(const std::vector<uint8_t>& arms) {
    uint8_t all = 0;
    for (uint8_t a : arms) all |= a;
    return all;
  }

  void push_arms(const ir::Node* n, uint8_t arms) {
    if ((arms & kElse) && n->blocks().size() > 1) stack_.push_back(n->blocks()[1]);
    if ((arms & kThen) && !n->blocks().empty()) stack_.push_back(n->blocks()[0]);
  }

  const TraceIndex& index_;
  Alignment& out_;
  std::vector<const ir::Block*> stack_;
  std::unordered_map<LocKey, size_t> if_at_;
  std::unordered_map<LocKey, size_t> loop_at_;
};

}  // namespace

Alignment align(const ir::Graph& parsed, const TraceIndex& index, const AstIndex& ast) {
  Alignment out;
  Aligner(index, out).run(parsed, ast);
  // The parsed graph's own control flow, executed or not (exit guards are plumbing).
  std::vector<const ir::Block*> stack{parsed.block()};
  while (!stack.empty()) {
    const ir::Block* b = stack.back();
    stack.pop_back();
    for (const ir::Node* n : b->nodes()) {
      if (n->prim() == ir::Prim::If && !is_exit_guard(n)) ++out.parsed_ifs;
      if (n->prim() == ir::Prim::Loop) ++out.parsed_loops;
      for (const ir::Block* inner : n->blocks()) stack.push_back(inner);
    }
  }
  return out;
}

}  // namespace d2s::convert::diff_detail
