// IValue: a value of the model language at run time (like TorchScript's IValue).
//
// None, bool, int (int64), float (double), str, Tensor, tuple, list, and Object —
// the base for values that only the interpreter knows (functions, nn.Module
// instances, namespaces such as `torch`). Tuples are immutable; lists are shared
// and mutable, as in Python.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "core/tensor/gc.h"
#include "core/tensor/tensor.h"

namespace d2s {

// Objects may hold values and so take part in reference cycles (core/tensor/gc.h): each
// subclass that holds values reports them in gc_visit and drops them in gc_clear.
class Object : public GcNode {
 public:
  virtual ~Object() = default;
  virtual std::string type_name() const = 0;
};

class IValue;
using ValueList = std::vector<IValue>;

class IValue {
 public:
  struct None {};
  struct Tuple : GcNode {
    explicit Tuple(ValueList items) : items(std::move(items)) {}
    void gc_visit(GcVisitor& v) const override;
    void gc_clear() override;
    ValueList items;
  };
  struct List : GcNode {
    explicit List(ValueList items) : items(std::move(items)) {}
    void gc_visit(GcVisitor& v) const override;
    void gc_clear() override;
    ValueList items;
  };

  IValue() : v_(None{}) {}
  IValue(bool b) : v_(b) {}
  IValue(int v) : v_(static_cast<int64_t>(v)) {}
  IValue(int64_t v) : v_(v) {}
  IValue(double v) : v_(v) {}
  IValue(std::string s) : v_(std::move(s)) {}
  IValue(const char* s) : v_(std::string(s)) {}
  IValue(Tensor t) : v_(std::move(t)) {}
  IValue(std::shared_ptr<Object> o) : v_(std::move(o)) {}

  static IValue tuple(ValueList items);
  static IValue list(ValueList items);
  static IValue int_list(const std::vector<int64_t>& items);

  bool is_none() const { return std::holds_alternative<None>(v_); }
  bool is_bool() const { return std::holds_alternative<bool>(v_); }
  bool is_int() const { return std::holds_alternative<int64_t>(v_); }
  bool is_double() const { return std::holds_alternative<double>(v_); }
  // int, float or bool: what TorchScript calls a Scalar / Python number.
  bool is_number() const { return is_int() || is_double() || is_bool(); }
  bool is_string() const { return std::holds_alternative<std::string>(v_); }
  bool is_tensor() const { return std::holds_alternative<Tensor>(v_); }
  bool is_tuple() const { return std::holds_alternative<std::shared_ptr<Tuple>>(v_); }
  bool is_list() const { return std::holds_alternative<std::shared_ptr<List>>(v_); }
  bool is_object() const { return std::holds_alternative<std::shared_ptr<Object>>(v_); }

  // Accessors assume the kind was checked; to_double() also accepts int and bool,
  // to_int() accepts bool.
  bool to_bool() const { return std::get<bool>(v_); }
  int64_t to_int() const;
  double to_double() const;
  const std::string& to_string() const { return std::get<std::string>(v_); }
  const Tensor& to_tensor() const { return std::get<Tensor>(v_); }
  Tensor& to_tensor() { return std::get<Tensor>(v_); }
  const ValueList& tuple_items() const { return std::get<std::shared_ptr<Tuple>>(v_)->items; }
  ValueList& list_items() const { return std::get<std::shared_ptr<List>>(v_)->items; }
  // Items of a tuple or a list.
  const ValueList& items() const;
  std::vector<int64_t> to_int_list() const;
  const std::shared_ptr<Object>& to_object() const { return std::get<std::shared_ptr<Object>>(v_); }
  // The tuple, list or Object this value refers to, as the cycle collector sees it.
  const GcNode* gc_node() const;

  // Python's type name: 'Tensor', 'int', 'float', 'bool', 'NoneType', 'str',
  // 'tuple', 'list', or the Object's own.
  std::string type_name() const;
  // str(v) as Python/PyTorch print it (tensors as `tensor([[1., 2.]])`).
  std::string str() const;
  // repr(v): like str() but strings are quoted.
  std::string repr() const;

 private:
  std::variant<None, bool, int64_t, double, std::string, Tensor, std::shared_ptr<Tuple>,
               std::shared_ptr<List>, std::shared_ptr<Object>>
      v_;
};

}  // namespace d2s
