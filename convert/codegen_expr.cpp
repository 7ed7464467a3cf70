// One node as a Python expression (codegen_internal.h). Each spelling is one the
// model language reads back into the same op (core/ops/op_bindings.cpp's tables, the
// operators, subscripts, f-strings) and that real PyTorch runs.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string_view>
#include <vector>

#include "convert/codegen_internal.h"
#include "core/base/error.h"
#include "core/ops/op_registry.h"
#include "core/tensor/tensor.h"

namespace d2s::convert::codegen {

namespace {

std::string_view base_name(const std::string& kind) {
  const size_t colons = kind.find("::");
  return colons == std::string::npos ? std::string_view(kind)
                                     : std::string_view(kind).substr(colons + 2);
}

const IValue* constant_of(const ir::Value* v) {
  return v->node()->kind() == ir::kind::Constant ? v->node()->attr("value") : nullptr;
}

// A literal or name as an operand of an operator: a negative literal in parentheses,
// so that `x - -1` and `x ** -1.0` read as meant.
std::string operand(const std::string& s) {
  return !s.empty() && s[0] == '-' ? "(" + s + ")" : s;
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

std::string tensor_data(const Tensor& t, int64_t& index, size_t dim) {
  auto element = [&](int64_t i) -> std::string {
    // Ints exactly: a double cannot hold every int64 (a slice's open end is INT64_MAX).
    if (t.dtype() == DType::Int64) return std::to_string(t.data<int64_t>()[i]);
    const double v = t.value_at(i);
    if (t.dtype() == DType::Bool) return v != 0 ? "True" : "False";
    return python_literal(IValue(v));
  };
  if (dim == t.shape().size()) return element(index++);
  std::vector<std::string> items;
  for (int64_t i = 0; i < t.shape()[dim]; ++i) items.push_back(tensor_data(t, index, dim + 1));
  return "[" + join(items) + "]";
}

// Binary operators, by base name; the overload does not matter (`+` adds tensors,
// ints, floats, strings and lists alike).
const char* binary_operator(std::string_view op) {
  static const std::pair<std::string_view, const char*> kTable[] = {
      {"add", "+"},       {"sub", "-"},       {"mul", "*"},
      {"div", "/"},       {"floordiv", "//"}, {"floor_divide", "//"},
      {"remainder", "%"}, {"pow", "**"},      {"matmul", "@"},
      {"lt", "<"},        {"gt", ">"},        {"le", "<="},
      {"ge", ">="},       {"eq", "=="},       {"ne", "!="},
      {"__and__", "&"},   {"__or__", "|"},    {"__xor__", "^"}};
  for (const auto& [name, py] : kTable) {
    if (name == op) return py;
  }
  return nullptr;
}

bool is_int_constant(const ir::Value* v, int64_t want) {
  const IValue* c = constant_of(v);
  return c && c->is_int() && c->to_int() == want;
}

// A ScalarType argument held as TorchScript's int code, as `torch.float32`.
std::string dtype_literal(const ir::Value* v, const RefFn& ref) {
  const IValue* c = constant_of(v);
  DType d;
  if (c && c->is_int() && dtype_from_scalar_type(c->to_int(), &d)) return dtype_torch_name(d);
  return ref(v);
}

bool equals_default(const ir::Value* v, const Argument& arg) {
  const IValue* c = constant_of(v);
  if (!c || !arg.default_value) return false;
  const IValue& d = *arg.default_value;
  if (c->is_none() || d.is_none()) return c->is_none() && d.is_none();
  if (c->is_string() || d.is_string()) {
    return c->is_string() && d.is_string() && c->to_string() == d.to_string();
  }
  if (c->is_number() && d.is_number()) return c->to_double() == d.to_double();
  if ((c->is_list() || c->is_tuple()) && (d.is_list() || d.is_tuple())) {
    return c->items().empty() && d.items().empty();
  }
  return false;
}

// `x[:, start:end:step]` for aten::slice and `x[:, i]` for aten::select on a
// constant dimension.
std::string subscript(const ir::Node& n, const RefFn& ref, bool slice) {
  const IValue* dim = n.inputs().size() > 1 ? constant_of(n.input(1)) : nullptr;
  int64_t d = dim && dim->is_int() ? dim->to_int() : (slice && n.inputs().size() < 2 ? 0 : -1);
  if (d < 0) return {};
  std::string index;
  for (int64_t i = 0; i < d; ++i) index += ":, ";
  if (!slice) return operand(ref(n.input(0))) + "[" + index + ref(n.input(2)) + "]";
  auto part = [&](size_t i, bool is_end) -> std::string {
    if (i >= n.inputs().size()) return {};
    const IValue* c = constant_of(n.input(i));
    if (c && c->is_none()) return {};
    if (is_end && c && c->is_int() && c->to_int() == std::numeric_limits<int64_t>::max()) return {};
    return ref(n.input(i));
  };
  index += part(2, false) + ":" + part(3, true);
  if (n.inputs().size() > 4 && !is_int_constant(n.input(4), 1)) index += ":" + ref(n.input(4));
  return operand(ref(n.input(0))) + "[" + index + "]";
}

// `x[:, idx]` for aten::index by a list of its items (a None keeps a whole dim), and
// `x[tuple(l)]` by a list made elsewhere (aten::unbind's, from an imported GatherND).
std::string index_subscript(const ir::Node& n, const RefFn& ref) {
  const ir::Value* list = n.input(1);
  std::string index;
  if (list->node()->kind() == ir::kind::ListConstruct) {
    for (const ir::Value* item : list->node()->inputs()) {
      const IValue* c = constant_of(item);
      index += (index.empty() ? "" : ", ") + (c && c->is_none() ? std::string(":") : ref(item));
    }
  } else {
    index = "tuple(" + ref(list) + ")";
  }
  return operand(ref(n.input(0))) + "[" + index + "]";
}

// aten::format as the f-string it came from. A whole shape (`x.size()`) printed as
// `torch.Size({})` is written as a plain field: its str is torch.Size(...) in
// PyTorch, and d2s's parse route adds the wrapper back.
std::string fstring(const ir::Node& n, const RefFn& ref) {
  const IValue* fmt = constant_of(n.input(0));
  if (!fmt || !fmt->is_string()) return {};
  const std::string& f = fmt->to_string();
  std::string out = "f\"";
  size_t arg = 1;
  auto literal_char = [&](char c) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      return;
    }
    out += c;
  };
  for (size_t i = 0; i < f.size(); ++i) {
    const char c = f[i];
    if ((c == '{' || c == '}') && i + 1 < f.size() && f[i + 1] == c) {
      out += c;
      out += c;
      ++i;
      continue;
    }
    if (c != '{') {
      literal_char(c);
      continue;
    }
    const size_t close = f.find('}', i);
    if (close == std::string::npos || arg >= n.inputs().size()) return {};
    const std::string spec = f.substr(i + 1, close - i - 1);
    const ir::Value* v = n.input(arg++);
    const IValue* c_str = constant_of(v);
    if (c_str && c_str->is_string() && spec.empty()) {
      for (char ch : c_str->to_string()) {
        if (ch == '{' || ch == '}') out += ch;
        literal_char(ch);
      }
    } else {
      // `torch.Size({})` around a whole shape: the field alone (see above).
      static const std::string kSize = "torch.Size(";
      const bool whole_shape = v->node()->kind() == "aten::size" && v->node()->inputs().size() == 1;
      if (whole_shape && out.size() >= kSize.size() + 2 &&
          out.compare(out.size() - kSize.size(), kSize.size(), kSize) == 0 &&
          close + 1 < f.size() && f[close + 1] == ')') {
        out.erase(out.size() - kSize.size());
        ++i;  // the ')' after the field
        out += "{" + ref(v) + spec + "}";
        i = close + 1;
        continue;
      }
      out += "{" + ref(v) + spec + "}";
    }
    i = close;
  }
  return out + "\"";
}

// The torch function, Tensor method or torch.nn.functional function the language
// binds to this op, with the node's arguments (keyword-only ones by name, trailing
// defaults left out).
std::string call(const ir::Node& n, const RefFn& ref) {
  const std::string name(base_name(n.kind()));
  const OpDef* def = OpRegistry::builtin().find(n.kind(), n.overload());
  if (!def) return {};
  // nonzero(as_tuple=True): the flag chooses the op (convert/lower_tensorops.cpp).
  if (n.kind() == "aten::nonzero_numpy" && n.inputs().size() == 1) {
    return "torch.nonzero(" + ref(n.input(0)) + ", as_tuple=True)";
  }
  std::string callee;
  bool method = false;
  const bool prefer_functional = name == "dropout";
  if (!prefer_functional && op_for_function("torch." + name) == n.kind()) {
    callee = "torch." + name;
  } else if (op_for_method(name) == n.kind() && !n.inputs().empty()) {
    method = true;
  } else if (op_for_function("torch.nn.functional." + name) == n.kind()) {
    callee = "torch.nn.functional." + name;
  } else {
    return {};
  }
  const auto& args = def->schema.arguments;
  size_t last = n.inputs().size();  // trailing positional defaults are left out
  while (last > 0 && last - 1 < args.size() && !args[last - 1].kwarg_only &&
         equals_default(n.input(last - 1), args[last - 1])) {
    --last;
  }
  std::vector<std::string> parts;
  for (size_t i = method ? 1 : 0; i < n.inputs().size(); ++i) {
    const ir::Value* v = n.input(i);
    const Argument* arg = i < args.size() ? &args[i] : nullptr;
    const bool scalar_type = arg && arg->type.rfind("ScalarType", 0) == 0;
    const std::string value = scalar_type ? dtype_literal(v, ref) : ref(v);
    // PyTorch's Python signature of mse_loss has size_average before reduction.
    const bool keyword = arg && (arg->kwarg_only || (name == "mse_loss" && i == 2));
    if (keyword) {
      if (!equals_default(v, *arg)) parts.push_back(arg->name + "=" + value);
    } else if (i < last) {
      parts.push_back(value);
    }
  }
  if (method) return operand(ref(n.input(0))) + "." + name + "(" + join(parts) + ")";
  return callee + "(" + join(parts) + ")";
}

// `loss.backward()`: the op's gradient, retain_graph and create_graph at their defaults.
bool backward_is_plain(const ir::Node& n) {
  const OpDef* def = OpRegistry::builtin().find(n.kind(), n.overload());
  if (!def) return false;
  const auto& args = def->schema.arguments;
  for (size_t i = 1; i < n.inputs().size(); ++i) {
    if (i >= args.size() || !equals_default(n.input(i), args[i])) return false;
  }
  return true;
}

std::string builtin_or_math(const ir::Node& n, const RefFn& ref) {
  const std::string name(base_name(n.kind()));
  std::vector<std::string> args;
  for (const ir::Value* v : n.inputs()) args.push_back(ref(v));
  static const std::pair<std::string_view, const char*> kBuiltins[] = {
      {"aten::Bool", "bool"}, {"aten::Int", "int"}, {"aten::Float", "float"}, {"aten::str", "str"},
      {"aten::len", "len"},   {"prim::min", "min"}, {"prim::max", "max"}};
  for (const auto& [kind, py] : kBuiltins) {
    if (n.kind() == kind) return std::string(py) + "(" + join(args) + ")";
  }
  const bool scalar = n.overload() == "float" || n.overload() == "int" || n.overload() == "base" ||
                      n.overload() == "float_ndigits" || n.overload() == "int_ndigits";
  if ((name == "abs" || name == "round") && scalar) return name + "(" + join(args) + ")";
  if (scalar || name == "fabs" || name == "float_power" || name == "atan2") {
    static const std::pair<std::string_view, const char*> kMath[] = {
        {"float_power", "pow"}, {"floor", "floor"}, {"ceil", "ceil"}, {"trunc", "trunc"}};
    for (const auto& [op, py] : kMath) {
      if (name == op) return std::string("math.") + py + "(" + join(args) + ")";
    }
    if (op_for_function("math." + name) == n.kind()) return "math." + name + "(" + join(args) + ")";
  }
  return {};
}

// The str ops of core/ops/kernels_str.cpp as the str methods and `%` that make them
// (convert/lower_call.cpp, lower_expr.cpp); empty for another op.
std::string str_op(const ir::Node& n, const std::vector<std::string>& args) {
  if (n.inputs().empty() || n.inputs()[0]->type().kind != ir::TypeKind::Str) return {};
  const std::string_view name = base_name(n.kind());
  if (name == "percentFormat") return operand(args[0]) + " % " + operand(args[1]);
  static const char* const kMethods[] = {"join",       "upper",    "lower",   "strip",
                                         "startswith", "endswith", "replace", "split"};
  for (const char* m : kMethods) {
    if (name != m) continue;
    std::vector<std::string> rest(args.begin() + 1, args.end());
    return operand(args[0]) + "." + m + "(" + join(rest) + ")";
  }
  return {};
}

// The list ops of core/ops/kernels_list.cpp as the list methods and subscripts that make
// them (convert/lower_list.cpp reads each spelling back); empty for another op.
// `xs[i] = v` and `xs += ys` are statements in Python: they are written as the calls
// they stand for (`xs.__setitem__(i, v)`, `xs.__iadd__(ys)`), which are expressions.
std::string list_op(const ir::Node& n, const std::vector<std::string>& args) {
  if (n.overload() != "t" || args.empty()) return {};
  const std::string_view name = base_name(n.kind());
  const std::string self = operand(args[0]);
  std::vector<std::string> rest(args.begin() + 1, args.end());
  if (name == "append" || name == "insert" || name == "pop" || name == "extend" ||
      name == "clear" || name == "index" || name == "count" || name == "remove" ||
      name == "reverse") {
    return self + "." + std::string(name) + "(" + join(rest) + ")";
  }
  if (name == "sort") {  // the reverse flag is a keyword of list.sort
    return self + ".sort(" + (rest.empty() ? "" : "reverse=" + rest[0]) + ")";
  }
  if (name == "_set_item") return self + ".__setitem__(" + join(rest) + ")";
  if (name == "add_") return self + ".__iadd__(" + join(rest) + ")";
  if (name == "__getitem__" && rest.size() == 1) return self + "[" + rest[0] + "]";
  if (name == "list") return "list(" + args[0] + ")";
  if (name == "slice") {
    auto part = [&](size_t i) { return i < args.size() && args[i] != "None" ? args[i] : ""; };
    std::string step = part(3) == "1" ? "" : part(3);
    return self + "[" + part(1) + ":" + part(2) + (step.empty() ? "" : ":" + step) + "]";
  }
  return {};
}

// The dict ops of core/ops/kernels_dict.cpp as the dict literals, methods and subscripts
// that make them (convert/lower_dict.cpp reads each spelling back); empty for another
// op. keys/values/items are lists in the graph (a dict view cannot be indexed), and the
// statements `d[k] = v` / `del d[k]` are written as the calls they stand for.
std::string dict_op(const ir::Node& n, const std::vector<std::string>& args) {
  if (n.kind() == "prim::DictConstruct") {
    std::string out;
    for (size_t i = 0; i + 1 < args.size(); i += 2) {
      out += (i ? ", " : "") + args[i] + ": " + args[i + 1];
    }
    return "{" + out + "}";
  }
  if (args.empty() || n.input(0)->type().kind != ir::TypeKind::Dict) return {};
  const std::string_view name = base_name(n.kind());
  const std::string self = operand(args[0]);
  std::vector<std::string> rest(args.begin() + 1, args.end());
  if (name == "__getitem__" && rest.size() == 1) return self + "[" + rest[0] + "]";
  if (name == "_set_item") return self + ".__setitem__(" + join(rest) + ")";
  if (name == "Delete") return self + ".__delitem__(" + join(rest) + ")";
  if (name == "__contains__" && rest.size() == 1) return "(" + rest[0] + " in " + self + ")";
  if (name == "keys" || name == "values" || name == "items") {
    return "list(" + self + "." + std::string(name) + "())";
  }
  if (name == "get" || name == "pop" || name == "update" || name == "clear" || name == "copy") {
    return self + "." + std::string(name) + "(" + join(rest) + ")";
  }
  return {};
}

}  // namespace

std::string python_literal(const IValue& v) {
  if (v.is_double()) {
    const double d = v.to_double();
    if (std::isnan(d)) return "math.nan";
    if (std::isinf(d)) return d > 0 ? "math.inf" : "-math.inf";
    return v.repr();
  }
  // The smallest int64 has no literal the lexer reads back (its magnitude is past
  // int64 before the minus applies): it is written as the expression Python folds.
  if (v.is_int() && v.to_int() == std::numeric_limits<int64_t>::min()) {
    return "(-9223372036854775807 - 1)";
  }
  if (v.is_none() || v.is_bool() || v.is_int() || v.is_string()) return v.repr();
  if (v.is_tuple() || v.is_list()) {
    std::vector<std::string> items;
    for (const IValue& item : v.items()) items.push_back(python_literal(item));
    if (v.is_list()) return "[" + join(items) + "]";
    return items.size() == 1 ? "(" + items[0] + ",)" : "(" + join(items) + ")";
  }
  if (v.is_tensor() && v.to_tensor().defined()) {
    const Tensor& t = v.to_tensor();
    int64_t index = 0;
    return "torch.tensor(" + tensor_data(t, index, 0) + ", dtype=" + dtype_torch_name(t.dtype()) +
           ")";
  }
  throw Error("d2s code: a constant of type " + v.type_name() + " has no Python literal");
}

const char* const kVjpHelper = R"py(def _d2s_vjp(fn, grads, args):
    # The gradient of fn(*args) for `grads`, one entry per argument: a tensor for a float
    # tensor (zeros where the result does not depend on it), a list for a list of
    # tensors, None for anything else.
    def leaf(a):
        if isinstance(a, torch.Tensor) and a.is_floating_point():
            return a.detach().requires_grad_()
        if isinstance(a, (list, tuple)):
            return [leaf(x) for x in a]
        return a

    def leaves(a):
        if isinstance(a, torch.Tensor):
            return [a] if a.requires_grad else []
        if isinstance(a, list):
            return [t for x in a for t in leaves(x)]
        return []

    ins = [leaf(a) for a in args]
    wrt = [t for a in ins for t in leaves(a)]
    with torch.enable_grad():
        out = fn(*ins)
    outs = list(out) if isinstance(out, (tuple, list)) else [out]
    pairs = [(o, g) for o, g in zip(outs, grads)
             if isinstance(o, torch.Tensor) and o.requires_grad and isinstance(g, torch.Tensor)]
    got = [None] * len(wrt)
    if pairs and wrt:
        got = torch.autograd.grad([o for o, _ in pairs], wrt, [g for _, g in pairs],
                                  allow_unused=True)
    by_leaf = {id(t): torch.zeros_like(t) if g is None else g.detach() for t, g in zip(wrt, got)}

    def grad_of(a):
        if isinstance(a, torch.Tensor):
            return by_leaf.get(id(a))
        if isinstance(a, list) and leaves(a):
            return [grad_of(x) for x in a]
        return None

    return [grad_of(a) for a in ins]


)py";

// grad::<op>(grads, args, result), one node of a backward graph (d2s grad): PyTorch's
// own derivative of the forward op, through the `_d2s_vjp` helper the file defines
// (kVjpHelper), at the forward node's arguments. The forward node is the one that made
// `result` (a tuple of its outputs when it has several); it is spelled as a lambda
// whose parameters stand for its non-constant inputs.
std::string gradient_call(const ir::Node& n, const RefFn& ref) {
  const ir::Node* forward = n.input(2)->node();
  if (forward->kind() == ir::kind::TupleConstruct && !forward->inputs().empty()) {
    forward = forward->input(0)->node();
  }
  if (forward->kind().rfind("aten::", 0) != 0) {
    throw Error("d2s code: '" + n.kind() + "' does not follow the forward node it differentiates",
                n.range(), "write the forward graph as code and differentiate it in PyTorch");
  }
  std::vector<std::string> params;
  const auto lambda_ref = [&](const ir::Value* v) {
    const auto& ins = forward->inputs();
    for (size_t i = 0; i < ins.size(); ++i) {
      if (ins[i] == v && !constant_of(v)) return "a" + std::to_string(i);
    }
    return ref(v);
  };
  for (size_t i = 0; i < forward->inputs().size(); ++i) params.push_back("a" + std::to_string(i));
  return "_d2s_vjp(lambda " + join(params) + ": " + node_expression(*forward, lambda_ref) + ", " +
         ref(n.input(0)) + ", " + ref(n.input(1)) + ")";
}

// The resampling ops as the F.interpolate call that records them: aten::__interpolate
// takes F.interpolate's own arguments; upsample_* (input, size, [align_corners,]
// scale_factors) the mode of their name.
std::string interpolate_call(const ir::Node& n, const std::vector<std::string>& args) {
  const std::string_view name = base_name(n.kind());
  const std::string f = "torch.nn.functional.interpolate(";
  if (name == "__interpolate") return f + join(args) + ")";
  const bool linear = name == "upsample_linear1d" || name == "upsample_bilinear2d" ||
                      name == "upsample_bicubic2d" || name == "upsample_trilinear3d";
  if (!linear && name != "upsample_nearest1d" && name != "upsample_nearest2d") return {};
  if (args.size() != (linear ? 4u : 3u)) return {};
  const std::string mode = name == "upsample_linear1d"      ? "linear"
                           : name == "upsample_bilinear2d"  ? "bilinear"
                           : name == "upsample_bicubic2d"   ? "bicubic"
                           : name == "upsample_trilinear3d" ? "trilinear"
                                                            : "nearest";
  return f + args[0] + ", size=" + args[1] + ", scale_factor=" + args[linear ? 3 : 2] + ", mode='" +
         mode + "'" + (linear ? ", align_corners=" + args[2] : "") + ")";
}

std::string node_expression(const ir::Node& n, const RefFn& ref) {
  const std::string& kind = n.kind();
  std::vector<std::string> args;
  for (const ir::Value* v : n.inputs()) args.push_back(ref(v));
  if (kind == ir::kind::Print) return "print(" + join(args) + ")";
  if (kind == ir::kind::TupleConstruct) {
    return args.size() == 1 ? "(" + args[0] + ",)" : "(" + join(args) + ")";
  }
  if (kind == ir::kind::ListConstruct) return "[" + join(args) + "]";
  if (kind == ir::kind::TupleIndex) {
    const IValue* index = n.attr("index");
    return operand(args[0]) + "[" + (index ? index->repr() : args.at(1)) + "]";
  }
  if (kind == ir::kind::TupleUnpack || kind == ir::kind::ListUnpack) return args.at(0);
  // An Optional known not to be None: in Python the value itself, said with
  // torch.jit.annotate so that the parse route reads the refinement back.
  if (kind == "prim::unchecked_cast") {
    switch (n.output()->type().kind) {
      case ir::TypeKind::Tensor:
        return "torch.jit.annotate(torch.Tensor, " + args.at(0) + ")";
      case ir::TypeKind::Int:
        return "torch.jit.annotate(int, " + args.at(0) + ")";
      case ir::TypeKind::Float:
        return "torch.jit.annotate(float, " + args.at(0) + ")";
      case ir::TypeKind::Bool:
        return "torch.jit.annotate(bool, " + args.at(0) + ")";
      case ir::TypeKind::List: {
        // An Optional[List[T]] entry parameter (the file imports typing then).
        const ir::Type& t = n.output()->type();
        const ir::TypeKind e = t.elements.empty() ? ir::TypeKind::Any : t.elements[0].kind;
        const char* item = e == ir::TypeKind::Int      ? "int"
                           : e == ir::TypeKind::Float  ? "float"
                           : e == ir::TypeKind::Bool   ? "bool"
                           : e == ir::TypeKind::Tensor ? "torch.Tensor"
                                                       : nullptr;
        if (!item) return args.at(0);
        return "torch.jit.annotate(typing.List[" + std::string(item) + "], " + args.at(0) + ")";
      }
      default:
        return args.at(0);
    }
  }
  if (kind == ir::kind::Uninitialized) return "None";
  if (kind.rfind("grad::", 0) == 0) return gradient_call(n, ref);

  std::string out;
  const std::string_view name = base_name(kind);
  if (kind.rfind("aten::", 0) == 0) {
    const bool default_alpha =
        n.inputs().size() == 2 || (n.inputs().size() == 3 && (name == "add" || name == "sub") &&
                                   is_int_constant(n.input(2), 1));
    if (const char* op = binary_operator(name);
        op && default_alpha && n.overload() != "Tensor_mode") {
      // `x.dtype == torch.float32`: the graph holds dtypes as their int codes, which
      // Python's torch.dtype never equals; the constant side is written as the dtype.
      if ((name == "eq" || name == "ne") && n.inputs().size() == 2) {
        for (size_t side : {size_t{0}, size_t{1}}) {
          if (n.input(1 - side)->node()->kind() == "prim::dtype") {
            args[side] = dtype_literal(n.input(side), ref);
          }
        }
      }
      return operand(args[0]) + " " + op + " " + operand(args[1]);
    }
    if (name == "neg" && args.size() == 1) return "-" + operand(args[0]);
    if (name == "__not__") return "not " + operand(args[0]);
    if (name == "__is__") return operand(args[0]) + " is " + operand(args[1]);
    if (name == "__isnot__") return operand(args[0]) + " is not " + operand(args[1]);
    if (name == "bitwise_not" && n.overload() == "int") return "~" + operand(args[0]);
    if (name == "size") {
      return operand(args[0]) + ".size(" + (args.size() > 1 ? args[1] : "") + ")";
    }
    if (name == "dim" || name == "numel" || name == "item")
      return operand(args[0]) + "." + std::string(name) + "()";
    if (name == "numpy_T") return operand(args[0]) + ".T";
    if (name == "backward" && backward_is_plain(n)) return operand(args[0]) + ".backward()";
    out = list_op(n, args);
    if (!out.empty()) return out;
    out = str_op(n, args);
    if (!out.empty()) return out;
    out = dict_op(n, args);
    if (!out.empty()) return out;
    if (name == "slice") out = subscript(n, ref, true);
    if (name == "select") out = subscript(n, ref, false);
    if (name == "index" && n.inputs().size() == 2) out = index_subscript(n, ref);
    if (name == "format") out = fstring(n, ref);
    if (out.empty()) out = interpolate_call(n, args);
    if (out.empty()) out = builtin_or_math(n, ref);
    if (out.empty()) out = call(n, ref);
  } else if (kind == "prim::dtype") {
    return operand(args.at(0)) + ".dtype";
  } else if (kind == "prim::DictConstruct") {
    out = dict_op(n, args);
  } else {
    out = builtin_or_math(n, ref);
  }
  if (out.empty()) {
    std::string qualified = kind + (n.overload().empty() ? "" : "." + n.overload());
    throw Error("d2s code: '" + qualified + "' has no spelling in the model language", n.range(),
                "the code generator writes the ops the language can call (docs/code.md)");
  }
  return out;
}

std::string guard_condition(const ir::Node& guard, const RefFn& ref) {
  const std::string v = operand(ref(guard.input(0)));
  const IValue* seen = guard.attr("seen");
  if (!seen) return v;
  if (seen->is_bool()) return seen->to_bool() ? v : "not " + v;
  if (seen->is_list() || seen->is_tuple()) {
    // A torch.Size does not compare equal to a list: check the length and each size.
    std::string cond = "len(" + v + ") == " + std::to_string(seen->items().size());
    for (size_t i = 0; i < seen->items().size(); ++i) {
      cond += " and " + v + "[" + std::to_string(i) + "] == " + python_literal(seen->items()[i]);
    }
    return cond;
  }
  if (seen->is_double() && std::isnan(seen->to_double())) return v + " != " + v;
  return v + " == " + operand(python_literal(*seen));
}

std::string guard_message(const ir::Node& guard) {
  const IValue* seen = guard.attr("seen");
  const IValue* expr = guard.attr("expr");
  const IValue* what = guard.attr("what");
  std::string text = "trace guard: '" + (expr && expr->is_string() ? expr->to_string() : "?") +
                     "' was " + (seen ? seen->repr() : "?") + " when traced";
  if (what && what->is_string()) text += " (" + what->to_string() + ")";
  return IValue(text).repr();
}

}  // namespace d2s::convert::codegen
