// The standard-library pieces model files use, in the parse route: the names the
// interpreter knows (trace/py_stdlib.cpp, py_numpy.cpp) are known here too. What is
// decided at conversion time lowers: numpy's constants and its functions of constant
// numbers (folded), `isinstance(x, numbers.Number)`, functools.partial (made in forward
// or kept in a module attribute: its callee is inlined with the stored arguments), and
// namedtuples kept in module attributes (their fields read by name, as items of a
// tuple). The rest (OrderedDict, namedtuple classes, itertools, warnings.warn in the
// converted code) is refused with a message naming the construct; eager and trace
// modes run it.
#include <cmath>

#include "convert/lowerer.h"
#include "trace/interp.h"
#include "trace/py_stdlib.h"

namespace d2s::convert {

namespace {

// A Python number folded by numpy's function `q` (np.sqrt(2.0), np.float32(x), ...).
std::optional<IValue> fold_numpy(const std::string& q, const IValue& x) {
  if (!(x.is_int() || x.is_double() || x.is_bool())) return std::nullopt;
  const double d = x.to_double();
  if (q == "numpy.sqrt") return IValue(std::sqrt(d));
  if (q == "numpy.log") return IValue(std::log(d));
  if (q == "numpy.exp") return IValue(std::exp(d));
  if (q == "numpy.abs") return IValue(std::fabs(d));
  if (q == "numpy.floor") return IValue(std::floor(d));
  if (q == "numpy.ceil") return IValue(std::ceil(d));
  if (q == "numpy.float32") return IValue(static_cast<double>(static_cast<float>(d)));
  if (q == "numpy.float64") return IValue(d);
  if (q == "numpy.int64" && std::isfinite(d)) {
    return IValue(x.is_double() ? static_cast<int64_t>(d) : x.to_int());
  }
  return std::nullopt;
}

}  // namespace

Sugared Lowerer::stdlib_attribute(const std::string& module, const std::string& attr,
                                  const SourceRange& range) {
  const std::string q = module + "." + attr;
  std::optional<IValue> v = interp::Interpreter::stdlib_value(q);
  if (!v) {
    int line = 0;
    for (const auto& [bound, where] : globals_.partial_modules) {
      if (where.first == module) line = where.second.line;
    }
    fail("'" + q + "' comes from the module '" + module +
             "', which d2s does not implement (imported at line " + std::to_string(line) + ")",
         range,
         "d2s accepts the import and implements a few of its names; converted code may not use "
         "others; write it with torch and math");
  }
  if (auto* b = interp::as_obj<interp::BuiltinValue>(*v)) {
    return Sugared::of_kind(Sugared::Kind::Builtin, b->qualname);
  }
  return Sugared::of(constant(*v, range));
}

Sugared Lowerer::make_namedtuple(const Sugared& cls, CallArgs& args, const SourceRange& range) {
  // Python names the class's __new__ in its argument errors (`Pair.__new__() missing ...`).
  const std::string name = cls.name.substr(23) + ".__new__";
  const std::vector<std::string>& fields = *cls.fields;
  if (args.positional.size() > fields.size()) {
    fail("TypeError: " + name + "() takes " + std::to_string(fields.size() + 1) +
             " positional arguments but " + std::to_string(args.positional.size() + 1) +
             " were given",
         range);
  }
  std::vector<std::optional<Sugared>> items(fields.size());
  for (size_t i = 0; i < args.positional.size(); ++i) items[i] = args.positional[i].value;
  for (const auto& [key, arg] : args.keywords) {
    auto it = std::find(fields.begin(), fields.end(), key);
    if (it == fields.end()) {
      fail("TypeError: " + name + "() got an unexpected keyword argument '" + key + "'", arg.range);
    }
    std::optional<Sugared>& slot = items[static_cast<size_t>(it - fields.begin())];
    if (slot) {
      fail("TypeError: " + name + "() got multiple values for argument '" + key + "'", arg.range);
    }
    slot = arg.value;
  }
  std::vector<Sugared> values;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (!items[i]) {
      fail("TypeError: " + name + "() missing 1 required positional argument: '" + fields[i] + "'",
           range);
    }
    values.push_back(*items[i]);
  }
  Sugared out = Sugared::of_kind(Sugared::Kind::Items, cls.name.substr(23));
  out.items = std::make_shared<const std::vector<Sugared>>(std::move(values));
  out.fields = cls.fields;
  return out;
}

std::optional<Sugared> Lowerer::call_stdlib(const std::string& q, CallArgs& args,
                                            const SourceRange& range) {
  if (q.rfind("collections.namedtuple:", 0) == 0) {
    fail("creating a namedtuple ('" + q.substr(23) +
             "') in converted code is not supported by the parse route",
         range,
         std::string("the parse route creates namedtuples whose field names are written as "
                     "literals (namedtuple(\"P\", [\"a\", \"b\"])) and reads the fields of "
                     "one that __init__ keeps in a module attribute; ") +
             kEagerRuns);
  }
  const std::string module = q.substr(0, q.find('.'));
  if (module != "numpy" && module != "collections" && module != "functools" &&
      module != "itertools" && module != "warnings" && module != "numbers") {
    return std::nullopt;
  }
  if (q == "functools.partial") {
    if (args.positional.empty()) fail("TypeError: partial expected at least 1 argument", range);
    std::vector<Sugared> items;
    Sugared p = Sugared::of_kind(Sugared::Kind::Partial, q);
    for (const CallArg& a : args.positional) items.push_back(a.value);
    for (const auto& [k, a] : args.keywords) {
      items.push_back(a.value);
      p.keyword_names.push_back(k);
    }
    p.items = std::make_shared<const std::vector<Sugared>>(std::move(items));
    return p;
  }
  if (module == "numpy") {
    // Folded when its arguments are known now (np.sqrt(self.dim), np.prod(shape)).
    std::vector<IValue> xs;
    for (const CallArg& a : args.positional) {
      std::optional<IValue> c = a.value.is_value() ? static_value(a.value.value) : std::nullopt;
      if (!c) break;
      xs.push_back(*c);
    }
    if (args.keywords.empty() && xs.size() == 1 && args.positional.size() == 1) {
      if (std::optional<IValue> r = fold_numpy(q, xs[0])) return Sugared::of(constant(*r, range));
      if ((q == "numpy.prod" || q == "numpy.sum") && (xs[0].is_tuple() || xs[0].is_list())) {
        bool all_int = true;
        double d = q == "numpy.prod" ? 1.0 : 0.0;
        int64_t i = q == "numpy.prod" ? 1 : 0;
        bool numbers = true;
        for (const IValue& item : xs[0].items()) {
          numbers = numbers && (item.is_int() || item.is_double() || item.is_bool());
          if (!numbers) break;
          all_int = all_int && !item.is_double();
          d = q == "numpy.prod" ? d * item.to_double() : d + item.to_double();
          if (!item.is_double()) i = q == "numpy.prod" ? i * item.to_int() : i + item.to_int();
        }
        if (numbers) return Sugared::of(constant(all_int ? IValue(i) : IValue(d), range));
      }
    }
    fail("np." + q.substr(6) +
             " of a value known only when the graph runs is not supported by the parse route",
         range,
         "the parse route folds numpy calls on numbers known at conversion time; use math or "
         "torch for the others, or " +
             std::string(kEagerRuns));
  }
  if (q == "warnings.warn") {
    fail(
        "warnings.warn() in converted code is not supported by the parse route (a graph has no "
        "warnings)",
        range, std::string("warn in __init__, which runs eagerly; ") + kEagerRuns);
  }
  fail("'" + q + "' in converted code is not supported by the parse route", range,
       std::string("use it in __init__, which runs eagerly; ") + kEagerRuns);
}

Sugared Lowerer::call_partial(const Sugared& partial, CallArgs args, const SourceRange& range) {
  const std::vector<Sugared>& items = *partial.items;
  const size_t n_kw = partial.keyword_names.size();
  CallArgs all;
  for (size_t i = 1; i + n_kw < items.size(); ++i) {
    all.positional.push_back(CallArg{items[i], range, nullptr});
  }
  for (CallArg& a : args.positional) all.positional.push_back(std::move(a));
  for (size_t k = 0; k < n_kw; ++k) {
    const std::string& name = partial.keyword_names[k];
    bool overridden = false;
    for (const auto& [kn, a] : args.keywords) overridden = overridden || kn == name;
    if (!overridden) {
      all.keywords.emplace_back(name, CallArg{items[items.size() - n_kw + k], range, nullptr});
    }
  }
  for (auto& kw : args.keywords) all.keywords.push_back(std::move(kw));
  return call_sugared(items[0], std::move(all), range);
}

std::optional<Sugared> Lowerer::python_object(const IValue& v, const SourceRange& range) {
  // An item of a namedtuple or a stored argument of a partial: a constant, or a
  // function or builtin the parse route calls by name.
  auto item = [&](const IValue& x) -> std::optional<Sugared> {
    if (!x.is_object()) return Sugared::of(constant(x, range));
    if (auto* f = interp::as_obj<interp::FunctionValue>(x); f && f->def && !f->closure) {
      Sugared s = Sugared::of_kind(Sugared::Kind::Function, f->qualname);
      s.fn = f->def;
      return s;
    }
    if (auto* b = interp::as_obj<interp::BuiltinValue>(x)) {
      return Sugared::of_kind(Sugared::Kind::Builtin, b->qualname);
    }
    return python_object(x, range);
  };
  if (auto* t = interp::as_obj<interp::NamedTupleValue>(v)) {
    std::vector<Sugared> items;
    for (const IValue& x : t->items) {
      std::optional<Sugared> s = item(x);
      if (!s) return std::nullopt;
      items.push_back(*s);
    }
    Sugared s = Sugared::of_items(std::move(items));
    s.fields = t->fields;
    s.name = t->name;
    return s;
  }
  if (auto* p = interp::as_obj<interp::PartialValue>(v)) {
    std::vector<Sugared> items;
    Sugared s = Sugared::of_kind(Sugared::Kind::Partial, "functools.partial");
    std::optional<Sugared> callee = item(p->func);
    if (!callee) return std::nullopt;
    items.push_back(*callee);
    for (const IValue& x : p->stored_args) {
      std::optional<Sugared> a = item(x);
      if (!a) return std::nullopt;
      items.push_back(*a);
    }
    for (const auto& [k, x] : p->stored_kwargs) {
      std::optional<Sugared> a = item(x);
      if (!a) return std::nullopt;
      items.push_back(*a);
      s.keyword_names.push_back(k);
    }
    s.items = std::make_shared<const std::vector<Sugared>>(std::move(items));
    return s;
  }
  // A dict kept by __init__ (`self.vocab = {"a": 0, ...}`): lower_dict.cpp.
  if (std::optional<ir::Value*> d = frozen_dict(v, range)) return Sugared::of(*d);
  return std::nullopt;
}

}  // namespace d2s::convert
