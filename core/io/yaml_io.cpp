// Reading inputs and weights files (yaml_io.h). Writing is in yaml_io_write.cpp.
//
// yaml-cpp gives the tree and each node's position; this file resolves plain
// scalars itself (YAML 1.2 core schema: `5` is an int, `0.5` a float, `true` a
// bool, `"5"` a string) because yaml-cpp leaves that to the caller, and turns
// every problem into a d2s::Error at the node's position in the file.
#include "core/io/yaml_io.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <set>
#include <sstream>

#include "core/base/error.h"
#include "core/base/text.h"
#include "core/tensor/random.h"

namespace d2s {
namespace {

constexpr const char* kTensorForm =
    "a tensor is {shape: [2, 3], data: [...]} or {shape: [2, 3], fill: randn}; "
    "other keys: dtype, seed, requires_grad";

// ---------------------------------------------------------------------------
// Positions and errors

struct Ctx {
  std::shared_ptr<const SourceFile> file;

  SourceRange at(const YAML::Mark& mark, int len = 1) const {
    if (mark.is_null()) return SourceRange(file, 0, 0);
    return SourceRange(file, mark.line + 1, mark.column + 1, len);
  }
  SourceRange at(const YAML::Node& node) const {
    int len = node.IsScalar() ? std::max<int>(1, static_cast<int>(node.Scalar().size())) : 1;
    return at(node.Mark(), len);
  }
  [[noreturn]] void fail(const YAML::Node& node, std::string message, std::string hint) const {
    throw Error(std::move(message), at(node), std::move(hint));
  }
};

std::string closest(const std::string& word, const std::vector<std::string>& choices) {
  std::string best;
  size_t best_d = 3;  // suggest only near misses
  for (const auto& c : choices) {
    size_t d = edit_distance(word, c);
    if (d < best_d) best_d = d, best = c;
  }
  return best;
}

// ---------------------------------------------------------------------------
// Scalars

enum class ScalarKind { Null, Bool, Int, Float, String };

struct Scalar {
  ScalarKind kind = ScalarKind::String;
  bool b = false;
  int64_t i = 0;
  double f = 0;
};

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// YAML 1.2 core-schema float: [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
bool is_float_text(std::string_view s) {
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) s.remove_prefix(1);
  size_t e = s.find_first_of("eE");
  std::string_view mant = s.substr(0, e);
  if (e != std::string_view::npos) {
    std::string_view exp = s.substr(e + 1);
    if (!exp.empty() && (exp[0] == '+' || exp[0] == '-')) exp.remove_prefix(1);
    if (!all_digits(exp)) return false;
  }
  size_t dot = mant.find('.');
  if (dot == std::string_view::npos) return all_digits(mant);
  std::string_view whole = mant.substr(0, dot), frac = mant.substr(dot + 1);
  if (whole.empty()) return all_digits(frac);
  return all_digits(whole) && (frac.empty() || all_digits(frac));
}

Scalar resolve_scalar(const Ctx& ctx, const YAML::Node& node) {
  Scalar out;
  const std::string& s = node.Scalar();
  // "!" marks a quoted scalar, which YAML says is always a string.
  if (node.Tag() != "?") return out;
  if (s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL") {
    out.kind = ScalarKind::Null;
  } else if (s == "true" || s == "True" || s == "TRUE") {
    out.kind = ScalarKind::Bool, out.b = true;
  } else if (s == "false" || s == "False" || s == "FALSE") {
    out.kind = ScalarKind::Bool, out.b = false;
  } else if (all_digits(s[0] == '-' || s[0] == '+' ? std::string_view(s).substr(1) : s)) {
    std::string_view digits = s[0] == '+' ? std::string_view(s).substr(1) : std::string_view(s);
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), out.i);
    if (ec != std::errc() || end != digits.data() + digits.size()) {
      ctx.fail(node, "integer '" + s + "' does not fit in 64 bits",
               "write it as a float (e.g. " + s + ".0) if that is what you mean");
    }
    out.kind = ScalarKind::Int;
  } else if (is_float_text(s)) {
    out.kind = ScalarKind::Float, out.f = std::strtod(s.c_str(), nullptr);
  } else {
    std::string t = s;
    bool neg = !t.empty() && t[0] == '-';
    if (!t.empty() && (t[0] == '-' || t[0] == '+')) t.erase(0, 1);
    if (t == ".inf" || t == ".Inf" || t == ".INF") {
      out.kind = ScalarKind::Float, out.f = neg ? -HUGE_VAL : HUGE_VAL;
    } else if (s == ".nan" || s == ".NaN" || s == ".NAN") {
      out.kind = ScalarKind::Float, out.f = std::nan("");
    }
  }
  return out;
}

std::string scalar_text(const YAML::Node& node) {
  return node.IsScalar() ? "'" + node.Scalar() + "'" : node.IsMap() ? "a map" : "a list";
}

int64_t expect_int(const Ctx& ctx, const YAML::Node& node, const std::string& what,
                   const std::string& hint) {
  if (node.IsScalar()) {
    Scalar s = resolve_scalar(ctx, node);
    if (s.kind == ScalarKind::Int) return s.i;
  }
  ctx.fail(node, what + " must be an integer, not " + scalar_text(node), hint);
}

// A fill's seed: any unsigned 64-bit number, since the seeds d2s derives for a fill
// without one span that range and a derived seed written into a file must read back.
uint64_t read_seed(const Ctx& ctx, const YAML::Node& node) {
  if (node.IsScalar() && node.Tag() == "?" && !node.Scalar().empty() && all_digits(node.Scalar())) {
    const std::string& text = node.Scalar();
    uint64_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec == std::errc() && end == text.data() + text.size()) return value;
  }
  int64_t s = expect_int(ctx, node, "seed", "write a non-negative integer, e.g. seed: 3");
  if (s < 0) ctx.fail(node, "seed must be non-negative", "e.g. seed: 3");
  return static_cast<uint64_t>(s);
}

bool expect_bool(const Ctx& ctx, const YAML::Node& node, const std::string& what) {
  if (node.IsScalar()) {
    Scalar s = resolve_scalar(ctx, node);
    if (s.kind == ScalarKind::Bool) return s.b;
  }
  ctx.fail(node, what + " must be true or false, not " + scalar_text(node), "write true or false");
}

std::string expect_name(const Ctx& ctx, const YAML::Node& node, const std::string& what) {
  if (!node.IsScalar() || node.Scalar().empty()) {
    ctx.fail(node, what + " must be a plain name", "write keys as `name: value`");
  }
  return node.Scalar();
}

// ---------------------------------------------------------------------------
// Tensors

// The keys of a tensor spec. std::optional because a default YAML::Node counts
// as defined, and assigning to a non-empty Node rebinds the node it refers to.
struct TensorSpec {
  std::optional<YAML::Node> shape, data, dtype, fill, seed, requires_grad;
};

TensorSpec split_spec(const Ctx& ctx, const YAML::Node& map) {
  static const std::vector<std::string> keys = {"shape", "data", "dtype",
                                                "fill",  "seed", "requires_grad"};
  TensorSpec spec;
  for (const auto& kv : map) {
    std::string key = expect_name(ctx, kv.first, "a tensor spec key");
    std::optional<YAML::Node>* slot = key == "shape"           ? &spec.shape
                                      : key == "data"          ? &spec.data
                                      : key == "dtype"         ? &spec.dtype
                                      : key == "fill"          ? &spec.fill
                                      : key == "seed"          ? &spec.seed
                                      : key == "requires_grad" ? &spec.requires_grad
                                                               : nullptr;
    if (!slot) {
      std::string near = closest(key, keys);
      ctx.fail(kv.first, "unknown key '" + key + "' in a tensor spec",
               (near.empty() ? "" : "did you mean '" + near + "'? ") + kTensorForm);
    }
    if (slot->has_value()) {
      ctx.fail(kv.first, "duplicate key '" + key + "' in a tensor spec", "give each key once");
    }
    slot->emplace(kv.second);
  }
  return spec;
}

Shape read_shape(const Ctx& ctx, const YAML::Node& node) {
  const std::string hint = "write the shape as a list of sizes, e.g. shape: [2, 3] (or [] for 0-d)";
  if (!node.IsSequence()) ctx.fail(node, "shape must be a list of non-negative integers", hint);
  Shape shape;
  int64_t numel = 1;
  for (const auto& d : node) {
    int64_t n = expect_int(ctx, d, "a shape entry", hint);
    if (n < 0) ctx.fail(d, "shape entries must be non-negative, not " + std::to_string(n), hint);
    // Check against the limit at each step so the product cannot overflow.
    if (n > 0 && numel > max_tensor_elements() / n) {
      ctx.fail(node, "shape is too large",
               "d2s allocates at most " + std::to_string(max_tensor_elements()) +
                   " elements per tensor; raise the limit with --max-tensor-elements N");
    }
    numel *= n;
    shape.push_back(n);
  }
  return shape;
}

// The nesting of `data` (sizes per level), checking that it is rectangular.
// Elements are collected flat, row-major, with their nodes for messages.
void flatten_data(const Ctx& ctx, const YAML::Node& node, size_t depth, Shape* nested,
                  std::vector<YAML::Node>* flat) {
  if (!node.IsSequence()) {
    if (node.IsMap()) ctx.fail(node, "tensor data cannot hold a map", kTensorForm);
    if (depth != nested->size()) {
      ctx.fail(node, "ragged data: a value where a list was expected",
               "every row of nested data must have the same length");
    }
    flat->push_back(node);
    return;
  }
  int64_t n = static_cast<int64_t>(node.size());
  if (depth == nested->size()) {
    if (!flat->empty()) {
      ctx.fail(node, "ragged data: a list where a value was expected",
               "every row of nested data must have the same length");
    }
    nested->push_back(n);
  } else if ((*nested)[depth] != n) {
    ctx.fail(node,
             "ragged data: this row has " + std::to_string(n) + (n == 1 ? " value" : " values") +
                 ", an earlier row " + std::to_string((*nested)[depth]),
             "every row of nested data must have the same length");
  }
  for (const auto& item : node) flatten_data(ctx, item, depth + 1, nested, flat);
}

Tensor fill_tensor(const Ctx& ctx, const TensorSpec& spec, const Shape& shape, DType dtype,
                   uint64_t default_seed) {
  std::string fill = spec.fill->IsScalar() ? spec.fill->Scalar() : "";
  static const std::vector<std::string> fills = {"randn", "rand", "zeros", "ones"};
  if (std::find(fills.begin(), fills.end(), fill) == fills.end()) {
    std::string near = fill.empty() ? "" : closest(fill, fills);
    ctx.fail(*spec.fill, "unknown fill " + scalar_text(*spec.fill),
             (near.empty() ? "" : "did you mean '" + near + "'? ") +
                 "fill is one of randn, rand, zeros, ones");
  }
  if (fill == "zeros") return Tensor::zeros(shape, dtype);
  if (fill == "ones") return Tensor::full(shape, 1.0, dtype);
  if (dtype != DType::Float32) {
    ctx.fail(*spec.fill, "fill: " + fill + " gives float32 values, not " + dtype_name(dtype),
             "drop the dtype, or give the data");
  }
  uint64_t seed = default_seed;
  if (spec.seed.has_value()) seed = read_seed(ctx, *spec.seed);
  Generator gen(seed);
  std::vector<float> values(static_cast<size_t>(shape_numel(shape)));
  for (float& v : values) v = fill == "randn" ? gen.normal() : gen.uniform();
  return Tensor::from_floats(shape, values);
}

Tensor data_tensor(const Ctx& ctx, const TensorSpec& spec, const Shape* declared, DType dtype) {
  Shape nested;
  std::vector<YAML::Node> flat;
  flatten_data(ctx, *spec.data, 0, &nested, &flat);
  Shape shape = declared ? *declared : nested;
  auto count = static_cast<int64_t>(flat.size());
  if (declared) {
    bool flat_form = nested.size() <= 1;
    if (flat_form && count != shape_numel(shape)) {
      ctx.fail(*spec.data,
               "data has " + std::to_string(count) + " value" + (count == 1 ? "" : "s") +
                   " but shape " + shape_str(shape) + " needs " +
                   std::to_string(shape_numel(shape)),
               "give exactly one value per element, row-major");
    }
    if (!flat_form && nested != shape) {
      ctx.fail(*spec.data,
               "data is nested as " + shape_str(nested) + " but shape is " + shape_str(shape),
               "give data flat (row-major) or nested exactly as the shape");
    }
  } else if (count > max_tensor_elements()) {
    ctx.fail(*spec.data, "tensor data is too large", max_tensor_elements_hint());
  }

  std::vector<float> floats;
  std::vector<int64_t> ints;
  std::vector<bool> bools;
  for (const YAML::Node& item : flat) {
    Scalar s = resolve_scalar(ctx, item);
    switch (dtype) {
      case DType::Float32:
        if (s.kind != ScalarKind::Int && s.kind != ScalarKind::Float) {
          ctx.fail(item, "float32 data value " + scalar_text(item) + " is not a number",
                   "write numbers such as 1, -0.5, 1e-3, .nan, .inf");
        }
        floats.push_back(
            static_cast<float>(s.kind == ScalarKind::Int ? static_cast<double>(s.i) : s.f));
        break;
      case DType::Int64:
        if (s.kind != ScalarKind::Int) {
          ctx.fail(item, "int64 data value " + scalar_text(item) + " is not an integer",
                   "write whole numbers, or drop `dtype: int64` for float32 data");
        }
        ints.push_back(s.i);
        break;
      case DType::Bool:
        if (s.kind != ScalarKind::Bool) {
          ctx.fail(item, "bool data value " + scalar_text(item) + " is not true or false",
                   "write true or false");
        }
        bools.push_back(s.b);
        break;
    }
  }
  switch (dtype) {
    case DType::Float32:
      return Tensor::from_floats(shape, floats);
    case DType::Int64:
      return Tensor::from_ints(shape, ints);
    case DType::Bool:
      return Tensor::from_bools(shape, bools);
  }
  return {};
}

// A tensor spec (a YAML map) as a Tensor. *requires_grad receives the flag.
Tensor read_tensor(const Ctx& ctx, const YAML::Node& map, uint64_t default_seed,
                   bool* requires_grad) {
  TensorSpec spec = split_spec(ctx, map);
  DType dtype = DType::Float32;
  if (spec.dtype.has_value()) {
    if (!spec.dtype->IsScalar() || !parse_dtype(spec.dtype->Scalar(), &dtype)) {
      ctx.fail(*spec.dtype, "unknown dtype " + scalar_text(*spec.dtype),
               "dtype is one of float32, int64, bool");
    }
  }
  if (spec.data.has_value() && spec.fill.has_value()) {
    ctx.fail(*spec.fill, "a tensor spec has either data or fill, not both",
             "drop one of them; " + std::string(kTensorForm));
  }
  if (!spec.data.has_value() && !spec.fill.has_value()) {
    ctx.fail(map, "a tensor spec needs data or fill", kTensorForm);
  }
  if (spec.seed.has_value() && !spec.fill.has_value()) {
    ctx.fail(*spec.seed, "seed applies only to fill: randn or rand", "drop the seed");
  }
  std::optional<Shape> shape;
  if (spec.shape.has_value()) shape = read_shape(ctx, *spec.shape);
  if (!shape && spec.fill.has_value()) {
    ctx.fail(map, "a tensor spec with fill needs a shape", "e.g. {shape: [2, 3], fill: randn}");
  }

  Tensor t = spec.data.has_value() ? data_tensor(ctx, spec, shape ? &*shape : nullptr, dtype)
                                   : fill_tensor(ctx, spec, *shape, dtype, default_seed);
  *requires_grad = false;
  if (spec.requires_grad.has_value()) {
    *requires_grad = expect_bool(ctx, *spec.requires_grad, "requires_grad");
    if (*requires_grad && dtype != DType::Float32) {
      ctx.fail(*spec.requires_grad,
               std::string("only float32 tensors can require gradients, not ") + dtype_name(dtype),
               "drop requires_grad or the dtype");
    }
    if (*requires_grad) t.set_requires_grad(true);
  }
  return t;
}

// An input value: a tensor spec, a scalar, null, or a list of values.
IValue read_value(const Ctx& ctx, const YAML::Node& node, uint64_t default_seed,
                  bool* requires_grad) {
  *requires_grad = false;
  if (node.IsMap()) return read_tensor(ctx, node, default_seed, requires_grad);
  if (node.IsSequence()) {
    ValueList items;
    for (const auto& item : node) {
      bool rg = false;
      items.push_back(read_value(ctx, item, default_seed, &rg));
    }
    return IValue::list(std::move(items));
  }
  if (node.IsNull()) return IValue();
  Scalar s = resolve_scalar(ctx, node);
  switch (s.kind) {
    case ScalarKind::Null:
      return IValue();
    case ScalarKind::Bool:
      return IValue(s.b);
    case ScalarKind::Int:
      return IValue(s.i);
    case ScalarKind::Float:
      return IValue(s.f);
    case ScalarKind::String:
      break;
  }
  ctx.fail(node, "'" + node.Scalar() + "' is not an input value (strings are not accepted)",
           std::string("inputs are numbers (n: 5, alpha: 0.5), true/false, null, or tensors; ") +
               kTensorForm);
}

// Where to show a syntax error. yaml-cpp reports "not closed" errors at the end of
// the file, often an empty last line with nothing to put a caret under: show the end of
// the last line that has text instead.
SourceRange syntax_error_at(const Ctx& ctx, const YAML::Mark& mark) {
  SourceRange r = ctx.at(mark);
  if (!r.known()) return r;
  int line = r.line;
  while (line > 1 && ctx.file->line_text(line).empty()) --line;
  if (line == r.line) return r;
  int end = static_cast<int>(ctx.file->line_text(line).size());
  return SourceRange(ctx.file, line, std::max(end, 1));
}

// Counts the file's documents, stopping at two. YAML::LoadAll is not used: on some
// malformed input (fuzz/regressions/inputs_yaml_loadall_oom.yaml) yaml-cpp 0.7 keeps
// reporting one more empty document forever and LoadAll collects them until memory
// runs out (yaml-cpp PR #1319); this loop cannot run away.
class DocumentCounter : public YAML::EventHandler {
 public:
  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

// Parses the whole file. Syntax errors become d2s::Errors at yaml-cpp's mark.
YAML::Node parse_document(const Ctx& ctx) {
  try {
    std::istringstream in(ctx.file->text());
    YAML::Parser parser(in);
    DocumentCounter counter;
    int docs = 0;
    while (docs < 2 && parser.HandleNextDocument(counter)) ++docs;
    if (docs > 1) {
      throw Error("the file holds more than one YAML document", SourceRange(),
                  "put several input sets in one list (`- x: ...`) instead of `---` documents");
    }
    return docs == 0 ? YAML::Node() : YAML::Load(ctx.file->text());
  } catch (const YAML::Exception& e) {
    throw Error("YAML syntax error: " + e.msg, syntax_error_at(ctx, e.mark),
                "check the indentation (spaces, not tabs) and that every [ and { is closed");
  }
}

InputSet read_set(const Ctx& ctx, const YAML::Node& map, uint64_t seed, uint64_t set_index) {
  InputSet set;
  set.range = ctx.at(map);
  std::set<std::string> seen;
  for (const auto& kv : map) {
    NamedInput in;
    in.name = expect_name(ctx, kv.first, "an input name");
    in.range = ctx.at(kv.first);
    if (!seen.insert(in.name).second) {
      ctx.fail(kv.first, "duplicate input '" + in.name + "'", "give each input once per set");
    }
    in.value = read_value(ctx, kv.second, fill_seed(seed, set_index, in.name), &in.requires_grad);
    set.values.push_back(std::move(in));
  }
  return set;
}

uint64_t mix64(uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace

uint64_t fill_seed(uint64_t seed, uint64_t set_index, const std::string& name) {
  uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a offset basis
  for (unsigned char c : name) h = (h ^ c) * 0x100000001b3ULL;
  return mix64(mix64(mix64(seed) ^ set_index) ^ h);
}

const NamedInput* InputSet::find(const std::string& name) const {
  for (const auto& v : values) {
    if (v.name == name) return &v;
  }
  return nullptr;
}

std::vector<std::string> InputSet::grad_names() const {
  std::vector<std::string> out;
  for (const auto& v : values) {
    if (v.requires_grad) out.push_back(v.name);
  }
  return out;
}

InputFile parse_input_sets(std::shared_ptr<const SourceFile> file, uint64_t seed) {
  Ctx ctx{file};
  YAML::Node root = parse_document(ctx);
  InputFile out;
  out.file = file;
  const char* form = "an inputs file is a map (x: {shape: [2], data: [1, 2]}) or a list of maps";
  if (!root.IsDefined() || root.IsNull()) {
    out.sets.push_back(InputSet{{}, SourceRange(file, 1, 1)});  // empty file: no inputs
  } else if (root.IsMap()) {
    out.sets.push_back(read_set(ctx, root, seed, 0));
  } else if (root.IsSequence()) {
    out.is_list = true;
    if (root.size() == 0) ctx.fail(root, "the list holds no input sets", form);
    uint64_t index = 0;
    for (const auto& item : root) {
      if (!item.IsMap()) {
        ctx.fail(item,
                 "input set " + std::to_string(index + 1) + " is " + scalar_text(item) +
                     ", not a map of names to values",
                 form);
      }
      out.sets.push_back(read_set(ctx, item, seed, index++));
    }
  } else {
    ctx.fail(root, "the file is " + scalar_text(root) + ", not a map of names to values", form);
  }
  return out;
}

InputFile load_input_sets(const std::string& path, uint64_t seed) {
  return parse_input_sets(SourceFile::load(path), seed);
}

std::vector<NamedTensor> parse_weights(std::shared_ptr<const SourceFile> file, uint64_t seed) {
  Ctx ctx{file};
  YAML::Node root = parse_document(ctx);
  std::vector<NamedTensor> out;
  if (!root.IsDefined() || root.IsNull()) return out;
  if (!root.IsMap()) {
    ctx.fail(root,
             "a weights file is a map of state_dict names to tensors, not " +
                 std::string(root.IsSequence() ? "a list" : scalar_text(root)),
             "e.g. linear1.weight: {shape: [4, 3], data: [...]}");
  }
  std::set<std::string> seen;
  for (const auto& kv : root) {
    NamedTensor w;
    w.name = expect_name(ctx, kv.first, "a weight name");
    w.range = ctx.at(kv.first);
    if (!seen.insert(w.name).second) {
      ctx.fail(kv.first, "duplicate weight '" + w.name + "'", "give each weight once");
    }
    if (!kv.second.IsMap()) {
      ctx.fail(kv.second,
               "weight '" + w.name + "' must be a tensor spec, not " + scalar_text(kv.second),
               kTensorForm);
    }
    // requires_grad is accepted for symmetry with inputs; parameters always take
    // gradients, so the flag does not matter here.
    bool requires_grad = false;
    w.tensor = read_tensor(ctx, kv.second, fill_seed(seed, 0, w.name), &requires_grad);
    out.push_back(std::move(w));
  }
  return out;
}

std::vector<NamedTensor> load_weights(const std::string& path, uint64_t seed) {
  return parse_weights(SourceFile::load(path), seed);
}

}  // namespace d2s
