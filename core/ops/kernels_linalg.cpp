// Matrix products (mm, matmul in every rank combination, bmm, mv, dot, outer,
// addmm) through Eigen maps over the row-major data, and the dimension
// reorderings t, transpose and permute, which copy (d2s tensors are always
// contiguous). Checks and messages follow PyTorch's.
#include <omp.h>

#include <Eigen/Core>

#include "core/ops/kernels.h"

namespace d2s::kernels {

namespace {

IValue tv(Tensor t) {
  return IValue(std::move(t));
}

template <typename T>
using RowMat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// The C++ type names PyTorch prints in dtype mismatch messages.
const char* cpp_type_name(DType d) {
  switch (d) {
    case DType::Float32:
      return "float";
    case DType::Int64:
      return "long int";
    case DType::Bool:
      break;
  }
  return "bool";
}

void check_same_dtype(const Tensor& a, const Tensor& b, const char* what) {
  if (a.dtype() != b.dtype()) {
    fail(std::string("expected ") + what + " to have the same dtype, but got: " +
         cpp_type_name(a.dtype()) + " != " + cpp_type_name(b.dtype()));
  }
  if (a.dtype() == DType::Bool) fail("\"addmm_impl_cpu_\" not implemented for 'Bool'");
}

std::string dims_str(int64_t a, int64_t b) {
  return std::to_string(a) + "x" + std::to_string(b);
}

// body(row, rows, col, cols) for the blocks of the n x p result of n x m by m x p that
// the OpenMP threads share, each running Eigen's single-threaded GEMM on its block, or
// once for the whole result on one core. Eigen's own threading was 5-10% slower on the
// 1024x1024 product here; this way each thread also first-touches its part of a fresh
// output.
//  * Few rows (a batch of 64 through a linear layer), from 2^24 multiply-adds: split by
//    columns, in whole 16-float packets, so each thread packs only its share of the
//    right-hand matrix. Split by rows each packed all of it, and the MLP's products
//    gained nothing from two threads.
//  * Many rows, from 2^26 multiply-adds: split by rows.
//  * Smaller products run on one core: the threads' start and join would cost more, and
//    on a busy machine a descheduled thread stalls the others at the join.
template <typename Body>
void for_product_blocks(int64_t n, int64_t m, int64_t p, Body body) {
  constexpr double kParallelMacsFewRows = double(int64_t{1} << 24);
  constexpr double kParallelMacs = double(int64_t{1} << 26);
  constexpr int64_t kFewRows = 256;
  Eigen::setNbThreads(1);
  const double macs = double(n) * double(m) * double(p);
  const bool by_cols = n <= kFewRows && p >= 64 && macs >= kParallelMacsFewRows;
  if (!by_cols && macs < kParallelMacs) {
    body(int64_t{0}, n, int64_t{0}, p);
    return;
  }
#pragma omp parallel
  {
    const int64_t threads = omp_get_num_threads(), t = omp_get_thread_num();
    if (by_cols) {
      const int64_t packets = (p + 15) / 16;
      const int64_t first = std::min(p, packets * t / threads * 16);
      const int64_t last = std::min(p, packets * (t + 1) / threads * 16);
      if (last > first) body(int64_t{0}, n, first, last - first);
    } else {
      const int64_t first = n * t / threads, rows = n * (t + 1) / threads - first;
      if (rows > 0) body(first, rows, int64_t{0}, p);
    }
  }
}

// out (n x p) = a (n x m) * b (m x p), all contiguous; `batch` matrices apart.
void gemm(const Tensor& a, const Tensor& b, Tensor& out, int64_t batch, int64_t n, int64_t m,
          int64_t p) {
  dispatch(a.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (!std::is_same_v<T, bool>) {
      for (int64_t i = 0; i < batch; ++i) {
        Eigen::Map<const RowMat<T>> ma(a.data<T>() + i * n * m, n, m);
        Eigen::Map<const RowMat<T>> mb(b.data<T>() + i * m * p, m, p);
        Eigen::Map<RowMat<T>> mo(out.data<T>() + i * n * p, n, p);
        for_product_blocks(n, m, p, [&](int64_t row, int64_t rows, int64_t col, int64_t cols) {
          mo.block(row, col, rows, cols).noalias() =
              ma.middleRows(row, rows) * mb.middleCols(col, cols);
        });
      }
    }
  });
}

Tensor bmm(const Tensor& a, const Tensor& b) {
  if (a.dim() != 3) fail("batch1 must be a 3D tensor");
  if (b.dim() != 3) fail("batch2 must be a 3D tensor");
  if (a.shape()[0] != b.shape()[0]) {
    fail("batch1 and batch2 must have same number of batches, got " + std::to_string(a.shape()[0]) +
         " and " + std::to_string(b.shape()[0]));
  }
  if (a.shape()[2] != b.shape()[1]) {
    fail("Expected size for first two dimensions of batch2 tensor to be: [" +
         std::to_string(a.shape()[0]) + ", " + std::to_string(a.shape()[2]) + "] but got: [" +
         std::to_string(b.shape()[0]) + ", " + std::to_string(b.shape()[1]) + "].");
  }
  check_same_dtype(a, b, "batch1 and batch2");
  Tensor out = Tensor::empty({a.shape()[0], a.shape()[1], b.shape()[2]}, a.dtype());
  gemm(a, b, out, a.shape()[0], a.shape()[1], a.shape()[2], b.shape()[2]);
  return out;
}

Tensor dot(const Tensor& a, const Tensor& b) {
  if (a.dim() != 1 || b.dim() != 1) {
    fail("1D tensors expected, but got " + std::to_string(a.dim()) + "D and " +
         std::to_string(b.dim()) + "D tensors");
  }
  if (a.numel() != b.numel()) {
    fail("inconsistent tensor size, expected tensor [" + std::to_string(a.numel()) + "] and src [" +
         std::to_string(b.numel()) + "] to have the same number of elements, but got " +
         std::to_string(a.numel()) + " and " + std::to_string(b.numel()) +
         " elements respectively");
  }
  if (a.dtype() != b.dtype()) {
    fail(std::string("dot : expected both vectors to have same dtype, but found ") +
         dtype_word(a.dtype()) + " and " + dtype_word(b.dtype()));
  }
  check_same_dtype(a, b, "self and other");
  Tensor out = Tensor::empty({}, a.dtype());
  gemm(a, b, out, 1, 1, a.numel(), 1);
  return out;
}

Tensor mv(const Tensor& a, const Tensor& v) {
  if (a.dim() != 2 || v.dim() != 1) {
    fail("vector + matrix @ vector expected, got 1, " + std::to_string(a.dim()) + ", " +
         std::to_string(v.dim()));
  }
  if (a.shape()[1] != v.shape()[0]) {
    fail("size mismatch, got input (" + std::to_string(a.shape()[0]) + "), mat (" +
         dims_str(a.shape()[0], a.shape()[1]) + "), vec (" + std::to_string(v.shape()[0]) + ")");
  }
  check_same_dtype(a, v, "mat and vec");
  Tensor out = Tensor::empty({a.shape()[0]}, a.dtype());
  gemm(a, v, out, 1, a.shape()[0], a.shape()[1], 1);
  return out;
}

// Batched matmul with broadcast batch dimensions (ranks >= 3, or 1-2 against >= 3).
Tensor batched_matmul(const Tensor& a0, const Tensor& b0) {
  const bool a_vec = a0.dim() == 1, b_vec = b0.dim() == 1;
  const Tensor a = a_vec ? a0.view_as_shape({1, a0.shape()[0]}) : a0;
  const Tensor b = b_vec ? b0.view_as_shape({b0.shape()[0], 1}) : b0;
  const int64_t n = a.shape()[a.dim() - 2], m = a.shape()[a.dim() - 1];
  const int64_t m2 = b.shape()[b.dim() - 2], p = b.shape()[b.dim() - 1];
  const Shape batch_a(a.shape().begin(), a.shape().end() - 2);
  const Shape batch_b(b.shape().begin(), b.shape().end() - 2);
  const Shape batch = broadcast_shapes(batch_a, batch_b);
  const int64_t nb = shape_numel(batch);
  if (m != m2) {
    fail("Expected size for first two dimensions of batch2 tensor to be: [" + std::to_string(nb) +
         ", " + std::to_string(m) + "] but got: [" + std::to_string(nb) + ", " +
         std::to_string(m2) + "].");
  }
  check_same_dtype(a, b, "mat1 and mat2");
  Shape sa = batch, sb = batch, so = batch;
  sa.insert(sa.end(), {n, m});
  sb.insert(sb.end(), {m, p});
  const Tensor ea = a.shape() == sa ? a : broadcast_to(a, sa);
  const Tensor eb = b.shape() == sb ? b : broadcast_to(b, sb);
  so.insert(so.end(), {n, p});
  Tensor out = Tensor::empty(so, a.dtype());
  gemm(ea, eb, out, nb, n, m, p);
  // Drop the dimensions added for vector operands.
  Shape final_shape = batch;
  if (!a_vec) final_shape.push_back(n);
  if (!b_vec) final_shape.push_back(p);
  return out.view_as_shape(final_shape);
}

}  // namespace

bool linear_2d(const Tensor& input, const Tensor& weight, const IValue& bias, Tensor* result) {
  if (input.dim() != 2 || weight.dim() != 2 || input.dtype() != DType::Float32 ||
      weight.dtype() != DType::Float32 || input.size(1) != weight.size(1)) {
    return false;
  }
  const int64_t n = input.size(0), k = input.size(1), m = weight.size(0);
  const float* pb = nullptr;
  if (!bias.is_none()) {
    if (!bias.is_tensor()) return false;
    const Tensor& b = bias.to_tensor();
    if (!b.defined() || b.dtype() != DType::Float32 || b.dim() != 1 || b.size(0) != m) {
      return false;
    }
    pb = b.data<float>();
  }
  Tensor out = Tensor::empty({n, m}, DType::Float32);
  Eigen::Map<const RowMat<float>> x(input.data<float>(), n, k);
  Eigen::Map<const RowMat<float>> w(weight.data<float>(), m, k);
  Eigen::Map<RowMat<float>> o(out.data<float>(), n, m);
  for_product_blocks(n, k, m, [&](int64_t row, int64_t rows, int64_t col, int64_t cols) {
    auto part = o.block(row, col, rows, cols);
    if (pb) {
      part.rowwise() = Eigen::Map<const Eigen::RowVectorXf>(pb + col, cols);
      part.noalias() += x.middleRows(row, rows) * w.middleRows(col, cols).transpose();
    } else {
      part.noalias() = x.middleRows(row, rows) * w.middleRows(col, cols).transpose();
    }
  });
  *result = std::move(out);
  return true;
}

Tensor mm(const Tensor& a, const Tensor& b) {
  if (a.dim() != 2) fail("self must be a matrix");
  if (b.dim() != 2) fail("mat2 must be a matrix");
  if (a.shape()[1] != b.shape()[0]) {
    fail("mat1 and mat2 shapes cannot be multiplied (" + dims_str(a.shape()[0], a.shape()[1]) +
         " and " + dims_str(b.shape()[0], b.shape()[1]) + ")");
  }
  check_same_dtype(a, b, "mat1 and mat2");
  Tensor out = Tensor::empty({a.shape()[0], b.shape()[1]}, a.dtype());
  gemm(a, b, out, 1, a.shape()[0], a.shape()[1], b.shape()[1]);
  return out;
}

Tensor matmul(const Tensor& a, const Tensor& b) {
  const int64_t da = a.dim(), db = b.dim();
  if (da == 0 || db == 0) {
    fail("both arguments to matmul need to be at least 1D, but they are " + std::to_string(da) +
         "D and " + std::to_string(db) + "D");
  }
  if (da == 1 && db == 1) return dot(a, b);
  if (da == 2 && db == 1) return mv(a, b);
  if (da == 1 && db == 2)
    return mm(a.view_as_shape({1, a.numel()}), b).view_as_shape({b.shape()[1]});
  if (da == 2 && db == 2) return mm(a, b);
  if (da >= 3 && db <= 2) {
    // Fold the batch into the rows: one mm, whose error names the folded shapes.
    const int64_t m = a.shape().back();
    const Tensor b2 = db == 1 ? b.view_as_shape({b.numel(), 1}) : b;
    Shape shape(a.shape().begin(), a.shape().end() - 1);
    Tensor out = mm(a.view_as_shape({shape_numel(shape), m}), b2);
    if (db == 2) shape.push_back(b.shape()[1]);
    return out.view_as_shape(shape);
  }
  return batched_matmul(a, b);
}

Tensor permute(const Tensor& t, const std::vector<int64_t>& dims_in) {
  const int64_t nd = t.dim();
  if (static_cast<int64_t>(dims_in.size()) != nd) {
    fail(
        "permute(sparse_coo): number of dimensions in the tensor input does not match the length "
        "of the desired ordering of dimensions i.e. input.dim() = " +
        std::to_string(nd) + " is not equal to len(dims) = " + std::to_string(dims_in.size()));
  }
  std::vector<int64_t> dims(nd);
  std::vector<bool> seen(nd, false);
  for (int64_t i = 0; i < nd; ++i) {
    dims[i] = wrap_dim(dims_in[i], nd);
    if (seen[dims[i]]) fail("permute(): duplicate dims are not allowed.");
    seen[dims[i]] = true;
  }
  if (nd == 0) return t.clone();
  Shape shape(nd);
  std::vector<int64_t> strides(nd);
  const std::vector<int64_t> own = contiguous_strides(t.shape());
  for (int64_t i = 0; i < nd; ++i) {
    shape[i] = t.shape()[dims[i]];
    strides[i] = own[dims[i]];
  }
  return strided_copy(t, shape, strides, 0);
}

namespace {

Tensor transpose(const Tensor& t, int64_t d0, int64_t d1) {
  const int64_t nd = t.dim();
  d0 = wrap_dim(d0, nd);
  d1 = wrap_dim(d1, nd);
  if (nd == 0) return t.view_as_shape({});
  std::vector<int64_t> dims(nd);
  for (int64_t i = 0; i < nd; ++i) dims[i] = i;
  std::swap(dims[d0], dims[d1]);
  return permute(t, dims);
}

Tensor t_op(const Tensor& t) {
  if (t.dim() > 2) {
    fail("t() expects a tensor with <= 2 dimensions, but self is " + std::to_string(t.dim()) + "D");
  }
  return t.dim() < 2 ? t.view_as_shape(t.shape()) : transpose(t, 0, 1);
}

Tensor addmm(const IValue& self, const Tensor& a, const Tensor& b, const IValue& beta,
             const IValue& alpha) {
  Tensor prod = mm(a, b);
  if (!(alpha.is_int() && alpha.to_int() == 1)) prod = binary_op(BinaryOp::Mul, prod, alpha);
  IValue bias = self;
  if (!(beta.is_int() && beta.to_int() == 1)) bias = binary_op(BinaryOp::Mul, self, beta);
  Tensor out = binary_op(BinaryOp::Add, bias, prod);
  if (out.shape() != prod.shape()) {
    fail("The expanded size of the input " + shape_str(tensor_arg(self).shape()) +
         " must match the product shape " + shape_str(prod.shape()));
  }
  return out;
}

}  // namespace

void register_linalg(OpRegistry& r) {
  using A = const ValueList&;
  auto t = [](const IValue& v) { return tensor_arg(v); };
  r.add("aten::mm(Tensor self, Tensor mat2) -> Tensor",
        [t](OpContext&, A a) { return tv(mm(t(a[0]), t(a[1]))); });
  r.add("aten::matmul(Tensor self, Tensor other) -> Tensor",
        [t](OpContext&, A a) { return tv(matmul(t(a[0]), t(a[1]))); });
  r.add("aten::bmm(Tensor self, Tensor mat2) -> Tensor",
        [t](OpContext&, A a) { return tv(bmm(t(a[0]), t(a[1]))); });
  r.add("aten::mv(Tensor self, Tensor vec) -> Tensor",
        [t](OpContext&, A a) { return tv(mv(t(a[0]), t(a[1]))); });
  r.add("aten::dot(Tensor self, Tensor tensor) -> Tensor",
        [t](OpContext&, A a) { return tv(dot(t(a[0]), t(a[1]))); });
  r.add(
      "aten::outer(Tensor self, Tensor vec2) -> Tensor",
      [t](OpContext&, A a) {
        Tensor x = t(a[0]), y = t(a[1]);
        if (x.dim() != 1 || y.dim() != 1) fail("outer: expected 1D tensors");
        return tv(binary_op(BinaryOp::Mul, x.view_as_shape({x.numel(), 1}), y));
      },
      OpTag::NoOnnx);
  r.add(
      "aten::addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> "
      "Tensor",
      [t](OpContext&, A a) { return tv(addmm(a[0], t(a[1]), t(a[2]), a[3], a[4])); });
  r.add("aten::t(Tensor(a) self) -> Tensor(a)", [t](OpContext&, A a) { return tv(t_op(t(a[0]))); });
  r.add("aten::transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)",
        [t](OpContext&, A a) { return tv(transpose(t(a[0]), a[1].to_int(), a[2].to_int())); });
  r.add("aten::permute(Tensor(a) self, int[] dims) -> Tensor(a)",
        [t](OpContext&, A a) { return tv(permute(t(a[0]), a[1].to_int_list())); });
}

}  // namespace d2s::kernels
