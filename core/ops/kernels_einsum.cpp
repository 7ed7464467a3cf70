// torch.einsum: the equation's letters name dims; the output keeps the letters after
// "->" (or, without an arrow, those used once, in alphabetical order) and sums over the
// rest. "..." stands for the dims an operand has beyond its letters; those of all
// operands broadcast against each other aligned on the right, as PyTorch's do, and the
// output keeps them where its "..." is (first, without an arrow) or sums them when it
// has none. d2s names them with labels below 'A' and then treats them as letters. One
// loop over every combination of letters, accumulating in double: exact for the 2- and
// 3-operand forms models use ("bij,bjk->bik", "bhqd,bhkd->bhqk", "i,j->ij",
// "ij,jk,kl->il", "...ij,...jk->...ik"). Not supported: a letter repeated within one
// operand (diagonals).
#include "core/ops/kernels_einsum.h"

#include <map>

#include "core/ops/kernels.h"

namespace d2s::kernels {

namespace {

constexpr const char* kEllipsis = "...";

// PyTorch's message, with d2s's hint (the catalogue's einsum_* cases, docs/errors.md).
[[noreturn]] void fail_with_hint(const std::string& message, const char* hint) {
  throw Error(message, SourceRange(), hint);
}

constexpr const char* kDotsHint =
    "write \"...\" at most once in each term, its three dots together";

// One term of the equation (an operand's, or the output's) as written: its letters, and
// where "..." stands among them (npos: nowhere). `what` names it in PyTorch's messages
// ("operand 0", "output").
struct Term {
  std::string letters;
  size_t ellipsis_at = std::string::npos;
};

Term read_term(const std::string& text, size_t base, const std::string& what, bool output) {
  Term t;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '.') {
      if (t.ellipsis_at != std::string::npos) {
        fail_with_hint("einsum(): found '.' for " + what +
                           (output ? " but an ellipsis (...) was already found"
                                   : " for which an ellipsis was already found"),
                       kDotsHint);
      }
      if (text.compare(i, 3, kEllipsis) != 0) {
        fail_with_hint("einsum(): found '.' for " + what + " that is not part of any ellipsis" +
                           (output ? " (...)" : ""),
                       kDotsHint);
      }
      t.ellipsis_at = t.letters.size();
      i += 2;
      continue;
    }
    if (!std::isalpha(static_cast<unsigned char>(c))) {
      fail(std::string("einsum(): invalid subscript given at index ") + std::to_string(base + i) +
           " in the equation string, subscripts must be in [a-zA-Z]");
    }
    t.letters += c;
  }
  return t;
}

// The labels d2s gives the dims "..." covers: one per broadcast position, counted from
// the right, as characters below 'A' that no written letter can be.
char ellipsis_label(size_t position_from_right) {
  return static_cast<char>(1 + position_from_right);
}

std::string ellipsis_labels(size_t count) {
  std::string s;
  for (size_t p = count; p-- > 0;) s += ellipsis_label(p);
  return s;
}

}  // namespace

EinsumEquation parse_einsum(const std::string& text, const std::vector<int64_t>& ranks) {
  std::string eq;
  for (char c : text) {
    if (c != ' ') eq += c;
  }
  EinsumEquation e;
  const size_t arrow = eq.find("->");
  const std::string lhs = arrow == std::string::npos ? eq : eq.substr(0, arrow);
  std::vector<Term> terms;
  size_t begin = 0;
  for (size_t i = 0; i <= lhs.size(); ++i) {
    if (i == lhs.size() || lhs[i] == ',') {
      const std::string what = "operand " + std::to_string(terms.size());
      terms.push_back(read_term(lhs.substr(begin, i - begin), begin, what, false));
      begin = i + 1;
    }
  }
  if (terms.size() != ranks.size()) {
    fail("einsum(): more operands were provided than specified in the equation");
  }
  // Each operand's letters with its "..." written out as the labels of the dims it covers.
  size_t ellipsis_dims = 0;
  bool any_ellipsis = false;
  for (size_t k = 0; k < terms.size(); ++k) {
    const Term& t = terms[k];
    const int64_t written = static_cast<int64_t>(t.letters.size());
    if (t.ellipsis_at == std::string::npos) {
      e.inputs.push_back(t.letters);
      continue;
    }
    any_ellipsis = true;
    if (written > ranks[k]) {
      fail_with_hint("einsum(): the number of subscripts in the equation (" +
                         std::to_string(written) + ") is more than the number of dimensions (" +
                         std::to_string(ranks[k]) + ") for operand " + std::to_string(k),
                     "write one letter for each dim the operand has beside those \"...\" "
                     "stands for");
    }
    const size_t covered = static_cast<size_t>(ranks[k] - written);
    if (covered >= 'A') fail("einsum(): d2s supports fewer than 64 dims under '...'");
    ellipsis_dims = std::max(ellipsis_dims, covered);
    e.inputs.push_back(t.letters.substr(0, t.ellipsis_at) + ellipsis_labels(covered) +
                       t.letters.substr(t.ellipsis_at));
  }
  std::map<char, int> count;
  for (size_t k = 0; k < terms.size(); ++k) {
    const std::string& t = terms[k].letters;
    for (size_t i = 0; i < t.size(); ++i) {
      if (t.find(t[i]) != i)
        fail("einsum with a letter repeated in one operand is not supported by d2s");
      ++count[t[i]];
    }
  }
  if (arrow != std::string::npos) {
    const std::string out_text = eq.substr(arrow + 2);
    const Term out = read_term(out_text, arrow + 2, "output", true);
    for (size_t i = 0; i < out.letters.size(); ++i) {
      const char c = out.letters[i];
      if (!count.count(c)) {
        fail(std::string("einsum(): output subscript ") + c +
             " does not appear in the equation for any input operand");
      }
      if (out.letters.find(c) != i) {
        fail(std::string("einsum(): output subscript ") + c +
             " appears more than once in the output");
      }
    }
    // Without "..." in the output, the dims under the operands' "..." are summed.
    e.output = out.ellipsis_at == std::string::npos
                   ? out.letters
                   : out.letters.substr(0, out.ellipsis_at) + ellipsis_labels(ellipsis_dims) +
                         out.letters.substr(out.ellipsis_at);
  } else {
    // Implicit: the broadcast "..." dims first, then the letters used once, in order.
    if (any_ellipsis) e.output = ellipsis_labels(ellipsis_dims);
    for (const auto& [c, n] : count) {
      if (n == 1) e.output += c;
    }
  }
  return e;
}

std::vector<int64_t> einsum_ranks(const std::vector<Tensor>& ts) {
  std::vector<int64_t> ranks;
  for (const Tensor& t : ts) ranks.push_back(t.dim());
  return ranks;
}

Tensor einsum_with(const EinsumEquation& e, const std::vector<Tensor>& ts,
                   const std::map<char, int64_t>& extra_sizes) {
  std::map<char, int64_t> size = extra_sizes;
  for (size_t k = 0; k < ts.size(); ++k) {
    const std::string& t = e.inputs[k];
    if (static_cast<int64_t>(t.size()) != ts[k].dim()) {
      fail("einsum(): the number of subscripts in the equation (" + std::to_string(t.size()) +
           ") does not match the number of dimensions (" + std::to_string(ts[k].dim()) +
           ") for operand " + std::to_string(k) + " and no ellipsis was given");
    }
    for (size_t i = 0; i < t.size(); ++i) {
      const int64_t s = ts[k].shape()[i];
      auto it = size.find(t[i]);
      if (it != size.end() && it->second != s && it->second != 1 && s != 1 && t[i] < 'A') {
        fail_with_hint(
            "einsum(): dimension " + std::to_string(i) + " covered by ellipsis in operand " +
                std::to_string(k) + "has size " + std::to_string(s) +
                " which does not broadcast with previously seen ellipsis with size " +
                std::to_string(it->second) + " for the respective dimension",
            "the dims under \"...\" broadcast aligned on the right: each pair must be equal or "
            "one of them 1");
      }
      if (it != size.end() && it->second != s && it->second != 1 && s != 1) {
        fail_with_hint(std::string("einsum(): subscript ") + t[i] + " has size " +
                           std::to_string(s) + " for operand " + std::to_string(k) +
                           " which does not broadcast with previously seen size " +
                           std::to_string(it->second),
                       "a letter stands for one size in every operand that has it (or 1, "
                       "which broadcasts)");
      }
      if (it == size.end() || it->second == 1) size[t[i]] = s;
    }
  }
  // All letters: the output's first (their order is the result's), then the summed.
  std::string letters = e.output;
  for (const auto& [c, s] : size) {
    if (e.output.find(c) == std::string::npos) letters += c;
  }
  const size_t nl = letters.size();
  std::vector<int64_t> dims(nl);
  for (size_t i = 0; i < nl; ++i) dims[i] = size.at(letters[i]);
  Shape out_shape(dims.begin(), dims.begin() + static_cast<std::ptrdiff_t>(e.output.size()));
  // Each operand's stride per letter (0 where it lacks the letter or broadcasts it).
  std::vector<std::vector<int64_t>> strides(ts.size(), std::vector<int64_t>(nl, 0));
  std::vector<Tensor> fs;
  for (size_t k = 0; k < ts.size(); ++k) {
    fs.push_back(as_dtype(ts[k], DType::Float32));
    const std::vector<int64_t> cs = contiguous_strides(ts[k].shape());
    for (size_t i = 0; i < e.inputs[k].size(); ++i) {
      const size_t at = letters.find(e.inputs[k][i]);
      strides[k][at] = ts[k].shape()[i] == 1 ? 0 : cs[i];
    }
  }
  Tensor out = Tensor::zeros(out_shape);
  float* po = out.data<float>();
  int64_t inner = 1;  // the summed combinations per output element
  for (size_t i = e.output.size(); i < nl; ++i) inner *= dims[i];
  const int64_t n_out = shape_numel(out_shape);
  if (n_out == 0) return out;
  std::vector<int64_t> idx(nl, 0);
  std::vector<int64_t> off(ts.size(), 0);
  for (int64_t o = 0; o < n_out; ++o) {
    double acc = 0;
    for (int64_t r = 0; r < inner; ++r) {
      double p = 1;
      for (size_t k = 0; k < fs.size(); ++k) p *= fs[k].data<float>()[off[k]];
      acc += p;
      // Step the odometer over all letters (summed ones fastest).
      for (size_t i = nl; i-- > 0;) {
        for (size_t k = 0; k < fs.size(); ++k) off[k] += strides[k][i];
        if (++idx[i] < dims[i]) break;
        for (size_t k = 0; k < fs.size(); ++k) off[k] -= strides[k][i] * dims[i];
        idx[i] = 0;
      }
    }
    po[o] = static_cast<float>(acc);
  }
  return out;
}

void register_einsum(OpRegistry& r) {
  r.add(
      "aten::einsum(str equation, Tensor[] tensors, *, int[]? path=None) -> Tensor",
      [](OpContext&, const ValueList& a) {
        std::vector<Tensor> ts;
        for (const IValue& v : a[1].items()) ts.push_back(tensor_arg(v));
        return IValue(einsum_with(parse_einsum(a[0].to_string(), einsum_ranks(ts)), ts, {}));
      },
      OpTag::NoOnnx);
}

}  // namespace d2s::kernels
