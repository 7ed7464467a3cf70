// The standard-library pieces published model files use for their structure:
// collections.OrderedDict and namedtuple, functools.partial, itertools' finite basics
// (chain, product, repeat with a count, islice, accumulate, zip_longest), warnings.warn
// (Python's `file:line: UserWarning: message` on stderr, once per line, and the run
// goes on) and the numbers ABCs for isinstance. The modules themselves import as
// foreign modules (interp_stmt.cpp): these names resolve to values, any other name of
// them is the foreign-module error naming the module and the import's line.
#include "trace/py_stdlib.h"

#include <algorithm>
#include <cctype>
#include <iostream>
#include <mutex>
#include <set>

#include "trace/interp.h"
#include "trace/py_dict.h"
#include "trace/py_iterators.h"

namespace d2s::interp {

namespace {

IValue obj(std::shared_ptr<Object> o) {
  return IValue(std::move(o));
}

const char* const kStdlibCallables[] = {"collections.OrderedDict",
                                        "collections.namedtuple",
                                        "functools.partial",
                                        "itertools.chain",
                                        "itertools.product",
                                        "itertools.repeat",
                                        "itertools.islice",
                                        "itertools.count",
                                        "itertools.cycle",
                                        "itertools.accumulate",
                                        "itertools.zip_longest",
                                        "warnings.warn",
                                        "itertools.chain.from_iterable"};

bool is_identifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

}  // namespace

IValue PartialValue::call_method(Interpreter& in, const std::string& name, ValueList, Kwargs,
                                 const SourceRange& range) {
  in.fail("AttributeError: 'functools.partial' object has no attribute '" + name + "'", range);
}

IValue PartialValue::call(Interpreter& in, ValueList args, Kwargs kwargs,
                          const SourceRange& range) {
  ValueList all = stored_args;
  all.insert(all.end(), args.begin(), args.end());
  Kwargs kw = stored_kwargs;
  for (auto& given : kwargs) {
    const std::string& key = given.first;
    auto it = std::find_if(kw.begin(), kw.end(), [&](const auto& p) { return p.first == key; });
    if (it != kw.end()) {
      it->second = given.second;
    } else {
      kw.emplace_back(key, given.second);
    }
  }
  return in.call_value(func, std::move(all), std::move(kw), range);
}

std::optional<IValue> PartialValue::attribute(const std::string& name) const {
  if (name == "func") return func;
  if (name == "args") return IValue::tuple(stored_args);
  return std::nullopt;
}

IValue NamedTupleClass::call_method(Interpreter& in, const std::string& attr, ValueList, Kwargs,
                                    const SourceRange& range) {
  in.fail("AttributeError: type object '" + name + "' has no attribute '" + attr + "'", range);
}

IValue NamedTupleClass::call(Interpreter&, ValueList args, Kwargs kwargs,
                             const SourceRange& range) {
  std::vector<ParamSpec> spec;
  for (const std::string& f : *fields) spec.push_back({f.c_str(), std::nullopt});
  ValueList items = bind_args(name + ".__new__", spec, std::move(args), std::move(kwargs), range);
  return obj(std::make_shared<NamedTupleValue>(name, fields, std::move(items)));
}

std::optional<IValue> NamedTupleClass::attribute(const std::string& attr) const {
  if (attr == "_fields") {
    ValueList names;
    for (const std::string& f : *fields) names.push_back(IValue(f));
    return IValue::tuple(std::move(names));
  }
  if (attr == "__name__") return IValue(name);
  return std::nullopt;
}

std::optional<IValue> Interpreter::stdlib_value(const std::string& qualname) {
  for (const char* n : kStdlibCallables) {
    if (qualname == n) return obj(std::make_shared<BuiltinValue>(qualname));
  }
  // numbers.Number & co. are types for isinstance (builtins.cpp); warnings' categories
  // are exception types.
  if (qualname == "numbers.Number" || qualname == "numbers.Integral" ||
      qualname == "numbers.Real" || qualname == "numbers.Complex" ||
      qualname == "numbers.Rational") {
    return obj(std::make_shared<BuiltinValue>(qualname));
  }
  if (qualname.rfind("numpy.", 0) == 0) return numpy_value(qualname);
  return std::nullopt;
}

IValue Interpreter::call_stdlib_name(const std::string& q, ValueList args, Kwargs kwargs,
                                     const SourceRange& range) {
  if (q.rfind("numpy.", 0) == 0)
    return call_numpy_name(q, std::move(args), std::move(kwargs), range);
  if (std::optional<IValue> it = call_iterator_name(*this, q, args, kwargs, range)) return *it;
  if (q == "collections.OrderedDict") {
    if (args.size() > 1) {
      fail("TypeError: expected at most 1 arguments, got " + std::to_string(args.size()), range);
    }
    auto d = std::make_shared<DictValue>();
    d->ordered = true;
    d->call_method(*this, "update", std::move(args), std::move(kwargs), range);
    return obj(d);
  }
  if (q == "functools.partial") {
    if (args.empty()) fail("TypeError: partial expected at least 1 argument, got 0", range);
    auto p = std::make_shared<PartialValue>();
    p->func = args[0];
    if (!as_obj<FunctionValue>(p->func) && !as_obj<BuiltinValue>(p->func) &&
        !as_obj<ClassValue>(p->func) && !as_obj<BoundMethodValue>(p->func) &&
        !as_obj<BuiltinMethodValue>(p->func) && !as_obj<NativeValue>(p->func) &&
        !(as_obj<InstanceValue>(p->func) && as_obj<InstanceValue>(p->func)->is_module)) {
      fail("TypeError: the first argument must be callable", range);
    }
    p->stored_args.assign(args.begin() + 1, args.end());
    p->stored_kwargs = std::move(kwargs);
    return obj(p);
  }
  if (q == "collections.namedtuple") {
    ValueList a = bind_args(q, {{"typename", std::nullopt}, {"field_names", std::nullopt}},
                            std::move(args), std::move(kwargs), range);
    if (!a[0].is_string()) fail("TypeError: namedtuple() typename must be a str", range);
    std::vector<std::string> fields;
    if (a[1].is_string()) {
      // "x y" or "x, y", as namedtuple splits them.
      std::string s = a[1].to_string();
      for (char& c : s) c = c == ',' ? ' ' : c;
      size_t i = 0;
      while (i < s.size()) {
        while (i < s.size() && s[i] == ' ') ++i;
        size_t j = i;
        while (j < s.size() && s[j] != ' ') ++j;
        if (j > i) fields.push_back(s.substr(i, j - i));
        i = j;
      }
    } else {
      for (const IValue& f : iterate(a[1], range)) {
        if (!f.is_string()) fail("TypeError: Type names and field names must be strings", range);
        fields.push_back(f.to_string());
      }
    }
    std::set<std::string> seen;
    for (const std::string& f : fields) {
      if (!is_identifier(f)) {
        fail("ValueError: Type names and field names must be valid identifiers: " +
                 py_repr(IValue(f)),
             range);
      }
      if (f[0] == '_') {
        fail("ValueError: Field names cannot start with an underscore: " + py_repr(IValue(f)),
             range);
      }
      if (!seen.insert(f).second) {
        fail("ValueError: Encountered duplicate field name: " + py_repr(IValue(f)), range);
      }
    }
    auto c = std::make_shared<NamedTupleClass>();
    c->name = a[0].to_string();
    c->fields = std::make_shared<const std::vector<std::string>>(std::move(fields));
    return obj(c);
  }
  if (q == "warnings.warn") {
    ValueList a = bind_args(q,
                            {{"message", std::nullopt},
                             {"category", IValue()},
                             {"stacklevel", IValue(int64_t{1})},
                             {"source", IValue()}},
                            std::move(args), std::move(kwargs), range);
    std::string category = "UserWarning";
    if (auto* b = as_obj<BuiltinValue>(a[1])) category = b->qualname;
    // Python's default filter shows a warning once per place it is raised from (once per
    // process: the parse route runs __init__ again, in a run of its own).
    static std::mutex shown_mutex;
    static std::set<std::pair<std::string, int>> shown;
    bool first;
    {
      std::lock_guard<std::mutex> lock(shown_mutex);
      first = shown.insert({range.file ? range.file->path() : "", range.line}).second;
    }
    if (first) {
      std::string where = range.file ? range.file->path() : std::string("<string>");
      std::cerr << where << ":" << range.line << ": " << category << ": " << py_str(a[0]) << "\n";
      if (range.file) {
        std::string line(range.file->line_text(range.line));
        const size_t b = line.find_first_not_of(" \t");
        std::cerr << "  " << (b == std::string::npos ? "" : line.substr(b)) << "\n";
      }
    }
    return IValue();
  }
  // itertools: finite iterables, evaluated whole (as d2s evaluates generators).
  const std::string f = q.substr(q.find('.') + 1);
  if (f == "chain" || f == "chain.from_iterable") {
    if (!kwargs.empty()) fail("TypeError: " + f + "() takes no keyword arguments", range);
    ValueList its = f == "chain" ? std::move(args) : [&] {
      if (args.size() != 1) fail("TypeError: from_iterable() takes exactly one argument", range);
      return iterate(args[0], range);
    }();
    ValueList out;
    for (const IValue& it : its) {
      for (IValue& v : iterate(it, range)) out.push_back(std::move(v));
    }
    return IValue::list(std::move(out));
  }
  if (f == "product") {
    int64_t repeat = 1;
    for (const auto& [k, v] : kwargs) {
      if (k != "repeat")
        fail("TypeError: '" + k + "' is an invalid keyword argument for product()", range);
      repeat = to_index(v, PyConversion::Scalar, range, "repeat must be an int");
    }
    if (repeat < 0) fail("ValueError: repeat argument cannot be negative", range);
    std::vector<ValueList> pools;
    for (int64_t r = 0; r < repeat; ++r) {
      for (const IValue& it : args) pools.push_back(iterate(it, range));
    }
    std::vector<ValueList> rows = {{}};
    for (const ValueList& pool : pools) {
      std::vector<ValueList> next;
      for (const ValueList& row : rows) {
        for (const IValue& v : pool) {
          if (next.size() >= static_cast<size_t>(kMaxSequenceItems)) {
            fail("itertools.product() makes too many items", range);
          }
          ValueList r = row;
          r.push_back(v);
          next.push_back(std::move(r));
        }
      }
      rows = std::move(next);
    }
    ValueList out;
    for (ValueList& r : rows) out.push_back(IValue::tuple(std::move(r)));
    return IValue::list(std::move(out));
  }
  if (f == "repeat") {
    ValueList a = bind_args(q, {{"object", std::nullopt}, {"times", IValue()}}, std::move(args),
                            std::move(kwargs), range);
    if (a[1].is_none()) {
      return obj(std::make_shared<IteratorValue>("itertools.repeat", IteratorValue::Kind::Repeat,
                                                 ValueList{a[0]}));
    }
    int64_t n = to_index(a[1], PyConversion::Scalar, range, "times must be an int");
    if (n > kMaxSequenceItems) fail("itertools.repeat() makes too many items", range);
    return IValue::list(ValueList(static_cast<size_t>(std::max<int64_t>(n, 0)), a[0]));
  }
  if (f == "islice") {
    if (!kwargs.empty()) fail("TypeError: islice() takes no keyword arguments", range);
    if (args.size() < 2 || args.size() > 4) {
      fail("TypeError: islice expected 2 to 4 arguments, got " + std::to_string(args.size()),
           range);
    }
    ValueList items;
    if (IteratorValue* it = as_iterator(args[0]); it && it->endless()) {
      // Take what the slice reaches (its stop must be given), as islice consumes it.
      const IValue& stop_arg = args.size() == 2 ? args[1] : args[2];
      if (stop_arg.is_none()) it->drain(*this, range);  // the endless error
      const int64_t stop = to_index(stop_arg, PyConversion::Scalar, range,
                                    "Indices for islice() must be None or an integer");
      if (stop > kMaxSequenceItems) fail("itertools.islice() makes too many items", range);
      for (int64_t i = 0; i < stop; ++i) items.push_back(*it->next(*this, range));
    } else {
      items = iterate(args[0], range);
    }
    auto bound = [&](const IValue& v, int64_t dflt) {
      if (v.is_none()) return dflt;
      int64_t b = to_index(v, PyConversion::Scalar, range,
                           "Indices for islice() must be None or an integer");
      if (b < 0) {
        fail(
            "ValueError: Indices for islice() must be None or an integer: 0 <= x <= "
            "sys.maxsize.",
            range);
      }
      return b;
    };
    const int64_t n = static_cast<int64_t>(items.size());
    int64_t start = 0, stop = n, step = 1;
    if (args.size() == 2) {
      stop = bound(args[1], n);
    } else {
      start = bound(args[1], 0);
      stop = bound(args[2], n);
      if (args.size() == 4) step = bound(args[3], 1);
      if (step == 0)
        fail("ValueError: Step for islice() must be a positive integer or None.", range);
    }
    ValueList out;
    for (int64_t i = start; i < std::min(stop, n); i += step) out.push_back(items[i]);
    return IValue::list(std::move(out));
  }
  if (f == "accumulate") {
    ValueList a =
        bind_args(q, {{"iterable", std::nullopt}, {"func", IValue()}, {"initial", IValue()}},
                  std::move(args), std::move(kwargs), range);
    ValueList items = iterate(a[0], range);
    ValueList out;
    if (!a[2].is_none()) out.push_back(a[2]);
    for (IValue& v : items) {
      if (out.empty()) {
        out.push_back(std::move(v));
      } else if (a[1].is_none()) {
        out.push_back(binary(ast::BinOpKind::Add, out.back(), v, range));
      } else {
        out.push_back(call_value(a[1], {out.back(), v}, {}, range));
      }
    }
    return IValue::list(std::move(out));
  }
  if (f == "zip_longest") {
    IValue fill;
    for (const auto& [k, v] : kwargs) {
      if (k != "fillvalue") {
        fail("TypeError: zip_longest() got an unexpected keyword argument '" + k + "'", range);
      }
      fill = v;
    }
    std::vector<ValueList> lists;
    size_t n = 0;
    for (const IValue& it : args) {
      lists.push_back(iterate(it, range));
      n = std::max(n, lists.back().size());
    }
    ValueList out;
    for (size_t i = 0; i < n; ++i) {
      ValueList row;
      for (const ValueList& l : lists) row.push_back(i < l.size() ? l[i] : fill);
      out.push_back(IValue::tuple(std::move(row)));
    }
    return IValue::list(std::move(out));
  }
  fail("internal error: no standard-library function " + q, range);
}

}  // namespace d2s::interp
