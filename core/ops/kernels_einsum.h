// Internal to core/: einsum's equation and its evaluation, shared by the kernel
// (kernels_einsum.cpp) and its derivative (derivatives_tensorops.cpp).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/tensor/tensor.h"

namespace d2s::kernels {

struct EinsumEquation {
  std::vector<std::string> inputs;  // each operand's letters
  std::string output;
};
// Parses "ij,jk->ik" for operands of these ranks, with PyTorch's messages; "..." is
// written out as labels below 'A' (kernels_einsum.cpp), so that every operand's letters
// name each of its dims.
EinsumEquation parse_einsum(const std::string& text, const std::vector<int64_t>& ranks);
std::vector<int64_t> einsum_ranks(const std::vector<Tensor>& ts);
// The einsum of `ts`; `extra_sizes` gives the size of output letters no operand has
// (a derivative's broadcast dims).
Tensor einsum_with(const EinsumEquation& e, const std::vector<Tensor>& ts,
                   const std::map<char, int64_t>& extra_sizes);

}  // namespace d2s::kernels
