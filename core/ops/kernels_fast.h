// Direct entries for the executor's hot path: an op's kernel called on its operands as
// the executor's slots hold them, without an argument list, the registry's run_op or a
// std::function (issue 21). Each computes exactly what the op's registered kernel
// computes (it is the same code: the float32 loops those kernels start with), and
// returns false, having written nothing, for anything else (another dtype, a general
// broadcast, a value that is not a tensor or number): the caller then calls the op as
// usual, which computes or reports.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "core/tensor/ivalue.h"

namespace d2s::kernels {

// a, b: the operands (b null for a unary op). dead: bit 0 (a) and bit 1 (b) set when
// the caller reads that operand for the last time, as OpContext::dead_args marks the
// arguments of a registry call: the entry may then write its result into the operand's
// buffer, by the same rule as the kernel (reusable_value). The caller has checked that
// no operand is to be recorded for the autograd.
using FastKernel = bool (*)(const IValue& a, const IValue* b, uint32_t dead, Tensor& out);

struct FastEntry {
  const char* op;  // the overload it serves, qualified: "aten::add.Tensor"
  FastKernel kernel;
  uint8_t operands;       // 1 or 2: the op's leading arguments it reads
  int8_t alpha_arg = -1;  // add/sub: the argument that must be the constant 1
};

// `v` as the buffer of an elementwise result when `dead` (its holder reads it for the
// last time), nothing else refers to the tensor or its storage, it needs no gradient and
// it has `dtype` (any dtype when none is given); else an undefined tensor. The rule of
// every kernel that writes into an argument (kernels.h reusable_arg) and of the direct
// entries.
Tensor reusable_value(const IValue& v, bool dead, std::optional<DType> dtype = std::nullopt);

// Every direct entry, one per overload (a table, looked up by the planner once).
std::span<const FastEntry> fast_kernels();

// The entries, defined beside the kernels whose loops they share.
bool fast_add(const IValue& a, const IValue* b, uint32_t dead, Tensor& out);
bool fast_sub(const IValue& a, const IValue* b, uint32_t dead, Tensor& out);
bool fast_mul(const IValue& a, const IValue* b, uint32_t dead, Tensor& out);
bool fast_div(const IValue& a, const IValue* b, uint32_t dead, Tensor& out);
bool fast_tanh(const IValue& a, const IValue* b, uint32_t dead, Tensor& out);
bool fast_relu(const IValue& a, const IValue* b, uint32_t dead, Tensor& out);
bool fast_sigmoid(const IValue& a, const IValue* b, uint32_t dead, Tensor& out);

}  // namespace d2s::kernels
