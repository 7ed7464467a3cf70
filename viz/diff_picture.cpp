// render_diff: the parsed graph restyled through StyleHooks by what the traces did at
// each source location, beside the trace of set 0, under a heading with the verdict.
#include "viz/diff_picture.h"

#include <cstdint>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "core/base/error.h"
#include "core/ir/ir.h"
#include "viz/draw_graph.h"
#include "viz/graphviz.h"
#include "viz/labels.h"
#include "viz/style.h"

namespace d2s::viz {

namespace {

using convert::DiffReport;
using convert::Finding;
using convert::FindingKind;

uint64_t location_key(const SourceRange& r) {
  return (static_cast<uint64_t>(static_cast<uint32_t>(r.line)) << 32) |
         static_cast<uint32_t>(r.col);
}

// What the report says about each source location, looked up by the hooks.
struct Marks {
  std::unordered_map<uint64_t, const convert::IfCoverage*> ifs;
  std::unordered_map<uint64_t, const convert::LoopCoverage*> loops;
  std::unordered_set<uint64_t> lost_arms;         // location key ^ arm bit (1 then, 2 else) << 63
  std::unordered_set<int> dropped_lines;          // a print / assert the trace dropped
  std::unordered_map<int, const Finding*> baked;  // by line: a value the trace made a constant

  explicit Marks(const DiffReport& report) {
    for (const convert::IfCoverage& c : report.ifs) ifs[location_key(c.range)] = &c;
    for (const convert::LoopCoverage& c : report.loops) loops[location_key(c.range)] = &c;
    for (const Finding& f : report.findings) {
      if (f.kind == FindingKind::LostBranch) lost_arms.insert(arm_key(f.range, f.lost));
      if (f.kind == FindingKind::DroppedSideEffect) dropped_lines.insert(f.range.line);
      if (f.kind == FindingKind::BakedValue || f.kind == FindingKind::ShapeSpecialized) {
        baked.emplace(f.range.line, &f);
      }
    }
  }
  static uint64_t arm_key(const SourceRange& r, convert::Arm arm) {
    return location_key(r) ^ (static_cast<uint64_t>(arm == convert::Arm::Then ? 1 : 2) << 62);
  }
};

enum class ArmState { Unknown, Kept, Lost };

// What the traces did with arm `arm` (0 then, 1 else) of If `node`: kept when set 0
// (the drawn trace) ran it, lost when it did not (`why` says whether other sets take
// it), unknown when no set reached the If or it was decided at conversion time.
ArmState arm_state(const Marks& marks, const ir::Node& node, int arm, std::string* why) {
  auto it = marks.ifs.find(location_key(node.range()));
  if (it == marks.ifs.end()) return ArmState::Unknown;
  const convert::IfCoverage& c = *it->second;
  const uint8_t bit = arm == 0 ? 1 : 2;
  uint8_t reached = 0;
  std::string others;
  for (size_t set = 0; set < c.arms.size(); ++set) {
    reached |= c.arms[set];
    if (set > 0 && (c.arms[set] & bit))
      others += (others.empty() ? "" : ", ") + std::to_string(set);
  }
  if (!reached) return ArmState::Unknown;
  if (!c.arms.empty() && (c.arms[0] & bit)) return ArmState::Kept;
  if (why) {
    const convert::Arm a = arm == 0 ? convert::Arm::Then : convert::Arm::Else;
    *why = !others.empty() ? "LOST: set " + others + " takes it"
           : marks.lost_arms.count(Marks::arm_key(node.range(), a)) ? "LOST: no input set takes it"
                                                                    : "not taken by any input set";
  }
  return ArmState::Lost;
}

// Lost when any If arm around `block` is lost (a node in a lost arm is lost however
// deep it sits), kept when one is kept, unknown otherwise. A loop, not recursion.
ArmState block_state(const Marks& marks, const ir::Block* block) {
  ArmState found = ArmState::Unknown;
  for (; block && block->owning_node(); block = block->owning_node()->owning_block()) {
    const ir::Node* owner = block->owning_node();
    if (owner->prim() != ir::Prim::If || owner->blocks().size() != 2) continue;
    const int arm = owner->blocks()[0] == block ? 0 : 1;
    const ArmState state = arm_state(marks, *owner, arm, nullptr);
    if (state == ArmState::Lost) return state;  // an enclosing lost arm wins
    if (state == ArmState::Kept) found = state;
  }
  return found;
}

void paint_kept(ElementStyle& s) {
  s.attrs.set("color", style::kKeptBorder);
  s.attrs.set("fillcolor", style::kKeptFill);
  s.attrs.set("penwidth", "2.5");
  s.badge = "kept by the trace";
}

void paint_lost(ElementStyle& s, std::string why) {
  s.attrs.set("color", style::kLostBorder);
  s.attrs.set("fillcolor", style::kLostFill);
  s.attrs.set("style", "rounded,filled,dashed");
  s.attrs.set("penwidth", "2.5");
  s.badge = std::move(why);
}

void style_loop(const Marks& marks, const ir::Node& node, ElementStyle& s) {
  auto it = marks.loops.find(location_key(node.range()));
  if (it == marks.loops.end() || it->second->trips.empty()) return;
  const convert::TripCounts& t = it->second->trips[0];
  if (t.runs == 0) return;
  s.attrs.set("color", style::kFoldBorder);
  s.attrs.set("penwidth", "2");
  const size_t lo = static_cast<size_t>(t.min), hi = static_cast<size_t>(t.max);
  s.badge = "unrolled ×" + thousands(lo) + (lo == hi ? "" : "–" + thousands(hi)) + " in the trace";
}

// The ops that turn a tensor (or a size) into a Python number: where a trace bakes.
bool is_conversion(const ir::Node& node) {
  namespace op = ir::op;
  for (ir::Symbol k :
       {op::item, op::Int, op::Float, op::Bool, op::size, op::dim, op::numel, op::len, op::shape}) {
    if (node.sym() == k) return true;
  }
  return false;
}

void paint_baked(const Finding& f, ElementStyle& s) {
  s.attrs.set("color", style::kGuardBorder);
  s.attrs.set("fillcolor", style::kGuardFill);
  s.attrs.set("penwidth", "2");
  s.badge =
      (f.kind == FindingKind::ShapeSpecialized ? "fixed by the trace: " : "baked by the trace: ") +
      f.value.repr();
}

bool is_side_effect(const ir::Node& node) {
  return node.prim() == ir::Prim::Print || node.prim() == ir::Prim::RaiseException;
}

void add_line_class(const ir::Node& node, ElementStyle& s) {
  if (node.range().line > 0) s.attrs.set("class", source_line_class(node.range().line));
}

StyleHooks parsed_hooks(const Marks& marks, bool link) {
  StyleHooks h;
  h.node = [&marks, link](const ir::Node& node, ElementStyle& s) {
    auto baked = marks.baked.find(node.range().line);
    if (is_side_effect(node) && marks.dropped_lines.count(node.range().line)) {
      paint_lost(s, "dropped by the trace");
    } else if (baked != marks.baked.end() && is_conversion(node)) {
      paint_baked(*baked->second, s);
    } else if (block_state(marks, node.owning_block()) == ArmState::Lost) {
      s.attrs.set("color", style::kLostBorder);
      s.attrs.set("style", "rounded,filled,dashed");
      s.attrs.set("penwidth", "1.5");
    }
    if (link) add_line_class(node, s);
  };
  h.cluster = [&marks, link](const ir::Node& owner, int block, ElementStyle& s) {
    if (owner.prim() == ir::Prim::If && block >= 0) {
      std::string why;
      const ArmState state = arm_state(marks, owner, block, &why);
      if (state == ArmState::Kept) paint_kept(s);
      if (state == ArmState::Lost) paint_lost(s, why);
    }
    if (owner.prim() == ir::Prim::Loop && block < 0) style_loop(marks, owner, s);
    // An arm's frame would inherit its If's class from Graphviz (subgraphs take their
    // parent's attributes): it gets its own, so that selecting the `if` line lights up
    // the If's frame, not every frame inside it.
    if (link) {
      if (block < 0) {
        add_line_class(owner, s);
      } else {
        s.attrs.set("class", "arm");
      }
    }
  };
  // What a lost arm computes or yields flows on red, dashed edges.
  h.edge = [&marks](const ir::Value& value, const ir::Node* user, Attrs& attrs) {
    const bool lost_user = user && user->prim() == ir::Prim::Return &&
                           block_state(marks, user->owning_block()) == ArmState::Lost;
    if (lost_user || block_state(marks, value.node()->owning_block()) == ArmState::Lost) {
      attrs.set("color", style::kLostBorder);
      attrs.set("style", "dashed");
    }
  };
  return h;
}

// Source lines of the ops inside If arms the drawn trace kept, and inside arms it
// lost (a lost arm's nested arms included). The trace's ops from kept lines are what
// it kept of each branch, drawn with the same green.
struct ArmLines {
  std::set<int> kept, lost;
};

ArmLines arm_lines(const Marks& marks, const ir::Graph& parsed) {
  ArmLines lines;
  std::vector<std::pair<const ir::Block*, ArmState>> stack{{parsed.block(), ArmState::Unknown}};
  while (!stack.empty()) {
    auto [block, state] = stack.back();
    stack.pop_back();
    for (const ir::Node* n : block->nodes()) {
      if (n->blocks().empty() && n->prim() != ir::Prim::Constant && n->range().line > 0) {
        if (state == ArmState::Kept) lines.kept.insert(n->range().line);
        if (state == ArmState::Lost) lines.lost.insert(n->range().line);
      }
      for (size_t b = 0; b < n->blocks().size(); ++b) {
        ArmState inner = state;
        if (state != ArmState::Lost && n->prim() == ir::Prim::If && n->blocks().size() == 2) {
          const ArmState arm = arm_state(marks, *n, static_cast<int>(b), nullptr);
          if (arm != ArmState::Unknown) inner = arm;
        }
        stack.emplace_back(n->blocks()[b], inner);
      }
    }
  }
  return lines;
}

StyleHooks traced_hooks(std::set<int> kept, bool link) {
  StyleHooks h;
  h.node = [kept = std::move(kept), link](const ir::Node& node, ElementStyle& s) {
    if (kept.count(node.range().line)) {
      s.attrs.set("color", style::kKeptBorder);
      s.attrs.set("penwidth", "2");
    }
    if (link) add_line_class(node, s);
  };
  return h;
}

std::string count_text(size_t n, const char* one, const char* many) {
  return thousands(n) + " " + (n == 1 ? one : many);
}

}  // namespace

const char* diff_verdict(const DiffReport& report) {
  if (report.lossy_count()) return "NOT TRACE-SAFE";
  if (!report.agrees()) return "DISAGREES";
  return "TRACE-SAFE";
}

std::vector<int> lines_lost_by_trace(const DiffReport& report) {
  if (!report.parsed_graph) return {};
  const Marks marks(report);
  const std::set<int> lost = arm_lines(marks, *report.parsed_graph).lost;
  return std::vector<int>(lost.begin(), lost.end());
}

std::string source_line_class(int line) {
  return "src_L" + std::to_string(line);
}

std::string render_diff(const DiffReport& report, Format format,
                        const DiffPictureOptions& options) {
  if (!report.parsed_graph || !report.traced_graph) {
    throw Error("the diff report holds no graphs to draw", SourceRange(),
                "draw a report made by diff_program");
  }
  const Marks marks(report);
  const bool link = options.link_source_lines;
  std::vector<Panel> panels;
  panels.push_back(Panel{report.parsed_graph.get(),
                         "parsed graph (like torch.jit.script)  ·  " +
                             count_text(report.parsed.nodes, "node", "nodes"),
                         parsed_hooks(marks, link)});
  panels.push_back(Panel{report.traced_graph.get(),
                         "trace of set 0 (like torch.jit.trace)  ·  " +
                             count_text(report.traced.nodes, "node", "nodes"),
                         traced_hooks(arm_lines(marks, *report.parsed_graph).kept, link)});
  RenderOptions render = options.render;
  render.title.clear();
  render.hooks = {};
  DrawGraph g = build_draw_graph(panels, render);

  // The heading: verdict, then what the colours mean.
  const std::string path = report.source ? report.source->path() : std::string("model");
  std::string heading = "<B>" + html(path + ": " + diff_verdict(report)) + "</B>";
  heading += "<FONT POINT-SIZE=\"10\" COLOR=\"" + std::string(style::kSubtleText) + "\">" +
             html("   " + count_text(report.lossy_count(), "lossy finding", "lossy findings") +
                  ", " + count_text(report.set_labels.size(), "input set", "input sets")) +
             "</FONT><BR ALIGN=\"LEFT\"/>";
  std::string legend;
  auto key = [&legend](const char* colour, const char* name, const char* meaning) {
    legend += std::string(legend.empty() ? "" : html("    ")) + "<FONT COLOR=\"" + colour +
              "\"><B>" + name + "</B></FONT>" + html(meaning);
  };
  bool any_if = false;
  for (const convert::IfCoverage& c : report.ifs) {
    for (uint8_t arms : c.arms) any_if = any_if || arms != 0;
  }
  if (any_if) {
    key(style::kKeptBorder, "green", ": a branch the trace kept (and its ops in the trace)");
    key(style::kLostBorder, "red, dashed", ": a branch the trace lost");
  } else if (!marks.dropped_lines.empty()) {
    key(style::kLostBorder, "red, dashed", ": dropped by the trace");
  }
  if (!marks.baked.empty()) key(style::kGuardBorder, "amber", ": a value the trace baked in");
  if (!report.loops.empty()) key(style::kFoldBorder, "violet", ": a loop the trace unrolled (×N)");
  if (!legend.empty())
    heading += "<FONT POINT-SIZE=\"10\">" + legend + "</FONT><BR ALIGN=\"LEFT\"/>";
  g.graph_attrs.set("label", heading);
  g.graph_attrs.set("fontsize", "14");
  return render_draw_graph(g, format);
}

}  // namespace d2s::viz
