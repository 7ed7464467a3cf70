// Calls: Python builtins, torch functions and tensor methods (registry ops chosen by
// argument types), user functions and methods (inlined), and module calls.
#include <cctype>

#include "convert/lower_attention.h"
#include "convert/lowerer.h"
#include "convert/schema_match.h"
#include "convert/shape_rules.h"
#include "core/ops/op_registry.h"
#include "parse/decorators.h"
#include "trace/functional_signatures.h"
#include "trace/py_objects.h"

namespace d2s::convert {

using ir::Type;
using ir::TypeKind;

namespace {

bool is_list_type(const std::string& schema_type) {
  std::string t = schema_type;
  if (!t.empty() && t.back() == '?') t.pop_back();
  return t.size() > 2 && t.compare(t.size() - 2, 2, "[]") == 0;
}

}  // namespace

CallArgs Lowerer::emit_args(const ast::Call& call) {
  CallArgs args;
  for (const ast::ExprPtr& a : call.args) {
    if (a->kind == ast::ExprKind::Starred) {
      for (Sugared& item : spread_items(a->as<ast::Starred>()))
        args.positional.push_back(CallArg{std::move(item), a->range, nullptr});
      continue;
    }
    args.positional.push_back(CallArg{emit_sugared(*a), a->range, a.get()});
  }
  for (const ast::Keyword& kw : call.keywords) {
    if (kw.name.empty()) {
      // `f(**kwargs)` of keywords gathered at conversion time: spread key by key. A
      // graph dict's keys are known only when it runs, and calls bind keywords here.
      Sugared spread = emit_sugared(*kw.value);
      if (spread.kind == Sugared::Kind::Keywords) {
        spread_keywords(spread, kw.range, &args);
        continue;
      }
      fail("'**' of " +
               (spread.is_value() ? "a " + spread.value->type().str() : spread.describe()) +
               " in a call is not supported by the parse route",
           kw.range,
           std::string("the route binds keywords at conversion time, so it spreads only the "
                       "'**kwargs' of an enclosing function; ") +
               kEagerRuns);
    }
    for (const auto& [name, v] : args.keywords) {
      if (name == kw.name) fail("SyntaxError: keyword argument repeated: " + kw.name, kw.range);
    }
    args.keywords.emplace_back(kw.name,
                               CallArg{emit_sugared(*kw.value), kw.value->range, kw.value.get()});
  }
  return args;
}

Sugared Lowerer::emit_call(const ast::Call& call) {
  Sugared callee = emit_sugared(*call.func);
  // backward() is an aten::backward node with an effect (TorchScript keeps it so too):
  // the executor runs autograd there, as eager mode does. requires_grad_() adds
  // nothing (a parsed graph's inputs require grad through the inputs file).
  if (callee.kind == Sugared::Kind::Method && callee.value && callee.value->type().is_tensor()) {
    if (callee.name == "backward") {
      CallArgs args = emit_args(call);
      args.positional.insert(args.positional.begin(),
                             CallArg{Sugared::of(callee.value), call.range, nullptr});
      return Sugared::of(emit_op("aten::backward", args.positional, args.keywords, call.range));
    }
    if (callee.name == "requires_grad_") return Sugared::of(callee.value);
  }
  return call_sugared(callee, emit_args(call), call.range);
}

Sugared Lowerer::call_sugared(const Sugared& callee, CallArgs args, const SourceRange& range) {
  switch (callee.kind) {
    case Sugared::Kind::Builtin:
      if (callee.fields && callee.name.rfind("collections.namedtuple:", 0) == 0) {
        return make_namedtuple(callee, args, range);
      }
      return call_builtin(callee.name, args, range);
    case Sugared::Kind::Function:
      return call_user_function(*callee.fn, callee.name, std::nullopt, args, range, callee.closure);
    case Sugared::Kind::Module:
      return call_module(callee, args, range);
    case Sugared::Kind::Method:
      if (!callee.value && !callee.module && callee.fields) {  // kwargs.get(...)
        return call_keywords_method(callee, args, range);
      }
      if (callee.module && !callee.fn &&
          callee.module->instance->nn == interp::NnKind::ModuleDict && callee.name != "forward") {
        return call_module_dict_method(callee, args, range);
      }
      if (callee.module && !callee.fn && is_parameter_walk(*callee.module->instance, callee.name)) {
        return call_parameter_walk(callee, args, range);
      }
      if (callee.module && !callee.fn) return call_nn_forward(callee, args, range);  // super()
      if (callee.module) {
        const std::string& type = callee.module->instance->type;
        Sugared self = Sugared::of_kind(Sugared::Kind::Module, callee.module->prefix);
        self.module = callee.module;
        // A @staticmethod takes no self (parse/decorators.h).
        return call_user_function(
            *callee.fn, type + "." + callee.name,
            ast::is_staticmethod(*callee.fn) ? std::nullopt : std::optional<Sugared>(self), args,
            range);
      }
      return call_method(callee.value, callee.name, args, range);
    case Sugared::Kind::Class:
      fail("creating an instance of '" + callee.name + "' is not supported by the parse route",
           range, "create modules in __init__ and call them in forward");
    case Sugared::Kind::Namespace:
      fail("TypeError: 'module' object is not callable", range);
    case Sugared::Kind::Super:
      fail("TypeError: 'super' object is not callable", range);
    case Sugared::Kind::Partial:
      return call_partial(callee, std::move(args), range);
    case Sugared::Kind::Items:
      fail("TypeError: 'tuple' object is not callable", range);
    case Sugared::Kind::Iterator:
      fail("TypeError: 'iterator' object is not callable", range);
    case Sugared::Kind::Keywords:
      fail("TypeError: 'dict' object is not callable", range);
    case Sugared::Kind::Value:
      fail("TypeError: '" + callee.value->type().str() + "' object is not callable", range);
  }
  fail("this cannot be called", range);
}

Sugared Lowerer::call_user_function(const ast::FunctionDef& fn, const std::string& qualname,
                                    std::optional<Sugared> self, CallArgs& args,
                                    const SourceRange& range, int closure) {
  // Python's binding of arguments to parameters; then the body is inlined. `*args`
  // becomes a tuple (its length is known here); keyword-only parameters take only
  // keywords; `**kwargs` gathers the others, key by key (lower_kwargs.cpp).
  const size_t n = fn.params.size();
  const size_t first = self ? 1 : 0;
  std::vector<std::optional<Sugared>> bound(n);
  if (self) {
    if (n == 0) fail("TypeError: " + qualname + "() takes no arguments, not even self", range);
    bound[0] = *self;
  }
  size_t positional_params = 0;
  size_t varargs = n, varkw = n;
  for (size_t i = first; i < n; ++i) {
    if (fn.params[i].kind == ast::ParamKind::Normal) ++positional_params;
    if (fn.params[i].kind == ast::ParamKind::VarArgs) varargs = i;
    if (fn.params[i].kind == ast::ParamKind::VarKw) varkw = i;
  }
  if (args.positional.size() > positional_params && varargs == n) {
    fail("TypeError: " + qualname + "() takes " + std::to_string(positional_params) +
             " positional argument(s) but " + std::to_string(args.positional.size()) +
             " were given",
         range);
  }
  std::vector<ir::Value*> extra;
  for (size_t i = 0; i < args.positional.size(); ++i) {
    if (i < positional_params) {
      bound[first + i] = args.positional[i].value;
    } else {
      extra.push_back(as_value(args.positional[i].value, args.positional[i].range));
    }
  }
  if (varargs < n) bound[varargs] = Sugared::of(make_tuple(extra, range));
  std::vector<std::string> extra_keys;  // gathered by `**kwargs`
  std::vector<Sugared> extra_values;
  for (auto& [name, arg] : args.keywords) {
    size_t i = first;
    while (i < n && !(fn.params[i].name == name && (fn.params[i].kind == ast::ParamKind::Normal ||
                                                    fn.params[i].kind == ast::ParamKind::KwOnly)))
      ++i;
    if (i == n) {
      if (varkw < n) {
        extra_keys.push_back(name);
        extra_values.push_back(arg.value);
        continue;
      }
      fail("TypeError: " + qualname + "() got an unexpected keyword argument '" + name + "'",
           arg.range);
    }
    if (bound[i]) {
      fail("TypeError: " + qualname + "() got multiple values for argument '" + name + "'",
           arg.range);
    }
    bound[i] = arg.value;
  }
  std::vector<Sugared> values;
  for (size_t i = 0; i < n; ++i) {
    if (i == varkw) {
      values.push_back(
          make_keywords(fn.params[i].name, std::move(extra_keys), std::move(extra_values)));
      continue;
    }
    if (!bound[i]) {
      if (!fn.params[i].default_value) {
        fail("TypeError: " + qualname + "() missing required argument: '" + fn.params[i].name + "'",
             range);
      }
      // Defaults see only globals (they are evaluated where the def is, in Python).
      Environment* saved = env_;
      env_ = nullptr;
      bound[i] = emit_sugared(*fn.params[i].default_value);
      env_ = saved;
    }
    values.push_back(*bound[i]);
  }
  return lower_function(fn, qualname, std::move(values), range, closure);
}

// ----------------------------------------------------------------- builtins

Sugared Lowerer::call_builtin(const std::string& q, CallArgs& args, const SourceRange& range) {
  if (std::optional<Sugared> r = call_iter_builtin(q, args, range)) return *r;
  if (std::optional<Sugared> r = call_next_iter(q, args, range)) return *r;
  if (std::optional<Sugared> r = call_stdlib(q, args, range)) return *r;
  auto value_args = [&]() {
    std::vector<ir::Value*> vs;
    for (const CallArg& a : args.positional) vs.push_back(as_value(a.value, a.range));
    return vs;
  };
  auto expect_args = [&](size_t lo, size_t hi) {
    if (!args.keywords.empty()) {
      fail("TypeError: " + q + "() takes no keyword arguments", args.keywords[0].second.range);
    }
    if (args.positional.size() < lo || args.positional.size() > hi) {
      fail("TypeError: " + q + "() takes " +
               (lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi)) +
               " argument(s) (" + std::to_string(args.positional.size()) + " given)",
           range);
    }
  };
  if (q == "torch.jit.annotate" || q == "typing.cast") {
    // The value itself: the parse route types it from what it holds. An Optional
    // annotated as its element (`torch.jit.annotate(torch.Tensor, bias)`, as `d2s code`
    // writes a refinement) is prim::unchecked_cast: the value is not None.
    expect_args(2, 2);
    const Sugared& v = args.positional[1].value;
    const std::string type_text = text_of(args.positional[0].range);
    if (v.is_value() && v.value->type().kind == TypeKind::Optional &&
        !v.value->type().elements.empty() && type_text.find("Optional") == std::string::npos &&
        type_text != "Any" && type_text != "typing.Any") {
      ir::Value* cast = emit_op("prim::unchecked_cast", {v.value}, range);
      cast->set_type(v.value->type().elements[0]);
      return Sugared::of(cast);
    }
    return v;
  }
  if (q == "dict") return call_dict_builtin(args, range);  // lower_dict.cpp
  if (q == "print") {
    for (const auto& [name, a] : args.keywords) {
      fail("print(" + name + "=...) is not supported by the parse route", a.range,
           "prim::Print writes its arguments separated by spaces, then a newline");
    }
    std::vector<ir::Value*> shown;
    for (const CallArg& a : args.positional)
      shown.push_back(printed_form(as_value(a.value, a.range), a.range));
    graph_.insert(ir::kind::Print, shown, 0, range);
    return Sugared::of(constant(IValue(), range));
  }
  if (q == "range") {
    fail("range() is only supported as the iterable of a for loop by the parse route", range,
         "write `for i in range(...)`, or use torch.arange for a tensor");
  }
  if (q == "len") {
    expect_args(1, 1);
    // len(self.blocks) of an nn.Sequential / nn.ModuleList: known at conversion time.
    if (args.positional[0].value.kind == Sugared::Kind::Module) {
      const size_t n = module_children(args.positional[0].value, range).size();
      return Sugared::of(constant(IValue(static_cast<int64_t>(n)), range));
    }
    if (args.positional[0].value.kind == Sugared::Kind::Items ||
        args.positional[0].value.kind == Sugared::Kind::Keywords) {
      const size_t n = args.positional[0].value.items->size();
      return Sugared::of(constant(IValue(static_cast<int64_t>(n)), range));
    }
    ir::Value* v = value_args()[0];
    const Type& t = v->type();
    if (t.kind == TypeKind::Tuple)
      return Sugared::of(constant(IValue(int64_t(t.elements.size())), range));
    if (auto items = static_list_items(v, range)) {
      return Sugared::of(constant(IValue(int64_t(items->size())), range));
    }
    if (t.kind == TypeKind::Str) {
      if (auto c = constant_value(v))
        return Sugared::of(constant(IValue(int64_t(c->to_string().size())), range));
    }
    return Sugared::of(emit_op("aten::len", {v}, range));
  }
  if (q == "int" || q == "float" || q == "bool") {
    expect_args(0, 1);
    if (args.positional.empty()) {
      IValue zero = q == "int" ? IValue(int64_t{0}) : q == "float" ? IValue(0.0) : IValue(false);
      return Sugared::of(constant(zero, range));
    }
    ir::Value* v = value_args()[0];
    TypeKind want = q == "int" ? TypeKind::Int : q == "float" ? TypeKind::Float : TypeKind::Bool;
    if (v->type().kind == want) return Sugared::of(v);
    if (q == "bool") return Sugared::of(to_bool(v, range));
    return Sugared::of(emit_op(q == "int" ? "aten::Int" : "aten::Float", {v}, range));
  }
  if (q == "sorted") {
    // A new list, sorted in place (aten::list, then aten::sort, as list.sort is).
    if (args.positional.size() != 1) {
      fail("TypeError: sorted expected 1 argument, got " + std::to_string(args.positional.size()),
           range);
    }
    ir::Value* copy =
        list_copy(as_list(as_value(args.positional[0].value, args.positional[0].range),
                          args.positional[0].range),
                  range);
    CallArgs flags;
    flags.keywords = std::move(args.keywords);
    list_sort(copy, flags, range);
    return Sugared::of(copy);
  }
  if (q == "min" || q == "max") {
    // Python's min/max on numbers: prim::min / prim::max, pairwise.
    if (!args.keywords.empty()) fail(q + "() with keyword arguments is not supported", range);
    std::vector<ir::Value*> vs = value_args();
    if (vs.size() == 1 && vs[0]->type().kind == TypeKind::Tuple) vs = tuple_items(vs[0], range);
    if (vs.size() == 1 && vs[0]->type().kind == TypeKind::List) {
      // max(sizes) of a list of numbers: prim::max.list when the graph runs (an empty
      // list is Python's ValueError then).
      const Type& t = vs[0]->type();
      const TypeKind k = t.elements.empty() ? TypeKind::Any : t.elements[0].kind;
      if (k != TypeKind::Int && k != TypeKind::Float && k != TypeKind::Bool) {
        fail("the builtin " + q + "() of a " + t.str() + " is not supported by the parse route",
             range, std::string("the graph takes min/max of lists of numbers; ") + kEagerRuns);
      }
      ir::Value* out = emit_op("prim::" + q, {vs[0]}, range);
      out->set_type(t.elements[0]);
      return Sugared::of(out);
    }
    if (vs.size() < 2) {
      fail("TypeError: " + q + "() of one value is not supported by the parse route", range,
           "for a tensor use torch." + q + "(t) or t." + q + "()");
    }
    for (ir::Value* v : vs) {
      if (v->type().is_tensor()) {
        fail("the builtin " + q + "() on tensors is not supported by the parse route", range,
             q == "max" ? "use torch.maximum(a, b)" : "use torch.minimum(a, b)");
      }
    }
    ir::Value* acc = vs[0];
    for (size_t i = 1; i < vs.size(); ++i) acc = emit_op("prim::" + q, {acc, vs[i]}, range);
    return Sugared::of(acc);
  }
  if (q == "abs") {
    expect_args(1, 1);
    return Sugared::of(emit_op("aten::abs", value_args(), range));
  }
  if (q == "torch.range") {
    // PyTorch's deprecated, end-inclusive range: rejected as eager mode rejects it
    // without `end`; with it, pointed to torch.arange (end excluded).
    const std::string hint =
        "torch.range is deprecated; use range(...) in a for loop, or torch.arange(start, end) "
        "(end excluded)";
    if (args.positional.size() + args.keywords.size() < 2) {
      fail("TypeError: range() missing 1 required positional argument: 'end'", range, hint);
    }
    fail("torch.range is not supported by the parse route", range, hint);
  }
  if (q == "super") return make_super(args, range);
  if (q == "torch.nn.Transformer.generate_square_subsequent_mask") {
    return lower_square_subsequent_mask(*this, args, range);
  }
  if (q == "torch.nn.functional.embedding") return call_functional_embedding(args, range);
  if (q == "torch.nn.functional.interpolate" || q == "torch.nn.functional.upsample") {
    return call_functional_interpolate(q.substr(q.rfind('.') + 1), args, range);
  }
  if (auto r = call_reflection(q, args, range)) return *r;
  if (q == "torch.jit.script" || q == "torch.compile") {
    if (args.positional.size() == 1) return args.positional[0].value;  // the identity
  }
  if (q == "torch.nn.Parameter" || (q.rfind("torch.nn.", 0) == 0 && q.size() > 9 &&
                                    std::isupper(static_cast<unsigned char>(q[9])))) {
    fail("creating " + q.substr(q.rfind('.') + 1) + " inside the converted code is not supported",
         range, "create parameters and modules in __init__");
  }
  if (q == "torch.nonzero") return call_nonzero(args, range);
  if (q == "torch.finfo" || q == "torch.iinfo") return call_type_info(q, args, range);
  // The CPU, as eager mode has it (trace/torch_names.cpp): a device is its string.
  if (q == "torch.cuda.is_available") return Sugared::of(bool_const(false));
  if (q == "torch.cuda.device_count") return Sugared::of(constant(IValue(int64_t{0}), range));
  if (q == "torch.device") {
    expect_args(1, 1);
    ir::Value* name = value_args()[0];
    if (name->type().kind != TypeKind::Str) {
      fail("TypeError: device() received an invalid combination of arguments - got (" +
               name->type().str() + ")",
           range, "give the device as a string: torch.device(\"cpu\")");
    }
    return Sugared::of(name);
  }
  if (const interp::FunctionalSignature* sig = interp::functional_signature(q)) {
    return Sugared::of(call_functional_signature(*sig, args, range));
  }
  if (auto op = op_for_function(q)) {
    if (*op == "aten::einsum" && args.positional.size() >= 2 &&
        as_value(args.positional[1].value, range)->type().is_tensor()) {
      // torch.einsum(eq, a, b): the operands as the one Tensor[] argument.
      std::vector<ir::Value*> operands;
      for (size_t i = 1; i < args.positional.size(); ++i) {
        operands.push_back(as_value(args.positional[i].value, args.positional[i].range));
      }
      args.positional.resize(1);
      args.positional.push_back({Sugared::of(make_list(operands, range)), range});
    }
    return Sugared::of(emit_op(*op, args.positional, args.keywords, range));
  }
  if (q.find('.') == std::string::npos) {
    fail("the builtin " + q + "() is not supported by the parse route", range,
         "docs/language.md lists what the model language supports");
  }
  fail(q + " is not supported by d2s", range,
       "docs/language.md, \"Operators\", says which groups of operators d2s supports");
}

// ----------------------------------------------------------------- methods

Sugared Lowerer::call_method(ir::Value* self, const std::string& name, CallArgs& args,
                             const SourceRange& range) {
  const Type& t = self->type();
  if (t.kind == TypeKind::List) return call_list_method(self, name, args, range);
  if (t.kind == TypeKind::Dict) return call_dict_method(self, name, args, range);
  if (t.kind == TypeKind::Str) {
    // str methods are ops, as in TorchScript graphs (core/ops/kernels_str.cpp); a label
    // known at conversion time folds to a constant. Python's keyword names become the
    // schemas' (split's sep/maxsplit are separator/max, replace's count is max).
    static const char* const kStrOps[] = {"join",       "upper",    "lower",   "strip", "format",
                                          "startswith", "endswith", "replace", "split"};
    if (std::find(std::begin(kStrOps), std::end(kStrOps), name) != std::end(kStrOps)) {
      std::vector<CallArg> positional;
      positional.push_back(CallArg{Sugared::of(self), range, nullptr});
      for (const CallArg& a : args.positional) positional.push_back(a);
      for (auto& [key, arg] : args.keywords) {
        if (name == "split" && key == "sep") key = "separator";
        if ((name == "split" && key == "maxsplit") || (name == "replace" && key == "count")) {
          key = "max";
        }
      }
      return Sugared::of(emit_op("aten::" + name, positional, args.keywords, range));
    }
  }
  if (!t.is_tensor() && t.kind != TypeKind::Any) {
    fail("'" + t.str() + "' object has no method '" + name + "' in the parse route", range,
         t.kind == TypeKind::List ? "lists cannot be changed in the parse route; build a new one"
                                  : "");
  }
  std::vector<CallArg> positional;
  positional.push_back(CallArg{Sugared::of(self), range, nullptr});
  for (const CallArg& a : args.positional) positional.push_back(a);
  if (name == "dim" || name == "ndimension")
    return Sugared::of(emit_op("aten::dim", positional, args.keywords, range));
  if (name == "numel" || name == "nelement")
    return Sugared::of(emit_op("aten::numel", positional, args.keywords, range));
  // contiguous() stays a node, as TorchScript keeps it: of a non-contiguous view it is
  // a copy, whose writes do not reach the base (core/autograd/views.h).
  if (name == "cpu") {
    if (positional.size() == 1 && args.keywords.empty()) return Sugared::of(self);
  }
  if (name == "to") {
    // x.to(device): the graph runs on the CPU, where a device is its string ("cpu", as
    // torch.device gives it in d2s); the device is dropped and what else the call asks
    // (a dtype) stays. x.to("cpu") alone is x, as PyTorch returns the tensor itself.
    auto is_device = [&](const CallArg& a) {
      if (!a.value.is_value() || a.value.value->type().kind != TypeKind::Str) return false;
      std::optional<IValue> c = static_value(a.value.value);
      if (!c || c->to_string().rfind("cpu", 0) != 0) {
        fail("Tensor.to() of a device other than the CPU is not supported by the parse route",
             a.range,
             "d2s runs on the CPU: torch.device(\"cuda\" if torch.cuda.is_available() "
             "else \"cpu\") is \"cpu\" in d2s");
      }
      return true;
    };
    std::vector<CallArg> kept{positional[0]};
    for (size_t i = 1; i < positional.size(); ++i) {
      if (!is_device(positional[i])) kept.push_back(positional[i]);
    }
    std::vector<std::pair<std::string, CallArg>> keywords;
    bool dtype = kept.size() > 1;
    for (auto& kw : args.keywords) {
      if (kw.first == "device" && is_device(kw.second)) continue;
      dtype = dtype || kw.first == "dtype";
      keywords.push_back(kw);
    }
    if (!dtype) return Sugared::of(self);  // only a device (and non_blocking/copy flags)
    positional = std::move(kept);
    args.keywords = std::move(keywords);
  }
  if (name == "float" || name == "long" || name == "int" || name == "bool") {
    DType d = name == "float" ? DType::Float32 : name == "bool" ? DType::Bool : DType::Int64;
    return Sugared::of(
        emit_op("aten::to", {self, constant(IValue(dtype_scalar_type(d)), range)}, range));
  }
  if (name == "nonzero") {
    CallArgs with_self{positional, args.keywords};
    return call_nonzero(with_self, range);
  }
  std::optional<std::string> op = op_for_method(name);
  if (!op && name == "item") op = "aten::item";
  if (!op) {
    fail("AttributeError: 'Tensor' object has no attribute '" + name + "' that d2s supports",
         range);
  }
  return Sugared::of(emit_op(*op, positional, args.keywords, range));
}

// ----------------------------------------------------------------- registry ops

ir::Value* Lowerer::emit_op(const std::string& base_name, const std::vector<ir::Value*>& positional,
                            const SourceRange& range) {
  std::vector<CallArg> args;
  for (ir::Value* v : positional) args.push_back(CallArg{Sugared::of(v), range, nullptr});
  return emit_op(base_name, args, {}, range);
}

ir::Value* Lowerer::emit_op(const std::string& base_name, const std::vector<CallArg>& positional,
                            const std::vector<std::pair<std::string, CallArg>>& keywords,
                            const SourceRange& range) {
  std::vector<ir::Value*> given;
  given.reserve(positional.size() + keywords.size());
  std::vector<ArgInfo> pos_info;
  pos_info.reserve(positional.size());
  std::vector<std::pair<std::string, ArgInfo>> kw_info;
  for (const CallArg& a : positional) {
    ir::Value* v = as_value(a.value, a.range);
    given.push_back(v);
    pos_info.push_back(ArgInfo{&v->type(), constant_value(v)});
  }
  for (const auto& [name, a] : keywords) {
    ir::Value* v = as_value(a.value, a.range);
    given.push_back(v);
    kw_info.emplace_back(name, ArgInfo{&v->type(), constant_value(v)});
  }
  SchemaMatch m = match_op(base_name, pos_info, kw_info, range);
  const OpSchema& schema = m.op->schema;

  // Inputs in schema order (kwarg-only ones included, as TorchScript lists them). A
  // default before a given argument becomes a constant; trailing defaults are left
  // out: the executor and the registry fill them in, and the graph reads shorter.
  size_t last = 0;
  for (size_t i = 0; i < m.slots.size(); ++i) {
    if (m.slots[i].kind != SchemaMatch::Slot::Kind::Default) last = i + 1;
  }
  if (!m.varargs.empty()) last = m.slots.size();
  std::vector<ir::Value*> inputs;
  inputs.reserve(last + m.varargs.size());
  for (size_t i = 0; i < last; ++i) {
    const auto& slot = m.slots[i];
    switch (slot.kind) {
      case SchemaMatch::Slot::Kind::Default:
        inputs.push_back(constant(slot.default_value, range));
        break;
      case SchemaMatch::Slot::Kind::PackedInts: {
        std::vector<ir::Value*> items;
        for (size_t g : slot.packed) items.push_back(given[g]);
        inputs.push_back(make_list(items, range));
        break;
      }
      case SchemaMatch::Slot::Kind::Given: {
        ir::Value* v = given[slot.given];
        // A list argument gets a list, as TorchScript builds it: (4,) → [4], 3 → [3].
        if (is_list_type(*slot.type)) {
          if (v->node()->kind() == ir::kind::TupleConstruct) {
            v = make_list(v->node()->inputs(), range);
          } else if (v->type().kind == TypeKind::Int) {
            v = make_list({v}, range);
          }
        }
        inputs.push_back(v);
        break;
      }
    }
  }
  for (size_t g : m.varargs) inputs.push_back(given[g]);

  const size_t n_out = schema.returns.size();
  ir::Node* n = graph_.insert(base_name, inputs, n_out, range);
  // A value of type Any (`n and x`: an int or a tensor) leaves the overload to the
  // executor, which picks it per call from the values it gets.
  bool open = false;
  for (ir::Value* v : given) open |= v->type().kind == TypeKind::Any;
  open &= OpRegistry::builtin().overloads(base_name).size() > 1;
  if (!open) n->set_overload(schema.overload);
  std::vector<Type> out_types = result_types(*m.op, inputs);
  for (size_t i = 0; i < n_out; ++i) n->output(i)->set_type(open ? Type::any() : out_types[i]);
  infer_node_types(*n);  // dtypes and shapes where the rules know them
  if (n_out == 1) return n->output();
  if (n_out == 0) return constant(IValue(), range);
  return make_tuple(n->outputs(), range);
}

}  // namespace d2s::convert
