// aten::embedding: rows of a [num_embeddings, dim] weight picked by int64 indices of any
// shape; the result has the indices' shape plus dim. Its derivative (derivatives_rnn.cpp)
// is dense: every picked row but padding_idx's gets the sum of its gradients.
#include "core/ops/kernels.h"

namespace d2s::kernels {

namespace {

Tensor embedding(const Tensor& weight, const Tensor& indices) {
  if (indices.dtype() != DType::Int64) {
    fail(std::string("Expected tensor for argument #1 'indices' to have one of the following "
                     "scalar types: Long, Int; but got torch.") +
         (indices.dtype() == DType::Float32 ? "FloatTensor" : "BoolTensor") +
         " instead (while checking arguments for embedding)");
  }
  if (weight.dim() != 2) fail("'weight' must be 2-D");
  const int64_t rows = weight.size(0), dim = weight.size(1);
  Shape shape = indices.shape();
  shape.push_back(dim);
  Tensor out = Tensor::empty(shape, weight.dtype());
  const int64_t* idx = indices.data<int64_t>();
  const size_t item = dtype_size(weight.dtype());
  const auto* w = weight.data<std::byte>();
  auto* o = out.data<std::byte>();
  for (int64_t i = 0; i < indices.numel(); ++i) {
    if (idx[i] < 0 || idx[i] >= rows) fail("index out of range in self");
    std::copy_n(w + idx[i] * dim * static_cast<int64_t>(item), dim * static_cast<int64_t>(item),
                o + i * dim * static_cast<int64_t>(item));
  }
  return out;
}

}  // namespace

void register_embedding(OpRegistry& r) {
  r.add(
      "aten::embedding(Tensor weight, Tensor indices, int padding_idx=-1, bool "
      "scale_grad_by_freq=False, bool sparse=False) -> Tensor",
      [](OpContext&, const ValueList& a) {
        return IValue(embedding(tensor_arg(a[0]), tensor_arg(a[1])));
      });
}

}  // namespace d2s::kernels
