// Methods of Python values and modules: list (append, extend, pop, insert, index,
// count, copy, reverse), tuple and torch.Size (index, count, numel), str (format,
// join, upper, lower, strip, startswith, endswith, replace, split) and nn modules
// (eval, train, parameters, forward, ModuleList.append).
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <unordered_set>

#include "core/autograd/autograd.h"
#include "core/base/py_str.h"
#include "trace/interp.h"
#include "trace/native_value.h"
#include "trace/py_iterators.h"

namespace d2s::interp {

namespace {

void no_keywords(const std::string& fname, const Kwargs& kwargs, const SourceRange& range) {
  if (!kwargs.empty()) throw Error("TypeError: " + fname + "() takes no keyword arguments", range);
}

}  // namespace

IValue Interpreter::call_builtin_method(const IValue& self, const std::string& name, ValueList args,
                                        Kwargs kwargs, const SourceRange& range,
                                        const ast::Call* site) {
  if (auto* n = as_obj<NativeValue>(self)) {
    return n->call_method(*this, name, std::move(args), std::move(kwargs), range);
  }
  if (auto* inst = as_obj<InstanceValue>(self)) {
    if (name == "__module_init__") {
      if (inst->nn == NnKind::Sequential || inst->nn == NnKind::ModuleList) {
        const std::string fname = inst->nn == NnKind::Sequential ? "Sequential" : "ModuleList";
        fill_container(*inst, std::move(args), std::move(kwargs), fname, range);
        return IValue();
      }
      if (inst->nn == NnKind::ModuleDict) {
        // nn.ModuleDict.__init__(modules=None), for a class deriving from it.
        ValueList a = bind_args("ModuleDict.__init__", {{"modules", IValue()}}, std::move(args),
                                std::move(kwargs), range);
        if (!a[0].is_none()) module_dict_update(self, a[0], range);
        return IValue();
      }
      no_keywords("Module.__init__", kwargs, range);
      return IValue();
    }
    if (inst->nn == NnKind::ModuleDict && is_module_dict_method(name)) {
      return call_module_dict_method(self, name, std::move(args), std::move(kwargs), range);
    }
    if (inst->is_module && is_module_state_method(name)) {
      return call_module_state_method(self, *inst, name, std::move(args), std::move(kwargs), range);
    }
    if (name == "__nn_forward__")
      return forward_nn(*inst, std::move(args), std::move(kwargs), range);
    if (name == "to" || name == "cpu" || name == "cuda") {
      // d2s runs on the CPU in float32: model.to(device) with the CPU, model.to(torch.float32)
      // and model.cpu() leave the module as it is (and return it, as PyTorch does).
      auto refuse = [&](const std::string& what) {
        fail(inst->type + "." + name + "(" + what + ") is not supported: d2s runs on the CPU" +
                 " in float32",
             range,
             "choose the device with torch.device(\"cuda\" if torch.cuda.is_available() else "
             "\"cpu\"), which is \"cpu\" in d2s");
      };
      if (name == "cuda") refuse("");
      ValueList given = args;
      for (auto& [key, v] : kwargs) {
        if (key != "non_blocking") given.push_back(v);
      }
      for (const IValue& v : given) {
        if (v.is_string() && v.to_string().rfind("cpu", 0) != 0) refuse(py_repr(v));
        if (auto* dt = as_obj<DTypeValue>(v); dt && dt->dtype != DType::Float32) refuse(py_repr(v));
      }
      return self;
    }
    if (name == "eval" || name == "train") {
      ValueList a = bind_args(inst->type + "." + name,
                              name == "train" ? std::vector<ParamSpec>{{"mode", IValue(true)}}
                                              : std::vector<ParamSpec>{},
                              std::move(args), std::move(kwargs), range);
      set_training(*inst, name == "train" ? truthy(a[0], range) : false);
      return self;
    }
    if (name == "parameters") {
      bind_args(inst->type + ".parameters", {}, std::move(args), std::move(kwargs), range);
      std::vector<std::pair<std::string, ParamSite>> params;
      collect_parameters(*inst, "", &params);
      ValueList out;
      std::unordered_set<const void*> seen;  // a tied tensor once, as PyTorch's memo does
      for (auto& [n, p] : params) {
        if (seen.insert(p.tensor.impl()).second) out.push_back(IValue(p.tensor));
      }
      return make_iterator("generator", std::move(out));  // PyTorch's is a generator
    }
    if (name == "zero_grad") {
      // nn.Module.zero_grad: PyTorch 1.13's default is set_to_none=False (zeroed in place).
      ValueList a = bind_args(inst->type + ".zero_grad", {{"set_to_none", IValue(false)}},
                              std::move(args), std::move(kwargs), range);
      const bool to_none = truthy(a[0], range);
      std::vector<std::pair<std::string, ParamSite>> params;
      collect_parameters(*inst, "", &params);
      for (auto& [n, p] : params) {
        Tensor g = grad_of(p.tensor);
        if (!g.defined()) continue;
        if (to_none) {
          clear_grad(p.tensor);
        } else {
          for (int64_t i = 0; i < g.numel(); ++i) g.data<float>()[i] = 0.0f;
        }
      }
      return IValue();
    }
    if (name == "named_parameters") {
      // PyTorch yields (name, parameter) pairs; a list of tuples iterates the same way.
      ValueList a = bind_args(inst->type + ".named_parameters",
                              {{"prefix", IValue(std::string())}, {"recurse", IValue(true)}},
                              std::move(args), std::move(kwargs), range);
      if (!a[0].is_string()) fail("TypeError: prefix must be a str", range);
      std::vector<std::pair<std::string, ParamSite>> params;
      collect_parameters(*inst, "", &params);
      const bool recurse = truthy(a[1], range);
      const std::string prefix = a[0].to_string().empty() ? "" : a[0].to_string() + ".";
      ValueList out;
      std::unordered_set<const void*> seen;  // a tied tensor under its first name only
      for (auto& [n, p] : params) {
        if (!recurse && n.find('.') != std::string::npos) continue;
        if (!seen.insert(p.tensor.impl()).second) continue;
        out.push_back(IValue::tuple({IValue(prefix + n), IValue(p.tensor)}));
      }
      return make_iterator("generator", std::move(out));
    }
    if (name == "forward") return forward_nn(*inst, std::move(args), std::move(kwargs), range);
    // nn.ModuleList's and nn.Sequential's list methods: children stay named "0", "1", ...
    const std::string cname = inst->nn == NnKind::Sequential ? "Sequential" : "ModuleList";
    auto check_module = [&](const IValue& m) {
      auto* mod = as_obj<InstanceValue>(m);
      if (!mod || !mod->is_module) {
        fail("TypeError: " + py_type_name(m) + " is not a Module subclass", range);
      }
    };
    if (name == "append") {
      ValueList a = bind_args(cname + ".append", {{"module", std::nullopt}}, std::move(args),
                              std::move(kwargs), range);
      check_module(a[0]);
      setattr(self, std::to_string(inst->children.size()), a[0], range);
      return self;
    }
    if (name == "extend") {
      ValueList a = bind_args(cname + ".extend", {{"modules", std::nullopt}}, std::move(args),
                              std::move(kwargs), range);
      for (const IValue& m : iterate(a[0], range)) {
        check_module(m);
        setattr(self, std::to_string(inst->children.size()), m, range);
      }
      return self;
    }
    if (name == "insert") {
      ValueList a =
          bind_args(cname + ".insert", {{"index", std::nullopt}, {"module", std::nullopt}},
                    std::move(args), std::move(kwargs), range);
      check_module(a[1]);
      const int64_t n = static_cast<int64_t>(inst->children.size());
      int64_t index = to_index(a[0], PyConversion::Index, range, "index must be an int");
      // ModuleList.insert shifts the modules from `index` on up by one name, as
      // PyTorch's loop does; it handles 0 <= index <= len only (a negative index is
      // its KeyError, a larger one leaves a gap in the names).
      if (index < 0 || index > n) {
        fail("ModuleList.insert at index " + std::to_string(index) + " of a container of " +
                 std::to_string(n) + " modules is not supported by d2s",
             range, "insert at 0 ... len(modules)");
      }
      for (int64_t i = 0; i < n; ++i) {
        if (!inst->get(std::to_string(i))) {
          fail("KeyError: '" + std::to_string(i) + "'", range,
               "insert() renumbers modules named 0, 1, ...; this container names them");
        }
      }
      if (n == 0) {
        setattr(self, "0", a[1], range);
        return IValue();
      }
      setattr(self, std::to_string(n), *inst->get(inst->children.back()), range);
      for (int64_t i = n - 1; i > index; --i) {
        inst->set(std::to_string(i), *inst->get(std::to_string(i - 1)));
      }
      inst->set(std::to_string(index), a[1]);
      return IValue();
    }
  }
  const std::string fname = py_type_name(self) + "." + name;
  auto arg_range = [&](size_t i) -> SourceRange {
    return site && i < site->args.size() ? site->args[i]->range : range;
  };
  if (self.is_list()) {
    ValueList& items = self.list_items();
    if (name == "append") {
      ValueList a =
          bind_args(fname, {{"object", std::nullopt}}, std::move(args), std::move(kwargs), range);
      items.push_back(a[0]);
      return IValue();
    }
    if (name == "extend") {
      ValueList a =
          bind_args(fname, {{"iterable", std::nullopt}}, std::move(args), std::move(kwargs), range);
      ValueList more = iterate(a[0], arg_range(0));
      items.insert(items.end(), more.begin(), more.end());
      return IValue();
    }
    if (name == "pop") {
      ValueList a = bind_args(fname, {{"index", IValue(int64_t{-1})}}, std::move(args),
                              std::move(kwargs), range);
      if (items.empty()) fail("IndexError: pop from empty list", range);
      int64_t i = to_index(a[0], PyConversion::Index, range, "list indices must be integers");
      const int64_t n = static_cast<int64_t>(items.size());
      if (i < 0) i += n;
      if (i < 0 || i >= n) fail("IndexError: pop index out of range", range);
      IValue out = items[i];
      items.erase(items.begin() + i);
      return out;
    }
    if (name == "insert") {
      ValueList a = bind_args(fname, {{"index", std::nullopt}, {"object", std::nullopt}},
                              std::move(args), std::move(kwargs), range);
      const int64_t n = static_cast<int64_t>(items.size());
      int64_t i = to_index(a[0], PyConversion::Index, range, "list indices must be integers");
      if (i < 0) i = std::max<int64_t>(0, i + n);
      items.insert(items.begin() + std::min(i, n), a[1]);
      return IValue();
    }
    if (name == "copy") {
      bind_args(fname, {}, std::move(args), std::move(kwargs), range);
      return IValue::list(items);
    }
    if (name == "reverse") {
      bind_args(fname, {}, std::move(args), std::move(kwargs), range);
      std::reverse(items.begin(), items.end());
      return IValue();
    }
    if (name == "clear") {
      bind_args(fname, {}, std::move(args), std::move(kwargs), range);
      items.clear();
      return IValue();
    }
    if (name == "remove") {
      ValueList a =
          bind_args(fname, {{"value", std::nullopt}}, std::move(args), std::move(kwargs), range);
      for (size_t i = 0; i < items.size(); ++i) {
        if (py_equal(items[i], a[0], range)) {
          items.erase(items.begin() + static_cast<std::ptrdiff_t>(i));
          return IValue();
        }
      }
      fail("ValueError: list.remove(x): x not in list", range);
    }
    if (name == "sort") {
      // In place, as sorted() orders (key=, reverse=, stable); keyword-only, as in Python.
      if (!args.empty()) fail("TypeError: sort() takes no positional arguments", range);
      ValueList whole{self};
      std::optional<IValue> sorted = call_more_builtins("sorted", whole, kwargs, range);
      items = sorted->list_items();
      return IValue();
    }
  }
  if (const ValueList* items = seq_items(self)) {
    if (name == "index" || name == "count") {
      ValueList a =
          bind_args(fname, {{"value", std::nullopt}}, std::move(args), std::move(kwargs), range);
      int64_t count = 0;
      for (size_t i = 0; i < items->size(); ++i) {
        if (py_equal((*items)[i], a[0], range)) {
          if (name == "index") return IValue(static_cast<int64_t>(i));
          ++count;
        }
      }
      if (name == "index")
        fail("ValueError: " + py_repr(a[0]) + " is not in " + py_type_name(self), range);
      return IValue(count);
    }
    if (name == "numel") {  // torch.Size.numel()
      bind_args(fname, {}, std::move(args), std::move(kwargs), range);
      IValue acc(int64_t{1});
      for (const IValue& d : *items) acc = binary(ast::BinOpKind::Mul, acc, d, range);
      return acc;
    }
  }
  if (self.is_string()) {
    const std::string& s = self.to_string();
    if (name == "format") {
      // "{}", "{0}" and "{:.3f}" fields; "{{" and "}}" escape braces.
      std::string out;
      size_t next = 0;
      for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '{' && i + 1 < s.size() && s[i + 1] == '{') {
          out += '{';
          ++i;
          continue;
        }
        if (s[i] == '}' && i + 1 < s.size() && s[i + 1] == '}') {
          out += '}';
          ++i;
          continue;
        }
        if (s[i] != '{') {
          out += s[i];
          continue;
        }
        size_t close = s.find('}', i);
        if (close == std::string::npos)
          fail("ValueError: Single '{' encountered in format string", range);
        std::string field = s.substr(i + 1, close - i - 1);
        std::string spec;
        if (size_t colon = field.find(':'); colon != std::string::npos) {
          spec = field.substr(colon + 1);
          field.resize(colon);
        }
        size_t index = next++;
        if (!field.empty()) {
          char* end = nullptr;
          index = std::strtoul(field.c_str(), &end, 10);
          if (*end) {
            auto it = std::find_if(kwargs.begin(), kwargs.end(),
                                   [&](const auto& kw) { return kw.first == field; });
            if (it == kwargs.end()) fail("KeyError: '" + field + "'", range);
            out += format_value(it->second, spec, range);
            i = close;
            continue;
          }
        }
        if (index >= args.size())
          fail("IndexError: Replacement index " + std::to_string(index) +
                   " out of range for positional args tuple",
               range);
        out += format_value(args[index], spec, range);
        i = close;
      }
      return IValue(out);
    }
    if (name == "join") {
      ValueList a =
          bind_args(fname, {{"iterable", std::nullopt}}, std::move(args), std::move(kwargs), range);
      std::string out;
      ValueList parts = iterate(a[0], arg_range(0));
      for (size_t i = 0; i < parts.size(); ++i) {
        if (!parts[i].is_string()) {
          fail("TypeError: sequence item " + std::to_string(i) + ": expected str instance, " +
                   py_type_name(parts[i]) + " found",
               range);
        }
        out += (i ? s : "") + parts[i].to_string();
      }
      return IValue(out);
    }
    if (name == "upper" || name == "lower") {
      bind_args(fname, {}, std::move(args), std::move(kwargs), range);
      return IValue(name == "upper" ? py_upper(s) : py_lower(s));
    }
    auto optional_str = [&](const IValue& v, const char* what) -> std::optional<std::string> {
      if (v.is_none()) return std::nullopt;
      if (!v.is_string()) {
        fail("TypeError: " + std::string(what) + " must be str or None, not " + py_type_name(v),
             range);
      }
      return v.to_string();
    };
    if (name == "strip") {
      ValueList a =
          bind_args(fname, {{"chars", IValue()}}, std::move(args), std::move(kwargs), range);
      return IValue(py_strip(s, optional_str(a[0], "strip arg")));
    }
    if (name == "startswith" || name == "endswith") {
      ValueList a =
          bind_args(fname, {{"prefix", std::nullopt}}, std::move(args), std::move(kwargs), range);
      if (!a[0].is_string()) fail("TypeError: " + name + " first arg must be str", range);
      return IValue(name == "startswith" ? py_startswith(s, a[0].to_string())
                                         : py_endswith(s, a[0].to_string()));
    }
    if (name == "replace") {
      ValueList a = bind_args(
          fname, {{"old", std::nullopt}, {"new", std::nullopt}, {"count", IValue(int64_t{-1})}},
          std::move(args), std::move(kwargs), range);
      if (!a[0].is_string() || !a[1].is_string())
        fail("TypeError: replace() arguments must be str", range);
      if (!a[2].is_int()) fail("TypeError: replace() count must be an int", range);
      return IValue(py_replace(s, a[0].to_string(), a[1].to_string(), a[2].to_int()));
    }
    if (name == "split") {
      ValueList a = bind_args(fname, {{"sep", IValue()}, {"maxsplit", IValue(int64_t{-1})}},
                              std::move(args), std::move(kwargs), range);
      std::optional<std::string> sep = optional_str(a[0], "sep");
      if (sep && sep->empty()) fail("ValueError: empty separator", range);
      if (!a[1].is_int()) fail("TypeError: split() maxsplit must be an int", range);
      ValueList out;
      for (std::string& piece : py_split(s, sep, a[1].to_int()))
        out.push_back(IValue(std::move(piece)));
      return IValue::list(std::move(out));
    }
  }
  fail("AttributeError: '" + py_type_name(self) + "' object has no attribute '" + name + "'",
       range);
}

}  // namespace d2s::interp
