// Helpers of the derivative formulas, and the one function that attaches them all.
#include "core/autograd/derivatives_util.h"

#include <algorithm>

#include "core/base/error.h"
#include "core/ops/kernels.h"

// derivatives_inplace.cpp: sigmoid_, elu_, dropout_, ..., registered after the
// out-of-place derivatives some of them reuse.
namespace d2s::grad {
void register_derivatives_inplace(OpRegistry& r);
}  // namespace d2s::grad

namespace d2s {

namespace {

// The gradients a grad:: node receives, one entry per output of the forward node (a
// tensor, None, or a list for a Tensor[] output), flattened to one per float tensor
// of the result as a derivative takes them (zeros where none came).
std::vector<Tensor> flat_grads(const ValueList& given, const IValue& result) {
  ValueList items;
  for (const IValue& g : given) {
    if (g.is_list() || g.is_tuple()) {
      items.insert(items.end(), g.items().begin(), g.items().end());
    } else {
      items.push_back(g);
    }
  }
  std::vector<Tensor> outputs = float_tensors_of(result);
  std::vector<Tensor> grads;
  // A result's float tensors are its items that are float tensors: match by position
  // among all items when the result is a list or tuple.
  ValueList result_items =
      result.is_list() || result.is_tuple() ? result.items() : ValueList{result};
  for (size_t i = 0; i < result_items.size(); ++i) {
    const IValue& r = result_items[i];
    if (!r.is_tensor() || r.to_tensor().dtype() != DType::Float32) continue;
    const IValue g = i < items.size() ? items[i] : IValue();
    grads.push_back(g.is_tensor() ? g.to_tensor() : Tensor::zeros(r.to_tensor().shape()));
  }
  return grads;
}

// A forward node's inputs bound to its op. A node may hold every argument in schema
// order, keyword-only ones included (a trace records add's alpha): when the plain
// positional binding fails, an overload taking exactly that many arguments gets the
// keyword-only ones by name.
OpRegistry::Bound bind_node_args(const std::string& base, const ValueList& items) {
  const OpRegistry& reg = OpRegistry::builtin();
  try {
    return reg.bind(base, items, {}, SourceRange());
  } catch (const Error&) {
    for (const OpDef& def : reg.overloads(base)) {
      const auto& params = def.schema.arguments;
      if (params.size() != items.size()) continue;
      ValueList positional;
      std::vector<std::pair<std::string, IValue>> keywords;
      for (size_t i = 0; i < params.size(); ++i) {
        if (params[i].kwarg_only) {
          keywords.emplace_back(params[i].name, items[i]);
        } else {
          positional.push_back(items[i]);
        }
      }
      if (keywords.empty()) continue;
      try {
        return reg.bind(base, positional, keywords, SourceRange());
      } catch (const Error&) {
      }
    }
    throw;
  }
}

// grad::<op>(Any[] grads, Any[] args, Any result) -> Any[]: one node of a static
// backward graph (d2s grad) running the derivative of the overload of aten::<op> that
// the forward arguments pick (as the executor picks it); one result per argument.
void register_backward_ops(OpRegistry& r) {
  std::vector<std::string> bases;
  for (const std::string& base : r.base_names()) {
    bool any = false;
    for (const OpDef& def : r.overloads(base)) any = any || static_cast<bool>(def.derivative);
    if (any && base.rfind("aten::", 0) == 0) bases.push_back(base);
  }
  for (const std::string& base : bases) {
    r.add("grad::" + base.substr(6) + "(Any[] grads, Any[] args, Any result) -> Any[]",
          [base](OpContext&, const ValueList& a) {
            // Bound again, as the executor binds the node: defaults filled in.
            OpRegistry::Bound bound = bind_node_args(base, a[1].items());
            const OpDef* fwd = bound.op;
            const ValueList& args = bound.args;
            if (!fwd->derivative) {
              throw Error(fwd->schema.qualified_name() + " is not differentiable in d2s");
            }
            std::vector<Tensor> grads = flat_grads(a[0].items(), a[2]);
            // No float result (an op on int64 indices, such as select): no gradient
            // flows through it.
            if (grads.empty()) return IValue::list(ValueList(a[1].items().size()));
            ValueList out = fwd->derivative(GradInputs{args, a[2], grads});
            out.resize(a[1].items().size());  // one per node input
            return IValue::list(std::move(out));
          });
  }
}

}  // namespace

void register_derivatives(OpRegistry& r) {
  grad::register_derivatives_elementwise(r);
  grad::register_derivatives_unary(r);
  grad::register_derivatives_reduce(r);
  grad::register_derivatives_linalg(r);
  grad::register_derivatives_nn(r);
  grad::register_derivatives_shape(r);
  grad::register_derivatives_loss(r);
  grad::register_derivatives_conv(r);
  grad::register_derivatives_resize(r);
  grad::register_derivatives_activation(r);
  grad::register_derivatives_norm(r);
  grad::register_derivatives_loss_prob(r);
  grad::register_derivatives_rnn(r);
  grad::register_derivatives_index(r);
  grad::register_derivatives_sort(r);
  grad::register_derivatives_tensorops(r);
  grad::register_derivatives_inplace(r);  // after the out-of-place derivatives it reuses
  register_backward_ops(r);
}

namespace grad {

Tensor op(std::string_view name, const ValueList& args) {
  OpContext ctx;
  IValue v = OpRegistry::builtin().call(ctx, name, args, {}, SourceRange());
  return v.to_tensor();
}

Tensor add(const Tensor& a, const Tensor& b) {
  return op("aten::add", {IValue(a), IValue(b)});
}
Tensor sub(const Tensor& a, const Tensor& b) {
  return op("aten::sub", {IValue(a), IValue(b)});
}
Tensor mul(const Tensor& a, const Tensor& b) {
  return op("aten::mul", {IValue(a), IValue(b)});
}
Tensor div(const Tensor& a, const Tensor& b) {
  return op("aten::div", {IValue(a), IValue(b)});
}
Tensor scale(const Tensor& a, double s) {
  return op("aten::mul", {IValue(a), IValue(s)});
}
Tensor neg(const Tensor& a) {
  return op("aten::neg", {IValue(a)});
}
Tensor transpose_last(const Tensor& a) {
  return op("aten::transpose", {IValue(a), IValue(int64_t{-2}), IValue(int64_t{-1})});
}
Tensor reshape(const Tensor& a, const Shape& shape) {
  return op("aten::reshape", {IValue(a), IValue::int_list(shape)});
}

Tensor sum_to(const Tensor& g, const Shape& shape) {
  if (g.shape() == shape) return g;
  const int64_t lead = g.dim() - static_cast<int64_t>(shape.size());
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < g.dim(); ++d) {
    if (d < lead || (shape[static_cast<size_t>(d - lead)] == 1 && g.shape()[d] != 1)) {
      dims.push_back(d);
    }
  }
  Tensor s = dims.empty() ? g : op("aten::sum", {IValue(g), IValue::int_list(dims), IValue(true)});
  return reshape(s, shape);
}

bool wants_grad(const IValue& arg) {
  return arg.is_tensor() && arg.to_tensor().defined() && arg.to_tensor().dtype() == DType::Float32;
}

ValueList first_only(const GradInputs& in, Tensor g) {
  ValueList out(in.args.size());
  if (wants_grad(in.args[0])) out[0] = IValue(std::move(g));
  return out;
}

IValue grad_for(const IValue& arg, const Tensor& g) {
  if (!wants_grad(arg)) return IValue();
  return IValue(sum_to(g, arg.to_tensor().shape()));
}

std::vector<int64_t> reduce_dims_of(const IValue& dim, int64_t rank) {
  std::vector<int64_t> dims;
  if (!dim.is_none()) {
    if (dim.is_int()) {
      dims.push_back(kernels::wrap_dim(dim.to_int(), rank));
    } else {
      for (int64_t d : dim.to_int_list()) dims.push_back(kernels::wrap_dim(d, rank));
    }
  }
  if (dims.empty()) {
    for (int64_t d = 0; d < rank; ++d) dims.push_back(d);
  }
  std::sort(dims.begin(), dims.end());
  return dims;
}

Tensor unsqueeze_dims(const Tensor& g, const std::vector<int64_t>& dims, int64_t rank,
                      bool keepdim) {
  if (keepdim) return g;
  Shape shape = g.shape();
  for (int64_t d : dims) {
    if (d <= rank) shape.insert(shape.begin() + std::min<int64_t>(d, shape.size()), 1);
  }
  return reshape(g, shape);
}

Tensor tensor_of(const IValue& v) {
  return kernels::tensor_arg(v);
}

double number_of(const IValue& v) {
  if (v.is_tensor()) return v.to_tensor().item();
  return v.to_double();
}

}  // namespace grad
}  // namespace d2s
