// The parse route's forward of nn.Embedding and the recurrent layers (trace/
// nn_recurrent.h): the op TorchScript records, with the module's parameters as graph
// inputs and its hyperparameters as constants. A missing state is aten::zeros over
// aten::size of the input, so the batch size (and the sequence length, which only the
// op reads) stay symbolic. An input whose rank the lowering knows to be 2 (1 for a
// cell) is unbatched and goes through unsqueeze/squeeze as PyTorch's forward does;
// any other input is taken as batched, and the op checks its rank when it runs.
#include "convert/lowerer.h"
#include "trace/nn_recurrent.h"
#include "trace/py_objects.h"

namespace d2s::convert {

namespace {

bool known_rank(const ir::Value* v, size_t rank) {
  const ir::Type& t = v->type();
  return t.is_tensor() && t.shape && t.shape->size() == rank;
}

}  // namespace

Sugared Lowerer::call_recurrent_forward(const Sugared& module, CallArgs& args,
                                        const SourceRange& range) {
  const interp::InstanceValue& inst = *module.module->instance;
  const bool embedding = inst.type == "Embedding";
  const size_t max_args = embedding ? 1 : 2;
  const CallArg* input = args.positional.empty() ? nullptr : &args.positional[0];
  const CallArg* hx = args.positional.size() > 1 ? &args.positional[1] : nullptr;
  for (const auto& [name, arg] : args.keywords) {
    if (name == "input" && !input) {
      input = &arg;
    } else if (name == "hx" && !hx && !embedding) {
      hx = &arg;
    } else {
      fail("TypeError: " + inst.type + ".forward() got an unexpected keyword argument '" + name +
               "'",
           range);
    }
  }
  if (!input || args.positional.size() > max_args) {
    fail("TypeError: " + inst.type + ".forward() takes the input" +
             (embedding ? "" : " and an optional hx"),
         range);
  }
  ir::Value* x = as_value(input->value, input->range);
  auto attr = [&](const std::string& name) {
    return as_value(module_attribute(module, name, range), range);
  };
  auto c = [&](const IValue& v) { return constant(v, range); };
  if (embedding) {
    const IValue* padding = inst.get("padding_idx");
    return Sugared::of(emit_op(
        "aten::embedding",
        {attr("weight"), x, c(padding && !padding->is_none() ? *padding : IValue(int64_t{-1})),
         attr("scale_grad_by_freq"), c(IValue(false))},
        range));
  }
  const interp::RecurrentSpec s = interp::recurrent_spec(inst);
  ir::Value* state = nullptr;
  if (hx) {
    state = as_value(hx->value, hx->range);
    if (state->type().kind == ir::TypeKind::None) state = nullptr;
  }
  const bool batched = !known_rank(x, s.cell ? 1 : 2);
  const int64_t batch_dim = s.cell || s.batch_first ? 0 : 1;
  const int64_t state_dim = s.cell ? 0 : 1;
  if (!batched) x = emit_op("aten::unsqueeze", {x, c(IValue(batch_dim))}, range);
  std::vector<ir::Value*> states;
  if (!state) {
    ir::Value* size = emit_op("aten::size", {x, c(IValue(batch_dim))}, range);
    std::vector<ir::Value*> dims;
    if (!s.cell) dims.push_back(c(IValue(s.num_layers * s.directions)));
    dims.push_back(size);
    dims.push_back(c(IValue(s.hidden_size)));
    ir::Value* shape = make_list(dims, range);
    for (int i = 0; i < (s.lstm ? 2 : 1); ++i) {
      // The cells share one zeros tensor for h and c, as LSTMCell's forward does.
      if (i == 1 && s.cell) {
        states.push_back(states[0]);
        continue;
      }
      states.push_back(emit_op("aten::zeros", {shape}, range));
    }
  } else {
    if (s.lstm && state->type().kind == ir::TypeKind::List) {
      // A list (h_0, c_0) from the inputs file or built by the program, as PyTorch takes
      // it too: its two items, read when the graph runs.
      states = {list_item_at(state, c(IValue(int64_t{0})), range),
                list_item_at(state, c(IValue(int64_t{1})), range)};
    } else {
      states = s.lstm ? tuple_items(state, range) : std::vector<ir::Value*>{state};
    }
    if (states.size() != (s.lstm ? 2u : 1u)) {
      fail("TypeError: " + inst.type + "'s hx must be a tuple (h_0, c_0)", hx->range);
    }
    if (!batched) {
      for (ir::Value*& st : states)
        st = emit_op("aten::unsqueeze", {st, c(IValue(state_dim))}, range);
    }
  }
  ir::Value* hx_arg = s.lstm ? make_list(states, range) : states[0];
  ir::Value* out = nullptr;
  if (s.cell) {
    out = emit_op(
        s.op, {x, hx_arg, attr("weight_ih"), attr("weight_hh"), attr("bias_ih"), attr("bias_hh")},
        range);
    if (!s.lstm) {
      if (!batched) out = emit_op("aten::squeeze", {out, c(IValue(int64_t{0}))}, range);
      return Sugared::of(out);
    }
  } else {
    std::vector<ir::Value*> weights;
    for (const std::string& w : s.weights) weights.push_back(attr(w));
    out = emit_op(s.op,
                  {x, hx_arg, make_list(weights, range), c(IValue(s.bias)), c(IValue(s.num_layers)),
                   c(IValue(s.dropout)), attr("training"), c(IValue(s.directions == 2)),
                   c(IValue(s.batch_first))},
                  range);
  }
  // A several-result op: emit_op gave the tuple of its outputs.
  std::vector<ir::Value*> items = out->node()->inputs();
  if (!batched) {
    for (size_t i = 0; i < items.size(); ++i) {
      const int64_t dim = s.cell ? 0 : i == 0 ? batch_dim : state_dim;
      items[i] = emit_op("aten::squeeze", {items[i], c(IValue(dim))}, range);
    }
  }
  if (s.cell) return Sugared::of(make_tuple(items, range));
  if (s.lstm) {
    return Sugared::of(make_tuple({items[0], make_tuple({items[1], items[2]}, range)}, range));
  }
  return Sugared::of(make_tuple({items[0], items[1]}, range));
}

}  // namespace d2s::convert

namespace d2s::convert {

Sugared Lowerer::call_functional_embedding(CallArgs& args, const SourceRange& range) {
  static const char* const kNames[] = {
      "input", "weight", "padding_idx", "max_norm", "norm_type", "scale_grad_by_freq", "sparse"};
  std::vector<const CallArg*> bound(std::size(kNames), nullptr);
  if (args.positional.size() > bound.size()) {
    fail("TypeError: embedding() takes at most 7 arguments", range);
  }
  for (size_t i = 0; i < args.positional.size(); ++i) bound[i] = &args.positional[i];
  for (const auto& [name, arg] : args.keywords) {
    size_t i = 0;
    while (i < bound.size() && name != kNames[i]) ++i;
    if (i == bound.size() || bound[i]) {
      fail("TypeError: embedding() got an unexpected keyword argument '" + name + "'", arg.range);
    }
    bound[i] = &arg;
  }
  if (!bound[0] || !bound[1]) fail("TypeError: embedding() needs input and weight", range);
  auto const_arg = [&](size_t i) -> std::optional<IValue> {
    if (!bound[i]) return IValue();
    return constant_value(as_value(bound[i]->value, bound[i]->range));
  };
  for (size_t i : {size_t{3}, size_t{6}}) {
    std::optional<IValue> v = const_arg(i);
    if (!v || !(v->is_none() || (v->is_bool() && !v->to_bool()))) {
      fail("F.embedding with max_norm or sparse=True is not supported by d2s", range,
           "leave max_norm=None and sparse=False");
    }
  }
  ir::Value* weight = as_value(bound[1]->value, bound[1]->range);
  std::optional<IValue> padding = const_arg(2);
  if (!padding || !(padding->is_none() || padding->is_int())) {
    fail("F.embedding's padding_idx must be a constant int or None in the parse route", range);
  }
  int64_t pad = padding->is_none() ? -1 : padding->to_int();
  if (!padding->is_none() && pad < 0) {
    // PyTorch wraps a negative padding_idx by the weight's rows.
    const ir::Type& t = weight->type();
    if (!t.shape || t.shape->empty() || (*t.shape)[0].size < 0) {
      fail("F.embedding with a negative padding_idx needs the weight's size in the parse route",
           range, "give padding_idx as a non-negative row index");
    }
    pad += (*t.shape)[0].size;
  }
  ir::Value* by_freq =
      bound[5] ? as_value(bound[5]->value, bound[5]->range) : constant(IValue(false), range);
  return Sugared::of(
      emit_op("aten::embedding",
              {weight, as_value(bound[0]->value, bound[0]->range), constant(IValue(pad), range),
               by_freq, constant(IValue(false), range)},
              range));
}

}  // namespace d2s::convert
