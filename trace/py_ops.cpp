// Python semantics of values: truth values, binary and unary operators, comparisons,
// and the places where tensor-derived values become plain Python values.
//
// Arithmetic on numbers and tensors alike goes through call_op (the registry's
// aten::add on two ints is Python's int +); this file decides which op, which operand
// order (reflected `2 - x` is aten::rsub(x, 2)), and adds the checks Python makes
// before any op runs (division by zero with Python's messages).
#include <cmath>
#include <limits>

#include "trace/interp.h"
#include "trace/py_dict.h"

namespace d2s::interp {

// `fmt % args` (py_percent_format.cpp).
std::string percent_format(Interpreter& in, const std::string& fmt, const IValue& args,
                           const SourceRange& range);

namespace {

struct OperatorNames {
  const char* dunder;
  const char* reflected;
  const char* inplace;
  bool commutative;
  const char* inplace_method = nullptr;  // the Tensor method behind the in-place form
};

OperatorNames operator_names(ast::BinOpKind op) {
  switch (op) {
    case ast::BinOpKind::Add:
      return {"__add__", "__radd__", "__iadd__", true, "add_"};
    case ast::BinOpKind::Sub:
      return {"__sub__", "__rsub__", "__isub__", false, "sub_"};
    case ast::BinOpKind::Mul:
      return {"__mul__", "__rmul__", "__imul__", true, "mul_"};
    case ast::BinOpKind::Div:
      return {"__truediv__", "__rtruediv__", "__itruediv__", false, "div_"};
    case ast::BinOpKind::FloorDiv:
      return {"__floordiv__", "__rfloordiv__", "__ifloordiv__", false};
    case ast::BinOpKind::Mod:
      return {"__mod__", "__rmod__", "__imod__", false};
    case ast::BinOpKind::Pow:
      return {"__pow__", "__rpow__", "__ipow__", false};
    case ast::BinOpKind::MatMul:
      return {"__matmul__", "__rmatmul__", "__imatmul__", false};
    case ast::BinOpKind::BitAnd:
      return {"__and__", "__rand__", "__iand__", true};
    case ast::BinOpKind::BitOr:
      return {"__or__", "__ror__", "__ior__", true};
    case ast::BinOpKind::BitXor:
      return {"__xor__", "__rxor__", "__ixor__", true};
    case ast::BinOpKind::LShift:
      return {"__lshift__", "__rlshift__", "__ilshift__", false};
    case ast::BinOpKind::RShift:
      return {"__rshift__", "__rrshift__", "__irshift__", false};
  }
  return {"", "", "", false};
}

const char* compare_dunder(ast::CmpOpKind op) {
  switch (op) {
    case ast::CmpOpKind::Lt:
      return "__lt__";
    case ast::CmpOpKind::Gt:
      return "__gt__";
    case ast::CmpOpKind::Le:
      return "__le__";
    case ast::CmpOpKind::Ge:
      return "__ge__";
    case ast::CmpOpKind::Eq:
      return "__eq__";
    case ast::CmpOpKind::Ne:
      return "__ne__";
    default:
      return "";
  }
}

bool is_numeric(const IValue& v) {
  return v.is_number() || v.is_tensor() || as_obj<SymbolicValue>(v) != nullptr;
}

bool is_bitwise(ast::BinOpKind op) {
  return op == ast::BinOpKind::BitAnd || op == ast::BinOpKind::BitOr ||
         op == ast::BinOpKind::BitXor;
}

// Python's bool is an int: True + True == 2 (but True & False stays a bool).
IValue bool_as_int(const IValue& v) {
  return v.is_bool() ? IValue(static_cast<int64_t>(v.to_bool())) : v;
}

}  // namespace

IValue Interpreter::converted(PyConversion kind, const IValue& from, IValue python,
                              const SourceRange& range) {
  if (!hooks_) return python;
  return hooks_->to_python(kind, from, std::move(python), range, text_of(range));
}

IValue Interpreter::concrete(const IValue& v, PyConversion kind, const SourceRange& range) {
  if (auto* s = as_obj<SymbolicValue>(v)) return converted(kind, v, s->concrete(), range);
  return v;
}

bool Interpreter::truthy(const IValue& v, const SourceRange& range) {
  if (v.is_none()) return false;
  if (v.is_bool()) return v.to_bool();
  if (v.is_int()) return v.to_int() != 0;
  if (v.is_double()) return v.to_double() != 0.0;
  if (v.is_string()) return !v.to_string().empty();
  if (const ValueList* items = seq_items(v)) return !items->empty();
  if (DictValue* d = as_dict(v)) return !d->items.empty();
  if (auto* r = as_obj<RangeValue>(v)) return r->length() > 0;
  if (v.is_tensor()) {
    const Tensor& t = v.to_tensor();
    const std::string text = text_of(range);
    if (t.numel() == 0) {
      fail("RuntimeError: Boolean value of Tensor with no values is ambiguous", range);
    }
    if (t.numel() > 1) {
      fail("RuntimeError: Boolean value of Tensor with more than one value is ambiguous", range,
           "`" + text + "` is a tensor of shape " + shape_str(t.shape()) + "; use (" + text +
               ").any() or (" + text + ").all(), or reduce with .sum() first");
    }
    IValue b = converted(PyConversion::Bool, v, IValue(t.value_at(0) != 0.0), range);
    return b.is_bool() ? b.to_bool() : t.value_at(0) != 0.0;
  }
  if (auto* s = as_obj<SymbolicValue>(v)) {
    IValue c = s->concrete();
    bool b = c.is_number() ? c.to_double() != 0.0 : !c.is_none();
    IValue r = converted(PyConversion::Bool, v, IValue(b), range);
    return r.is_bool() ? r.to_bool() : b;
  }
  return true;  // functions, modules, namespaces
}

int64_t Interpreter::to_index(const IValue& v, PyConversion kind, const SourceRange& range,
                              const std::string& what) {
  IValue c = concrete(v, kind, range);
  if (c.is_int() || c.is_bool()) return c.to_int();
  if (c.is_tensor()) {
    const Tensor& t = c.to_tensor();
    if (t.numel() == 1 && (t.dtype() == DType::Int64 || t.dtype() == DType::Bool)) {
      IValue i = converted(kind, c, IValue(static_cast<int64_t>(t.value_at(0))), range);
      if (i.is_int()) return i.to_int();
    }
    fail("TypeError: only integer tensors of a single element can be converted to an index", range);
  }
  if (what.empty()) {
    fail("TypeError: '" + py_type_name(c) + "' object cannot be interpreted as an integer", range);
  }
  fail("TypeError: " + what + ", not " + py_type_name(c), range);
}

std::optional<IValue> Interpreter::to_number(const IValue& v, PyConversion kind,
                                             const SourceRange& range) {
  IValue c = concrete(v, kind, range);
  if (c.is_number()) return c;
  return std::nullopt;
}

// ------------------------------------------------------------------ operators

IValue Interpreter::binary(ast::BinOpKind op, const IValue& lhs, const IValue& rhs,
                           const SourceRange& range, bool inplace) {
  // Built only for a message: this runs for every operator a program evaluates.
  auto operator_symbol = [&] { return std::string(ast::binop_symbol(op)) + (inplace ? "=" : ""); };
  auto unsupported = [&]() {
    const std::string symbol = operator_symbol();
    fail("TypeError: unsupported operand type(s) for " + symbol + ": '" + py_type_name(lhs) +
             "' and '" + py_type_name(rhs) + "'",
         range);
  };
  if (!is_numeric(lhs) || !is_numeric(rhs)) {
    // Sequences and strings: Python-level, no op.
    if (op == ast::BinOpKind::Mod && lhs.is_string()) {
      return IValue(percent_format(*this, lhs.to_string(), rhs, range));
    }
    const ValueList* a = seq_items(lhs);
    const ValueList* b = seq_items(rhs);
    if (op == ast::BinOpKind::Add) {
      if (lhs.is_string() && rhs.is_string()) return IValue(lhs.to_string() + rhs.to_string());
      if (lhs.is_string()) {
        fail("TypeError: can only concatenate str (not \"" + py_type_name(rhs) + "\") to str",
             range);
      }
      if (lhs.is_list() && rhs.is_list()) {
        if (inplace) {  // `lst += other` extends lst itself
          ValueList extra = rhs.list_items();
          lhs.list_items().insert(lhs.list_items().end(), extra.begin(), extra.end());
          return lhs;
        }
        ValueList out = *a;
        out.insert(out.end(), b->begin(), b->end());
        return IValue::list(std::move(out));
      }
      if (a && b && !lhs.is_list() && !rhs.is_list()) {
        ValueList out = *a;
        out.insert(out.end(), b->begin(), b->end());
        return as_obj<SizeValue>(lhs) ? make_size(std::move(out)) : IValue::tuple(std::move(out));
      }
      if (a && (lhs.is_list() || lhs.is_tuple())) {
        fail("TypeError: can only concatenate " + py_type_name(lhs) + " (not \"" +
                 py_type_name(rhs) + "\") to " + py_type_name(lhs),
             range);
      }
    }
    if (op == ast::BinOpKind::Mul) {
      const IValue& seq = (a || lhs.is_string()) ? lhs : rhs;
      const IValue& count = (a || lhs.is_string()) ? rhs : lhs;
      if ((seq_items(seq) || seq.is_string()) && is_numeric(count) && !count.is_tensor()) {
        int64_t n = std::max<int64_t>(0, to_index(count, PyConversion::Scalar, range, ""));
        const size_t unit = seq.is_string() ? seq.to_string().size() : seq_items(seq)->size();
        if (unit != 0 && static_cast<size_t>(n) > static_cast<size_t>(kMaxSequenceItems) / unit) {
          fail("MemoryError: the repeated sequence would have more than " +
                   std::to_string(kMaxSequenceItems) + " items",
               range);
        }
        if (seq.is_string()) {
          std::string out;
          for (int64_t i = 0; i < n; ++i) out += seq.to_string();
          return IValue(out);
        }
        ValueList out;
        for (int64_t i = 0; i < n; ++i)
          out.insert(out.end(), seq_items(seq)->begin(), seq_items(seq)->end());
        return seq.is_list() ? IValue::list(std::move(out)) : IValue::tuple(std::move(out));
      }
    }
    unsupported();
  }

  const OperatorNames names = operator_names(op);
  if (!lhs.is_tensor() && !rhs.is_tensor()) {
    // Two Python numbers (or symbolic numbers standing for them).
    if (op == ast::BinOpKind::MatMul) unsupported();
    IValue l = lhs, r = rhs;
    if (!(is_bitwise(op) && l.is_bool() && r.is_bool())) {
      l = bool_as_int(l);
      r = bool_as_int(r);
    }
    check_number_op(op, concrete_silently(l), concrete_silently(r), operator_symbol(), range);
    std::optional<std::string> name = op_for_operator(names.dunder);
    if (!name && (op == ast::BinOpKind::LShift || op == ast::BinOpKind::RShift)) {
      // The registry has no shift ops: Python's int shifts, computed here.
      IValue a = concrete(l, PyConversion::Scalar, range),
             b = concrete(r, PyConversion::Scalar, range);
      const int64_t x = a.to_int(), k = b.to_int();
      if (op == ast::BinOpKind::RShift)
        return IValue(k >= 63 ? (x < 0 ? int64_t{-1} : int64_t{0}) : x >> k);
      if (x != 0 && (k >= 63 || (x << k) >> k != x)) {
        fail("OverflowError: integer result does not fit in 64 bits (d2s ints are 64-bit)", range);
      }
      return IValue(x << k);
    }
    if (!name) unsupported();
    return call_op(*name, {l, r}, {}, range);
  }
  if (inplace && lhs.is_tensor()) {
    // `x += y` on a tensor updates it in place (Tensor.__iadd__ is add_), which every
    // alias of x sees, as in PyTorch.
    std::optional<std::string> name = op_for_operator(names.inplace);
    if (!name && names.inplace_method) name = op_for_method(names.inplace_method);
    if (name) return call_op(*name, {lhs, rhs}, {}, range);
  }
  if (!lhs.is_tensor()) {
    // `2 - x`: int.__sub__ gives up, Tensor.__rsub__(x, 2) runs.
    if (std::optional<std::string> name = op_for_operator(names.reflected)) {
      return call_op(*name, {rhs, lhs}, {}, range);
    }
    if (names.commutative) {
      if (std::optional<std::string> name = op_for_operator(names.dunder)) {
        return call_op(*name, {rhs, lhs}, {}, range);
      }
    }
  }
  std::optional<std::string> name = op_for_operator(names.dunder);
  if (!name) unsupported();
  return call_op(*name, {lhs, rhs}, {}, range);
}

IValue Interpreter::concrete_silently(const IValue& v) const {
  if (auto* s = as_obj<SymbolicValue>(v)) return s->concrete();
  return v;
}

void Interpreter::check_number_op(ast::BinOpKind op, const IValue& l, const IValue& r,
                                  const std::string& symbol, const SourceRange& range) const {
  if (!l.is_number() || !r.is_number()) return;
  const bool ints = !l.is_double() && !r.is_double();
  if (is_bitwise(op) || op == ast::BinOpKind::LShift || op == ast::BinOpKind::RShift) {
    if (!ints) {
      fail("TypeError: unsupported operand type(s) for " + symbol + ": '" + l.type_name() +
               "' and '" + r.type_name() + "'",
           range);
    }
  }
  const double rd = r.to_double();
  switch (op) {
    case ast::BinOpKind::Div:
      if (rd == 0)
        fail(ints ? "ZeroDivisionError: division by zero"
                  : "ZeroDivisionError: float division by zero",
             range);
      break;
    case ast::BinOpKind::FloorDiv:
      if (rd == 0) {
        fail(ints ? "ZeroDivisionError: integer division or modulo by zero"
                  : "ZeroDivisionError: float floor division by zero",
             range);
      }
      break;
    case ast::BinOpKind::Mod:
      if (rd == 0)
        fail(ints ? "ZeroDivisionError: integer modulo by zero"
                  : "ZeroDivisionError: float modulo by zero",
             range);
      break;
    case ast::BinOpKind::Pow:
      if (l.to_double() == 0 && rd < 0) {
        fail("ZeroDivisionError: 0.0 cannot be raised to a negative power", range);
      }
      if (l.to_double() < 0 && !ints && rd != std::floor(rd)) {
        fail(
            "a negative number raised to a fractional power is a complex number, which d2s does "
            "not support",
            range);
      }
      break;
    case ast::BinOpKind::LShift:
    case ast::BinOpKind::RShift:
      if (r.to_int() < 0) fail("ValueError: negative shift count", range);
      break;
    default:
      break;
  }
}

IValue Interpreter::unary(ast::UnaryOpKind op, const IValue& v, const SourceRange& range) {
  if (!is_numeric(v)) {
    fail(std::string("TypeError: bad operand type for unary ") + ast::unaryop_symbol(op) + ": '" +
             py_type_name(v) + "'",
         range);
  }
  IValue x = v.is_tensor() ? v : bool_as_int(v);
  switch (op) {
    case ast::UnaryOpKind::Pos:
      return x;
    case ast::UnaryOpKind::Neg:
    case ast::UnaryOpKind::Invert: {
      if (op == ast::UnaryOpKind::Invert && concrete_silently(x).is_double()) {
        fail("TypeError: bad operand type for unary ~: 'float'", range);
      }
      if (op == ast::UnaryOpKind::Neg && x.is_int() &&
          x.to_int() == std::numeric_limits<int64_t>::min()) {
        fail("OverflowError: the int result of unary - does not fit in 64 bits", range);
      }
      std::optional<std::string> name =
          op_for_operator(op == ast::UnaryOpKind::Neg ? "__neg__" : "__invert__");
      if (!name)
        fail(std::string("TypeError: bad operand type for unary ") + ast::unaryop_symbol(op),
             range);
      return call_op(*name, {x}, {}, range);
    }
    case ast::UnaryOpKind::Not:
      return IValue(!truthy(v, range));
  }
  return v;
}

// ---------------------------------------------------------------- comparisons

bool Interpreter::py_equal(const IValue& a, const IValue& b, const SourceRange& range) {
  if (is_numeric(a) && is_numeric(b))
    return truthy(compare(ast::CmpOpKind::Eq, a, b, range), range);
  if (a.is_none() || b.is_none()) return a.is_none() && b.is_none();
  if (a.is_string() || b.is_string())
    return a.is_string() && b.is_string() && a.to_string() == b.to_string();
  const ValueList* x = seq_items(a);
  const ValueList* y = seq_items(b);
  if (x && y) {
    if (x == y) return true;  // the same list (Python compares identity first)
    // A torch.Size is a tuple; lists equal only lists.
    if (a.is_list() != b.is_list() || x->size() != y->size()) return false;
    check_stack(range);  // lists nested in each other compare recursively
    for (size_t i = 0; i < x->size(); ++i) {
      if (!py_equal((*x)[i], (*y)[i], range)) return false;
    }
    return true;
  }
  if (auto* d = as_obj<DTypeValue>(a))
    return as_obj<DTypeValue>(b) && as_obj<DTypeValue>(b)->dtype == d->dtype;
  if (auto* r = as_obj<RangeValue>(a)) {
    auto* s = as_obj<RangeValue>(b);
    return s && r->length() == s->length() &&
           (r->length() == 0 || (r->start == s->start && (r->length() == 1 || r->step == s->step)));
  }
  if (a.is_object() && b.is_object()) return a.to_object() == b.to_object();
  return false;
}

IValue Interpreter::compare(ast::CmpOpKind op, const IValue& lhs, const IValue& rhs,
                            const SourceRange& range) {
  switch (op) {
    case ast::CmpOpKind::Is:
    case ast::CmpOpKind::IsNot: {
      bool same;
      if (lhs.is_none() || rhs.is_none())
        same = lhs.is_none() && rhs.is_none();
      else if (lhs.is_tensor() && rhs.is_tensor())
        same = lhs.to_tensor().is_same(rhs.to_tensor());
      else if (lhs.is_object() && rhs.is_object())
        same = lhs.to_object() == rhs.to_object();
      else if (lhs.is_list() && rhs.is_list())
        same = &lhs.list_items() == &rhs.list_items();
      else if (lhs.is_tuple() && rhs.is_tuple())
        same = &lhs.tuple_items() == &rhs.tuple_items();
      else if (lhs.is_bool() || rhs.is_bool())
        same = lhs.is_bool() && rhs.is_bool() && lhs.to_bool() == rhs.to_bool();
      else if (lhs.is_int() && rhs.is_int())
        same = lhs.to_int() == rhs.to_int();
      else if (lhs.is_string() && rhs.is_string())
        same = lhs.to_string() == rhs.to_string();
      else
        same = false;
      return IValue(op == ast::CmpOpKind::Is ? same : !same);
    }
    case ast::CmpOpKind::In:
    case ast::CmpOpKind::NotIn: {
      bool found = false;
      if (rhs.is_string()) {
        if (!lhs.is_string()) {
          fail("TypeError: 'in <string>' requires string as left operand, not " + py_type_name(lhs),
               range);
        }
        found = rhs.to_string().find(lhs.to_string()) != std::string::npos;
      } else if (const ValueList* items = seq_items(rhs)) {
        for (const IValue& item : *items) {
          if (py_equal(item, lhs, range)) {
            found = true;
            break;
          }
        }
      } else if (DictValue* d = as_dict(rhs)) {
        found = d->find(*this, lhs, range) >= 0;
      } else if (is_module_dict(rhs)) {
        found = module_dict_contains(rhs, lhs);
      } else if (auto* r = as_obj<RangeValue>(rhs)) {
        IValue c = concrete(lhs, PyConversion::Scalar, range);
        if (c.is_int() || c.is_bool()) {
          int64_t x = c.to_int();
          int64_t n = r->length();
          found = n > 0 && (x - r->start) % r->step == 0 && (x - r->start) / r->step >= 0 &&
                  (x - r->start) / r->step < n;
        }
      } else if (rhs.is_tensor()) {
        // Tensor.__contains__: (element == x).any()
        IValue eq = compare(ast::CmpOpKind::Eq, rhs, lhs, range);
        found = truthy(call_op("aten::any", {eq}, {}, range), range);
      } else {
        fail("TypeError: argument of type '" + py_type_name(rhs) + "' is not iterable", range);
      }
      return IValue(op == ast::CmpOpKind::In ? found : !found);
    }
    default:
      break;
  }
  if (is_numeric(lhs) && is_numeric(rhs)) {
    IValue l = lhs.is_tensor() ? lhs : bool_as_int(lhs);
    IValue r = rhs.is_tensor() ? rhs : bool_as_int(rhs);
    if (!l.is_tensor() && r.is_tensor()) {
      // `0 < x` is x > 0 (PyTorch's reflected comparison), keeping the tensor first.
      static const ast::CmpOpKind kFlipped[] = {ast::CmpOpKind::Gt, ast::CmpOpKind::Lt,
                                                ast::CmpOpKind::Ge, ast::CmpOpKind::Le,
                                                ast::CmpOpKind::Eq, ast::CmpOpKind::Ne};
      std::optional<std::string> name =
          op_for_operator(compare_dunder(kFlipped[static_cast<int>(op)]));
      if (name) return call_op(*name, {r, l}, {}, range);
    }
    std::optional<std::string> name = op_for_operator(compare_dunder(op));
    if (!name)
      fail(std::string("comparison ") + ast::cmpop_symbol(op) + " is not supported by d2s", range);
    return call_op(*name, {l, r}, {}, range);
  }
  if (op == ast::CmpOpKind::Eq) return IValue(py_equal(lhs, rhs, range));
  if (op == ast::CmpOpKind::Ne) return IValue(!py_equal(lhs, rhs, range));
  // Ordering of strings and of sequences, lexicographic as in Python.
  auto ordered = [&](int c) {
    switch (op) {
      case ast::CmpOpKind::Lt:
        return c < 0;
      case ast::CmpOpKind::Gt:
        return c > 0;
      case ast::CmpOpKind::Le:
        return c <= 0;
      default:
        return c >= 0;
    }
  };
  if (lhs.is_string() && rhs.is_string())
    return IValue(ordered(lhs.to_string().compare(rhs.to_string())));
  const ValueList* a = seq_items(lhs);
  const ValueList* b = seq_items(rhs);
  if (a && b && lhs.is_list() == rhs.is_list()) {
    size_t n = std::min(a->size(), b->size());
    for (size_t i = 0; i < n; ++i) {
      if (!py_equal((*a)[i], (*b)[i], range)) return compare(op, (*a)[i], (*b)[i], range);
    }
    return IValue(ordered(a->size() < b->size() ? -1 : a->size() > b->size() ? 1 : 0));
  }
  fail(std::string("TypeError: '") + ast::cmpop_symbol(op) +
           "' not supported between instances of '" + py_type_name(lhs) + "' and '" +
           py_type_name(rhs) + "'",
       range);
}

}  // namespace d2s::interp
