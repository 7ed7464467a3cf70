// The builtin op table, assembled: each family's kernels (core/ops/kernels_*.cpp),
// the autograd's own ops (autograd_ops.cpp), then every derivative
// (derivatives_*.cpp). It is put together here, in the room above both, because the
// table's derivative column is the autograd's; core/ops declares
// OpRegistry::builtin() and code below the autograd reaches other ops through it.
//
// OpRegistry::call is defined here too: a call binds in the table and runs through
// run_op, which records the op on the tape, as every route's call must.
#include <new>
#include <string>

#include "core/autograd/autograd.h"
#include "core/base/error.h"
#include "core/ops/kernels.h"

// Families whose register_* kernels.h does not declare.
namespace d2s::kernels {
// kernels_inplace.cpp: the in-place activations and dropout (sigmoid_, elu_, dropout_,
// ...), registered last as they reuse the out-of-place kernels.
void register_inplace(OpRegistry& r);
void register_dict(OpRegistry& r);  // kernels_dict.cpp: DictConstruct, keys, items, ...
}  // namespace d2s::kernels

namespace d2s {

const OpRegistry& OpRegistry::builtin() {
  // Built once (thread-safe static init). Registration order is overload order:
  // Python-number overloads come first so that `2 + 3` stays an int while
  // `x + 3` falls through to the Tensor overload.
  static const OpRegistry registry = [] {
    OpRegistry r;
    kernels::register_scalar(r);
    kernels::register_create(r);
    kernels::register_elementwise(r);
    kernels::register_unary(r);
    kernels::register_reduce(r);
    kernels::register_linalg(r);
    kernels::register_shape(r);
    kernels::register_nn(r);
    kernels::register_autograd_ops(r);
    kernels::register_loss(r);
    kernels::register_conv(r);
    kernels::register_conv_transpose(r);
    kernels::register_resize(r);
    kernels::register_resample_taps(r);
    kernels::register_pad(r);
    kernels::register_pool(r);
    kernels::register_activation(r);
    kernels::register_norm(r);
    kernels::register_loss_prob(r);
    kernels::register_rnn(r);
    kernels::register_embedding(r);
    kernels::register_index(r);
    kernels::register_sort(r);
    kernels::register_tensorops(r);
    kernels::register_einsum(r);
    kernels::register_diagonal(r);
    kernels::register_as_strided(r);
    kernels::register_inplace(r);  // after the out-of-place ops it writes back
    kernels::register_str(r);
    kernels::register_list(r);  // last: Tensor and number overloads of add/add_ come first
    kernels::register_dict(r);
    register_derivatives(r);
    return r;
  }();
  return registry;
}

IValue OpRegistry::call(OpContext& ctx, std::string_view base_name, const ValueList& positional,
                        const std::vector<std::pair<std::string, IValue>>& keywords,
                        const SourceRange& where) const {
  Bound bound = bind(base_name, positional, keywords, where);
  try {
    return run_op(*bound.op, ctx, bound.args);
  } catch (const Error& e) {
    if (e.range().known() || e.range().file) throw;
    throw Error(e.message(), where, e.hint(), e.exit_code());
  } catch (const std::bad_alloc&) {
    const size_t colons = base_name.rfind("::");  // "mm" for "aten::mm", as PyTorch says
    const std::string_view short_name =
        colons == std::string_view::npos ? base_name : base_name.substr(colons + 2);
    throw Error(std::string(short_name) + "(): out of memory", where);
  } catch (const std::exception& e) {
    // A kernel bug must still end in a diagnostic, never a crash.
    throw Error("internal error in " + std::string(base_name) + ": " + e.what(), where);
  }
}

}  // namespace d2s
