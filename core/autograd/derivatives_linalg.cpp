// Derivatives of the matrix products and transposes (core/ops/kernels_linalg.cpp) and
// of linear (core/ops/kernels_nn.cpp): products of the gradient with the other operand.
#include "core/autograd/derivatives_util.h"
#include "core/ops/kernels.h"
#include "core/tensor/broadcast.h"

namespace d2s::grad {

namespace {

using In = const GradInputs&;

Tensor mm(const Tensor& a, const Tensor& b) {
  return op("aten::mm", {IValue(a), IValue(b)});
}
Tensor matmul(const Tensor& a, const Tensor& b) {
  return op("aten::matmul", {IValue(a), IValue(b)});
}
Tensor unsqueeze(const Tensor& a, int64_t dim) {
  return op("aten::unsqueeze", {IValue(a), IValue(dim)});
}

// a @ b for every rank: 1-D operands are made matrices (a row, b a column) and the
// batch dims broadcast; each side's gradient is summed back to its own shape.
ValueList matmul_grad(In in) {
  const Tensor a = in.args[0].to_tensor();
  const Tensor b = in.args[1].to_tensor();
  const Tensor a2 = a.dim() == 1 ? unsqueeze(a, 0) : a;
  const Tensor b2 = b.dim() == 1 ? unsqueeze(b, 1) : b;
  Shape batch_a(a2.shape().begin(), a2.shape().end() - 2);
  Shape batch_b(b2.shape().begin(), b2.shape().end() - 2);
  Shape out = broadcast_shapes(batch_a, batch_b);
  out.push_back(a2.shape()[a2.shape().size() - 2]);
  out.push_back(b2.shape().back());
  const Tensor g = reshape(in.grads[0], out);
  IValue ga, gb;
  if (wants_grad(in.args[0])) {
    ga = IValue(reshape(sum_to(matmul(g, transpose_last(b2)), a2.shape()), a.shape()));
  }
  if (wants_grad(in.args[1])) {
    gb = IValue(reshape(sum_to(matmul(transpose_last(a2), g), b2.shape()), b.shape()));
  }
  return {ga, gb};
}

ValueList addmm_grad(In in) {
  const Tensor& g = in.grads[0];
  const double beta = number_of(in.args[3]);
  const double alpha = number_of(in.args[4]);
  IValue gs = grad_for(in.args[0], beta == 1 ? g : scale(g, beta));
  IValue g1, g2;
  if (wants_grad(in.args[1])) {
    g1 = IValue(scale(mm(g, transpose_last(in.args[2].to_tensor())), alpha));
  }
  if (wants_grad(in.args[2])) {
    g2 = IValue(scale(mm(transpose_last(in.args[1].to_tensor()), g), alpha));
  }
  return {gs, g1, g2, IValue(), IValue()};
}

// out = input @ weight^T + bias over any leading dims of input.
ValueList linear_grad(In in) {
  const Tensor x = in.args[0].to_tensor();
  const Tensor w = in.args[1].to_tensor();
  const Tensor& g = in.grads[0];
  IValue gx, gw, gb;
  if (wants_grad(in.args[0])) gx = IValue(reshape(matmul(g, w), x.shape()));
  const int64_t out_features = w.dim() == 2 ? w.shape()[0] : 1;
  const Tensor g2 = reshape(g, {-1, out_features});
  if (wants_grad(in.args[1])) {
    const Tensor x2 = reshape(x, {-1, x.shape().back()});
    gw = IValue(reshape(mm(transpose_last(g2), x2), w.shape()));
  }
  if (wants_grad(in.args[2])) {
    gb = IValue(reshape(op("aten::sum", {IValue(g2), IValue::int_list({0})}),
                        in.args[2].to_tensor().shape()));
  }
  return {gx, gw, gb};
}

ValueList permute_grad(In in, std::vector<int64_t> dims) {
  const int64_t n = static_cast<int64_t>(dims.size());
  std::vector<int64_t> inverse(dims.size());
  for (int64_t i = 0; i < n; ++i) {
    inverse[static_cast<size_t>(kernels::wrap_dim(dims[static_cast<size_t>(i)], n))] = i;
  }
  ValueList out(in.args.size());
  out[0] = IValue(op("aten::permute", {IValue(in.grads[0]), IValue::int_list(inverse)}));
  return out;
}

}  // namespace

void register_derivatives_linalg(OpRegistry& r) {
  // Products read their operands, never their result: an in-place activation on a
  // product's output (nn.Linear then nn.ReLU(inplace=True)) leaves their backward intact,
  // as in PyTorch.
  const SavedData operands = SavedData::args({0, 1});
  r.set_derivative("aten::mm", matmul_grad, operands);
  r.set_derivative("aten::matmul", matmul_grad, operands);
  r.set_derivative("aten::bmm", matmul_grad, operands);
  r.set_derivative("aten::mv", matmul_grad, operands);
  r.set_derivative("aten::dot", matmul_grad, operands);
  r.set_derivative("aten::outer", [](In in) {
    const Tensor& g = in.grads[0];
    IValue ga, gb;
    if (wants_grad(in.args[0])) ga = IValue(op("aten::mv", {IValue(g), in.args[1]}));
    if (wants_grad(in.args[1])) {
      gb = IValue(op("aten::mv", {IValue(transpose_last(g)), in.args[0]}));
    }
    return ValueList{ga, gb};
  });
  r.set_derivative("aten::addmm", addmm_grad, SavedData::args({1, 2}));
  r.set_derivative("aten::linear", linear_grad, operands);  // bias: its shape only
  r.set_derivative(
      "aten::t",
      [](In in) {
        const Tensor& g = in.grads[0];
        return ValueList{IValue(g.dim() < 2 ? g : transpose_last(g))};
      },
      SavedData::nothing());
  r.set_derivative(
      "aten::numpy_T",
      [](In in) {
        std::vector<int64_t> dims;
        for (int64_t d = in.grads[0].dim(); d-- > 0;) dims.push_back(d);
        return permute_grad(in, dims);
      },
      SavedData::nothing());
  r.set_derivative(
      "aten::transpose.int",
      [](In in) {
        return ValueList{
            IValue(op("aten::transpose", {IValue(in.grads[0]), in.args[1], in.args[2]})), IValue(),
            IValue()};
      },
      SavedData::nothing());
  // The transposes read no data (PyTorch's TransposeBackward saves none): a write into
  // their input after them is no error at backward.
  r.set_derivative(
      "aten::permute", [](In in) { return permute_grad(in, in.args[1].to_int_list()); },
      SavedData::nothing());
}

}  // namespace d2s::grad
