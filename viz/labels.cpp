#include "viz/labels.h"

#include <utility>
#include <vector>

#include "core/ir/printer.h"
#include "core/ops/op_registry.h"

namespace d2s::viz {

// ------------------------------------------------------------------ names

const std::string& ValueNamer::name(const ir::Value* v) {
  auto it = names_.find(v);
  if (it != names_.end()) return it->second;
  std::string n;
  const std::string& debug = v->debug_name();
  if (!debug.empty() && !used_.count(debug)) {
    n = debug;
  } else if (!debug.empty()) {
    n = suffixed(debug);
  } else {
    while (used_.count(std::to_string(counter_))) ++counter_;
    n = std::to_string(counter_);
  }
  ++counter_;
  used_.insert(n);
  return names_.emplace(v, std::move(n)).first->second;
}

std::string ValueNamer::display(const ir::Value* v) {
  const std::string& n = name(v);
  return v->debug_name().empty() ? "%" + n : n;
}

std::string ValueNamer::suffixed(const std::string& debug) {
  std::string base = debug;
  size_t dot = debug.rfind('.');
  if (dot != std::string::npos && dot > 0 && dot + 1 < debug.size() &&
      debug.find_first_not_of("0123456789", dot + 1) == std::string::npos) {
    base = debug.substr(0, dot);
  }
  size_t& k = suffix_[base];
  std::string candidate;
  do {
    candidate = base + "." + std::to_string(++k);
  } while (used_.count(candidate));
  return candidate;
}

void name_subtree(ValueNamer& namer, const ir::Node& node) {
  struct Frame {
    const ir::Node* owner;
    size_t block;
    const ir::Node* cur;  // next node of the current block; null before it starts
  };
  for (const ir::Value* v : node.outputs()) namer.name(v);
  std::vector<Frame> stack{{&node, 0, nullptr}};
  while (!stack.empty()) {
    Frame& f = stack.back();
    if (f.block >= f.owner->blocks().size()) {
      stack.pop_back();
      continue;
    }
    const ir::Block* b = f.owner->blocks()[f.block];
    if (!f.cur) {
      for (const ir::Value* v : b->inputs()) namer.name(v);
      f.cur = b->param_node()->next();
    }
    if (f.cur == b->return_node()) {
      ++f.block;
      f.cur = nullptr;
      continue;
    }
    const ir::Node* n = f.cur;
    f.cur = n->next();
    for (const ir::Value* v : n->outputs()) namer.name(v);
    if (!n->blocks().empty()) stack.push_back(Frame{n, 0, nullptr});  // f is not used after
  }
}

// ------------------------------------------------------------------ text

std::string html(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string esc_string(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '\\') out += '\\';
    out += c;
  }
  return out;
}

std::string shorten(std::string_view text, size_t max_chars) {
  size_t chars = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) continue;  // continuation byte
    if (chars == max_chars) return std::string(text.substr(0, i)) + "…";
    ++chars;
  }
  return std::string(text);
}

std::string thousands(size_t n) {
  std::string digits = std::to_string(n);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string short_kind(const std::string& kind) {
  static const std::vector<std::pair<std::string, std::string>> prims = {
      {ir::kind::Print, "print"},
      {ir::kind::TupleConstruct, "tuple"},
      {ir::kind::TupleUnpack, "unpack"},
      {ir::kind::TupleIndex, "tuple_index"},
      {ir::kind::ListConstruct, "list"},
      {ir::kind::ListUnpack, "unpack"},
      {ir::kind::Uninitialized, "uninitialized"},
      {ir::kind::RaiseException, "raise"},
      {ir::kind::Guard, "guard"},
      {ir::kind::If, "if"},
      {ir::kind::Loop, "loop"},
      {ir::kind::Constant, "constant"},
  };
  if (kind.rfind("aten::", 0) == 0) return kind.substr(6);
  for (const auto& [k, v] : prims) {
    if (k == kind) return v;
  }
  return kind;
}

namespace {

constexpr size_t kMaxArgChars = 24;
constexpr size_t kMaxCallChars = 60;

const OpSchema* schema_of(const ir::Node& n) {
  // The node's overloads and named overload were resolved when it was made.
  if (!n.sym().is_aten() || !n.overloads()) return nullptr;
  const std::vector<OpDef>& all = *n.overloads();
  if (!n.overload().empty() && n.op()) return &n.op()->schema;
  for (const OpDef& def : all) {
    if (n.overload().empty() && def.schema.overload.empty()) return &def.schema;
  }
  return all.size() == 1 ? &all.front().schema : nullptr;
}

}  // namespace

std::string constant_text(const ir::Node& constant) {
  const IValue* v = constant.attr("value");
  return v ? ir::print_attr_value(*v) : "None";
}

std::vector<CallArg> call_args(const ir::Node& node, ValueNamer& namer) {
  const OpSchema* schema = schema_of(node);
  std::vector<CallArg> args;
  for (size_t i = 0; i < node.inputs().size(); ++i) {
    const ir::Value* v = node.inputs()[i];
    const Argument* arg = schema && i < schema->arguments.size() ? &schema->arguments[i] : nullptr;
    CallArg a;
    a.input = i;
    if (v->node()->prim() == ir::Prim::Constant) {
      const IValue* value = v->node()->attr("value");
      const bool is_none = !value || value->is_none();
      if (arg && is_none && arg->default_value && arg->default_value->is_none()) continue;
      a.constant = true;
      a.text = shorten(constant_text(*v->node()), kMaxArgChars);
      if (arg && arg->default_value) {
        a.is_default = value && arg->default_value->type_name() == value->type_name() &&
                       arg->default_value->repr() == value->repr();
      }
      if (arg && (arg->kwarg_only || arg->default_value)) a.text = arg->name + "=" + a.text;
    } else {
      a.text = shorten(namer.display(v), kMaxArgChars);
    }
    args.push_back(std::move(a));
  }
  return args;
}

std::string call_text(const ir::Node& node, ValueNamer& namer) {
  std::string args;
  for (const CallArg& a : call_args(node, namer)) {
    if (!args.empty()) args += ", ";
    args += a.text;
  }
  return shorten(short_kind(node.kind()) + "(" + args + ")", kMaxCallChars);
}

std::string outputs_text(const ir::Node& node, ValueNamer& namer) {
  std::string out;
  for (const ir::Value* v : node.outputs()) {
    if (!out.empty()) out += ", ";
    out += namer.display(v) + " : " + v->type().str();
  }
  return out;
}

std::string location_text(const SourceRange& range) {
  if (!range.known()) return {};
  return range.file_name() + ":" + std::to_string(range.line);
}

namespace {

std::string_view line_of(const SourceRange& range) {
  if (!range.file || range.line < 1 || range.line > range.file->line_count()) return {};
  return range.file->line_text(range.line);
}

std::string_view trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return {};
  size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

}  // namespace

std::string source_line(const SourceRange& range) {
  return std::string(trim(line_of(range)));
}

std::string source_snippet(const SourceRange& range) {
  std::string_view line = line_of(range);
  if (line.empty() || range.col < 1 || range.len < 1) return {};
  size_t start = static_cast<size_t>(range.col - 1);
  if (start >= line.size()) return {};
  return std::string(trim(line.substr(start, static_cast<size_t>(range.len))));
}

std::string statement_text(const SourceRange& range) {
  std::string_view line = line_of(range);
  if (line.empty()) return {};
  const size_t col = range.col >= 1 ? static_cast<size_t>(range.col - 1) : 0;
  std::string_view rest = trim(col < line.size() ? line.substr(col) : line);
  for (std::string_view keyword : {"if ", "elif ", "while ", "for "}) {
    if (rest.substr(0, keyword.size()) == keyword) {
      if (!rest.empty() && rest.back() == ':') rest.remove_suffix(1);
      return std::string(trim(rest));
    }
  }
  std::string snippet = source_snippet(range);
  if (!snippet.empty()) return snippet;
  std::string whole(trim(line));
  if (!whole.empty() && whole.back() == ':') whole.pop_back();
  return whole;
}

std::string tooltip_text(const SourceRange& range) {
  std::string where = location_text(range);
  std::string line = source_line(range);
  if (where.empty()) return "no source location";
  return line.empty() ? where : where + ": " + line;
}

}  // namespace d2s::viz
