// The values only the interpreter knows, as IValue Objects: namespaces (`torch`,
// `F`), builtins, user functions and classes, module instances, torch.Size, dtypes
// and range objects. Internal to trace/.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/tensor/ivalue.h"
#include "core/tensor/tensor.h"
#include "parse/ast.h"

namespace d2s::interp {

using Kwargs = std::vector<std::pair<std::string, IValue>>;

// The Object inside `v` as T, or null when `v` holds something else.
template <typename T>
T* as_obj(const IValue& v) {
  return v.is_object() ? dynamic_cast<T*>(v.to_object().get()) : nullptr;
}

// torch.Size: a tuple of ints that prints as `torch.Size([2, 3])`. Its items may be
// SymbolicValues during a trace.
class SizeValue : public Object {
 public:
  explicit SizeValue(ValueList items) : items(std::move(items)) {}
  std::string type_name() const override { return "torch.Size"; }
  ValueList items;
};

// torch.float32, torch.long, ...
class DTypeValue : public Object {
 public:
  explicit DTypeValue(DType d) : dtype(d) {}
  std::string type_name() const override { return "torch.dtype"; }
  DType dtype;
};

// range(start, stop, step), kept lazy so that range(10**7) costs nothing.
class RangeValue : public Object {
 public:
  RangeValue(int64_t start, int64_t stop, int64_t step) : start(start), stop(stop), step(step) {}
  std::string type_name() const override { return "range"; }
  int64_t length() const;
  int64_t at(int64_t i) const { return start + i * step; }
  int64_t start, stop, step;
};

// A slice item of a subscript (`1:3`, `::2`): each bound None when left out.
class SliceValue : public Object {
 public:
  std::string type_name() const override { return "slice"; }
  IValue start, stop, step;
};

// An imported module: `torch`, `torch.nn` (as nn), `torch.nn.functional`, `math`.
class NamespaceValue : public Object {
 public:
  explicit NamespaceValue(std::string qualname) : qualname(std::move(qualname)) {}
  std::string type_name() const override { return "module"; }
  std::string qualname;  // canonical: "torch.nn.functional" whatever the alias
  // What each attribute resolved to (Interpreter::getattr). A name under a namespace
  // always resolves to the same value, and `torch.tanh` in a loop body is evaluated on
  // every trip, so it is resolved once. A program's runs are sequential (trace/entry.cpp),
  // so no lock.
  std::unordered_map<std::string, IValue> resolved;
};

// A callable known by its canonical Python name: builtins ("len"), torch functions
// ("torch.nn.functional.relu"), nn module classes ("torch.nn.Linear") and types used
// by isinstance ("torch.Tensor", "int").
class BuiltinValue : public Object {
 public:
  explicit BuiltinValue(std::string qualname) : qualname(std::move(qualname)) {}
  std::string type_name() const override { return "builtin_function_or_method"; }
  std::string qualname;
  // The registry op a call of this torch function runs, once Interpreter::call_torch has
  // found that the name maps plainly to one (no name of its own handling): later calls
  // go straight to it instead of testing the name against every special case again.
  mutable std::optional<std::string> plain_op;
};

// Built-in nn modules d2s implements itself (nn_modules.cpp).
enum class NnKind {
  None,
  Linear,
  ReLU,
  Tanh,
  Sigmoid,
  GELU,
  LayerNorm,
  Dropout,
  Sequential,
  ModuleList,
  ModuleDict,  // trace/py_module_dict.cpp
  Identity,
  Layer,      // convolution, pooling, Flatten (trace/nn_layers.h)
  Recurrent,  // Embedding, RNN/LSTM/GRU and their cells (trace/nn_recurrent.h)
  Attention   // MultiheadAttention, TransformerEncoder(Layer) (trace/nn_attention.h)
};

class ClassValue;
struct FunctionInfo;

// The variables of the functions around a nested def or lambda, as it closes over
// them: each enclosing frame's slots, shared with that frame, so the function reads
// their values when it runs (Python's late binding).
// Both are nodes of the cycle collector (core/tensor/gc.h): a nested function stored in a
// variable of the frame it closes over is a cycle, which a recursive helper makes.
struct LocalSlots : GcNode, std::vector<std::optional<IValue>> {
  void gc_visit(GcVisitor& v) const override;
  void gc_clear() override;
};
struct Closure : GcNode {
  Closure(std::shared_ptr<const FunctionInfo> info, std::shared_ptr<LocalSlots> slots,
          std::shared_ptr<Closure> parent)
      : info(std::move(info)), slots(std::move(slots)), parent(std::move(parent)) {}
  void gc_visit(GcVisitor& v) const override;
  void gc_clear() override;
  std::shared_ptr<const FunctionInfo> info;  // kept alive: the closure may outlive its interpreter
  std::shared_ptr<LocalSlots> slots;
  std::shared_ptr<Closure> parent;
};

// A user function (or method, unbound): its def plus default values computed when the
// def ran, as Python does.
class FunctionValue : public Object {
 public:
  std::string type_name() const override { return "function"; }
  void gc_visit(GcVisitor& v) const override;
  void gc_clear() override;
  const ast::FunctionDef* def = nullptr;
  std::string qualname;                         // "helper" or "Model.forward"
  std::vector<std::optional<IValue>> defaults;  // one per parameter
  std::weak_ptr<ClassValue> owner;              // the class defining a method, for super()
  std::shared_ptr<Closure> closure;             // a nested def's or lambda's enclosing frames
};

// `obj.method` for a user method: the function plus its receiver.
class BoundMethodValue : public Object {
 public:
  BoundMethodValue(IValue self, std::shared_ptr<FunctionValue> fn)
      : self(std::move(self)), fn(std::move(fn)) {}
  std::string type_name() const override { return "method"; }
  void gc_visit(GcVisitor& v) const override;
  void gc_clear() override;
  IValue self;
  std::shared_ptr<FunctionValue> fn;
};

// `x.sum`, `lst.append`, `model.eval`, ... taken without calling it: a receiver plus
// a method name that the interpreter dispatches on when called.
class BuiltinMethodValue : public Object {
 public:
  BuiltinMethodValue(IValue self, std::string name)
      : self(std::move(self)), name(std::move(name)) {}
  std::string type_name() const override { return "builtin_function_or_method"; }
  void gc_visit(GcVisitor& v) const override;
  void gc_clear() override;
  IValue self;
  std::string name;
};

// A user class: methods and class attributes from its body, plus its base.
class ClassValue : public Object {
 public:
  std::string type_name() const override { return "type"; }
  const ast::ClassDef* def = nullptr;
  void gc_visit(GcVisitor& v) const override;
  void gc_clear() override;
  std::string name;
  std::shared_ptr<ClassValue> base;  // a user base class, or null
  bool is_module = false;            // derives (maybe indirectly) from nn.Module
  // nn.Sequential / nn.ModuleList when the class derives from one (maybe indirectly):
  // its instances are containers too, and run the container's forward unless the
  // class defines its own.
  NnKind nn_base = NnKind::None;
  std::unordered_map<std::string, IValue> attrs;  // methods (FunctionValue) and constants
  // Looks `name` up here and in the bases; null when absent.
  const IValue* lookup(const std::string& attr) const;
};

// An instance of a user class or of a built-in nn module. Attributes keep their
// assignment order; parameters and submodules are also listed in registration order,
// which is how state_dict names are produced.
class InstanceValue : public Object {
 public:
  std::string type_name() const override { return type; }
  void gc_visit(GcVisitor& v) const override;
  void gc_clear() override;
  std::string type;                 // "Model", "Linear", ...
  std::shared_ptr<ClassValue> cls;  // null for a built-in module
  NnKind nn = NnKind::None;
  bool is_module = false;

  const IValue* get(const std::string& name) const;
  void set(const std::string& name, IValue value);
  std::vector<std::string> attr_names() const { return order; }

  std::vector<std::string> params;    // attribute names holding parameters
  std::vector<std::string> children;  // attribute names holding submodules
  // register_buffer's names, in registration order (py_module_state.cpp); those
  // registered with persistent=False are also in non_persistent (not in state_dict).
  std::vector<std::string> buffers;
  std::vector<std::string> non_persistent;
  std::vector<std::string> order;  // every attribute, in assignment order
  std::unordered_map<std::string, IValue> values;
};

// A name from a module d2s does not implement (`import argparse`, `from numpy import
// sqrt`): importing it is fine, as published model files do at the top; using it
// (an attribute, a call) is an error naming the module and the import's line.
class ForeignValue : public Object {
 public:
  ForeignValue(std::string qualname, SourceRange imported_at)
      : qualname(std::move(qualname)), imported_at(std::move(imported_at)) {}
  std::string type_name() const override { return "module"; }
  std::string qualname;  // "argparse", "numpy.sqrt"
  SourceRange imported_at;
};

// super() inside a method: looks attributes up from the base of `cls`.
class SuperValue : public Object {
 public:
  SuperValue(std::shared_ptr<ClassValue> cls, IValue self)
      : cls(std::move(cls)), self(std::move(self)) {}
  std::string type_name() const override { return "super"; }
  void gc_visit(GcVisitor& v) const override;
  void gc_clear() override;
  std::shared_ptr<ClassValue> cls;
  IValue self;
};

// An instance of a collections.namedtuple class: a tuple whose items also have names.
class NamedTupleValue : public Object {
 public:
  NamedTupleValue(std::string name, std::shared_ptr<const std::vector<std::string>> fields,
                  ValueList items)
      : name(std::move(name)), fields(std::move(fields)), items(std::move(items)) {}
  std::string type_name() const override { return name; }
  void gc_visit(GcVisitor& v) const override;
  void gc_clear() override;
  std::string name;
  std::shared_ptr<const std::vector<std::string>> fields;
  ValueList items;
};

// The items of a tuple, list, torch.Size or namedtuple; null for anything else.
const ValueList* seq_items(const IValue& v);
// A tuple with the items of a torch.Size (what the entry returns, what ops receive).
IValue size_to_tuple(const IValue& v);
IValue make_size(ValueList items);
IValue make_dtype(DType d);

// What the entry returns, as the CLI and tracer take it: torch.Size becomes a tuple
// (also inside tuples and lists); interpreter objects other than SymbolicValues are
// an error naming `entry` at `range`.
IValue output_value(const IValue& v, const std::string& entry, const SourceRange& range,
                    int depth = 0);

// Python's name of the value's type, as error messages print it ('Tensor', 'int', ...).
std::string py_type_name(const IValue& v);

}  // namespace d2s::interp
