// Tensor operations whose Python call chooses the op by a flag: torch.nonzero(x,
// as_tuple=True) and x.nonzero(as_tuple=True) lower to aten::nonzero_numpy (the name
// torch.jit.trace records; torch.jit.script has no as_tuple at all), without it to
// aten::nonzero.
#include "convert/lowerer.h"
#include "trace/py_typeinfo.h"

namespace d2s::convert {

Sugared Lowerer::call_nonzero(CallArgs& args, const SourceRange& range) {
  bool as_tuple = false;
  for (auto it = args.keywords.begin(); it != args.keywords.end(); ++it) {
    if (it->first != "as_tuple") continue;
    ir::Value* v = as_value(it->second.value, it->second.range);
    std::optional<IValue> flag = static_value(v);
    if (!flag || !(flag->is_bool() || flag->is_int())) {
      fail("nonzero(as_tuple=...) needs a bool known when the program is parsed", it->second.range,
           "write as_tuple=True or as_tuple=False; the two forms return different types");
    }
    as_tuple = flag->is_bool() ? flag->to_bool() : flag->to_int() != 0;
    args.keywords.erase(it);
    break;
  }
  return Sugared::of(emit_op(as_tuple ? "aten::nonzero_numpy" : "aten::nonzero", args.positional,
                             args.keywords, range));
}

// torch.finfo(d) / torch.iinfo(d) as a namedtuple known item by item: d2s has one
// floating and one integer dtype, so the limits are constants. A dtype known now picks
// them (or PyTorch's TypeError); one known only at run time (`x.dtype`) gets a check
// that raises PyTorch's TypeError when it is of the other kind.
Sugared Lowerer::call_type_info(const std::string& q, CallArgs& args, const SourceRange& range) {
  const bool floating = q == "torch.finfo";
  const std::string fname = q.substr(6);
  if (!args.keywords.empty() && args.keywords[0].first != "type") {
    fail("TypeError: " + fname + "() got an unexpected keyword argument '" +
             args.keywords[0].first + "'",
         args.keywords[0].second.range);
  }
  if (args.positional.size() + args.keywords.size() > 1) {
    fail("TypeError: " + fname + "() takes at most 1 argument", range);
  }
  const CallArg* arg = !args.positional.empty() ? &args.positional[0]
                       : !args.keywords.empty() ? &args.keywords[0].second
                                                : nullptr;
  if (!arg && !floating) {
    fail("TypeError: iinfo() missing 1 required positional arguments: \"type\"", range);
  }
  const DType expected = floating ? DType::Float32 : DType::Int64;
  const interp::TypeInfo info = interp::type_info(floating, expected);
  if (arg) {
    ir::Value* d = as_value(arg->value, arg->range);
    // A dtype is an int code in the graph, as in TorchScript: a number written out
    // (`torch.finfo(3)`) is Python's int, not a dtype.
    const bool literal =
        arg->expr &&
        (arg->expr->kind == ast::ExprKind::Int || arg->expr->kind == ast::ExprKind::Float ||
         arg->expr->kind == ast::ExprKind::Bool || arg->expr->kind == ast::ExprKind::Str);
    if (d->type().kind != ir::TypeKind::Int || literal) {
      const ir::TypeKind k = d->type().kind;
      const char* py = k == ir::TypeKind::Int     ? "int"
                       : k == ir::TypeKind::Float ? "float"
                       : k == ir::TypeKind::Bool  ? "bool"
                       : k == ir::TypeKind::Str   ? "str"
                       : k == ir::TypeKind::None  ? "NoneType"
                       : d->type().is_tensor()    ? "Tensor"
                                                  : nullptr;
      fail("TypeError: " + fname + "(): argument 'type' (position 1) must be torch.dtype" +
               (py ? std::string(", not ") + py : std::string()),
           arg->range);
    }
    if (std::optional<IValue> code = static_value(d)) {
      DType known;
      if (!code->is_int() || !dtype_from_scalar_type(code->to_int(), &known)) {
        fail("TypeError: " + fname + "(): argument 'type' (position 1) must be torch.dtype",
             arg->range);
      }
      const interp::TypeInfo other = interp::type_info(floating, known);
      if (!other.error.empty()) fail(other.error, arg->range, interp::kTypeInfoHint);
    } else {
      // Raises PyTorch's TypeError for `message_for` unless d is `compare_to` (or, with
      // `equal_fails`, when it is).
      auto check = [&](DType compare_to, bool equal_fails, DType message_for) {
        ir::Value* code = constant(IValue(dtype_scalar_type(compare_to)), range);
        ir::Value* ok = emit_op(equal_fails ? "aten::ne" : "aten::eq", {d, code}, range);
        ir::Node* n = graph_.insert(ir::kind::If, {ok}, 0, range);
        n->add_block();
        ir::WithInsertPoint guard(graph_, n->add_block());
        std::string msg = interp::type_info(floating, message_for).error;
        msg = msg.substr(msg.find(": ") + 2);  // the kind is the node's attribute
        ir::Node* raise =
            graph_.insert(ir::kind::RaiseException, {constant(IValue(msg), range)}, 0, range);
        raise->set_attr("kind", IValue("TypeError"));
      };
      if (floating) {
        check(DType::Float32, false, DType::Int64);
      } else {
        check(DType::Bool, true, DType::Bool);
        check(DType::Int64, false, DType::Float32);
      }
    }
  }
  auto items = std::make_shared<std::vector<Sugared>>();
  auto fields = std::make_shared<std::vector<std::string>>();
  for (const interp::TypeInfoField& f : info.fields) {
    fields->push_back(f.name);
    items->push_back(Sugared::of(constant(f.value, range)));
  }
  Sugared out = Sugared::of_kind(Sugared::Kind::Items, fname);
  out.items = std::move(items);
  out.fields = std::move(fields);
  return out;
}

}  // namespace d2s::convert
