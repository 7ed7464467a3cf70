// aten::ctc_loss (F.ctc_loss, nn.CTCLoss): the connectionist temporal classification
// loss of Graves et al. (2006) with PyTorch 1.13's arguments, layouts, checks and
// reductions, and its derivative with respect to log_probs.
//
// log_probs is [T, N, C] (or [T, C] for one sequence); targets are padded [N, S] (row
// b's first target_lengths[b] entries) or all sequences concatenated in one 1-d tensor;
// the lengths are int tensors or lists. Each sequence's negative log-likelihood comes
// from the forward (alpha) recursion over the target with blanks between and around its
// labels, in log space (log-sum-exp, in double), so long inputs do not underflow.
//
// The derivative is the exact one, checked by finite differences: with alpha and beta
// both counting the emission at t, dNLL/dlog_probs[t, c] = -exp(log(sum over the
// extended positions s labelled c of alpha_t(s) beta_t(s)) + nll - log_probs[t, c]).
// PyTorch 1.13's kernel returns that plus exp(log_probs[t, c]) (pytorch/pytorch#52241,
// #82545): the two agree on any log_probs made by log_softmax in the graph (the extra
// term vanishes through log_softmax's backward), which is how CTC is trained; they
// differ only for a log_probs leaf read directly.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/autograd/derivatives_util.h"
#include "core/ops/kernels.h"
#include "core/ops/loss_util.h"

namespace d2s {

namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

double log_add(double a, double b) {
  if (a == kNegInf) return b;
  if (b == kNegInf) return a;
  const double m = std::max(a, b);
  return m + std::log(std::exp(a - m) + std::exp(b - m));
}

// The lengths argument: an int tensor (1-d, or 0-d for one sequence), or a list/tuple
// of ints (or of one-element tensors).
std::vector<int64_t> lengths_of(const IValue& v, const char* what) {
  std::vector<int64_t> out;
  auto integral = [&](double x) {
    if (x != std::floor(x)) {
      kernels::fail(std::string("ctc_loss: ") + what + " must be integers, got " +
                    std::to_string(x));
    }
    return static_cast<int64_t>(x);
  };
  if (v.is_tensor()) {
    const Tensor& t = v.to_tensor();
    if (t.dim() > 1) {
      kernels::fail(std::string("ctc_loss: ") + what + " must be a 1-d tensor or a list, got " +
                    std::to_string(t.dim()) + " dims");
    }
    for (int64_t i = 0; i < t.numel(); ++i) out.push_back(integral(t.value_at(i)));
    return out;
  }
  if (v.is_int()) return {v.to_int()};
  if (!v.is_list() && !v.is_tuple()) {
    kernels::fail(std::string("ctc_loss(): ") + what + " must be a tuple of ints or a Tensor");
  }
  for (const IValue& x : v.items()) {
    if (x.is_int()) {
      out.push_back(x.to_int());
    } else if (x.is_tensor() && x.to_tensor().numel() == 1) {
      out.push_back(integral(x.to_tensor().item()));
    } else {
      kernels::fail(std::string("ctc_loss(): ") + what + " must be a tuple of ints or a Tensor");
    }
  }
  return out;
}

// The problem as the kernel and its derivative read it: sizes, each sequence's
// labels, and the log-probabilities in double.
struct Ctc {
  int64_t T = 0, N = 0, C = 0;
  bool batched = true;
  int64_t blank = 0;
  std::vector<int64_t> input_lengths, target_lengths;
  std::vector<std::vector<int64_t>> labels;  // per sequence
  std::vector<double> lp;                    // [T, N, C]

  double at(int64_t t, int64_t b, int64_t c) const {
    return lp[static_cast<size_t>((t * N + b) * C + c)];
  }
  // The extended target l': blank, l1, blank, l2, ..., blank (2L + 1 labels).
  int64_t ext(int64_t b, int64_t s) const {
    return s % 2 == 0 ? blank : labels[static_cast<size_t>(b)][static_cast<size_t>(s / 2)];
  }
};

Ctc read_problem(const ValueList& a) {
  Ctc p;
  const Tensor log_probs = kernels::tensor_arg(a[0]);
  if (log_probs.dtype() != DType::Float32) {
    kernels::fail(std::string("\"ctc_loss_cpu\" not implemented for '") +
                  dtype_word(log_probs.dtype()) + "'");
  }
  if (log_probs.dim() != 3 && log_probs.dim() != 2) {
    kernels::fail("ctc_loss: log_probs must be [T, N, C] or [T, C] (one sequence), got " +
                  shape_str(log_probs.shape()));
  }
  p.batched = log_probs.dim() == 3;
  p.T = log_probs.size(0);
  p.N = p.batched ? log_probs.size(1) : 1;
  p.C = log_probs.size(-1);
  p.blank = a[4].to_int();
  if (p.blank < 0 || p.blank >= p.C) kernels::fail("blank must be in label range");
  p.input_lengths = lengths_of(a[2], "input_lengths");
  p.target_lengths = lengths_of(a[3], "target_lengths");
  if (static_cast<int64_t>(p.input_lengths.size()) != p.N) {
    kernels::fail("input_lengths must be of size batch_size");
  }
  if (static_cast<int64_t>(p.target_lengths.size()) != p.N) {
    kernels::fail("target_lengths must be of size batch_size");
  }
  for (int64_t b = 0; b < p.N; ++b) {
    const int64_t il = p.input_lengths[static_cast<size_t>(b)];
    if (il < 0 || il > p.T) {
      kernels::fail("Expected input_lengths to have value at most " + std::to_string(p.T) +
                    ", but got value " + std::to_string(il) +
                    " (while checking arguments for ctc_loss_cpu)");
    }
    if (p.target_lengths[static_cast<size_t>(b)] < 0) {
      kernels::fail("ctc_loss: target_lengths must be >= 0, got " +
                    std::to_string(p.target_lengths[static_cast<size_t>(b)]));
    }
  }
  const Tensor targets = kernels::tensor_arg(a[1]);
  if (targets.dtype() == DType::Bool) {
    kernels::fail(
        "Expected tensor for argument #2 'targets' to have one of the following scalar "
        "types: Long, Int; but got torch.BoolTensor instead (while checking arguments "
        "for ctc_loss_cpu)");
  }
  // Padded [N, S] (a [S] row for one sequence) or concatenated 1-d.
  const bool padded = p.batched ? targets.dim() == 2 : true;
  int64_t offset = 0;
  for (int64_t b = 0; b < p.N; ++b) {
    const int64_t L = p.target_lengths[static_cast<size_t>(b)];
    int64_t start = 0;
    if (padded) {
      if (targets.dim() != (p.batched ? 2 : 1)) {
        kernels::fail("ctc_loss: targets must be [N, S] or 1-d, got " + shape_str(targets.shape()));
      }
      const int64_t S = targets.size(-1);
      if (L > S) {
        kernels::fail("Expected tensor to have size at least " + std::to_string(L) +
                      " at dimension 1, but got size " + std::to_string(S) +
                      " for argument #2 'targets' (while checking arguments for ctc_loss_cpu)");
      }
      start = b * S;
    } else {
      if (targets.dim() != 1) {
        kernels::fail("ctc_loss: targets must be [N, S] or 1-d, got " + shape_str(targets.shape()));
      }
      start = offset;
      offset += L;
    }
    std::vector<int64_t> labels;
    for (int64_t i = 0; i < L; ++i) {
      if (!padded && start + i >= targets.numel()) break;  // reported below with the total
      const double v = targets.value_at(start + i);
      const int64_t c = static_cast<int64_t>(v);
      if (c < 0 || c >= p.C || static_cast<double>(c) != v) {
        kernels::fail("ctc_loss: target " + std::to_string(v) + " of sequence " +
                      std::to_string(b) + " is not a class index in [0, " + std::to_string(p.C) +
                      ")");
      }
      labels.push_back(c);
    }
    p.labels.push_back(std::move(labels));
  }
  if (!padded && offset != targets.numel()) {
    kernels::fail("Expected tensor to have size " + std::to_string(offset) +
                  " at dimension 0, but got size " + std::to_string(targets.numel()) +
                  " for argument #2 'targets' (while checking arguments for ctc_loss_cpu)");
  }
  const Tensor lpf = log_probs.to(DType::Float32);
  p.lp.assign(lpf.data<float>(), lpf.data<float>() + lpf.numel());
  return p;
}

// log alpha_t(s) of sequence b, [T_b x (2L + 1)], row-major.
std::vector<double> alphas(const Ctc& p, int64_t b) {
  const int64_t Tb = p.input_lengths[static_cast<size_t>(b)];
  const int64_t S = 2 * p.target_lengths[static_cast<size_t>(b)] + 1;
  std::vector<double> la(static_cast<size_t>(Tb * S), kNegInf);
  if (Tb == 0) return la;
  la[0] = p.at(0, b, p.blank);
  if (S > 1) la[1] = p.at(0, b, p.ext(b, 1));
  for (int64_t t = 1; t < Tb; ++t) {
    for (int64_t s = 0; s < S; ++s) {
      const int64_t l = p.ext(b, s);
      double v = la[static_cast<size_t>((t - 1) * S + s)];
      if (s > 0) v = log_add(v, la[static_cast<size_t>((t - 1) * S + s - 1)]);
      if (s > 1 && l != p.blank && l != p.ext(b, s - 2)) {
        v = log_add(v, la[static_cast<size_t>((t - 1) * S + s - 2)]);
      }
      la[static_cast<size_t>(t * S + s)] = v == kNegInf ? kNegInf : v + p.at(t, b, l);
    }
  }
  return la;
}

// log beta_t(s) of sequence b (the emission at t included, as in alpha).
std::vector<double> betas(const Ctc& p, int64_t b) {
  const int64_t Tb = p.input_lengths[static_cast<size_t>(b)];
  const int64_t S = 2 * p.target_lengths[static_cast<size_t>(b)] + 1;
  std::vector<double> lb(static_cast<size_t>(Tb * S), kNegInf);
  if (Tb == 0) return lb;
  const int64_t last = Tb - 1;
  lb[static_cast<size_t>(last * S + S - 1)] = p.at(last, b, p.blank);
  if (S > 1) lb[static_cast<size_t>(last * S + S - 2)] = p.at(last, b, p.ext(b, S - 2));
  for (int64_t t = last - 1; t >= 0; --t) {
    for (int64_t s = 0; s < S; ++s) {
      const int64_t l = p.ext(b, s);
      double v = lb[static_cast<size_t>((t + 1) * S + s)];
      if (s + 1 < S) v = log_add(v, lb[static_cast<size_t>((t + 1) * S + s + 1)]);
      if (s + 2 < S && l != p.blank && l != p.ext(b, s + 2)) {
        v = log_add(v, lb[static_cast<size_t>((t + 1) * S + s + 2)]);
      }
      lb[static_cast<size_t>(t * S + s)] = v == kNegInf ? kNegInf : v + p.at(t, b, l);
    }
  }
  return lb;
}

// Sequence b's negative log-likelihood from its alphas (+inf when no alignment fits).
double nll_of(const Ctc& p, int64_t b, const std::vector<double>& la) {
  const int64_t Tb = p.input_lengths[static_cast<size_t>(b)];
  const int64_t S = 2 * p.target_lengths[static_cast<size_t>(b)] + 1;
  if (Tb == 0) return S == 1 ? 0.0 : std::numeric_limits<double>::infinity();
  double ll = la[static_cast<size_t>((Tb - 1) * S + S - 1)];
  if (S > 1) ll = log_add(ll, la[static_cast<size_t>((Tb - 1) * S + S - 2)]);
  return -ll;
}

// The loss after zero_infinity and the reduction: 'mean' divides each sequence's loss
// by its target length (at least 1), then averages over the batch.
Tensor ctc_forward(const ValueList& a) {
  const Ctc p = read_problem(a);
  const loss::Reduction mode = loss::reduction_of(a[5]);
  const bool zero_infinity = a[6].to_bool();
  std::vector<float> per(static_cast<size_t>(p.N));
  for (int64_t b = 0; b < p.N; ++b) {
    double nll = nll_of(p, b, alphas(p, b));
    if (zero_infinity && std::isinf(nll)) nll = 0;
    per[static_cast<size_t>(b)] = static_cast<float>(nll);
  }
  if (mode == loss::Reduction::None) {
    return p.batched ? Tensor::from_floats({p.N}, per) : Tensor::scalar(per[0]);
  }
  if (mode == loss::Reduction::Sum) {
    double s = 0;
    for (float x : per) s += x;
    return Tensor::scalar(s);
  }
  double s = 0;
  for (int64_t b = 0; b < p.N; ++b) {
    const float len =
        static_cast<float>(std::max<int64_t>(p.target_lengths[static_cast<size_t>(b)], 1));
    s += per[static_cast<size_t>(b)] / len;
  }
  return Tensor::scalar(static_cast<float>(s) / static_cast<float>(p.N));
}

ValueList ctc_backward(const GradInputs& in) {
  const Ctc p = read_problem(in.args);
  const loss::Reduction mode = loss::reduction_of(in.args[5]);
  const bool zero_infinity = in.args[6].to_bool();
  const Tensor g = in.grads[0].to(DType::Float32);
  Tensor out = Tensor::zeros(kernels::tensor_arg(in.args[0]).shape());
  float* o = out.data<float>();
  for (int64_t b = 0; b < p.N; ++b) {
    // The upstream gradient of sequence b's nll.
    double gb = mode == loss::Reduction::None ? g.value_at(p.batched ? b : 0) : g.value_at(0);
    if (mode == loss::Reduction::Mean) {
      gb /= static_cast<double>(p.N) *
            static_cast<double>(std::max<int64_t>(p.target_lengths[static_cast<size_t>(b)], 1));
    }
    const std::vector<double> la = alphas(p, b);
    const double nll = nll_of(p, b, la);
    if (zero_infinity && std::isinf(nll)) continue;  // its loss is the constant 0
    const std::vector<double> lb = betas(p, b);
    const int64_t Tb = p.input_lengths[static_cast<size_t>(b)];
    const int64_t S = 2 * p.target_lengths[static_cast<size_t>(b)] + 1;
    std::vector<double> lcab(static_cast<size_t>(p.C));
    for (int64_t t = 0; t < Tb; ++t) {
      std::fill(lcab.begin(), lcab.end(), kNegInf);
      for (int64_t s = 0; s < S; ++s) {
        const size_t i = static_cast<size_t>(t * S + s);
        double& acc = lcab[static_cast<size_t>(p.ext(b, s))];
        acc = log_add(acc, la[i] + lb[i]);
      }
      for (int64_t c = 0; c < p.C; ++c) {
        const double occupancy = std::exp(lcab[static_cast<size_t>(c)] + nll - p.at(t, b, c));
        o[(t * p.N + b) * p.C + c] = static_cast<float>(-occupancy * gb);
      }
    }
  }
  ValueList grads(in.args.size());
  grads[0] = grad::grad_for(in.args[0], out);
  return grads;
}

}  // namespace

namespace kernels {

void register_ctc_loss(OpRegistry& r) {
  r.add(
      "aten::ctc_loss(Tensor log_probs, Tensor targets, Any input_lengths, Any target_lengths, "
      "int blank=0, Any reduction='mean', bool zero_infinity=False) -> Tensor",
      [](OpContext&, const ValueList& a) { return IValue(ctc_forward(a)); }, OpTag::NoOnnx);
}

}  // namespace kernels

namespace grad {

void register_derivatives_ctc(OpRegistry& r) {
  r.set_derivative("aten::ctc_loss", ctc_backward);
}

}  // namespace grad

}  // namespace d2s
