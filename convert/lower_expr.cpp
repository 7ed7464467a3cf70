// Expressions: names, constants, attributes, operators, conditions (with `and` / `or`
// short-circuiting through prim::If, as TorchScript does), subscripts, f-strings,
// tuples and lists.
#include <algorithm>
#include <cmath>
#include <functional>

#include "convert/lowerer.h"
#include "core/ops/op_registry.h"

namespace d2s::convert {

using ir::Type;
using ir::TypeKind;

namespace {

const char* dunder(ast::BinOpKind op) {
  switch (op) {
    case ast::BinOpKind::Add:
      return "__add__";
    case ast::BinOpKind::Sub:
      return "__sub__";
    case ast::BinOpKind::Mul:
      return "__mul__";
    case ast::BinOpKind::Div:
      return "__truediv__";
    case ast::BinOpKind::FloorDiv:
      return "__floordiv__";
    case ast::BinOpKind::Mod:
      return "__mod__";
    case ast::BinOpKind::Pow:
      return "__pow__";
    case ast::BinOpKind::MatMul:
      return "__matmul__";
    case ast::BinOpKind::BitAnd:
      return "__and__";
    case ast::BinOpKind::BitOr:
      return "__or__";
    case ast::BinOpKind::BitXor:
      return "__xor__";
    case ast::BinOpKind::LShift:
      return "__lshift__";
    case ast::BinOpKind::RShift:
      return "__rshift__";
  }
  return "?";
}

const char* dunder(ast::CmpOpKind op) {
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
      return nullptr;
  }
}

}  // namespace

ir::Value* Lowerer::constant(const IValue& v, const SourceRange& range) {
  return graph_.insert_constant(v, range);
}

ir::Value* Lowerer::as_value(const Sugared& s, const SourceRange& range) {
  if (s.is_value()) return s.value;
  if (s.kind == Sugared::Kind::Items &&
      std::all_of(s.items->begin(), s.items->end(),
                  [](const Sugared& i) { return i.is_value(); })) {
    // A tuple of values known item by item (a namedtuple): the tuple itself.
    std::vector<ir::Value*> items;
    for (const Sugared& i : *s.items) items.push_back(i.value);
    return make_tuple(items, range);
  }
  if (s.kind == Sugared::Kind::Keywords) return keywords_dict(s, range);
  fail("expected a value here, but this is " + s.describe(), range,
       s.kind == Sugared::Kind::Method || s.kind == Sugared::Kind::Function ||
               s.kind == Sugared::Kind::Builtin
           ? "did you forget the parentheses of a call?"
           : "");
}

ir::Value* Lowerer::emit_expr(const ast::Expr& expr) {
  return as_value(emit_sugared(expr), expr.range);
}

Sugared Lowerer::emit_sugared(const ast::Expr& e) {
  switch (e.kind) {
    case ast::ExprKind::Name:
      return lookup_name(e.as<ast::Name>().id, e.range);
    case ast::ExprKind::Starred:
      fail("SyntaxError: can't use starred expression here", e.range,
           "d2s spreads `*x` in the positional arguments of a call only");
    case ast::ExprKind::Lambda:
      return make_closure(*e.as<ast::Lambda>().def, "<lambda>");
    case ast::ExprKind::Comp:
      return emit_comp(e.as<ast::Comp>());
    case ast::ExprKind::Dict:
      return Sugared::of(emit_dict(e.as<ast::DictExpr>()));  // lower_dict.cpp
    case ast::ExprKind::Set:
      fail("a set is not supported by the parse route (it has no set values)", e.range, kEagerRuns);
    case ast::ExprKind::Ellipsis:
      fail("'...' is only supported in a tensor subscript by the parse route", e.range);
    case ast::ExprKind::Int:
      return Sugared::of(constant(IValue(e.as<ast::IntLit>().value), e.range));
    case ast::ExprKind::Float:
      return Sugared::of(constant(IValue(e.as<ast::FloatLit>().value), e.range));
    case ast::ExprKind::Bool:
      return Sugared::of(constant(IValue(e.as<ast::BoolLit>().value), e.range));
    case ast::ExprKind::None:
      return Sugared::of(constant(IValue(), e.range));
    case ast::ExprKind::Str:
      return Sugared::of(constant(IValue(e.as<ast::StrLit>().value), e.range));
    case ast::ExprKind::FString:
      return Sugared::of(emit_fstring(e.as<ast::FString>()));
    case ast::ExprKind::Attribute: {
      const auto& a = e.as<ast::Attribute>();
      return emit_attribute(emit_sugared(*a.value), a.attr, e.range);
    }
    case ast::ExprKind::Call:
      return emit_call(e.as<ast::Call>());
    case ast::ExprKind::Subscript:
      return emit_subscript(e.as<ast::Subscript>());
    case ast::ExprKind::Slice:
      fail("a slice can only appear inside [ ]", e.range);
    case ast::ExprKind::BinOp: {
      const auto& b = e.as<ast::BinOp>();
      ir::Value* lhs = emit_expr(*b.lhs);
      ir::Value* rhs = emit_expr(*b.rhs);
      return Sugared::of(emit_binop(b.op, lhs, rhs, e.range));
    }
    case ast::ExprKind::UnaryOp: {
      const auto& u = e.as<ast::UnaryOp>();
      if (u.op == ast::UnaryOpKind::Not) {
        return Sugared::of(emit_not(emit_condition(*u.operand), e.range));
      }
      return Sugared::of(emit_unary(u.op, emit_expr(*u.operand), e.range));
    }
    case ast::ExprKind::Compare: {
      // A single comparison is a value (a bool tensor for tensors: `torch.where(x > y,
      // ...)`); a chain needs Python's `and` between its links, so it is a bool.
      const auto& c = e.as<ast::Compare>();
      if (c.ops.size() == 1) {
        Sugared ls = emit_sugared(*c.left);
        Sugared rs = emit_sugared(*c.comparators[0]);
        const bool is_op = c.ops[0] == ast::CmpOpKind::Is || c.ops[0] == ast::CmpOpKind::IsNot;
        if (is_op && (!ls.is_value() || !rs.is_value())) {
          // `self.fc is not None`, `self.act is self.act`: identity of conversion-time
          // objects, decided now.
          bool same = ls.same_as(rs);
          return Sugared::of(bool_const(c.ops[0] == ast::CmpOpKind::Is ? same : !same));
        }
        if (std::optional<Sugared> r = emit_in(c.ops[0], ls, rs, e.range)) return *r;
        ir::Value* lhs = as_value(ls, c.left->range);
        ir::Value* rhs = as_value(rs, c.comparators[0]->range);
        return Sugared::of(emit_compare(c.ops[0], lhs, rhs, e.range));
      }
      return Sugared::of(emit_condition(e));
    }
    case ast::ExprKind::BoolOp:
      // As a value, `a and b` is one of its operands (Python's rule); as a condition
      // (emit_condition) only its truth matters.
      return Sugared::of(emit_bool_op_value(e.as<ast::BoolOp>(), e.range));
    case ast::ExprKind::IfExp: {
      const auto& i = e.as<ast::IfExp>();
      ir::Value* cond = emit_condition(*i.test);
      // `b if b is not None else zero`: each arm sees what the test proved there.
      auto arm = [&](const ast::Expr& value, bool when_true) {
        std::vector<std::string> names;
        not_none_names(*i.test, when_true, &names);
        return emit_refined(names, i.test->range, [&] { return emit_expr(value); });
      };
      return Sugared::of(emit_if_value(
          cond, e.range, [&] { return arm(*i.body, true); },
          [&] { return arm(*i.orelse, false); }));
    }
    case ast::ExprKind::Tuple: {
      std::vector<ir::Value*> items;
      for (const auto& x : e.as<ast::TupleExpr>().elts) items.push_back(emit_expr(*x));
      return Sugared::of(make_tuple(items, e.range));
    }
    case ast::ExprKind::List: {
      std::vector<ir::Value*> items;
      for (const auto& x : e.as<ast::ListExpr>().elts) items.push_back(emit_expr(*x));
      return Sugared::of(make_list(items, e.range));
    }
  }
  fail("unsupported expression", e.range);
}

// ----------------------------------------------------------------- operators

ir::Value* Lowerer::emit_binop(ast::BinOpKind op, ir::Value* lhs, ir::Value* rhs,
                               const SourceRange& range) {
  // Tuples concatenate at conversion time: their lengths are static.
  if (op == ast::BinOpKind::Add && lhs->type().kind == TypeKind::Tuple &&
      rhs->type().kind == TypeKind::Tuple) {
    std::vector<ir::Value*> items = tuple_items(lhs, range);
    for (ir::Value* v : tuple_items(rhs, range)) items.push_back(v);
    return make_tuple(items, range);
  }
  if (op == ast::BinOpKind::Add && lhs->type().kind == TypeKind::List &&
      rhs->type().kind == TypeKind::List) {
    return list_concat(lhs, rhs, range);
  }
  if (op == ast::BinOpKind::Mul &&
      (lhs->type().kind == TypeKind::List || rhs->type().kind == TypeKind::List)) {
    // `[0] * n` / `n * xs`: repeated, written out when the items and n are known now,
    // else TorchScript's aten::mul.left_t when the graph runs.
    ir::Value* list = lhs->type().kind == TypeKind::List ? lhs : rhs;
    ir::Value* times = list == lhs ? rhs : lhs;
    const TypeKind k = times->type().kind;
    if (k != TypeKind::Int && k != TypeKind::Bool) {
      fail("TypeError: can't multiply sequence by non-int of type '" + times->type().str() + "'",
           range);
    }
    auto items = static_list_items(list, range);
    std::optional<IValue> n = static_value(times);
    if (items && n) {
      std::vector<ir::Value*> out;
      for (int64_t i = 0; i < n->to_int(); ++i) out.insert(out.end(), items->begin(), items->end());
      ir::Value* made = make_list(out, range);
      if (out.empty()) made->set_type(list->type());
      return made;
    }
    ir::Value* out = emit_op("aten::mul", {list, times}, range);
    out->set_type(list->type());
    return out;
  }
  if (op == ast::BinOpKind::Mod && lhs->type().kind == TypeKind::Str) {
    // printf-style `"..." % args`: TorchScript's aten::percentFormat (core/ops/kernels_str.cpp),
    // given the tuple or the one value; a label known now folds to a constant.
    return emit_op("aten::percentFormat", {lhs, rhs}, range);
  }
  auto name = op_for_operator(dunder(op));
  if (!name) {
    fail(std::string("the operator '") + ast::binop_symbol(op) + "' is not supported", range);
  }
  return emit_op(*name, {lhs, rhs}, range);
}

ir::Value* Lowerer::emit_unary(ast::UnaryOpKind op, ir::Value* v, const SourceRange& range) {
  switch (op) {
    case ast::UnaryOpKind::Pos:
      return v;
    case ast::UnaryOpKind::Not:
      return emit_not(to_bool(v, range), range);
    case ast::UnaryOpKind::Neg:
    case ast::UnaryOpKind::Invert: {
      auto name = op_for_operator(op == ast::UnaryOpKind::Neg ? "__neg__" : "__invert__");
      if (!name) {
        fail(std::string("the operator '") + ast::unaryop_symbol(op) + "' is not supported", range);
      }
      return emit_op(*name, {v}, range);
    }
  }
  return v;
}

ir::Value* Lowerer::emit_compare(ast::CmpOpKind op, ir::Value* lhs, ir::Value* rhs,
                                 const SourceRange& range) {
  if (op == ast::CmpOpKind::Is || op == ast::CmpOpKind::IsNot) {
    // `x is None`: decided by the static types (a value is None only if its type is).
    TypeKind a = lhs->type().kind, b = rhs->type().kind;
    if ((a == TypeKind::Optional && b == TypeKind::None) ||
        (b == TypeKind::Optional && a == TypeKind::None)) {
      // A value that may be None: tested when the graph runs, as TorchScript does;
      // lower_if.cpp refines the tested name in the arm where it is not None.
      ir::Value* r =
          emit_op(op == ast::CmpOpKind::Is ? "aten::__is__" : "aten::__isnot__", {lhs, rhs}, range);
      r->set_type(Type::of_bool());
      return r;
    }
    if (a != TypeKind::None && b != TypeKind::None) {
      fail("'is' is only supported with None in the parse route", range, "use == instead");
    }
    if (a == TypeKind::Any || b == TypeKind::Any) {
      fail("cannot tell at conversion time whether this value is None", range);
    }
    bool same = a == b;
    return bool_const(op == ast::CmpOpKind::Is ? same : !same);
  }
  const char* d = dunder(op);
  if (!d) {
    fail(std::string("the operator '") + ast::cmpop_symbol(op) +
             "' is not supported by the parse route",
         range);
  }
  auto name = op_for_operator(d);
  if (!name)
    fail(std::string("the operator '") + ast::cmpop_symbol(op) + "' is not supported", range);
  return emit_op(*name, {lhs, rhs}, range);
}

// ----------------------------------------------------------------- conditions

ir::Value* Lowerer::to_bool(ir::Value* v, const SourceRange& range) {
  switch (v->type().kind) {
    case TypeKind::Bool:
      return v;
    case TypeKind::None:
      return bool_const(false);
    case TypeKind::Tuple:
      return bool_const(!v->type().elements.empty());
    case TypeKind::Tensor:
    case TypeKind::Int:
    case TypeKind::Float:
    case TypeKind::Any:
      // aten::Bool checks at run time what Python's bool() checks (one element).
      return emit_op("aten::Bool", {v}, range);
    default:
      fail("the truth value of a " + v->type().str() + " is not supported by the parse route",
           range);
  }
}

ir::Value* Lowerer::emit_not(ir::Value* cond, const SourceRange& range) {
  if (auto c = constant_bool(cond)) return bool_const(!*c);
  return emit_op("aten::__not__", {cond}, range);
}

ir::Value* Lowerer::emit_condition(const ast::Expr& e) {
  if (e.kind == ast::ExprKind::BoolOp) {
    const auto& b = e.as<ast::BoolOp>();
    // Each operand is lowered where the ones before it were true (`and`) or false
    // (`or`), so it sees what they proved not None: `mask is not None and mask.any()`.
    std::vector<std::function<ir::Value*()>> terms;
    for (size_t k = 0; k < b.values.size(); ++k) {
      terms.push_back([this, &b, k] {
        std::vector<std::string> names;
        for (size_t j = 0; j < k; ++j) not_none_names(*b.values[j], b.is_and, &names);
        return emit_refined(names, b.values[k]->range,
                            [this, &b, k] { return emit_condition(*b.values[k]); });
      });
    }
    return emit_short_circuit(terms, b.is_and, e.range);
  }
  if (e.kind == ast::ExprKind::UnaryOp && e.as<ast::UnaryOp>().op == ast::UnaryOpKind::Not) {
    return emit_not(emit_condition(*e.as<ast::UnaryOp>().operand), e.range);
  }
  if (e.kind == ast::ExprKind::Compare) {
    // a < b < c is (a < b) and (b < c), with b evaluated once.
    const auto& c = e.as<ast::Compare>();
    // One comparison as emit_sugared makes it: `self.downsample is not None` of a module,
    // `key in self.heads`, decided at conversion time.
    if (c.ops.size() == 1) return to_bool(as_value(emit_sugared(e), e.range), e.range);
    std::vector<std::function<ir::Value*()>> terms;
    auto left = std::make_shared<ir::Value*>(nullptr);
    for (size_t i = 0; i < c.ops.size(); ++i) {
      terms.push_back([this, &c, i, left, &e] {
        if (i == 0) *left = emit_expr(*c.left);
        ir::Value* right = emit_expr(*c.comparators[i]);
        SourceRange r = c.ops.size() == 1 ? e.range
                                          : SourceRange::span(i == 0 ? c.left->range
                                                                     : c.comparators[i - 1]->range,
                                                              c.comparators[i]->range);
        ir::Value* result = emit_compare(c.ops[i], *left, right, r);
        *left = right;
        return to_bool(result, r);
      });
    }
    return emit_short_circuit(terms, true, e.range);
  }
  Sugared s = emit_sugared(e);
  // `if kwargs:`: whether the caller passed any, known at conversion time.
  if (s.kind == Sugared::Kind::Keywords) return bool_const(!s.items->empty());
  ir::Value* v = as_value(s, e.range);
  return to_bool(v, e.range);
}

ir::Value* Lowerer::emit_short_circuit(const std::vector<std::function<ir::Value*()>>& terms,
                                       bool is_and, const SourceRange& range) {
  // Each operand but the last opens a prim::If whose other arm is the short-circuit
  // result; the If nodes nest, and are closed innermost first without recursion.
  ir::Node* saved_point = graph_.insert_point();
  std::vector<ir::Node*> open;
  ir::Value* result = nullptr;
  for (size_t k = 0; k < terms.size(); ++k) {
    ir::Value* c = terms[k]();
    if (k + 1 == terms.size()) {
      result = c;
      break;
    }
    if (auto known = constant_bool(c)) {
      if (*known != is_and) {  // False in an `and`, True in an `or`: decided
        result = c;
        break;
      }
      continue;  // no effect on the result
    }
    ir::Node* n = graph_.insert(ir::kind::If, {c}, 1, range);
    ir::Block* then_block = n->add_block();
    ir::Block* else_block = n->add_block();
    n->output()->set_type(Type::of_bool());
    (is_and ? else_block : then_block)->register_output(bool_const(!is_and));
    graph_.set_insert_point(is_and ? then_block : else_block);
    open.push_back(n);
  }
  for (size_t k = open.size(); k-- > 0;) {
    ir::Node* n = open[k];
    (is_and ? n->blocks()[0] : n->blocks()[1])->register_output(result);
    result = n->output();
  }
  graph_.set_insert_point(saved_point);
  return result;
}

ir::Value* Lowerer::emit_bool_op_value(const ast::BoolOp& b, const SourceRange& range) {
  // `a and b` is a when a is falsy, else b; `a or b` is a when a is truthy, else b.
  // Each operand but the last opens a prim::If whose deciding arm returns the operand
  // itself; the Ifs nest, and are closed innermost first without recursion. Operands
  // of different types give an If of type Any (the executor's values carry their own).
  ir::Node* saved_point = graph_.insert_point();
  std::vector<std::pair<ir::Node*, ir::Value*>> open;  // an If and its deciding operand
  ir::Value* result = nullptr;
  for (size_t k = 0; k < b.values.size(); ++k) {
    ir::Value* v = emit_expr(*b.values[k]);
    if (k + 1 == b.values.size()) {
      result = v;
      break;
    }
    ir::Value* c = to_bool(v, b.values[k]->range);
    if (auto known = constant_bool(c)) {
      if (*known != b.is_and) {  // falsy in an `and`, truthy in an `or`: decided
        result = v;
        break;
      }
      continue;  // the next operand decides
    }
    ir::Node* n = graph_.insert(ir::kind::If, {c}, 1, range);
    ir::Block* then_block = n->add_block();
    ir::Block* else_block = n->add_block();
    (b.is_and ? else_block : then_block)->register_output(v);
    graph_.set_insert_point(b.is_and ? then_block : else_block);
    open.emplace_back(n, v);
  }
  for (size_t k = open.size(); k-- > 0;) {
    auto [n, decided] = open[k];
    (b.is_and ? n->blocks()[0] : n->blocks()[1])->register_output(result);
    n->output()->set_type(join_types(decided->type(), result->type()).value_or(Type::any()));
    result = n->output();
  }
  graph_.set_insert_point(saved_point);
  return result;
}

// ----------------------------------------------------------------- f-strings

namespace {

// The int[] of aten::size(x): what `x.shape` and `x.size()` give, a torch.Size in
// eager PyTorch. (TorchScript's own print shows it as a list, `[2, 3]`; d2s's prints
// follow eager mode, as they do for floats and tensors.)
bool is_whole_shape(const ir::Value* v) {
  return v->node()->kind() == "aten::size" && v->node()->inputs().size() == 1;
}

}  // namespace

ir::Value* Lowerer::printed_form(ir::Value* v, const SourceRange& range) {
  if (!is_whole_shape(v)) return v;
  return emit_op("aten::format", {constant(IValue("torch.Size({})"), range), v}, range);
}

ir::Value* Lowerer::emit_fstring(const ast::FString& f) {
  std::string fmt;
  std::vector<ir::Value*> args;
  for (const auto& part : f.parts) {
    if (!part.expr) {
      for (char ch : part.text) {
        if (ch == '{' || ch == '}') fmt += ch;  // literal braces are doubled in a format
        fmt += ch;
      }
      continue;
    }
    ir::Value* v = emit_expr(*part.expr);
    // A torch.Size's str and repr are alike; a format spec is its own business.
    const bool size = part.format_spec.empty() && is_whole_shape(v);
    fmt += size ? "torch.Size({" : "{";
    if (part.conversion) {
      fmt += '!';
      fmt += part.conversion;
    }
    if (!part.format_spec.empty()) fmt += ":" + part.format_spec;
    fmt += size ? "})" : "}";
    args.push_back(v);
  }
  if (args.empty()) {
    // Undo the doubling: a literal-only f-string is just its text.
    std::string text;
    for (const auto& part : f.parts) text += part.text;
    return constant(IValue(text), f.range);
  }
  args.insert(args.begin(), constant(IValue(fmt), f.range));
  return emit_op("aten::format", args, f.range);
}

// ----------------------------------------------------------------- tuples, lists

ir::Value* Lowerer::make_tuple(const std::vector<ir::Value*>& items, const SourceRange& range) {
  ir::Node* n = graph_.insert(ir::kind::TupleConstruct, items, 1, range);
  std::vector<Type> types;
  for (ir::Value* v : items) types.push_back(v->type());
  n->output()->set_type(Type::tuple(std::move(types)));
  return n->output();
}

ir::Value* Lowerer::make_list(const std::vector<ir::Value*>& items, const SourceRange& range) {
  ir::Node* n = graph_.insert(ir::kind::ListConstruct, items, 1, range);
  Type elem = Type::any();
  for (size_t i = 0; i < items.size(); ++i) {
    if (i == 0) {
      elem = items[i]->type();
    } else if (auto j = join_types(elem, items[i]->type())) {
      elem = *j;
    } else if (elem.kind == TypeKind::Float && items[i]->type().kind == TypeKind::Int) {
      // [0.5, 1] is a list of numbers: keep float
    } else if (elem.kind == TypeKind::Int && items[i]->type().kind == TypeKind::Float) {
      elem = Type::of_float();
    } else {
      elem = Type::any();
    }
  }
  n->output()->set_type(Type::list(elem));
  return n->output();
}

std::vector<ir::Value*> Lowerer::tuple_items(ir::Value* tuple, const SourceRange& range) {
  ir::Node* producer = tuple->node();
  if (producer->kind() == ir::kind::TupleConstruct) return producer->inputs();
  if (auto c = constant_value(tuple); c && c->is_tuple()) {
    // A frozen tuple attribute (`self.sizes = (1, 2)`): its items are constants too.
    std::vector<ir::Value*> items;
    for (const IValue& item : c->tuple_items()) items.push_back(constant(item, producer->range()));
    return items;
  }
  const Type& t = tuple->type();
  if (t.kind != TypeKind::Tuple) {
    fail("expected a tuple here, got " + t.str(), range);
  }
  ir::Node* n = graph_.insert(ir::kind::TupleUnpack, {tuple}, t.elements.size(), range);
  for (size_t i = 0; i < t.elements.size(); ++i) n->output(i)->set_type(t.elements[i]);
  return n->outputs();
}

std::vector<Sugared> Lowerer::unpack(const Sugared& value, const SourceRange& range) {
  std::vector<Sugared> out;
  if (value.kind == Sugared::Kind::Module) return module_items(value, range);
  if (value.kind == Sugared::Kind::Items) return *value.items;
  if (value.kind == Sugared::Kind::Iterator) return iterator_rest(value, range);
  if (!value.is_value()) fail("cannot unpack " + value.describe(), range);
  ir::Value* v = value.value;
  if (v->type().kind == TypeKind::Tuple) {
    for (ir::Value* item : tuple_items(v, range)) out.push_back(Sugared::of(item));
    return out;
  }
  if (auto items = static_list_items(v, range)) {
    for (ir::Value* item : *items) out.push_back(Sugared::of(item));
    return out;
  }
  fail("cannot unpack a value of type " + v->type().str() + " in the parse route", range,
       v->type().is_tensor() ? "index it instead: a, b = x[0], x[1]"
                             : "only tuples and lists written out in the program can be unpacked");
}

}  // namespace d2s::convert
