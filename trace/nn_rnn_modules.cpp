// nn.Embedding, nn.RNN/LSTM/GRU and nn.RNNCell/LSTMCell/GRUCell (see nn_recurrent.h):
// constructors as PyTorch 1.13's (RNNBase's positional order; RNN's nonlinearity is
// keyword-only there), parameters registered in PyTorch's order and initialised as its
// reset_parameters does (U(-1/sqrt(hidden), 1/sqrt(hidden)) for every recurrent
// parameter; N(0, 1) for an embedding, its padding row zeroed), and forwards that run
// what PyTorch's Python forward runs: the missing state as aten::zeros over the input's
// batch size (so a trace records the size, as torch.jit.trace does), 2-D (unbatched)
// inputs through unsqueeze/squeeze, then the one op.
#include <cmath>

#include "trace/nn_layers.h"
#include "trace/nn_recurrent.h"

namespace d2s::interp {

namespace {

const char* const kClasses[] = {"Embedding", "RNN",      "LSTM",   "GRU",
                                "RNNCell",   "LSTMCell", "GRUCell"};

IValue get(const InstanceValue& m, const char* name) {
  const IValue* v = m.get(name);
  return v ? *v : IValue();
}

bool is_cell(const std::string& type) {
  return type.size() > 4 && type.compare(type.size() - 4, 4, "Cell") == 0;
}

std::string shape_tuple(const Shape& s) {
  std::string out = "(";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + ")";
}

int64_t positive(Interpreter& in, const IValue& v, const char* what, const SourceRange& range) {
  const int64_t n = in.to_index(v, PyConversion::Scalar, range, what);
  if (n < 0) in.fail(std::string("RuntimeError: ") + what + " must be non-negative", range);
  return n;
}

void construct_embedding(Interpreter& in, const IValue& self, ValueList args, Kwargs kwargs,
                         const SourceRange& range) {
  ValueList a = bind_args("nn.Embedding",
                          {{"num_embeddings", std::nullopt},
                           {"embedding_dim", std::nullopt},
                           {"padding_idx", IValue()},
                           {"max_norm", IValue()},
                           {"norm_type", IValue(2.0)},
                           {"scale_grad_by_freq", IValue(false)},
                           {"sparse", IValue(false)},
                           {"_weight", IValue()},
                           {"device", IValue()},
                           {"dtype", IValue()}},
                          std::move(args), std::move(kwargs), range);
  auto set = [&](const std::string& name, IValue v) {
    in.setattr(self, name, std::move(v), range);
  };
  const int64_t num = positive(in, a[0], "num_embeddings", range);
  const int64_t dim = positive(in, a[1], "embedding_dim", range);
  IValue padding;
  if (!a[2].is_none()) {
    int64_t p = in.to_index(a[2], PyConversion::Scalar, range, "padding_idx");
    if (p > 0 && p >= num)
      in.fail("AssertionError: Padding_idx must be within num_embeddings", range);
    if (p < 0) {
      if (p < -num) in.fail("AssertionError: Padding_idx must be within num_embeddings", range);
      p += num;
    }
    padding = IValue(p);
  }
  if (!a[3].is_none()) {
    in.fail("nn.Embedding(max_norm=...) is not supported by d2s", range,
            "it renormalises the weight in place at every forward; leave max_norm=None");
  }
  if (in.truthy(a[6], range)) {
    in.fail("nn.Embedding(sparse=True) is not supported by d2s", range,
            "d2s gradients are dense; leave sparse=False");
  }
  set("num_embeddings", IValue(num));
  set("embedding_dim", IValue(dim));
  set("padding_idx", padding);
  set("max_norm", IValue());
  set("norm_type", IValue(in.to_number(a[4], PyConversion::Scalar, range).value_or(IValue(2.0))));
  set("scale_grad_by_freq", IValue(in.truthy(a[5], range)));
  set("sparse", IValue(false));
  if (!a[7].is_none()) {
    if (!a[7].is_tensor() || a[7].to_tensor().shape() != Shape{num, dim}) {
      in.fail("AssertionError: Shape of weight does not match num_embeddings and embedding_dim",
              range);
    }
    set("weight", in.make_parameter(a[7].to_tensor(), true, range));
    return;
  }
  // normal_(weight), then the padding row filled with 0 (reset_parameters).
  Tensor w;
  try {
    w = Tensor::empty({num, dim}, DType::Float32);
  } catch (const Error& e) {
    throw Error(e.message(), range, e.hint());
  }
  float* p = w.data<float>();
  for (int64_t i = 0; i < w.numel(); ++i) p[i] = in.generator().normal();
  if (!padding.is_none()) std::fill_n(p + padding.to_int() * dim, dim, 0.0f);
  set("weight", in.make_parameter(w, true, range));
}

void construct_rnn(Interpreter& in, const IValue& self, const std::string& type, ValueList args,
                   Kwargs kwargs, const SourceRange& range) {
  auto set = [&](const std::string& name, IValue v) {
    in.setattr(self, name, std::move(v), range);
  };
  std::string nonlinearity = "tanh";
  if (type == "RNN") {
    for (auto it = kwargs.begin(); it != kwargs.end(); ++it) {
      if (it->first == "proj_size") {
        in.fail("ValueError: proj_size argument is only supported for LSTM, not RNN or GRU", range);
      }
      if (it->first == "nonlinearity") {
        if (!it->second.is_string()) in.fail("ValueError: Unknown nonlinearity", range);
        nonlinearity = it->second.to_string();
        kwargs.erase(it);
        break;
      }
    }
    if (nonlinearity != "tanh" && nonlinearity != "relu") {
      in.fail("ValueError: Unknown nonlinearity '" + nonlinearity + "'", range);
    }
  }
  ValueList a = bind_args("nn." + type,
                          {{"input_size", std::nullopt},
                           {"hidden_size", std::nullopt},
                           {"num_layers", IValue(int64_t{1})},
                           {"bias", IValue(true)},
                           {"batch_first", IValue(false)},
                           {"dropout", IValue(0.0)},
                           {"bidirectional", IValue(false)},
                           {"proj_size", IValue(int64_t{0})},
                           {"device", IValue()},
                           {"dtype", IValue()}},
                          std::move(args), std::move(kwargs), range);
  const int64_t input_size = positive(in, a[0], "input_size", range);
  const int64_t hidden = in.to_index(a[1], PyConversion::Scalar, range, "hidden_size");
  const int64_t layers = in.to_index(a[2], PyConversion::Scalar, range, "num_layers");
  std::optional<IValue> dropout = in.to_number(a[5], PyConversion::Scalar, range);
  if (!dropout || a[5].is_bool() || dropout->to_double() < 0 || dropout->to_double() > 1) {
    in.fail(
        "ValueError: dropout should be a number in range [0, 1] representing the probability of "
        "an element being zeroed",
        range);
  }
  const int64_t proj = in.to_index(a[7], PyConversion::Scalar, range, "proj_size");
  if (proj < 0) {
    in.fail("ValueError: proj_size should be a positive integer or zero to disable projections",
            range);
  }
  if (proj >= hidden) in.fail("ValueError: proj_size has to be smaller than hidden_size", range);
  if (proj != 0) {
    in.fail("nn.LSTM(proj_size=...) is not supported by d2s", range,
            "leave proj_size=0, or project the output with an nn.Linear");
  }
  if (layers < 1) in.fail("ValueError: num_layers must be greater than zero", range);
  const bool bias = in.truthy(a[3], range);
  const bool bidirectional = in.truthy(a[6], range);
  set("mode", IValue(std::string(type == "LSTM"           ? "LSTM"
                                 : type == "GRU"          ? "GRU"
                                 : nonlinearity == "tanh" ? "RNN_TANH"
                                                          : "RNN_RELU")));
  set("input_size", IValue(input_size));
  set("hidden_size", IValue(hidden));
  set("num_layers", IValue(layers));
  set("bias", IValue(bias));
  set("batch_first", IValue(in.truthy(a[4], range)));
  set("dropout", IValue(dropout->to_double()));
  set("bidirectional", IValue(bidirectional));
  set("proj_size", IValue(int64_t{0}));
  if (type == "RNN") set("nonlinearity", IValue(nonlinearity));
  const int64_t gates = type == "LSTM" ? 4 : type == "GRU" ? 3 : 1;
  const int64_t dirs = bidirectional ? 2 : 1;
  const float bound = static_cast<float>(1.0 / std::sqrt(static_cast<double>(hidden)));
  for (int64_t l = 0; l < layers; ++l) {
    for (int64_t d = 0; d < dirs; ++d) {
      const std::string suffix = "_l" + std::to_string(l) + (d ? "_reverse" : "");
      const int64_t in_size = l == 0 ? input_size : hidden * dirs;
      set("weight_ih" + suffix, uniform_parameter(in, {gates * hidden, in_size}, bound, range));
      set("weight_hh" + suffix, uniform_parameter(in, {gates * hidden, hidden}, bound, range));
      if (bias) {
        set("bias_ih" + suffix, uniform_parameter(in, {gates * hidden}, bound, range));
        set("bias_hh" + suffix, uniform_parameter(in, {gates * hidden}, bound, range));
      }
    }
  }
}

void construct_cell(Interpreter& in, const IValue& self, const std::string& type, ValueList args,
                    Kwargs kwargs, const SourceRange& range) {
  auto set = [&](const std::string& name, IValue v) {
    in.setattr(self, name, std::move(v), range);
  };
  std::vector<ParamSpec> params{
      {"input_size", std::nullopt}, {"hidden_size", std::nullopt}, {"bias", IValue(true)}};
  if (type == "RNNCell") params.push_back({"nonlinearity", IValue(std::string("tanh"))});
  params.push_back({"device", IValue()});
  params.push_back({"dtype", IValue()});
  ValueList a = bind_args("nn." + type, params, std::move(args), std::move(kwargs), range);
  const int64_t input_size = positive(in, a[0], "input_size", range);
  const int64_t hidden = positive(in, a[1], "hidden_size", range);
  const bool bias = in.truthy(a[2], range);
  set("input_size", IValue(input_size));
  set("hidden_size", IValue(hidden));
  set("bias", IValue(bias));
  if (type == "RNNCell") {
    if (!a[3].is_string() || (a[3].to_string() != "tanh" && a[3].to_string() != "relu")) {
      in.fail("ValueError: Unknown nonlinearity: " + in.py_str(a[3]), range);
    }
    set("nonlinearity", a[3]);
  }
  const int64_t gates = type == "LSTMCell" ? 4 : type == "GRUCell" ? 3 : 1;
  const float bound =
      hidden > 0 ? static_cast<float>(1.0 / std::sqrt(static_cast<double>(hidden))) : 0.0f;
  set("weight_ih", uniform_parameter(in, {gates * hidden, input_size}, bound, range));
  set("weight_hh", uniform_parameter(in, {gates * hidden, hidden}, bound, range));
  set("bias_ih", bias ? uniform_parameter(in, {gates * hidden}, bound, range) : IValue());
  set("bias_hh", bias ? uniform_parameter(in, {gates * hidden}, bound, range) : IValue());
}

const Tensor& tensor_or_fail(Interpreter& in, const IValue& v, const char* what,
                             const SourceRange& range) {
  if (!v.is_tensor()) {
    in.fail(std::string("TypeError: ") + what + " must be a Tensor, not " + py_type_name(v), range);
  }
  return v.to_tensor();
}

IValue embedding_forward(Interpreter& in, const InstanceValue& m, const IValue& x,
                         const SourceRange& range) {
  const IValue padding = get(m, "padding_idx");
  return in.call_op("aten::embedding",
                    {get(m, "weight"), x, padding.is_none() ? IValue(int64_t{-1}) : padding,
                     get(m, "scale_grad_by_freq"), IValue(false)},
                    {}, range);
}

IValue sequence_forward(Interpreter& in, const InstanceValue& m, IValue x, IValue hx,
                        const SourceRange& range) {
  const RecurrentSpec s = recurrent_spec(m);
  auto op = [&](const char* name, ValueList args) {
    return in.call_op(name, std::move(args), {}, range);
  };
  const int64_t rank = tensor_or_fail(in, x, "input", range).dim();
  if (rank != 2 && rank != 3) {
    in.fail("ValueError: " + m.type + ": Expected input to be 2-D or 3-D but received " +
                std::to_string(rank) + "-D tensor",
            range);
  }
  const bool batched = rank == 3;
  const int64_t batch_dim = s.batch_first ? 0 : 1;
  if (!batched) x = op("aten::unsqueeze", {x, IValue(batch_dim)});
  const int64_t batch = x.to_tensor().size(batch_dim);
  const int64_t layers = s.num_layers * s.directions;
  const Shape expected{layers, batch, s.hidden_size};
  std::vector<IValue> states;
  if (hx.is_none()) {
    const IValue size = op("aten::size", {x, IValue(batch_dim)});
    const IValue shape = IValue::list({IValue(layers), size, IValue(s.hidden_size)});
    for (int i = 0; i < (s.lstm ? 2 : 1); ++i) states.push_back(op("aten::zeros", {shape}));
  } else {
    if (s.lstm) {
      const ValueList* items = seq_items(hx);
      if (!items || items->size() != 2) {
        in.fail("TypeError: LSTM's hx must be a tuple (h_0, c_0)", range);
      }
      states = *items;
    } else {
      states.push_back(hx);
    }
    for (IValue& st : states) {
      const int64_t d = tensor_or_fail(in, st, "hx", range).dim();
      if (batched && d != 3) {
        in.fail(std::string("RuntimeError: For batched 3-D input, hx") +
                    (s.lstm ? " and cx should also be 3-D but got (" + std::to_string(d) + "-D, " +
                                  std::to_string(states[1].to_tensor().dim()) + "-D) tensors"
                            : " should also be 3-D but got " + std::to_string(d) + "-D tensor"),
                range);
      }
      if (!batched && d != 2) {
        in.fail(std::string("RuntimeError: For unbatched 2-D input, hx") +
                    (s.lstm ? " and cx should also be 2-D but got (" + std::to_string(d) + "-D, " +
                                  std::to_string(states[1].to_tensor().dim()) + "-D) tensors"
                            : " should also be 2-D but got " + std::to_string(d) + "-D tensor"),
                range);
      }
      if (!batched) st = op("aten::unsqueeze", {st, IValue(int64_t{1})});
    }
  }
  // check_forward_args: the input's size, then each state's.
  const Tensor& xt = x.to_tensor();
  const int64_t input_size = get(m, "input_size").to_int();
  if (xt.size(-1) != input_size) {
    in.fail("RuntimeError: input.size(-1) must be equal to input_size. Expected " +
                std::to_string(input_size) + ", got " + std::to_string(xt.size(-1)),
            range);
  }
  for (size_t i = 0; i < states.size(); ++i) {
    const Shape& got = states[i].to_tensor().shape();
    if (got != expected) {
      const std::string what =
          s.lstm ? "Expected hidden[" + std::to_string(i) + "] size " : "Expected hidden size ";
      in.fail("RuntimeError: " + what + shape_tuple(expected) + ", got " + shape_str(got), range);
    }
  }
  ValueList weights;
  for (const std::string& w : s.weights) weights.push_back(get(m, w.c_str()));
  const IValue training(in.truthy(get(m, "training"), range));
  IValue out = op(s.op.c_str(),
                  {x, s.lstm ? IValue::list(states) : states[0], IValue::list(std::move(weights)),
                   IValue(s.bias), IValue(s.num_layers), IValue(s.dropout), training,
                   IValue(s.directions == 2), IValue(s.batch_first)});
  ValueList items = out.items();
  if (!batched) {
    items[0] = op("aten::squeeze", {items[0], IValue(batch_dim)});
    for (size_t i = 1; i < items.size(); ++i)
      items[i] = op("aten::squeeze", {items[i], IValue(int64_t{1})});
  }
  if (s.lstm) return IValue::tuple({items[0], IValue::tuple({items[1], items[2]})});
  return IValue::tuple({items[0], items[1]});
}

IValue cell_forward(Interpreter& in, const InstanceValue& m, IValue x, IValue hx,
                    const SourceRange& range) {
  const RecurrentSpec s = recurrent_spec(m);
  auto op = [&](const char* name, ValueList args) {
    return in.call_op(name, std::move(args), {}, range);
  };
  const int64_t rank = tensor_or_fail(in, x, "input", range).dim();
  if (rank != 1 && rank != 2) {
    in.fail(std::string(m.type == "LSTMCell" ? "AssertionError: " : "ValueError: ") + m.type +
                ": Expected input to be 1-D or 2-D but received " + std::to_string(rank) +
                "-D tensor",
            range);
  }
  const bool batched = rank == 2;
  if (!batched) x = op("aten::unsqueeze", {x, IValue(int64_t{0})});
  std::vector<IValue> states;
  if (hx.is_none()) {
    const IValue size = op("aten::size", {x, IValue(int64_t{0})});
    const IValue shape = IValue::list({size, IValue(s.hidden_size)});
    const IValue zeros = op("aten::zeros", {shape});
    states.assign(s.lstm ? 2 : 1, zeros);
  } else {
    if (s.lstm) {
      const ValueList* items = seq_items(hx);
      if (!items || items->size() != 2) {
        in.fail("TypeError: LSTMCell's hx must be a tuple (h_0, c_0)", range);
      }
      states = *items;
    } else {
      states.push_back(hx);
    }
    for (IValue& st : states) {
      tensor_or_fail(in, st, "hx", range);
      if (!batched) st = op("aten::unsqueeze", {st, IValue(int64_t{0})});
    }
  }
  IValue out = op(s.op.c_str(), {x, s.lstm ? IValue::list(states) : states[0], get(m, "weight_ih"),
                                 get(m, "weight_hh"), get(m, "bias_ih"), get(m, "bias_hh")});
  if (!s.lstm) return batched ? out : op("aten::squeeze", {out, IValue(int64_t{0})});
  ValueList items = out.items();
  if (!batched) {
    for (IValue& item : items) item = op("aten::squeeze", {item, IValue(int64_t{0})});
  }
  return IValue::tuple(std::move(items));
}

}  // namespace

IValue uniform_parameter(Interpreter& in, const Shape& shape, float bound,
                         const SourceRange& range) {
  Tensor t;
  try {
    t = Tensor::empty(shape, DType::Float32);
  } catch (const Error& e) {
    throw Error(e.message(), range, e.hint());
  }
  float* p = t.data<float>();
  for (int64_t i = 0; i < t.numel(); ++i) p[i] = (2.0f * in.generator().uniform() - 1.0f) * bound;
  return in.make_parameter(t, true, range);
}

bool is_recurrent_class(const std::string& type) {
  for (const char* c : kClasses) {
    if (type == c) return true;
  }
  return false;
}

const std::vector<std::string>& recurrent_class_names() {
  static const std::vector<std::string> names(std::begin(kClasses), std::end(kClasses));
  return names;
}

RecurrentSpec recurrent_spec(const InstanceValue& m) {
  RecurrentSpec s;
  const std::string& type = m.type;
  s.cell = is_cell(type);
  s.lstm = type == "LSTM" || type == "LSTMCell";
  s.hidden_size = get(m, "hidden_size").to_int();
  s.bias = get(m, "bias").to_bool();
  if (s.cell) {
    const std::string nl = type == "RNNCell" ? get(m, "nonlinearity").to_string() : "";
    s.op = type == "LSTMCell"  ? "aten::lstm_cell"
           : type == "GRUCell" ? "aten::gru_cell"
                               : "aten::rnn_" + nl + "_cell";
    s.weights = {"weight_ih", "weight_hh", "bias_ih", "bias_hh"};
    return s;
  }
  const std::string mode = get(m, "mode").to_string();
  s.op = mode == "LSTM"       ? "aten::lstm"
         : mode == "GRU"      ? "aten::gru"
         : mode == "RNN_TANH" ? "aten::rnn_tanh"
                              : "aten::rnn_relu";
  s.num_layers = get(m, "num_layers").to_int();
  s.directions = get(m, "bidirectional").to_bool() ? 2 : 1;
  s.batch_first = get(m, "batch_first").to_bool();
  s.dropout = get(m, "dropout").to_double();
  for (int64_t l = 0; l < s.num_layers; ++l) {
    for (int64_t d = 0; d < s.directions; ++d) {
      const std::string suffix = "_l" + std::to_string(l) + (d ? "_reverse" : "");
      s.weights.push_back("weight_ih" + suffix);
      s.weights.push_back("weight_hh" + suffix);
      if (s.bias) {
        s.weights.push_back("bias_ih" + suffix);
        s.weights.push_back("bias_hh" + suffix);
      }
    }
  }
  return s;
}

void construct_recurrent(Interpreter& in, const IValue& self, InstanceValue& inst, ValueList args,
                         Kwargs kwargs, const SourceRange& range) {
  if (inst.type == "Embedding") {
    construct_embedding(in, self, std::move(args), std::move(kwargs), range);
  } else if (is_cell(inst.type)) {
    construct_cell(in, self, inst.type, std::move(args), std::move(kwargs), range);
  } else {
    construct_rnn(in, self, inst.type, std::move(args), std::move(kwargs), range);
  }
}

IValue embedding_from_pretrained(Interpreter& in, ValueList args, Kwargs kwargs,
                                 const SourceRange& range) {
  ValueList a = bind_args("Embedding.from_pretrained",
                          {{"embeddings", std::nullopt},
                           {"freeze", IValue(true)},
                           {"padding_idx", IValue()},
                           {"max_norm", IValue()},
                           {"norm_type", IValue(2.0)},
                           {"scale_grad_by_freq", IValue(false)},
                           {"sparse", IValue(false)}},
                          std::move(args), std::move(kwargs), range);
  const Tensor& w = tensor_or_fail(in, a[0], "embeddings", range);
  if (w.dim() != 2) {
    in.fail("AssertionError: Embeddings parameter is expected to be 2-dimensional", range);
  }
  Kwargs kw{{"padding_idx", a[2]},        {"max_norm", a[3]}, {"norm_type", a[4]},
            {"scale_grad_by_freq", a[5]}, {"sparse", a[6]},   {"_weight", a[0]}};
  IValue m = in.construct_nn("torch.nn.Embedding", {IValue(w.size(0)), IValue(w.size(1))},
                             std::move(kw), range);
  // weight.requires_grad = not freeze
  const IValue* weight = as_obj<InstanceValue>(m)->get("weight");
  Tensor t = weight->to_tensor();
  t.set_requires_grad(!in.truthy(a[1], range));
  return m;
}

IValue functional_embedding(Interpreter& in, ValueList args, Kwargs kwargs,
                            const SourceRange& range) {
  ValueList a = bind_args("embedding",
                          {{"input", std::nullopt},
                           {"weight", std::nullopt},
                           {"padding_idx", IValue()},
                           {"max_norm", IValue()},
                           {"norm_type", IValue(2.0)},
                           {"scale_grad_by_freq", IValue(false)},
                           {"sparse", IValue(false)}},
                          std::move(args), std::move(kwargs), range);
  if (!a[3].is_none() || in.truthy(a[6], range)) {
    in.fail("F.embedding with max_norm or sparse=True is not supported by d2s", range,
            "leave max_norm=None and sparse=False");
  }
  int64_t padding = -1;
  if (!a[2].is_none()) {
    // PyTorch checks padding_idx against the weight's rows and wraps a negative one.
    padding = in.to_index(a[2], PyConversion::Scalar, range, "padding_idx");
    const int64_t rows =
        tensor_or_fail(in, a[1], "weight", range).dim() > 0 ? a[1].to_tensor().size(0) : 0;
    if (padding >= rows || padding < -rows) {
      in.fail("AssertionError: Padding_idx must be within num_embeddings", range);
    }
    if (padding < 0) padding += rows;
  }
  return in.call_op("aten::embedding",
                    {a[1], a[0], IValue(padding), IValue(in.truthy(a[5], range)), IValue(false)},
                    {}, range);
}

IValue recurrent_forward(Interpreter& in, const InstanceValue& m, ValueList args, Kwargs kwargs,
                         const SourceRange& range) {
  if (m.type == "Embedding") {
    ValueList a = bind_args("Embedding.forward", {{"input", std::nullopt}}, std::move(args),
                            std::move(kwargs), range);
    return embedding_forward(in, m, a[0], range);
  }
  ValueList a = bind_args(m.type + ".forward", {{"input", std::nullopt}, {"hx", IValue()}},
                          std::move(args), std::move(kwargs), range);
  if (is_cell(m.type)) return cell_forward(in, m, a[0], a[1], range);
  return sequence_forward(in, m, a[0], a[1], range);
}

std::string recurrent_extra_repr(const Interpreter& in, const InstanceValue& m) {
  auto s = [&](const char* name) { return in.py_str(get(m, name)); };
  if (m.type == "Embedding") {
    std::string out = s("num_embeddings") + ", " + s("embedding_dim");
    if (!get(m, "padding_idx").is_none()) out += ", padding_idx=" + s("padding_idx");
    if (get(m, "scale_grad_by_freq").to_bool()) out += ", scale_grad_by_freq=True";
    return out;
  }
  std::string out = s("input_size") + ", " + s("hidden_size");
  if (is_cell(m.type)) {
    if (!get(m, "bias").to_bool()) out += ", bias=False";
    if (m.type == "RNNCell" && get(m, "nonlinearity").to_string() != "tanh")
      out += ", nonlinearity=" + s("nonlinearity");
    return out;
  }
  if (get(m, "num_layers").to_int() != 1) out += ", num_layers=" + s("num_layers");
  if (!get(m, "bias").to_bool()) out += ", bias=False";
  if (get(m, "batch_first").to_bool()) out += ", batch_first=True";
  if (get(m, "dropout").to_double() != 0) out += ", dropout=" + s("dropout");
  if (get(m, "bidirectional").to_bool()) out += ", bidirectional=True";
  return out;
}

}  // namespace d2s::interp
