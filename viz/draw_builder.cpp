// DrawBuilder: elements, edges, inputs and outputs, ops, folded runs and the note.
// Control flow (blocks, If, Loop) is in draw_control.cpp.
#include "viz/draw_builder.h"

#include <algorithm>
#include <utility>

#include "viz/style.h"

namespace d2s::viz {

namespace {

constexpr size_t kMaxLabelChars = 60;  // a row longer than this is shortened with …
constexpr size_t kMaxRunRows = 6;      // members of a folded run listed in its box

std::string bold(std::string_view text) {
  return "<B>" + html(text) + "</B>";
}

std::string small(std::string_view text, const char* colour = style::kSubtleText) {
  if (text.empty()) return {};  // an empty <FONT></FONT> is a syntax error to Graphviz
  return std::string("<FONT POINT-SIZE=\"9\" COLOR=\"") + colour + "\">" + html(text) + "</FONT>";
}

std::string rows(const std::vector<std::string>& r, const char* br = "<BR/>") {
  std::string out;
  for (const std::string& row : r) {
    if (row.empty()) continue;
    if (!out.empty()) out += br;
    out += row;
  }
  return out;
}

// Graphviz aligns each line by the <BR> that ends it.
std::string left_rows(const std::vector<std::string>& r) {
  const char* br = "<BR ALIGN=\"LEFT\"/>";
  return rows(r, br) + br;
}

std::string route_words(const std::string& route) {
  if (route == "parse") return "parsed graph";
  if (route == "trace") return "traced graph";
  return route.empty() ? "graph" : route + " graph";
}

}  // namespace

DrawBuilder::DrawBuilder(DrawGraph& out, const ir::Graph& graph, const RenderOptions& options,
                         const StyleHooks& hooks, int frame, std::string title)
    : out_(out),
      graph_(graph),
      options_(options),
      hooks_(hooks),
      frame_(frame),
      prefix_(frame < 0 ? "" : "p" + std::to_string(frame) + "_"),
      title_(std::move(title)),
      baked_constants_(graph.route == "trace") {}

// ------------------------------------------------------------------ elements

size_t DrawBuilder::add_node(int cluster, Attrs attrs) {
  DrawNode n;
  n.name = "n" + std::to_string(out_.nodes.size());
  n.cluster = cluster;
  attrs.set("id", n.name);  // stable ids in SVG, for reports that link to nodes
  n.attrs = std::move(attrs);
  out_.nodes.push_back(std::move(n));
  ++drawn_;
  return out_.nodes.size() - 1;
}

int DrawBuilder::add_cluster(int parent, const std::string& name, Attrs attrs) {
  DrawCluster c;
  c.name = name;
  c.parent = parent;
  if (name.rfind("cluster", 0) == 0) attrs.set("id", name);
  c.attrs = std::move(attrs);
  out_.clusters.push_back(std::move(c));
  return static_cast<int>(out_.clusters.size()) - 1;
}

void DrawBuilder::add_edge(size_t from, size_t to, const ir::Value* value, const ir::Node* user,
                           Attrs attrs) {
  if (from == to) return;
  const uint64_t key = (static_cast<uint64_t>(from) << 32) ^ static_cast<uint64_t>(to);
  if (!edges_.insert(key).second) return;
  if (hooks_.edge && value) hooks_.edge(*value, user, attrs);
  out_.edges.push_back(DrawEdge{from, to, std::move(attrs)});
}

void DrawBuilder::apply(const ElementStyle& s, Attrs& attrs, std::string& label_rows) {
  for (const auto& [k, v] : s.attrs.items()) attrs.set(k, v);
  if (const std::string* label = s.attrs.get("label")) label_rows = *label;
  if (!s.badge.empty()) {
    const std::string* colour = s.attrs.get("color");
    label_rows += "<BR/><FONT POINT-SIZE=\"9\" COLOR=\"" + html(colour ? *colour : style::kText) +
                  "\"><B>" + html(shorten(s.badge, kMaxLabelChars)) + "</B></FONT>";
  }
}

bool DrawBuilder::in_cluster(size_t node, int cluster) const {
  for (int c = out_.nodes[node].cluster; c >= 0; c = out_.clusters[c].parent) {
    if (c == cluster) return true;
  }
  return cluster < 0;
}

std::optional<size_t> DrawBuilder::source_of(const ir::Value* v) const {
  if (v->node()->prim() == ir::Prim::Constant) return std::nullopt;
  auto it = source_.find(v);
  if (it == source_.end()) return std::nullopt;
  return it->second;
}

bool DrawBuilder::absorbed_by_guard(const ir::Node& node) {
  if (node.outputs().size() != 1 || node.blocks().size() != 0) return false;
  const auto& uses = node.output()->uses();
  if (uses.size() != 1 || uses[0].user->prim() != ir::Prim::Guard ||
      uses[0].user->owning_block() != node.owning_block()) {
    return false;
  }
  namespace op = ir::op;
  for (ir::Symbol k : {op::size, op::Bool, op::Int, op::Float, op::item, op::len}) {
    if (node.sym() == k) return true;
  }
  return false;
}

void DrawBuilder::wire_inputs(const ir::Node& user, size_t to) {
  for (const ir::Value* v : user.inputs()) {
    if (source_.count(v) == 0 && absorbed_by_guard(*v->node())) {
      for (const ir::Value* inner : v->node()->inputs()) {
        if (auto from = source_of(inner)) add_edge(*from, to, inner, &user);
      }
    } else if (auto from = source_of(v)) {
      add_edge(*from, to, v, &user);
    }
  }
}

// ------------------------------------------------------------------ the panel

void DrawBuilder::build() {
  // Outputs get a share of the budget up front, so a capped picture still ends in them.
  const size_t max_nodes = std::max<size_t>(options_.max_nodes, 1);
  const size_t reserved = std::min(graph_.outputs().size(), std::max<size_t>(max_nodes / 4, 1));
  budget_ = max_nodes > reserved ? max_nodes - reserved : 0;
  if (baked_constants_) find_baked_arguments();
  draw_inputs();
  draw_block(*graph_.block(), frame_, 0);
  budget_ = drawn_ + reserved;
  draw_outputs();
  finish_note();
  Attrs& target = frame_ < 0 ? out_.graph_attrs : out_.clusters[frame_].attrs;
  target.set("label", title_label());
}

std::string DrawBuilder::title_label() const {
  std::string head =
      title_.empty() ? graph_.entry.empty() ? std::string("graph") : graph_.entry : title_;
  std::string line = bold(head);
  if (title_.empty()) {
    line += html("  ·  " + route_words(graph_.route) + "  ·  " + thousands(graph_.node_count()) +
                 " nodes");
  }
  std::string notes;
  if (folded_nodes_) notes += thousands(folded_nodes_) + " repeated nodes folded into ×N boxes";
  if (skipped_) {
    if (!notes.empty()) notes += "  ·  ";
    notes += "the first " + thousands(options_.max_nodes) + " drawn";
  }
  std::string where = graph_.source ? graph_.source->path() : std::string();
  if (!where.empty() && !notes.empty()) where += "  ·  ";
  return left_rows({line, small(where + notes)});
}

void DrawBuilder::draw_inputs() {
  const auto& inputs = graph_.inputs();
  if (inputs.empty()) return;
  Attrs rank;
  rank.set("rank", "same");
  const int group = add_cluster(frame_, prefix_ + "inputs", std::move(rank));
  last_in_row_.reset();
  for (const ir::Value* v : inputs) {
    const std::string& name = namer_.name(v);
    if (!budget_left()) {
      ++skipped_;
      ++skipped_kinds_["graph input"];
      source_[v] = note();
      continue;
    }
    Attrs a;
    a.set("shape", "ellipse");
    a.set("fillcolor", style::kInputFill);
    a.set("color", style::kInputBorder);
    a.set("style", "filled");
    a.set("label", rows({bold(name), small(v->type().str())}));
    a.set("tooltip", esc_string("input " + name + " : " + v->type().str()));
    const size_t id = add_node(group, std::move(a));
    keep_order(id);
    source_[v] = id;
  }
}

void DrawBuilder::draw_outputs() {
  const auto& outputs = graph_.outputs();
  if (outputs.empty()) return;
  Attrs rank;
  rank.set("rank", "same");
  const int group = add_cluster(frame_, prefix_ + "outputs", std::move(rank));
  last_in_row_.reset();
  for (size_t i = 0; i < outputs.size(); ++i) {
    const ir::Value* v = outputs[i];
    if (!budget_left()) {
      ++outputs_left_out_;
      if (auto from = source_of(v)) add_edge(*from, note(), v, nullptr);
      continue;
    }
    const bool constant = v->node()->prim() == ir::Prim::Constant;
    const std::string what = constant ? constant_text(*v->node()) : namer_.display(v);
    const std::string head = outputs.size() == 1 ? "return" : "return " + std::to_string(i);
    Attrs a;
    a.set("shape", "ellipse");
    a.set("fillcolor", style::kOutputFill);
    a.set("color", style::kOutputBorder);
    a.set("style", "filled");
    a.set("label",
          rows({bold(head), small(shorten(what + " : " + v->type().str(), kMaxLabelChars))}));
    a.set("tooltip", esc_string(head + " " + what + " : " + v->type().str()));
    const size_t id = add_node(group, std::move(a));
    keep_order(id);
    if (auto from = source_of(v)) add_edge(*from, id, v, nullptr);
  }
}

void DrawBuilder::keep_order(size_t id) {
  // Inputs and outputs stand in a row in parameter / return order: an invisible edge
  // from each to the next inside their rank=same group fixes Graphviz's order.
  if (last_in_row_) {
    Attrs a;
    a.set("style", "invis");
    add_edge(*last_in_row_, id, nullptr, nullptr, std::move(a));
  }
  last_in_row_ = id;
}

// ------------------------------------------------------------------ ops

uint64_t DrawBuilder::argument_key(const ir::Node& node, size_t input) {
  const SourceRange& r = node.range();
  uint64_t h = std::hash<const void*>{}(r.file.get());
  h = h * 0x9E3779B97F4A7C15ull + static_cast<uint64_t>(r.line);
  h = h * 0x9E3779B97F4A7C15ull + static_cast<uint64_t>(r.col);
  h = h * 0x9E3779B97F4A7C15ull + std::hash<std::string>{}(node.kind());
  return h * 0x9E3779B97F4A7C15ull + input;
}

void DrawBuilder::find_baked_arguments() {
  // A trace writes every Python number the run computed (a loop index, a size, an
  // item()) into the graph as a constant. Where the same argument of the same op at
  // the same source position holds different constants, the value came from the run,
  // not from the program text: those are the baked values worth pointing at.
  std::unordered_map<uint64_t, std::string> first;
  std::vector<const ir::Block*> blocks{graph_.block()};
  while (!blocks.empty()) {
    const ir::Block* b = blocks.back();
    blocks.pop_back();
    for (const ir::Node* n : b->nodes()) {
      for (const ir::Block* inner : n->blocks()) blocks.push_back(inner);
      if (n->prim() == ir::Prim::Constant) continue;
      for (size_t i = 0; i < n->inputs().size(); ++i) {
        const ir::Node* c = n->inputs()[i]->node();
        if (c->prim() != ir::Prim::Constant) continue;
        const uint64_t key = argument_key(*n, i);
        if (baked_.count(key)) continue;
        std::string text = constant_text(*c);
        auto [it, fresh] = first.emplace(key, text);
        if (!fresh && it->second != text) baked_.insert(key);
      }
    }
  }
}

std::string DrawBuilder::call_label(const ir::Node& node) {
  std::string out = bold(short_kind(node.kind())) + "(";
  size_t chars = short_kind(node.kind()).size() + 1;
  bool first = true;
  for (const CallArg& a : call_args(node, namer_)) {
    if (chars > kMaxLabelChars) {
      out += ", …";
      break;
    }
    if (!first) out += ", ";
    first = false;
    chars += a.text.size() + 2;
    if (a.constant && !a.is_default && baked_.count(argument_key(node, a.input))) {
      out += std::string("<FONT COLOR=\"") + style::kBaked + "\">" + html(a.text) + "</FONT>";
    } else {
      out += html(a.text);
    }
  }
  return out + ")";
}

void DrawBuilder::draw_op(const ir::Node& node, int cluster) {
  if (!budget_left()) {
    skip(node);
    return;
  }
  for (const ir::Value* v : node.outputs()) namer_.name(v);
  Attrs a;
  std::vector<std::string> label;
  const ir::Prim kind = node.prim();
  if (kind == ir::Prim::Guard) {
    const IValue* expr = node.attr("expr");
    const IValue* seen = node.attr("seen");
    const IValue* what = node.attr("what");
    std::string e = expr && expr->is_string() ? expr->to_string() : call_text(node, namer_);
    std::string detail = "seen " + (seen ? seen->repr() : std::string("?"));
    if (what && what->is_string()) detail += "  ·  " + what->to_string();
    // Cut corners: as distinct as an octagon, without its width.
    a.set("shape", "box");
    a.set("fillcolor", style::kGuardFill);
    a.set("color", style::kGuardBorder);
    a.set("style", "filled,diagonals");
    label = {bold("guard") + " " + html(shorten(e, kMaxLabelChars - 6)),
             small(shorten(detail, kMaxLabelChars), style::kBaked)};
  } else {
    label = {call_label(node), small(shorten(outputs_text(node, namer_), kMaxLabelChars))};
    if (kind == ir::Prim::Print) {
      a.set("shape", "note");
      a.set("style", "filled");
      a.set("fillcolor", style::kPrintFill);
    } else if (kind == ir::Prim::RaiseException) {
      a.set("fillcolor", style::kRaiseFill);
      a.set("color", style::kRaiseBorder);
    } else if (kind == ir::Prim::TupleConstruct || kind == ir::Prim::TupleUnpack ||
               kind == ir::Prim::TupleIndex || kind == ir::Prim::ListConstruct ||
               kind == ir::Prim::ListUnpack) {
      a.set("fillcolor", style::kStructFill);
      a.set("color", style::kStructBorder);
    } else if (kind == ir::Prim::Uninitialized) {
      a.set("style", "rounded,dashed");
      a.set("fontcolor", style::kSubtleText);
    }
  }
  a.set("tooltip", esc_string(tooltip_text(node.range())));
  std::string text = rows(label);
  if (hooks_.node) {
    ElementStyle s;
    hooks_.node(node, s);
    apply(s, a, text);
  }
  a.set("label", text);
  const size_t id = add_node(cluster, std::move(a));
  wire_inputs(node, id);
  for (const ir::Value* v : node.outputs()) source_[v] = id;
}

// The constants of member `offset` that differ between the first and the last
// repetition (the loop index a trace baked in: `0 … 9`), in the baked colour.
std::string DrawBuilder::varying_constants(const std::vector<const ir::Node*>& members,
                                           size_t offset, size_t period) {
  const ir::Node& first = *members[offset];
  const ir::Node& last = *members[members.size() - period + offset];
  std::string out;
  for (size_t k = 0; k < first.inputs().size() && k < last.inputs().size(); ++k) {
    const ir::Node* a = first.inputs()[k]->node();
    const ir::Node* b = last.inputs()[k]->node();
    if (a->prim() != ir::Prim::Constant || b->prim() != ir::Prim::Constant) continue;
    const std::string from = constant_text(*a);
    const std::string to = constant_text(*b);
    if (from == to) continue;
    out += "  " + small(shorten(from, 12) + " … " + shorten(to, 12), style::kBaked);
  }
  return out;
}

void DrawBuilder::draw_run(const std::vector<const ir::Node*>& nodes, const FoldItem& item,
                           int cluster) {
  if (!budget_left()) {
    for (size_t i = item.begin; i < item.end; ++i) skip(*nodes[i]);
    return;
  }
  std::vector<const ir::Node*> members;
  for (size_t i = item.begin; i < item.end; ++i) {
    for (const ir::Value* v : nodes[i]->outputs()) namer_.name(v);
    if (nodes[i]->prim() != ir::Prim::Constant) members.push_back(nodes[i]);
  }
  if (members.empty()) return;

  // One repetition, listed member by member (neighbours of one kind and line merged).
  std::vector<std::string> label = {std::string("<FONT COLOR=\"") + style::kFoldText + "\"><B>×" +
                                    thousands(item.repeats) + "</B></FONT>" + html("  ") +
                                    small("repeated " + thousands(item.repeats) + " times")};
  std::string tooltip = "×" + thousands(item.repeats) + ", each time:";
  size_t listed = 0;
  std::string previous_line;
  for (size_t i = 0; i < item.period;) {
    const ir::Node& m = *members[i];
    size_t same = 1;
    while (i + same < item.period && members[i + same]->sym() == m.sym() &&
           members[i + same]->range().line == m.range().line) {
      ++same;
    }
    tooltip += "&#10;" + tooltip_text(m.range()) + "  (" + short_kind(m.kind()) +
               (same > 1 ? " ×" + std::to_string(same) : "") + ")";
    if (listed < kMaxRunRows) {
      std::string row =
          bold(short_kind(m.kind())) + (same > 1 ? html(" ×" + std::to_string(same)) : "");
      std::string where = source_line(m.range());
      if (where.empty()) where = location_text(m.range());
      // A line shared with the row above is not repeated.
      std::string shown = where == previous_line ? std::string() : shorten(where, 40);
      previous_line = where;
      label.push_back(row + (shown.empty() ? "" : html("  ") + small(shown)) +
                      varying_constants(members, i, item.period));
    } else if (listed == kMaxRunRows) {
      label.push_back(small("…"));
    }
    ++listed;
    i += same;
  }
  label.push_back(small(shorten(
      location_text(members.front()->range()) + "  →  " + outputs_text(*members.back(), namer_),
      kMaxLabelChars)));

  Attrs a;
  a.set("fillcolor", style::kFoldFill);
  a.set("color", style::kFoldBorder);
  a.set("peripheries", "2");
  a.set("tooltip", esc_string(tooltip));
  std::string text = left_rows(label);
  if (hooks_.node) {
    ElementStyle s;
    hooks_.node(*members.front(), s);
    apply(s, a, text);
  }
  a.set("label", text);
  const size_t id = add_node(cluster, std::move(a));
  folded_nodes_ += members.size();
  for (const ir::Node* m : members) {
    wire_inputs(*m, id);  // values made earlier in the run are already `id`: no edge
    for (const ir::Value* v : m->outputs()) source_[v] = id;
  }
}

// ------------------------------------------------------------------ the rest

size_t DrawBuilder::note() {
  if (!note_) {
    Attrs a;
    a.set("shape", "note");
    a.set("style", "filled");
    a.set("fillcolor", style::kNoteFill);
    a.set("color", style::kNoteBorder);
    note_ = add_node(frame_, std::move(a));
  }
  return *note_;
}

void DrawBuilder::skip(const ir::Node& node) {
  name_subtree(namer_, node);
  // The node and everything inside its blocks, without recursion.
  std::vector<const ir::Node*> todo{&node};
  while (!todo.empty()) {
    const ir::Node* n = todo.back();
    todo.pop_back();
    if (n->prim() == ir::Prim::Constant) continue;
    ++skipped_;
    ++skipped_kinds_[n->kind()];
    const size_t to = note();
    for (const ir::Value* v : n->inputs()) {
      if (auto from = source_of(v)) add_edge(*from, to, v, n);
    }
    for (const ir::Value* v : n->outputs()) source_[v] = to;
    for (const ir::Block* b : n->blocks()) {
      for (const ir::Value* v : b->inputs()) source_[v] = to;
      for (const ir::Node* inner : b->nodes()) todo.push_back(inner);
    }
  }
}

void DrawBuilder::finish_note() {
  if (!note_) return;
  if (outputs_left_out_) {
    skipped_kinds_["graph output"] += outputs_left_out_;
    skipped_ += outputs_left_out_;
  }
  std::vector<std::pair<std::string, size_t>> kinds(skipped_kinds_.begin(), skipped_kinds_.end());
  std::stable_sort(kinds.begin(), kinds.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  std::vector<std::string> label = {bold("… " + thousands(skipped_) + " more nodes not drawn")};
  std::string tooltip = thousands(skipped_) + " nodes not drawn:";
  for (size_t i = 0; i < kinds.size(); ++i) {
    const std::string line = kinds[i].first + " ×" + thousands(kinds[i].second);
    tooltip += "&#10;" + line;
    if (i < 4) label.push_back(html(line));
  }
  if (kinds.size() > 4) label.push_back(html("…"));
  label.push_back(
      small("raise --max-nodes (now " + thousands(options_.max_nodes) + ") to draw more"));
  Attrs& a = out_.nodes[*note_].attrs;
  a.set("label", rows(label));
  a.set("tooltip", esc_string(tooltip));
}

}  // namespace d2s::viz
