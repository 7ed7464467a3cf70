// Derivatives of the recurrent ops and cells (core/ops/kernels_rnn.cpp: the forward is
// recomputed from the saved arguments and run backwards through time) and of
// aten::embedding (a dense gradient into the weight; padding_idx's row gets none, as
// in PyTorch; scale_grad_by_freq divides each row's sum by its index's count).
#include <unordered_map>

#include "core/autograd/derivatives_util.h"
#include "core/ops/kernels_rnn.h"

namespace d2s::grad {

namespace {

using In = const GradInputs&;
using kernels::rnn::Mode;

ValueList embedding_grad(In in) {
  const Tensor weight = tensor_of(in.args[0]);
  const Tensor indices = tensor_of(in.args[1]);
  const int64_t padding_idx = in.args[2].to_int();
  const bool by_freq = in.args[3].to_bool();
  const int64_t dim = weight.size(1);
  Tensor gw = Tensor::zeros(weight.shape(), DType::Float32);
  const Tensor g = in.grads[0].to(DType::Float32);
  const int64_t* idx = indices.data<int64_t>();
  std::unordered_map<int64_t, int64_t> counts;
  if (by_freq) {
    for (int64_t i = 0; i < indices.numel(); ++i) ++counts[idx[i]];
  }
  float* w = gw.data<float>();
  const float* gp = g.data<float>();
  for (int64_t i = 0; i < indices.numel(); ++i) {
    if (idx[i] == padding_idx) continue;
    const float s = by_freq ? 1.0f / static_cast<float>(counts[idx[i]]) : 1.0f;
    for (int64_t j = 0; j < dim; ++j) w[idx[i] * dim + j] += gp[i * dim + j] * s;
  }
  ValueList out(in.args.size());
  if (wants_grad(in.args[0])) out[0] = IValue(gw);
  return out;
}

}  // namespace

void register_derivatives_rnn(OpRegistry& r) {
  // The sequence ops and cells recompute their forward from their arguments.
  const SavedData args = SavedData::args({0, 1, 2, 3, 4, 5});
  const std::pair<const char*, Mode> sequences[] = {{"aten::lstm.input", Mode::Lstm},
                                                    {"aten::gru.input", Mode::Gru},
                                                    {"aten::rnn_tanh.input", Mode::Tanh},
                                                    {"aten::rnn_relu.input", Mode::Relu}};
  for (const auto& [name, mode] : sequences) {
    r.set_derivative(
        name,
        [mode = mode](In in) { return kernels::rnn::sequence_grads(mode, in.args, in.grads); },
        SavedData::args({0, 1, 2}));
  }
  const std::pair<const char*, Mode> cells[] = {{"aten::lstm_cell", Mode::Lstm},
                                                {"aten::gru_cell", Mode::Gru},
                                                {"aten::rnn_tanh_cell", Mode::Tanh},
                                                {"aten::rnn_relu_cell", Mode::Relu}};
  for (const auto& [name, mode] : cells) {
    r.set_derivative(
        name, [mode = mode](In in) { return kernels::rnn::cell_backward(mode, in.args, in.grads); },
        args);
  }
  // The weight's gradient reads the indices only.
  r.set_derivative("aten::embedding", embedding_grad, SavedData::args({1}));
}

}  // namespace d2s::grad
