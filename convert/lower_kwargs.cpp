// `**kwargs` in the parse route. Every call of a user function is inlined at conversion
// time, so the keywords a `**kwargs` parameter gathers are known there, key by key:
// the parameter is bound to a Sugared of kind Keywords (keys in call order, values as
// the caller gave them, of any mix of types), not to a graph value. Reading it costs
// no node:
//
//   kwargs["scale"], kwargs.get("bias", None)   the value the caller passed (or the default)
//   "scale" in kwargs, len(kwargs)              constants
//   for k in kwargs / kwargs.items() / ...      unrolled over the keys
//   f(x, **kwargs), dict(**kwargs)              the keywords spread into the call
//
// Used where a value is needed (returned, compared), it becomes a runtime dict
// (prim::DictConstruct), which needs one value type, as TorchScript's Dict[str, T].
// It is never changed at conversion time: `kwargs[k] = v`, `del kwargs[k]` and the
// changing methods are refused with a hint (copy it with dict(kwargs) first).
#include "convert/lowerer.h"

namespace d2s::convert {

using ir::TypeKind;

namespace {

const std::string& key_of(const Sugared& kw, size_t i) {
  return (*kw.fields)[i];
}

std::optional<size_t> find_key(const Sugared& kw, const std::string& key) {
  for (size_t i = 0; i < kw.fields->size(); ++i) {
    if (key_of(kw, i) == key) return i;
  }
  return std::nullopt;
}

}  // namespace

Sugared Lowerer::make_keywords(const std::string& param, std::vector<std::string> keys,
                               std::vector<Sugared> values) {
  Sugared kw = Sugared::of_kind(Sugared::Kind::Keywords, param);
  kw.fields = std::make_shared<const std::vector<std::string>>(std::move(keys));
  kw.items = std::make_shared<const std::vector<Sugared>>(std::move(values));
  return kw;
}

std::string Lowerer::keywords_key(const Sugared& kw, const Sugared& key, const SourceRange& range) {
  ir::Value* v = as_value(key, range);
  std::optional<IValue> c = static_value(v);
  if (c && c->is_string()) return c->to_string();
  if (v->type().kind != TypeKind::Str) {
    // Its keys are all str: a key of another type is never found, as in Python.
    fail("KeyError: a key of type " + v->type().str() + " in '**" + kw.name + "'", range,
         "the keys of '**" + kw.name + "' are the keyword names the caller gave");
  }
  fail("a key of '**" + kw.name + "' that is known only when the graph runs", range,
       "the parse route reads '**" + kw.name +
           "' at conversion time; write the key as a string, or copy it with dict(" + kw.name +
           ") first; " + kEagerRuns);
}

std::vector<Sugared> Lowerer::keywords_keys(const Sugared& kw, const SourceRange& range) {
  std::vector<Sugared> keys;
  for (const std::string& k : *kw.fields) keys.push_back(Sugared::of(constant(IValue(k), range)));
  return keys;
}

Sugared Lowerer::keywords_item(const Sugared& kw, const Sugared& key, const SourceRange& range) {
  const std::string k = keywords_key(kw, key, range);
  if (std::optional<size_t> i = find_key(kw, k)) return (*kw.items)[*i];
  fail("KeyError: '" + k + "'", range,
       "the caller gave '**" + kw.name + "' no keyword '" + k + "'; use " + kw.name + ".get('" + k +
           "', default) for one that may be missing");
}

ir::Value* Lowerer::keywords_dict(const Sugared& kw, const SourceRange& range) {
  CallArgs entries;  // as dict(**kw) makes it
  spread_keywords(kw, range, &entries);
  return call_dict_builtin(entries, range).value;
}

void Lowerer::spread_keywords(const Sugared& kw, const SourceRange& range, CallArgs* args) {
  for (size_t i = 0; i < kw.items->size(); ++i) {
    const std::string& k = key_of(kw, i);
    for (const auto& [name, a] : args->keywords) {
      if (name == k) fail("TypeError: got multiple values for keyword argument '" + k + "'", range);
    }
    args->keywords.emplace_back(k, CallArg{(*kw.items)[i], range, nullptr});
  }
}

Sugared Lowerer::keywords_attribute(const Sugared& kw, const std::string& attr,
                                    const SourceRange& range) {
  static const char* const kReads[] = {"get", "keys", "values", "items", "copy"};
  static const char* const kWrites[] = {"pop",   "popitem",     "update",     "setdefault",
                                        "clear", "__setitem__", "__delitem__"};
  for (const char* m : kReads) {
    if (attr == m) {
      Sugared method = kw;
      method.kind = Sugared::Kind::Method;
      method.name = attr;
      method.keyword_names = {kw.name};  // the receiver's name, for messages
      return method;
    }
  }
  for (const char* m : kWrites) {
    if (attr == m) refuse_keywords_write(kw, range);
  }
  fail("AttributeError: 'dict' object has no attribute '" + attr + "'", range);
}

void Lowerer::refuse_keywords_write(const Sugared& kw, const SourceRange& range) {
  fail("changing the keyword arguments gathered by '**" + kw.name +
           "' is not supported by the parse route",
       range,
       "the route keeps them at conversion time; change a copy (`d = dict(" + kw.name +
           ")`), which is a graph dict; " + kEagerRuns);
}

Sugared Lowerer::call_keywords_method(const Sugared& method, CallArgs& args,
                                      const SourceRange& range) {
  Sugared kw = method;
  kw.kind = Sugared::Kind::Keywords;
  kw.name = method.keyword_names.at(0);
  const std::string& name = method.name;
  if (!args.keywords.empty()) {
    fail("TypeError: dict." + name + "() takes no keyword arguments",
         args.keywords[0].second.range);
  }
  const size_t n = args.positional.size();
  if (name == "get") {
    if (n < 1 || n > 2) {
      fail("TypeError: get expected 1 to 2 arguments, got " + std::to_string(n), range);
    }
    const std::string k = keywords_key(kw, args.positional[0].value, args.positional[0].range);
    if (std::optional<size_t> i = find_key(kw, k)) return (*kw.items)[*i];
    return n == 2 ? args.positional[1].value : Sugared::of(constant(IValue(), range));
  }
  if (n != 0) {
    fail("TypeError: dict." + name + "() takes no arguments (" + std::to_string(n) + " given)",
         range);
  }
  if (name == "keys") return Sugared::of_items(keywords_keys(kw, range));
  if (name == "values") return Sugared::of_items(*kw.items);
  if (name == "items") {
    std::vector<Sugared> pairs;
    std::vector<Sugared> keys = keywords_keys(kw, range);
    for (size_t i = 0; i < keys.size(); ++i)
      pairs.push_back(Sugared::of_items({keys[i], (*kw.items)[i]}));
    return Sugared::of_items(std::move(pairs));
  }
  // copy(): a runtime dict that the program may change, as dict(kwargs) is.
  return Sugared::of(keywords_dict(kw, range));
}

}  // namespace d2s::convert
