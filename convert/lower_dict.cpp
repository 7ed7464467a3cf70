// Dicts in the parse route, as TorchScript has them: a dict is a reference value of
// type Dict(K, V) (keys str or int, one value type), made by prim::DictConstruct and
// read and written by the ops of core/ops/kernels_dict.cpp when the graph runs:
//
//   d = {"a": x * 2, "b": x + 1}     %d : Dict(str, Tensor) = prim::DictConstruct(%k, %v, ...)
//   d["c"] = y                       = aten::_set_item(%d, %c, %y)
//   d["a"], d.get("a", y)            aten::__getitem__(%d, %a), aten::get(%d, %a, %y)
//   len(d), "c" in d                 aten::len(%d), aten::__contains__(%d, %c)
//   d.keys(), d.values(), d.items()  new lists (aten::keys, ...), in insertion order
//   for k, v in d.items()            a prim::Loop over aten::len of aten::items' list
//   d.pop(k), d.update(e), del d[k]  aten::pop, aten::update, aten::Delete
//
// Like a list that changes (lower_list.cpp), a dict changed inside an If arm or a
// prim::Loop body is not an If output or a loop-carried value: the writing ops change
// the one dict every reader holds, and dead-code elimination keeps them (their `(a!)`
// mark). Unlike such a list, nothing about a dict is read at conversion time — every
// read is an op — so no write can make an earlier read stale.
//
// A dict attribute of the module (`self.vocab = {"a": 0, "b": 1}` in __init__) is frozen
// when the module is converted, as its other plain attributes are: a DictConstruct of
// constants, read with a key known at conversion time to the entry's constant, and
// refused as the target of a write (its value would not outlive the call).
//
// Types: the key type is the first key's (str or int); the value type joins every
// value put in (tensors of any shape are one `Tensor` type, as TorchScript's
// Dict(str, Tensor) is). `{}` takes its types from the first write, as
// `d: Dict[str, Tensor] = {}` would give them.
#include "convert/lowerer.h"
#include "trace/py_dict.h"

namespace d2s::convert {

using ir::Type;
using ir::TypeKind;

namespace {

// A value's type as a dict holds it: tensor shapes dropped (entries of one dict have
// any shapes, and a write in a loop changes them), nested containers alike.
Type entry_type(const Type& t) {
  if (t.is_tensor()) return Type::tensor(t.dtype);
  Type out = t;
  for (Type& e : out.elements) e = entry_type(e);
  return out;
}

bool is_key_type(const Type& t) {
  return t.kind == TypeKind::Str || t.kind == TypeKind::Int || t.kind == TypeKind::Any;
}

}  // namespace

std::optional<ir::Value*> Lowerer::frozen_dict(const IValue& v, const SourceRange& range) {
  const interp::DictValue* d = interp::as_dict(v);
  if (!d || d->is_set) return std::nullopt;
  Type key = Type::any(), value = Type::any();
  for (const auto& [k, x] : d->items) {
    if (!k.is_string() && !k.is_int()) return std::nullopt;
    if (x.is_object() || x.is_tensor()) return std::nullopt;
    const Type kt = ir::type_of(k), xt = entry_type(ir::type_of(x));
    if (key.kind == TypeKind::Any) {
      key = kt;
    } else if (!(key == kt)) {
      return std::nullopt;
    }
    if (value.kind == TypeKind::Any) {
      value = xt;
    } else if (auto j = join_types(value, xt)) {
      value = *j;
    } else {
      return std::nullopt;  // values of several types: no Dict[K, V]
    }
  }
  std::vector<ir::Value*> pairs;
  for (const auto& [k, x] : d->items) {
    pairs.push_back(constant(k, range));
    pairs.push_back(constant(x, range));
  }
  ir::Value* out = emit_op("prim::DictConstruct", pairs, range);
  out->set_type(Type::dict(key, value));
  frozen_dicts_.insert(out);
  return out;
}

void Lowerer::note_dict_write(ir::Value* dict, const SourceRange& range) {
  if (!frozen_dicts_.count(dict)) return;
  fail("a dict attribute of the module cannot be changed in the parse route", range,
       "module attributes are frozen when the module is converted; copy it first "
       "(`d = dict(self.d)`), or " +
           std::string(kEagerRuns));
}

ir::Value* Lowerer::frozen_dict_entry(ir::Value* dict, ir::Value* key) {
  if (!frozen_dicts_.count(dict)) return nullptr;
  const std::optional<IValue> k = constant_value(key);
  if (!k || (!k->is_string() && !k->is_int())) return nullptr;
  const auto& in = dict->node()->inputs();
  ir::Value* found = nullptr;  // the last entry of the key, as the dict holds it
  for (size_t i = 0; i + 1 < in.size(); i += 2) {
    const std::optional<IValue> c = constant_value(in[i]);
    if (c && c->is_string() == k->is_string() && c->repr() == k->repr()) found = in[i + 1];
  }
  return found;
}

ir::Value* Lowerer::emit_dict(const ast::DictExpr& e) {
  // `{**a, "k": v}`: the entries written out go into one prim::DictConstruct when no
  // spread comes before them; a spread (and what follows it) is aten::update of a copy.
  std::vector<ir::Value*> pairs;
  Type key = Type::any(), value = Type::any();
  ir::Value* dict = nullptr;
  auto construct = [&] {
    ir::Value* d = emit_op("prim::DictConstruct", pairs, e.range);
    d->set_type(Type::dict(key, value));
    return d;
  };
  for (size_t i = 0; i < e.keys.size(); ++i) {
    if (!e.keys[i]) {
      ir::Value* more = emit_expr(*e.values[i]);
      if (more->type().kind != TypeKind::Dict) {
        fail("'**' in a dict literal needs a dict here, got " + more->type().str(),
             e.values[i]->range);
      }
      if (!dict && pairs.empty()) {
        dict = dict_copy(more, e.range);  // `{**d, ...}`: a new dict, d's entries first
        continue;
      }
      if (!dict) dict = construct();
      dict_update(dict, more, e.range);
      continue;
    }
    ir::Value* k = emit_expr(*e.keys[i]);
    ir::Value* v = emit_expr(*e.values[i]);
    if (dict) {
      dict_set_item(dict, k, v, e.keys[i]->range);
      continue;
    }
    if (!is_key_type(k->type())) {
      fail("a dict key must be a str or an int in the parse route, not " + k->type().str(),
           e.keys[i]->range,
           std::string("TorchScript's Dict[str, T] and Dict[int, T]; ") + kEagerRuns);
    }
    key = dict_join(key, k->type(), "key", e.keys[i]->range);
    value = dict_join(value, v->type(), "value", e.values[i]->range);
    pairs.push_back(k);
    pairs.push_back(v);
  }
  return dict ? dict : construct();
}

Type Lowerer::dict_join(const Type& have, const Type& item, const char* what,
                        const SourceRange& range) {
  const Type t = entry_type(item);
  if (have.kind == TypeKind::Any) return t;
  if (t.kind == TypeKind::Any) return have;
  // join_types widens tensors; an int stays apart from a float, as in TorchScript.
  if (auto j = join_types(have, t)) return *j;
  fail(
      std::string("a dict with ") + what + "s of type " + have.str() + " cannot hold a " + what +
          " of type " + t.str() + " in the parse route: a graph's dict has one " + what + " type",
      range,
      std::string("keep one ") + what + " type per dict (TorchScript's Dict[K, V]); " + kEagerRuns);
}

void Lowerer::refine_dict(ir::Value* dict, const Type& key, const Type& value,
                          const SourceRange& range) {
  const Type& t = dict->type();
  if (t.kind != TypeKind::Dict || t.elements.size() != 2) return;
  if (!is_key_type(key)) {
    fail("a dict key must be a str or an int in the parse route, not " + key.str(), range,
         std::string("TorchScript's Dict[str, T] and Dict[int, T]; ") + kEagerRuns);
  }
  dict->set_type(Type::dict(dict_join(t.elements[0], key, "key", range),
                            dict_join(t.elements[1], value, "value", range)));
}

ir::Value* Lowerer::dict_key(ir::Value* dict, ir::Value* key, const SourceRange& range) {
  // A key of another type than the dict's is never in it; Python looks it up anyway
  // (and finds nothing), TorchScript refuses to compile: refused here too.
  const Type& t = dict->type();
  const Type& want = t.elements.size() == 2 ? t.elements[0] : Type::any();
  const TypeKind k = key->type().kind;
  if (!is_key_type(key->type()) && k != TypeKind::Bool) {
    fail("a dict key must be a str or an int in the parse route, not " + key->type().str(), range,
         std::string("TorchScript's Dict[str, T] and Dict[int, T]; ") + kEagerRuns);
  }
  if (want.kind != TypeKind::Any && k != TypeKind::Any &&
      !(want.kind == k || (want.kind == TypeKind::Int && k == TypeKind::Bool))) {
    fail("this dict has keys of type " + want.str() + ", not " + key->type().str(), range,
         "a graph's dict has one key type (TorchScript's Dict[K, V])");
  }
  return key;
}

ir::Value* Lowerer::dict_item(ir::Value* dict, ir::Value* key, const SourceRange& range) {
  if (ir::Value* known = frozen_dict_entry(dict, dict_key(dict, key, range))) return known;
  ir::Value* out = emit_op("aten::__getitem__", {dict, dict_key(dict, key, range)}, range);
  if (dict->type().elements.size() == 2) out->set_type(dict->type().elements[1]);
  return out;
}

void Lowerer::dict_set_item(ir::Value* dict, ir::Value* key, ir::Value* value,
                            const SourceRange& range) {
  dict_key(dict, key, range);
  note_dict_write(dict, range);
  refine_dict(dict, key->type(), value->type(), range);
  emit_op("aten::_set_item", {dict, key, value}, range);
}

void Lowerer::assign_dict_item(ir::Value* dict, const ast::Subscript& target, ir::Value* value) {
  if (target.indices.size() != 1 || target.indices[0]->kind == ast::ExprKind::Slice) {
    fail("a dict is indexed by one key", target.range);
  }
  dict_set_item(dict, emit_expr(*target.indices[0]), value, target.range);
}

void Lowerer::delete_dict_item(ir::Value* dict, const ast::Subscript& target) {
  if (target.indices.size() != 1 || target.indices[0]->kind == ast::ExprKind::Slice) {
    fail("a dict is indexed by one key", target.range);
  }
  ir::Value* key = emit_expr(*target.indices[0]);
  note_dict_write(dict, target.range);
  emit_op("aten::Delete", {dict, dict_key(dict, key, target.range)}, target.range);
}

ir::Value* Lowerer::dict_contains(ir::Value* dict, ir::Value* key, const SourceRange& range) {
  if (frozen_dicts_.count(dict) && constant_value(key)) {
    return bool_const(frozen_dict_entry(dict, dict_key(dict, key, range)) != nullptr);
  }
  return emit_op("aten::__contains__", {dict, dict_key(dict, key, range)}, range);
}

ir::Value* Lowerer::dict_list(ir::Value* dict, const char* which, const SourceRange& range) {
  // keys(), values(), items(): a new list of the entries as the graph runs, as
  // TorchScript's keys/values/items give List[K], List[V], List[Tuple[K, V]].
  ir::Value* out = emit_op(std::string("aten::") + which, {dict}, range);
  const Type& t = dict->type();
  const Type key = t.elements.size() == 2 ? t.elements[0] : Type::any();
  const Type value = t.elements.size() == 2 ? t.elements[1] : Type::any();
  const std::string w = which;
  out->set_type(Type::list(w == "keys" ? key : w == "values" ? value : Type::tuple({key, value})));
  return out;
}

ir::Value* Lowerer::dict_copy(ir::Value* dict, const SourceRange& range) {
  ir::Value* out = emit_op("aten::copy", {dict}, range);
  out->set_type(dict->type());
  return out;
}

void Lowerer::dict_update(ir::Value* dict, ir::Value* more, const SourceRange& range) {
  if (more->type().kind != TypeKind::Dict) {
    fail("dict.update() takes a dict in the parse route, got " + more->type().str(), range,
         kEagerRuns);
  }
  note_dict_write(dict, range);
  if (more->type().elements.size() == 2) {
    refine_dict(dict, more->type().elements[0], more->type().elements[1], range);
  }
  emit_op("aten::update", {dict, more}, range);
}

Sugared Lowerer::call_dict_method(ir::Value* self, const std::string& name, CallArgs& args,
                                  const SourceRange& range) {
  if (!args.keywords.empty()) {
    fail("dict." + name + "() takes no keyword arguments in the parse route",
         args.keywords[0].second.range);
  }
  std::vector<ir::Value*> a;
  for (const CallArg& c : args.positional) a.push_back(as_value(c.value, c.range));
  auto expect = [&](size_t lo, size_t hi) {
    if (a.size() < lo || a.size() > hi) {
      fail("TypeError: dict." + name + "() takes " +
               (lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi)) +
               " argument(s) (" + std::to_string(a.size()) + " given)",
           range);
    }
  };
  const Type& t = self->type();
  const Type value = t.elements.size() == 2 ? t.elements[1] : Type::any();
  // d.get(k) / d.pop(k, None): the value or None, an Optional; with a default of the
  // value type, that type.
  auto with_default = [&](ir::Value* out, ir::Value* dflt) {
    const Type& d = dflt->type();
    if (d.kind == TypeKind::None) {
      out->set_type(value.kind == TypeKind::Any ? Type::any() : Type::optional(value));
    } else if (auto j = join_types(value, entry_type(d)); j && value.kind != TypeKind::Any) {
      out->set_type(*j);
    } else if (value.kind == TypeKind::Any) {
      out->set_type(Type::any());
    } else {
      fail("the default of dict." + name + "() has type " + d.str() +
               ", but the dict's values are " + value.str(),
           range, "give a default of the dict's value type (TorchScript's Dict[K, V])");
    }
    return Sugared::of(out);
  };
  if (name == "get") {
    expect(1, 2);
    ir::Value* dflt = a.size() > 1 ? a[1] : constant(IValue(), range);
    if (frozen_dicts_.count(self) && constant_value(a[0])) {
      ir::Value* known = frozen_dict_entry(self, dict_key(self, a[0], range));
      return Sugared::of(known ? known : dflt);
    }
    ir::Value* out = emit_op("aten::get", {self, dict_key(self, a[0], range), dflt}, range);
    return with_default(out, dflt);
  }
  if (name == "pop" || name == "clear" || name == "__delitem__") note_dict_write(self, range);
  if (name == "pop") {
    expect(1, 2);
    std::vector<ir::Value*> in{self, dict_key(self, a[0], range)};
    if (a.size() > 1) in.push_back(a[1]);
    ir::Value* out = emit_op("aten::pop", in, range);
    if (a.size() > 1) return with_default(out, a[1]);
    out->set_type(value);
    return Sugared::of(out);
  }
  if (name == "keys" || name == "values" || name == "items") {
    expect(0, 0);
    return Sugared::of(dict_list(self,
                                 name == "keys"     ? "keys"
                                 : name == "values" ? "values"
                                                    : "items",
                                 range));
  }
  if (name == "update") {
    expect(1, 1);
    dict_update(self, a[0], range);
    return Sugared::of(constant(IValue(), range));
  }
  if (name == "clear") {
    expect(0, 0);
    emit_op("aten::clear", {self}, range);
    return Sugared::of(constant(IValue(), range));
  }
  if (name == "copy") {
    expect(0, 0);
    return Sugared::of(dict_copy(self, range));
  }
  // The spellings `d2s code` writes for `d[k] = v`, `d[k]` and `k in d`, read back.
  if (name == "__setitem__") {
    expect(2, 2);
    dict_set_item(self, a[0], a[1], range);
    return Sugared::of(constant(IValue(), range));
  }
  if (name == "__getitem__") {
    expect(1, 1);
    return Sugared::of(dict_item(self, a[0], range));
  }
  if (name == "__contains__") {
    expect(1, 1);
    return Sugared::of(dict_contains(self, a[0], range));
  }
  if (name == "__delitem__") {
    expect(1, 1);
    emit_op("aten::Delete", {self, dict_key(self, a[0], range)}, range);
    return Sugared::of(constant(IValue(), range));
  }
  fail("'dict' object has no method '" + name + "' in the parse route", range,
       "dicts take get, pop, keys, values, items, update, clear and copy there; " +
           std::string(kEagerRuns));
}

Sugared Lowerer::call_dict_builtin(CallArgs& args, const SourceRange& range) {
  // dict(), dict(d), dict(a=1, b=2), dict(d, c=3).
  if (args.positional.size() > 1) {
    fail("TypeError: dict expected at most 1 argument, got " +
             std::to_string(args.positional.size()),
         range);
  }
  ir::Value* out = nullptr;
  if (!args.positional.empty()) {
    ir::Value* from = as_value(args.positional[0].value, args.positional[0].range);
    if (from->type().kind != TypeKind::Dict) {
      fail("dict() of a " + from->type().str() + " is not supported by the parse route",
           args.positional[0].range,
           std::string("dict() takes a dict or keywords there; ") + kEagerRuns);
    }
    out = dict_copy(from, range);
  }
  if (!out) {
    std::vector<ir::Value*> pairs;
    Type value = Type::any();
    for (const auto& [name, a] : args.keywords) {
      ir::Value* v = as_value(a.value, a.range);
      value = dict_join(value, v->type(), "value", a.range);
      pairs.push_back(constant(IValue(name), a.range));
      pairs.push_back(v);
    }
    out = emit_op("prim::DictConstruct", pairs, range);
    out->set_type(Type::dict(args.keywords.empty() ? Type::any() : Type::of_str(), value));
    return Sugared::of(out);
  }
  for (const auto& [name, a] : args.keywords) {
    dict_set_item(out, constant(IValue(name), a.range), as_value(a.value, a.range), a.range);
  }
  return Sugared::of(out);
}

}  // namespace d2s::convert
