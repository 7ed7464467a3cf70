// Derivatives of the shape ops (core/ops/kernels_shape.cpp): the gradient is moved back
// where each element came from.
#include "core/autograd/derivatives_util.h"
#include "core/ops/kernels.h"

namespace d2s::grad {

namespace {

using In = const GradInputs&;

// Same elements in another shape: view, reshape, flatten, squeeze, unsqueeze.
ValueList reshape_back(In in) {
  if (!wants_grad(in.args[0])) return ValueList(in.args.size());
  return first_only(in, reshape(in.grads[0], in.args[0].to_tensor().shape()));
}

// Same shape and elements: clone, contiguous, to, type_as, cpu.
ValueList identity(In in) {
  return first_only(in, in.grads[0]);
}

ValueList expand_grad(In in) {
  ValueList out(in.args.size());
  out[0] = grad_for(in.args[0], in.grads[0]);
  return out;
}

// repeat: the gradient of shape [r0*s0, r1*s1, ...] viewed as [r0, s0, r1, s1, ...]
// and summed over the repeat dims.
ValueList repeat_grad(In in) {
  const Tensor x = in.args[0].to_tensor();
  const std::vector<int64_t> reps = in.args[1].to_int_list();
  Shape padded(reps.size() - static_cast<size_t>(x.dim()), 1);
  padded.insert(padded.end(), x.shape().begin(), x.shape().end());
  Shape split;
  std::vector<int64_t> rep_dims;
  for (size_t i = 0; i < reps.size(); ++i) {
    rep_dims.push_back(static_cast<int64_t>(split.size()));
    split.push_back(reps[i]);
    split.push_back(padded[i]);
  }
  Tensor g = reshape(in.grads[0], split);
  if (!rep_dims.empty()) g = op("aten::sum", {IValue(g), IValue::int_list(rep_dims)});
  return first_only(in, reshape(g, x.shape()));
}

ValueList select_grad(In in) {
  const Tensor zeros = Tensor::zeros(in.args[0].to_tensor().shape());
  return first_only(
      in, op("aten::select_scatter", {IValue(zeros), IValue(in.grads[0]), in.args[1], in.args[2]}));
}

ValueList slice_grad(In in) {
  const Tensor zeros = Tensor::zeros(in.args[0].to_tensor().shape());
  return first_only(in, op("aten::slice_scatter", {IValue(zeros), IValue(in.grads[0]), in.args[1],
                                                   in.args[2], in.args[3], in.args[4]}));
}

// narrow(self, dim, start, length) is slice(self, dim, start, start + length).
ValueList narrow_grad(In in) {
  const Tensor self = in.args[0].to_tensor();
  const Tensor zeros = Tensor::zeros(self.shape());
  const int64_t dim = in.args[1].to_int();
  int64_t start = in.args[2].to_int();
  if (start < 0) start += self.shape()[dim < 0 ? dim + self.dim() : dim];
  return first_only(
      in, op("aten::slice_scatter", {IValue(zeros), IValue(in.grads[0]), in.args[1], IValue(start),
                                     IValue(start + in.args[3].to_int()), IValue(int64_t{1})}));
}

// select_scatter / slice_scatter(self, src, where...): self's gradient is g with
// the written part zeroed; src's is the written part of g.
ValueList scatter_grad(In in, const char* scatter, const char* gather) {
  const Tensor& g = in.grads[0];
  ValueList where(in.args.begin() + 2, in.args.end());
  ValueList out(in.args.size());
  ValueList gather_args = {IValue(g)};
  gather_args.insert(gather_args.end(), where.begin(), where.end());
  const Tensor part = op(gather, gather_args);
  if (wants_grad(in.args[0])) {
    ValueList scatter_args = {IValue(g), IValue(Tensor::zeros(part.shape()))};
    scatter_args.insert(scatter_args.end(), where.begin(), where.end());
    out[0] = IValue(op(scatter, scatter_args));
  }
  if (wants_grad(in.args[1])) out[1] = grad_for(in.args[1], part);
  return out;
}

// cat: the gradient split at the inputs' sizes along dim; stack: unbound along dim.
ValueList cat_grad(In in, bool stack) {
  const ValueList& items = in.args[0].items();
  const int64_t rank = in.grads[0].dim();
  const int64_t dim = kernels::wrap_dim(in.args[1].to_int(), rank);
  ValueList parts;
  if (stack) {
    const Tensor& g = in.grads[0];
    for (int64_t i = 0; i < g.shape()[static_cast<size_t>(dim)]; ++i) {
      parts.push_back(IValue(op("aten::select", {IValue(g), IValue(dim), IValue(i)})));
    }
  } else {
    std::vector<int64_t> sizes;
    for (const IValue& item : items) {
      const Tensor t = tensor_of(item);
      sizes.push_back(t.dim() == 1 && t.numel() == 0 ? 0 : t.shape()[static_cast<size_t>(dim)]);
    }
    OpContext ctx;
    parts =
        OpRegistry::builtin()
            .call(ctx, "aten::split", {IValue(in.grads[0]), IValue::int_list(sizes), IValue(dim)},
                  {}, SourceRange())
            .items();
  }
  for (size_t i = 0; i < parts.size() && i < items.size(); ++i) {
    if (!wants_grad(items[i])) parts[i] = IValue();
  }
  return {IValue::list(parts), IValue()};
}

// chunk, split, unbind: the outputs' gradients joined back along dim.
ValueList join_grad(In in, size_t dim_arg, bool unbind) {
  ValueList parts;
  for (const Tensor& g : in.grads) parts.push_back(IValue(g));
  const IValue dim = in.args[dim_arg];
  const char* joiner = unbind ? "aten::stack" : "aten::cat";
  return first_only(in, op(joiner, {IValue::list(parts), dim}));
}

ValueList index_select_grad(In in) {
  const Tensor x = in.args[0].to_tensor();
  const int64_t dim = kernels::wrap_dim(in.args[1].to_int(), x.dim());
  const Tensor index = tensor_of(in.args[2]).to(DType::Int64);
  const Tensor g = in.grads[0].to(DType::Float32);
  Tensor gx = Tensor::zeros(x.shape());
  const int64_t size = x.dim() ? x.shape()[static_cast<size_t>(dim)] : 1;
  int64_t inner = 1;
  for (int64_t d = dim + 1; d < x.dim(); ++d) inner *= x.shape()[static_cast<size_t>(d)];
  const int64_t n = index.numel();
  const int64_t outer = size * inner != 0 ? x.numel() / (size * inner) : 0;
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t k = 0; k < n; ++k) {
      const int64_t at = kernels::wrap_dim(index.data<int64_t>()[k], size);
      for (int64_t i = 0; i < inner; ++i) {
        gx.data<float>()[(o * size + at) * inner + i] += g.data<float>()[(o * n + k) * inner + i];
      }
    }
  }
  return first_only(in, gx);
}

}  // namespace

void register_derivatives_shape(OpRegistry& r) {
  // These formulas move the gradient by the arguments' shapes and index numbers: they
  // read no tensor's data (index_select excepted: its index), so an in-place op on
  // what they saw cannot make them wrong.
  auto set = [&r](const std::string& name, Derivative d, SavedData saved = SavedData::nothing()) {
    r.set_derivative(name, std::move(d), saved);
  };
  for (const char* name :
       {"aten::reshape", "aten::view", "aten::view_as", "aten::reshape_as",
        "aten::flatten.using_ints", "aten::squeeze", "aten::squeeze.dim", "aten::unsqueeze"}) {
    set(name, reshape_back);
  }
  for (const char* name : {"aten::contiguous", "aten::clone", "aten::to.dtype", "aten::to.device",
                           "aten::to.other", "aten::type_as", "aten::cpu"}) {
    set(name, identity);
  }
  set("aten::expand", expand_grad);
  set("aten::expand_as", expand_grad);
  set("aten::repeat", repeat_grad);
  set("aten::select.int", select_grad);
  set("aten::slice.Tensor", slice_grad);
  set("aten::narrow", narrow_grad);
  set("aten::select_scatter",
      [](In in) { return scatter_grad(in, "aten::select_scatter", "aten::select"); });
  set("aten::slice_scatter",
      [](In in) { return scatter_grad(in, "aten::slice_scatter", "aten::slice"); });
  // An overwrite (copy_, fill_, zero_, uniform_, normal_): the value self had gets a zero gradient
  // (it no longer reaches the result), as PyTorch's zeros_like(grad); copy_'s source gets g.
  auto overwritten = [](In in) {
    ValueList out(in.args.size());
    if (wants_grad(in.args[0])) out[0] = IValue(Tensor::zeros(in.args[0].to_tensor().shape()));
    return out;
  };
  set("aten::copy_", [overwritten](In in) {
    ValueList out = overwritten(in);
    out[1] = grad_for(in.args[1], in.grads[0]);
    return out;
  });
  set("aten::fill_.Scalar", overwritten);
  set("aten::zero_", overwritten);
  set("aten::uniform_", overwritten);
  set("aten::normal_", overwritten);
  set("aten::cat", [](In in) { return cat_grad(in, false); });
  set("aten::stack", [](In in) { return cat_grad(in, true); });
  set("aten::chunk", [](In in) { return join_grad(in, 2, false); });
  set("aten::split.Tensor", [](In in) { return join_grad(in, 2, false); });
  set("aten::split.sizes", [](In in) { return join_grad(in, 2, false); });
  set("aten::unbind.int", [](In in) { return join_grad(in, 1, true); });
  set("aten::index_select", index_select_grad, SavedData::args({2}));
  set("aten::tril", [](In in) {
    return first_only(in, op("aten::tril", {IValue(in.grads[0]), in.args[1]}));
  });
  set("aten::triu", [](In in) {
    return first_only(in, op("aten::triu", {IValue(in.grads[0]), in.args[1]}));
  });
}

}  // namespace d2s::grad
