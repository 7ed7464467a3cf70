// Reading the IR file (format in ir_yaml.h). The text is parsed twice by yaml-cpp:
// first as events, to refuse aliases (which could make cycles or exponential
// blow-ups out of a small file) and extra documents, then into nodes, which are
// read field by field, strictly. Every error points at the YAML text.
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <unordered_map>

#include "core/base/error.h"
#include "core/io/graph_yaml.h"
#include "core/ir/verify.h"

namespace d2s::ir {

namespace {

constexpr int kMaxBlockDepth = 256;               // prim::If / prim::Loop nested in one another
constexpr int kMaxValueDepth = 64;                // tuples and lists nested in an attribute
constexpr uintmax_t kMaxSourceBytes = 64u << 20;  // the program file shown in messages

const char* const kHintFormat =
    "an IR file is written by `d2s parse` or `d2s trace` with `-o FILE.yaml`; see docs/ir.md "
    "for its format";

// Refuses what the node reader should never see: aliases and extra documents.
class AliasCheck : public YAML::EventHandler {
 public:
  explicit AliasCheck(const std::shared_ptr<const SourceFile>& f) : file_(f) {}
  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override {
    throw Error("YAML aliases (*name) are not allowed in an IR file",
                SourceRange(file_, mark.line + 1, mark.column + 1), kHintFormat);
  }
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}

 private:
  std::shared_ptr<const SourceFile> file_;
};

std::atomic<int64_t> g_max_graph_nodes{kDefaultMaxGraphNodes};

class Reader {
 public:
  explicit Reader(std::shared_ptr<const SourceFile> file) : file_(std::move(file)) {}

  std::unique_ptr<Graph> read() {
    pre_check();
    YAML::Node root = YAML::Load(file_->text());
    graph_ = std::make_unique<Graph>();
    read_root(root);
    Graph& g = *graph_;
    try {
      verify(g, [this](const Node& n) {
        auto it = where_.find(&n);
        return it != where_.end() ? it->second : SourceRange(file_, 1, 1);
      });
    } catch (const Error& e) {
      throw Error(e.message(), e.range(),
                  "the IR file does not describe a valid graph; regenerate it with `d2s parse` "
                  "or `d2s trace` (-o FILE.yaml)");
    }
    return std::move(graph_);
  }

 private:
  // ------------------------------------------------------------------ helpers

  SourceRange at(const YAML::Node& n) const {
    YAML::Mark m = n.Mark();
    if (m.is_null() || m.line < 0) return SourceRange(file_, 1, 1);
    int len = 1;
    if (n.IsScalar()) len = std::max<int>(1, static_cast<int>(n.Scalar().size()));
    return SourceRange(file_, m.line + 1, m.column + 1, len);
  }

  [[noreturn]] void fail(const YAML::Node& n, const std::string& message,
                         const std::string& hint = kHintFormat) const {
    throw Error("IR file: " + message, at(n), hint);
  }

  static const char* kind_name(const YAML::Node& n) {
    switch (n.Type()) {
      case YAML::NodeType::Null:
        return "null";
      case YAML::NodeType::Scalar:
        return "a scalar";
      case YAML::NodeType::Sequence:
        return "a list";
      case YAML::NodeType::Map:
        return "a map";
      default:
        return "nothing";
    }
  }

  // The fields of a map, checked against the allowed keys, without duplicates.
  struct Fields {
    YAML::Node map;
    std::vector<std::pair<std::string, YAML::Node>> items;
    const YAML::Node* get(const std::string& key) const {
      for (const auto& [k, v] : items) {
        if (k == key) return &v;
      }
      return nullptr;
    }
  };

  Fields fields(const YAML::Node& n, const std::string& what,
                std::initializer_list<const char*> allowed,
                std::initializer_list<const char*> required = {}) const {
    if (!n.IsMap()) fail(n, what + " must be a map, not " + kind_name(n));
    Fields f{n, {}};
    for (auto it = n.begin(); it != n.end(); ++it) {
      const YAML::Node key = it->first;
      if (!key.IsScalar()) fail(key, "a key in " + what + " must be a plain name");
      const std::string& k = key.Scalar();
      bool known = false;
      for (const char* a : allowed) known = known || k == a;
      if (!known) {
        std::string list;
        for (const char* a : allowed) list += std::string(list.empty() ? "" : ", ") + a;
        fail(key, "unknown field '" + k + "' in " + what, what + " has the fields: " + list);
      }
      if (f.get(k)) fail(key, "field '" + k + "' appears twice in " + what);
      f.items.emplace_back(k, it->second);
    }
    for (const char* r : required) {
      if (!f.get(r)) fail(n, what + " has no '" + r + "' field");
    }
    return f;
  }

  const YAML::Node& seq(const YAML::Node& n, const std::string& what) const {
    if (!n.IsSequence()) fail(n, what + " must be a list, not " + kind_name(n));
    return n;
  }

  std::string str(const YAML::Node& n, const std::string& what) const {
    if (!n.IsScalar()) fail(n, what + " must be a string, not " + kind_name(n));
    return n.Scalar();
  }

  // Plain scalars only: a quoted "3" is a string, not a number.
  const std::string& plain(const YAML::Node& n, const std::string& what,
                           const char* expected) const {
    if (!n.IsScalar() || n.Tag() == "!") {
      fail(n,
           what + " must be " + expected + ", not " + (n.IsScalar() ? "a string" : kind_name(n)));
    }
    return n.Scalar();
  }

  int64_t int_value(const YAML::Node& n, const std::string& what) const {
    const std::string& s = plain(n, what, "an integer");
    int64_t v = 0;
    const char* b = s.data();
    const char* e = s.data() + s.size();
    if (b != e && *b == '+') ++b;
    auto [p, ec] = std::from_chars(b, e, v);
    if (ec != std::errc() || p != e || b == e) {
      fail(n, what + " must be an integer, not '" + s + "'");
    }
    return v;
  }

  int int_in(const YAML::Node& n, const std::string& what, int64_t lo, int64_t hi) const {
    int64_t v = int_value(n, what);
    if (v < lo || v > hi) {
      fail(n, what + " must be between " + std::to_string(lo) + " and " + std::to_string(hi) +
                  ", not " + std::to_string(v));
    }
    return static_cast<int>(v);
  }

  double float_value(const YAML::Node& n, const std::string& what) const {
    const std::string& s = plain(n, what, "a number");
    std::string t = s;
    bool neg = !t.empty() && t[0] == '-';
    if (!t.empty() && (t[0] == '-' || t[0] == '+')) t = t.substr(1);
    if (t == ".inf" || t == ".Inf" || t == ".INF") {
      return neg ? -std::numeric_limits<double>::infinity()
                 : std::numeric_limits<double>::infinity();
    }
    if (t == ".nan" || t == ".NaN" || t == ".NAN") return std::numeric_limits<double>::quiet_NaN();
    double v = 0;
    auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    bool alpha = !t.empty() && (std::isalpha(static_cast<unsigned char>(t[0])));
    if (t.empty() || alpha || p != t.data() + t.size() ||
        (ec != std::errc() && ec != std::errc::result_out_of_range)) {
      fail(n, what + " must be a number, not '" + s + "'");
    }
    return neg ? -v : v;
  }

  bool bool_value(const YAML::Node& n, const std::string& what) const {
    const std::string& s = plain(n, what, "true or false");
    if (s == "true" || s == "True" || s == "TRUE") return true;
    if (s == "false" || s == "False" || s == "FALSE") return false;
    fail(n, what + " must be true or false, not '" + s + "'");
  }

  Type type_value(const YAML::Node& n, const std::string& what) const {
    std::string s = str(n, what);
    auto t = Type::parse(s);
    if (!t) {
      fail(n, "malformed type '" + s + "' in " + what,
           "types are written as the IR text prints them: Tensor[1, 20], Tensor[B, 20], Tensor, "
           "Long[3], Bool[], AnyTensor, int, float, bool, NoneType, str, (int, Tensor), int[], "
           "List[Tensor], Any");
    }
    return *t;
  }

  // ------------------------------------------------------------------ values

  void define(const YAML::Node& id_node, Value* v) {
    int64_t id = int_value(id_node, "a value id");
    if (id < 0) fail(id_node, "value ids must not be negative");
    if (!values_.emplace(id, v).second) {
      fail(id_node, "value id " + std::to_string(id) + " is defined twice");
    }
  }

  Value* use(const YAML::Node& id_node) const {
    int64_t id = int_value(id_node, "a value id");
    auto it = values_.find(id);
    if (it == values_.end()) {
      fail(id_node, "unknown value id " + std::to_string(id),
           "a value must be defined (as a graph input, block input or node output) before "
           "the nodes that use it");
    }
    return it->second;
  }

  std::vector<Value*> uses(const YAML::Node& list, const std::string& what) const {
    std::vector<Value*> out;
    for (const YAML::Node& item : seq(list, what)) out.push_back(use(item));
    return out;
  }

  // {id, name?, type?}: sets the name and type of `v` and defines its id.
  void value_def(const YAML::Node& n, Value* v, const std::string& what) {
    Fields f = fields(n, what, {"id", "name", "type"}, {"id"});
    if (const YAML::Node* name = f.get("name")) v->set_debug_name(str(*name, "a value name"));
    if (const YAML::Node* type = f.get("type")) v->set_type(type_value(*type, what));
    define(*f.get("id"), v);
  }

  // ------------------------------------------------------------------ attributes

  void read_attrs(const YAML::Node& n, Node* node) const {
    if (!n.IsMap()) fail(n, "attrs must be a map, not " + std::string(kind_name(n)));
    for (auto it = n.begin(); it != n.end(); ++it) {
      const YAML::Node key = it->first;
      if (!key.IsScalar() || key.Scalar().empty()) fail(key, "an attribute name must be a string");
      if (node->attr(key.Scalar())) fail(key, "attribute '" + key.Scalar() + "' appears twice");
      node->set_attr(key.Scalar(), attr_value(it->second, 0));
    }
  }

  // A typed value: a one-key map naming its kind. Recursion follows the value's
  // nesting, which is limited.
  IValue attr_value(const YAML::Node& n, int depth) const {
    static const char* const kHint =
        "attribute values are written {none: null}, {bool: true}, {int: 3}, {float: 0.5}, "
        "{str: \"text\"}, {ints: [1, 2]}, {tuple: [...]}, {list: [...]}, or "
        "{tensor: {dtype: float32, shape: [2], data: [1.0, 2.0]}}";
    if (depth > kMaxValueDepth) fail(n, "an attribute value is nested too deeply", kHint);
    if (!n.IsMap() || n.size() != 1) {
      fail(n, "an attribute value must be a map with one key that names its kind", kHint);
    }
    auto it = n.begin();
    const YAML::Node key = it->first;
    const YAML::Node v = it->second;
    const std::string k = key.IsScalar() ? key.Scalar() : std::string();
    if (k == "none") {
      if (!v.IsNull()) fail(v, "a none value must be written {none: null}", kHint);
      return IValue();
    }
    if (k == "bool") return IValue(bool_value(v, "a bool attribute"));
    if (k == "int") return IValue(int_value(v, "an int attribute"));
    if (k == "float") return IValue(float_value(v, "a float attribute"));
    if (k == "str") return IValue(str(v, "a str attribute"));
    if (k == "ints") {
      std::vector<int64_t> ints;
      for (const YAML::Node& item : seq(v, "an ints attribute")) {
        ints.push_back(int_value(item, "an item of an ints attribute"));
      }
      return IValue::int_list(ints);
    }
    if (k == "tuple" || k == "list") {
      ValueList items;
      for (const YAML::Node& item : seq(v, "a " + k + " attribute")) {
        items.push_back(attr_value(item, depth + 1));
      }
      return k == "tuple" ? IValue::tuple(std::move(items)) : IValue::list(std::move(items));
    }
    if (k == "tensor") return IValue(tensor_value(v));
    fail(key, "unknown attribute value kind '" + k + "'", kHint);
  }

  Tensor tensor_value(const YAML::Node& n) const {
    Fields f = fields(n, "a tensor", {"dtype", "shape", "data"}, {"dtype", "shape", "data"});
    const YAML::Node& dtype_node = *f.get("dtype");
    DType dtype;
    if (!parse_dtype(str(dtype_node, "dtype"), &dtype)) {
      fail(dtype_node, "unknown dtype '" + dtype_node.Scalar() + "'",
           "the dtypes are float32, int64 and bool");
    }
    Shape shape;
    int64_t numel = 1;
    for (const YAML::Node& d : seq(*f.get("shape"), "shape")) {
      int64_t size = int_value(d, "a dimension");
      if (size < 0) fail(d, "a dimension cannot be negative");
      if (size > 0 && numel > max_tensor_elements() / size) {
        fail(d, "the tensor is too large (more than " + std::to_string(max_tensor_elements()) +
                    " elements)");
      }
      numel *= size;
      shape.push_back(size);
    }
    const YAML::Node& data = seq(*f.get("data"), "data");
    if (static_cast<int64_t>(data.size()) != numel) {
      fail(data, "the tensor has " + std::to_string(data.size()) + " values but its shape " +
                     shape_str(shape) + " needs " + std::to_string(numel));
    }
    Tensor t = Tensor::empty(shape, dtype);
    int64_t i = 0;
    for (const YAML::Node& item : data) {
      switch (dtype) {
        case DType::Float32: {
          double v = float_value(item, "a tensor value");
          // Out-of-range doubles become infinities explicitly (a plain cast is undefined).
          constexpr double kMax = std::numeric_limits<float>::max();
          if (v > kMax) v = std::numeric_limits<double>::infinity();
          if (v < -kMax) v = -std::numeric_limits<double>::infinity();
          t.data<float>()[i] = static_cast<float>(v);
          break;
        }
        case DType::Int64:
          t.data<int64_t>()[i] = int_value(item, "a tensor value");
          break;
        case DType::Bool:
          t.data<bool>()[i] = bool_value(item, "a tensor value");
          break;
      }
      ++i;
    }
    return t;
  }

  // ------------------------------------------------------------------ structure

  void pre_check() {
    std::istringstream in(file_->text());
    YAML::Parser parser(in);
    AliasCheck check(file_);
    int docs = 0;
    while (parser.HandleNextDocument(check)) {
      if (++docs > 1) {
        throw Error("IR file: more than one YAML document", SourceRange(file_, 1, 1),
                    "an IR file holds one graph; remove the extra `---` documents");
      }
    }
    if (docs == 0) {
      throw Error("IR file: the file is empty", SourceRange(file_, 1, 1), kHintFormat);
    }
  }

  void read_root(const YAML::Node& root) {
    Fields f =
        fields(root, "the IR file",
               {"format", "version", "route", "entry", "source", "inputs", "nodes", "outputs"},
               {"format", "version", "inputs", "nodes", "outputs"});
    const YAML::Node& format = *f.get("format");
    if (!format.IsScalar() || format.Scalar() != "d2s-ir") {
      fail(format, "this is not a d2s IR file (format must be 'd2s-ir')");
    }
    const YAML::Node& version = *f.get("version");
    int64_t v = int_value(version, "version");
    if (v != kIrFileVersion) {
      fail(version, "unsupported IR file version " + std::to_string(v),
           "this d2s reads version " + std::to_string(kIrFileVersion) +
               "; regenerate the file with this d2s");
    }
    Graph& g = *graph_;
    if (const YAML::Node* r = f.get("route")) g.route = str(*r, "route");
    if (const YAML::Node* e = f.get("entry")) g.entry = str(*e, "entry");
    if (const YAML::Node* s = f.get("source"); s && !s->IsNull()) {
      g.source = load_source(str(*s, "source"));
    }

    where_[g.block()->param_node()] = at(*f.get("inputs"));
    where_[g.block()->return_node()] = at(*f.get("outputs"));
    for (const YAML::Node& in : seq(*f.get("inputs"), "inputs")) {
      value_def(in, g.block()->add_input(), "a graph input");
    }
    read_nodes(*f.get("nodes"), g.block(), 0);
    for (Value* out : uses(*f.get("outputs"), "outputs")) g.register_output(out);
  }

  // The program named by `source`, read when it is a regular file of sane size, as
  // written or next to the YAML file; else a file with that name and no text, so
  // that locations still print `path:line:col`.
  std::shared_ptr<const SourceFile> load_source(const std::string& path) {
    namespace fs = std::filesystem;
    std::vector<fs::path> candidates{fs::path(path)};
    fs::path p(path);
    if (p.is_relative()) candidates.push_back(fs::path(file_->path()).parent_path() / p);
    for (const fs::path& c : candidates) {
      std::error_code ec;
      if (!fs::is_regular_file(c, ec) || ec) continue;
      uintmax_t size = fs::file_size(c, ec);
      if (ec || size > kMaxSourceBytes) continue;
      std::ifstream in(c, std::ios::binary);
      if (!in) continue;
      std::ostringstream text;
      text << in.rdbuf();
      return std::make_shared<const SourceFile>(path, text.str());
    }
    return std::make_shared<const SourceFile>(path, std::string());
  }

  std::shared_ptr<const SourceFile> other_file(const std::string& path) {
    auto& f = other_files_[path];
    if (!f) f = std::make_shared<const SourceFile>(path, std::string());
    return f;
  }

  SourceRange read_loc(const YAML::Node& n) {
    Fields f = fields(n, "a node's loc", {"line", "col", "len", "file"}, {"line", "col"});
    constexpr int64_t kMax = 100'000'000;
    int line = int_in(*f.get("line"), "loc.line", 1, kMax);
    int col = int_in(*f.get("col"), "loc.col", 1, kMax);
    int len = 1;
    if (const YAML::Node* l = f.get("len")) len = int_in(*l, "loc.len", 1, kMax);
    std::shared_ptr<const SourceFile> file = graph_->source;
    if (const YAML::Node* fn = f.get("file")) {
      if (fn->IsNull()) {
        file = nullptr;
      } else {
        std::string path = str(*fn, "loc.file");
        file = graph_->source && path == graph_->source->path() ? graph_->source : other_file(path);
      }
    }
    return SourceRange(file, line, col, len);
  }

  // Nodes of one block, in order. Recursion only into nested blocks, limited.
  void read_nodes(const YAML::Node& list, Block* block, int depth) {
    for (const YAML::Node& item : seq(list, "nodes")) read_node(item, block, depth);
  }

  void read_node(const YAML::Node& n, Block* block, int depth) {
    Fields f =
        fields(n, "a node", {"kind", "overload", "inputs", "outputs", "attrs", "loc", "blocks"},
               {"kind", "loc"});
    const YAML::Node& kind_node = *f.get("kind");
    std::string kind = str(kind_node, "kind");
    if (kind.empty() || kind == kind::Param || kind == kind::Return) {
      fail(kind_node, "'" + kind + "' is not a node kind that a file can hold");
    }
    std::vector<Value*> inputs;
    if (const YAML::Node* in = f.get("inputs")) inputs = uses(*in, "inputs");
    if (++nodes_read_ > max_graph_nodes()) {
      fail(n, "the graph has more than " + std::to_string(max_graph_nodes()) + " nodes",
           "raise the limit with --max-graph-nodes N");
    }
    SourceRange range = read_loc(*f.get("loc"));
    Node* node = graph_->create(kind, inputs, 0, range);
    block->append(node);
    where_[node] = at(n);
    if (const YAML::Node* o = f.get("overload")) node->set_overload(str(*o, "overload"));
    if (const YAML::Node* a = f.get("attrs")) read_attrs(*a, node);
    if (const YAML::Node* b = f.get("blocks")) {
      if (depth >= kMaxBlockDepth) {
        fail(*b, "blocks are nested more than " + std::to_string(kMaxBlockDepth) + " deep");
      }
      for (const YAML::Node& bn : seq(*b, "blocks")) read_block(bn, node->add_block(), depth + 1);
    }
    // Defined after the blocks: a node's outputs are not visible inside them.
    if (const YAML::Node* o = f.get("outputs")) {
      for (const YAML::Node& out : seq(*o, "outputs")) {
        value_def(out, node->add_output(), "a node output");
      }
    }
  }

  void read_block(const YAML::Node& n, Block* block, int depth) {
    Fields f = fields(n, "a block", {"inputs", "nodes", "outputs"}, {"inputs", "nodes", "outputs"});
    where_[block->param_node()] = at(n);
    where_[block->return_node()] = at(*f.get("outputs"));
    for (const YAML::Node& in : seq(*f.get("inputs"), "a block's inputs")) {
      value_def(in, block->add_input(), "a block input");
    }
    read_nodes(*f.get("nodes"), block, depth);
    for (Value* out : uses(*f.get("outputs"), "a block's outputs")) block->register_output(out);
  }

  std::shared_ptr<const SourceFile> file_;
  std::unique_ptr<Graph> graph_;
  std::unordered_map<int64_t, Value*> values_;
  int64_t nodes_read_ = 0;  // against max_graph_nodes()
  std::unordered_map<const Node*, SourceRange> where_;
  std::unordered_map<std::string, std::shared_ptr<const SourceFile>> other_files_;
};

}  // namespace

int64_t max_graph_nodes() {
  return g_max_graph_nodes.load(std::memory_order_relaxed);
}

void set_max_graph_nodes(int64_t limit) {
  g_max_graph_nodes.store(std::max<int64_t>(limit, 1), std::memory_order_relaxed);
}

std::unique_ptr<Graph> graph_from_yaml(std::shared_ptr<const SourceFile> yaml_file) {
  try {
    return Reader(yaml_file).read();
  } catch (const Error&) {
    throw;
  } catch (const YAML::Exception& e) {
    SourceRange where = e.mark.is_null()
                            ? SourceRange(yaml_file, 1, 1)
                            : SourceRange(yaml_file, e.mark.line + 1, e.mark.column + 1);
    throw Error("IR file: invalid YAML: " + e.msg, where, kHintFormat);
  } catch (const std::bad_alloc&) {
    throw Error("IR file: out of memory while reading it", SourceRange(yaml_file, 1, 1));
  } catch (const std::exception& e) {
    throw Error(std::string("IR file: cannot be read: ") + e.what(), SourceRange(yaml_file, 1, 1),
                kHintFormat);
  }
}

std::unique_ptr<Graph> load_graph_yaml(const std::string& path) {
  return graph_from_yaml(SourceFile::load(path));
}

}  // namespace d2s::ir
