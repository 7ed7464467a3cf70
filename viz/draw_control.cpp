// DrawBuilder: blocks, folded into items, and If / Loop nodes as nested clusters.
//
// An If is a cluster labelled with its `if` line, holding a diamond head (the
// condition comes in there), its then and else arms as two sub-clusters side by side,
// and a merge node that stands for the If's results. A Loop is a cluster labelled with
// its `for` / `while` line, holding a head (the carried values and the trip count),
// the body, and an end node (the values carried to the next iteration, which are also
// the loop's results) with a dashed edge back to the head.
#include <cstdint>
#include <limits>
#include <vector>

#include "core/ir/printer.h"
#include "viz/draw_builder.h"
#include "viz/style.h"

namespace d2s::viz {

namespace {

constexpr size_t kMaxLabelChars = 60;

std::string bold(std::string_view text) {
  return "<B>" + html(text) + "</B>";
}

std::string small(std::string_view text, const char* colour = style::kSubtleText) {
  if (text.empty()) return {};  // an empty <FONT></FONT> is a syntax error to Graphviz
  return std::string("<FONT POINT-SIZE=\"9\" COLOR=\"") + colour + "\">" + html(text) + "</FONT>";
}

// The statement's line without its colon (`if x < y`), or the kind when the source is
// not known, and where it is.
std::string header_label(const ir::Node& node, const std::string& fallback,
                         const std::string& extra) {
  std::string line = statement_text(node.range());
  if (line.empty()) line = fallback;
  std::string where = location_text(node.range());
  std::string details = where;
  if (!extra.empty()) details += (details.empty() ? "" : "  ·  ") + extra;
  return bold(shorten(line, kMaxLabelChars)) + (details.empty() ? "" : "  " + small(details));
}

Attrs cluster_attrs(const char* fill, const char* border, const std::string& tooltip) {
  Attrs a;
  a.set("style", "rounded,filled");
  a.set("fillcolor", fill);
  a.set("color", border);
  a.set("tooltip", esc_string(tooltip));
  return a;
}

bool is_constant(const ir::Value* v) {
  return v->node()->prim() == ir::Prim::Constant;
}

}  // namespace

void DrawBuilder::draw_block(const ir::Block& block, int cluster, int depth) {
  std::vector<const ir::Node*> nodes;
  for (const ir::Node* n : block.nodes()) nodes.push_back(n);
  Folder folder(nodes, options_.min_fold_repeats, options_.max_fold_period);
  while (!folder.done()) {
    if (!budget_left()) {
      for (size_t i = folder.position(); i < nodes.size(); ++i) skip(*nodes[i]);
      return;
    }
    const FoldItem item = folder.next();
    if (item.folded()) {
      draw_run(nodes, item, cluster);
      continue;
    }
    const ir::Node& n = *nodes[item.begin];
    if (n.prim() == ir::Prim::Constant || absorbed_by_guard(n)) {
      for (const ir::Value* v : n.outputs()) namer_.name(v);  // drawn in its users' labels
    } else if (!n.blocks().empty() && depth >= options_.max_cluster_depth) {
      draw_collapsed(n, cluster);
    } else if (n.prim() == ir::Prim::If && n.blocks().size() == 2) {
      draw_if(n, cluster, depth);
    } else if (n.prim() == ir::Prim::Loop && n.blocks().size() == 1) {
      draw_loop(n, cluster, depth);
    } else {
      draw_op(n, cluster);
    }
  }
}

void DrawBuilder::yield_into(const ir::Block& block, size_t first_output, int cluster, size_t to,
                             const char* edge_colour) {
  const ir::Node* ret = block.return_node();
  for (size_t i = first_output; i < block.outputs().size(); ++i) {
    const ir::Value* v = block.outputs()[i];
    Attrs edge;
    edge.set("color", edge_colour);
    auto from = source_of(v);
    if (from && in_cluster(*from, cluster)) {
      add_edge(*from, to, v, ret, std::move(edge));
      continue;
    }
    // Made outside this block (or a constant): a small stop inside it says the block
    // hands that value on, so an arm that only forwards `y` still shows it.
    Attrs a;
    a.set("shape", "plaintext");
    a.set("style", "");
    a.set("margin", "0.02");
    a.set("height", "0.2");
    const std::string what = is_constant(v) ? constant_text(*v->node()) : namer_.display(v);
    a.set("label", small("→ " + shorten(what, 30)));
    a.set("tooltip", esc_string("the block yields " + what));
    const size_t stop = add_node(cluster, std::move(a));
    if (from) add_edge(*from, stop, v, ret);
    add_edge(stop, to, v, ret, std::move(edge));
  }
}

void DrawBuilder::draw_if(const ir::Node& node, int cluster, int depth) {
  if (!budget_left()) {
    skip(node);
    return;
  }
  for (const ir::Value* v : node.outputs()) namer_.name(v);
  const std::string id = prefix_ + "if" + std::to_string(ifs_++);
  const bool exit_guard = node.attr("exit_guard") != nullptr;
  Attrs ca = cluster_attrs(style::kIfFill, style::kIfBorder, tooltip_text(node.range()));
  std::string clabel = header_label(node, "if", exit_guard ? "after an early exit" : "");
  if (hooks_.cluster) {
    ElementStyle s;
    hooks_.cluster(node, -1, s);
    apply(s, ca, clabel);
  }
  ca.set("label", clabel);
  const int c = add_cluster(cluster, "cluster_" + id, std::move(ca));
  const size_t first_node = out_.nodes.size();
  const size_t first_edge = out_.edges.size();

  // The head: where the condition comes in.
  const ir::Value* cond = node.inputs().empty() ? nullptr : node.inputs()[0];
  std::string cond_text = !cond               ? "?"
                          : is_constant(cond) ? constant_text(*cond->node())
                                              : namer_.display(cond);
  Attrs ha;
  ha.set("shape", "diamond");
  ha.set("style", "filled");
  ha.set("fillcolor", style::kStructFill);
  ha.set("color", style::kIfBorder);
  ha.set("margin", "0.03");
  ha.set("ordering", "out");  // then on the left, else on the right
  ha.set("tooltip", esc_string(tooltip_text(node.range())));
  std::string head_label = bold("if") + " " + html(shorten(cond_text, 24));
  if (hooks_.node) {
    ElementStyle s;
    hooks_.node(node, s);
    apply(s, ha, head_label);
  }
  ha.set("label", head_label);
  const size_t head = add_node(c, std::move(ha));
  if (cond) {
    if (auto from = source_of(cond)) add_edge(*from, head, cond, &node);
  }

  // The merge: what the If gives to the code after it.
  std::optional<size_t> merge;
  if (!node.outputs().empty()) {
    Attrs ma;
    ma.set("shape", "invtrapezium");  // a funnel: the arms' values join here
    ma.set("style", "filled");
    ma.set("margin", "0.02");
    ma.set("fillcolor", style::kStructFill);
    ma.set("color", style::kStructBorder);
    ma.set("label", small(shorten(outputs_text(node, namer_), kMaxLabelChars), style::kText));
    ma.set("tooltip", esc_string("the If's results"));
    merge = add_node(c, std::move(ma));
  }

  const char* names[] = {"then", "else"};
  const char* fills[] = {style::kThenFill, style::kElseFill};
  const char* borders[] = {style::kThenBorder, style::kElseBorder};
  const char* edges[] = {style::kThenEdge, style::kElseEdge};
  for (int arm = 0; arm < 2; ++arm) {
    Attrs aa = cluster_attrs(fills[arm], borders[arm],
                             std::string(names[arm]) + " arm of " + tooltip_text(node.range()));
    // A hook's colour for the arm (the diff picture's red for a lost arm) also
    // colours its name and the edges into and out of it.
    std::string arm_colour = edges[arm];
    ElementStyle arm_style;
    if (hooks_.cluster) hooks_.cluster(node, arm, arm_style);
    if (const std::string* c = arm_style.attrs.get("color")) arm_colour = *c;
    std::string alabel = small(names[arm], arm_colour.c_str());
    if (hooks_.cluster) apply(arm_style, aa, alabel);
    aa.set("label", alabel);
    const int ac = add_cluster(c, "cluster_" + id + "_" + names[arm], std::move(aa));
    const size_t before = out_.nodes.size();
    const ir::Block& block = *node.blocks()[static_cast<size_t>(arm)];
    draw_block(block, ac, depth + 1);
    if (merge) yield_into(block, 0, ac, *merge, arm_colour.c_str());
    size_t first = before;
    while (first < out_.nodes.size() && !in_cluster(first, ac)) ++first;  // skip the note
    if (first == out_.nodes.size()) {
      // Graphviz drops empty clusters; an arm that does nothing still gets its frame.
      Attrs pa;
      pa.set("shape", "plaintext");
      pa.set("style", "");
      pa.set("label", small("pass"));
      pa.set("tooltip", esc_string("the " + std::string(names[arm]) + " arm does nothing"));
      first = add_node(ac, std::move(pa));
    }
    // Control flow from the head into the arm, ending at the arm's frame.
    Attrs ea;
    ea.set("style", "dashed");
    ea.set("color", arm_colour);
    ea.set("lhead", out_.clusters[ac].name);
    ea.set("arrowhead", "none");
    add_edge(head, first, nullptr, &node, std::move(ea));
  }
  enclose(c, first_node, first_edge, head, merge);
  if (merge) {
    for (const ir::Value* v : node.outputs()) source_[v] = *merge;
  }
}

void DrawBuilder::draw_loop(const ir::Node& node, int cluster, int depth) {
  if (!budget_left() || node.inputs().size() < 2) {
    if (!budget_left()) {
      skip(node);
    } else {
      draw_collapsed(node, cluster);  // malformed: no trip count / condition
    }
    return;
  }
  for (const ir::Value* v : node.outputs()) namer_.name(v);
  ir::LoopView loop(const_cast<ir::Node*>(&node));
  const ir::Block& body = *loop.body();
  const std::string id = prefix_ + "loop" + std::to_string(loops_++);

  // for i in range(n): max_trip_count n, initial condition True; while: no trip count.
  const ir::Value* trips = loop.max_trip_count();
  const ir::Value* cond = loop.initial_cond();
  const IValue* trip_value = is_constant(trips) ? trips->node()->attr("value") : nullptr;
  const bool unbounded = trip_value && trip_value->is_int() &&
                         trip_value->to_int() == std::numeric_limits<int64_t>::max();
  std::string trip_text;
  if (!unbounded) {
    trip_text = trip_value ? ir::print_attr_value(*trip_value) : namer_.display(trips);
  }
  // The program's names of the carried variables (`s`, not the SSA name `s.1`).
  std::string carried;
  for (const ir::Value* v : node.outputs()) {
    std::string n = v->debug_name();
    if (n.empty()) n = namer_.display(v);
    carried += (carried.empty() ? "" : ", ") + n;
  }
  std::string summary = unbounded ? "while loop" : trip_text + " trips";
  if (!carried.empty()) summary += "  ·  carries " + shorten(carried, 30);

  Attrs ca = cluster_attrs(style::kLoopFill, style::kLoopBorder, tooltip_text(node.range()));
  std::string clabel = header_label(node, "loop", summary);
  if (hooks_.cluster) {
    ElementStyle s;
    hooks_.cluster(node, -1, s);
    apply(s, ca, clabel);
  }
  ca.set("label", clabel);
  const int c = add_cluster(cluster, "cluster_" + id, std::move(ca));
  const size_t first_node = out_.nodes.size();
  const size_t first_edge = out_.edges.size();

  // The head: the iteration's inputs (index and carried values) come from here.
  std::vector<std::string> carried_rows;
  for (size_t i = 0; i < body.inputs().size(); ++i) {
    const ir::Value* v = body.inputs()[i];
    std::string row = namer_.display(v) + " : " + v->type().str();
    if (i > 0 && i + 1 < node.inputs().size()) {
      const ir::Value* init = node.inputs()[i + 1];
      if (is_constant(init)) row += "  (from " + constant_text(*init->node()) + ")";
    }
    carried_rows.push_back(row);
  }
  std::string index = body.inputs().empty() ? "i" : namer_.display(body.inputs()[0]);
  // `for i in range(10)`, `while %10`, or `for i in range(n) while %c` (a for loop
  // that may break).
  std::string head_label;
  if (unbounded) {
    head_label = bold("while") + " " +
                 html(is_constant(cond) ? constant_text(*cond->node()) : namer_.display(cond));
  } else {
    head_label = bold("for") + " " + html(index + " in range(" + shorten(trip_text, 20) + ")");
    if (!is_constant(cond)) head_label += " " + bold("while") + " " + html(namer_.display(cond));
  }
  for (size_t i = 1; i < carried_rows.size(); ++i) {
    head_label += "<BR/>" + small(shorten(carried_rows[i], kMaxLabelChars));
  }
  Attrs ha;
  ha.set("fillcolor", style::kLoopFill);
  ha.set("color", style::kLoopEdge);
  ha.set("tooltip", esc_string(tooltip_text(node.range())));
  if (hooks_.node) {
    ElementStyle s;
    hooks_.node(node, s);
    apply(s, ha, head_label);
  }
  ha.set("label", head_label);
  const size_t head = add_node(c, std::move(ha));
  for (size_t i = 0; i < node.inputs().size(); ++i) {
    const ir::Value* v = node.inputs()[i];
    auto from = source_of(v);
    if (!from) continue;
    Attrs ea;
    if (i == 0) ea.set("label", "trips");
    if (i == 1) ea.set("label", "cond");
    add_edge(*from, head, v, &node, std::move(ea));
  }
  for (const ir::Value* v : body.inputs()) source_[v] = head;

  draw_block(body, c, depth + 1);

  // The end: carried to the next iteration, and the loop's results after the last.
  Attrs ea;
  ea.set("fillcolor", style::kLoopFill);
  ea.set("color", style::kLoopEdge);
  ea.set("tooltip", esc_string("values carried to the next iteration; after the last one, "
                               "the loop's results"));
  std::string end_label = bold("next");
  if (!node.outputs().empty()) {
    end_label += "<BR/>" + small(shorten(outputs_text(node, namer_), kMaxLabelChars));
  }
  ea.set("label", end_label);
  const size_t end = add_node(c, std::move(ea));
  if (!body.outputs().empty()) {
    const ir::Value* next_cond = body.outputs()[0];
    if (auto from = source_of(next_cond)) {
      Attrs ce;
      ce.set("label", "cond");
      ce.set("color", style::kLoopEdge);
      add_edge(*from, end, next_cond, body.return_node(), std::move(ce));
    }
    yield_into(body, 1, c, end, style::kLoopEdge);
  }
  Attrs back;
  back.set("style", "dashed");
  back.set("color", style::kLoopEdge);
  back.set("constraint", "false");
  add_edge(end, head, nullptr, &node, std::move(back));
  enclose(c, first_node, first_edge, head, end);
  for (const ir::Value* v : node.outputs()) source_[v] = end;
}

void DrawBuilder::enclose(int cluster, size_t first_node, size_t first_edge, size_t head,
                          std::optional<size_t> tail) {
  const size_t n = out_.nodes.size() - first_node;
  std::vector<char> inside(n), has_in(n), has_out(n);
  for (size_t i = 0; i < n; ++i) inside[i] = in_cluster(first_node + i, cluster);
  auto local = [&](size_t node) { return node >= first_node && inside[node - first_node]; };
  for (size_t e = first_edge; e < out_.edges.size(); ++e) {
    const DrawEdge& edge = out_.edges[e];
    if (!local(edge.from) || !local(edge.to)) continue;
    if (edge.to == head) continue;  // the loop's back edge does not count
    has_in[edge.to - first_node] = 1;
    has_out[edge.from - first_node] = 1;
  }
  for (size_t i = 0; i < n; ++i) {
    const size_t node = first_node + i;
    if (!inside[i] || node == head || (tail && node == *tail)) continue;
    Attrs a;
    a.set("style", "invis");
    if (!has_in[i]) add_edge(head, node, nullptr, nullptr, a);
    if (tail && !has_out[i]) add_edge(node, *tail, nullptr, nullptr, a);
  }
}

void DrawBuilder::draw_collapsed(const ir::Node& node, int cluster) {
  if (!budget_left()) {
    skip(node);
    return;
  }
  name_subtree(namer_, node);
  size_t inside = 0;
  std::vector<const ir::Node*> todo{&node};
  while (!todo.empty()) {
    const ir::Node* n = todo.back();
    todo.pop_back();
    for (const ir::Block* b : n->blocks()) {
      for (const ir::Node* inner : b->nodes()) {
        if (inner->prim() != ir::Prim::Constant) ++inside;
        todo.push_back(inner);
      }
    }
  }
  Attrs a;
  a.set("fillcolor", node.prim() == ir::Prim::Loop ? style::kLoopFill : style::kIfFill);
  a.set("color", node.prim() == ir::Prim::Loop ? style::kLoopBorder : style::kIfBorder);
  a.set("style", "rounded,filled,dashed");
  a.set("tooltip", esc_string(tooltip_text(node.range())));
  std::string label = header_label(node, short_kind(node.kind()), "") + "<BR/>" +
                      small(thousands(inside) + " nodes inside, nested too deep to draw") +
                      "<BR/>" + small(shorten(outputs_text(node, namer_), kMaxLabelChars));
  if (hooks_.node) {
    ElementStyle s;
    hooks_.node(node, s);
    apply(s, a, label);
  }
  a.set("label", label);
  const size_t id = add_node(cluster, std::move(a));
  wire_inputs(node, id);
  for (const ir::Value* v : node.outputs()) source_[v] = id;
}

}  // namespace d2s::viz
