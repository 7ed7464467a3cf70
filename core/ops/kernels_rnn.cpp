// The recurrent layers (kernels_rnn.h): aten::rnn_tanh, rnn_relu, lstm and gru over a
// sequence and their cells, float32. Each layer and direction projects the inputs of
// all steps in one GEMM, then runs the steps (one GEMM with W_hh each) in order;
// backward_direction runs the steps in reverse with the activations run_direction kept.
#include "core/ops/kernels_rnn.h"

#include <Eigen/Core>
#include <cmath>

#include "core/ops/kernels.h"

namespace d2s::kernels::rnn {

namespace {

using RowMat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Map = Eigen::Map<RowMat>;
using ConstMap = Eigen::Map<const RowMat>;
using RowVec = Eigen::Map<const Eigen::RowVectorXf>;

ConstMap mat(const Tensor& t, int64_t rows, int64_t cols) {
  return ConstMap(t.data<float>(), rows, cols);
}
Map mat(Tensor& t, int64_t rows, int64_t cols) {
  return Map(t.data<float>(), rows, cols);
}

float sigmoid(float v) {
  return 1.0f / (1.0f + std::exp(-v));
}

Tensor zeros(const Shape& s) {
  return Tensor::zeros(s, DType::Float32);
}

// Rows [first, first + count) of a tensor's leading dim, as a new tensor.
Tensor rows_of(const Tensor& t, int64_t first, int64_t count) {
  Shape s = t.shape();
  const int64_t inner = s[0] == 0 ? 0 : t.numel() / s[0];
  s[0] = count;
  Tensor out = Tensor::empty(s, DType::Float32);
  std::copy_n(t.data<float>() + first * inner, count * inner, out.data<float>());
  return out;
}

// [A, B, C] <-> [B, A, C].
Tensor swap01(const Tensor& t) {
  const int64_t a = t.size(0), b = t.size(1), c = t.size(2);
  Tensor out = Tensor::empty({b, a, c}, DType::Float32);
  const float* in = t.data<float>();
  float* o = out.data<float>();
  for (int64_t i = 0; i < a; ++i)
    for (int64_t j = 0; j < b; ++j) std::copy_n(in + (i * b + j) * c, c, o + (j * a + i) * c);
  return out;
}

// Writes src [T, B, H] into dst [T, B, W] at columns [offset, offset + H).
void put_columns(Tensor& dst, const Tensor& src, int64_t offset) {
  const int64_t rows = src.size(0) * src.size(1), h = src.size(2), w = dst.size(2);
  for (int64_t r = 0; r < rows; ++r)
    std::copy_n(src.data<float>() + r * h, h, dst.data<float>() + r * w + offset);
}
Tensor take_columns(const Tensor& src, int64_t offset, int64_t h) {
  const int64_t rows = src.size(0) * src.size(1), w = src.size(2);
  Tensor out = Tensor::empty({src.size(0), src.size(1), h}, DType::Float32);
  for (int64_t r = 0; r < rows; ++r)
    std::copy_n(src.data<float>() + r * w + offset, h, out.data<float>() + r * h);
  return out;
}

void add_into(Tensor& acc, const Tensor& t) {
  float* a = acc.data<float>();
  const float* b = t.data<float>();
  for (int64_t i = 0; i < acc.numel(); ++i) a[i] += b[i];
}

const char* mode_name(Mode m) {
  switch (m) {
    case Mode::Tanh:
      return "RNN_TANH";
    case Mode::Relu:
      return "RNN_RELU";
    case Mode::Lstm:
      return "LSTM";
    case Mode::Gru:
      break;
  }
  return "GRU";
}

Tensor float_arg(const IValue& v, const char* what) {
  const Tensor t = tensor_arg(v);
  if (t.dtype() != DType::Float32) {
    fail(std::string("expected scalar type Float but found ") + dtype_word(t.dtype()) + " for " +
         what);
  }
  return t;
}

}  // namespace

int64_t gate_count(Mode mode) {
  switch (mode) {
    case Mode::Lstm:
      return 4;
    case Mode::Gru:
      return 3;
    default:
      return 1;
  }
}

DirectionRun run_direction(Mode mode, const Tensor& x, const Tensor& h0, const Tensor& c0,
                           const CellWeights& w, bool reverse) {
  const int64_t T = x.size(0), B = x.size(1), I = x.size(2), H = h0.size(1);
  const int64_t G = gate_count(mode), GH = G * H;
  RowMat xi = mat(x, T * B, I) * mat(w.w_ih, GH, I).transpose();
  if (w.b_ih.defined()) xi.rowwise() += RowVec(w.b_ih.data<float>(), GH);
  DirectionRun r;
  r.hidden = Tensor::empty({T, B, H}, DType::Float32);
  r.gates = Tensor::empty({T, B, GH}, DType::Float32);
  if (mode == Mode::Lstm) r.cells = Tensor::empty({T, B, H}, DType::Float32);
  if (mode == Mode::Gru) r.hidden_n = Tensor::empty({T, B, H}, DType::Float32);
  RowMat h = mat(h0, B, H);
  RowMat c = mode == Mode::Lstm ? RowMat(mat(c0, B, H)) : RowMat();
  RowMat gh(B, GH);
  const ConstMap whh = mat(w.w_hh, GH, H);
  for (int64_t s = 0; s < T; ++s) {
    const int64_t t = reverse ? T - 1 - s : s;
    gh.noalias() = h * whh.transpose();
    if (w.b_hh.defined()) gh.rowwise() += RowVec(w.b_hh.data<float>(), GH);
    for (int64_t b = 0; b < B; ++b) {
      const float* pi = xi.data() + (t * B + b) * GH;
      const float* ph = gh.data() + b * GH;
      float* gates = r.gates.data<float>() + (t * B + b) * GH;
      float* hrow = h.data() + b * H;
      for (int64_t j = 0; j < H; ++j) {
        switch (mode) {
          case Mode::Tanh:
            hrow[j] = gates[j] = std::tanh(pi[j] + ph[j]);
            break;
          case Mode::Relu: {
            const float v = pi[j] + ph[j];
            hrow[j] = gates[j] = v > 0 ? v : 0.0f;
            break;
          }
          case Mode::Lstm: {
            const float ig = sigmoid(pi[j] + ph[j]);
            const float fg = sigmoid(pi[H + j] + ph[H + j]);
            const float gg = std::tanh(pi[2 * H + j] + ph[2 * H + j]);
            const float og = sigmoid(pi[3 * H + j] + ph[3 * H + j]);
            float& cell = c.data()[b * H + j];
            cell = fg * cell + ig * gg;
            hrow[j] = og * std::tanh(cell);
            gates[j] = ig, gates[H + j] = fg, gates[2 * H + j] = gg, gates[3 * H + j] = og;
            break;
          }
          case Mode::Gru: {
            const float rg = sigmoid(pi[j] + ph[j]);
            const float zg = sigmoid(pi[H + j] + ph[H + j]);
            const float ng = std::tanh(pi[2 * H + j] + rg * ph[2 * H + j]);
            hrow[j] = (1.0f - zg) * ng + zg * hrow[j];
            gates[j] = rg, gates[H + j] = zg, gates[2 * H + j] = ng;
            r.hidden_n.data<float>()[(t * B + b) * H + j] = ph[2 * H + j];
            break;
          }
        }
      }
    }
    std::copy_n(h.data(), B * H, r.hidden.data<float>() + t * B * H);
    if (mode == Mode::Lstm) std::copy_n(c.data(), B * H, r.cells.data<float>() + t * B * H);
  }
  r.h_last = Tensor::empty({B, H}, DType::Float32);
  std::copy_n(h.data(), B * H, r.h_last.data<float>());
  if (mode == Mode::Lstm) {
    r.c_last = Tensor::empty({B, H}, DType::Float32);
    std::copy_n(c.data(), B * H, r.c_last.data<float>());
  }
  return r;
}

DirectionGrads backward_direction(Mode mode, const Tensor& x, const Tensor& h0, const Tensor& c0,
                                  const CellWeights& w, bool reverse, const DirectionRun& run,
                                  const Tensor& d_hidden, const Tensor& d_h_last,
                                  const Tensor& d_c_last) {
  const int64_t T = x.size(0), B = x.size(1), I = x.size(2), H = h0.size(1);
  const int64_t G = gate_count(mode), GH = G * H;
  RowMat dgi(T * B, GH);  // gradients of the input projections' pre-activations
  RowMat dgh(B, GH);
  RowMat dh = d_h_last.defined() ? RowMat(mat(d_h_last, B, H)) : RowMat::Zero(B, H);
  RowMat dc =
      mode == Mode::Lstm && d_c_last.defined() ? RowMat(mat(d_c_last, B, H)) : RowMat::Zero(B, H);
  RowMat dwhh = RowMat::Zero(GH, H);
  Eigen::RowVectorXf dbhh = Eigen::RowVectorXf::Zero(GH);
  const ConstMap whh = mat(w.w_hh, GH, H);
  RowMat direct(B, H);  // dh_prev terms that do not pass through W_hh
  for (int64_t s = T - 1; s >= 0; --s) {
    const int64_t t = reverse ? T - 1 - s : s;
    const bool first = s == 0;
    const int64_t tp = reverse ? t + 1 : t - 1;  // the step before in run order
    const float* hprev = first ? h0.data<float>() : run.hidden.data<float>() + tp * B * H;
    const float* cprev = mode != Mode::Lstm ? nullptr
                         : first            ? c0.data<float>()
                                            : run.cells.data<float>() + tp * B * H;
    if (d_hidden.defined()) dh += mat(d_hidden, T * B, H).middleRows(t * B, B);
    for (int64_t b = 0; b < B; ++b) {
      const float* gates = run.gates.data<float>() + (t * B + b) * GH;
      float* di = dgi.data() + (t * B + b) * GH;
      float* dhh = dgh.data() + b * GH;
      const float* dhrow = dh.data() + b * H;
      float* dir = direct.data() + b * H;
      for (int64_t j = 0; j < H; ++j) {
        switch (mode) {
          case Mode::Tanh: {
            const float v = gates[j];
            di[j] = dhh[j] = dhrow[j] * (1.0f - v * v);
            dir[j] = 0;
            break;
          }
          case Mode::Relu:
            di[j] = dhh[j] = gates[j] > 0 ? dhrow[j] : 0.0f;
            dir[j] = 0;
            break;
          case Mode::Lstm: {
            const float ig = gates[j], fg = gates[H + j], gg = gates[2 * H + j],
                        og = gates[3 * H + j];
            const float ct = run.cells.data<float>()[(t * B + b) * H + j];
            const float tc = std::tanh(ct);
            float& dcell = dc.data()[b * H + j];
            const float dct = dcell + dhrow[j] * og * (1.0f - tc * tc);
            di[j] = dhh[j] = dct * gg * ig * (1.0f - ig);
            di[H + j] = dhh[H + j] = dct * cprev[b * H + j] * fg * (1.0f - fg);
            di[2 * H + j] = dhh[2 * H + j] = dct * ig * (1.0f - gg * gg);
            di[3 * H + j] = dhh[3 * H + j] = dhrow[j] * tc * og * (1.0f - og);
            dcell = dct * fg;
            dir[j] = 0;
            break;
          }
          case Mode::Gru: {
            const float rg = gates[j], zg = gates[H + j], ng = gates[2 * H + j];
            const float hn = run.hidden_n.data<float>()[(t * B + b) * H + j];
            const float hp = hprev[b * H + j];
            const float dnp = dhrow[j] * (1.0f - zg) * (1.0f - ng * ng);
            const float dzp = dhrow[j] * (hp - ng) * zg * (1.0f - zg);
            const float drp = dnp * hn * rg * (1.0f - rg);
            di[j] = dhh[j] = drp;
            di[H + j] = dhh[H + j] = dzp;
            di[2 * H + j] = dnp;
            dhh[2 * H + j] = dnp * rg;
            dir[j] = dhrow[j] * zg;
            break;
          }
        }
      }
    }
    dwhh.noalias() += dgh.transpose() * ConstMap(hprev, B, H);
    dbhh += dgh.colwise().sum();
    dh.noalias() = dgh * whh;
    dh += direct;
  }
  DirectionGrads g;
  g.x = Tensor::empty({T, B, I}, DType::Float32);
  mat(g.x, T * B, I).noalias() = dgi * mat(w.w_ih, GH, I);
  g.w_ih = Tensor::empty({GH, I}, DType::Float32);
  mat(g.w_ih, GH, I).noalias() = dgi.transpose() * mat(x, T * B, I);
  g.w_hh = Tensor::empty({GH, H}, DType::Float32);
  mat(g.w_hh, GH, H) = dwhh;
  if (w.b_ih.defined()) {
    g.b_ih = Tensor::empty({GH}, DType::Float32);
    mat(g.b_ih, 1, GH) = dgi.colwise().sum();
  }
  if (w.b_hh.defined()) {
    g.b_hh = Tensor::empty({GH}, DType::Float32);
    mat(g.b_hh, 1, GH) = dbhh;
  }
  g.h0 = Tensor::empty({B, H}, DType::Float32);
  mat(g.h0, B, H) = dh;
  if (mode == Mode::Lstm) {
    g.c0 = Tensor::empty({B, H}, DType::Float32);
    mat(g.c0, B, H) = dc;
  }
  return g;
}

void check_sequence_args(const SequenceArgs& a) {
  const std::string name = mode_name(a.mode);
  if (a.input.dtype() != DType::Float32) {
    fail(name + ": expected scalar type Float but found " + dtype_word(a.input.dtype()));
  }
  if (a.input.dim() != 3) {
    fail(name + ": input must have 3 dimensions, got " + std::to_string(a.input.dim()));
  }
  const int64_t D = a.bidirectional ? 2 : 1;
  const int64_t per = a.has_biases ? 4 : 2;
  if (a.num_layers < 1 || static_cast<int64_t>(a.params.size()) != a.num_layers * D * per) {
    fail(name + ": expected " + std::to_string(a.num_layers * D * per) +
         " parameter tensors, got " + std::to_string(a.params.size()));
  }
  if (a.dropout < 0 || a.dropout > 1) {
    fail(
        "dropout should be a number in range [0, 1] representing the probability of an element "
        "being zeroed");
  }
  const int64_t T = a.input.size(a.batch_first ? 1 : 0);
  const int64_t B = a.input.size(a.batch_first ? 0 : 1);
  (void)T;
  const int64_t H = a.params[1].dim() == 2 ? a.params[1].size(1) : -1;
  const int64_t G = gate_count(a.mode);
  for (const Tensor* state : {&a.h0, &a.c0}) {
    if (!state->defined()) continue;
    const Shape want{a.num_layers * D, B, H};
    if (state->shape() != want) {
      fail(name + ": expected hidden size " + shape_str(want) + ", got " +
           shape_str(state->shape()));
    }
    if (state->dtype() != DType::Float32) fail(name + ": the hidden state must be float32");
  }
  for (int64_t l = 0; l < a.num_layers; ++l) {
    const int64_t in = l == 0 ? a.input.size(2) : D * H;
    for (int64_t d = 0; d < D; ++d) {
      const Tensor* p = &a.params[static_cast<size_t>((l * D + d) * per)];
      const Shape shapes[] = {{G * H, in}, {G * H, H}, {G * H}, {G * H}};
      for (int64_t k = 0; k < per; ++k) {
        if (p[k].dtype() != DType::Float32 || p[k].shape() != shapes[k]) {
          fail(name + ": parameter " + std::to_string((l * D + d) * per + k) + " has shape " +
               shape_str(p[k].shape()) + ", expected " + shape_str(shapes[k]));
        }
      }
    }
  }
}

namespace {

CellWeights weights_of(const SequenceArgs& a, int64_t layer, int64_t dir) {
  const int64_t D = a.bidirectional ? 2 : 1;
  const int64_t per = a.has_biases ? 4 : 2;
  const Tensor* p = &a.params[static_cast<size_t>((layer * D + dir) * per)];
  CellWeights w{p[0], p[1], Tensor(), Tensor()};
  if (a.has_biases) w.b_ih = p[2], w.b_hh = p[3];
  return w;
}

// The state of layer*D+dir, or zeros.
Tensor state_of(const Tensor& s, int64_t index, int64_t B, int64_t H) {
  return s.defined() ? rows_of(s, index, 1).view_as_shape({B, H}) : zeros({B, H});
}

// The forward of every layer, keeping what the backward needs.
struct Trace {
  std::vector<Tensor> layer_inputs;  // [T, B, I] per layer
  std::vector<DirectionRun> runs;    // per layer*D+dir
  Tensor output;                     // [T, B, D*H], time-major
};

Trace forward_all(const SequenceArgs& a, Generator* generator) {
  const int64_t D = a.bidirectional ? 2 : 1;
  const Tensor x = a.batch_first ? swap01(a.input) : a.input;
  const int64_t T = x.size(0), B = x.size(1), H = a.params[1].size(1);
  Trace tr;
  Tensor layer_in = x;
  for (int64_t l = 0; l < a.num_layers; ++l) {
    tr.layer_inputs.push_back(layer_in);
    Tensor out = Tensor::empty({T, B, D * H}, DType::Float32);
    for (int64_t d = 0; d < D; ++d) {
      const int64_t idx = l * D + d;
      DirectionRun run = run_direction(a.mode, layer_in, state_of(a.h0, idx, B, H),
                                       state_of(a.c0, idx, B, H), weights_of(a, l, d), d == 1);
      put_columns(out, run.hidden, d * H);
      tr.runs.push_back(std::move(run));
    }
    if (l + 1 < a.num_layers && a.train && a.dropout > 0) {
      // Dropout between layers, as aten::dropout draws it (kernels_nn.cpp).
      if (!generator) fail("dropout(): no random generator was given to this call");
      const float scale = a.dropout >= 1 ? 0.0f : 1.0f / static_cast<float>(1.0 - a.dropout);
      float* o = out.data<float>();
      for (int64_t i = 0; i < out.numel(); ++i) {
        const bool keep = static_cast<double>(generator->uniform()) < 1.0 - a.dropout;
        o[i] = keep ? o[i] * scale : o[i] * 0.0f;
      }
    }
    layer_in = out;
  }
  tr.output = layer_in;
  return tr;
}

}  // namespace

SequenceResult run_sequence(const SequenceArgs& a, Generator* generator) {
  check_sequence_args(a);
  const int64_t D = a.bidirectional ? 2 : 1;
  const int64_t B = a.input.size(a.batch_first ? 0 : 1), H = a.params[1].size(1);
  Trace tr = forward_all(a, generator);
  SequenceResult r;
  r.output = a.batch_first ? swap01(tr.output) : tr.output;
  r.h_n = Tensor::empty({a.num_layers * D, B, H}, DType::Float32);
  if (a.mode == Mode::Lstm) r.c_n = Tensor::empty({a.num_layers * D, B, H}, DType::Float32);
  for (size_t i = 0; i < tr.runs.size(); ++i) {
    const int64_t off = static_cast<int64_t>(i) * B * H;
    std::copy_n(tr.runs[i].h_last.data<float>(), B * H, r.h_n.data<float>() + off);
    if (a.mode == Mode::Lstm)
      std::copy_n(tr.runs[i].c_last.data<float>(), B * H, r.c_n.data<float>() + off);
  }
  return r;
}

SequenceGrads sequence_backward(const SequenceArgs& a, const Tensor& d_output, const Tensor& d_h_n,
                                const Tensor& d_c_n) {
  check_sequence_args(a);
  if (a.train && a.dropout > 0 && a.num_layers > 1) {
    fail(std::string("the gradient of ") + mode_name(a.mode) +
         " with dropout between layers in training mode is not supported by d2s (the op's "
         "result does not keep the dropout masks)");
  }
  const int64_t D = a.bidirectional ? 2 : 1;
  const int64_t B = a.input.size(a.batch_first ? 0 : 1), H = a.params[1].size(1);
  Trace tr = forward_all(a, nullptr);
  const int64_t T = tr.output.size(0);
  Tensor d_out =
      d_output.defined() ? (a.batch_first ? swap01(d_output) : d_output) : zeros({T, B, D * H});
  SequenceGrads g;
  g.params.resize(a.params.size());
  if (a.h0.defined()) g.h0 = zeros(a.h0.shape());
  if (a.c0.defined()) g.c0 = zeros(a.c0.shape());
  const int64_t per = a.has_biases ? 4 : 2;
  for (int64_t l = a.num_layers - 1; l >= 0; --l) {
    const Tensor& x = tr.layer_inputs[static_cast<size_t>(l)];
    Tensor dx = zeros(x.shape());
    for (int64_t d = 0; d < D; ++d) {
      const int64_t idx = l * D + d;
      const Tensor dh_last =
          d_h_n.defined() ? rows_of(d_h_n, idx, 1).view_as_shape({B, H}) : Tensor();
      const Tensor dc_last =
          d_c_n.defined() ? rows_of(d_c_n, idx, 1).view_as_shape({B, H}) : Tensor();
      DirectionGrads dg =
          backward_direction(a.mode, x, state_of(a.h0, idx, B, H), state_of(a.c0, idx, B, H),
                             weights_of(a, l, d), d == 1, tr.runs[static_cast<size_t>(idx)],
                             take_columns(d_out, d * H, H), dh_last, dc_last);
      add_into(dx, dg.x);
      const size_t base = static_cast<size_t>(idx * per);
      g.params[base] = dg.w_ih;
      g.params[base + 1] = dg.w_hh;
      if (a.has_biases) g.params[base + 2] = dg.b_ih, g.params[base + 3] = dg.b_hh;
      if (g.h0.defined()) std::copy_n(dg.h0.data<float>(), B * H, g.h0.data<float>() + idx * B * H);
      if (g.c0.defined()) std::copy_n(dg.c0.data<float>(), B * H, g.c0.data<float>() + idx * B * H);
    }
    d_out = dx;
  }
  g.input = a.batch_first ? swap01(d_out) : d_out;
  return g;
}

namespace {

IValue tv(Tensor t) {
  return IValue(std::move(t));
}

std::vector<Tensor> tensors_of(const IValue& list, const char* what) {
  std::vector<Tensor> out;
  for (const IValue& v : list.items()) out.push_back(float_arg(v, what));
  return out;
}

SequenceArgs sequence_args(Mode mode, const ValueList& a) {
  SequenceArgs s;
  s.mode = mode;
  s.input = float_arg(a[0], "input");
  if (mode == Mode::Lstm) {
    const std::vector<Tensor> hx = tensors_of(a[1], "hx");
    if (hx.size() != 2) fail("lstm expects two hidden states");
    s.h0 = hx[0], s.c0 = hx[1];
  } else {
    s.h0 = float_arg(a[1], "hx");
  }
  s.params = tensors_of(a[2], "params");
  s.has_biases = a[3].to_bool();
  s.num_layers = a[4].to_int();
  s.dropout = a[5].to_double();
  s.train = a[6].to_bool();
  s.bidirectional = a[7].to_bool();
  s.batch_first = a[8].to_bool();
  if (s.params.size() < 2) fail(std::string(mode_name(mode)) + ": too few parameter tensors");
  return s;
}

// A cell: one step of a one-layer, one-direction run over [1, B, I].
struct CellArgs {
  Tensor x, h, c;
  CellWeights w;
};

CellArgs cell_args(Mode mode, const ValueList& a) {
  CellArgs c;
  c.x = float_arg(a[0], "input");
  if (mode == Mode::Lstm) {
    const std::vector<Tensor> hx = tensors_of(a[1], "hx");
    if (hx.size() != 2) fail("lstm_cell expects two hidden states");
    c.h = hx[0], c.c = hx[1];
  } else {
    c.h = float_arg(a[1], "hx");
  }
  c.w.w_ih = float_arg(a[2], "w_ih");
  c.w.w_hh = float_arg(a[3], "w_hh");
  if (!a[4].is_none()) c.w.b_ih = float_arg(a[4], "b_ih");
  if (!a[5].is_none()) c.w.b_hh = float_arg(a[5], "b_hh");
  const int64_t G = gate_count(mode);
  if (c.x.dim() != 2 || c.h.dim() != 2 || (c.c.defined() && c.c.dim() != 2) ||
      c.w.w_ih.dim() != 2 || c.w.w_hh.dim() != 2) {
    fail("the cell's input, hidden state and weights must be 2-D");
  }
  // PyTorch's check_rnn_cell_forward_input / _hidden messages (both states are "hidden0").
  const int64_t B = c.x.size(0), I = c.x.size(1), H = c.w.w_hh.size(1);
  if (I != c.w.w_ih.size(1)) {
    fail("input has inconsistent input_size: got " + std::to_string(I) + " expected " +
         std::to_string(c.w.w_ih.size(1)));
  }
  for (const Tensor* state : {&c.h, &c.c}) {
    if (!state->defined()) continue;
    if (state->size(0) != B) {
      fail("Input batch size " + std::to_string(B) + " doesn't match hidden0 batch size " +
           std::to_string(state->size(0)));
    }
    if (state->size(1) != H) {
      fail("hidden0 has inconsistent hidden_size: got " + std::to_string(state->size(1)) +
           ", expected " + std::to_string(H));
    }
  }
  auto expect = [](const Tensor& t, const Shape& s, const char* what) {
    if (t.defined() && t.shape() != s) {
      fail(std::string(what) + " has shape " + shape_str(t.shape()) + ", expected " + shape_str(s));
    }
  };
  expect(c.w.w_ih, {G * H, I}, "w_ih");
  expect(c.w.w_hh, {G * H, H}, "w_hh");
  expect(c.w.b_ih, {G * H}, "b_ih");
  expect(c.w.b_hh, {G * H}, "b_hh");
  return c;
}

Tensor as_step(const Tensor& x) {
  return x.view_as_shape({1, x.size(0), x.size(1)});
}

}  // namespace

// The cells' forward and backward for derivatives_rnn.cpp.
IValue cell_forward(Mode mode, const ValueList& a) {
  CellArgs c = cell_args(mode, a);
  DirectionRun run = run_direction(mode, as_step(c.x), c.h, c.c, c.w, false);
  if (mode == Mode::Lstm) return IValue::tuple({tv(run.h_last), tv(run.c_last)});
  return tv(run.h_last);
}

ValueList cell_backward(Mode mode, const ValueList& a, const std::vector<Tensor>& grads) {
  CellArgs c = cell_args(mode, a);
  DirectionRun run = run_direction(mode, as_step(c.x), c.h, c.c, c.w, false);
  const Tensor dc = mode == Mode::Lstm ? grads[1] : Tensor();
  DirectionGrads g =
      backward_direction(mode, as_step(c.x), c.h, c.c, c.w, false, run, Tensor(), grads[0], dc);
  ValueList out(6);
  out[0] = tv(g.x.view_as_shape(c.x.shape()));
  out[1] = mode == Mode::Lstm ? IValue::list({tv(g.h0), tv(g.c0)}) : tv(g.h0);
  out[2] = tv(g.w_ih);
  out[3] = tv(g.w_hh);
  if (g.b_ih.defined()) out[4] = tv(g.b_ih);
  if (g.b_hh.defined()) out[5] = tv(g.b_hh);
  return out;
}

IValue sequence_forward(Mode mode, OpContext& ctx, const ValueList& a) {
  SequenceResult r = run_sequence(sequence_args(mode, a), ctx.generator);
  if (mode == Mode::Lstm) return IValue::tuple({tv(r.output), tv(r.h_n), tv(r.c_n)});
  return IValue::tuple({tv(r.output), tv(r.h_n)});
}

ValueList sequence_grads(Mode mode, const ValueList& a, const std::vector<Tensor>& grads) {
  const SequenceArgs s = sequence_args(mode, a);
  SequenceGrads g =
      sequence_backward(s, grads[0], grads[1], mode == Mode::Lstm ? grads[2] : Tensor());
  ValueList out(a.size());
  out[0] = tv(g.input);
  out[1] = mode == Mode::Lstm ? IValue::list({tv(g.h0), tv(g.c0)}) : tv(g.h0);
  ValueList params;
  for (Tensor& p : g.params) params.push_back(tv(std::move(p)));
  out[2] = IValue::list(std::move(params));
  return out;
}

}  // namespace d2s::kernels::rnn

namespace d2s::kernels {

void register_rnn(OpRegistry& r) {
  using rnn::Mode;
  using A = const ValueList&;
  const char* seq_args =
      "(Tensor input, Tensor hx, Tensor[] params, bool has_biases, int num_layers, float dropout, "
      "bool train, bool bidirectional, bool batch_first) -> (Tensor, Tensor)";
  const char* cell_args =
      "(Tensor input, Tensor hx, Tensor w_ih, Tensor w_hh, Tensor? b_ih=None, Tensor? b_hh=None) "
      "-> Tensor";
  // Random: dropout between layers in training reads the generator.
  r.add(
      "aten::lstm.input(Tensor input, Tensor[] hx, Tensor[] params, bool has_biases, int "
      "num_layers, float dropout, bool train, bool bidirectional, bool batch_first) -> (Tensor, "
      "Tensor, Tensor)",
      [](OpContext& c, A a) { return rnn::sequence_forward(Mode::Lstm, c, a); }, OpTag::Random);
  r.add(
      std::string("aten::gru.input") + seq_args,
      [](OpContext& c, A a) { return rnn::sequence_forward(Mode::Gru, c, a); }, OpTag::Random);
  r.add(
      std::string("aten::rnn_tanh.input") + seq_args,
      [](OpContext& c, A a) { return rnn::sequence_forward(Mode::Tanh, c, a); }, OpTag::Random);
  r.add(
      std::string("aten::rnn_relu.input") + seq_args,
      [](OpContext& c, A a) { return rnn::sequence_forward(Mode::Relu, c, a); }, OpTag::Random);
  r.add(
      "aten::lstm_cell(Tensor input, Tensor[] hx, Tensor w_ih, Tensor w_hh, Tensor? b_ih=None, "
      "Tensor? b_hh=None) -> (Tensor, Tensor)",
      [](OpContext&, A a) { return rnn::cell_forward(Mode::Lstm, a); });
  r.add(std::string("aten::gru_cell") + cell_args,
        [](OpContext&, A a) { return rnn::cell_forward(Mode::Gru, a); });
  r.add(std::string("aten::rnn_tanh_cell") + cell_args,
        [](OpContext&, A a) { return rnn::cell_forward(Mode::Tanh, a); });
  r.add(std::string("aten::rnn_relu_cell") + cell_args,
        [](OpContext&, A a) { return rnn::cell_forward(Mode::Relu, a); });
}

}  // namespace d2s::kernels
