// obj.__dict__ and vars(obj) (py_dict.h): minGPT's CfgNode-style config objects write
// their keyword arguments into `self.__dict__.update(kwargs)` and read them back with
// `vars(cfg)` or `cfg.__dict__[k]`. The dict is taken when it is read and writes through
// to the instance.
#include <algorithm>

#include "trace/interp.h"
#include "trace/py_dict.h"

namespace d2s::interp {

namespace {

bool listed(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// A module's registered state (parameters, buffers, submodules) is not in its __dict__.
bool registered(const InstanceValue& inst, const std::string& name) {
  return listed(inst.params, name) || listed(inst.buffers, name) || listed(inst.children, name);
}

class InstanceDictValue : public DictValue {
 public:
  explicit InstanceDictValue(std::shared_ptr<InstanceValue> owner) : owner(std::move(owner)) {}

  void put(Interpreter& in, IValue key, IValue value, const SourceRange& range) override {
    check_key(in, key, range);
    owner->set(key.to_string(), value);
    DictValue::put(in, std::move(key), std::move(value), range);
  }
  IValue remove(Interpreter& in, const IValue& key, const SourceRange& range) override {
    IValue v = DictValue::remove(in, key, range);
    erase_attr(key.to_string());
    return v;
  }
  IValue call_method(Interpreter& in, const std::string& name, ValueList args, Kwargs kwargs,
                     const SourceRange& range) override {
    IValue r = DictValue::call_method(in, name, std::move(args), std::move(kwargs), range);
    // clear() and setdefault() change the items without put/remove: bring the instance in
    // line with them.
    if (name == "clear" || name == "setdefault") {
      std::vector<std::string> gone;
      for (const std::string& a : owner->order) {
        if (!registered(*owner, a) && find(in, IValue(a), range) < 0) gone.push_back(a);
      }
      for (const std::string& a : gone) erase_attr(a);
      for (const auto& [k, v] : items) {
        check_key(in, k, range);
        owner->set(k.to_string(), v);
      }
    }
    return r;
  }

 private:
  void check_key(Interpreter& in, const IValue& key, const SourceRange& range) const {
    if (!key.is_string()) {
      in.fail("d2s keeps only str keys in an object's __dict__, not " + py_type_name(key), range,
              "attributes are named by strings: setattr(obj, name, value)");
    }
    if (owner->is_module && registered(*owner, key.to_string())) {
      in.fail("d2s does not write the registered parameter, buffer or submodule '" +
                  key.to_string() + "' of a module through its __dict__",
              range, "assign it as an attribute: setattr(self, name, value)");
    }
  }
  void erase_attr(const std::string& name) {
    owner->values.erase(name);
    std::erase(owner->order, name);
  }

  std::shared_ptr<InstanceValue> owner;
};

}  // namespace

IValue instance_dict(Interpreter& in, const IValue& instance, const SourceRange& range) {
  auto inst = std::dynamic_pointer_cast<InstanceValue>(instance.is_object() ? instance.to_object()
                                                                            : nullptr);
  if (!inst) {
    in.fail("TypeError: vars() argument must have __dict__ attribute", range,
            "d2s gives the __dict__ of instances of classes and modules");
  }
  auto d = std::make_shared<InstanceDictValue>(inst);
  for (const std::string& name : inst->order) {
    if (inst->is_module && registered(*inst, name)) continue;
    d->items.emplace_back(IValue(name), *inst->get(name));
  }
  return IValue(std::static_pointer_cast<Object>(d));
}

}  // namespace d2s::interp
