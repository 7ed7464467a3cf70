// Derivatives of the ops along one dimension (core/ops/kernels_sort.cpp), as PyTorch's
// derivatives.yaml has them: sort's and topk's values send g back to the indices they
// came from; gather's gradient scatter-adds g (repeats add); scatter's self keeps g
// except where it was overwritten and src gets g gathered; cumsum's is the reversed
// cumulative sum of g; flip and roll move g back.
#include "core/autograd/derivatives_util.h"
#include "core/ops/kernels.h"

namespace d2s::grad {

namespace {

using In = const GradInputs&;

// g scatter-added into zeros of `shape` along dim at `index`.
Tensor scatter_back(const Shape& shape, const IValue& dim, const Tensor& index, const Tensor& g) {
  return op("aten::scatter_add", {IValue(Tensor::zeros(shape)), dim, IValue(index), IValue(g)});
}

ValueList sorted_grad(In in, size_t dim_arg) {
  const Tensor& x = in.args[0].to_tensor();
  const Tensor& indices = in.result.tuple_items()[1].to_tensor();
  if (x.dim() == 0) return first_only(in, in.grads[0]);
  return first_only(in, scatter_back(x.shape(), in.args[dim_arg], indices, in.grads[0]));
}

ValueList gather_grad(In in) {
  const Tensor& x = in.args[0].to_tensor();
  return first_only(in, scatter_back(x.shape(), in.args[1], tensor_of(in.args[2]), in.grads[0]));
}

// scatter (src or value) and scatter_add: self's gradient is g, with the written places
// zeroed unless the op adds; src's is g read at the index.
ValueList scatter_grad(In in, bool adds) {
  const Tensor& g = in.grads[0];
  ValueList out(in.args.size());
  if (wants_grad(in.args[0])) {
    out[0] = adds ? IValue(g)
                  : IValue(op("aten::scatter", {IValue(g), in.args[1], in.args[2], IValue(0.0)}));
  }
  if (in.args[3].is_tensor() && wants_grad(in.args[3])) {
    out[3] = IValue(op("aten::gather", {IValue(g), in.args[1], in.args[2]}));
  }
  return out;
}

ValueList cumsum_grad(In in) {
  const IValue dims = IValue::int_list({in.args[1].to_int()});
  const Tensor& g = in.grads[0];
  if (g.dim() == 0) return first_only(in, g);
  const Tensor flipped = op("aten::flip", {IValue(g), dims});
  const Tensor summed = op("aten::cumsum", {IValue(flipped), in.args[1]});
  return first_only(in, op("aten::flip", {IValue(summed), dims}));
}

// d out_j / d x_i = prod_{k <= j, k != i} x_k for j >= i: exact where x has zeros too.
ValueList cumprod_grad(In in) {
  const Tensor x = in.args[0].to_tensor().to(DType::Float32);
  const Tensor g = in.grads[0].to(DType::Float32);
  Tensor gx = Tensor::zeros(x.shape());
  const int64_t nd = x.dim();
  const int64_t dim = kernels::wrap_dim(in.args[1].to_int(), nd);
  int64_t outer = 1, size = 1, inner = 1;
  for (int64_t d = 0; d < nd; ++d) {
    if (d < dim) outer *= x.shape()[d];
    if (d == dim) size = x.shape()[d];
    if (d > dim) inner *= x.shape()[d];
  }
  const float* px = x.data<float>();
  const float* pg = g.data<float>();
  float* po = gx.data<float>();
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      auto at = [&](int64_t j) { return (o * size + j) * inner + i; };
      double left = 1;  // prod of x before position k
      for (int64_t k = 0; k < size; ++k) {
        double run = left, total = 0;
        for (int64_t j = k; j < size; ++j) {
          if (j > k) run *= px[at(j)];
          total += pg[at(j)] * run;
        }
        po[at(k)] = static_cast<float>(total);
        left *= px[at(k)];
      }
    }
  }
  return first_only(in, gx);
}

ValueList flip_grad(In in) {
  return first_only(in, op("aten::flip", {IValue(in.grads[0]), in.args[1]}));
}

ValueList roll_grad(In in) {
  std::vector<int64_t> back;
  for (int64_t s : in.args[1].to_int_list()) back.push_back(-s);
  return first_only(in,
                    op("aten::roll", {IValue(in.grads[0]), IValue::int_list(back), in.args[2]}));
}

}  // namespace

void register_derivatives_sort(OpRegistry& r) {
  // sort/topk read their indices (the result); gather/scatter their index argument.
  r.set_derivative(
      "aten::sort", [](In in) { return sorted_grad(in, 1); }, SavedData::result_only());
  r.set_derivative(
      "aten::sort.stable", [](In in) { return sorted_grad(in, 2); }, SavedData::result_only());
  r.set_derivative(
      "aten::topk", [](In in) { return sorted_grad(in, 2); }, SavedData::result_only());
  r.set_derivative("aten::gather", gather_grad, SavedData::args({2}));
  for (const char* n :
       {"aten::scatter.src", "aten::scatter.value", "aten::scatter_.src", "aten::scatter_.value"}) {
    r.set_derivative(
        n, [](In in) { return scatter_grad(in, false); }, SavedData::args({2}));
  }
  for (const char* n : {"aten::scatter_add", "aten::scatter_add_"}) {
    r.set_derivative(
        n, [](In in) { return scatter_grad(in, true); }, SavedData::args({2}));
  }
  r.set_derivative("aten::cumsum", cumsum_grad, SavedData::nothing());
  r.set_derivative("aten::cumprod", cumprod_grad, SavedData::args({0}));
  r.set_derivative("aten::flip", flip_grad, SavedData::nothing());
  r.set_derivative("aten::roll", roll_grad, SavedData::nothing());
}

}  // namespace d2s::grad
