// nn.MultiheadAttention, nn.TransformerEncoderLayer, nn.TransformerEncoder,
// nn.TransformerDecoderLayer, nn.TransformerDecoder and nn.Transformer
// (nn_attention.cpp): built-in modules of kind NnKind::Attention with PyTorch 1.13's
// constructor signatures, checks, attributes, parameter names (in_proj_weight,
// in_proj_bias, out_proj.weight, q_proj_weight, ..., self_attn.in_proj_weight,
// layers.0.linear1.weight, ...) and default initialisation from d2s's generator. Their
// forwards are compositions of registry ops (trace/attention_forward.h), run here by the
// interpreter and lowered by the parse route in convert/lower_attention.cpp.
#pragma once

#include <string>
#include <vector>

#include "trace/interp.h"

namespace d2s::interp {

bool is_attention_class(const std::string& type);  // "MultiheadAttention", ...
const std::vector<std::string>& attention_class_names();

// Fills a new instance from its constructor's arguments.
void construct_attention(Interpreter& in, const IValue& self, InstanceValue& inst, ValueList args,
                         Kwargs kwargs, const SourceRange& range);
// forward(...) in the interpreter.
IValue attention_forward(Interpreter& in, const InstanceValue& m, ValueList args, Kwargs kwargs,
                         const SourceRange& range);

// nn.Transformer.generate_square_subsequent_mask(sz, device='cpu'): triu of an sz x sz
// tensor of -inf above the diagonal (aten::full, aten::triu, as PyTorch 1.13's).
IValue generate_square_subsequent_mask(Interpreter& in, ValueList args, Kwargs kwargs,
                                       const SourceRange& range);

// The forward's parameters (name, whether it has a default) and defaults, shared with the
// parse route's argument binding.
struct ForwardParam {
  const char* name;
  bool required;
  IValue default_value;
};
const std::vector<ForwardParam>& attention_forward_params(const std::string& type);

}  // namespace d2s::interp
