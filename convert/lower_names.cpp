// Names and attributes: local variables, globals (imports, defs, classes, constants),
// Python builtins, `torch.*` / `math.*` names, and attributes of values.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

#include "convert/lowerer.h"
#include "convert/passes.h"
#include "core/base/text.h"

namespace d2s::convert {

using ir::Type;
using ir::TypeKind;

namespace {

// Builtins the model language knows (the unsupported ones fail when called, with a
// message naming them, rather than as unknown names).
const char* const kBuiltins[] = {"print",    "range",   "len",   "int",   "float",     "bool",
                                 "min",      "max",     "abs",   "round", "sum",       "isinstance",
                                 "super",    "list",    "tuple", "str",   "enumerate", "zip",
                                 "getattr",  "hasattr", "type",  "dict",  "any",       "all",
                                 "reversed", "next",    "iter",  "sorted"};

bool is_builtin(const std::string& name) {
  for (const char* b : kBuiltins) {
    if (name == b) return true;
  }
  return false;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

std::string did_you_mean(const std::string& name, const std::vector<std::string>& candidates) {
  // A different case is the likeliest typo (W_h for w_h); then the nearest by edits.
  for (const auto& c : candidates) {
    if (c != name && lower(c) == lower(name)) return "did you mean '" + c + "'?";
  }
  std::string best;
  size_t best_d = std::max<size_t>(1, name.size() / 3) + 1;
  for (const auto& c : candidates) {
    if (c == name) continue;
    size_t d = edit_distance(name, c);
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  return best.empty() ? std::string() : "did you mean '" + best + "'?";
}

Sugared Lowerer::lookup_name(const std::string& name, const SourceRange& range) {
  if (env_) {
    if (const Binding* b = env_->lookup(name)) {
      if (b->is_poisoned()) fail(b->poison, range, b->poison_hint);
      return b->value;
    }
  }
  if (const Binding* b = closure_binding(name)) {
    if (b->is_poisoned()) fail(b->poison, range, b->poison_hint);
    return b->value;
  }
  if (auto it = globals_.constants.find(name); it != globals_.constants.end()) {
    return Sugared::of(constant(it->second, range));
  }
  if (auto it = globals_.foreign.find(name); it != globals_.foreign.end()) {
    fail("'" + name + "' comes from the module '" + it->second.first +
             "', which d2s does not implement (imported at line " +
             std::to_string(it->second.second.line) + ")",
         range,
         "d2s accepts the import, but converted code may not use it; write it with torch and "
         "math");
  }
  if (auto it = globals_.names.find(name); it != globals_.names.end()) return it->second;
  if (is_builtin(name)) return Sugared::of_kind(Sugared::Kind::Builtin, name);
  std::vector<std::string> candidates = env_ ? env_->visible_names() : std::vector<std::string>{};
  for (const auto& [n, v] : globals_.names) candidates.push_back(n);
  for (const auto& [n, v] : globals_.constants) candidates.push_back(n);
  for (const char* b : kBuiltins) candidates.push_back(b);
  std::sort(candidates.begin(), candidates.end());
  fail("NameError: name '" + name + "' is not defined", range, did_you_mean(name, candidates));
}

Sugared Lowerer::emit_attribute(const Sugared& base, const std::string& attr,
                                const SourceRange& range) {
  switch (base.kind) {
    case Sugared::Kind::Namespace: {
      std::string q = base.name + "." + attr;
      if (base.name == "numpy" || base.name == "numbers" || base.name == "collections" ||
          base.name == "functools" || base.name == "itertools" || base.name == "warnings") {
        return stdlib_attribute(base.name, attr, range);
      }
      if (q == "torch.nn" || q == "torch.nn.functional" || q == "torch.jit" ||
          q == "torch.linalg") {
        return Sugared::of_kind(Sugared::Kind::Namespace, q);
      }
      if (q == "math.pi") return Sugared::of(constant(IValue(M_PI), range));
      if (q == "math.e") return Sugared::of(constant(IValue(M_E), range));
      if (q == "math.inf") {
        return Sugared::of(constant(IValue(std::numeric_limits<double>::infinity()), range));
      }
      if (q == "math.tau") return Sugared::of(constant(IValue(2 * M_PI), range));
      // torch.float32 etc. are ScalarType codes, as in TorchScript graphs.
      DType d;
      if (base.name == "torch" && attr != "int" && parse_dtype(attr, &d)) {
        return Sugared::of(constant(IValue(dtype_scalar_type(d)), range));
      }
      if (q == "torch.int")
        return Sugared::of(constant(IValue(dtype_scalar_type(DType::Int64)), range));
      return Sugared::of_kind(Sugared::Kind::Builtin, q);
    }
    case Sugared::Kind::Module:
      return module_attribute(base, attr, range);
    case Sugared::Kind::Value:
      return value_attribute(base.value, attr, range);
    case Sugared::Kind::Builtin:
      if (attr == "__name__") {  // type(m).__name__ of a built-in module or value
        return Sugared::of(constant(IValue(base.name.substr(base.name.rfind('.') + 1)), range));
      }
      return Sugared::of_kind(Sugared::Kind::Builtin, base.name + "." + attr);
    case Sugared::Kind::Super:
      return super_attribute(base, attr, range);
    case Sugared::Kind::Items:
      // A namedtuple's field, or _fields.
      if (base.fields) {
        for (size_t i = 0; i < base.fields->size(); ++i) {
          if ((*base.fields)[i] == attr) return (*base.items)[i];
        }
        if (attr == "_fields") {
          std::vector<ir::Value*> names;
          for (const std::string& f : *base.fields) names.push_back(constant(IValue(f), range));
          return Sugared::of(make_tuple(names, range));
        }
        fail("AttributeError: '" + base.name + "' object has no attribute '" + attr + "'", range,
             did_you_mean(attr, *base.fields));
      }
      fail("AttributeError: 'tuple' object has no attribute '" + attr + "'", range);
    case Sugared::Kind::Keywords:
      return keywords_attribute(base, attr, range);
    case Sugared::Kind::Class:
      if (attr == "__name__") return Sugared::of(constant(IValue(base.name), range));
      if (auto a = class_attribute(base.name, attr, range)) return *a;
      fail("AttributeError: type object '" + base.name + "' has no attribute '" + attr + "'",
           range);
    default:
      fail("attributes of " + base.describe() + " are not supported by the parse route", range);
  }
}

Sugared Lowerer::value_attribute(ir::Value* v, const std::string& attr, const SourceRange& range) {
  if (v->type().is_tensor() || v->type().kind == TypeKind::Any) {
    if (attr == "shape") return Sugared::of(emit_op("aten::size", {v}, range));
    if (attr == "ndim") return Sugared::of(emit_op("aten::dim", {v}, range));
    if (attr == "T") return Sugared::of(emit_op("aten::t", {v}, range));
    if (attr == "dtype") return Sugared::of(emit_op("prim::dtype", {v}, range));
    // d2s runs on the CPU: a tensor's device is "cpu", as eager mode reads it.
    if (attr == "device") return Sugared::of(constant(IValue("cpu"), range));
    if (attr == "is_cuda") return Sugared::of(bool_const(false));
    if (attr == "grad" || attr == "requires_grad" || attr == "grad_fn" || attr == "data") {
      fail("'." + attr + "' is not supported yet by the parse route", range,
           "gradients come from `d2s run --grad` or `d2s grad`");
    }
  }
  Sugared m = Sugared::of_kind(Sugared::Kind::Method, attr);
  m.value = v;
  return m;
}

std::optional<IValue> Lowerer::static_value(ir::Value* v, int depth) {
  if (auto c = constant_value(v)) return c;
  // Constant subexpressions (`n - 1` with n a constant) are evaluated on the spot,
  // without changing the graph, where the lowering needs a value now (tuple
  // indices, a range() step).
  if (depth > 32) return std::nullopt;
  ir::Node* n = v->node();
  if (n->outputs().size() != 1 || !n->blocks().empty()) return std::nullopt;
  std::vector<IValue> inputs;
  for (ir::Value* in : n->inputs()) {
    auto c = static_value(in, depth + 1);
    if (!c) return std::nullopt;
    inputs.push_back(*c);
  }
  auto out = evaluate_node(*n, inputs);
  if (!out || out->size() != 1) return std::nullopt;
  return (*out)[0];
}

}  // namespace d2s::convert
