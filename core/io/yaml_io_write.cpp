// Writing outputs and tensor maps as YAML (yaml_io.h).
//
// Written by hand rather than with YAML::Emitter because the format is part of
// the contract: floats must read back bit-exactly (yaml-cpp's emitter rounds to
// its default precision), tensors are compact flow maps, and the text must be
// readable by PyYAML too (YAML 1.1: a float needs a '.', e.g. `1.0e+20`).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <type_traits>

#include "core/base/error.h"
#include "core/base/file_io.h"
#include "core/base/number_format.h"
#include "core/base/text.h"
#include "core/io/yaml_io.h"

namespace d2s {
namespace {

constexpr size_t kWidth = 100;  // wrap flow lists past this column

}  // namespace

namespace {

bool plain_safe_key(const std::string& s) {
  // Words that YAML 1.1 readers (PyYAML) take for null or booleans.
  static const char* const reserved[] = {"null", "true", "false", "yes", "no", "on", "off"};
  std::string lower;
  for (char c : s) lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  for (const char* r : reserved) {
    if (lower == r) return false;
  }
  bool has_alpha = false;
  for (char c : s) {
    bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    bool ok = alpha || (c >= '0' && c <= '9') || c == '.';
    if (!ok) return false;
    has_alpha = has_alpha || alpha;
  }
  // "0" or "1.5" would read back as numbers in other YAML readers; "0.weight"
  // (an nn.Sequential parameter) has a letter and stays a string.
  return has_alpha;
}

std::string yaml_key(const std::string& name) {
  return plain_safe_key(name) ? name : quote_string(name);
}

// Appends values in YAML flow style, wrapping long lists onto continuation
// lines indented by `indent` (deeper than the enclosing block, as YAML needs).
class FlowWriter {
 public:
  FlowWriter(std::string* out, std::string indent) : out_(out), indent_(std::move(indent)) {}

  void value(const IValue& v) {
    if (v.is_tensor()) return tensor(v.to_tensor());
    if (v.is_none()) return raw("null");
    if (v.is_bool()) return raw(v.to_bool() ? "true" : "false");
    if (v.is_int()) return raw(std::to_string(v.to_int()));
    if (v.is_double()) return raw(format_float64(v.to_double()));
    if (v.is_string()) return raw(quote_string(v.to_string()));
    if (v.is_tuple() || v.is_list()) {
      raw("[");
      bool first = true;
      for (const IValue& item : v.items()) {
        separator(&first, 1);
        value(item);
      }
      return raw("]");
    }
    throw Error("cannot write a value of type '" + v.type_name() + "' to YAML", SourceRange(),
                "return tensors, numbers, booleans, None, or tuples and lists of them");
  }

  void tensor(const Tensor& t) {
    if (!t.defined()) return raw("null");
    raw("{shape: " + shape_str(t.shape()) + ", dtype: " + dtype_name(t.dtype()) + ", data: [");
    bool first = true;
    int64_t n = t.numel();
    for (int64_t i = 0; i < n; ++i) {
      std::string item;
      switch (t.dtype()) {
        case DType::Float32:
          item = format_float32(t.data<float>()[i]);
          break;
        case DType::Int64:
          // Read int64 directly: value_at's double would round values past 2^53.
          item = std::to_string(t.data<int64_t>()[i]);
          break;
        case DType::Bool:
          item = t.value_at(i) != 0 ? "true" : "false";
          break;
      }
      separator(&first, item.size());
      raw(item);
    }
    raw("]}");
  }

 private:
  size_t column() const {
    size_t nl = out_->rfind('\n');
    return nl == std::string::npos ? out_->size() : out_->size() - nl - 1;
  }
  void raw(std::string_view s) { *out_ += s; }
  // ", " between list items, or ",\n<indent>" when the next item would not fit.
  void separator(bool* first, size_t next_len) {
    if (*first) {
      *first = false;
      return;
    }
    // Room for the item and what may follow it on the line (",", or "]}]").
    if (column() + 2 + next_len + 3 > kWidth) {
      *out_ += ",\n" + indent_;
    } else {
      *out_ += ", ";
    }
  }

  std::string* out_;
  std::string indent_;
};

// The entry's return value as the `outputs` list (see yaml_io.h).
ValueList output_items(const IValue& v) {
  if (v.is_none()) return {};
  if (v.is_tuple()) return v.tuple_items();
  return {v};
}

// One result as a block map. `first` prefixes its first line ("- " inside a
// list of sets), `indent` the others.
void emit_result(std::string* out, const RunResult& r, const std::string& first,
                 const std::string& indent) {
  ValueList items = output_items(r.value);
  *out += first + "outputs:";
  if (items.empty()) *out += " []";
  *out += "\n";
  for (const IValue& item : items) {
    *out += indent + "  - ";
    FlowWriter(out, indent + "      ").value(item);
    *out += "\n";
  }
  if (!r.grads) return;
  *out += indent + "grads:";
  if (r.grads->empty()) *out += " {}";
  *out += "\n";
  for (const auto& [name, g] : *r.grads) {
    *out += indent + "  " + yaml_key(name) + ": ";
    FlowWriter(out, indent + "      ").value(g);
    *out += "\n";
  }
}

}  // namespace

std::string format_value_yaml(const IValue& value) {
  std::string out;
  FlowWriter(&out, "    ").value(value);
  return out;
}

std::string format_outputs_yaml(const std::vector<RunResult>& results, bool as_list) {
  std::string out;
  if (!as_list) {
    if (results.size() != 1) {
      throw Error("internal: one result expected for a single input set, got " +
                  std::to_string(results.size()));
    }
    emit_result(&out, results[0], "", "");
    return out;
  }
  if (results.empty()) return "[]\n";
  for (const RunResult& r : results) emit_result(&out, r, "- ", "  ");
  return out;
}

void write_outputs_yaml(const std::string& path, const std::vector<RunResult>& results,
                        bool as_list) {
  write_file_atomic(path, format_outputs_yaml(results, as_list));
}

std::string format_tensor_map_yaml(const std::vector<std::pair<std::string, Tensor>>& tensors) {
  if (tensors.empty()) return "{}\n";
  std::string out;
  for (const auto& [name, t] : tensors) {
    out += yaml_key(name) + ": ";
    FlowWriter(&out, "    ").tensor(t);
    out += "\n";
  }
  return out;
}

void write_tensor_map_yaml(const std::string& path,
                           const std::vector<std::pair<std::string, Tensor>>& tensors) {
  write_file_atomic(path, format_tensor_map_yaml(tensors));
}

}  // namespace d2s
