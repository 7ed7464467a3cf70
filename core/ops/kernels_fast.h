// Direct entries for the executor's hot path: an op's kernel called on its operands as
// the executor's slots hold them, without an argument list, the registry's run_op or a
// std::function (issue 21). Each computes exactly what the op's registered kernel
// computes (it is the same code: the float32 loops those kernels start with), and
// returns false, having written nothing, for anything else (another dtype, a general
// broadcast, a value that is not a tensor or number): the caller then calls the op as
// usual, which computes or reports.
#pragma once

#include <cstdint>
#include <span>

#include "core/tensor/ivalue.h"

namespace d2s::kernels {

// a, b: the operands (b null for a unary op). reuse: a dead operand's tensor whose
// buffer may take the result (the caller checked that nobody else sees it and that it
// is float32 without autograd history), or undefined. The caller has also checked that
// no operand is to be recorded for the autograd.
using FastKernel = bool (*)(const IValue& a, const IValue* b, Tensor reuse, Tensor& out);

struct FastEntry {
  const char* op;  // the overload it serves, qualified: "aten::add.Tensor"
  FastKernel kernel;
  uint8_t operands;       // 1 or 2: the op's leading arguments it reads
  int8_t alpha_arg = -1;  // add/sub: the argument that must be the constant 1
};

// Every direct entry, one per overload (a table, looked up by the planner once).
std::span<const FastEntry> fast_kernels();

// The entries, defined beside the kernels whose loops they share.
bool fast_add(const IValue& a, const IValue* b, Tensor reuse, Tensor& out);
bool fast_sub(const IValue& a, const IValue* b, Tensor reuse, Tensor& out);
bool fast_mul(const IValue& a, const IValue* b, Tensor reuse, Tensor& out);
bool fast_div(const IValue& a, const IValue* b, Tensor reuse, Tensor& out);
bool fast_tanh(const IValue& a, const IValue* b, Tensor reuse, Tensor& out);
bool fast_relu(const IValue& a, const IValue* b, Tensor reuse, Tensor& out);
bool fast_sigmoid(const IValue& a, const IValue* b, Tensor reuse, Tensor& out);

}  // namespace d2s::kernels
