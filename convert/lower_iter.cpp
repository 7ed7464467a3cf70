// next(), iter() and a module's parameters() / named_parameters() in the parse route.
// The instance is in hand at conversion time, so `self.parameters()` is the module's
// parameters, known item by item (the graph inputs of their state_dict names), and
// `next(self.parameters())` or `next(iter(xs))` of items known at conversion time is the
// first of them. An iterator kept in a variable and advanced by several next() calls
// has state the graph has no value for: the parse route refuses it, naming the modes
// that run it.
#include <unordered_set>

#include "convert/lowerer.h"
#include "trace/interp.h"

namespace d2s::convert {

void collect_module_parameters(const interp::InstanceValue& m, const std::string& prefix,
                               std::vector<std::pair<std::string, Tensor>>* out, int depth);

namespace {

const char* const kEagerRunsIt =
    "eager and trace modes run it (d2s run --mode eager, or --mode trace)";

bool is_call_of(const ast::Expr* e, const char* builtin) {
  if (!e || e->kind != ast::ExprKind::Call) return false;
  const ast::Expr& f = *e->as<ast::Call>().func;
  if (builtin) return f.kind == ast::ExprKind::Name && f.as<ast::Name>().id == builtin;
  return true;
}

}  // namespace

bool Lowerer::is_parameter_walk(const interp::InstanceValue& inst, const std::string& attr) const {
  return inst.is_module && (attr == "parameters" || attr == "named_parameters") &&
         !inst.get(attr) && !(inst.cls && find_method(inst.type, attr));
}

Sugared Lowerer::call_parameter_walk(const Sugared& method, CallArgs& args,
                                     const SourceRange& range) {
  if (!args.positional.empty() || !args.keywords.empty()) {
    fail(method.name + "() with arguments is not supported by the parse route", range,
         kEagerRunsIt);
  }
  const ModuleRef& ref = *method.module;
  std::vector<std::pair<std::string, Tensor>> params;
  collect_module_parameters(*ref.instance, "", &params, 0);
  std::vector<Sugared> items;
  std::unordered_set<const void*> seen;  // a tied tensor once, under its first name
  for (const auto& [name, t] : params) {
    if (!seen.insert(t.impl()).second) continue;
    auto it = globals_.parameters.find(ref.qualify(name));
    if (it == globals_.parameters.end()) {
      fail("the parameter '" + ref.qualify(name) + "' is not an input of the parsed graph", range,
           kEagerRunsIt);
    }
    Sugared p = Sugared::of(it->second);
    if (method.name == "parameters") {
      items.push_back(p);
    } else {
      items.push_back(Sugared::of_items({Sugared::of(constant(IValue(name), range)), p}));
    }
  }
  return Sugared::of_items(std::move(items));
}

std::optional<Sugared> Lowerer::call_next_iter(const std::string& q, CallArgs& args,
                                               const SourceRange& range) {
  if (q != "next" && q != "iter") return std::nullopt;
  if (!args.keywords.empty()) {
    fail("TypeError: " + q + "() takes no keyword arguments", args.keywords[0].second.range);
  }
  if (q == "iter") {
    fail("iter() is supported by the parse route only inside next(iter(x))", range,
         std::string("an iterator kept in a variable has state the graph does not hold; ") +
             kEagerRunsIt);
  }
  if (args.positional.empty() || args.positional.size() > 2) {
    fail("TypeError: next expected 1 or 2 arguments, got " + std::to_string(args.positional.size()),
         range);
  }
  const CallArg& it = args.positional[0];
  // A fresh iterator: iter(x) or a call returning a generator (self.parameters()).
  const bool fresh = is_call_of(it.expr, "iter") ||
                     (is_call_of(it.expr, nullptr) && it.value.kind == Sugared::Kind::Items);
  if (!fresh) {
    fail("next() of an iterator kept in a variable is not supported by the parse route", range,
         std::string("write next(iter(x)) or next(self.parameters()); ") + kEagerRunsIt);
  }
  std::vector<Sugared> items = require_items(it.value, "next()", it.range);
  if (!items.empty()) return items.front();
  if (args.positional.size() == 2) return args.positional[1].value;
  fail("StopIteration", range, "next() of an empty iterable with no default");
}

}  // namespace d2s::convert
