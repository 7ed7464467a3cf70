// What each interpreter value holds, for the cycle collector (core/tensor/gc.h): every
// owning reference to another value is reported by gc_visit and dropped by gc_clear.
// A member left out here is never wrong, only uncollected when it closes a cycle; a
// weak_ptr (a method's owner class) is no reference and must stay out.
#include "core/tensor/gc.h"
#include "trace/py_dict.h"
#include "trace/py_objects.h"
#include "trace/py_stdlib.h"

namespace d2s::interp {
namespace {

void visit_all(GcVisitor& v, const ValueList& values) {
  for (const IValue& x : values) v.value(x);
}

void visit_all(GcVisitor& v, const Kwargs& kwargs) {
  for (const auto& kv : kwargs) v.value(kv.second);
}

}  // namespace

void LocalSlots::gc_visit(GcVisitor& v) const {
  for (const std::optional<IValue>& slot : *this) {
    if (slot) v.value(*slot);
  }
}
void LocalSlots::gc_clear() {
  clear();
}

void Closure::gc_visit(GcVisitor& v) const {
  if (slots) v.node(slots.get());
  if (parent) v.node(parent.get());
}
void Closure::gc_clear() {
  slots.reset();
  parent.reset();
}

void FunctionValue::gc_visit(GcVisitor& v) const {
  for (const std::optional<IValue>& d : defaults) {
    if (d) v.value(*d);
  }
  if (closure) v.node(closure.get());
}
void FunctionValue::gc_clear() {
  defaults.clear();
  closure.reset();
}

void BoundMethodValue::gc_visit(GcVisitor& v) const {
  v.value(self);
  if (fn) v.node(fn.get());
}
void BoundMethodValue::gc_clear() {
  self = IValue();
  fn.reset();
}

void BuiltinMethodValue::gc_visit(GcVisitor& v) const {
  v.value(self);
}
void BuiltinMethodValue::gc_clear() {
  self = IValue();
}

void ClassValue::gc_visit(GcVisitor& v) const {
  if (base) v.node(base.get());
  for (const auto& kv : attrs) v.value(kv.second);
}
void ClassValue::gc_clear() {
  base.reset();
  attrs.clear();
}

void InstanceValue::gc_visit(GcVisitor& v) const {
  if (cls) v.node(cls.get());
  for (const auto& kv : values) v.value(kv.second);
}
void InstanceValue::gc_clear() {
  cls.reset();
  values.clear();
}

void SuperValue::gc_visit(GcVisitor& v) const {
  if (cls) v.node(cls.get());
  v.value(self);
}
void SuperValue::gc_clear() {
  cls.reset();
  self = IValue();
}

void NamedTupleValue::gc_visit(GcVisitor& v) const {
  visit_all(v, items);
}
void NamedTupleValue::gc_clear() {
  items.clear();
}

void DictValue::gc_visit(GcVisitor& v) const {
  for (const auto& kv : items) {
    v.value(kv.first);
    v.value(kv.second);
  }
}
void DictValue::gc_clear() {
  items.clear();
}

void ExceptionValue::gc_visit(GcVisitor& v) const {
  visit_all(v, args);
}
void ExceptionValue::gc_clear() {
  args.clear();
}

void PartialValue::gc_visit(GcVisitor& v) const {
  v.value(func);
  visit_all(v, stored_args);
  visit_all(v, stored_kwargs);
}
void PartialValue::gc_clear() {
  func = IValue();
  stored_args.clear();
  stored_kwargs.clear();
}

}  // namespace d2s::interp
