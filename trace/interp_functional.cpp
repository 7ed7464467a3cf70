// Lambdas, nested functions and their closures, `*args`/`**kwargs`/keyword-only
// parameters, comprehensions, dict and set displays, and exceptions (raise, try,
// del), plus the builtins that go with them (sorted, reversed, any, all, dict, set,
// the exception types, callable).
#include <algorithm>
#include <exception>

#include "trace/interp.h"
#include "trace/py_dict.h"

namespace d2s::interp {

namespace {

IValue obj(std::shared_ptr<Object> o) {
  return IValue(std::move(o));
}

const char* const kMoreBuiltins[] = {"sorted",
                                     "repr",
                                     "reversed",
                                     "any",
                                     "all",
                                     "dict",
                                     "set",
                                     "callable",
                                     "BaseException",
                                     "Exception",
                                     "ArithmeticError",
                                     "ZeroDivisionError",
                                     "OverflowError",
                                     "AssertionError",
                                     "AttributeError",
                                     "LookupError",
                                     "IndexError",
                                     "KeyError",
                                     "NameError",
                                     "RuntimeError",
                                     "NotImplementedError",
                                     "StopIteration",
                                     "TypeError",
                                     "ValueError",
                                     "Warning",
                                     "UserWarning",
                                     "KeyboardInterrupt",
                                     "SystemExit",
                                     "RecursionError",
                                     "DeprecationWarning",
                                     "UnboundLocalError"};

// The last line of Python's traceback for an exception.
std::string exception_text(const Interpreter& in, const ExceptionValue& e) {
  if (e.args.empty()) return e.type;
  if (e.args.size() == 1) {
    // str(KeyError(k)) is repr(k).
    std::string msg = e.type == "KeyError" ? in.py_repr(e.args[0]) : in.py_str(e.args[0]);
    return msg.empty() ? e.type : e.type + ": " + msg;
  }
  return e.type + ": " + in.py_str(IValue::tuple(e.args));
}

}  // namespace

void install_more_builtins(std::unordered_map<std::string, IValue>& builtins) {
  for (const char* name : kMoreBuiltins) builtins[name] = obj(std::make_shared<BuiltinValue>(name));
}

// ------------------------------------------------------------------- functions

std::shared_ptr<FunctionValue> Interpreter::make_function(const ast::FunctionDef& def,
                                                          std::string qualname) {
  Frame& frame = *frames_.back();
  auto fn = std::make_shared<FunctionValue>();
  fn->def = &def;
  fn->qualname = std::move(qualname);
  fn->owner = frame.owner;
  // Defaults are evaluated once, when the def runs (Python's rule).
  for (const ast::Param& p : def.params) {
    fn->defaults.push_back(p.default_value ? std::optional<IValue>(eval(*p.default_value))
                                           : std::nullopt);
  }
  if (frame.info) {
    // frame.info is function_infos_'s entry for the running function (interp_call.cpp).
    fn->closure = std::make_shared<Closure>(function_infos_.at(frame.function->def), frame.locals,
                                            frame.closure);
  }
  return fn;
}

IValue Interpreter::eval_lambda(const ast::Lambda& e) {
  return obj(make_function(*e.def, "<lambda>"));
}

const IValue* Interpreter::closure_lookup(const ast::Name& n, const Frame& f) {
  for (const Closure* c = f.closure.get(); c; c = c->parent.get()) {
    auto it = c->info->slots.find(n.id);
    if (it == c->info->slots.end()) continue;
    const std::optional<IValue>& v = (*c->slots)[static_cast<size_t>(it->second)];
    if (!v) {
      fail("NameError: cannot access free variable '" + n.id +
               "' where it is not associated with a value in enclosing scope",
           n.range, "assign '" + n.id + "' before calling the nested function");
    }
    return &*v;
  }
  return nullptr;
}

ValueList Interpreter::bind_full(const FunctionValue& fn, ValueList args, Kwargs kwargs,
                                 const SourceRange& range) {
  const std::vector<ast::Param>& params = fn.def->params;
  std::vector<ParamSpec> positional;
  bool has_varargs = false, has_varkw = false;
  for (size_t i = 0; i < params.size(); ++i) {
    if (params[i].kind == ast::ParamKind::Normal) {
      positional.push_back({params[i].name.c_str(), fn.defaults[i]});
    }
    has_varargs |= params[i].kind == ast::ParamKind::VarArgs;
    has_varkw |= params[i].kind == ast::ParamKind::VarKw;
  }
  if (positional.size() == params.size()) {
    return bind_args(fn.qualname, positional, std::move(args), std::move(kwargs), range);
  }
  ValueList extra;
  if (has_varargs && args.size() > positional.size()) {
    extra.assign(args.begin() + static_cast<ptrdiff_t>(positional.size()), args.end());
    args.resize(positional.size());
  }
  auto param_named = [&](const std::string& key) -> const ast::Param* {
    for (const ast::Param& p : params) {
      if (p.name == key && (p.kind == ast::ParamKind::Normal || p.kind == ast::ParamKind::KwOnly))
        return &p;
    }
    return nullptr;
  };
  Kwargs for_positional, keyword_only;
  auto rest = std::make_shared<DictValue>();
  for (auto& [key, value] : kwargs) {
    const ast::Param* p = param_named(key);
    if (p && p->kind == ast::ParamKind::KwOnly) {
      keyword_only.emplace_back(key, std::move(value));
    } else if (!p && has_varkw) {
      rest->items.emplace_back(IValue(key), std::move(value));
    } else {
      for_positional.emplace_back(key, std::move(value));  // unknown: bind_args says so
    }
  }
  ValueList bound =
      bind_args(fn.qualname, positional, std::move(args), std::move(for_positional), range);
  ValueList out;
  size_t next_positional = 0;
  std::vector<std::string> missing;
  for (size_t i = 0; i < params.size(); ++i) {
    const ast::Param& p = params[i];
    switch (p.kind) {
      case ast::ParamKind::Normal:
        out.push_back(std::move(bound[next_positional++]));
        break;
      case ast::ParamKind::VarArgs:
        out.push_back(IValue::tuple(std::move(extra)));
        break;
      case ast::ParamKind::VarKw:
        out.push_back(obj(rest));
        break;
      case ast::ParamKind::KwOnly: {
        auto it = std::find_if(keyword_only.begin(), keyword_only.end(),
                               [&](const auto& kv) { return kv.first == p.name; });
        if (it != keyword_only.end()) {
          out.push_back(it->second);
        } else if (fn.defaults[i]) {
          out.push_back(*fn.defaults[i]);
        } else {
          missing.push_back(p.name);
          out.push_back(IValue());
        }
        break;
      }
    }
  }
  if (!missing.empty()) {
    std::string names;
    for (size_t i = 0; i < missing.size(); ++i) names += (i ? " and '" : "'") + missing[i] + "'";
    fail("TypeError: " + fn.qualname + "() missing " + std::to_string(missing.size()) +
             " required keyword-only argument" + (missing.size() == 1 ? "" : "s") + ": " + names,
         range);
  }
  return out;
}

void Interpreter::spread_kwargs(const IValue& d, Kwargs* kwargs, const SourceRange& range) {
  DictValue* dict = as_dict(d);
  if (!dict || dict->is_set) {
    fail("TypeError: argument after ** must be a mapping, not " + py_type_name(d), range);
  }
  for (const auto& [k, v] : dict->items) {
    if (!k.is_string()) fail("TypeError: keywords must be strings", range);
    for (const auto& [name, old] : *kwargs) {
      if (name == k.to_string()) {
        fail("TypeError: got multiple values for keyword argument '" + name + "'", range);
      }
    }
    kwargs->emplace_back(k.to_string(), v);
  }
}

// -------------------------------------------------------------- comprehensions

namespace {

// Drops the comprehension variables a scope bound when it ends, however it ends.
class CompScope {
 public:
  explicit CompScope(Frame& f) : f_(f), mark_(f.comp_vars.size()) {}
  ~CompScope() { f_.comp_vars.resize(mark_); }
  CompScope(const CompScope&) = delete;
  CompScope& operator=(const CompScope&) = delete;
  void reset() { f_.comp_vars.resize(mark_); }

 private:
  Frame& f_;
  size_t mark_;
};

}  // namespace

void Interpreter::bind_comp_target(const ast::Expr& target, const IValue& value) {
  if (target.kind == ast::ExprKind::Name) {
    frames_.back()->comp_vars.emplace_back(target.as<ast::Name>().id, value);
    return;
  }
  const auto& elts = target.kind == ast::ExprKind::Tuple ? target.as<ast::TupleExpr>().elts
                                                         : target.as<ast::ListExpr>().elts;
  ValueList items = iterate(value, target.range);
  if (items.size() != elts.size()) {
    fail(
        items.size() > elts.size()
            ? "ValueError: too many values to unpack (expected " + std::to_string(elts.size()) + ")"
            : "ValueError: not enough values to unpack (expected " + std::to_string(elts.size()) +
                  ", got " + std::to_string(items.size()) + ")",
        target.range);
  }
  for (size_t i = 0; i < elts.size(); ++i) bind_comp_target(*elts[i], items[i]);
}

void Interpreter::comp_clause(const ast::Comp& e, size_t level, ValueList* out,
                              const std::shared_ptr<DictValue>& dict) {
  check_stack(e.range);
  const ast::CompFor& clause = e.generators[level];
  ValueList items = iterate(eval(*clause.iter), clause.iter->range);
  CompScope scope(*frames_.back());
  for (const IValue& item : items) {
    scope.reset();
    bind_comp_target(*clause.target, item);
    bool keep = true;
    for (const ast::ExprPtr& cond : clause.ifs) {
      if (!truthy(eval(*cond), cond->range)) {
        keep = false;
        break;
      }
    }
    if (!keep) continue;
    if (level + 1 < e.generators.size()) {
      comp_clause(e, level + 1, out, dict);
    } else if (dict && dict->is_set) {
      dict->put(*this, eval(*e.elt), IValue(), e.elt->range);
    } else if (dict) {
      IValue key = eval(*e.elt);
      dict->put(*this, std::move(key), eval(*e.value), e.elt->range);
    } else {
      out->push_back(eval(*e.elt));
    }
  }
}

IValue Interpreter::eval_comp(const ast::Comp& e) {
  ValueList out;
  std::shared_ptr<DictValue> dict;
  if (e.comp == ast::CompKind::Dict || e.comp == ast::CompKind::Set) {
    dict = std::make_shared<DictValue>(e.comp == ast::CompKind::Set);
  }
  // A generator expression is evaluated whole, as the list it would yield: sum(),
  // any(), all(), torch.cat() and the like consume it at once.
  comp_clause(e, 0, &out, dict);
  if (dict) return obj(dict);
  return IValue::list(std::move(out));
}

IValue Interpreter::eval_dict(const ast::DictExpr& e) {
  auto dict = std::make_shared<DictValue>();
  for (size_t i = 0; i < e.keys.size(); ++i) {
    if (!e.keys[i]) {  // {**other}
      IValue other = eval(*e.values[i]);
      DictValue* d = as_dict(other);
      if (!d || d->is_set) {
        fail("TypeError: '" + py_type_name(other) + "' object is not a mapping",
             e.values[i]->range);
      }
      for (const auto& [k, v] : d->items) dict->put(*this, k, v, e.values[i]->range);
      continue;
    }
    IValue key = eval(*e.keys[i]);
    dict->put(*this, std::move(key), eval(*e.values[i]), e.keys[i]->range);
  }
  return obj(dict);
}

IValue Interpreter::eval_set(const ast::SetExpr& e) {
  auto set = std::make_shared<DictValue>(true);
  for (const ast::ExprPtr& x : e.elts) set->put(*this, eval(*x), IValue(), x->range);
  return obj(set);
}

// ------------------------------------------------------------------ exceptions

namespace {

// The Python exception type of an error, and the exception value for `as e`; an
// empty type for d2s's own errors (what it does not support), which no `except`
// catches.
std::string raised_type(const Error& err, IValue* exc) {
  if (auto* r = dynamic_cast<const RaisedError*>(&err)) {
    *exc = r->exception;
    return as_obj<ExceptionValue>(r->exception)->type;
  }
  const std::string& m = err.message();
  size_t colon = m.find(':');
  std::string type = m.substr(0, colon);
  if (!is_exception_type(type)) return "";
  std::string rest = colon == std::string::npos ? "" : m.substr(colon + 1);
  if (!rest.empty() && rest[0] == ' ') rest.erase(0, 1);
  ValueList args;
  // d2s writes a KeyError's key as its repr ('b'); the exception holds the key.
  if (type == "KeyError" && rest.size() >= 2 && rest.front() == '\'' && rest.back() == '\'') {
    rest = rest.substr(1, rest.size() - 2);
  }
  if (!rest.empty()) args.push_back(IValue(rest));
  *exc = obj(std::make_shared<ExceptionValue>(type, std::move(args)));
  return type;
}

// Pops the exception being handled when its handler ends.
class Handling {
 public:
  Handling(Frame& f, IValue exc) : f_(f) { f_.handling.push_back(std::move(exc)); }
  ~Handling() { f_.handling.pop_back(); }
  Handling(const Handling&) = delete;
  Handling& operator=(const Handling&) = delete;

 private:
  Frame& f_;
};

}  // namespace

Flow Interpreter::exec_try(const ast::Try& s) {
  Flow flow = Flow::Normal;
  std::exception_ptr pending;
  try {
    IValue exc;
    const ast::ExceptHandler* handler = nullptr;
    try {
      flow = exec_block(s.body);
    } catch (const Error& err) {
      std::string type = raised_type(err, &exc);
      if (type.empty()) throw;
      for (const ast::ExceptHandler& h : s.handlers) {
        bool match = !h.type;
        if (h.type) {
          IValue t = eval(*h.type);
          ValueList types = t.is_tuple() ? t.tuple_items() : ValueList{t};
          for (const IValue& ty : types) {
            auto* b = as_obj<BuiltinValue>(ty);
            if (!b || !is_exception_type(b->qualname)) {
              fail(
                  "TypeError: catching classes that do not inherit from BaseException is not "
                  "allowed",
                  h.type->range);
            }
            match = match || exception_matches(type, b->qualname);
          }
        }
        if (match) {
          handler = &h;
          break;
        }
      }
      if (!handler) throw;
    }
    if (!handler) {
      if (flow == Flow::Normal && !s.orelse.empty()) flow = exec_block(s.orelse);
    } else {
      if (!handler->name.empty()) store_name(handler->name, exc);
      Handling handling(*frames_.back(), exc);
      flow = exec_block(handler->body);
    }
  } catch (...) {
    if (s.finalbody.empty()) throw;
    pending = std::current_exception();
  }
  if (!s.finalbody.empty()) {
    Flow f = exec_block(s.finalbody);
    // A return/break/continue in `finally` replaces what the try was doing, as in Python.
    if (f != Flow::Normal) return f;
  }
  if (pending) std::rethrow_exception(pending);
  return flow;
}

void Interpreter::exec_raise(const ast::Raise& s) {
  Frame& f = *frames_.back();
  if (!s.exc) {
    if (f.handling.empty()) fail("RuntimeError: No active exception to reraise", s.range);
    const IValue& exc = f.handling.back();
    throw RaisedError(exception_text(*this, *as_obj<ExceptionValue>(exc)), s.range, exc);
  }
  IValue v = eval(*s.exc);
  if (s.cause) {
    IValue cause = eval(*s.cause);
    if (!cause.is_none() && !as_obj<ExceptionValue>(cause) &&
        !(as_obj<BuiltinValue>(cause) &&
          is_exception_type(as_obj<BuiltinValue>(cause)->qualname))) {
      fail("TypeError: exception causes must derive from BaseException", s.cause->range);
    }
  }
  if (auto* b = as_obj<BuiltinValue>(v); b && is_exception_type(b->qualname)) {
    v = obj(std::make_shared<ExceptionValue>(b->qualname, ValueList{}));
  }
  auto* e = as_obj<ExceptionValue>(v);
  if (!e) fail("TypeError: exceptions must derive from BaseException", s.exc->range);
  throw RaisedError(exception_text(*this, *e), s.range, v);
}

void Interpreter::exec_delete(const ast::Delete& s) {
  std::vector<const ast::Expr*> work;
  for (auto it = s.targets.rbegin(); it != s.targets.rend(); ++it) work.push_back(it->get());
  while (!work.empty()) {
    const ast::Expr& t = *work.back();
    work.pop_back();
    switch (t.kind) {
      case ast::ExprKind::Name: {
        const std::string& name = t.as<ast::Name>().id;
        lookup(t.as<ast::Name>());  // NameError when unbound, as Python
        Frame& f = *frames_.back();
        if (f.info && f.info->slots.count(name)) {
          (*f.locals)[static_cast<size_t>(f.info->slots.at(name))].reset();
        } else if (f.class_ns) {
          f.class_ns->erase(name);
        } else {
          globals_.erase(name);
        }
        break;
      }
      case ast::ExprKind::Subscript: {
        const auto& sub = t.as<ast::Subscript>();
        IValue container = eval(*sub.value);
        ValueList index = eval_indices(sub);
        if (DictValue* d = as_dict(container); d && !d->is_set && index.size() == 1) {
          d->remove(*this, index[0], t.range);
        } else if (container.is_list() && index.size() == 1 && !as_obj<SliceValue>(index[0])) {
          ValueList& items = container.list_items();
          int64_t n = static_cast<int64_t>(items.size());
          int64_t i = to_index(index[0], PyConversion::Index, t.range,
                               "list indices must be integers or slices");
          if (i < 0) i += n;
          if (i < 0 || i >= n) fail("IndexError: list assignment index out of range", t.range);
          items.erase(items.begin() + i);
        } else {
          fail("TypeError: '" + py_type_name(container) + "' object does not support item deletion",
               t.range, "d2s deletes items of lists (one index) and dicts");
        }
        break;
      }
      case ast::ExprKind::Attribute: {
        const auto& a = t.as<ast::Attribute>();
        IValue o = eval(*a.value);
        auto* inst = as_obj<InstanceValue>(o);
        if (!inst || !inst->get(a.attr)) {
          fail("AttributeError: '" + py_type_name(o) + "' object has no attribute '" + a.attr + "'",
               t.range);
        }
        inst->values.erase(a.attr);
        std::erase(inst->order, a.attr);
        std::erase(inst->params, a.attr);
        std::erase(inst->children, a.attr);
        break;
      }
      case ast::ExprKind::Tuple:
      case ast::ExprKind::List: {
        const auto& elts = t.kind == ast::ExprKind::Tuple ? t.as<ast::TupleExpr>().elts
                                                          : t.as<ast::ListExpr>().elts;
        for (auto it = elts.rbegin(); it != elts.rend(); ++it) work.push_back(it->get());
        break;
      }
      default:
        fail("SyntaxError: cannot delete this expression", t.range);
    }
  }
}

// -------------------------------------------------------------------- builtins

std::optional<IValue> Interpreter::call_more_builtins(const std::string& q, ValueList& args,
                                                      Kwargs& kwargs, const SourceRange& range) {
  if (is_exception_type(q)) {
    if (!kwargs.empty()) fail("TypeError: " + q + "() takes no keyword arguments", range);
    return obj(std::make_shared<ExceptionValue>(q, std::move(args)));
  }
  auto less = [&](const IValue& a, const IValue& b) {
    return truthy(compare(ast::CmpOpKind::Lt, a, b, range), range);
  };
  const bool has_key =
      std::any_of(kwargs.begin(), kwargs.end(), [](const auto& kv) { return kv.first == "key"; });
  if (q == "sorted" || ((q == "min" || q == "max") && has_key)) {
    IValue key_fn, reverse(false), dflt;
    bool has_default = false;
    for (auto& [k, v] : kwargs) {
      if (k == "key") {
        key_fn = v;
      } else if (k == "reverse" && q == "sorted") {
        reverse = v;
      } else if (k == "default" && q != "sorted") {
        dflt = v;
        has_default = true;
      } else {
        fail("TypeError: '" + k + "' is an invalid keyword argument for " + q + "()", range);
      }
    }
    if (args.empty()) fail("TypeError: " + q + " expected at least 1 argument, got 0", range);
    ValueList items = args.size() == 1 ? iterate(args[0], range) : args;
    if (q == "sorted" && args.size() != 1) {
      fail("TypeError: sorted expected 1 argument, got " + std::to_string(args.size()), range);
    }
    ValueList keys;
    for (const IValue& x : items) {
      keys.push_back(key_fn.is_none() ? x : call_value(key_fn, {x}, {}, range));
    }
    if (q != "sorted") {
      if (items.empty()) {
        if (has_default) return dflt;
        fail("ValueError: " + q + "() arg is an empty sequence", range);
      }
      size_t best = 0;
      for (size_t i = 1; i < items.size(); ++i) {
        if (q == "max" ? less(keys[best], keys[i]) : less(keys[i], keys[best])) best = i;
      }
      return items[best];
    }
    std::vector<size_t> order(items.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    const bool rev = truthy(reverse, range);
    // Python's sort is stable, also reversed (equal items keep their order).
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return rev ? less(keys[b], keys[a]) : less(keys[a], keys[b]);
    });
    ValueList out;
    for (size_t i : order) out.push_back(items[i]);
    return IValue::list(std::move(out));
  }
  if (q == "reversed") {
    if (!kwargs.empty() || args.size() != 1) {
      fail("TypeError: reversed expected 1 argument, got " + std::to_string(args.size()), range);
    }
    if (as_dict(args[0]) && as_dict(args[0])->is_set) {
      fail("TypeError: 'set' object is not reversible", range);
    }
    ValueList items = iterate(args[0], range);
    std::reverse(items.begin(), items.end());
    return IValue::list(std::move(items));
  }
  if (q == "any" || q == "all") {
    if (!kwargs.empty() || args.size() != 1) {
      fail("TypeError: " + q + "() takes exactly one argument (" + std::to_string(args.size()) +
               " given)",
           range);
    }
    for (const IValue& x : iterate(args[0], range)) {
      bool t = truthy(x, range);
      if (q == "any" && t) return IValue(true);
      if (q == "all" && !t) return IValue(false);
    }
    return IValue(q == "all");
  }
  if (q == "dict" || q == "set") {
    auto d = std::make_shared<DictValue>(q == "set");
    IValue self = obj(d);
    if (args.size() > 1) {
      fail("TypeError: " + q + " expected at most 1 argument, got " + std::to_string(args.size()),
           range);
    }
    if (q == "set" && !kwargs.empty()) fail("TypeError: set() takes no keyword arguments", range);
    d->call_method(*this, "update", std::move(args), std::move(kwargs), range);
    return self;
  }
  if (q == "repr") {
    if (args.size() != 1 || !kwargs.empty())
      fail("TypeError: repr() takes exactly one argument", range);
    return IValue(py_repr(args[0]));
  }
  if (q == "callable") {
    if (args.size() != 1 || !kwargs.empty()) {
      fail("TypeError: callable() takes exactly one argument", range);
    }
    const IValue& v = args[0];
    bool yes = as_obj<FunctionValue>(v) || as_obj<BoundMethodValue>(v) || as_obj<BuiltinValue>(v) ||
               as_obj<BuiltinMethodValue>(v) || as_obj<ClassValue>(v) ||
               (as_obj<NativeValue>(v) && !as_dict(v));
    if (auto* inst = as_obj<InstanceValue>(v)) yes = inst->is_module;
    return IValue(yes);
  }
  return std::nullopt;
}

}  // namespace d2s::interp
