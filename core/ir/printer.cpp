#include "core/ir/printer.h"

#include <cstdio>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "core/base/number_format.h"
#include "core/base/text.h"

namespace d2s::ir {

namespace {

std::string tensor_element(const Tensor& t, int64_t i) {
  switch (t.dtype()) {
    case DType::Float32:
      return format_float32(t.data<float>()[i]);
    case DType::Int64:
      return std::to_string(t.data<int64_t>()[i]);
    case DType::Bool:
      return t.data<bool>()[i] ? "True" : "False";
  }
  return "?";
}

// Assigns each value its printed name, on first sight, in print order.
class Namer {
 public:
  const std::string& name(const Value* v) {
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

 private:
  // TorchScript's uniquing: `x` taken gives `x.1`, `x.2`, ...; a name that already
  // has a numeric suffix is renumbered from its base.
  std::string suffixed(const std::string& debug) {
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

  std::unordered_map<const Value*, std::string> names_;
  std::unordered_set<std::string> used_;
  std::unordered_map<std::string, size_t> suffix_;
  size_t counter_ = 0;
};

// The part of a node line shared by print_graph and print_node:
// `%a : T, %b : T = kind[attrs](%in, ...)`, with names from `name_of`.
template <typename NameOf>
std::string node_line(const Node& n, NameOf&& name_of) {
  std::string out;
  for (size_t i = 0; i < n.outputs().size(); ++i) {
    const Value* v = n.outputs()[i];
    if (i) out += ", ";
    out += "%" + name_of(v) + " : " + v->type().str();
  }
  out += " = ";
  out += n.kind();
  bool first = true;
  for (const auto& [key, value] : n.attrs()) {
    // TorchScript prints a None constant as a bare prim::Constant().
    if (n.kind() == kind::Constant && key == "value" && value.is_none()) continue;
    out += first ? "[" : ", ";
    first = false;
    out += key + "=" + print_attr_value(value);
  }
  if (!first) out += "]";
  out += "(";
  for (size_t i = 0; i < n.inputs().size(); ++i) {
    if (i) out += ", ";
    out += "%" + name_of(n.inputs()[i]);
  }
  out += ")";
  return out;
}

std::string location(const SourceRange& r) {
  if (!r.known()) return {};
  return "  # " + r.file_name() + ":" + std::to_string(r.line) + ":" + std::to_string(r.col);
}

class Printer {
 public:
  std::string print(const Graph& g) {
    out_ = "graph(";
    const auto& inputs = g.inputs();
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (i) out_ += ",\n      ";
      out_ += typed(inputs[i]);
    }
    out_ += "):\n";
    print_nodes(*g.block(), 2);
    out_ += "  return (" + value_list(g.outputs()) + ")\n";
    return std::move(out_);
  }

 private:
  std::string typed(const Value* v) { return "%" + namer_.name(v) + " : " + v->type().str(); }

  std::string value_list(const std::vector<Value*>& values) {
    std::string s;
    for (size_t i = 0; i < values.size(); ++i) {
      if (i) s += ", ";
      s += "%" + namer_.name(values[i]);
    }
    return s;
  }

  // Loops over a block's nodes; recursion follows block nesting only.
  void print_nodes(const Block& b, size_t indent) {
    const std::string pad(indent, ' ');
    for (const Node* n : b.nodes()) {
      // A node without outputs starts with " = ", as TorchScript prints it.
      out_ += pad;
      std::string line =
          node_line(*n, [this](const Value* v) -> const std::string& { return namer_.name(v); });
      out_ += line;
      out_ += location(n->range());
      out_ += '\n';
      for (size_t i = 0; i < n->blocks().size(); ++i) {
        const Block* nested = n->blocks()[i];
        out_ += pad + "  block" + std::to_string(i) + "(";
        for (size_t j = 0; j < nested->inputs().size(); ++j) {
          if (j) out_ += ", ";
          out_ += typed(nested->inputs()[j]);
        }
        out_ += "):\n";
        print_nodes(*nested, indent + 4);
        out_ += pad + "    -> (" + value_list(nested->outputs()) + ")\n";
      }
    }
  }

  Namer namer_;
  std::string out_;
};

}  // namespace

std::string print_attr_value(const IValue& v) {
  if (v.is_none()) return "None";
  if (v.is_bool()) return v.to_bool() ? "True" : "False";
  if (v.is_int()) return std::to_string(v.to_int());
  if (v.is_double()) return format_float64(v.to_double());
  if (v.is_string()) return quote_string(v.to_string());
  if (v.is_tensor()) {
    const Tensor& t = v.to_tensor();
    if (!t.defined()) return "<undefined tensor>";
    if (t.numel() == 1 && t.dim() == 0) return "{" + tensor_element(t, 0) + "}";
    return "<" + type_of(v).str() + ">";
  }
  if (v.is_tuple() || v.is_list()) {
    const ValueList& items = v.items();
    std::string s = v.is_tuple() ? "(" : "[";
    for (size_t i = 0; i < items.size(); ++i) {
      if (i) s += ", ";
      s += print_attr_value(items[i]);
    }
    if (v.is_tuple() && items.size() == 1) s += ",";
    return s + (v.is_tuple() ? ")" : "]");
  }
  return "<" + v.type_name() + ">";
}

std::string print_graph(const Graph& graph) {
  return Printer().print(graph);
}

std::string print_node(const Node& node) {
  std::string line = node_line(node, [](const Value* v) {
    return v->debug_name().empty() ? std::to_string(v->unique()) : v->debug_name();
  });
  return node.outputs().empty() ? line.substr(3) : line;
}

}  // namespace d2s::ir
