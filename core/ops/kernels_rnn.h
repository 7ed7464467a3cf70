// The recurrent layers' arithmetic (kernels_rnn.cpp), shared by their kernels and their
// derivatives (derivatives_rnn.cpp): aten::rnn_tanh, rnn_relu, lstm and gru over a whole
// sequence (all layers and directions in one op, as TorchScript records nn.LSTM), and
// their one-step cells.
//
// Why one op per layer stack rather than a prim::Loop of cell ops: torch.jit.trace and
// torch.jit.script both record nn.LSTM as one aten::lstm, the sequence length stays a
// symbol of the input's shape without any loop in the graph, and the static backward
// graph (convert/grad_graph.cpp) cannot differentiate a prim::Loop; one op with its own
// derivative gives the gradient in eager, trace and parse alike.
//
// Gate order and weights are PyTorch's: w_ih is [G*H, I], w_hh [G*H, H], biases [G*H],
// the G gate blocks stacked as i, f, g, o (LSTM) and r, z, n (GRU).
#pragma once

#include <cstdint>
#include <vector>

#include "core/ops/op_registry.h"
#include "core/tensor/ivalue.h"
#include "core/tensor/random.h"
#include "core/tensor/tensor.h"

namespace d2s::kernels::rnn {

enum class Mode { Tanh, Relu, Lstm, Gru };
int64_t gate_count(Mode mode);

// One cell's weights; the biases are undefined tensors when the layer has none.
struct CellWeights {
  Tensor w_ih, w_hh, b_ih, b_hh;
};

// What one layer in one direction computed, kept for its backward pass.
struct DirectionRun {
  Tensor hidden;          // [T, B, H]: h after each step, in time order
  Tensor cells;           // LSTM: [T, B, H], c after each step
  Tensor gates;           // [T, B, G*H]: the gates after their activation (LSTM i f g o, GRU r z n)
  Tensor hidden_n;        // GRU: [T, B, H], the hidden part of n's pre-activation (W_hn h + b_hn)
  Tensor h_last, c_last;  // [B, H]
};

// Runs one layer in one direction over time-major x [T, B, I] from h0 (and c0) [B, H].
DirectionRun run_direction(Mode mode, const Tensor& x, const Tensor& h0, const Tensor& c0,
                           const CellWeights& w, bool reverse);

struct DirectionGrads {
  Tensor x, h0, c0;
  Tensor w_ih, w_hh, b_ih, b_hh;  // undefined for absent biases
};
// The gradients of one run_direction given the gradients of its hidden sequence
// (d_hidden [T, B, H], may be undefined) and of its last state.
DirectionGrads backward_direction(Mode mode, const Tensor& x, const Tensor& h0, const Tensor& c0,
                                  const CellWeights& w, bool reverse, const DirectionRun& run,
                                  const Tensor& d_hidden, const Tensor& d_h_last,
                                  const Tensor& d_c_last);

// The arguments of aten::lstm / gru / rnn_tanh / rnn_relu (.input overloads).
struct SequenceArgs {
  Mode mode = Mode::Lstm;
  Tensor input;                // [T, B, I] or [B, T, I] (batch_first)
  Tensor h0;                   // [L*D, B, H]
  Tensor c0;                   // LSTM only
  std::vector<Tensor> params;  // per layer, per direction: w_ih, w_hh[, b_ih, b_hh]
  bool has_biases = true;
  int64_t num_layers = 1;
  double dropout = 0;
  bool train = false;
  bool bidirectional = false;
  bool batch_first = false;
};
// Checks the arguments as PyTorch does (shapes, dtypes, parameter count); throws the
// kernel's error.
void check_sequence_args(const SequenceArgs& a);

struct SequenceResult {
  Tensor output, h_n, c_n;
};
// Dropout between layers (train and dropout > 0) draws from `generator`.
SequenceResult run_sequence(const SequenceArgs& a, Generator* generator);

struct SequenceGrads {
  Tensor input, h0, c0;
  std::vector<Tensor> params;
};
// Recomputes the forward and runs it backwards. Throws for dropout between layers in
// training: the op's result does not hold the masks its forward drew.
SequenceGrads sequence_backward(const SequenceArgs& a, const Tensor& d_output, const Tensor& d_h_n,
                                const Tensor& d_c_n);

// The ops on bound arguments: the sequence ops' results (output, h_n[, c_n]) and the
// cells' (h, or (h, c)); their gradients, one per argument (a list for Tensor[]).
IValue sequence_forward(Mode mode, OpContext& ctx, const ValueList& args);
ValueList sequence_grads(Mode mode, const ValueList& args, const std::vector<Tensor>& grads);
IValue cell_forward(Mode mode, const ValueList& args);
ValueList cell_backward(Mode mode, const ValueList& args, const std::vector<Tensor>& grads);

}  // namespace d2s::kernels::rnn
