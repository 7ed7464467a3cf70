// nn.Embedding and the recurrent layers of torch.nn that d2s implements itself
// (nn_rnn_modules.cpp): RNN, LSTM, GRU, RNNCell, LSTMCell and GRUCell. They are
// built-in modules of kind NnKind::Recurrent: PyTorch's constructor signatures, checks,
// parameter names (weight_ih_l0, bias_hh_l1_reverse, ...) and default initialisation
// from d2s's generator. Their forward takes an optional hidden state and may return
// tuples, so it is not a LayerCall; the interpreter runs it here and the parse route
// lowers it in convert/lower_rnn.cpp, both emitting the op TorchScript records
// (aten::embedding, aten::lstm, aten::gru, aten::rnn_tanh/relu, aten::*_cell).
#pragma once

#include <string>
#include <vector>

#include "trace/interp.h"

namespace d2s::interp {

bool is_recurrent_class(const std::string& type);  // "LSTM", "Embedding", ...
const std::vector<std::string>& recurrent_class_names();

// Fills a new instance from its constructor's arguments.
void construct_recurrent(Interpreter& in, const IValue& self, InstanceValue& inst, ValueList args,
                         Kwargs kwargs, const SourceRange& range);
// nn.Embedding.from_pretrained(embeddings, freeze=True, padding_idx=None, ...).
IValue embedding_from_pretrained(Interpreter& in, ValueList args, Kwargs kwargs,
                                 const SourceRange& range);
// F.embedding(input, weight, padding_idx=None, ...): aten::embedding(weight, input, ...).
IValue functional_embedding(Interpreter& in, ValueList args, Kwargs kwargs,
                            const SourceRange& range);
// forward(input[, hx]) in the interpreter.
IValue recurrent_forward(Interpreter& in, const InstanceValue& m, ValueList args, Kwargs kwargs,
                         const SourceRange& range);
// PyTorch's extra_repr.
std::string recurrent_extra_repr(const Interpreter& in, const InstanceValue& m);

// What the parse route needs to emit a module's op.
struct RecurrentSpec {
  std::string op;     // "aten::lstm", "aten::gru_cell", ...
  bool cell = false;  // a one-step cell
  bool lstm = false;  // (h, c) state
  int64_t hidden_size = 0;
  int64_t num_layers = 1;
  int64_t directions = 1;
  bool bias = true;
  bool batch_first = false;
  double dropout = 0;
  std::vector<std::string> weights;  // parameter names in the op's order
};
RecurrentSpec recurrent_spec(const InstanceValue& m);

}  // namespace d2s::interp
