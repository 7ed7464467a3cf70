// The ONNX mapping of the recurrent ops (core/ops/kernels_rnn.cpp), as torch.onnx's
// symbolic_opset9 writes them:
// - aten::lstm / gru / rnn_tanh / rnn_relu (".input": the whole sequence) become one
//   ONNX LSTM / GRU / RNN node per layer (direction "bidirectional" for two
//   directions). PyTorch stacks its gates i, f, g, o (LSTM) and r, z, n (GRU); ONNX
//   wants i, o, f, c and z, r, h, so each weight and bias is Split into its gate
//   blocks and Concat'ed in ONNX's order. PyTorch's GRU applies the reset gate after
//   the hidden state's linear map: linear_before_reset=1. A layer's Y
//   [seq, directions, batch, hidden] is Transposed and Reshaped to the next layer's
//   [seq, batch, directions * hidden]; batch_first is a Transpose on each side; the
//   final states are the layers' Y_h (Y_c) Concat'ed along dim 0. Dropout between
//   layers is only exported when it cannot happen (eval, p = 0 or one layer).
// - the cells (lstm_cell, gru_cell, rnn_tanh_cell, rnn_relu_cell) are written out as
//   their formulas (MatMul, Add, Split, Sigmoid, Tanh/Relu, Mul), which d2s's importer
//   reads back without a recurrent op.
#include "core/base/error.h"
#include "onnx/export_emitter.h"

namespace d2s::onnx_io {

namespace {

using N = const ir::Node&;

enum class Cell { Lstm, Gru, Tanh, Relu };

int gate_count(Cell c) {
  return c == Cell::Lstm ? 4 : c == Cell::Gru ? 3 : 1;
}

bool const_bool(N n, size_t i, bool* out) {
  const IValue* c = Emitter::constant(n.input(i));
  if (!c || !(c->is_bool() || c->is_int())) return false;
  *out = c->is_bool() ? c->to_bool() : c->to_int() != 0;
  return true;
}

bool need_bool(Emitter& e, N n, size_t i, const char* what) {
  bool b = false;
  if (!const_bool(n, i, &b)) {
    e.fail(n, std::string(what) + " of " + n.kind() + " must be constant for ONNX export");
  }
  return b;
}

int64_t need_int(Emitter& e, N n, size_t i, const char* what) {
  int64_t v = 0;
  if (!Emitter::constant_int(n.input(i), &v)) {
    e.fail(n, std::string(what) + " of " + n.kind() + " must be constant for ONNX export");
  }
  return v;
}

// The size of dim `d` of a value when its type knows it.
bool known_dim(const ir::Value* v, size_t d, int64_t* out) {
  const ir::Type& t = v->type();
  if (!t.is_tensor() || !t.shape || t.shape->size() <= d || !(*t.shape)[d].is_known()) {
    return false;
  }
  *out = (*t.shape)[d].size;
  return true;
}

std::string unsqueeze0(Emitter& e, const std::string& x) {
  return e.add1("Unsqueeze", {x, e.const_ints({0})});
}

// The gate blocks of a [gates * hidden, ...] weight or [gates * hidden] bias (dim 0
// for the sequence ops' weights, the last dim for the cells' pre-activations). With
// the hidden size known the sizes are given, so the importer can split a dim whose
// batch is free.
std::vector<std::string> split_gates(Emitter& e, const std::string& x, int gates, int64_t axis,
                                     int64_t hidden = 0) {
  std::vector<std::string> outs;
  for (int g = 0; g < gates; ++g) outs.push_back(e.fresh("gate"));
  std::vector<std::string> ins = {x};
  if (hidden > 0) ins.push_back(e.const_ints(std::vector<int64_t>(gates, hidden)));
  onnx::NodeProto* p = e.add("Split", ins, outs);
  attr_int(p, "axis", axis);
  return outs;
}

// PyTorch's gate order → ONNX's.
std::string reorder_gates(Emitter& e, const std::string& w, Cell c) {
  if (gate_count(c) == 1) return w;
  std::vector<std::string> g = split_gates(e, w, gate_count(c), 0);
  std::vector<std::string> order =
      c == Cell::Lstm ? std::vector<std::string>{g[0], g[3], g[1], g[2]}  // i f g o → i o f c
                      : std::vector<std::string>{g[1], g[0], g[2]};       // r z n → z r h
  return e.add1("Concat", order, [](onnx::NodeProto* p) { attr_int(p, "axis", 0); });
}

// The directions' tensors stacked on a new dim 0.
std::string stack0(Emitter& e, const std::vector<std::string>& parts) {
  std::vector<std::string> u;
  for (const std::string& p : parts) u.push_back(unsqueeze0(e, p));
  if (u.size() == 1) return u[0];
  return e.add1("Concat", u, [](onnx::NodeProto* p) { attr_int(p, "axis", 0); });
}

std::string slice0(Emitter& e, const std::string& x, int64_t begin, int64_t end) {
  return e.add1("Slice", {x, e.const_ints({begin}), e.const_ints({end}), e.const_ints({0})});
}

std::string transpose(Emitter& e, const std::string& x, const std::vector<int64_t>& perm) {
  return e.add1("Transpose", {x}, [&](onnx::NodeProto* p) { attr_ints(p, "perm", perm); });
}

// aten::lstm.input(input, hx[], params[], has_biases, num_layers, dropout, train,
// bidirectional, batch_first) and gru/rnn_tanh/rnn_relu.input (hx a tensor).
void sequence(Emitter& e, N n, Cell c) {
  const bool has_biases = need_bool(e, n, 3, "has_biases");
  const int64_t layers = need_int(e, n, 4, "num_layers");
  const double dropout = need_number(e, n, 5, "dropout");
  const bool bidirectional = need_bool(e, n, 7, "bidirectional");
  const bool batch_first = need_bool(e, n, 8, "batch_first");
  bool train = true;
  const bool train_known = const_bool(n, 6, &train);
  if (layers > 1 && dropout > 0 && (!train_known || train)) {
    e.fail(n, "dropout between the layers of " + n.kind() + " in training mode has no ONNX export",
           "export the module in eval mode (d2s export --eval) or with dropout=0");
  }
  const std::vector<const ir::Value*> params = e.list_items(n.input(2), n);
  const int64_t dirs = bidirectional ? 2 : 1;
  const size_t per_dir = has_biases ? 4 : 2;
  if (params.size() != per_dir * static_cast<size_t>(dirs * layers)) {
    e.fail(n, n.kind() + " has " + std::to_string(params.size()) + " weights, not the " +
                  std::to_string(per_dir * static_cast<size_t>(dirs * layers)) +
                  " its layers need");
  }
  int64_t hidden = 0;
  const ir::Value* h_0 = c == Cell::Lstm ? e.list_items(n.input(1), n).at(0) : n.input(1);
  if (!known_dim(params[1], 1, &hidden) && !known_dim(h_0, 2, &hidden)) {
    e.fail(n, "the hidden size of " + n.kind() + " must be known for ONNX export");
  }
  std::vector<std::string> h0, c0;
  if (c == Cell::Lstm) {
    std::vector<const ir::Value*> hx = e.list_items(n.input(1), n);
    if (hx.size() != 2) e.fail(n, "aten::lstm's hx must hold h_0 and c_0");
    h0.push_back(e.name(hx[0]));
    c0.push_back(e.name(hx[1]));
  } else {
    h0.push_back(e.name(n.input(1)));
  }
  const char* op = c == Cell::Lstm ? "LSTM" : c == Cell::Gru ? "GRU" : "RNN";
  std::string x = e.name(n.input(0));
  if (batch_first) x = transpose(e, x, {1, 0, 2});
  std::vector<std::string> hn, cn;
  for (int64_t l = 0; l < layers; ++l) {
    std::vector<std::string> w, r, b;
    for (int64_t d = 0; d < dirs; ++d) {
      const size_t at = static_cast<size_t>(l * dirs + d) * per_dir;
      w.push_back(reorder_gates(e, e.name(params[at]), c));
      r.push_back(reorder_gates(e, e.name(params[at + 1]), c));
      if (has_biases) {
        b.push_back(e.add1("Concat",
                           {reorder_gates(e, e.name(params[at + 2]), c),
                            reorder_gates(e, e.name(params[at + 3]), c)},
                           [](onnx::NodeProto* p) { attr_int(p, "axis", 0); }));
      }
    }
    std::vector<std::string> ins = {x,
                                    stack0(e, w),
                                    stack0(e, r),
                                    has_biases ? stack0(e, b) : "",
                                    "",
                                    slice0(e, h0[0], l * dirs, (l + 1) * dirs)};
    std::vector<std::string> outs = {e.fresh("Y"), e.fresh("Y_h")};
    if (c == Cell::Lstm) {
      ins.push_back(slice0(e, c0[0], l * dirs, (l + 1) * dirs));
      outs.push_back(e.fresh("Y_c"));
    }
    onnx::NodeProto* p = e.add(op, ins, outs);
    attr_int(p, "hidden_size", hidden);
    auto* dir = p->add_attribute();
    dir->set_name("direction");
    dir->set_type(onnx::AttributeProto::STRING);
    dir->set_s(bidirectional ? "bidirectional" : "forward");
    if (c == Cell::Gru) attr_int(p, "linear_before_reset", 1);
    if (c == Cell::Tanh || c == Cell::Relu) {
      auto* a = p->add_attribute();
      a->set_name("activations");
      a->set_type(onnx::AttributeProto::STRINGS);
      for (int64_t d = 0; d < dirs; ++d) a->add_strings(c == Cell::Tanh ? "Tanh" : "Relu");
    }
    hn.push_back(outs[1]);
    if (c == Cell::Lstm) cn.push_back(outs[2]);
    // Y [seq, dirs, batch, hidden] → [seq, batch, dirs * hidden].
    x = e.add1("Reshape", {transpose(e, outs[0], {0, 2, 1, 3}), e.const_ints({0, 0, -1})});
  }
  if (batch_first) x = transpose(e, x, {1, 0, 2});
  auto cat0 = [&e](const std::vector<std::string>& parts) {
    if (parts.size() == 1) return parts[0];
    return e.add1("Concat", parts, [](onnx::NodeProto* p) { attr_int(p, "axis", 0); });
  };
  e.bind(n.output(0), x);
  e.bind(n.output(1), cat0(hn));
  if (c == Cell::Lstm) e.bind(n.output(2), cat0(cn));
}

// x @ w^T (+ b): one linear map of a cell.
std::string linear(Emitter& e, const ir::Value* x, const ir::Value* w, const ir::Value* b) {
  std::string y = e.add1("MatMul", {e.name(x), transpose(e, e.name(w), {1, 0})});
  if (b && !Emitter::is_none(b)) y = e.add1("Add", {y, e.name(b)});
  return y;
}

// aten::*_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None) (lstm_cell: hx = [h, c]).
void cell(Emitter& e, N n, Cell c) {
  auto opt = [&n](size_t i) { return i < n.inputs().size() ? n.input(i) : nullptr; };
  const std::string gi = linear(e, n.input(0), n.input(2), opt(4));
  std::string h, cx;
  const ir::Value* h_value = nullptr;
  if (c == Cell::Lstm) {
    std::vector<const ir::Value*> hx = e.list_items(n.input(1), n);
    if (hx.size() != 2) e.fail(n, "aten::lstm_cell's hx must hold h and c");
    h_value = hx[0];
    cx = e.name(hx[1]);
  } else {
    h_value = n.input(1);
  }
  h = e.name(h_value);
  const std::string gh = linear(e, h_value, n.input(3), opt(5));
  int64_t hidden = 0;
  known_dim(n.input(3), 1, &hidden);  // w_hh [gates * hidden, hidden]
  if (c == Cell::Tanh || c == Cell::Relu) {
    e.bind(n.output(0), e.add1(c == Cell::Tanh ? "Tanh" : "Relu", {e.add1("Add", {gi, gh})}));
    return;
  }
  if (c == Cell::Lstm) {
    std::vector<std::string> g = split_gates(e, e.add1("Add", {gi, gh}), 4, -1, hidden);
    const std::string i = e.add1("Sigmoid", {g[0]});
    const std::string f = e.add1("Sigmoid", {g[1]});
    const std::string cand = e.add1("Tanh", {g[2]});
    const std::string o = e.add1("Sigmoid", {g[3]});
    const std::string cy = e.add1("Add", {e.add1("Mul", {f, cx}), e.add1("Mul", {i, cand})});
    e.bind(n.output(0), e.add1("Mul", {o, e.add1("Tanh", {cy})}));
    e.bind(n.output(1), cy);
    return;
  }
  // GRU: r, z from both maps; n = tanh(i_n + r * h_n); h' = n + z * (h - n).
  std::vector<std::string> a = split_gates(e, gi, 3, -1, hidden);
  std::vector<std::string> b = split_gates(e, gh, 3, -1, hidden);
  const std::string r = e.add1("Sigmoid", {e.add1("Add", {a[0], b[0]})});
  const std::string z = e.add1("Sigmoid", {e.add1("Add", {a[1], b[1]})});
  const std::string nn = e.add1("Tanh", {e.add1("Add", {a[2], e.add1("Mul", {r, b[2]})})});
  e.bind(n.output(0), e.add1("Add", {nn, e.add1("Mul", {z, e.add1("Sub", {h, nn})})}));
}

}  // namespace

void add_recurrent_exports(std::map<std::string, ExportFn>& m) {
  m["aten::lstm"] = [](Emitter& e, N n) { sequence(e, n, Cell::Lstm); };
  m["aten::gru"] = [](Emitter& e, N n) { sequence(e, n, Cell::Gru); };
  m["aten::rnn_tanh"] = [](Emitter& e, N n) { sequence(e, n, Cell::Tanh); };
  m["aten::rnn_relu"] = [](Emitter& e, N n) { sequence(e, n, Cell::Relu); };
  m["aten::lstm_cell"] = [](Emitter& e, N n) { cell(e, n, Cell::Lstm); };
  m["aten::gru_cell"] = [](Emitter& e, N n) { cell(e, n, Cell::Gru); };
  m["aten::rnn_tanh_cell"] = [](Emitter& e, N n) { cell(e, n, Cell::Tanh); };
  m["aten::rnn_relu_cell"] = [](Emitter& e, N n) { cell(e, n, Cell::Relu); };
}

}  // namespace d2s::onnx_io
