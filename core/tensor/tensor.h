// Tensor: a dense, row-major, n-dimensional array of float32, int64 or bool.
//
// A Tensor is a handle to a TensorImpl (shape, dtype, storage); copying the handle
// aliases, as in PyTorch. Views that keep the row-major layout (reshape, view,
// squeeze, unsqueeze, flatten) share storage; the other views (select, slice,
// transpose, permute, expand, narrow, unbind, split, chunk) hold their elements in a
// storage of their own, and core/autograd/views.h keeps them and their base in step as
// PyTorch's shared storage would (writes through either reach the other). The impl's
// address is the tensor's identity (the tracer maps it to a graph value).
// Kernels live in core/ops/kernels_*.cpp and reach the data through Eigen maps; this
// header stays free of Eigen so that most of the project compiles fast.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace d2s {

enum class DType : uint8_t { Bool, Int64, Float32 };

// "bool", "int64", "float32": the names used in YAML files and graph types.
const char* dtype_name(DType dtype);
// Parses a dtype name (also accepts "float", "long", "int"); false when unknown.
bool parse_dtype(const std::string& name, DType* out);
size_t dtype_size(DType dtype);
// TorchScript's ScalarType codes (Long = 4, Float = 6, Bool = 11): how a dtype is
// held in an IValue (`torch.float32` evaluates to the int 6, as in TorchScript
// graphs). dtype_from_scalar_type is false for codes d2s does not support.
int64_t dtype_scalar_type(DType dtype);
bool dtype_from_scalar_type(int64_t code, DType* out);
// "torch.float32", "torch.int64", "torch.bool": as Python prints a dtype.
const char* dtype_torch_name(DType dtype);

using Shape = std::vector<int64_t>;
std::string shape_str(const Shape& shape);  // "[1, 20]"
int64_t shape_numel(const Shape& shape);

// The largest tensor d2s will allocate (elements) by default; larger requests are a
// clear error. The limit in force is max_tensor_elements(): one process-wide setting,
// because every allocation site (kernels, YAML readers) would otherwise need a context
// threaded through it; the CLI sets it once from `--max-tensor-elements`, before any
// work starts.
inline constexpr int64_t kMaxTensorElements = int64_t{1} << 28;
int64_t max_tensor_elements();
void set_max_tensor_elements(int64_t limit);  // clamped to [1, kMaxTensorElementsCeiling]
// The highest limit a user may set: 2^33 elements (32 GiB of float32) keeps every byte
// count far from int64 and size_t overflow.
inline constexpr int64_t kMaxTensorElementsCeiling = int64_t{1} << 33;
// The hint of every "too large" error: how to raise the limit.
std::string max_tensor_elements_hint();

// The most bytes of tensor storage alive at once in the process (every tensor, inputs
// and weights included) by default: an allocation past it is a clear error, so that a
// program that keeps tensors alive (a loop that cats onto a growing tensor, say) stops
// with a message instead of exhausting the machine. Like the element limit it is one
// process-wide setting; the CLI sets it from `--max-tensor-memory`.
inline constexpr int64_t kMaxTensorMemory = int64_t{1} << 33;  // 8 GiB
int64_t max_tensor_memory();
void set_max_tensor_memory(int64_t bytes);  // at least 1

// The bytes of a tensor. Small ones (up to kInlineBytes) live inside the Storage
// object, so that a tiny tensor costs one heap allocation fewer: on 1x1 and 8x8
// tensors the executor's time per op is mostly allocation.
struct Storage {
  static constexpr size_t kInlineBytes = 64;
  explicit Storage(size_t nbytes);
  ~Storage();
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;
  std::byte* bytes;  // inline_bytes or a heap block of nbytes
  size_t nbytes;
  // PyTorch's version counter: bumped by every in-place write (an op whose schema
  // marks an argument `(a!)`), shared by all views of the storage as PyTorch shares
  // it between a tensor and its views. The autograd compares it with the version a
  // saved tensor had when it was saved.
  uint64_t version = 0;
  alignas(16) std::byte inline_bytes[kInlineBytes];
};

// Bytes of tensor storage alive in the process now, and the most alive at once since
// the last reset_storage_peak() (which starts it from the bytes alive now): what the
// benchmarks report as a run's peak tensor memory.
size_t storage_bytes_live();
size_t storage_bytes_peak();
void reset_storage_peak();

struct AutogradMeta;  // defined by the autograd engine (gradients issue)
struct ViewMeta;      // core/tensor/view_layout.h: how a view was taken from its base
struct ViewFamily;    // core/autograd/views.h: the live views of a base

struct TensorImpl {
  std::shared_ptr<Storage> storage;
  Shape shape;
  DType dtype = DType::Float32;
  bool requires_grad = false;
  std::shared_ptr<AutogradMeta> autograd;
  std::shared_ptr<ViewMeta> view;     // set when this tensor is a view of another
  std::shared_ptr<ViewFamily> views;  // set on a base that views were taken from
};

class Tensor {
 public:
  Tensor() = default;

  // Uninitialised / filled tensors. Throw d2s::Error past kMaxTensorElements.
  static Tensor empty(const Shape& shape, DType dtype);
  static Tensor zeros(const Shape& shape, DType dtype = DType::Float32);
  static Tensor full(const Shape& shape, double value, DType dtype = DType::Float32);
  static Tensor from_floats(const Shape& shape, const std::vector<float>& data);
  static Tensor from_ints(const Shape& shape, const std::vector<int64_t>& data);
  static Tensor from_bools(const Shape& shape, const std::vector<bool>& data);
  // 0-d tensors, as torch.tensor(3.0) gives.
  static Tensor scalar(double value, DType dtype = DType::Float32);

  bool defined() const { return impl_ != nullptr; }
  DType dtype() const { return impl_->dtype; }
  const Shape& shape() const { return impl_->shape; }
  int64_t dim() const { return static_cast<int64_t>(impl_->shape.size()); }
  int64_t numel() const { return shape_numel(impl_->shape); }
  // Size of dimension d; negative d counts from the end. Throws on a bad d.
  int64_t size(int64_t d) const;

  template <typename T>
  T* data() {
    return reinterpret_cast<T*>(impl_->storage->bytes);
  }
  template <typename T>
  const T* data() const {
    return reinterpret_cast<const T*>(impl_->storage->bytes);
  }

  // Element i (row-major) converted to double; for scalars, printing, YAML.
  double value_at(int64_t i) const;
  // The single element as double; throws d2s::Error when numel() != 1.
  double item() const;

  // Same storage, new shape (numel must match).
  Tensor view_as_shape(const Shape& shape) const;
  Tensor clone() const;
  Tensor to(DType dtype) const;

  // The version of the tensor's data (Storage::version) and its bump by an in-place write.
  uint64_t version() const { return impl_->storage->version; }
  void bump_version() { ++impl_->storage->version; }

  bool requires_grad() const { return impl_ && impl_->requires_grad; }
  void set_requires_grad(bool on) { impl_->requires_grad = on; }
  TensorImpl* impl() const { return impl_.get(); }
  // A non-owning reference to the tensor object, and back (an empty handle once the
  // object is gone): how a base lists its views without keeping them alive.
  std::weak_ptr<TensorImpl> weak() const { return impl_; }
  static Tensor lock(const std::weak_ptr<TensorImpl>& weak) { return Tensor(weak.lock()); }
  // True when both handles refer to the same tensor object.
  bool is_same(const Tensor& other) const { return impl_ == other.impl_; }
  bool shares_storage(const Tensor& other) const;
  // True when this handle is the only reference to the tensor, no view shares its
  // storage and it is neither a view nor a base with views: nobody else can see its
  // elements, so they may be overwritten (and the object reused as a fresh result).
  bool sole_owner() const {
    return impl_ && impl_.use_count() == 1 && impl_->storage.use_count() == 1 && !impl_->view &&
           !impl_->views;
  }

 private:
  explicit Tensor(std::shared_ptr<TensorImpl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<TensorImpl> impl_;
};

}  // namespace d2s
