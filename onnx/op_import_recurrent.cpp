// The ONNX recurrent ops read back as d2s's: LSTM, GRU (linear_before_reset=1, which
// is PyTorch's GRU) and RNN (Tanh or Relu) become one aten::lstm / gru / rnn_tanh /
// rnn_relu of one layer. ONNX stacks the gates i, o, f, c (LSTM) and z, r, h (GRU);
// each direction's weights are selected, split into their gate blocks and cat'ed in
// PyTorch's order i, f, g, o and r, z, n; B's first half is the input's bias, its
// second the hidden state's. Y [seq, directions, batch, hidden] is d2s's output
// viewed as [seq, batch, directions, hidden] and transposed. direction "reverse" runs
// the forward op on the flipped sequence and flips Y back. Not read: sequence_lens, P
// (peepholes), clip, input_forget, activations other than PyTorch's. layout=1 (batch
// first) is transposed to ONNX's default layout and back.
#include "core/base/error.h"
#include "onnx/import_context.h"
#include "onnx/op_import_util.h"

namespace d2s::onnx_io {

namespace {

using namespace import_util;

enum class Cell { Lstm, Gru, Tanh, Relu };

V int_list(I& m, const std::vector<V>& items) {
  ir::Node* n = m.graph().insert(ir::kind::ListConstruct, items, 1, m.range());
  n->output()->set_type(ir::Type::list(ir::Type::of_int()));
  return n->output();
}

V tensor_list(I& m, const std::vector<V>& items) {
  ir::Node* n = m.graph().insert(ir::kind::ListConstruct, items, 1, m.range());
  n->output()->set_type(ir::Type::list(ir::Type::tensor(DType::Float32)));
  return n->output();
}

V size_of(I& m, V x, int64_t dim) {
  V s = m.op("aten::size", {x, m.c_int(dim)}, std::nullopt);
  s->set_type(ir::Type::of_int());
  return s;
}

// ONNX's gate blocks of `w` (dim 0, `gates` blocks of `hidden`) in PyTorch's order.
V to_torch_gates(I& m, V w, Cell c, int64_t hidden) {
  const int gates = c == Cell::Lstm ? 4 : c == Cell::Gru ? 3 : 1;
  if (gates == 1) return w;
  V list = m.op("aten::split", {w, m.c_ints(std::vector<int64_t>(gates, hidden)), m.c_int(0)},
                std::nullopt);
  list->set_type(ir::Type::list(ir::Type::tensor(DType::Float32)));
  ir::Node* unpack = m.graph().insert(ir::kind::ListUnpack, {list}, gates, m.range());
  std::vector<V> g;
  for (ir::Value* o : unpack->outputs()) g.push_back(typed(o, DType::Float32, std::nullopt));
  std::vector<V> order = c == Cell::Lstm ? std::vector<V>{g[0], g[2], g[3], g[1]}  // → i f g o
                                         : std::vector<V>{g[1], g[0], g[2]};       // → r z n
  return m.op("aten::cat", {tensor_list(m, order), m.c_int(0)}, DType::Float32);
}

Outs recurrent(I& m, Ins ins, Cell c) {
  V x = in(m, ins, 0);
  for (const char* a : {"clip", "activation_alpha", "activation_beta"}) {
    if (m.has_attr(a)) m.unsupported(std::string("attribute ") + a, "recurrent " + std::string(a));
  }
  // layout=1: X [batch, seq, input], states [batch, directions, hidden], Y [batch,
  // seq, directions, hidden]; transposed to layout 0 and back.
  const bool batchwise = m.attr_int("layout", 0) != 0;
  auto swap01 = [&m](V t) {
    return m.op("aten::transpose", {t, m.c_int(0), m.c_int(1)}, DType::Float32);
  };
  if (batchwise) x = swap01(x);
  if (given(ins, 4)) m.unsupported("sequence_lens", "recurrent sequence_lens");
  if (c == Cell::Lstm && (given(ins, 7) || m.attr_int("input_forget", 0) != 0)) {
    m.unsupported("peepholes or input_forget", "LSTM peepholes");
  }
  if (c == Cell::Gru && m.attr_int("linear_before_reset", 0) != 1) {
    m.unsupported("linear_before_reset=0 (PyTorch's GRU is linear_before_reset=1)",
                  "GRU linear_before_reset=0");
  }
  const std::string direction = m.attr_string("direction", "forward");
  const int64_t dirs = direction == "bidirectional" ? 2 : 1;
  if (m.has_attr("activations")) {
    for (const auto& a : m.node().attribute()) {
      if (a.name() != "activations") continue;
      std::vector<std::string> want;
      for (int64_t d = 0; d < dirs; ++d) {
        if (c == Cell::Lstm) want.insert(want.end(), {"Sigmoid", "Tanh", "Tanh"});
        if (c == Cell::Gru) want.insert(want.end(), {"Sigmoid", "Tanh"});
        if (c == Cell::Tanh) want.push_back("Tanh");
        if (c == Cell::Relu) want.push_back("Relu");
      }
      std::vector<std::string> got(a.strings().begin(), a.strings().end());
      if (got != want) m.unsupported("activations other than PyTorch's", "recurrent activations");
    }
  }
  if (!m.has_attr("hidden_size")) m.unsupported("no hidden_size", "recurrent hidden_size");
  const int64_t hidden = m.attr_int("hidden_size", 0);
  V w = in(m, ins, 1), r = in(m, ins, 2);
  const bool bias = given(ins, 3);
  const int gates = c == Cell::Lstm ? 4 : c == Cell::Gru ? 3 : 1;
  std::vector<V> params;
  for (int64_t d = 0; d < dirs; ++d) {
    auto pick = [&m, d](V t) {
      return m.op("aten::select", {t, m.c_int(0), m.c_int(d)}, DType::Float32);
    };
    params.push_back(to_torch_gates(m, pick(w), c, hidden));
    params.push_back(to_torch_gates(m, pick(r), c, hidden));
    if (bias) {
      V b = pick(ins[3]);
      const int64_t half = gates * hidden;
      for (int64_t k = 0; k < 2; ++k) {
        V part = m.op("aten::slice",
                      {b, m.c_int(0), m.c_int(k * half), m.c_int((k + 1) * half), m.c_int(1)},
                      DType::Float32);
        params.push_back(to_torch_gates(m, part, c, hidden));
      }
    }
  }
  const bool reverse = direction == "reverse";
  if (reverse) x = m.op("aten::flip", {x, m.c_ints({0})}, DType::Float32);
  // A missing initial state is zeros [directions, batch, hidden].
  auto state = [&](size_t i) {
    if (given(ins, i)) return batchwise ? swap01(ins[i]) : ins[i];
    V shape = int_list(m, {m.c_int(dirs), size_of(m, x, 1), m.c_int(hidden)});
    return m.op("aten::zeros", {shape}, DType::Float32);
  };
  V hx = c == Cell::Lstm ? tensor_list(m, {state(5), state(6)}) : state(5);
  const char* kind = c == Cell::Lstm   ? "aten::lstm"
                     : c == Cell::Gru  ? "aten::gru"
                     : c == Cell::Tanh ? "aten::rnn_tanh"
                                       : "aten::rnn_relu";
  std::vector<V> outs =
      m.op_n(kind,
             {x, hx, tensor_list(m, params), m.c_bool(bias), m.c_int(1), m.c_float(0.0),
              m.c_bool(false), m.c_bool(dirs == 2), m.c_bool(false)},
             c == Cell::Lstm ? 3 : 2, DType::Float32);
  // [seq, batch, dirs * hidden] → [seq, dirs, batch, hidden].
  V y = outs[0];
  V view =
      m.op("aten::reshape",
           {y, int_list(m, {size_of(m, y, 0), size_of(m, y, 1), m.c_int(dirs), m.c_int(hidden)})},
           DType::Float32);
  y = m.op("aten::transpose", {view, m.c_int(1), m.c_int(2)}, DType::Float32);
  if (reverse) y = m.op("aten::flip", {y, m.c_ints({0})}, DType::Float32);
  if (batchwise) y = m.op("aten::permute", {y, m.c_ints({2, 0, 1, 3})}, DType::Float32);
  Outs result = {y};
  for (size_t i = 1; i < outs.size(); ++i) result.push_back(batchwise ? swap01(outs[i]) : outs[i]);
  return result;
}

}  // namespace

void add_recurrent_imports(std::map<std::string, ImportFn>& table) {
  table["LSTM"] = [](I& m, Ins ins) { return recurrent(m, ins, Cell::Lstm); };
  table["GRU"] = [](I& m, Ins ins) { return recurrent(m, ins, Cell::Gru); };
  table["RNN"] = [](I& m, Ins ins) {
    std::string act = "Tanh";
    for (const auto& a : m.node().attribute()) {
      if (a.name() == "activations" && a.strings_size() > 0) act = a.strings(0);
    }
    return recurrent(m, ins, act == "Relu" ? Cell::Relu : Cell::Tanh);
  };
}

}  // namespace d2s::onnx_io
