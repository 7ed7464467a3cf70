// Python's builtins (print, len, range, int, float, bool, str, abs, min, max,
// isinstance, list, tuple, enumerate, zip, sum, round, super) and iteration.
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ostream>

#include "core/base/py_round.h"
#include "trace/interp.h"
#include "trace/py_dict.h"
#include "trace/py_iterators.h"

namespace d2s::interp {

namespace {

IValue obj(std::shared_ptr<Object> o) {
  return IValue(std::move(o));
}

const char* const kBuiltinNames[] = {
    "print",  "len",        "range",   "int",     "float",     "bool", "str",  "abs",   "min",
    "max",    "isinstance", "list",    "tuple",   "enumerate", "zip",  "sum",  "round", "super",
    "object", "type",       "hasattr", "getattr", "setattr",   "iter", "next", "vars"};

void no_keywords(const std::string& fname, const Kwargs& kwargs, const SourceRange& range) {
  if (!kwargs.empty()) throw Error("TypeError: " + fname + "() takes no keyword arguments", range);
}

void arg_count(const std::string& fname, const ValueList& args, size_t lo, size_t hi,
               const SourceRange& range) {
  if (args.size() < lo || args.size() > hi) {
    std::string want = lo == hi ? "exactly " + std::to_string(lo) : "at most " + std::to_string(hi);
    if (args.size() < lo) want = "at least " + std::to_string(lo);
    throw Error("TypeError: " + fname + "() takes " + want + " argument" + (hi == 1 ? "" : "s") +
                    " (" + std::to_string(args.size()) + " given)",
                range);
  }
}

std::string strip(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\n\r\f\v");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\n\r\f\v");
  return s.substr(b, e - b + 1);
}

}  // namespace

void Interpreter::install_builtins() {
  for (const char* name : kBuiltinNames) {
    builtins_[name] = obj(std::make_shared<BuiltinValue>(name));
  }
  install_more_builtins(builtins_);
}

ValueList Interpreter::iterate(const IValue& v, const SourceRange& range) {
  if (const ValueList* items = seq_items(v)) return *items;
  if (DictValue* d = as_dict(v)) return d->keys();
  if (IteratorValue* it = as_iterator(v)) return it->drain(*this, range);
  if (v.is_string()) {
    // By code point: a UTF-8 lead byte starts each character.
    ValueList out;
    for (char c : v.to_string()) {
      if ((static_cast<unsigned char>(c) & 0xC0) == 0x80 && !out.empty()) {
        out.back() = IValue(out.back().to_string() + c);
      } else {
        out.push_back(IValue(std::string(1, c)));
      }
    }
    return out;
  }
  if (auto* r = as_obj<RangeValue>(v)) {
    if (r->length() > kMaxSequenceItems) {
      fail("range of " + std::to_string(r->length()) + " items is too long to make into a sequence",
           range);
    }
    ValueList out;
    for (int64_t i = 0; i < r->length(); ++i) out.push_back(IValue(r->at(i)));
    return out;
  }
  if (v.is_tensor()) {
    const Tensor& t = v.to_tensor();
    if (t.dim() == 0) fail("TypeError: iteration over a 0-d tensor", range);
    if (t.size(0) > kMaxSequenceItems) {
      fail("a tensor of " + std::to_string(t.size(0)) + " rows is too long to make into a sequence",
           range);
    }
    // The row count is a Python decision on a size (guarded in a trace); the rows are
    // x.unbind(0), as Tensor.__iter__ makes them: a trace records aten::unbind and a
    // prim::ListUnpack of that many rows, as torch.jit.trace does.
    converted(PyConversion::Len, v, IValue(t.size(0)), range);
    IValue rows = call_op("aten::unbind", {v, IValue(int64_t{0})}, {}, range);
    return rows.items();
  }
  if (is_module_dict(v)) return module_dict_keys(v);  // a ModuleDict iterates its keys
  if (auto* inst = as_obj<InstanceValue>(v);
      inst && (inst->nn == NnKind::Sequential || inst->nn == NnKind::ModuleList)) {
    ValueList out;
    for (const std::string& c : inst->children) out.push_back(*inst->get(c));
    return out;
  }
  fail("TypeError: '" + py_type_name(v) + "' object is not iterable", range);
}

IValue Interpreter::call_builtin(const BuiltinValue& fn, ValueList args, Kwargs kwargs,
                                 const SourceRange& range, const ast::Call* site) {
  const std::string& q = fn.qualname;
  if (q.find('.') != std::string::npos)
    return call_torch(fn, std::move(args), std::move(kwargs), range, site);
  if (std::optional<IValue> r = call_more_builtins(q, args, kwargs, range)) return *r;
  if (std::optional<IValue> r = call_iterator_name(*this, q, args, kwargs, range)) return *r;
  if (q == "vars") {
    ValueList a =
        bind_args(q, {{"object", std::nullopt}}, std::move(args), std::move(kwargs), range);
    return instance_dict(*this, a[0], range);
  }
  // The range of positional argument i, for messages and conversions.
  auto arg_range = [&](size_t i) -> SourceRange {
    return site && i < site->args.size() ? site->args[i]->range : range;
  };

  if (q == "print") {
    std::string sep = " ", end = "\n";
    for (const auto& [key, value] : kwargs) {
      if (key == "sep" || key == "end") {
        if (value.is_string())
          (key == "sep" ? sep : end) = value.to_string();
        else if (!value.is_none())
          fail("TypeError: " + key + " must be None or a string, not " + py_type_name(value),
               range);
      } else if (key == "file") {
        fail("print(file=...) is not supported by d2s", range, "print writes to standard output");
      } else if (key != "flush") {
        fail("TypeError: '" + key + "' is an invalid keyword argument for print()", range);
      }
    }
    std::string text;
    for (size_t i = 0; i < args.size(); ++i) text += (i ? sep : "") + py_str(args[i]);
    text += end;
    *out_ << text;
    if (hooks_) hooks_->on_print(args, text, range);
    return IValue();
  }
  if (q == "len") {
    no_keywords(q, kwargs, range);
    arg_count(q, args, 1, 1, range);
    const IValue& v = args[0];
    if (const ValueList* items = seq_items(v)) return IValue(static_cast<int64_t>(items->size()));
    if (DictValue* d = as_dict(v)) return IValue(static_cast<int64_t>(d->items.size()));
    if (v.is_string()) return IValue(static_cast<int64_t>(iterate(v, range).size()));
    if (auto* r = as_obj<RangeValue>(v)) return IValue(r->length());
    if (v.is_tensor()) {
      if (v.to_tensor().dim() == 0) fail("TypeError: len() of a 0-d tensor", range);
      return converted(PyConversion::Len, v, IValue(v.to_tensor().size(0)), range);
    }
    if (auto* inst = as_obj<InstanceValue>(v);
        inst && (inst->nn == NnKind::Sequential || inst->nn == NnKind::ModuleList ||
                 inst->nn == NnKind::ModuleDict)) {
      return IValue(static_cast<int64_t>(inst->children.size()));
    }
    fail("TypeError: object of type '" + py_type_name(v) + "' has no len()", range);
  }
  if (q == "range") {
    no_keywords(q, kwargs, range);
    if (args.empty()) fail("TypeError: range expected at least 1 argument, got 0", range);
    if (args.size() > 3)
      fail("TypeError: range expected at most 3 arguments, got " + std::to_string(args.size()),
           range);
    int64_t v[3];
    for (size_t i = 0; i < args.size(); ++i)
      v[i] = to_index(args[i], PyConversion::RangeArg, arg_range(i), "");
    int64_t start = args.size() == 1 ? 0 : v[0];
    int64_t stop = args.size() == 1 ? v[0] : v[1];
    int64_t step = args.size() == 3 ? v[2] : 1;
    if (step == 0) fail("ValueError: range() arg 3 must not be zero", arg_range(2));
    return obj(std::make_shared<RangeValue>(start, stop, step));
  }
  if (q == "int" || q == "float") {
    no_keywords(q, kwargs, range);
    arg_count(q, args, 0, 1, range);
    const bool to_int = q == "int";
    if (args.empty()) return to_int ? IValue(int64_t{0}) : IValue(0.0);
    IValue v = concrete(args[0], to_int ? PyConversion::Int : PyConversion::Float, range);
    if (v.is_tensor()) {
      const Tensor& t = v.to_tensor();
      if (t.numel() != 1)
        fail("ValueError: only one element tensors can be converted to Python scalars", range);
      IValue py =
          to_int ? IValue(static_cast<int64_t>(std::trunc(t.value_at(0)))) : IValue(t.value_at(0));
      return converted(to_int ? PyConversion::Int : PyConversion::Float, v, py, range);
    }
    if (v.is_string()) {
      std::string s = strip(v.to_string());
      char* end = nullptr;
      errno = 0;
      if (to_int) {
        long long x = std::strtoll(s.c_str(), &end, 10);
        if (s.empty() || *end || errno)
          fail("ValueError: invalid literal for int() with base 10: " + v.repr(), range);
        return IValue(static_cast<int64_t>(x));
      }
      double x = std::strtod(s.c_str(), &end);
      if (s.empty() || *end)
        fail("ValueError: could not convert string to float: " + v.repr(), range);
      return IValue(x);
    }
    if (!v.is_number()) {
      fail("TypeError: " + q + "() argument must be a string or a real number, not '" +
               py_type_name(v) + "'",
           range);
    }
    if (!to_int) return IValue(v.to_double());
    if (!v.is_double()) return IValue(v.to_int());
    double d = v.to_double();
    if (std::isnan(d)) fail("ValueError: cannot convert float NaN to integer", range);
    if (std::isinf(d)) fail("OverflowError: cannot convert float infinity to integer", range);
    if (std::fabs(d) >= 9.2233720368547758e18)
      fail("OverflowError: int too large for d2s (ints are 64-bit)", range);
    return IValue(static_cast<int64_t>(std::trunc(d)));
  }
  if (q == "bool") {
    no_keywords(q, kwargs, range);
    arg_count(q, args, 0, 1, range);
    return IValue(args.empty() ? false : truthy(args[0], arg_range(0)));
  }
  if (q == "str") {
    no_keywords(q, kwargs, range);
    arg_count(q, args, 0, 1, range);
    return IValue(args.empty() ? std::string() : py_str(args[0]));
  }
  if (q == "abs") {
    no_keywords(q, kwargs, range);
    arg_count(q, args, 1, 1, range);
    if (args[0].is_tensor()) return call_op("aten::abs", {args[0]}, {}, range);
    std::optional<IValue> n = to_number(args[0], PyConversion::Scalar, arg_range(0));
    if (!n) fail("TypeError: bad operand type for abs(): '" + py_type_name(args[0]) + "'", range);
    if (n->is_double()) return IValue(std::fabs(n->to_double()));
    if (n->to_int() == INT64_MIN)
      fail("OverflowError: abs() result does not fit in 64 bits", range);
    return IValue(n->to_int() < 0 ? -n->to_int() : n->to_int());
  }
  if (q == "min" || q == "max") {
    std::optional<IValue> dflt;
    for (const auto& [key, value] : kwargs) {
      if (key == "default")
        dflt = value;
      else
        fail("TypeError: " + q + "() keyword '" + key + "' is not supported by d2s", range);
    }
    if (args.empty()) fail("TypeError: " + q + " expected at least 1 argument, got 0", range);
    ValueList items = args.size() == 1 ? iterate(args[0], arg_range(0)) : args;
    if (items.empty()) {
      if (dflt) return *dflt;
      fail("ValueError: " + q + "() arg is an empty sequence", range);
    }
    // Python keeps the first extreme item: replace only on a strict comparison.
    IValue best = items[0];
    for (size_t i = 1; i < items.size(); ++i) {
      IValue better =
          compare(q == "max" ? ast::CmpOpKind::Gt : ast::CmpOpKind::Lt, items[i], best, range);
      if (truthy(better, range)) best = items[i];
    }
    return best;
  }
  if (q == "type") {
    // type(m).__name__ as model code uses it: the class of a value.
    no_keywords(q, kwargs, range);
    arg_count(q, args, 1, 1, range);
    const IValue& v = args[0];
    if (auto* inst = as_obj<InstanceValue>(v)) {
      if (inst->cls) return IValue(std::static_pointer_cast<Object>(inst->cls));
      return obj(std::make_shared<BuiltinValue>("torch.nn." + inst->type));
    }
    if (v.is_tensor()) return obj(std::make_shared<BuiltinValue>("torch.Tensor"));
    return obj(std::make_shared<BuiltinValue>(py_type_name(v)));
  }
  if (q == "hasattr" || q == "getattr") {
    no_keywords(q, kwargs, range);
    arg_count(q, args, 2, q == "getattr" ? 3 : 2, range);
    if (!args[1].is_string()) {
      fail("TypeError: " + q + "(): attribute name must be string", arg_range(1));
    }
    try {
      IValue v = getattr(args[0], args[1].to_string(), range);
      return q == "hasattr" ? IValue(true) : v;
    } catch (const Error& e) {
      // Only a missing attribute is caught, as Python's hasattr/getattr(o, n, default).
      if (e.message().rfind("AttributeError", 0) != 0) throw;
      if (q == "hasattr") return IValue(false);
      if (args.size() == 3) return args[2];
      throw;
    }
  }
  if (q == "setattr") {
    no_keywords(q, kwargs, range);
    arg_count(q, args, 3, 3, range);
    if (!args[1].is_string()) {
      fail("TypeError: setattr(): attribute name must be string", arg_range(1));
    }
    setattr(args[0], args[1].to_string(), args[2], range);
    return IValue();
  }
  if (q == "isinstance") {
    no_keywords(q, kwargs, range);
    arg_count(q, args, 2, 2, range);
    IValue v = concrete(args[0], PyConversion::Scalar, arg_range(0));
    ValueList types = seq_items(args[1]) ? *seq_items(args[1]) : ValueList{args[1]};
    for (const IValue& t : types) {
      if (auto* c = as_obj<ClassValue>(t)) {
        auto* inst = as_obj<InstanceValue>(v);
        for (const ClassValue* k = inst ? inst->cls.get() : nullptr; k; k = k->base.get()) {
          if (k == c) return IValue(true);
        }
        continue;
      }
      auto* b = as_obj<BuiltinValue>(t);
      if (!b) fail("TypeError: isinstance() arg 2 must be a type or tuple of types", arg_range(1));
      const std::string& n = b->qualname;
      auto* inst = as_obj<InstanceValue>(v);
      bool match =
          (n == "int" && (v.is_int() || v.is_bool())) || (n == "float" && v.is_double()) ||
          (n == "bool" && v.is_bool()) || (n == "str" && v.is_string()) ||
          (n == "list" && v.is_list()) ||
          (n == "tuple" && (v.is_tuple() || as_obj<SizeValue>(v) || as_obj<NamedTupleValue>(v))) ||
          (n == "torch.Tensor" && v.is_tensor()) || n == "object" ||
          ((n == "numbers.Number" || n == "numbers.Complex" || n == "numbers.Real") &&
           (v.is_int() || v.is_bool() || v.is_double())) ||
          ((n == "numbers.Integral" || n == "numbers.Rational") && (v.is_int() || v.is_bool())) ||
          (n == "dict" && as_dict(v) && !as_dict(v)->is_set) ||
          (n == "collections.OrderedDict" && as_dict(v) && as_dict(v)->ordered) ||
          (n == "torch.nn.Module" && inst && inst->is_module) ||
          (inst && inst->nn != NnKind::None && n == "torch.nn." + inst->type) ||
          // MultiheadAttention's out_proj (NonDynamicallyQuantizableLinear) is an nn.Linear.
          (inst && inst->nn == NnKind::Linear && n == "torch.nn.Linear") ||
          (inst && inst->cls && inst->cls->nn_base == NnKind::Sequential &&
           n == "torch.nn.Sequential") ||
          (inst && inst->cls && inst->cls->nn_base == NnKind::ModuleList &&
           n == "torch.nn.ModuleList") ||
          (inst && inst->cls && inst->cls->nn_base == NnKind::ModuleDict &&
           n == "torch.nn.ModuleDict");
      if (match) return IValue(true);
    }
    return IValue(false);
  }
  if (q == "list" || q == "tuple") {
    no_keywords(q, kwargs, range);
    arg_count(q, args, 0, 1, range);
    ValueList items = args.empty() ? ValueList{} : iterate(args[0], arg_range(0));
    return q == "list" ? IValue::list(std::move(items)) : IValue::tuple(std::move(items));
  }
  if (q == "enumerate") {
    ValueList a = bind_args(q, {{"iterable", std::nullopt}, {"start", IValue(int64_t{0})}},
                            std::move(args), std::move(kwargs), range);
    int64_t start = to_index(a[1], PyConversion::Scalar, range, "");
    ValueList out;
    for (IValue& item : iterate(a[0], arg_range(0)))
      out.push_back(IValue::tuple({IValue(start++), item}));
    return IValue::list(std::move(out));
  }
  if (q == "zip") {
    no_keywords(q, kwargs, range);
    std::vector<ValueList> lists(args.size());
    size_t n = args.empty() ? 0 : SIZE_MAX;
    // An endless iterator (itertools.count, cycle) gives as many items as the shortest
    // finite argument has; those are taken from it after the finite ones are known.
    std::vector<IteratorValue*> endless(args.size(), nullptr);
    for (size_t i = 0; i < args.size(); ++i) {
      if (IteratorValue* it = as_iterator(args[i]); it && it->endless()) {
        endless[i] = it;
        continue;
      }
      lists[i] = iterate(args[i], arg_range(i));
      n = std::min(n, lists[i].size());
    }
    if (n == SIZE_MAX) {
      endless[0]->drain(*this, arg_range(0));  // every argument endless: the endless error
    }
    for (size_t i = 0; i < args.size(); ++i) {
      for (size_t k = 0; endless[i] && k < n; ++k) {
        lists[i].push_back(*endless[i]->next(*this, arg_range(i)));
      }
    }
    ValueList out;
    for (size_t k = 0; k < n; ++k) {
      ValueList row;
      for (const ValueList& l : lists) row.push_back(l[k]);
      out.push_back(IValue::tuple(std::move(row)));
    }
    return IValue::list(std::move(out));
  }
  if (q == "sum") {
    ValueList a = bind_args(q, {{"iterable", std::nullopt}, {"start", IValue(int64_t{0})}},
                            std::move(args), std::move(kwargs), range);
    IValue acc = a[1];
    for (const IValue& item : iterate(a[0], arg_range(0)))
      acc = binary(ast::BinOpKind::Add, acc, item, range);
    return acc;
  }
  if (q == "round") {
    ValueList a = bind_args(q, {{"number", std::nullopt}, {"ndigits", IValue()}}, std::move(args),
                            std::move(kwargs), range);
    if (a[0].is_tensor()) {
      if (a[1].is_none()) return call_op("aten::round", {a[0]}, {}, range);
      return call_op("aten::round", {a[0]}, {{"decimals", a[1]}}, range);
    }
    std::optional<IValue> n = to_number(a[0], PyConversion::Scalar, arg_range(0));
    if (!n)
      fail("TypeError: type " + py_type_name(a[0]) + " doesn't define __round__ method", range);
    if (!n->is_double()) {
      if (a[1].is_none()) return IValue(n->to_int());
      return IValue(python_round(n->to_int(), to_index(a[1], PyConversion::Scalar, range, "")));
    }
    // Python rounds half to even (the default floating-point rounding mode).
    if (a[1].is_none()) {
      double r = std::nearbyint(n->to_double());
      if (!std::isfinite(r)) fail("OverflowError: cannot convert float infinity to integer", range);
      return IValue(static_cast<int64_t>(r));
    }
    const int64_t digits = to_index(a[1], PyConversion::Scalar, range, "");
    return IValue(python_round(n->to_double(), digits));
  }
  if (q == "super") {
    const Frame& f = *frames_.back();
    if (!kwargs.empty()) fail("TypeError: super() takes no keyword arguments", range);
    if (!args.empty()) return super_of(args, range);
    auto owner = f.function ? f.function->owner.lock() : nullptr;
    if (!owner || f.locals->empty() || !(*f.locals)[0])
      fail("RuntimeError: super(): no arguments", range);
    return obj(std::make_shared<SuperValue>(owner, *(*f.locals)[0]));
  }
  if (q == "object") {
    fail("object() is not supported by d2s", range);
  }
  fail("internal error: unknown builtin " + q, range);
}

}  // namespace d2s::interp
