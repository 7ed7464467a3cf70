// IValue accessors and Python-style printing: floats as Python's repr() writes
// them, tensors as PyTorch 1.13's print(t) does (torch/_tensor_str.py, followed
// step by step below with its default print options).
#include "core/tensor/ivalue.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "core/base/error.h"
#include "core/tensor/autograd_hooks.h"
#include "core/tensor/ivalue_dict.h"

namespace d2s {

IValue IValue::tuple(ValueList items) {
  IValue v;
  v.v_ = std::make_shared<Tuple>(std::move(items));
  return v;
}

IValue IValue::list(ValueList items) {
  IValue v;
  v.v_ = std::make_shared<List>(std::move(items));
  return v;
}

void IValue::Tuple::gc_visit(GcVisitor& v) const {
  for (const IValue& item : items) v.value(item);
}
void IValue::Tuple::gc_clear() {
  items.clear();
}
void IValue::List::gc_visit(GcVisitor& v) const {
  for (const IValue& item : items) v.value(item);
}
void IValue::List::gc_clear() {
  items.clear();
}

const GcNode* IValue::gc_node() const {
  if (auto* t = std::get_if<std::shared_ptr<Tuple>>(&v_)) return t->get();
  if (auto* l = std::get_if<std::shared_ptr<List>>(&v_)) return l->get();
  if (auto* o = std::get_if<std::shared_ptr<Object>>(&v_)) return o->get();
  return nullptr;
}

IValue IValue::int_list(const std::vector<int64_t>& items) {
  ValueList values(items.begin(), items.end());
  return list(std::move(values));
}

int64_t IValue::to_int() const {
  if (is_bool()) return to_bool() ? 1 : 0;
  return std::get<int64_t>(v_);
}

double IValue::to_double() const {
  if (is_int()) return static_cast<double>(std::get<int64_t>(v_));
  if (is_bool()) return to_bool() ? 1.0 : 0.0;
  return std::get<double>(v_);
}

const ValueList& IValue::items() const {
  if (is_tuple()) return tuple_items();
  if (is_list()) return list_items();
  throw Error("expected a tuple or a list, got " + type_name());
}

std::vector<int64_t> IValue::to_int_list() const {
  std::vector<int64_t> out;
  for (const IValue& v : items()) {
    if (!v.is_int() && !v.is_bool()) throw Error("expected a list of ints, got " + repr());
    out.push_back(v.to_int());
  }
  return out;
}

std::string IValue::type_name() const {
  if (is_none()) return "NoneType";
  if (is_bool()) return "bool";
  if (is_int()) return "int";
  if (is_double()) return "float";
  if (is_string()) return "str";
  if (is_tensor()) return "Tensor";
  if (is_tuple()) return "tuple";
  if (is_list()) return "list";
  return to_object()->type_name();
}

namespace {

// Python's repr(float): the shortest digits that round-trip, written in fixed
// notation when the decimal exponent is in [-4, 16), else as 1.5e-05.
std::string float_repr(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  if (v == 0) return std::signbit(v) ? "-0.0" : "0.0";
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  std::string sci(buf, res.ptr);
  std::string sign;
  if (sci[0] == '-') {
    sign = "-";
    sci.erase(0, 1);
  }
  size_t e = sci.find('e');
  int exp10 = std::stoi(sci.substr(e + 1));
  std::string digits = sci.substr(0, e);
  digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
  const int decpt = exp10 + 1;  // value = 0.<digits> * 10^decpt
  const int n = static_cast<int>(digits.size());
  if (decpt > -4 && decpt <= 16) {
    if (decpt <= 0) return sign + "0." + std::string(-decpt, '0') + digits;
    if (decpt >= n) return sign + digits + std::string(decpt - n, '0') + ".0";
    return sign + digits.substr(0, decpt) + "." + digits.substr(decpt);
  }
  std::string mant = digits.substr(0, 1);
  if (n > 1) mant += "." + digits.substr(1);
  std::string ex = std::to_string(std::abs(exp10));
  if (ex.size() < 2) ex = "0" + ex;
  return sign + mant + "e" + (exp10 < 0 ? "-" : "+") + ex;
}

std::string string_repr(const std::string& s) {
  // Python prefers single quotes, switching to double ones to avoid escaping '.
  const bool dq = s.find('\'') != std::string::npos && s.find('"') == std::string::npos;
  const char q = dq ? '"' : '\'';
  std::string out(1, q);
  for (unsigned char c : s) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '\n')
      out += "\\n";
    else if (c == '\t')
      out += "\\t";
    else if (c == '\r')
      out += "\\r";
    else if (c == q)
      out += std::string("\\") + static_cast<char>(q);
    else if (c < 0x20 || c == 0x7f) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + q;
}

// ---- tensor printing (torch/_tensor_str.py, default PRINT_OPTS) ----

constexpr int kPrecision = 4;
constexpr int64_t kThreshold = 1000;
constexpr int64_t kEdgeItems = 3;
constexpr int kLineWidth = 80;

std::string printf_double(const char* fmt, int width, double v) {
  // Python's format() writes nan/inf without sign quirks; printf may print "-nan".
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[512];
  std::snprintf(buf, sizeof buf, fmt, width, kPrecision, v);
  return buf;
}

std::string sci_str(double v) {
  return printf_double("%*.*e", 0, v);
}
std::string fixed_str(double v) {
  return printf_double("%*.*f", 0, v);
}
std::string int_str(double v) {
  if (std::isnan(v) || std::isinf(v)) return printf_double("", 0, v);
  char buf[512];
  std::snprintf(buf, sizeof buf, "%.0f", v);
  return buf;
}

// _Formatter: decides int/fixed/scientific mode and the column width from the
// (summarized) values, then formats every element to that width.
class Formatter {
 public:
  Formatter(DType dtype, const std::vector<double>& values)
      : floating_(dtype == DType::Float32), is_bool_(dtype == DType::Bool) {
    if (!floating_) {
      for (double v : values) max_width_ = std::max(max_width_, plain(v).size());
      return;
    }
    std::vector<double> nz;
    for (double v : values) {
      if (std::isfinite(v) && v != 0) nz.push_back(v);
    }
    if (nz.empty()) return;
    double lo = std::abs(nz[0]), hi = lo;
    for (double v : nz) {
      lo = std::min(lo, std::abs(v));
      hi = std::max(hi, std::abs(v));
      if (v != std::ceil(v)) int_mode_ = false;
    }
    if (hi / lo > 1000. || hi > 1.e8 || (!int_mode_ && lo < 1.e-4)) {
      sci_mode_ = true;
      for (double v : nz) max_width_ = std::max(max_width_, sci_str(v).size());
    } else if (int_mode_) {
      for (double v : nz) max_width_ = std::max(max_width_, int_str(v).size() + 1);
    } else {
      for (double v : nz) max_width_ = std::max(max_width_, fixed_str(v).size());
    }
  }

  size_t width() const { return max_width_; }

  std::string format(double v) const {
    std::string s;
    if (!floating_) {
      s = plain(v);
    } else if (sci_mode_) {
      s = sci_str(v);
    } else if (int_mode_) {
      s = int_str(v);
      if (std::isfinite(v)) s += ".";
    } else {
      s = fixed_str(v);
    }
    return s.size() < max_width_ ? std::string(max_width_ - s.size(), ' ') + s : s;
  }

 private:
  std::string plain(double v) const {
    if (is_bool_) return v != 0 ? "True" : "False";
    return std::to_string(static_cast<int64_t>(v));
  }

  bool floating_;
  bool is_bool_;
  bool int_mode_ = true;
  bool sci_mode_ = false;
  size_t max_width_ = 1;
};

class TensorPrinter {
 public:
  explicit TensorPrinter(const Tensor& t)
      : t_(t), strides_(t.dim()), summarize_(t.numel() > kThreshold) {
    int64_t s = 1;
    for (int64_t d = t.dim(); d-- > 0;) {
      strides_[d] = s;
      s *= t.shape()[d];
    }
  }

  std::string str(int indent) {
    std::vector<double> values;
    collect(0, 0, &values);  // get_summarized_data
    Formatter f(t_.dtype(), values);
    return rec(0, 0, indent, f);
  }

 private:
  // The indices printed along a dimension of size n: all, or 3 at each end.
  static std::vector<int64_t> shown(int64_t n, bool summarize) {
    std::vector<int64_t> idx;
    if (summarize && n > 2 * kEdgeItems) {
      for (int64_t i = 0; i < kEdgeItems; ++i) idx.push_back(i);
      for (int64_t i = n - kEdgeItems; i < n; ++i) idx.push_back(i);
    } else {
      for (int64_t i = 0; i < n; ++i) idx.push_back(i);
    }
    return idx;
  }

  void collect(int64_t d, int64_t offset, std::vector<double>* out) const {
    if (d == t_.dim()) {
      out->push_back(t_.value_at(offset));
      return;
    }
    for (int64_t i : shown(t_.shape()[d], summarize_))
      collect(d + 1, offset + i * strides_[d], out);
  }

  std::string rec(int64_t d, int64_t offset, int indent, const Formatter& f) const {
    const int64_t ndim = t_.dim();
    if (ndim == 0) return f.format(t_.value_at(0));
    const int64_t n = t_.shape()[d];
    const bool cut = summarize_ && n > 2 * kEdgeItems;
    if (d == ndim - 1) {  // _vector_str
      std::vector<std::string> data;
      for (int64_t i : shown(n, summarize_)) {
        if (cut && i == n - kEdgeItems) data.push_back(" ...");
        data.push_back(f.format(t_.value_at(offset + i)));
      }
      const int64_t element_length = static_cast<int64_t>(f.width()) + 2;
      const int64_t per_line = std::max<int64_t>(1, (kLineWidth - indent) / element_length);
      std::string out = "[";
      for (size_t i = 0; i < data.size(); ++i) {
        if (i > 0) out += (i % per_line == 0) ? ",\n" + std::string(indent + 1, ' ') : ", ";
        out += data[i];
      }
      return out + "]";
    }
    const std::string sep = "," + std::string(ndim - d - 1, '\n') + std::string(indent + 1, ' ');
    std::string out = "[";
    bool first = true;
    for (int64_t i : shown(n, summarize_)) {
      if (!first) out += sep;
      if (cut && i == n - kEdgeItems) out += "..." + sep;
      out += rec(d + 1, offset + i * strides_[d], indent + 1, f);
      first = false;
    }
    return out + "]";
  }

  const Tensor& t_;
  std::vector<int64_t> strides_;
  bool summarize_;
};

std::string tensor_repr(const Tensor& t) {
  const std::string prefix = "tensor(";
  const int indent = static_cast<int>(prefix.size());
  std::vector<std::string> suffixes;
  std::string body;
  if (t.numel() == 0) {
    // An empty tensor shows its shape unless it is (0,), and its dtype unless
    // it is the default, since no element shows it.
    if (t.dim() != 1) {
      std::string size = "size=(";
      for (int64_t i = 0; i < t.dim(); ++i) size += (i ? ", " : "") + std::to_string(t.shape()[i]);
      suffixes.push_back(size + ")");
    }
    if (t.dtype() != DType::Float32)
      suffixes.push_back(std::string("dtype=") + dtype_torch_name(t.dtype()));
    body = "[]";
  } else {
    body = TensorPrinter(t).str(indent);
  }
  // PyTorch names the node that made a computed tensor, and marks only a leaf
  // `requires_grad=True`.
  if (std::string fn = grad_fn_name_for_repr(t); !fn.empty()) {
    suffixes.push_back("grad_fn=<" + fn + ">");
  } else if (t.requires_grad()) {
    suffixes.push_back("requires_grad=True");
  }
  // _add_suffixes: each suffix on the last line while it fits in 80 columns.
  std::string out = prefix + body;
  size_t nl = out.rfind('\n');
  size_t last_line_len = nl == std::string::npos ? out.size() + 2 : out.size() - nl + 1;
  for (const std::string& s : suffixes) {
    if (last_line_len + s.size() + 2 > static_cast<size_t>(kLineWidth)) {
      out += ",\n" + std::string(indent, ' ') + s;
      last_line_len = indent + s.size();
    } else {
      out += ", " + s;
      last_line_len += s.size() + 2;
    }
  }
  return out + ")";
}

// repr of tuples, lists and dicts; `open` holds the containers being printed, so that a
// list containing itself prints as [...] (as Python does) instead of recursing forever.
std::string repr_in(const IValue& v, std::vector<const void*>& open);

std::string sequence_str(const ValueList& items, bool is_tuple, std::vector<const void*>& open) {
  if (std::find(open.begin(), open.end(), &items) != open.end())
    return is_tuple ? "(...)" : "[...]";
  open.push_back(&items);
  std::string out = is_tuple ? "(" : "[";
  for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + repr_in(items[i], open);
  if (is_tuple && items.size() == 1) out += ",";
  open.pop_back();
  return out + (is_tuple ? ")" : "]");
}

// A graph's dict (core/tensor/ivalue_dict.h); one inside itself (through a list) is {...}.
std::string dict_str(const GraphDict& d, std::vector<const void*>& open) {
  if (std::find(open.begin(), open.end(), &d) != open.end()) return "{...}";
  open.push_back(&d);
  std::string out = d.str([&](const IValue& x) { return repr_in(x, open); });
  open.pop_back();
  return out;
}

std::string repr_in(const IValue& v, std::vector<const void*>& open) {
  if (v.is_tuple()) return sequence_str(v.tuple_items(), true, open);
  if (v.is_list()) return sequence_str(v.list_items(), false, open);
  if (const GraphDict* d = as_graph_dict(v)) return dict_str(*d, open);
  return v.repr();
}

}  // namespace

std::string IValue::str() const {
  if (is_string()) return to_string();
  return repr();
}

std::string IValue::repr() const {
  if (is_none()) return "None";
  if (is_bool()) return to_bool() ? "True" : "False";
  if (is_int()) return std::to_string(std::get<int64_t>(v_));
  if (is_double()) return float_repr(std::get<double>(v_));
  if (is_string()) return string_repr(to_string());
  if (is_tensor()) return to_tensor().defined() ? tensor_repr(to_tensor()) : "None";
  if (is_tuple() || is_list() || as_graph_dict(*this)) {
    std::vector<const void*> open;
    return repr_in(*this, open);
  }
  return "<" + to_object()->type_name() + " object>";
}

}  // namespace d2s
