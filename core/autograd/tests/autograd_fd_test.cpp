// Every derivative in the registry against central finite differences.
//
// The test walks the op table: an op with a derivative must have a case below (so a
// new differentiable op without one fails), and an op that takes and returns tensors
// without a derivative must be tagged not differentiable in its table entry.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <map>
#include <set>

#include "core/autograd/autograd.h"
#include "core/base/error.h"
#include "core/tensor/random.h"

namespace d2s {
namespace {

enum class Kind { Any, Pos, Unit, Frac };

class Inputs {
 public:
  explicit Inputs(uint64_t seed) : gen_(seed) {}
  // A float tensor away from the kinks of abs/relu/clamp/rounding (Any: |x| in
  // [0.3, 1.3]; Pos: [0.5, 1.5]; Unit: |x| in [0.1, 0.8]; Frac: n + [0.3, 0.7]).
  IValue t(const Shape& shape, Kind kind = Kind::Any) {
    std::vector<float> v(static_cast<size_t>(shape_numel(shape)));
    for (float& x : v) {
      const float u = gen_.uniform();
      const float sign = gen_.uniform() < 0.5f ? -1.0f : 1.0f;
      switch (kind) {
        case Kind::Any:
          x = sign * (0.3f + u);
          break;
        case Kind::Pos:
          x = 0.5f + u;
          break;
        case Kind::Unit:
          x = sign * (0.1f + 0.7f * u);
          break;
        case Kind::Frac:
          x = std::floor(3 * sign * u) + 0.3f + 0.4f * gen_.uniform();
          break;
      }
    }
    return IValue(Tensor::from_floats(shape, v));
  }

 private:
  Generator gen_;
};

using Case = std::function<ValueList(Inputs&)>;
using L = std::vector<int64_t>;
IValue ints(const L& v) {
  return IValue::int_list(v);
}
IValue s(const char* text) {
  return IValue(std::string(text));
}

// One call per differentiable op (qualified name → its arguments).
const std::map<std::string, Case>& cases() {
  static const std::map<std::string, Case> table = [] {
    std::map<std::string, Case> c;
    auto unary = [&](const char* name, Kind k = Kind::Any) {
      c[name] = [k](Inputs& in) { return ValueList{in.t({2, 3}, k)}; };
    };
    for (const char* n :
         {"aten::exp",    "aten::exp2",    "aten::expm1",      "aten::sin",  "aten::cos",
          "aten::tan",    "aten::atan",    "aten::sinh",       "aten::cosh", "aten::tanh",
          "aten::erf",    "aten::sigmoid", "aten::reciprocal", "aten::neg",  "aten::abs",
          "aten::square", "aten::relu",    "aten::sign",       "aten::silu", "aten::contiguous",
          "aten::clone",  "aten::cpu",     "aten::squeeze",    "aten::t",    "aten::numpy_T",
          "aten::sum",    "aten::mean",    "aten::prod",       "aten::max",  "aten::min",
          "aten::std",    "aten::var",     "aten::norm.Scalar"}) {
      unary(n);
    }
    for (const char* n :
         {"aten::log", "aten::log2", "aten::log10", "aten::log1p", "aten::sqrt", "aten::rsqrt"}) {
      unary(n, Kind::Pos);
    }
    unary("aten::asin", Kind::Unit);
    unary("aten::acos", Kind::Unit);
    for (const char* n : {"aten::floor", "aten::ceil", "aten::trunc", "aten::round"}) {
      unary(n, Kind::Frac);
    }
    c["aten::round.decimals"] = [](Inputs& in) { return ValueList{in.t({3}, Kind::Frac), 0}; };
    for (const char* n : {"aten::add.Tensor", "aten::sub.Tensor", "aten::rsub.Tensor",
                          "aten::add_.Tensor", "aten::sub_.Tensor"}) {
      c[n] = [](Inputs& in) { return ValueList{in.t({2, 3}), in.t({3}), IValue(1.5)}; };
    }
    for (const char* n : {"aten::mul.Tensor", "aten::maximum", "aten::minimum", "aten::max.other",
                          "aten::min.other", "aten::mul_.Tensor"}) {
      c[n] = [](Inputs& in) { return ValueList{in.t({2, 3}), in.t({2, 1})}; };
    }
    for (const char* n : {"aten::div.Tensor", "aten::div_.Tensor"}) {
      c[n] = [](Inputs& in) { return ValueList{in.t({2, 3}), in.t({3}, Kind::Pos)}; };
    }
    c["aten::div.Tensor_mode"] = [](Inputs& in) {
      return ValueList{in.t({3}, Kind::Frac), IValue(Tensor::scalar(1.0)), s("floor")};
    };
    c["aten::floor_divide"] = [](Inputs& in) {
      return ValueList{in.t({3}, Kind::Frac), IValue(Tensor::scalar(1.0))};
    };
    c["aten::remainder.Tensor"] = [](Inputs& in) {
      return ValueList{in.t({3}, Kind::Frac), IValue(Tensor::scalar(1.0))};
    };
    c["aten::pow.Tensor_Tensor"] = [](Inputs& in) {
      return ValueList{in.t({2, 3}, Kind::Pos), in.t({3})};
    };
    c["aten::where.self"] = [](Inputs& in) {
      return ValueList{IValue(Tensor::from_bools({3}, {true, false, true})), in.t({2, 3}),
                       in.t({3})};
    };
    c["aten::masked_fill.Scalar"] = [](Inputs& in) {
      return ValueList{in.t({2, 3}), IValue(Tensor::from_bools({3}, {true, false, false})),
                       IValue(2.0)};
    };
    c["aten::clamp"] = [](Inputs& in) {
      return ValueList{in.t({2, 3}), IValue(-0.8), IValue(0.9)};
    };
    c["aten::clamp.Tensor"] = [](Inputs& in) {
      return ValueList{in.t({2, 3}), IValue(Tensor::full({3}, -0.85)), in.t({3}, Kind::Pos)};
    };
    c["aten::clamp_min"] = [](Inputs& in) { return ValueList{in.t({2, 3}), IValue(0.05)}; };
    c["aten::clamp_max"] = [](Inputs& in) { return ValueList{in.t({2, 3}), IValue(0.05)}; };
    // Reductions.
    for (const char* n : {"aten::sum.dim_IntList", "aten::mean.dim"}) {
      c[n] = [](Inputs& in) { return ValueList{in.t({2, 3, 2}), ints({0, 2}), IValue(false)}; };
    }
    c["aten::prod.dim_int"] = [](Inputs& in) { return ValueList{in.t({2, 3}), 1, IValue(false)}; };
    for (const char* n : {"aten::max.dim", "aten::min.dim"}) {
      c[n] = [](Inputs& in) { return ValueList{in.t({3, 4}), 1, IValue(true)}; };
    }
    for (const char* n : {"aten::amax", "aten::amin"}) {
      c[n] = [](Inputs& in) { return ValueList{in.t({3, 4}), ints({0}), IValue(false)}; };
    }
    c["aten::norm.ScalarOpt_dim"] = [](Inputs& in) {
      return ValueList{in.t({3, 4}), IValue(3.0), ints({1}), IValue(false)};
    };
    for (const char* n : {"aten::std.dim", "aten::var.dim"}) {
      c[n] = [](Inputs& in) {
        return ValueList{in.t({3, 4}), ints({1}), IValue(true), IValue(true)};
      };
    }
    c["aten::logsumexp"] = [](Inputs& in) {
      return ValueList{in.t({3, 4}), ints({1}), IValue(false)};
    };
    // Products.
    c["aten::mm"] = [](Inputs& in) { return ValueList{in.t({2, 3}), in.t({3, 4})}; };
    c["aten::matmul"] = [](Inputs& in) { return ValueList{in.t({2, 2, 3}), in.t({3})}; };
    c["aten::bmm"] = [](Inputs& in) { return ValueList{in.t({2, 2, 3}), in.t({2, 3, 2})}; };
    c["aten::mv"] = [](Inputs& in) { return ValueList{in.t({2, 3}), in.t({3})}; };
    c["aten::dot"] = [](Inputs& in) { return ValueList{in.t({3}), in.t({3})}; };
    c["aten::outer"] = [](Inputs& in) { return ValueList{in.t({3}), in.t({2})}; };
    c["aten::addmm"] = [](Inputs& in) {
      return ValueList{in.t({4}), in.t({2, 3}), in.t({3, 4}), IValue(0.5), IValue(2.0)};
    };
    c["aten::linear"] = [](Inputs& in) {
      return ValueList{in.t({2, 2, 3}), in.t({4, 3}), in.t({4})};
    };
    c["aten::transpose.int"] = [](Inputs& in) { return ValueList{in.t({2, 3, 4}), 0, 2}; };
    c["aten::permute"] = [](Inputs& in) { return ValueList{in.t({2, 3, 4}), ints({2, 0, 1})}; };
    // nn.
    c["aten::gelu"] = [](Inputs& in) { return ValueList{in.t({2, 3}), s("none")}; };
    c["aten::leaky_relu"] = [](Inputs& in) { return ValueList{in.t({2, 3}), IValue(0.1)}; };
    c["aten::softplus"] = [](Inputs& in) {
      return ValueList{in.t({2, 3}), IValue(2.0), IValue(20.0)};
    };
    for (const char* n : {"aten::softmax.int", "aten::log_softmax.int"}) {
      c[n] = [](Inputs& in) { return ValueList{in.t({2, 3}), 1, IValue()}; };
    }
    c["aten::layer_norm"] = [](Inputs& in) {
      return ValueList{in.t({2, 3}), ints({3}), in.t({3}), in.t({3}), IValue(1e-5), IValue(true)};
    };
    // Convolution and pooling (core/autograd/derivatives_conv.cpp): strides, padding, dilation,
    // groups, 'same' with an even kernel, ceil_mode windows.
    c["aten::conv1d"] = [](Inputs& in) {
      return ValueList{in.t({2, 4, 7}), in.t({6, 2, 3}), in.t({6}), ints({2}),
                       ints({1}),       ints({2}),       2};
    };
    c["aten::conv1d.padding"] = [](Inputs& in) {
      return ValueList{in.t({1, 3, 6}), in.t({2, 3, 4}), IValue(), ints({1}),
                       s("same"),       ints({1}),       1};
    };
    c["aten::conv2d"] = [](Inputs& in) {
      return ValueList{in.t({2, 2, 5, 4}), in.t({4, 1, 3, 2}), in.t({4}), ints({2, 1}),
                       ints({2, 1}),       ints({1, 2}),       2};
    };
    c["aten::conv2d.padding"] = [](Inputs& in) {
      return ValueList{in.t({1, 2, 4, 5}), in.t({3, 2, 2, 3}), in.t({3}), ints({1, 1}),
                       s("same"),          ints({2, 1}),       1};
    };
    // max_pool1d: distinct values 0.1 apart, so that no step of the differences moves a
    // window's maximum (random values may nearly tie).
    c["aten::max_pool1d"] = [](Inputs&) {
      std::vector<float> v(28);
      for (size_t j = 0; j < v.size(); ++j) v[j] = static_cast<float>((j * 5) % 28) * 0.1f - 1.4f;
      return ValueList{IValue(Tensor::from_floats({2, 2, 7}, v)),
                       ints({3}),
                       ints({2}),
                       ints({1}),
                       ints({1}),
                       IValue(true)};
    };
    for (const char* n : {"aten::max_pool2d", "aten::max_pool2d_with_indices"}) {
      c[n] = [](Inputs& in) {
        return ValueList{in.t({1, 2, 5, 6}), ints({3, 2}), ints({2, 1}),
                         ints({1, 1}),       ints({1, 2}), IValue(true)};
      };
    }
    c["aten::avg_pool1d"] = [](Inputs& in) {
      return ValueList{in.t({2, 3, 7}), ints({3}),    ints({2}),
                       ints({1}),       IValue(true), IValue(false)};
    };
    c["aten::avg_pool2d"] = [](Inputs& in) {
      return ValueList{in.t({1, 2, 5, 6}), ints({3, 2}),  ints({2, 1}), ints({1, 1}),
                       IValue(true),       IValue(false), IValue()};
    };
    c["aten::adaptive_avg_pool1d"] = [](Inputs& in) {
      return ValueList{in.t({2, 3, 7}), ints({4})};
    };
    for (const char* n : {"aten::adaptive_avg_pool2d", "aten::adaptive_max_pool2d"}) {
      c[n] = [](Inputs& in) { return ValueList{in.t({1, 2, 5, 6}), ints({3, 4})}; };
    }
    // Transposed convolution, resampling, pixel shuffling and padding
    // (core/autograd/derivatives_resize.cpp): stride larger than the kernel, output_padding,
    // groups and dilation; scale factors and sizes, with and without align_corners.
    c["aten::conv_transpose1d"] = [](Inputs& in) {
      return ValueList{in.t({2, 4, 3}), in.t({4, 3, 2}), in.t({6}), ints({3}),
                       ints({1}),       ints({2}),       2,         ints({1})};
    };
    c["aten::conv_transpose2d.input"] = [](Inputs& in) {
      return ValueList{in.t({1, 2, 3, 2}), in.t({2, 2, 2, 3}), in.t({2}), ints({2, 3}),
                       ints({1, 0}),       ints({1, 1}),       1,         ints({1, 2})};
    };
    auto floats = [](std::vector<double> v) {
      ValueList items;
      for (double d : v) items.push_back(IValue(d));
      return IValue::list(std::move(items));
    };
    c["aten::upsample_nearest1d.vec"] = [](Inputs& in) {
      return ValueList{in.t({1, 2, 3}), ints({7}), IValue()};
    };
    c["aten::upsample_nearest2d.vec"] = [floats](Inputs& in) {
      return ValueList{in.t({1, 2, 3, 2}), IValue(), floats({1.5, 2.0})};
    };
    c["aten::upsample_linear1d.vec"] = [floats](Inputs& in) {
      return ValueList{in.t({2, 1, 4}), IValue(), IValue(false), floats({1.7})};
    };
    c["aten::upsample_bilinear2d.vec"] = [](Inputs& in) {
      return ValueList{in.t({1, 2, 3, 4}), ints({5, 3}), IValue(true), IValue()};
    };
    // Taps past the border (clamped) and a scale factor; trilinear by size.
    c["aten::upsample_bicubic2d.vec"] = [floats](Inputs& in) {
      return ValueList{in.t({1, 2, 3, 4}), IValue(), IValue(false), floats({1.5, 0.75})};
    };
    c["aten::upsample_trilinear3d.vec"] = [](Inputs& in) {
      return ValueList{in.t({1, 1, 2, 3, 2}), ints({3, 2, 4}), IValue(true), IValue()};
    };
    c["aten::__interpolate"] = [](Inputs& in) {
      return ValueList{in.t({1, 1, 3, 3}), ints({4, 5}), IValue(), s("bilinear"), IValue(false)};
    };
    c["aten::pixel_shuffle"] = [](Inputs& in) { return ValueList{in.t({1, 8, 2, 3}), 2}; };
    c["aten::pixel_unshuffle"] = [](Inputs& in) { return ValueList{in.t({2, 1, 4, 6}), 2}; };
    c["aten::pad"] = [](Inputs& in) {
      return ValueList{in.t({1, 2, 3, 4}), ints({2, 1, 1, 2}), s("reflect"), IValue()};
    };
    // Activations (core/autograd/derivatives_activation.cpp), away from their kinks.
    c["aten::hardtanh"] = [](Inputs& in) {
      return ValueList{in.t({2, 3}, Kind::Unit), IValue(-0.05), IValue(0.9)};
    };
    c["aten::relu6"] = [](Inputs& in) { return ValueList{in.t({2, 3})}; };
    c["aten::elu"] = [](Inputs& in) {
      return ValueList{in.t({2, 3}), IValue(1.5), IValue(1.2), IValue(0.8)};
    };
    c["aten::selu"] = [](Inputs& in) { return ValueList{in.t({2, 3})}; };
    // Normalisation (core/autograd/derivatives_norm.cpp). batch_norm in training, through the
    // batch statistics (running statistics None: as arguments they would be leaves
    // requiring grad that the op writes; norm_grad_test.cpp checks eval mode).
    c["aten::batch_norm"] = [](Inputs& in) {
      return ValueList{in.t({3, 2, 2}), in.t({2}),   in.t({2}),    IValue(),    IValue(),
                       IValue(true),    IValue(0.1), IValue(1e-5), IValue(true)};
    };
    c["aten::group_norm"] = [](Inputs& in) {
      return ValueList{in.t({2, 4, 3}), IValue(int64_t{2}), in.t({4}), in.t({4}), IValue(1e-5)};
    };
    c["aten::prelu"] = [](Inputs& in) { return ValueList{in.t({2, 3, 2}), in.t({3})}; };
    c["aten::glu"] = [](Inputs& in) { return ValueList{in.t({2, 4, 3}), IValue(int64_t{1})}; };
    c["aten::feature_dropout"] = [](Inputs& in) {
      return ValueList{in.t({2, 3, 2}), IValue(0.5), IValue(true)};
    };
    // kl_div with a positive target (its target gradient is NaN at 0, as PyTorch's),
    // binary_cross_entropy with an input inside (0, 1).
    c["aten::kl_div"] = [](Inputs& in) {
      return ValueList{in.t({2, 3}), in.t({2, 3}, Kind::Pos), s("batchmean"), IValue(false)};
    };
    c["aten::binary_cross_entropy"] = [](Inputs& in) {
      Tensor p = in.t({2, 3}, Kind::Unit).to_tensor();
      for (int64_t i = 0; i < p.numel(); ++i) p.data<float>()[i] = std::abs(p.data<float>()[i]);
      // A weight that requires grad is PyTorch's error (norm_test.cpp checks it).
      return ValueList{IValue(p), in.t({2, 3}, Kind::Unit), IValue(), s("mean")};
    };
    c["aten::dropout"] = [](Inputs& in) {
      return ValueList{in.t({2, 3}), IValue(0.5), IValue(true), IValue(false)};
    };
    c["aten::mse_loss"] = [](Inputs& in) {
      return ValueList{in.t({2, 3}), in.t({2, 3}), s("mean")};
    };
    // Losses (core/autograd/derivatives_loss.cpp). A zero target keeps l1's kink (input ==
    // target) 0.3 away; class weights and pos_weight get no gradient (as in PyTorch),
    // so they are left None here.
    c["aten::l1_loss"] = [](Inputs& in) {
      return ValueList{in.t({2, 3}), IValue(Tensor::zeros({2, 3})), s("mean")};
    };
    c["aten::smooth_l1_loss"] = [](Inputs& in) {
      return ValueList{in.t({2, 3}), IValue(Tensor::zeros({2, 3})), s("sum"), IValue(0.5)};
    };
    c["aten::nll_loss"] = [](Inputs& in) {
      return ValueList{in.t({3, 4}), IValue(Tensor::from_ints({3}, {0, 3, 1})), IValue(), s("mean"),
                       IValue(int64_t{1})};
    };
    c["aten::cross_entropy_loss"] = [](Inputs& in) {
      return ValueList{in.t({3, 4}),
                       IValue(Tensor::from_ints({3}, {0, 3, 1})),
                       IValue(),
                       s("mean"),
                       IValue(int64_t{-100}),
                       IValue(0.2)};
    };
    c["aten::binary_cross_entropy_with_logits"] = [](Inputs& in) {
      return ValueList{in.t({2, 3}), in.t({2, 3}, Kind::Unit), IValue(), IValue(), s("sum")};
    };
    // CTC (core/autograd/ctc_loss.cpp): padded targets with a repeated label, one input shorter
    // than T; log_probs need not be normalised for the exact derivative.
    c["aten::ctc_loss"] = [](Inputs& in) {
      return ValueList{in.t({5, 2, 4}),    IValue(Tensor::from_ints({2, 3}, {1, 2, 2, 3, 1, 0})),
                       ints({5, 4}),       ints({3, 2}),
                       IValue(int64_t{0}), s("mean"),
                       IValue(false)};
    };
    // Shapes.
    for (const char* n : {"aten::reshape", "aten::view"}) {
      c[n] = [](Inputs& in) { return ValueList{in.t({2, 3}), ints({3, 2})}; };
    }
    for (const char* n : {"aten::view_as", "aten::reshape_as"}) {
      c[n] = [](Inputs& in) { return ValueList{in.t({2, 3}), IValue(Tensor::zeros({6}))}; };
    }
    c["aten::flatten.using_ints"] = [](Inputs& in) { return ValueList{in.t({2, 3, 2}), 1, -1}; };
    c["aten::squeeze.dim"] = [](Inputs& in) { return ValueList{in.t({2, 1, 3}), 1}; };
    c["aten::unsqueeze"] = [](Inputs& in) { return ValueList{in.t({2, 3}), 1}; };
    c["aten::cat"] = [](Inputs& in) {
      return ValueList{IValue::list({in.t({2, 3}), in.t({1, 3})}), 0};
    };
    c["aten::stack"] = [](Inputs& in) {
      return ValueList{IValue::list({in.t({2, 3}), in.t({2, 3})}), 1};
    };
    c["aten::expand"] = [](Inputs& in) {
      return ValueList{in.t({3, 1}), ints({2, 3, 4}), IValue(false)};
    };
    c["aten::expand_as"] = [](Inputs& in) {
      return ValueList{in.t({3, 1}), IValue(Tensor::zeros({3, 4}))};
    };
    c["aten::repeat"] = [](Inputs& in) { return ValueList{in.t({2, 3}), ints({2, 1, 2})}; };
    c["aten::select.int"] = [](Inputs& in) { return ValueList{in.t({3, 4}), 1, -1}; };
    c["aten::slice.Tensor"] = [](Inputs& in) { return ValueList{in.t({5, 2}), 0, 1, 5, 2}; };
    c["aten::narrow"] = [](Inputs& in) { return ValueList{in.t({3, 5}), 1, -4, 2}; };
    c["aten::select_scatter"] = [](Inputs& in) { return ValueList{in.t({3, 4}), in.t({3}), 1, 2}; };
    c["aten::diagonal"] = [](Inputs& in) { return ValueList{in.t({2, 3, 4}), -1, 2, 1}; };
    c["aten::diagonal_scatter"] = [](Inputs& in) {
      return ValueList{in.t({3, 5}), in.t({3}), 1, 0, 1};
    };
    c["aten::diag_embed"] = [](Inputs& in) { return ValueList{in.t({2, 3}), 1, 0, 2}; };
    // Overlapping windows (positions repeat: their gradients add), and an offset.
    c["aten::as_strided"] = [](Inputs& in) {
      return ValueList{in.t({3, 4}), IValue::int_list({3, 2, 3}), IValue::int_list({2, 1, 2}),
                       int64_t{1}};
    };
    c["aten::slice_scatter"] = [](Inputs& in) {
      return ValueList{in.t({5, 2}), in.t({2, 2}), 0, 1, 5, 2};
    };
    // The in-place forms: self is overwritten, so only the other arguments are checked.
    c["aten::relu_"] = [](Inputs& in) { return ValueList{in.t({2, 3})}; };
    // kernels_inplace.cpp: the activations and dropout written back into self, with the
    // out-of-place cases' arguments (their derivatives read the result or a copy of self).
    for (const char* n :
         {"aten::sigmoid_", "aten::tanh_", "aten::silu_", "aten::relu6_", "aten::selu_"}) {
      c[n] = [](Inputs& in) { return ValueList{in.t({2, 3})}; };
    }
    c["aten::clamp_min_"] = [](Inputs& in) { return ValueList{in.t({2, 3}), IValue(0.05)}; };
    c["aten::clamp_max_"] = [](Inputs& in) { return ValueList{in.t({2, 3}), IValue(0.05)}; };
    c["aten::leaky_relu_"] = [](Inputs& in) { return ValueList{in.t({2, 3}), IValue(0.1)}; };
    c["aten::hardtanh_"] = [](Inputs& in) {
      return ValueList{in.t({2, 3}, Kind::Unit), IValue(-0.05), IValue(0.9)};
    };
    c["aten::elu_"] = [](Inputs& in) {
      return ValueList{in.t({2, 3}), IValue(1.5), IValue(1.2), IValue(0.8)};
    };
    c["aten::dropout_"] = [](Inputs& in) {
      return ValueList{in.t({2, 3}), IValue(0.5), IValue(true)};
    };
    c["aten::feature_dropout_"] = [](Inputs& in) {
      return ValueList{in.t({2, 3, 2}), IValue(0.5), IValue(true)};
    };
    c["aten::zero_"] = [](Inputs& in) { return ValueList{in.t({2, 3})}; };
    c["aten::uniform_"] = [](Inputs& in) { return ValueList{in.t({2, 3}), -0.5, 0.5}; };
    c["aten::normal_"] = [](Inputs& in) { return ValueList{in.t({2, 3}), 1.0, 2.0}; };
    c["aten::clamp_"] = [](Inputs& in) { return ValueList{in.t({2, 3}), -0.5, 0.5}; };
    c["aten::fill_.Scalar"] = [](Inputs& in) { return ValueList{in.t({2, 3}), 2.0}; };
    c["aten::copy_"] = [](Inputs& in) {
      return ValueList{IValue(Tensor::zeros({2, 3})), in.t({3}), IValue(false)};
    };
    c["aten::chunk"] = [](Inputs& in) { return ValueList{in.t({5, 2}), 2, 0}; };
    c["aten::split.Tensor"] = [](Inputs& in) { return ValueList{in.t({2, 5}), 2, 1}; };
    c["aten::split.sizes"] = [](Inputs& in) { return ValueList{in.t({5, 2}), ints({1, 4}), 0}; };
    c["aten::unbind.int"] = [](Inputs& in) { return ValueList{in.t({2, 3}), 1}; };
    c["aten::index_select"] = [](Inputs& in) {
      return ValueList{in.t({3, 4}), 1, IValue(Tensor::from_ints({3}, {2, 0, 2}))};
    };
    // Advanced indexing (core/autograd/derivatives_index.cpp): a repeated and a negative index,
    // a None dim and a mask; index_put with repeats accumulating and not.
    c["aten::index.Tensor"] = [](Inputs& in) {
      ValueList idx{IValue(), IValue(Tensor::from_ints({4}, {2, 0, -1, 2}))};
      return ValueList{in.t({2, 3}), IValue::list(idx)};
    };
    for (const char* n : {"aten::index_put", "aten::index_put_"}) {
      c[n] = [n](Inputs& in) {
        const bool accumulate = std::string(n) == "aten::index_put";
        ValueList idx{IValue(Tensor::from_bools({3}, {true, false, true})),
                      IValue(Tensor::from_ints({2}, {1, 1}))};
        return ValueList{in.t({3, 2}), IValue::list(idx), in.t({2}), IValue(accumulate)};
      };
    }
    // Along one dim (core/autograd/derivatives_sort.cpp): sorts on a middle dim, gather with a
    // repeated index, scatters (src, value, add; in place), scans, flip and roll.
    c["aten::sort"] = [](Inputs& in) { return ValueList{in.t({2, 4, 3}), 1, IValue(true)}; };
    c["aten::sort.stable"] = [](Inputs& in) {
      return ValueList{in.t({3, 4}), IValue(true), 0, IValue(false)};
    };
    c["aten::topk"] = [](Inputs& in) { return ValueList{in.t({3, 5}), 2, -1, IValue(false)}; };
    auto index32 = [] { return IValue(Tensor::from_ints({3, 2}, {0, 3, 2, 2, 1, 0})); };
    c["aten::gather"] = [index32](Inputs& in) { return ValueList{in.t({3, 4}), 1, index32()}; };
    // scatter's src: no repeat within a row (a repeated place keeps one src value, so
    // the others' true derivative is 0, where PyTorch's formula, like d2s's, gives g).
    for (const char* n : {"aten::scatter.src", "aten::scatter_.src"}) {
      c[n] = [](Inputs& in) {
        return ValueList{in.t({3, 4}), 1, IValue(Tensor::from_ints({3, 2}, {0, 3, 2, 1, 1, 0})),
                         in.t({3, 2})};
      };
    }
    for (const char* n : {"aten::scatter_add", "aten::scatter_add_"}) {
      c[n] = [index32](Inputs& in) { return ValueList{in.t({3, 4}), 1, index32(), in.t({3, 2})}; };
    }
    for (const char* n : {"aten::scatter.value", "aten::scatter_.value"}) {
      c[n] = [index32](Inputs& in) { return ValueList{in.t({3, 4}), 1, index32(), 0.5}; };
    }
    c["aten::cumsum"] = [](Inputs& in) { return ValueList{in.t({2, 4}), 1}; };
    c["aten::cumprod"] = [](Inputs& in) { return ValueList{in.t({4, 2}), 0}; };
    c["aten::flip"] = [](Inputs& in) { return ValueList{in.t({2, 3, 2}), ints({0, 2})}; };
    c["aten::roll"] = [](Inputs& in) {
      return ValueList{in.t({3, 4}), ints({1, -2}), ints({0, 1})};
    };
    c["aten::baddbmm"] = [](Inputs& in) {
      return ValueList{in.t({3, 1}), in.t({2, 3, 4}), in.t({2, 4, 2}), 0.5, 2.0};
    };
    // fmod away from its jumps: |self| < |other| keeps trunc(self / other) at 0 or 1.
    c["aten::fmod.Tensor"] = [](Inputs& in) {
      return ValueList{in.t({2, 3}, Kind::Frac), in.t({2, 3}, Kind::Pos)};
    };
    c["aten::fmod.Scalar"] = [](Inputs& in) { return ValueList{in.t({2, 3}, Kind::Frac), 0.75}; };
    // einsum: a batched product, and three operands with a letter only one has.
    c["aten::einsum"] = [](Inputs& in) {
      return ValueList{s("bij,bjk->bik"), IValue::list({in.t({2, 3, 4}), in.t({2, 4, 2})})};
    };
    for (const char* n : {"aten::std.correction", "aten::var.correction"}) {
      c[n] = [](Inputs& in) { return ValueList{in.t({3, 4}), ints({1}), 0, IValue(true)}; };
    }
    c["aten::tril"] = [](Inputs& in) { return ValueList{in.t({3, 4}), 0}; };
    // Recurrent ops (core/ops/kernels_rnn.cpp): weights in [-0.8, 0.8], a bidirectional LSTM,
    // a two-layer batch_first GRU without biases, one-layer RNNs, and the cells.
    c["aten::lstm.input"] = [](Inputs& in) {
      ValueList params;
      for (int d = 0; d < 2; ++d) {
        for (const Shape& sh : {Shape{8, 2}, Shape{8, 2}, Shape{8}, Shape{8}})
          params.push_back(in.t(sh, Kind::Unit));
      }
      return ValueList{in.t({3, 2, 2}),
                       IValue::list({in.t({2, 2, 2}), in.t({2, 2, 2})}),
                       IValue::list(params),
                       true,
                       1,
                       0.0,
                       false,
                       true,
                       false};
    };
    c["aten::gru.input"] = [](Inputs& in) {
      ValueList params{in.t({9, 2}, Kind::Unit), in.t({9, 3}, Kind::Unit), in.t({9, 3}, Kind::Unit),
                       in.t({9, 3}, Kind::Unit)};
      return ValueList{in.t({2, 3, 2}),
                       in.t({2, 2, 3}),
                       IValue::list(params),
                       false,
                       2,
                       0.0,
                       false,
                       false,
                       true};
    };
    for (const char* n : {"aten::rnn_tanh.input", "aten::rnn_relu.input"}) {
      c[n] = [](Inputs& in) {
        ValueList params{in.t({2, 3}, Kind::Unit), in.t({2, 2}, Kind::Unit), in.t({2}, Kind::Unit),
                         in.t({2}, Kind::Unit)};
        return ValueList{in.t({2, 1, 3}),
                         in.t({1, 1, 2}),
                         IValue::list(params),
                         true,
                         1,
                         0.0,
                         true,
                         false,
                         false};
      };
    }
    c["aten::lstm_cell"] = [](Inputs& in) {
      return ValueList{in.t({2, 3}),
                       IValue::list({in.t({2, 2}), in.t({2, 2})}),
                       in.t({8, 3}, Kind::Unit),
                       in.t({8, 2}, Kind::Unit),
                       in.t({8}, Kind::Unit),
                       in.t({8}, Kind::Unit)};
    };
    c["aten::gru_cell"] = [](Inputs& in) {
      return ValueList{
          in.t({2, 3}), in.t({2, 2}), in.t({6, 3}, Kind::Unit), in.t({6, 2}, Kind::Unit),
          IValue(),     IValue()};
    };
    c["aten::rnn_tanh_cell"] = [](Inputs& in) {
      return ValueList{in.t({2, 3}),
                       in.t({2, 2}),
                       in.t({2, 3}, Kind::Unit),
                       in.t({2, 2}, Kind::Unit),
                       in.t({2}, Kind::Unit),
                       in.t({2}, Kind::Unit)};
    };
    // relu's kink: positive inputs and weights keep every pre-activation above 0.5.
    c["aten::rnn_relu_cell"] = [](Inputs& in) {
      return ValueList{in.t({2, 3}, Kind::Pos), in.t({2, 2}, Kind::Pos), in.t({2, 3}, Kind::Pos),
                       in.t({2, 2}, Kind::Pos), in.t({2}, Kind::Pos),    in.t({2}, Kind::Pos)};
    };
    // No padding_idx and no scale_grad_by_freq here: by design neither is the derivative
    // of the forward (PyTorch's convention; tests/parity/recurrent checks both).
    c["aten::embedding"] = [](Inputs& in) {
      return ValueList{in.t({5, 3}), IValue(Tensor::from_ints({2, 2}, {1, 3, 1, 0})), -1, false,
                       false};
    };
    c["aten::triu"] = [](Inputs& in) { return ValueList{in.t({3, 4}), 1}; };
    c["aten::to.dtype"] = [](Inputs& in) { return ValueList{in.t({3}), 6, false, false}; };
    c["aten::to.device"] = [](Inputs& in) {
      return ValueList{in.t({3}), s("cpu"), IValue(), false, false};
    };
    c["aten::to.other"] = [](Inputs& in) {
      return ValueList{in.t({3}), IValue(Tensor::zeros({1})), false, false};
    };
    c["aten::type_as"] = [](Inputs& in) {
      return ValueList{in.t({3}), IValue(Tensor::zeros({1}))};
    };
    return c;
  }();
  return table;
}

// Ops taking and returning tensors that have no derivative, as in PyTorch (integer,
// bool and random results; creation from shapes; detach).
// Not differentiable by its table entry's say (integer, boolean or index results).
bool known_not_differentiable(const OpDef& def) {
  return def.tags.has(OpTag::NoDerivative);
}

bool takes_and_returns_tensors(const OpSchema& schema) {
  bool in = false, out = false;
  for (const Argument& a : schema.arguments) in = in || a.type.rfind("Tensor", 0) == 0;
  for (const std::string& r : schema.returns) out = out || r.rfind("Tensor", 0) == 0;
  return in && out;
}

// The float tensors of the arguments (tensors and items of tensor lists), in order.
std::vector<Tensor*> float_args(ValueList& args) {
  std::vector<Tensor*> out;
  for (IValue& a : args) {
    if (a.is_tensor() && a.to_tensor().dtype() == DType::Float32) out.push_back(&a.to_tensor());
    if (a.is_list()) {
      for (IValue& item : a.list_items()) {
        if (item.is_tensor() && item.to_tensor().dtype() == DType::Float32) {
          out.push_back(&item.to_tensor());
        }
      }
    }
  }
  return out;
}

// A copy of the arguments with every tensor cloned (in-place ops write to self).
ValueList deep_copy(const ValueList& args) {
  ValueList out;
  for (const IValue& a : args) {
    if (a.is_tensor()) {
      out.push_back(IValue(a.to_tensor().clone()));
    } else if (a.is_list()) {
      ValueList items;
      for (const IValue& item : a.items()) {
        items.push_back(item.is_tensor() ? IValue(item.to_tensor().clone()) : item);
      }
      out.push_back(IValue::list(std::move(items)));
    } else {
      out.push_back(a);
    }
  }
  return out;
}

bool is_inplace(const OpDef& def) {
  return def.mutates;  // the schema marks self `Tensor(a!)`
}

// sum_k sum(output_k * weight_k) in double; the weights are fixed per output.
double objective(const OpDef& def, const ValueList& args, std::vector<Tensor>* weights) {
  NoGradGuard no_grad;
  Generator gen(7);
  OpContext ctx{&gen, true};
  std::vector<Tensor> outs = float_tensors_of(def.kernel(ctx, deep_copy(args)));
  Generator wgen(11);
  double total = 0;
  for (size_t k = 0; k < outs.size(); ++k) {
    if (weights->size() <= k) {
      std::vector<float> w(static_cast<size_t>(outs[k].numel()));
      for (float& x : w) x = wgen.uniform() * 2 - 1;
      weights->push_back(Tensor::from_floats(outs[k].shape(), w));
    }
    for (int64_t i = 0; i < outs[k].numel(); ++i) {
      total += outs[k].value_at(i) * (*weights)[k].value_at(i);
    }
  }
  return total;
}

void check_op(const OpDef& def, const Case& make) {
  const std::string name = def.schema.qualified_name();
  Inputs gen(3);
  ValueList args = make(gen);
  // Trailing arguments left out take their defaults, as binding fills them.
  for (size_t i = args.size(); i < def.schema.arguments.size(); ++i) {
    const Argument& a = def.schema.arguments[i];
    args.push_back(a.default_value ? *a.default_value : IValue());
  }
  std::vector<Tensor> weights;
  objective(def, args, &weights);
  // Analytic: fresh leaves that require grad, one backward per output. An in-place
  // op's self cannot be a leaf that requires grad (an error, as in PyTorch): it is the
  // leaf times one, so that the leaf's gradient is the one of self's value before the
  // write.
  ValueList taped = deep_copy(args);
  std::vector<Tensor*> leaves = float_args(taped);
  const size_t first = 0;
  for (size_t i = first; i < leaves.size(); ++i) set_requires_grad(*leaves[i], true);
  ValueList call_args = taped;
  if (is_inplace(def) && call_args[0].is_tensor()) {
    OpContext one;
    call_args[0] = run_op(*OpRegistry::builtin().find_qualified("aten::mul.Tensor"), one,
                          {call_args[0], IValue(1.0)});
  }
  Generator tgen(7);
  OpContext ctx{&tgen, true};
  std::vector<Tensor> outs = float_tensors_of(run_op(def, ctx, call_args));
  ASSERT_EQ(outs.size(), weights.size()) << name;
  for (size_t k = 0; k < outs.size(); ++k) backward(outs[k], weights[k]);

  std::vector<Tensor*> inputs = float_args(args);
  ASSERT_EQ(inputs.size(), leaves.size()) << name;
  const double eps = 1e-2;
  for (size_t i = first; i < inputs.size(); ++i) {
    Tensor analytic = grad_of(*leaves[i]);
    Tensor& x = *inputs[i];
    x = x.clone();
    for (int64_t j = 0; j < x.numel(); ++j) {
      const float keep = x.data<float>()[j];
      x.data<float>()[j] = static_cast<float>(keep + eps);
      const double up = objective(def, args, &weights);
      x.data<float>()[j] = static_cast<float>(keep - eps);
      const double down = objective(def, args, &weights);
      x.data<float>()[j] = keep;
      const double numeric = (up - down) / (2 * eps);
      const double got = analytic.defined() ? analytic.value_at(j) : 0.0;
      EXPECT_NEAR(got, numeric, 2e-2 + 2e-2 * std::abs(numeric))
          << name << ": d/d(argument tensor " << i << ")[" << j << "]";
    }
  }
}

TEST(AutogradFiniteDifferences, EveryDerivativeMatches) {
  const OpRegistry& reg = OpRegistry::builtin();
  int checked = 0;
  for (const std::string& base : reg.base_names()) {
    for (const OpDef& def : reg.overloads(base)) {
      const std::string name = def.schema.qualified_name();
      auto it = cases().find(name);
      if (!def.derivative) {
        EXPECT_TRUE(it == cases().end()) << name << " has a case but no derivative";
        if (takes_and_returns_tensors(def.schema) && !known_not_differentiable(def)) {
          ADD_FAILURE()
              << name << " takes and returns tensors but has no derivative; add one "
              << "(core/autograd/derivatives_*.cpp) or tag its table entry OpTag::NoDerivative";
        }
        continue;
      }
      if (it == cases().end()) {
        ADD_FAILURE() << name << " has a derivative but no finite-difference case here";
        continue;
      }
      SCOPED_TRACE(name);
      try {
        check_op(def, it->second);
      } catch (const Error& e) {
        ADD_FAILURE() << name << ": " << e.message();
      } catch (const std::exception& e) {
        ADD_FAILURE() << name << ": " << e.what();
      }
      ++checked;
    }
  }
  EXPECT_GE(checked, 100);
}

}  // namespace
}  // namespace d2s
