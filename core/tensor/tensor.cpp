#include "core/tensor/tensor.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <limits>

#include "core/base/error.h"

namespace d2s {

const char* dtype_name(DType dtype) {
  switch (dtype) {
    case DType::Bool:
      return "bool";
    case DType::Int64:
      return "int64";
    case DType::Float32:
      return "float32";
  }
  return "?";
}

const char* dtype_torch_name(DType dtype) {
  switch (dtype) {
    case DType::Bool:
      return "torch.bool";
    case DType::Int64:
      return "torch.int64";
    case DType::Float32:
      return "torch.float32";
  }
  return "?";
}

bool parse_dtype(const std::string& name, DType* out) {
  // "torch.float32" is accepted too, so that a dtype printed by Python parses back.
  std::string n = name.rfind("torch.", 0) == 0 ? name.substr(6) : name;
  if (n == "float32" || n == "float") {
    *out = DType::Float32;
  } else if (n == "int64" || n == "long" || n == "int") {
    *out = DType::Int64;
  } else if (n == "bool") {
    *out = DType::Bool;
  } else {
    return false;
  }
  return true;
}

size_t dtype_size(DType dtype) {
  switch (dtype) {
    case DType::Bool:
      return 1;
    case DType::Int64:
      return 8;
    case DType::Float32:
      return 4;
  }
  return 1;
}

int64_t dtype_scalar_type(DType dtype) {
  switch (dtype) {
    case DType::Bool:
      return 11;
    case DType::Int64:
      return 4;
    case DType::Float32:
      return 6;
  }
  return 6;
}

bool dtype_from_scalar_type(int64_t code, DType* out) {
  switch (code) {
    case 4:
      *out = DType::Int64;
      return true;
    case 6:
      *out = DType::Float32;
      return true;
    case 11:
      *out = DType::Bool;
      return true;
    default:
      return false;
  }
}

std::string shape_str(const Shape& shape) {
  std::string out = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) out += ", ";
    out += std::to_string(shape[i]);
  }
  return out + "]";
}

int64_t shape_numel(const Shape& shape) {
  // Saturates instead of overflowing, so that absurd shapes hit the size limit
  // in Tensor::empty rather than undefined behaviour.
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d <= 0) return d == 0 ? 0 : n * d;
    if (n > std::numeric_limits<int64_t>::max() / d) return std::numeric_limits<int64_t>::max();
    n *= d;
  }
  return n;
}

namespace {
std::atomic<int64_t> g_max_tensor_elements{kMaxTensorElements};
std::atomic<int64_t> g_max_tensor_memory{kMaxTensorMemory};
}  // namespace

int64_t max_tensor_elements() {
  return g_max_tensor_elements.load(std::memory_order_relaxed);
}

void set_max_tensor_elements(int64_t limit) {
  g_max_tensor_elements.store(std::clamp<int64_t>(limit, 1, kMaxTensorElementsCeiling),
                              std::memory_order_relaxed);
}

std::string max_tensor_elements_hint() {
  return "use smaller sizes, or raise the limit with --max-tensor-elements N (now " +
         std::to_string(max_tensor_elements()) + ")";
}

int64_t max_tensor_memory() {
  return g_max_tensor_memory.load(std::memory_order_relaxed);
}

void set_max_tensor_memory(int64_t bytes) {
  g_max_tensor_memory.store(std::max<int64_t>(bytes, 1), std::memory_order_relaxed);
}

namespace {
std::atomic<size_t> g_storage_live{0};
std::atomic<size_t> g_storage_peak{0};
}  // namespace

Storage::Storage(size_t n) : bytes(n <= kInlineBytes ? inline_bytes : new std::byte[n]), nbytes(n) {
  const size_t live = g_storage_live.fetch_add(n, std::memory_order_relaxed) + n;
  size_t peak = g_storage_peak.load(std::memory_order_relaxed);
  while (live > peak &&
         !g_storage_peak.compare_exchange_weak(peak, live, std::memory_order_relaxed)) {
  }
}

Storage::~Storage() {
  g_storage_live.fetch_sub(nbytes, std::memory_order_relaxed);
  if (bytes != inline_bytes) delete[] bytes;
}

size_t storage_bytes_live() {
  return g_storage_live.load(std::memory_order_relaxed);
}

size_t storage_bytes_peak() {
  return g_storage_peak.load(std::memory_order_relaxed);
}

void reset_storage_peak() {
  g_storage_peak.store(g_storage_live.load(std::memory_order_relaxed), std::memory_order_relaxed);
}

Tensor Tensor::empty(const Shape& shape, DType dtype) {
  for (int64_t d : shape) {
    if (d < 0) {
      throw Error("Trying to create tensor with negative dimension " + std::to_string(d) + ": " +
                  shape_str(shape));
    }
  }
  int64_t n = shape_numel(shape);
  if (n > max_tensor_elements()) {
    throw Error("tensor of shape " + shape_str(shape) + " is too large for d2s (" +
                    std::to_string(n) + " elements; the limit is " +
                    std::to_string(max_tensor_elements()) + ")",
                SourceRange(), max_tensor_elements_hint());
  }
  // n is at most 2^33 here, so the byte counts below are far from overflow.
  const size_t nbytes = static_cast<size_t>(n) * dtype_size(dtype);
  const size_t live = storage_bytes_live();
  if (live + nbytes > static_cast<size_t>(max_tensor_memory())) {
    throw Error("out of tensor memory: a tensor of shape " + shape_str(shape) + " needs " +
                    std::to_string(nbytes) + " bytes while " + std::to_string(live) +
                    " bytes of tensors are alive (the limit is " +
                    std::to_string(max_tensor_memory()) + " bytes)",
                SourceRange(),
                "keep fewer or smaller tensors alive, or raise the limit with "
                "--max-tensor-memory SIZE (e.g. 16GB)");
  }
  auto impl = std::make_shared<TensorImpl>();
  impl->storage = std::make_shared<Storage>(nbytes);
  impl->shape = shape;
  impl->dtype = dtype;
  return Tensor(std::move(impl));
}

Tensor Tensor::zeros(const Shape& shape, DType dtype) {
  Tensor t = empty(shape, dtype);
  std::memset(t.impl_->storage->bytes, 0, t.impl_->storage->nbytes);
  return t;
}

Tensor Tensor::full(const Shape& shape, double value, DType dtype) {
  Tensor t = empty(shape, dtype);
  int64_t n = t.numel();
  switch (dtype) {
    case DType::Float32:
      std::fill_n(t.data<float>(), n, static_cast<float>(value));
      break;
    case DType::Int64: {
      // Out-of-range (and NaN) values have no defined conversion; use INT64_MIN as x86 does.
      bool in_range = value > -9.2233720368547758e18 && value < 9.2233720368547758e18;
      std::fill_n(t.data<int64_t>(), n,
                  in_range ? static_cast<int64_t>(value) : std::numeric_limits<int64_t>::min());
      break;
    }
    case DType::Bool:
      std::fill_n(t.data<bool>(), n, value != 0);
      break;
  }
  return t;
}

namespace {
void check_data_size(const Shape& shape, size_t size) {
  if (shape_numel(shape) != static_cast<int64_t>(size)) {
    throw Error("shape " + shape_str(shape) + " needs " + std::to_string(shape_numel(shape)) +
                " values but " + std::to_string(size) + " were given");
  }
}
}  // namespace

Tensor Tensor::from_floats(const Shape& shape, const std::vector<float>& data) {
  check_data_size(shape, data.size());
  Tensor t = empty(shape, DType::Float32);
  std::copy(data.begin(), data.end(), t.data<float>());
  return t;
}

Tensor Tensor::from_ints(const Shape& shape, const std::vector<int64_t>& data) {
  check_data_size(shape, data.size());
  Tensor t = empty(shape, DType::Int64);
  std::copy(data.begin(), data.end(), t.data<int64_t>());
  return t;
}

Tensor Tensor::from_bools(const Shape& shape, const std::vector<bool>& data) {
  check_data_size(shape, data.size());
  Tensor t = empty(shape, DType::Bool);
  std::copy(data.begin(), data.end(), t.data<bool>());
  return t;
}

Tensor Tensor::scalar(double value, DType dtype) {
  return full({}, value, dtype);
}

int64_t Tensor::size(int64_t d) const {
  int64_t n = dim();
  // A 0-d tensor accepts dims -1 and 0, as PyTorch's maybe_wrap_dim does.
  int64_t lo = n == 0 ? -1 : -n;
  int64_t hi = n == 0 ? 0 : n - 1;
  if (d < lo || d > hi) {
    throw Error("Dimension out of range (expected to be in range of [" + std::to_string(lo) + ", " +
                std::to_string(hi) + "], but got " + std::to_string(d) + ")");
  }
  if (n == 0) return 1;
  return shape()[d < 0 ? d + n : d];
}

double Tensor::value_at(int64_t i) const {
  switch (dtype()) {
    case DType::Float32:
      return data<float>()[i];
    case DType::Int64:
      return static_cast<double>(data<int64_t>()[i]);
    case DType::Bool:
      return data<bool>()[i] ? 1.0 : 0.0;
  }
  return 0;
}

double Tensor::item() const {
  if (numel() != 1) {
    throw Error("a Tensor with " + std::to_string(numel()) +
                " elements cannot be converted to Scalar");
  }
  return value_at(0);
}

Tensor Tensor::view_as_shape(const Shape& shape) const {
  if (shape_numel(shape) != numel()) {
    throw Error("shape '" + shape_str(shape) + "' is invalid for input of size " +
                std::to_string(numel()));
  }
  auto impl = std::make_shared<TensorImpl>();
  impl->storage = impl_->storage;
  impl->shape = shape;
  impl->dtype = impl_->dtype;
  return Tensor(std::move(impl));
}

Tensor Tensor::clone() const {
  Tensor t = empty(shape(), dtype());
  std::memcpy(t.impl_->storage->bytes, impl_->storage->bytes,
              static_cast<size_t>(numel()) * dtype_size(dtype()));
  return t;
}

namespace {
template <typename From, typename To>
void convert(const From* in, To* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    if constexpr (std::is_same_v<To, bool>) {
      out[i] = in[i] != From(0);
    } else if constexpr (std::is_same_v<From, float> && std::is_same_v<To, int64_t>) {
      // Float to int truncates toward zero. NaN and out-of-range values have no
      // defined result in C++; x86 (hence PyTorch on CPU) gives INT64_MIN for them.
      float v = in[i];
      bool in_range = v > -9.2233720368547758e18f && v < 9.2233720368547758e18f;
      out[i] = in_range ? static_cast<int64_t>(v) : std::numeric_limits<int64_t>::min();
    } else {
      out[i] = static_cast<To>(in[i]);
    }
  }
}

template <typename From>
void convert_to(const From* in, Tensor& out) {
  int64_t n = out.numel();
  switch (out.dtype()) {
    case DType::Float32:
      convert(in, out.data<float>(), n);
      break;
    case DType::Int64:
      convert(in, out.data<int64_t>(), n);
      break;
    case DType::Bool:
      convert(in, out.data<bool>(), n);
      break;
  }
}
}  // namespace

Tensor Tensor::to(DType target) const {
  if (target == dtype()) return clone();
  Tensor out = empty(shape(), target);
  switch (dtype()) {
    case DType::Float32:
      convert_to(data<float>(), out);
      break;
    case DType::Int64:
      convert_to(data<int64_t>(), out);
      break;
    case DType::Bool:
      convert_to(data<bool>(), out);
      break;
  }
  return out;
}

bool Tensor::shares_storage(const Tensor& other) const {
  return impl_ && other.impl_ && impl_->storage == other.impl_->storage;
}

}  // namespace d2s
