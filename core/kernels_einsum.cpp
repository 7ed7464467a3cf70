// torch.einsum: the equation's letters name dims; the output keeps the letters after
// "->" (or, without an arrow, those used once, in alphabetical order) and sums over the
// rest. One loop over every combination of letters, accumulating in double: exact for
// the 2- and 3-operand forms models use ("bij,bjk->bik", "bhqd,bhkd->bhqk", "i,j->ij",
// "ij,jk,kl->il"). Not supported: "..." and a letter repeated within one operand
// (diagonals).
#include "core/kernels_einsum.h"

#include <map>

#include "core/kernels.h"

namespace d2s::kernels {

EinsumEquation parse_einsum(const std::string& text, size_t operands) {
  std::string eq;
  for (char c : text) {
    if (c != ' ') eq += c;
  }
  if (eq.find("...") != std::string::npos) fail("einsum with '...' is not supported by d2s");
  EinsumEquation e;
  const size_t arrow = eq.find("->");
  const std::string lhs = arrow == std::string::npos ? eq : eq.substr(0, arrow);
  std::string term;
  for (size_t i = 0; i <= lhs.size(); ++i) {
    if (i == lhs.size() || lhs[i] == ',') {
      e.inputs.push_back(term);
      term.clear();
    } else {
      if (!std::isalpha(static_cast<unsigned char>(lhs[i]))) {
        fail(std::string("einsum(): invalid subscript given at index ") + std::to_string(i) +
             " in the equation string, subscripts must be in [a-zA-Z]");
      }
      term += lhs[i];
    }
  }
  if (e.inputs.size() != operands) {
    fail("einsum(): more operands were provided than specified in the equation");
  }
  std::map<char, int> count;
  for (const std::string& t : e.inputs) {
    for (size_t i = 0; i < t.size(); ++i) {
      if (t.find(t[i]) != i)
        fail("einsum with a letter repeated in one operand is not supported by d2s");
      ++count[t[i]];
    }
  }
  if (arrow != std::string::npos) {
    e.output = eq.substr(arrow + 2);
    for (char c : e.output) {
      if (!count.count(c)) {
        fail(std::string("einsum(): output subscript ") + c +
             " does not appear in the equation for any input operand");
      }
    }
  } else {
    for (const auto& [c, n] : count) {
      if (n == 1) e.output += c;
    }
  }
  return e;
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
      if (it != size.end() && it->second != s && it->second != 1 && s != 1) {
        fail("einsum(): operands do not broadcast with remapped shapes (original->remapped)");
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
  r.add("aten::einsum(str equation, Tensor[] tensors, *, int[]? path=None) -> Tensor",
        [](OpContext&, const ValueList& a) {
          std::vector<Tensor> ts;
          for (const IValue& v : a[1].items()) ts.push_back(tensor_arg(v));
          return IValue(einsum_with(parse_einsum(a[0].to_string(), ts.size()), ts, {}));
        });
}

}  // namespace d2s::kernels
