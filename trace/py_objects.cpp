#include "trace/py_objects.h"

#include "core/base/error.h"
#include "trace/interpreter.h"

namespace d2s::interp {

int64_t RangeValue::length() const {
  // Python's len(range): ceil((stop - start) / step), never negative.
  if (step > 0) return start < stop ? (stop - start - 1) / step + 1 : 0;
  return start > stop ? (start - stop - 1) / (-step) + 1 : 0;
}

const IValue* ClassValue::lookup(const std::string& attr) const {
  for (const ClassValue* c = this; c; c = c->base.get()) {
    auto it = c->attrs.find(attr);
    if (it != c->attrs.end()) return &it->second;
  }
  return nullptr;
}

const IValue* InstanceValue::get(const std::string& name) const {
  auto it = values.find(name);
  return it == values.end() ? nullptr : &it->second;
}

void InstanceValue::set(const std::string& name, IValue value) {
  auto [it, inserted] = values.insert_or_assign(name, std::move(value));
  (void)it;
  if (inserted) order.push_back(name);
}

const ValueList* seq_items(const IValue& v) {
  if (v.is_tuple()) return &v.tuple_items();
  if (v.is_list()) return &v.list_items();
  if (auto* s = as_obj<SizeValue>(v)) return &s->items;
  if (auto* t = as_obj<NamedTupleValue>(v)) return &t->items;
  return nullptr;
}

IValue size_to_tuple(const IValue& v) {
  if (auto* s = as_obj<SizeValue>(v)) return IValue::tuple(s->items);
  return v;
}

IValue make_size(ValueList items) {
  return IValue(std::static_pointer_cast<Object>(std::make_shared<SizeValue>(std::move(items))));
}

IValue make_dtype(DType d) {
  return IValue(std::static_pointer_cast<Object>(std::make_shared<DTypeValue>(d)));
}

IValue output_value(const IValue& v, const std::string& entry, const SourceRange& range,
                    int depth) {
  if (const ValueList* items = seq_items(v)) {
    if (depth > 1000) {
      throw Error(
          entry + " returned lists nested more than 1000 deep (does a list contain itself?)",
          range);
    }
    ValueList out;
    out.reserve(items->size());
    for (const IValue& item : *items) out.push_back(output_value(item, entry, range, depth + 1));
    return v.is_list() ? IValue::list(std::move(out)) : IValue::tuple(std::move(out));
  }
  if (!v.is_object() || as_obj<SymbolicValue>(v)) return v;
  throw Error(entry + " returned a '" + v.type_name() + "' object", range,
              "an entry returns tensors, numbers, strings, None, or tuples and lists of them");
}

std::string py_type_name(const IValue& v) {
  if (auto* s = as_obj<SymbolicValue>(v)) return s->concrete().type_name();
  return v.type_name();
}

}  // namespace d2s::interp
