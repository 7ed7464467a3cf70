// The parse route's pieces of the attention layers that are not a module's forward
// (lower_attention.cpp).
#pragma once

#include "convert/lowerer.h"

namespace d2s::convert {

// nn.Transformer.generate_square_subsequent_mask(sz, device='cpu'): aten::full of -inf,
// then aten::triu(diagonal=1), as the interpreter runs it.
Sugared lower_square_subsequent_mask(Lowerer& l, CallArgs& args, const SourceRange& range);

}  // namespace d2s::convert
