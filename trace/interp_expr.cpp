// Expressions: names, literals, f-strings, comparisons, and/or, subscripts, attributes.
#include <algorithm>
#include <cstdint>

#include "core/autograd/autograd.h"
#include "parse/decorators.h"
#include "trace/interp.h"
#include "trace/native_value.h"
#include "trace/py_dict.h"
#include "trace/py_typeinfo.h"

namespace d2s::interp {

namespace {

IValue obj(std::shared_ptr<Object> o) {
  return IValue(std::move(o));
}

// Methods of list / tuple / str / torch.Size that builtins.cpp implements.
bool has_builtin_method(const IValue& v, const std::string& name) {
  static const char* const kList[] = {"append", "extend",  "pop",    "insert", "index", "count",
                                      "copy",   "reverse", "remove", "sort",   "clear"};
  static const char* const kTuple[] = {"index", "count"};
  static const char* const kStr[] = {"format",     "join",     "upper",   "lower", "strip",
                                     "startswith", "endswith", "replace", "split"};
  auto in = [&](const auto& names) {
    return std::find(std::begin(names), std::end(names), name) != std::end(names);
  };
  if (v.is_list()) return in(kList);
  if (v.is_tuple()) return in(kTuple);
  if (v.is_string()) return in(kStr);
  if (as_obj<SizeValue>(v)) return in(kTuple) || name == "numel";
  return false;
}

}  // namespace

IValue Interpreter::eval(const ast::Expr& e) {
  check_stack(e.range);
  return eval_inner(e);
}

IValue Interpreter::eval_inner(const ast::Expr& e) {
  switch (e.kind) {
    case ast::ExprKind::Name:
      return lookup(e.as<ast::Name>());
    case ast::ExprKind::Int:
      return IValue(e.as<ast::IntLit>().value);
    case ast::ExprKind::Float:
      return IValue(e.as<ast::FloatLit>().value);
    case ast::ExprKind::Bool:
      return IValue(e.as<ast::BoolLit>().value);
    case ast::ExprKind::None:
      return IValue();
    case ast::ExprKind::Str:
      return IValue(e.as<ast::StrLit>().value);
    case ast::ExprKind::FString:
      return eval_fstring(e.as<ast::FString>());
    case ast::ExprKind::Attribute: {
      const auto& a = e.as<ast::Attribute>();
      return getattr(eval(*a.value), a.attr, e.range, a.value.get());
    }
    case ast::ExprKind::Call:
      return eval_call(e.as<ast::Call>());
    case ast::ExprKind::Subscript:
      return eval_subscript(e.as<ast::Subscript>());
    case ast::ExprKind::Slice:
      fail("SyntaxError: a slice is only allowed inside []", e.range);
    case ast::ExprKind::BinOp: {
      const auto& b = e.as<ast::BinOp>();
      IValue lhs = eval(*b.lhs);
      IValue rhs = eval(*b.rhs);
      return binary(b.op, lhs, rhs, e.range);
    }
    case ast::ExprKind::UnaryOp: {
      const auto& u = e.as<ast::UnaryOp>();
      // `-1` is a constant (CPython folds it too), not an aten::neg for the tracer.
      if (u.op == ast::UnaryOpKind::Neg && u.operand->kind == ast::ExprKind::Int &&
          u.operand->as<ast::IntLit>().value != INT64_MIN) {
        return IValue(-u.operand->as<ast::IntLit>().value);
      }
      if (u.op == ast::UnaryOpKind::Neg && u.operand->kind == ast::ExprKind::Float) {
        return IValue(-u.operand->as<ast::FloatLit>().value);
      }
      IValue v = eval(*u.operand);
      if (u.op == ast::UnaryOpKind::Not) return IValue(!truthy(v, u.operand->range));
      return unary(u.op, v, e.range);
    }
    case ast::ExprKind::Compare:
      return eval_compare(e.as<ast::Compare>());
    case ast::ExprKind::BoolOp:
      return eval_boolop(e.as<ast::BoolOp>());
    case ast::ExprKind::IfExp: {
      const auto& c = e.as<ast::IfExp>();
      return truthy(eval(*c.test), c.test->range) ? eval(*c.body) : eval(*c.orelse);
    }
    case ast::ExprKind::Tuple:
    case ast::ExprKind::List: {
      const auto& elts =
          e.kind == ast::ExprKind::Tuple ? e.as<ast::TupleExpr>().elts : e.as<ast::ListExpr>().elts;
      ValueList items;
      items.reserve(elts.size());
      for (const ast::ExprPtr& x : elts) items.push_back(eval(*x));
      return e.kind == ast::ExprKind::Tuple ? IValue::tuple(std::move(items))
                                            : IValue::list(std::move(items));
    }
    case ast::ExprKind::Lambda:
      return eval_lambda(e.as<ast::Lambda>());
    case ast::ExprKind::Comp:
      return eval_comp(e.as<ast::Comp>());
    case ast::ExprKind::Dict:
      return eval_dict(e.as<ast::DictExpr>());
    case ast::ExprKind::Set:
      return eval_set(e.as<ast::SetExpr>());
    case ast::ExprKind::Ellipsis:
      return IValue(std::static_pointer_cast<Object>(std::make_shared<EllipsisValue>()));
    case ast::ExprKind::Starred:
      fail("SyntaxError: can't use starred expression here", e.range,
           "d2s spreads `*x` in the positional arguments of a call only");
  }
  fail("internal error: unknown expression kind", e.range);
}

std::vector<std::string> Interpreter::visible_names() const {
  std::vector<std::string> names;
  const Frame& f = *frames_.back();
  if (f.info) {
    for (size_t i = 0; i < f.info->names.size(); ++i) {
      if ((*f.locals)[i]) names.push_back(f.info->names[i]);
    }
  }
  if (f.class_ns) {
    for (const auto& [name, v] : *f.class_ns) names.push_back(name);
  }
  for (const auto& [name, v] : globals_) names.push_back(name);
  for (const auto& [name, v] : builtins_) names.push_back(name);
  return names;
}

IValue Interpreter::lookup(const ast::Name& n) {
  const Frame& f = *frames_.back();
  for (auto it = f.comp_vars.rbegin(); it != f.comp_vars.rend(); ++it) {
    if (it->first == n.id) return it->second;
  }
  if (f.info) {
    auto it = f.info->slots.find(n.id);
    if (it != f.info->slots.end()) {
      const std::optional<IValue>& v = (*f.locals)[it->second];
      if (v) return *v;
      // Python decides locality for the whole function: reading before the
      // assignment is an error even when a global of that name exists.
      fail("UnboundLocalError: cannot access local variable '" + n.id +
               "' where it is not associated with a value",
           n.range, "'" + n.id + "' is assigned later in this function, which makes it local");
    }
  }
  if (f.closure) {
    if (const IValue* v = closure_lookup(n, f)) return *v;
  }
  if (f.class_ns) {
    auto it = f.class_ns->find(n.id);
    if (it != f.class_ns->end()) return it->second;
  }
  if (auto it = globals_.find(n.id); it != globals_.end()) return it->second;
  if (auto it = builtins_.find(n.id); it != builtins_.end()) return it->second;
  std::string near = closest_name(n.id, visible_names());
  fail("NameError: name '" + n.id + "' is not defined", n.range,
       near.empty() ? "" : "did you mean '" + near + "'?");
}

IValue Interpreter::eval_fstring(const ast::FString& e) {
  std::string out;
  for (const ast::FStringPart& part : e.parts) {
    if (!part.expr) {
      out += part.text;
      continue;
    }
    IValue v = eval(*part.expr);
    if (part.conversion == 'r' || part.conversion == 'a') {
      v = IValue(py_repr(v));
    } else if (part.conversion == 's') {
      v = IValue(py_str(v));
    }
    out += format_value(v, part.format_spec, part.expr->range);
  }
  return IValue(std::move(out));
}

IValue Interpreter::eval_compare(const ast::Compare& e) {
  // a < b < c is (a < b) and (b < c) with b evaluated once; the result is the first
  // false comparison or the last one, as Python returns it.
  IValue left = eval(*e.left);
  IValue result;
  for (size_t i = 0; i < e.ops.size(); ++i) {
    IValue right = eval(*e.comparators[i]);
    result = compare(e.ops[i], left, right, e.range);
    if (i + 1 < e.ops.size()) {
      if (!truthy(result, e.range)) return result;
      left = std::move(right);
    }
  }
  return result;
}

IValue Interpreter::eval_boolop(const ast::BoolOp& e) {
  // Short-circuit, returning the deciding operand itself (`x or 0` gives x).
  IValue v;
  for (size_t i = 0; i < e.values.size(); ++i) {
    v = eval(*e.values[i]);
    if (i + 1 == e.values.size()) break;
    bool t = truthy(v, e.values[i]->range);
    if (e.is_and ? !t : t) break;
  }
  return v;
}

ValueList Interpreter::eval_indices(const ast::Subscript& e) {
  ValueList index;
  for (const ast::ExprPtr& item : e.indices) {
    if (item->kind == ast::ExprKind::Slice) {
      const auto& s = item->as<ast::Slice>();
      auto slice = std::make_shared<SliceValue>();
      if (s.lower) slice->start = eval(*s.lower);
      if (s.upper) slice->stop = eval(*s.upper);
      if (s.step) slice->step = eval(*s.step);
      index.push_back(obj(slice));
    } else {
      index.push_back(eval(*item));
    }
  }
  return index;
}

IValue Interpreter::eval_subscript(const ast::Subscript& e) {
  IValue container = eval(*e.value);
  return subscript(container, eval_indices(e), e);
}

// ------------------------------------------------------------------ attributes

IValue Interpreter::getattr(const IValue& o, const std::string& attr, const SourceRange& range,
                            const ast::Expr* obj_expr) {
  if (auto* ns = as_obj<NamespaceValue>(o)) {
    if (auto it = ns->resolved.find(attr); it != ns->resolved.end()) return it->second;
    std::string written = obj_expr ? text_of(obj_expr->range) + "." + attr : "";
    IValue v = resolve_qualified(ns->qualname + "." + attr, written, range);
    ns->resolved.emplace(attr, v);
    return v;
  }
  if (o.is_tensor()) return getattr_tensor(o, attr, range);
  if (auto* n = as_obj<NativeValue>(o)) {
    if (n->has_method(attr)) return obj(std::make_shared<BuiltinMethodValue>(o, attr));
    if (std::optional<IValue> v = n->attribute(attr)) return *v;
    fail("AttributeError: '" + n->type_name() + "' object has no attribute '" + attr + "'", range);
  }
  if (auto* inst = as_obj<InstanceValue>(o)) {
    // m.__class__.__name__ as model code writes it (type() in builtins.cpp).
    if (attr == "__dict__" && !inst->get(attr)) return instance_dict(*this, o, range);
    if (attr == "__class__" && !inst->get(attr)) {
      if (inst->cls) return IValue(std::static_pointer_cast<Object>(inst->cls));
      return obj(std::make_shared<BuiltinValue>("torch.nn." + inst->type));
    }
    return getattr_instance(o, *inst, attr, range);
  }
  if (auto* b = as_obj<BuiltinValue>(o); b && b->qualname.rfind("torch.", 0) != 0) {
    if (std::optional<IValue> v = stdlib_value(b->qualname + "." + attr)) return *v;
  }
  if (auto* b = as_obj<BuiltinValue>(o);
      b && b->qualname == "torch.nn.Embedding" && attr == "from_pretrained") {
    return obj(std::make_shared<BuiltinValue>("torch.nn.Embedding.from_pretrained"));
  }
  if (auto* b = as_obj<BuiltinValue>(o);
      b && b->qualname == "torch.nn.Transformer" && attr == "generate_square_subsequent_mask") {
    return obj(std::make_shared<BuiltinValue>(b->qualname + "." + attr));
  }
  if (auto* b = as_obj<BuiltinValue>(o); b && attr == "__name__") {
    return IValue(b->qualname.substr(b->qualname.rfind('.') + 1));
  }
  if (auto* cls = as_obj<ClassValue>(o)) {
    if (attr == "__name__") return IValue(cls->name);
    if (const IValue* v = cls->lookup(attr)) return *v;
    fail("AttributeError: type object '" + cls->name + "' has no attribute '" + attr + "'", range);
  }
  if (auto* sup = as_obj<SuperValue>(o)) {
    if (sup->cls->base) {
      if (const IValue* v = sup->cls->base->lookup(attr)) {
        if (auto fn = std::dynamic_pointer_cast<FunctionValue>(v->is_object() ? v->to_object()
                                                                              : nullptr)) {
          return obj(std::make_shared<BoundMethodValue>(sup->self, fn));
        }
        return *v;
      }
    }
    // nn.Sequential.forward for a class deriving from it (py_methods.cpp).
    if (sup->cls->nn_base == NnKind::Sequential && attr == "forward" && !sup->cls->base) {
      return obj(std::make_shared<BuiltinMethodValue>(sup->self, "__nn_forward__"));
    }
    // nn.Module's own methods: __init__ does nothing d2s needs (nn.Sequential's and
    // nn.ModuleList's register the modules they are given).
    if (sup->cls->is_module && (attr == "__init__" || attr == "train" || attr == "eval")) {
      return obj(std::make_shared<BuiltinMethodValue>(
          sup->self, attr == "__init__" ? "__module_init__" : attr));
    }
    fail("AttributeError: 'super' object has no attribute '" + attr + "'", range);
  }
  if (auto* f = as_obj<ForeignValue>(o)) {
    // collections.OrderedDict, np.sqrt, ...: the pieces of those modules d2s implements.
    if (std::optional<IValue> v = stdlib_value(f->qualname + "." + attr)) return *v;
    fail_foreign(*f, f->qualname + "." + attr, range);
  }
  if (auto* t = as_obj<NamedTupleValue>(o)) {
    for (size_t i = 0; i < t->fields->size(); ++i) {
      if ((*t->fields)[i] == attr) return t->items[i];
    }
    if (attr == "_fields") {
      ValueList names;
      for (const std::string& f : *t->fields) names.push_back(IValue(f));
      return IValue::tuple(std::move(names));
    }
  }
  if (auto* t = as_obj<TypeInfoValue>(o)) {
    for (const TypeInfoField& f : t->info.fields) {
      if (f.name == attr) return f.value;
    }
    fail("AttributeError: 'torch." + t->info.kind + "' object has no attribute '" + attr + "'",
         range);
  }
  if (has_builtin_method(o, attr)) return obj(std::make_shared<BuiltinMethodValue>(o, attr));
  if (auto* d = as_obj<DTypeValue>(o)) {
    if (attr == "is_floating_point") return IValue(d->dtype == DType::Float32);
  }
  fail("AttributeError: '" + py_type_name(o) + "' object has no attribute '" + attr + "'", range);
}

IValue Interpreter::getattr_instance(const IValue& o, InstanceValue& inst, const std::string& attr,
                                     const SourceRange& range) {
  if (const IValue* v = inst.get(attr)) return *v;
  if (inst.cls) {
    if (const IValue* v = inst.cls->lookup(attr)) {
      if (auto fn =
              std::dynamic_pointer_cast<FunctionValue>(v->is_object() ? v->to_object() : nullptr)) {
        // A @staticmethod read through an instance is the plain function.
        if (fn->def && ast::is_staticmethod(*fn->def)) return *v;
        return obj(std::make_shared<BoundMethodValue>(o, fn));
      }
      return *v;
    }
  }
  if (inst.is_module && (attr == "eval" || attr == "train" || attr == "to" || attr == "cpu" ||
                         attr == "cuda" || attr == "parameters" || attr == "named_parameters" ||
                         attr == "zero_grad" || (attr == "forward" && inst.nn != NnKind::None) ||
                         ((attr == "append" || attr == "extend" || attr == "insert") &&
                          (inst.nn == NnKind::ModuleList || inst.nn == NnKind::Sequential)) ||
                         (inst.nn == NnKind::ModuleDict && is_module_dict_method(attr)) ||
                         is_module_state_method(attr))) {
    return obj(std::make_shared<BuiltinMethodValue>(o, attr));
  }
  std::vector<std::string> names = inst.attr_names();
  for (const ClassValue* c = inst.cls.get(); c; c = c->base.get()) {
    for (const auto& [name, v] : c->attrs) names.push_back(name);
  }
  std::string near = closest_name(attr, names);
  fail("AttributeError: '" + inst.type + "' object has no attribute '" + attr + "'", range,
       near.empty() ? "" : "did you mean '" + near + "'?");
}

IValue Interpreter::getattr_tensor(const IValue& t, const std::string& attr,
                                   const SourceRange& range) {
  const Tensor& x = t.to_tensor();
  if (attr == "shape") {
    IValue sizes = call_op("aten::size", {t}, {}, range);
    return seq_items(sizes) ? make_size(*seq_items(sizes)) : sizes;
  }
  if (attr == "T") {
    // TorchScript spells x.T aten::numpy_T; d2s uses it when the table has it.
    if (!registry_.overloads("aten::numpy_T").empty())
      return call_op("aten::numpy_T", {t}, {}, range);
    if (x.dim() <= 2) return call_op("aten::t", {t}, {}, range);
    std::vector<int64_t> dims;
    for (int64_t d = x.dim() - 1; d >= 0; --d) dims.push_back(d);
    return call_op("aten::permute", {t, IValue::int_list(dims)}, {}, range);
  }
  if (attr == "dtype") return make_dtype(x.dtype());
  if (attr == "requires_grad") return IValue(x.requires_grad());
  if (attr == "grad") {
    Tensor g = grad_of(x);
    return g.defined() ? IValue(g) : IValue();
  }
  if (attr == "ndim") return IValue(x.dim());
  if (attr == "is_leaf") return IValue(is_leaf(x));
  if (attr == "data") return IValue(detached(x));
  if (attr == "device") return IValue("cpu");
  if (attr == "is_cuda") return IValue(false);  // d2s runs on the CPU
  if (attr == "cuda") {
    fail("Tensor.cuda() is not supported: d2s runs on the CPU", range,
         "write x.to(device) with device = torch.device(\"cuda\" if "
         "torch.cuda.is_available() else \"cpu\"), which is \"cpu\" in d2s");
  }
  if (tensor_method_supported(attr)) return obj(std::make_shared<BuiltinMethodValue>(t, attr));
  std::string near = closest_name(attr, tensor_method_names());
  fail("AttributeError: 'Tensor' object has no attribute '" + attr + "' that d2s supports", range,
       near.empty() ? "" : "did you mean '" + near + "'?");
}

void Interpreter::setattr(const IValue& o, const std::string& attr, IValue value,
                          const SourceRange& range) {
  if (auto* inst = as_obj<InstanceValue>(o)) {
    if (inst->is_module) {
      const bool is_param = value.is_tensor() && is_parameter(value.to_tensor());
      const bool is_child = as_obj<InstanceValue>(value) && as_obj<InstanceValue>(value)->is_module;
      auto listed = [&](const std::vector<std::string>& v) {
        return std::find(v.begin(), v.end(), attr) != v.end();
      };
      // PyTorch keeps a registered parameter a parameter (and a submodule a module).
      if (listed(inst->params) && !is_param && !value.is_none()) {
        fail("TypeError: cannot assign '" + py_type_name(value) + "' as parameter '" + attr +
                 "' (torch.nn.Parameter or None expected)",
             range, "wrap the tensor: self." + attr + " = nn.Parameter(...)");
      }
      if (listed(inst->children) && !is_child && !value.is_none()) {
        fail("TypeError: cannot assign '" + py_type_name(value) + "' as child module '" + attr +
                 "' (torch.nn.Module or None expected)",
             range);
      }
      if (is_param && !listed(inst->params)) inst->params.push_back(attr);
      if (is_child && !listed(inst->children)) inst->children.push_back(attr);
    }
    inst->set(attr, std::move(value));
    return;
  }
  if (o.is_tensor() && attr == "requires_grad") {
    std::optional<IValue> flag = to_number(value, PyConversion::Scalar, range);
    if (!flag || !flag->is_bool()) fail("TypeError: requires_grad must be a bool", range);
    Tensor t = o.to_tensor();
    try {
      set_requires_grad(t, flag->to_bool());
    } catch (const Error& e) {
      throw Error(e.message(), range, e.hint(), e.exit_code());
    }
    return;
  }
  if (o.is_tensor() && attr == "grad" && value.is_none()) {
    Tensor t = o.to_tensor();
    clear_grad(t);
    return;
  }
  if (auto* cls = as_obj<ClassValue>(o)) {
    cls->attrs[attr] = std::move(value);
    return;
  }
  fail("AttributeError: '" + py_type_name(o) + "' object attribute '" + attr +
           "' cannot be set by d2s",
       range);
}

}  // namespace d2s::interp
