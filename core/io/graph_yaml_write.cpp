// Writing the IR file (format in ir_yaml.h). Written by hand rather than through
// yaml-cpp's emitter so that the layout is stable and compact: one line per node
// without blocks, strings always double-quoted, floats with the fewest digits that
// read back exactly.
#include <cstdio>
#include <unordered_map>

#include "core/base/error.h"
#include "core/base/text.h"
#include "core/io/graph_yaml.h"
#include "core/io/yaml_io.h"

namespace d2s::ir {

namespace {

std::string tensor_yaml(const Tensor& t) {
  std::string out = "{dtype: ";
  out += dtype_name(t.dtype());
  out += ", shape: [";
  for (size_t i = 0; i < t.shape().size(); ++i) {
    if (i) out += ", ";
    out += std::to_string(t.shape()[i]);
  }
  out += "], data: [";
  const int64_t n = t.numel();
  for (int64_t i = 0; i < n; ++i) {
    if (i) out += ", ";
    switch (t.dtype()) {
      case DType::Float32:
        out += format_float32(t.data<float>()[i]);
        break;
      case DType::Int64:
        out += std::to_string(t.data<int64_t>()[i]);
        break;
      case DType::Bool:
        out += t.data<bool>()[i] ? "true" : "false";
        break;
    }
  }
  return out + "]}";
}

bool all_ints(const ValueList& items) {
  if (items.empty()) return false;
  for (const IValue& v : items) {
    if (!v.is_int()) return false;
  }
  return true;
}

// A typed attribute value: a one-key map naming its kind. Recursion follows the
// value's nesting (tuples of lists...), which is shallow.
std::string attr_yaml(const IValue& v) {
  if (v.is_none()) return "{none: null}";
  if (v.is_bool()) return std::string("{bool: ") + (v.to_bool() ? "true" : "false") + "}";
  if (v.is_int()) return "{int: " + std::to_string(v.to_int()) + "}";
  if (v.is_double()) return "{float: " + format_float64(v.to_double()) + "}";
  if (v.is_string()) return "{str: " + quote_string(v.to_string()) + "}";
  if (v.is_tensor()) {
    if (!v.to_tensor().defined()) {
      throw Error("cannot write an undefined tensor attribute to an IR file");
    }
    return "{tensor: " + tensor_yaml(v.to_tensor()) + "}";
  }
  if (v.is_list() && all_ints(v.list_items())) {
    std::string out = "{ints: [";
    const ValueList& items = v.list_items();
    for (size_t i = 0; i < items.size(); ++i) {
      if (i) out += ", ";
      out += std::to_string(items[i].to_int());
    }
    return out + "]}";
  }
  if (v.is_tuple() || v.is_list()) {
    std::string out = v.is_tuple() ? "{tuple: [" : "{list: [";
    const ValueList& items = v.items();
    for (size_t i = 0; i < items.size(); ++i) {
      if (i) out += ", ";
      out += attr_yaml(items[i]);
    }
    return out + "]}";
  }
  throw Error("cannot write an attribute of type '" + v.type_name() + "' to an IR file",
              SourceRange(), "only None, numbers, strings, tensors, tuples and lists can be saved");
}

class Writer {
 public:
  explicit Writer(const Graph& g) : g_(g) {
    if (g.source) source_path_ = g.source->path();
  }

  std::string write() {
    out_ += "# d2s IR file: the graph, its nodes in order with nested blocks (docs/ir.md)\n";
    out_ += "format: d2s-ir\n";
    out_ += "version: " + std::to_string(kIrFileVersion) + "\n";
    out_ += "route: " + quote_string(g_.route) + "\n";
    out_ += "entry: " + quote_string(g_.entry) + "\n";
    out_ += "source: " + (g_.source ? quote_string(source_path_) : std::string("null")) + "\n";
    out_ += "inputs:";
    if (g_.inputs().empty()) out_ += " []";
    out_ += "\n";
    for (const Value* v : g_.inputs()) out_ += "  - " + value_def(v, true) + "\n";
    out_ += "nodes:";
    write_nodes(*g_.block(), 2);
    out_ += "outputs: " + id_list(g_.outputs()) + "\n";
    return std::move(out_);
  }

 private:
  // {id: N, name: "x", type: "T"}; block and graph inputs always carry their name.
  std::string value_def(const Value* v, bool always_name) {
    int64_t id = static_cast<int64_t>(ids_.size());
    if (!ids_.emplace(v, id).second) {
      throw Error("internal error: a value is defined twice in the graph being written");
    }
    std::string out = "{id: " + std::to_string(id);
    if (always_name || !v->debug_name().empty()) out += ", name: " + quote_string(v->debug_name());
    return out + ", type: " + quote_string(v->type().str()) + "}";
  }

  std::string id_of(const Value* v) const {
    auto it = ids_.find(v);
    if (it == ids_.end()) {
      throw Error("internal error: the graph being written uses a value before defining it");
    }
    return std::to_string(it->second);
  }

  std::string id_list(const std::vector<Value*>& values) const {
    std::string out = "[";
    for (size_t i = 0; i < values.size(); ++i) {
      if (i) out += ", ";
      out += id_of(values[i]);
    }
    return out + "]";
  }

  std::string loc(const SourceRange& r) const {
    std::string out = "{line: " + std::to_string(r.line) + ", col: " + std::to_string(r.col);
    if (r.len != 1) out += ", len: " + std::to_string(r.len);
    // `file` defaults to the graph's source; null says "no file".
    if (r.file) {
      if (!g_.source || r.file->path() != source_path_)
        out += ", file: " + quote_string(r.file->path());
    } else if (g_.source) {
      out += ", file: null";
    }
    return out + "}";
  }

  // The node's fields but its blocks, as "key: value" items. Output ids are given
  // here; the reader defines them only after the node's blocks, so a block cannot
  // use its own node's outputs.
  std::vector<std::string> fields(const Node* n) {
    std::vector<std::string> f;
    f.push_back("kind: " + quote_string(n->kind()));
    if (!n->overload().empty()) f.push_back("overload: " + quote_string(n->overload()));
    if (!n->inputs().empty()) f.push_back("inputs: " + id_list(n->inputs()));
    if (!n->outputs().empty()) {
      std::string o = "outputs: [";
      for (size_t i = 0; i < n->outputs().size(); ++i) {
        o += (i ? ", " : "") + value_def(n->outputs()[i], false);
      }
      f.push_back(o + "]");
    }
    if (!n->attrs().empty()) {
      std::string a = "attrs: {";
      for (size_t i = 0; i < n->attrs().size(); ++i) {
        if (i) a += ", ";
        a += quote_string(n->attrs()[i].first) + ": " + attr_yaml(n->attrs()[i].second);
      }
      f.push_back(a + "}");
    }
    f.push_back("loc: " + loc(n->range()));
    return f;
  }

  // Appends " []\n" or "\n" then one item per node. Recursion follows block nesting.
  void write_nodes(const Block& b, size_t indent) {
    const std::string pad(indent, ' ');
    if (b.empty()) {
      out_ += " []\n";
      return;
    }
    out_ += "\n";
    for (const Node* n : b.nodes()) {
      std::vector<std::string> f = fields(n);
      if (n->blocks().empty()) {
        out_ += pad + "- {";
        for (size_t i = 0; i < f.size(); ++i) out_ += (i ? ", " : "") + f[i];
        out_ += "}\n";
        continue;
      }
      const std::string inner(indent + 2, ' ');
      out_ += pad + "- " + f[0] + "\n";
      for (size_t i = 1; i < f.size(); ++i) out_ += inner + f[i] + "\n";
      out_ += inner + "blocks:\n";
      for (const Block* nested : n->blocks()) {
        out_ += inner + "  - inputs: [";
        for (size_t i = 0; i < nested->inputs().size(); ++i) {
          out_ += (i ? ", " : "") + value_def(nested->inputs()[i], true);
        }
        out_ += "]\n";
        out_ += inner + "    nodes:";
        write_nodes(*nested, indent + 8);
        out_ += inner + "    outputs: " + id_list(nested->outputs()) + "\n";
      }
    }
  }

  const Graph& g_;
  std::string source_path_;
  std::unordered_map<const Value*, int64_t> ids_;
  std::string out_;
};

}  // namespace

std::string graph_to_yaml(const Graph& graph) {
  return Writer(graph).write();
}

}  // namespace d2s::ir
