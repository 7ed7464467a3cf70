// copy.deepcopy, as model files use it to stack N copies of a layer: tensors are
// cloned (a parameter stays a parameter, with its requires_grad), lists, tuples and
// instances (modules too, with their parameter, child and buffer lists) are copied,
// and a value reached twice is copied once (Python's memo), so tied weights stay tied
// in the copy. Functions, classes, numbers and strings are shared, as Python does.
#include <unordered_map>

#include "trace/interp.h"

namespace d2s::interp {

namespace {

struct DeepCopier {
  Interpreter& in;
  const SourceRange& range;
  std::unordered_map<const void*, IValue> memo;

  IValue copy(const IValue& v, int depth) {
    if (depth > 1000) in.fail("RecursionError: deepcopy of a value nested too deep", range);
    if (v.is_tensor()) {
      const Tensor& t = v.to_tensor();
      if (!t.defined()) return v;
      if (auto it = memo.find(t.impl()); it != memo.end()) return it->second;
      Tensor c = t.clone();
      IValue out = in.is_parameter(t) ? in.make_parameter(c, t.requires_grad(), range) : IValue(c);
      if (!in.is_parameter(t) && t.requires_grad()) out.to_tensor().set_requires_grad(true);
      return memo[t.impl()] = out;
    }
    if (v.is_list()) {
      const void* key = &v.list_items();
      if (auto it = memo.find(key); it != memo.end()) return it->second;
      IValue out = IValue::list({});
      memo[key] = out;  // before the items: a list holding itself copies to one
      for (const IValue& item : v.list_items()) out.list_items().push_back(copy(item, depth + 1));
      return out;
    }
    if (v.is_tuple()) {
      ValueList items;
      for (const IValue& item : v.tuple_items()) items.push_back(copy(item, depth + 1));
      return IValue::tuple(std::move(items));
    }
    auto* inst = as_obj<InstanceValue>(v);
    if (!inst) return v;  // numbers, strings, None, functions, classes, builtins
    if (auto it = memo.find(inst); it != memo.end()) return it->second;
    auto c = std::make_shared<InstanceValue>(*inst);  // type, class and the name lists
    IValue out(std::static_pointer_cast<Object>(c));
    memo[inst] = out;
    for (auto& [name, value] : c->values) value = copy(value, depth + 1);
    return out;
  }
};

}  // namespace

bool Interpreter::is_copy_name(const std::string& qualname) {
  return qualname == "copy.deepcopy";
}

IValue Interpreter::call_copy_name(const std::string& qualname, ValueList args, Kwargs kwargs,
                                   const SourceRange& range) {
  ValueList a = bind_args(qualname, {{"x", std::nullopt}, {"memo", IValue()}}, std::move(args),
                          std::move(kwargs), range);
  if (!a[1].is_none()) fail("deepcopy(memo=...) is not supported by d2s", range, "leave memo out");
  DeepCopier copier{*this, range, {}};
  return copier.copy(a[0], 0);
}

}  // namespace d2s::interp
