// Calls: dispatch on the callee, user functions and methods with Python's argument
// binding, class instantiation, tensor methods, and call_op — the one path every op
// of the registry runs through (and where the tracer's after_op hook sits).
#include <algorithm>
#include <new>

#include "core/autograd/autograd.h"
#include "trace/interp.h"
#include "trace/native_value.h"

namespace d2s::interp {

// Pushes a frame for a call and pops it however the call ends.
class CallGuard {
 public:
  CallGuard(Interpreter& in, Frame& frame) : in_(in) {
    in_.frames_.push_back(&frame);
    ++in_.call_depth_;
  }
  ~CallGuard() {
    in_.frames_.pop_back();
    --in_.call_depth_;
  }
  CallGuard(const CallGuard&) = delete;
  CallGuard& operator=(const CallGuard&) = delete;

 private:
  Interpreter& in_;
};

namespace {

IValue obj(std::shared_ptr<Object> o) {
  return IValue(std::move(o));
}

std::string plural(size_t n, const std::string& word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

// Python's wording for a list of names: 'x', 'x' and 'y', 'x', 'y', and 'z'.
std::string name_list(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += names.size() == 2 ? " and " : (i + 1 == names.size() ? ", and " : ", ");
    out += "'" + names[i] + "'";
  }
  return out;
}

// Binds positional and keyword arguments to parameters as Python does, with its
// TypeError messages.
ValueList bind_params(const std::string& fname, const std::vector<std::string>& names,
                      const std::vector<std::optional<IValue>>& defaults, ValueList args,
                      Kwargs kwargs, const SourceRange& range) {
  const size_t n = names.size();
  if (args.size() > n) {
    size_t required = 0;
    for (const auto& d : defaults) required += d ? 0 : 1;
    std::string takes = required == n
                            ? std::to_string(n)
                            : "from " + std::to_string(required) + " to " + std::to_string(n);
    throw Error("TypeError: " + fname + "() takes " + takes + " positional argument" +
                    (n == 1 && required == n ? "" : "s") + " but " + std::to_string(args.size()) +
                    (args.size() == 1 ? " was" : " were") + " given",
                range);
  }
  std::vector<std::optional<IValue>> slots(n);
  for (size_t i = 0; i < args.size(); ++i) slots[i] = std::move(args[i]);
  for (auto& [key, value] : kwargs) {
    auto it = std::find(names.begin(), names.end(), key);
    if (it == names.end()) {
      std::string near = closest_name(key, names);
      throw Error("TypeError: " + fname + "() got an unexpected keyword argument '" + key + "'",
                  range, near.empty() ? "" : "did you mean '" + near + "'?");
    }
    size_t i = static_cast<size_t>(it - names.begin());
    if (slots[i]) {
      throw Error("TypeError: " + fname + "() got multiple values for argument '" + key + "'",
                  range);
    }
    slots[i] = std::move(value);
  }
  std::vector<std::string> missing;
  for (size_t i = 0; i < n; ++i) {
    if (!slots[i] && !defaults[i]) missing.push_back(names[i]);
  }
  if (!missing.empty()) {
    throw Error("TypeError: " + fname + "() missing " +
                    plural(missing.size(), "required positional argument") + ": " +
                    name_list(missing),
                range);
  }
  ValueList out;
  out.reserve(n);
  for (size_t i = 0; i < n; ++i) out.push_back(slots[i] ? std::move(*slots[i]) : *defaults[i]);
  return out;
}

void collect_targets(const ast::Expr& t, std::vector<std::string>* out) {
  if (t.kind == ast::ExprKind::Name) out->push_back(t.as<ast::Name>().id);
  if (t.kind == ast::ExprKind::Tuple) {
    for (const auto& e : t.as<ast::TupleExpr>().elts) collect_targets(*e, out);
  }
  if (t.kind == ast::ExprKind::List) {
    for (const auto& e : t.as<ast::ListExpr>().elts) collect_targets(*e, out);
  }
}

// Every name a block binds (Python's rule for what is local to a function).
void collect_locals(const ast::Body& body, std::vector<std::string>* out) {
  for (const ast::StmtPtr& s : body) {
    switch (s->kind) {
      case ast::StmtKind::Assign:
        for (const auto& t : s->as<ast::Assign>().targets) collect_targets(*t, out);
        break;
      case ast::StmtKind::AugAssign:
        collect_targets(*s->as<ast::AugAssign>().target, out);
        break;
      case ast::StmtKind::AnnAssign:
        collect_targets(*s->as<ast::AnnAssign>().target, out);
        break;
      case ast::StmtKind::For:
        collect_targets(*s->as<ast::For>().target, out);
        collect_locals(s->as<ast::For>().body, out);
        break;
      case ast::StmtKind::While:
        collect_locals(s->as<ast::While>().body, out);
        break;
      case ast::StmtKind::With:
        for (const auto& item : s->as<ast::With>().items) {
          if (item.target) collect_targets(*item.target, out);
        }
        collect_locals(s->as<ast::With>().body, out);
        break;
      case ast::StmtKind::If:
        collect_locals(s->as<ast::If>().body, out);
        collect_locals(s->as<ast::If>().orelse, out);
        break;
      case ast::StmtKind::FunctionDef:
        out->push_back(s->as<ast::FunctionDef>().name);
        break;
      case ast::StmtKind::ClassDef:
        out->push_back(s->as<ast::ClassDef>().name);
        break;
      case ast::StmtKind::Import:
        for (const auto& a : s->as<ast::Import>().names) {
          out->push_back(!a.asname.empty() ? a.asname : a.name.substr(0, a.name.find('.')));
        }
        break;
      case ast::StmtKind::ImportFrom:
        for (const auto& a : s->as<ast::ImportFrom>().names) {
          out->push_back(!a.asname.empty() ? a.asname : a.name);
        }
        break;
      case ast::StmtKind::Try: {
        const auto& t = s->as<ast::Try>();
        collect_locals(t.body, out);
        for (const ast::ExceptHandler& h : t.handlers) {
          if (!h.name.empty()) out->push_back(h.name);
          collect_locals(h.body, out);
        }
        collect_locals(t.orelse, out);
        collect_locals(t.finalbody, out);
        break;
      }
      case ast::StmtKind::Delete:
        for (const auto& t : s->as<ast::Delete>().targets) collect_targets(*t, out);
        break;
      default:
        break;
    }
  }
}

// The names `global` statements declare, nested blocks included.
void collect_globals(const ast::Body& body, std::vector<std::string>* out) {
  for (const ast::StmtPtr& s : body) {
    switch (s->kind) {
      case ast::StmtKind::Global:
        for (const std::string& n : s->as<ast::Global>().names) out->push_back(n);
        break;
      case ast::StmtKind::For:
        collect_globals(s->as<ast::For>().body, out);
        break;
      case ast::StmtKind::While:
        collect_globals(s->as<ast::While>().body, out);
        break;
      case ast::StmtKind::With:
        collect_globals(s->as<ast::With>().body, out);
        break;
      case ast::StmtKind::If:
        collect_globals(s->as<ast::If>().body, out);
        collect_globals(s->as<ast::If>().orelse, out);
        break;
      case ast::StmtKind::Try: {
        const auto& t = s->as<ast::Try>();
        collect_globals(t.body, out);
        for (const ast::ExceptHandler& h : t.handlers) collect_globals(h.body, out);
        collect_globals(t.orelse, out);
        collect_globals(t.finalbody, out);
        break;
      }
      default:
        break;
    }
  }
}

// What an op receives for a value the program passed: torch.Size as a list, dtypes as
// ScalarType codes, and symbolic numbers made concrete (or kept, for `given`).
// Values nested deeper than this (a list containing itself) are an error, not a hang.
constexpr int kMaxValueDepth = 1000;

[[noreturn]] void too_deep() {
  throw Error("a value nests lists or tuples more than " + std::to_string(kMaxValueDepth) +
              " deep (does a list contain itself?)");
}

bool needs_op_arg(const IValue& v, int depth = 0) {
  if (v.is_object()) return true;
  if (v.is_tuple() || v.is_list()) {
    if (depth > kMaxValueDepth) too_deep();
    for (const IValue& item : v.items()) {
      if (needs_op_arg(item, depth + 1)) return true;
    }
  }
  return false;
}

IValue op_arg(const IValue& v, bool keep_symbolic) {
  if (!needs_op_arg(v)) return v;
  if (auto* s = as_obj<SymbolicValue>(v)) return keep_symbolic ? v : s->concrete();
  if (auto* d = as_obj<DTypeValue>(v)) return IValue(dtype_scalar_type(d->dtype));
  if (const ValueList* items = seq_items(v)) {
    ValueList out;
    out.reserve(items->size());
    for (const IValue& item : *items) out.push_back(op_arg(item, keep_symbolic));
    return v.is_tuple() ? IValue::tuple(std::move(out)) : IValue::list(std::move(out));
  }
  return v;
}

bool has_symbolic(const IValue& v, int depth = 0) {
  if (as_obj<SymbolicValue>(v)) return true;
  if (v.is_tuple() || v.is_list()) {
    if (depth > kMaxValueDepth) too_deep();
    for (const IValue& item : v.items()) {
      if (has_symbolic(item, depth + 1)) return true;
    }
  }
  return false;
}

// Tensor methods the interpreter implements itself (beyond op_for_method).
const char* const kOwnTensorMethods[] = {
    "item", "backward",   "requires_grad_", "size",  "dim",  "ndimension", "numel", "nelement",
    "cpu",  "contiguous", "detach",         "float", "long", "int",        "bool"};

}  // namespace

ValueList bind_args(const std::string& fname, const std::vector<ParamSpec>& params, ValueList args,
                    Kwargs kwargs, const SourceRange& range) {
  std::vector<std::string> names;
  std::vector<std::optional<IValue>> defaults;
  for (const ParamSpec& p : params) {
    names.push_back(p.name);
    defaults.push_back(p.default_value);
  }
  return bind_params(fname, names, defaults, std::move(args), std::move(kwargs), range);
}

const FunctionInfo& Interpreter::function_info(const ast::FunctionDef& def) {
  auto& slot = function_infos_[&def];
  if (!slot) {
    slot = std::make_shared<FunctionInfo>();
    std::vector<std::string> names;
    for (const ast::Param& p : def.params) names.push_back(p.name);
    collect_locals(def.body, &names);
    // `global x` makes x the module's name in this function.
    std::vector<std::string> globals;
    collect_globals(def.body, &globals);
    std::erase_if(names, [&](const std::string& n) {
      return std::find(globals.begin(), globals.end(), n) != globals.end();
    });
    for (const std::string& n : names) {
      if (slot->slots.emplace(n, static_cast<int>(slot->names.size())).second)
        slot->names.push_back(n);
    }
  }
  return *slot;
}

IValue Interpreter::eval_call(const ast::Call& e) {
  IValue callee;
  IValue receiver;
  const std::string* method = nullptr;
  if (e.func->kind == ast::ExprKind::Attribute) {
    const auto& a = e.func->as<ast::Attribute>();
    receiver = eval(*a.value);
    // x.relu(): dispatch straight to the op, without a bound-method object.
    if (receiver.is_tensor() && tensor_method_supported(a.attr)) {
      method = &a.attr;
    } else {
      callee = getattr(receiver, a.attr, e.func->range, a.value.get());
    }
  } else {
    callee = eval(*e.func);
  }
  ValueList args;
  args.reserve(e.args.size());
  for (const ast::ExprPtr& arg : e.args) {
    if (arg->kind == ast::ExprKind::Starred) {
      // f(*mods): the iterable's items, as separate positional arguments.
      const ast::Expr& spread = *arg->as<ast::Starred>().value;
      for (IValue& item : iterate(eval(spread), spread.range)) args.push_back(std::move(item));
      continue;
    }
    args.push_back(eval(*arg));
  }
  Kwargs kwargs;
  for (const ast::Keyword& kw : e.keywords) {
    for (const auto& [name, v] : kwargs) {
      if (name == kw.name) fail("SyntaxError: keyword argument repeated: " + kw.name, kw.range);
    }
    if (kw.name.empty()) {  // f(**d)
      spread_kwargs(eval(*kw.value), &kwargs, kw.range);
      continue;
    }
    kwargs.emplace_back(kw.name, eval(*kw.value));
  }
  if (method)
    return call_tensor_method(receiver, *method, std::move(args), std::move(kwargs), e.range, &e);
  return call_value(callee, std::move(args), std::move(kwargs), e.range, &e);
}

IValue Interpreter::call_value(const IValue& callee, ValueList args, Kwargs kwargs,
                               const SourceRange& range, const ast::Call* site) {
  if (auto* f = as_obj<FunctionValue>(callee)) {
    return call_function(*f, nullptr, std::move(args), std::move(kwargs), range);
  }
  if (auto* m = as_obj<BoundMethodValue>(callee)) {
    return call_function(*m->fn, &m->self, std::move(args), std::move(kwargs), range);
  }
  if (auto* b = as_obj<BuiltinValue>(callee)) {
    return call_builtin(*b, std::move(args), std::move(kwargs), range, site);
  }
  if (auto* m = as_obj<BuiltinMethodValue>(callee)) {
    if (m->self.is_tensor()) {
      return call_tensor_method(m->self, m->name, std::move(args), std::move(kwargs), range, site);
    }
    return call_builtin_method(m->self, m->name, std::move(args), std::move(kwargs), range, site);
  }
  if (as_obj<ClassValue>(callee)) {
    return instantiate(std::static_pointer_cast<ClassValue>(callee.to_object()), std::move(args),
                       std::move(kwargs), range);
  }
  if (auto* n = as_obj<NativeValue>(callee)) {
    return n->call(*this, std::move(args), std::move(kwargs), range);
  }
  if (as_obj<InstanceValue>(callee))
    return call_instance(callee, std::move(args), std::move(kwargs), range);
  if (auto* f = as_obj<ForeignValue>(callee)) fail_foreign(*f, f->qualname + "()", range);
  fail("TypeError: '" + py_type_name(callee) + "' object is not callable", range);
}

IValue Interpreter::call_function(const FunctionValue& fn, const IValue* self, ValueList args,
                                  Kwargs kwargs, const SourceRange& range) {
  if (call_depth_ >= limits_.max_call_depth) {
    fail("RecursionError: maximum recursion depth exceeded calling " + fn.qualname + "()", range,
         "d2s allows " + std::to_string(limits_.max_call_depth) +
             " calls nested in one another (raise it with --max-call-depth); check that the "
             "recursion ends");
  }
  const FunctionInfo& info = function_info(*fn.def);
  if (self) args.insert(args.begin(), *self);
  ValueList bound = bind_full(fn, std::move(args), std::move(kwargs), range);

  Frame frame;
  frame.info = &info;
  frame.function = &fn;
  frame.locals->resize(info.names.size());
  for (size_t i = 0; i < bound.size(); ++i) (*frame.locals)[i] = std::move(bound[i]);
  frame.closure = fn.closure;
  CallGuard guard(*this, frame);
  // @torch.no_grad() / @torch.enable_grad(): the body runs in that grad mode, as in
  // PyTorch; the same recogniser as the `with` statement's.
  std::optional<GradModeGuard> grad_mode;
  for (const ast::ExprPtr& d : fn.def->decorators) {
    const ast::GradContext kind = ast::grad_context(*d);
    if (kind != ast::GradContext::Other) grad_mode.emplace(kind == ast::GradContext::EnableGrad);
  }
  if (hooks_) hooks_->on_call_enter(*fn.def, fn.qualname, range);
  Flow flow = exec_block(fn.def->body);
  if (flow == Flow::Break || flow == Flow::Continue) {
    fail("SyntaxError: 'break' or 'continue' outside loop", fn.def->range);
  }
  if (hooks_) hooks_->on_call_exit(*fn.def);
  return flow == Flow::Return ? std::move(frame.return_value) : IValue();
}

IValue Interpreter::instantiate(const std::shared_ptr<ClassValue>& cls, ValueList args,
                                Kwargs kwargs, const SourceRange& range) {
  auto inst = std::make_shared<InstanceValue>();
  inst->type = cls->name;
  inst->cls = cls;
  inst->is_module = cls->is_module;
  inst->nn = cls->nn_base;  // a class deriving from nn.Sequential / nn.ModuleList
  IValue self = obj(inst);
  // nn.Module.__init__ sets training=True; d2s sets it before the user's __init__ runs.
  if (cls->is_module) inst->set("training", IValue(true));
  const IValue* init = cls->lookup("__init__");
  if (auto* fn = init ? as_obj<FunctionValue>(*init) : nullptr) {
    IValue r = call_function(*fn, &self, std::move(args), std::move(kwargs), range);
    if (!r.is_none()) {
      fail("TypeError: __init__() should return None, not '" + py_type_name(r) + "'", range);
    }
  } else if (dataclass_init(cls, self, args, kwargs, range)) {
    // a @dataclass: its generated __init__ ran
  } else if (!args.empty() || !kwargs.empty()) {
    fail("TypeError: " + cls->name + "() takes no arguments", range);
  }
  return self;
}

IValue Interpreter::call_instance(const IValue& o, ValueList args, Kwargs kwargs,
                                  const SourceRange& range) {
  auto& inst = *as_obj<InstanceValue>(o);
  // A class deriving from nn.Sequential runs its own forward when it defines one.
  const IValue* own_forward = inst.cls && inst.is_module ? inst.cls->lookup("forward") : nullptr;
  if (inst.nn != NnKind::None && !own_forward)
    return forward_nn(inst, std::move(args), std::move(kwargs), range);
  if (inst.cls) {
    // A module call runs forward (nn.Module.__call__); other objects need __call__.
    const IValue* fn_value = inst.cls->lookup(inst.is_module ? "forward" : "__call__");
    if (auto* fn = fn_value ? as_obj<FunctionValue>(*fn_value) : nullptr) {
      return call_function(*fn, &o, std::move(args), std::move(kwargs), range);
    }
  }
  if (inst.is_module) {
    fail("NotImplementedError: Module [" + inst.type +
             "] is missing the required \"forward\" function",
         range);
  }
  fail("TypeError: '" + inst.type + "' object is not callable", range);
}

// ------------------------------------------------------------------ the op path

IValue Interpreter::call_op(std::string_view op, ValueList args, Kwargs kwargs,
                            const SourceRange& range) {
  ValueList given_args;
  Kwargs given_kwargs;
  bool prep;
  try {
    prep = std::any_of(args.begin(), args.end(), [](const IValue& a) { return needs_op_arg(a); }) ||
           std::any_of(kwargs.begin(), kwargs.end(),
                       [](const auto& kw) { return needs_op_arg(kw.second); });
  } catch (const Error& e) {
    throw Error(e.message(), range);
  }
  if (prep) {
    if (hooks_) {
      for (const IValue& a : args) given_args.push_back(op_arg(a, true));
      for (const auto& [k, v] : kwargs) given_kwargs.emplace_back(k, op_arg(v, true));
    }
    for (IValue& a : args) a = op_arg(a, false);
    for (auto& kw : kwargs) kw.second = op_arg(kw.second, false);
  }
  OpRegistry::Bound bound = registry_.bind(op, args, kwargs, range);
  IValue result;
  if (hooks_ && bound.op->mutates) hooks_->before_write(*bound.op, bound.args, range);
  try {
    result = run_op(*bound.op, op_ctx_, bound.args);
  } catch (const Error& e) {
    if (e.range().known() || e.range().file) throw;
    throw Error(e.message(), range, e.hint(), e.exit_code());
  } catch (const std::bad_alloc&) {
    fail(std::string(op) + ": out of memory", range);
  } catch (const std::exception& e) {
    fail("internal error in " + std::string(op) + ": " + e.what(), range);
  }
  if (!hooks_) return result;
  // `given`: the bound arguments, with what the program passed put back where it
  // passed symbolic values, so the tracer sees them. Positions follow the registry's
  // binding, including PyTorch's packing of trailing ints (`x.view(n, -1)`).
  // Without symbolic arguments `given` is the bound arguments themselves: no copy.
  if (!prep) return hooks_->after_op(*bound.op, bound.args, bound.args, std::move(result), range);
  ValueList given = bound.args;
  {
    const OpSchema& schema = bound.op->schema;
    const size_t n_args = schema.arguments.size();
    size_t n_positional = 0;
    while (n_positional < n_args && !schema.arguments[n_positional].kwarg_only) ++n_positional;
    auto put = [&](size_t i, const IValue& v) {
      if (i < given.size() && has_symbolic(v)) given[i] = v;
    };
    size_t direct = given_args.size();
    if (given_args.size() > n_positional && !schema.varargs && n_positional > 0) {
      direct = n_positional - 1;
      put(direct, IValue::list(ValueList(given_args.begin() + direct, given_args.end())));
    }
    for (size_t i = 0; i < direct; ++i)
      put(i < n_positional ? i : n_args + i - n_positional, given_args[i]);
    for (const auto& [k, v] : given_kwargs) {
      for (size_t i = 0; i < n_args; ++i) {
        if (schema.arguments[i].name == k) put(i, v);
      }
    }
  }
  return hooks_->after_op(*bound.op, bound.args, given, std::move(result), range);
}

bool Interpreter::tensor_method_supported(const std::string& name) const {
  for (const char* m : kOwnTensorMethods) {
    if (name == m) return true;
  }
  return op_for_method(name).has_value();
}

std::vector<std::string> Interpreter::tensor_method_names() const {
  std::vector<std::string> names(std::begin(kOwnTensorMethods), std::end(kOwnTensorMethods));
  for (const std::string& base : registry_.base_names()) {
    if (base.rfind("aten::", 0) != 0) continue;
    std::string m = base.substr(6);
    if (op_for_method(m)) names.push_back(m);
  }
  return names;
}

IValue Interpreter::call_tensor_method(const IValue& self, const std::string& name, ValueList args,
                                       Kwargs kwargs, const SourceRange& range,
                                       const ast::Call* site) {
  const Tensor& t = self.to_tensor();
  if (name == "item") {
    bind_args("Tensor.item", {}, std::move(args), std::move(kwargs), range);
    if (t.numel() != 1) {
      fail("RuntimeError: a Tensor with " + std::to_string(t.numel()) +
               " elements cannot be converted to Scalar",
           range, "reduce it first, e.g. with .sum() or .max()");
    }
    double v = t.value_at(0);
    IValue py = t.dtype() == DType::Float32 ? IValue(v)
                : t.dtype() == DType::Int64 ? IValue(static_cast<int64_t>(v))
                                            : IValue(v != 0);
    return converted(PyConversion::Item, self, py, range);
  }
  if (name == "backward") {
    // Autograd (core/autograd/autograd.h) on what this run taped; the tracer records nothing.
    (void)site;
    ValueList a = bind_args("Tensor.backward",
                            {{"gradient", IValue()},
                             {"retain_graph", IValue()},
                             {"create_graph", IValue(false)},
                             {"inputs", IValue()}},
                            std::move(args), std::move(kwargs), range);
    if (!a[0].is_none() && !a[0].is_tensor()) {
      fail("TypeError: backward(): gradient must be a Tensor, not " + py_type_name(a[0]), range);
    }
    try {
      backward(t, a[0].is_tensor() ? a[0].to_tensor() : Tensor());
    } catch (const Error& e) {
      if (e.range().known() || e.range().file) throw;
      throw Error(e.message(), range, e.hint(), e.exit_code());
    }
    return IValue();
  }
  if (name == "requires_grad_") {
    ValueList a = bind_args("Tensor.requires_grad_", {{"requires_grad", IValue(true)}},
                            std::move(args), std::move(kwargs), range);
    std::optional<IValue> flag = to_number(a[0], PyConversion::Scalar, range);
    if (!flag || !flag->is_bool()) fail("TypeError: requires_grad_() takes a bool", range);
    Tensor handle = t;
    try {
      set_requires_grad(handle, flag->to_bool());
    } catch (const Error& e) {
      throw Error(e.message(), range, e.hint(), e.exit_code());
    }
    return self;
  }
  if (name == "size" && args.empty() && kwargs.empty()) {
    IValue sizes = call_op("aten::size", {self}, {}, range);
    return seq_items(sizes) ? make_size(*seq_items(sizes)) : sizes;
  }
  if (name == "nonzero") {
    args.insert(args.begin(), self);
    return call_nonzero(std::move(args), std::move(kwargs), range);
  }
  std::optional<std::string> op = op_for_method(name);
  if (!op) {
    // Methods without an op of their own: shape queries, no-op conversions on d2s's
    // CPU float32 tensors, and dtype casts through aten::to.
    if (name == "dim" || name == "ndimension") {
      bind_args("Tensor." + name, {}, std::move(args), std::move(kwargs), range);
      return IValue(t.dim());
    }
    if (name == "numel" || name == "nelement") {
      bind_args("Tensor." + name, {}, std::move(args), std::move(kwargs), range);
      return IValue(t.numel());
    }
    if (name == "cpu" || name == "contiguous" || name == "detach") {
      bind_args("Tensor." + name, {}, std::move(args), std::move(kwargs), range);
      return self;
    }
    if (name == "float" || name == "long" || name == "int" || name == "bool") {
      bind_args("Tensor." + name, {}, std::move(args), std::move(kwargs), range);
      DType d = name == "float" ? DType::Float32 : name == "bool" ? DType::Bool : DType::Int64;
      return call_op("aten::to", {self, make_dtype(d)}, {}, range);
    }
    getattr_tensor(self, name, range);  // throws the AttributeError
  }
  args.insert(args.begin(), self);
  return call_op(*op, std::move(args), std::move(kwargs), range);
}

}  // namespace d2s::interp
