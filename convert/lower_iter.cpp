// next(), iter() and a module's parameters() / named_parameters() in the parse route.
// The instance is in hand at conversion time, so `self.parameters()` is the module's
// parameters, known item by item (the graph inputs of their state_dict names). An
// iterator over items known at conversion time (iter() of a module list, a tuple, a list
// written out, a range with constant bounds; a parameters() generator) keeps its
// position at conversion time: `it = iter(self.layers); first = next(it); for m in it:`
// reads the items one after the other, as the interpreter does. The position is known
// while next() and `for x in it` run in the block the iterator was made in; an iterator
// advanced inside an if or a loop decided when the graph runs, or one over a list whose
// length is known only then, has state the graph has no value for: refused, naming
// the modes that run it.
#include <unordered_set>

#include "convert/lowerer.h"
#include "trace/interp.h"

namespace d2s::convert {

using ir::TypeKind;

void collect_module_parameters(const interp::InstanceValue& m, const std::string& prefix,
                               std::vector<std::pair<std::string, Tensor>>* out, int depth);

bool Lowerer::is_parameter_walk(const interp::InstanceValue& inst, const std::string& attr) const {
  return inst.is_module && (attr == "parameters" || attr == "named_parameters") &&
         !inst.get(attr) && !(inst.cls && find_method(inst.type, attr));
}

Sugared Lowerer::call_parameter_walk(const Sugared& method, CallArgs& args,
                                     const SourceRange& range) {
  if (!args.positional.empty() || !args.keywords.empty()) {
    fail(method.name + "() with arguments is not supported by the parse route", range, kEagerRuns);
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
           kEagerRuns);
    }
    Sugared p = Sugared::of(it->second);
    if (method.name == "parameters") {
      items.push_back(p);
    } else {
      items.push_back(Sugared::of_items({Sugared::of(constant(IValue(name), range)), p}));
    }
  }
  // A generator: next() and for loops advance it.
  return make_iterator(std::move(items));
}

Sugared Lowerer::make_iterator(std::vector<Sugared> items) {
  Sugared s = Sugared::of_kind(Sugared::Kind::Iterator, "");
  s.iterator = std::make_shared<IteratorState>();
  s.iterator->items = std::move(items);
  s.iterator->block = graph_.insert_point()->owning_block();
  return s;
}

const Sugared* Lowerer::advance_iterator(IteratorState& it, const std::string& what,
                                         const SourceRange& range) {
  if (!it.lost.empty()) {
    fail(what + " of an iterator whose position is known only when the graph runs (" + it.lost +
             ") is not supported by the parse route",
         range, kEagerRuns);
  }
  if (graph_.insert_point()->owning_block() != it.block) {
    fail(what +
             " of an iterator made outside the if or loop it runs in is not supported by the "
             "parse route",
         range,
         std::string("the condition or the trip count is known only when the graph runs, so the "
                     "iterator's position after it would be too: advance it where it was made; ") +
             kEagerRuns);
  }
  if (it.next >= it.items.size()) return nullptr;
  return &it.items[it.next++];
}

std::vector<Sugared> Lowerer::iterator_rest(const Sugared& s, const SourceRange& range) {
  // A builtin or a comprehension takes the items left; how many it consumes (zip,
  // any) may be known only when the graph runs, so later next() calls are refused.
  IteratorState& it = *s.iterator;
  std::vector<Sugared> rest(it.items.begin() + static_cast<std::ptrdiff_t>(it.next),
                            it.items.end());
  if (it.lost.empty()) it.lost = "its items were read at line " + std::to_string(range.line);
  return rest;
}

std::optional<Sugared> Lowerer::call_next_iter(const std::string& q, CallArgs& args,
                                               const SourceRange& range) {
  if (q != "next" && q != "iter") return std::nullopt;
  if (!args.keywords.empty()) {
    fail("TypeError: " + q + "() takes no keyword arguments", args.keywords[0].second.range);
  }
  if (q == "iter") {
    if (args.positional.size() != 1) {
      fail("iter() with " + std::to_string(args.positional.size()) +
               " arguments is not supported by the parse route",
           range, std::string("iter(x) of one iterable is; ") + kEagerRuns);
    }
    const CallArg& a = args.positional[0];
    if (a.value.kind == Sugared::Kind::Iterator) return a.value;  // iter(it) is it
    std::optional<std::vector<Sugared>> items = items_of(a.value, a.range);
    if (!items) {
      fail("iter() of " + a.value.describe() +
               ", whose length is known only when the graph runs, is not supported by the parse "
               "route",
           a.range,
           std::string("the parse route keeps an iterator's position at conversion time, over a "
                       "module list, a tuple, a list written out or a range with constant "
                       "bounds; ") +
               kEagerRuns);
    }
    return make_iterator(std::move(*items));
  }
  if (args.positional.empty() || args.positional.size() > 2) {
    fail("TypeError: next expected 1 or 2 arguments, got " + std::to_string(args.positional.size()),
         range);
  }
  const CallArg& it = args.positional[0];
  if (it.value.kind != Sugared::Kind::Iterator) {
    // Python's error for a list, a tuple, a tensor or a module.
    std::string type = "object";
    if (it.value.kind == Sugared::Kind::Items) type = "tuple";
    if (it.value.kind == Sugared::Kind::Module && it.value.module) {
      type = it.value.module->instance->type;
    }
    if (it.value.is_value()) {
      const ir::Type& t = it.value.value->type();
      type = t.kind == TypeKind::List    ? "list"
             : t.kind == TypeKind::Tuple ? "tuple"
             : t.is_tensor()             ? "Tensor"
                                         : t.str();
    }
    fail("TypeError: '" + type + "' object is not an iterator", range,
         "iter(x) makes an iterator of a list or tuple: next(iter(x))");
  }
  if (const Sugared* item = advance_iterator(*it.value.iterator, "next()", range)) return *item;
  if (args.positional.size() == 2) return args.positional[1].value;
  fail("StopIteration", range, "next() of an empty iterable with no default");
}

}  // namespace d2s::convert
