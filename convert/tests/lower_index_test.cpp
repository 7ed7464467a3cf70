// The parse route of advanced indexing (convert/lower_subscript.cpp) and its shape
// rule (convert/shape_rules_index.cpp): tensor, list and range indices become one
// aten::index after the basic steps, with TorchScript's Tensor?[] list (None where a
// dim is not indexed); writes become aten::index_put_ (or index_put inside a chain).
#include <gtest/gtest.h>

#include "convert/tests/lower_test_util.h"

namespace d2s::convert {
namespace {

using testing::file_check;

const char* const kIndex = R"(import torch


def f(x, idx, mask):
    a = x[idx]
    b = x[:, [-1], :]
    c = x[mask]
    d = x[idx, :, idx]
    e = x[..., range(2)]
    x[mask] = 0.5
    x[0, idx] = 1.0
    return a, b, c, d, e
)";

TEST(LowerIndex, TensorIndicesBecomeIndexWithShapes) {
  LowerOptions o;
  o.input_shapes = {{"x", {2, 3, 4}}, {"idx", {5}}, {"mask", {2, 3}}};
  o.input_dtypes = {{"idx", DType::Int64}, {"mask", DType::Bool}};
  EXPECT_TRUE(file_check(testing::lower_and_print(kIndex, o), R"(
    # CHECK: List[Long[idx_0]] = prim::ListConstruct(%idx)
    # CHECK: Tensor[idx_0, x_1, x_2] = aten::index(%x,
    # CHECK: Long[1] = aten::tensor(
    # CHECK: Any[] = prim::ListConstruct(
    # CHECK: Tensor[x_0, 1, x_2] = aten::index(
    # CHECK: Tensor[*, x_2] = aten::index(%x,
    # CHECK: Tensor[idx_0, x_1] = aten::index(%x,
    # CHECK: Long[2] = aten::arange(
    # CHECK: Tensor[x_0, x_1, 2] = aten::index(%x,
    # CHECK: aten::index_put_(%x,
    # CHECK: aten::select(
    # CHECK: aten::index_put(
    # CHECK: aten::select_scatter(
    # CHECK: aten::copy_(%x,
  )"));
}

const char* const kAlongDim = R"(import torch


def f(q, k):
    s = torch.einsum("bqd,bkd->bqk", q, k)
    v, i = s.topk(2, dim=-1)
    g = torch.gather(s, 2, i)
    c = s.cumsum(1)
    return v, i, g, c, s.argsort(), torch.einsum("bqd->d", q)
)";

TEST(LowerIndex, OpsAlongOneDimAndEinsumHaveShapes) {
  LowerOptions o;
  o.input_shapes = {{"q", {2, 3, 4}}, {"k", {2, 5, 4}}};
  EXPECT_TRUE(file_check(testing::lower_and_print(kAlongDim, o), R"(
    # CHECK: Tensor[q_0, q_1, k_1] = aten::einsum(
    # CHECK: %v : Tensor[q_0, q_1, 2], %i : Long[q_0, q_1, 2] = aten::topk(%s,
    # CHECK: Tensor[q_0, q_1, 2] = aten::gather(%s,
    # CHECK: Tensor[q_0, q_1, k_1] = aten::cumsum(%s,
    # CHECK: Long[q_0, q_1, k_1] = aten::argsort(%s
    # CHECK: Tensor[q_2] = aten::einsum(
  )"));
}

TEST(LowerIndex, TensorAfterEllipsisNeedsTheRank) {
  const char* src = R"(import torch


def f(x, idx):
    return x[..., idx]
)";
  try {
    testing::lower_and_print(src, LowerOptions{});
    FAIL() << "expected the parse route to refuse";
  } catch (const Error& e) {
    EXPECT_NE(e.message().find("Ellipses followed by tensor indexing"), std::string::npos);
  }
}

}  // namespace
}  // namespace d2s::convert
