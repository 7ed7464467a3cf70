// The parse route's forward of nn.MultiheadAttention and the nn.Transformer* layers
// (trace/nn_attention.h): the composition of ops of
// trace/attention_forward.h emitted into the graph, with the modules' parameters as
// graph inputs, their hyperparameters and self.training as constants, and submodules
// (self_attn, linear1, norm1, layers.0, ...) and the activation called as any module
// attribute is. Sizes are aten::size of the inputs, so the sequence length and batch size
// stay symbolic. What picks the path must be known at conversion time: the masks' dtype
// and rank, need_weights and average_attn_weights; the checks PyTorch makes of shapes are
// made here where the shapes are known.
#include "convert/lower_attention.h"

#include <limits>

#include "convert/lowerer.h"
#include "trace/attention_forward.h"
#include "trace/nn_attention.h"

namespace d2s::convert {

namespace {

struct LowerBuilder {
  using V = ir::Value*;
  Lowerer& l;
  const Sugared& module;
  const SourceRange& range;

  CallArg arg(V v) const { return CallArg{Sugared::of(v), range, nullptr}; }
  V op(const char* name, std::vector<V> args, std::vector<std::pair<std::string, V>> kw) {
    std::vector<CallArg> positional;
    for (V v : args) positional.push_back(arg(v));
    std::vector<std::pair<std::string, CallArg>> keywords;
    for (auto& [k, v] : kw) keywords.emplace_back(k, arg(v));
    return l.emit_op(name, positional, keywords, range);
  }
  V k(const IValue& v) { return l.constant(v, range); }
  V none() { return l.constant(IValue(), range); }
  V list(const std::vector<V>& items) { return l.make_list(items, range); }
  V tuple(const std::vector<V>& items) { return l.make_tuple(items, range); }
  V item(V t, size_t i) {
    std::vector<V> items = l.tuple_items(t, range);
    if (items.size() <= i) fail("TypeError: the attention's result is not a tuple");
    return items[i];
  }
  V mul(V a, V b) { return l.emit_binop(ast::BinOpKind::Mul, a, b, range); }
  V add(V a, V b) { return l.emit_binop(ast::BinOpKind::Add, a, b, range); }
  bool is_none(V v) const { return v->type().kind == ir::TypeKind::None; }
  bool same(V a, V b) const { return a == b; }
  std::optional<int64_t> rank(V v) const {
    const ir::Type& t = v->type();
    if (!t.is_tensor() || !t.shape) return std::nullopt;
    return static_cast<int64_t>(t.shape->size());
  }
  // A float32 in the types may be the shape rules' default for a dtype they do not know
  // (an input's), so only the other dtypes are taken as known; a float32 mask is told
  // from a bool one by prim::dtype when the graph runs.
  std::optional<DType> dtype(V v) const {
    const ir::Type& t = v->type();
    if (!t.is_tensor() || t.dtype == DType::Float32) return std::nullopt;
    return t.dtype;
  }
  std::optional<Shape> shape(V v) const {
    const ir::Type& t = v->type();
    if (!t.is_tensor() || !t.shape) return std::nullopt;
    Shape s;
    for (const ir::Dim& d : *t.shape) {
      if (!d.is_known()) return std::nullopt;
      s.push_back(d.size);
    }
    return s;
  }
  // An int known at conversion time: a constant, or aten::size of a dim the types know
  // (the sizes PyTorch's shape checks compare).
  std::optional<int64_t> int_value(V v) {
    const ir::Node* n = v->node();
    if (n->kind() == "aten::size" && n->inputs().size() == 2) {
      std::optional<Shape> s = shape(n->inputs()[0]);
      std::optional<IValue> dim = l.static_value(n->inputs()[1]);
      if (s && dim && dim->is_int()) {
        int64_t d = dim->to_int();
        const auto rank = static_cast<int64_t>(s->size());
        if (d < 0) d += rank;
        if (d >= 0 && d < rank) return (*s)[static_cast<size_t>(d)];
      }
      return std::nullopt;
    }
    std::optional<IValue> c = l.static_value(v);
    if (!c || !c->is_int()) return std::nullopt;
    return c->to_int();
  }
  Sugared walk(const std::vector<std::string>& path) {
    Sugared s = module;
    for (const std::string& p : path) s = l.module_attribute(s, p, range);
    return s;
  }
  V attr(const std::string& path) { return l.as_value(walk(interp::attribute_path(path)), range); }
  V call(const std::vector<std::string>& path, const std::vector<V>& args,
         const std::vector<std::pair<std::string, V>>& kw) {
    CallArgs ca;
    for (V v : args) ca.positional.push_back(arg(v));
    for (const auto& [k, v] : kw) ca.keywords.emplace_back(k, arg(v));
    return l.as_value(l.call_sugared(walk(path), std::move(ca), range), range);
  }
  V dtype_const(DType d) { return l.constant(IValue(dtype_scalar_type(d)), range); }
  // Conditions: constants where the types decide them, else computed when the graph runs.
  using C = ir::Value*;
  C rank_is(V v, int64_t n) {
    if (std::optional<int64_t> r = rank(v)) return l.bool_const(*r == n);
    return l.emit_compare(ast::CmpOpKind::Eq, l.emit_op("aten::dim", {v}, range), k(IValue(n)),
                          range);
  }
  C dtype_is(V v, DType d) {
    if (std::optional<DType> have = dtype(v)) return l.bool_const(*have == d);
    return l.emit_compare(ast::CmpOpKind::Eq, l.emit_op("prim::dtype", {v}, range),
                          k(IValue(dtype_scalar_type(d))), range);
  }
  std::optional<bool> known(C c) const { return constant_bool(c); }
  template <class F, class G>
  V select(C c, F then_fn, G else_fn) {
    return l.emit_if_value(c, range, then_fn, else_fn);
  }
  [[noreturn]] void fail(const std::string& message, const std::string& hint = "") const {
    l.fail(message, range, hint);
  }
};

// The forward's ops for bound arguments (tensors or None; the bool flags).
ir::Value* attention_with_masks(Lowerer& l, const interp::InstanceValue& inst,
                                const Sugared& module, std::vector<ir::Value*> values,
                                const std::vector<bool>& flags, const SourceRange& range) {
  // A mask that may be None when the graph runs (an Optional[Tensor], such as a mask
  // made under `if mask is None:`) is tested there: one arm with the mask, one without,
  // as the forward takes different paths for them.
  for (size_t j = 0; j < values.size(); ++j) {
    const ir::Type& t = values[j]->type();
    if (t.kind != ir::TypeKind::Optional || t.elements.empty()) continue;
    ir::Value* opt = values[j];
    const ir::Type element = t.elements[0];
    ir::Value* given =
        l.emit_compare(ast::CmpOpKind::IsNot, opt, l.constant(IValue(), range), range);
    return l.emit_if_value(
        given, range,
        [&] {
          std::vector<ir::Value*> with = values;
          with[j] = l.emit_op("prim::unchecked_cast", {opt}, range);
          with[j]->set_type(element);
          return attention_with_masks(l, inst, module, with, flags, range);
        },
        [&] {
          std::vector<ir::Value*> without = values;
          without[j] = l.constant(IValue(), range);
          return attention_with_masks(l, inst, module, without, flags, range);
        });
  }
  LowerBuilder b{l, module, range};
  interp::AttentionForward<LowerBuilder> f{b};
  return f.forward(inst, values, flags);
}

}  // namespace

Sugared Lowerer::call_attention_forward(const Sugared& module, CallArgs& args,
                                        const SourceRange& range) {
  const interp::InstanceValue& inst = *module.module->instance;
  const std::vector<interp::ForwardParam>& params = interp::attention_forward_params(inst.type);
  std::vector<const CallArg*> bound(params.size(), nullptr);
  if (args.positional.size() > params.size()) {
    fail("TypeError: forward() takes from 2 to " + std::to_string(params.size() + 1) +
             " positional arguments but " + std::to_string(args.positional.size() + 1) +
             " were given",
         range);
  }
  for (size_t i = 0; i < args.positional.size(); ++i) bound[i] = &args.positional[i];
  for (const auto& [name, a] : args.keywords) {
    size_t i = 0;
    while (i < params.size() && name != params[i].name) ++i;
    if (i == params.size()) {
      fail("TypeError: forward() got an unexpected keyword argument '" + name + "'", a.range);
    }
    if (bound[i])
      fail("TypeError: forward() got multiple values for argument '" + name + "'", a.range);
    bound[i] = &a;
  }
  std::vector<ir::Value*> values;
  std::vector<bool> flags;
  for (size_t i = 0; i < params.size(); ++i) {
    const interp::ForwardParam& p = params[i];
    if (!bound[i]) {
      if (p.required) {
        fail(std::string("TypeError: forward() missing 1 required positional argument: '") +
                 p.name + "'",
             range);
      }
      if (p.default_value.is_bool()) {
        flags.push_back(p.default_value.to_bool());
      } else {
        values.push_back(constant(IValue(), range));
      }
      continue;
    }
    ir::Value* v = as_value(bound[i]->value, bound[i]->range);
    if (p.default_value.is_bool()) {
      std::optional<IValue> c = static_value(v);
      if (!c || !(c->is_bool() || c->is_int())) {
        fail(std::string(p.name) + " must be known at conversion time in the parse route",
             bound[i]->range, kEagerRuns);
      }
      flags.push_back(c->is_bool() ? c->to_bool() : c->to_int() != 0);
      continue;
    }
    values.push_back(v);
  }
  return Sugared::of(attention_with_masks(*this, inst, module, values, flags, range));
}

Sugared lower_square_subsequent_mask(Lowerer& l, CallArgs& args, const SourceRange& range) {
  const CallArg* sz = args.positional.empty() ? nullptr : &args.positional[0];
  const CallArg* device = args.positional.size() > 1 ? &args.positional[1] : nullptr;
  for (const auto& [name, a] : args.keywords) {
    if (name == "sz" && !sz) {
      sz = &a;
    } else if (name == "device" && !device) {
      device = &a;
    } else {
      l.fail("TypeError: generate_square_subsequent_mask() got an unexpected keyword argument '" +
                 name + "'",
             a.range);
    }
  }
  if (!sz || args.positional.size() > 2) {
    l.fail("TypeError: generate_square_subsequent_mask() takes sz and an optional device", range);
  }
  ir::Value* n = l.as_value(sz->value, sz->range);
  std::vector<CallArg> full_args{
      CallArg{Sugared::of(l.make_list({n, n}, range)), range, nullptr},
      CallArg{Sugared::of(l.constant(IValue(-std::numeric_limits<double>::infinity()), range)),
              range, nullptr}};
  std::vector<std::pair<std::string, CallArg>> full_kw;
  if (device) full_kw.emplace_back("device", *device);
  ir::Value* full = l.emit_op("aten::full", full_args, full_kw, range);
  return Sugared::of(l.emit_op(
      "aten::triu", {CallArg{Sugared::of(full), range, nullptr}},
      {{"diagonal", CallArg{Sugared::of(l.constant(IValue(int64_t{1}), range)), range, nullptr}}},
      range));
}

}  // namespace d2s::convert
