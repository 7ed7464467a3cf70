// Helpers for the kernel and registry tests: call ops through the builtin registry
// (as every route does); the tensor helpers are core/tensor/tests/tensor_test_util.h.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "core/ops/op_registry.h"
#include "core/tensor/random.h"
#include "core/tensor/tests/tensor_test_util.h"

namespace d2s::test {

using Keywords = std::vector<std::pair<std::string, IValue>>;

inline IValue call(std::string_view op, const ValueList& args, const Keywords& kw = {},
                   Generator* gen = nullptr, bool training = false) {
  OpContext ctx;
  ctx.generator = gen;
  ctx.training = training;
  return OpRegistry::builtin().call(ctx, op, args, kw, SourceRange());
}

inline Tensor callt(std::string_view op, const ValueList& args, const Keywords& kw = {}) {
  IValue v = call(op, args, kw);
  EXPECT_TRUE(v.is_tensor()) << op << " returned " << v.type_name();
  return v.is_tensor() ? v.to_tensor() : Tensor();
}

// The message of the error from calling op on these arguments.
inline std::string call_error(std::string_view op, const ValueList& args, const Keywords& kw = {}) {
  return error_of([&] { call(op, args, kw); });
}

}  // namespace d2s::test
