// nn.ModuleDict: submodules by string key, in insertion order, as PyTorch 1.13 has it.
// It is a built-in module instance (NnKind::ModuleDict, no forward) whose children are
// its keys, so state_dict names are `heads.a.weight` and modules()/named_modules()
// walk it as any module. Built from a dict, an OrderedDict, a list of (key, module)
// pairs or another ModuleDict; `d[key]`, `d[key] = m`, iteration (keys), keys(),
// values(), items(), len, `in`, update(), pop() and clear().
#include <algorithm>

#include "trace/interp.h"
#include "trace/py_dict.h"

namespace d2s::interp {

namespace {

InstanceValue* as_module_dict(const IValue& v) {
  auto* inst = as_obj<InstanceValue>(v);
  return inst && inst->nn == NnKind::ModuleDict ? inst : nullptr;
}

bool has_key(const InstanceValue& d, const std::string& k) {
  return std::find(d.children.begin(), d.children.end(), k) != d.children.end();
}

// Names hasattr(module_dict, name) finds besides its keys: add_module refuses them as
// keys ("attribute 'keys' already exists").
bool is_module_dict_attribute(const std::string& name) {
  static const char* const kNames[] = {"training",
                                       "keys",
                                       "values",
                                       "items",
                                       "update",
                                       "pop",
                                       "clear",
                                       "forward",
                                       "eval",
                                       "train",
                                       "parameters",
                                       "modules",
                                       "apply",
                                       "children",
                                       "buffers",
                                       "to",
                                       "cuda",
                                       "cpu",
                                       "state_dict",
                                       "named_modules",
                                       "named_parameters",
                                       "named_children",
                                       "named_buffers",
                                       "register_buffer",
                                       "register_parameter",
                                       "add_module",
                                       "zero_grad",
                                       "type",
                                       "float",
                                       "double"};
  return std::any_of(std::begin(kNames), std::end(kNames),
                     [&](const char* n) { return name == n; });
}

}  // namespace

bool Interpreter::is_module_dict(const IValue& v) {
  return as_module_dict(v) != nullptr;
}

bool Interpreter::is_module_dict_method(const std::string& name) {
  return name == "keys" || name == "values" || name == "items" || name == "update" ||
         name == "pop" || name == "clear";
}

void Interpreter::module_dict_update(const IValue& d, const IValue& source,
                                     const SourceRange& range) {
  // A mapping (dict, OrderedDict, ModuleDict) gives its items in order; any other
  // iterable gives (key, module) pairs, as ModuleDict.update reads them.
  if (auto* other = as_module_dict(source)) {
    const std::vector<std::string> keys = other->children;  // `d.update(d)` is fine
    for (const std::string& k : keys) module_dict_setitem(d, IValue(k), *other->get(k), range);
    return;
  }
  if (DictValue* m = as_dict(source); m && !m->is_set) {
    const auto items = m->items;
    for (const auto& [k, v] : items) module_dict_setitem(d, k, v, range);
    return;
  }
  const bool iterable = seq_items(source) || as_dict(source) || as_obj<RangeValue>(source) ||
                        source.is_string() || source.is_tensor() || as_module_dict(source);
  if (!iterable) {
    fail(
        "TypeError: ModuleDict.update should be called with an iterable of key/value pairs, "
        "but got " +
            py_type_name(source),
        range);
  }
  ValueList pairs = iterate(source, range);
  for (size_t j = 0; j < pairs.size(); ++j) {
    const ValueList* kv = seq_items(pairs[j]);
    if (!kv) {
      fail("TypeError: ModuleDict update sequence element #" + std::to_string(j) +
               " should be Iterable; is" + py_type_name(pairs[j]),
           range);
    }
    if (kv->size() != 2) {
      fail("ValueError: ModuleDict update sequence element #" + std::to_string(j) + " has length " +
               std::to_string(kv->size()) + "; 2 is required",
           range);
    }
    module_dict_setitem(d, (*kv)[0], (*kv)[1], range);
  }
}

IValue Interpreter::module_dict_getitem(const IValue& d, const IValue& key,
                                        const SourceRange& range) {
  InstanceValue* inst = as_module_dict(d);
  if (!key.is_string() || !has_key(*inst, key.to_string())) {
    std::string keys;
    for (const std::string& c : inst->children) keys += (keys.empty() ? "'" : ", '") + c + "'";
    fail("KeyError: " + py_repr(key), range,
         keys.empty() ? "the ModuleDict is empty" : "its keys are " + keys);
  }
  return *inst->get(key.to_string());
}

void Interpreter::module_dict_setitem(const IValue& d, const IValue& key, IValue value,
                                      const SourceRange& range) {
  // nn.Module.add_module's checks, in its order.
  auto* m = as_obj<InstanceValue>(value);
  if (value.is_none()) {
    fail("a ModuleDict entry of None is not supported by d2s", range,
         "leave the key out, or store nn.Identity()");
  }
  if (!m || !m->is_module) {
    fail("TypeError: " + py_type_name(value) + " is not a Module subclass", range);
  }
  if (!key.is_string()) {
    fail("TypeError: module name should be a string. Got " + py_type_name(key), range);
  }
  InstanceValue* inst = as_module_dict(d);
  const std::string& k = key.to_string();
  if (!has_key(*inst, k) && (inst->get(k) || is_module_dict_attribute(k))) {
    fail("KeyError: " + py_repr(IValue("attribute '" + k + "' already exists")), range);
  }
  if (k.find('.') != std::string::npos) {
    fail("KeyError: " + py_repr(IValue("module name can't contain \".\", got: " + k)), range);
  }
  if (k.empty())
    fail("KeyError: " + py_repr(IValue(std::string("module name can't be empty string \"\""))),
         range);
  setattr(d, k, std::move(value), range);
}

bool Interpreter::module_dict_contains(const IValue& d, const IValue& key) const {
  return key.is_string() && has_key(*as_module_dict(d), key.to_string());
}

ValueList Interpreter::module_dict_keys(const IValue& d) const {
  ValueList out;
  for (const std::string& k : as_module_dict(d)->children) out.push_back(IValue(k));
  return out;
}

IValue Interpreter::call_module_dict_method(const IValue& d, const std::string& name,
                                            ValueList args, Kwargs kwargs,
                                            const SourceRange& range) {
  InstanceValue* inst = as_module_dict(d);
  const std::string fname = "ModuleDict." + name;
  if (name == "update") {
    ValueList a =
        bind_args(fname, {{"modules", std::nullopt}}, std::move(args), std::move(kwargs), range);
    module_dict_update(d, a[0], range);
    return IValue();
  }
  auto erase = [&](const std::string& k) {
    inst->children.erase(std::find(inst->children.begin(), inst->children.end(), k));
    inst->order.erase(std::remove(inst->order.begin(), inst->order.end(), k), inst->order.end());
    inst->values.erase(k);
  };
  if (name == "pop") {
    ValueList a =
        bind_args(fname, {{"key", std::nullopt}}, std::move(args), std::move(kwargs), range);
    IValue v = module_dict_getitem(d, a[0], range);
    erase(a[0].to_string());
    return v;
  }
  bind_args(fname, {}, std::move(args), std::move(kwargs), range);
  if (name == "clear") {
    const std::vector<std::string> keys = inst->children;
    for (const std::string& k : keys) erase(k);
    return IValue();
  }
  // keys(), values() and items() are views in PyTorch; lists iterate the same way.
  ValueList out;
  for (const std::string& k : inst->children) {
    const IValue& m = *inst->get(k);
    if (name == "keys") out.push_back(IValue(k));
    if (name == "values") out.push_back(m);
    if (name == "items") out.push_back(IValue::tuple({IValue(k), m}));
  }
  return IValue::list(std::move(out));
}

}  // namespace d2s::interp
