// A module's state and structure as nn.Module 1.13 has them: register_buffer
// (persistent or not), register_parameter (also None), buffers(), named_buffers(),
// modules(), named_modules(), children(), named_children() and apply(fn). The walks
// are iterative (a module tree may share modules, or even contain itself) and skip a
// module already seen, as PyTorch's memo sets do.
#include <algorithm>
#include <unordered_set>

#include "trace/interp.h"

namespace d2s::interp {

namespace {

bool listed(const std::vector<std::string>& v, const std::string& name) {
  return std::find(v.begin(), v.end(), name) != v.end();
}

// The submodules of `m` (named as `m._modules` holds them, None left out).
std::vector<std::pair<std::string, IValue>> child_modules(const InstanceValue& m) {
  std::vector<std::pair<std::string, IValue>> out;
  for (const std::string& c : m.children) {
    const IValue* v = m.get(c);
    if (v && as_obj<InstanceValue>(*v)) out.emplace_back(c, *v);
  }
  return out;
}

// named_modules(): `m` first (named prefix), then each child's tree in order, each
// module once.
std::vector<std::pair<std::string, IValue>> named_modules_of(const IValue& self,
                                                             const std::string& prefix) {
  std::vector<std::pair<std::string, IValue>> out;
  std::unordered_set<const Object*> seen;
  std::vector<std::pair<std::string, IValue>> todo{{prefix, self}};
  while (!todo.empty()) {
    auto [name, v] = std::move(todo.back());
    todo.pop_back();
    if (!seen.insert(v.to_object().get()).second) continue;
    out.emplace_back(name, v);
    auto kids = child_modules(*as_obj<InstanceValue>(v));
    for (auto it = kids.rbegin(); it != kids.rend(); ++it) {
      todo.emplace_back(name.empty() ? it->first : name + "." + it->first, it->second);
    }
  }
  return out;
}

}  // namespace

bool Interpreter::is_module_state_method(const std::string& name) {
  static const char* const kNames[] = {
      "register_buffer", "register_parameter", "buffers",        "named_buffers",
      "modules",         "named_modules",      "children",       "named_children",
      "apply",           "add_module",         "register_module"};
  return std::find(std::begin(kNames), std::end(kNames), name) != std::end(kNames);
}

void Interpreter::collect_buffers(const InstanceValue& m, const std::string& prefix,
                                  bool persistent_only,
                                  std::vector<std::pair<std::string, Tensor>>* out) {
  // state_dict's order: a module's own buffers, then each child's (recursively). The
  // walk is bounded as collect_parameters' is: a module containing itself stops.
  std::vector<std::pair<const InstanceValue*, std::string>> todo{{&m, prefix}};
  while (!todo.empty()) {
    auto [cur, pre] = todo.back();
    todo.pop_back();
    if (std::count(pre.begin(), pre.end(), '.') > 100) continue;
    for (const std::string& b : cur->buffers) {
      if (persistent_only && listed(cur->non_persistent, b)) continue;
      const IValue* v = cur->get(b);
      if (v && v->is_tensor()) out->emplace_back(pre + b, v->to_tensor());
    }
    auto kids = child_modules(*cur);
    for (auto it = kids.rbegin(); it != kids.rend(); ++it) {
      todo.emplace_back(as_obj<InstanceValue>(it->second), pre + it->first + ".");
    }
  }
}

IValue Interpreter::call_module_state_method(const IValue& self, InstanceValue& inst,
                                             const std::string& name, ValueList args, Kwargs kwargs,
                                             const SourceRange& range) {
  const std::string fname = inst.type + "." + name;
  auto check_name = [&](const IValue& n, const char* what) {
    if (!n.is_string()) {
      fail("TypeError: " + std::string(what) + " name should be a string. Got " + py_type_name(n),
           range);
    }
    const std::string& s = n.to_string();
    if (s.find('.') != std::string::npos)
      fail("KeyError: \"" + std::string(what) + " name can't contain \\\".\\\"\"", range);
    if (s.empty())
      fail("KeyError: \"" + std::string(what) + " name can't be empty string \\\"\\\"\"", range);
    return s;
  };
  if (name == "register_buffer") {
    ValueList a = bind_args(
        fname, {{"name", std::nullopt}, {"tensor", std::nullopt}, {"persistent", IValue(true)}},
        std::move(args), std::move(kwargs), range);
    const std::string n = check_name(a[0], "buffer");
    if (inst.get(n) && !listed(inst.buffers, n)) {
      fail("KeyError: \"attribute '" + n + "' already exists\"", range);
    }
    if (!a[1].is_none() && !a[1].is_tensor()) {
      fail("TypeError: cannot assign '" + py_type_name(a[1]) + "' object to buffer '" + n +
               "' (torch Tensor or None required)",
           range);
    }
    if (!listed(inst.buffers, n)) inst.buffers.push_back(n);
    auto np = std::find(inst.non_persistent.begin(), inst.non_persistent.end(), n);
    if (truthy(a[2], range)) {
      if (np != inst.non_persistent.end()) inst.non_persistent.erase(np);
    } else if (np == inst.non_persistent.end()) {
      inst.non_persistent.push_back(n);
    }
    inst.set(n, a[1]);
    return IValue();
  }
  if (name == "add_module" || name == "register_module") {
    // add_module(name, module): a child by that name (torchvision's DenseNet names its
    // layers "denselayer%d"), with nn.Module 1.13's checks and messages.
    ValueList a = bind_args(fname, {{"name", std::nullopt}, {"module", std::nullopt}},
                            std::move(args), std::move(kwargs), range);
    if (inst.nn == NnKind::ModuleDict) {
      module_dict_setitem(self, a[0], a[1], range);
      return IValue();
    }
    auto* child = as_obj<InstanceValue>(a[1]);
    if (!a[1].is_none() && !(child && child->is_module)) {
      fail("TypeError: " + py_type_name(a[1]) + " is not a Module subclass", range);
    }
    if (!a[0].is_string()) {
      fail("TypeError: module name should be a string. Got " + py_type_name(a[0]), range);
    }
    const std::string& n = a[0].to_string();
    if (inst.get(n) && !listed(inst.children, n)) {
      fail("KeyError: " + py_repr(IValue("attribute '" + n + "' already exists")), range);
    }
    if (n.find('.') != std::string::npos) {
      fail("KeyError: " + py_repr(IValue("module name can't contain \".\", got: " + n)), range);
    }
    if (n.empty())
      fail("KeyError: " + py_repr(IValue("module name can't be empty string \"\"")), range);
    setattr(self, n, a[1], range);
    return IValue();
  }
  if (name == "register_parameter") {
    ValueList a = bind_args(fname, {{"name", std::nullopt}, {"param", std::nullopt}},
                            std::move(args), std::move(kwargs), range);
    const std::string n = check_name(a[0], "parameter");
    if (inst.get(n) && !listed(inst.params, n)) {
      fail("KeyError: \"attribute '" + n + "' already exists\"", range);
    }
    if (!a[1].is_none() && !(a[1].is_tensor() && is_parameter(a[1].to_tensor()))) {
      fail("TypeError: cannot assign '" + py_type_name(a[1]) + "' object to parameter '" + n +
               "' (torch.nn.Parameter or None required)",
           range, "wrap the tensor: nn.Parameter(...)");
    }
    if (!listed(inst.params, n)) inst.params.push_back(n);
    inst.set(n, a[1]);
    return IValue();
  }
  if (name == "buffers" || name == "named_buffers") {
    std::vector<ParamSpec> spec;
    if (name == "named_buffers") spec.push_back({"prefix", IValue(std::string())});
    spec.push_back({"recurse", IValue(true)});
    ValueList a = bind_args(fname, spec, std::move(args), std::move(kwargs), range);
    const bool recurse = truthy(a.back(), range);
    std::string prefix;
    if (name == "named_buffers") {
      if (!a[0].is_string()) fail("TypeError: prefix must be a str", range);
      prefix = a[0].to_string().empty() ? "" : a[0].to_string() + ".";
    }
    std::vector<std::pair<std::string, Tensor>> bufs;
    collect_buffers(inst, "", false, &bufs);
    ValueList out;
    std::unordered_set<const void*> seen;  // a tensor held twice is yielded once
    for (auto& [n, t] : bufs) {
      if (!recurse && n.find('.') != std::string::npos) continue;
      if (!seen.insert(t.impl()).second) continue;
      out.push_back(name == "buffers" ? IValue(t) : IValue::tuple({IValue(prefix + n), IValue(t)}));
    }
    return IValue::list(std::move(out));
  }
  if (name == "modules" || name == "children") {
    bind_args(fname, {}, std::move(args), std::move(kwargs), range);
    ValueList out;
    if (name == "modules") {
      for (auto& [n, m] : named_modules_of(self, "")) out.push_back(m);
    } else {
      std::unordered_set<const Object*> seen;
      for (auto& [n, m] : child_modules(inst)) {
        if (seen.insert(m.to_object().get()).second) out.push_back(m);
      }
    }
    return IValue::list(std::move(out));
  }
  if (name == "named_modules") {
    ValueList a = bind_args(fname, {{"memo", IValue()}, {"prefix", IValue(std::string())}},
                            std::move(args), std::move(kwargs), range);
    if (!a[0].is_none()) fail("named_modules(memo=...) is not supported", range, "leave memo out");
    if (!a[1].is_string()) fail("TypeError: prefix must be a str", range);
    ValueList out;
    for (auto& [n, m] : named_modules_of(self, a[1].to_string())) {
      out.push_back(IValue::tuple({IValue(n), m}));
    }
    return IValue::list(std::move(out));
  }
  if (name == "named_children") {
    bind_args(fname, {}, std::move(args), std::move(kwargs), range);
    ValueList out;
    std::unordered_set<const Object*> seen;
    for (auto& [n, m] : child_modules(inst)) {
      if (seen.insert(m.to_object().get()).second) out.push_back(IValue::tuple({IValue(n), m}));
    }
    return IValue::list(std::move(out));
  }
  // apply(fn): each child's apply, then fn(self); returns self. Post-order without
  // recursion: a module is called after every module below it.
  ValueList a = bind_args(fname, {{"fn", std::nullopt}}, std::move(args), std::move(kwargs), range);
  std::vector<std::pair<IValue, bool>> todo{{self, false}};  // (module, children pushed)
  size_t steps = 0;
  while (!todo.empty()) {
    if (++steps > 1000000) fail("apply(): the module tree is too deep or contains itself", range);
    auto& [m, expanded] = todo.back();
    if (expanded) {
      IValue cur = m;
      todo.pop_back();
      call_value(a[0], {cur}, {}, range);
      continue;
    }
    expanded = true;
    auto kids = child_modules(*as_obj<InstanceValue>(m));
    for (auto it = kids.rbegin(); it != kids.rend(); ++it) todo.emplace_back(it->second, false);
  }
  return self;
}

}  // namespace d2s::interp
