// Tensors and element types between d2s and ONNX (tensor_proto.h).
#include "onnx/tensor_proto.h"

#include <cctype>
#include <cstring>

#include "core/base/error.h"

namespace d2s::onnx_io {

int elem_type_of(DType dtype) {
  switch (dtype) {
    case DType::Float32:
      return onnx::TensorProto::FLOAT;
    case DType::Int64:
      return onnx::TensorProto::INT64;
    case DType::Bool:
      return onnx::TensorProto::BOOL;
  }
  return onnx::TensorProto::UNDEFINED;
}

std::optional<DType> dtype_of_elem_type(int elem_type) {
  switch (elem_type) {
    case onnx::TensorProto::FLOAT:
      return DType::Float32;
    case onnx::TensorProto::INT64:
      return DType::Int64;
    case onnx::TensorProto::BOOL:
      return DType::Bool;
    default:
      return std::nullopt;
  }
}

std::string elem_type_name(int elem_type) {
  if (onnx::TensorProto::DataType_IsValid(elem_type)) {
    std::string name =
        onnx::TensorProto::DataType_Name(static_cast<onnx::TensorProto::DataType>(elem_type));
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return name;
  }
  return "element type " + std::to_string(elem_type);
}

void tensor_to_proto(const Tensor& t, const std::string& name, onnx::TensorProto* proto) {
  proto->set_name(name);
  proto->set_data_type(elem_type_of(t.dtype()));
  for (int64_t d : t.shape()) proto->add_dims(d);
  const Tensor c = t.clone();  // contiguous, row-major
  proto->set_raw_data(std::string(reinterpret_cast<const char*>(c.data<std::byte>()),
                                  static_cast<size_t>(c.numel()) * dtype_size(c.dtype())));
}

Tensor tensor_from_proto(const onnx::TensorProto& proto) {
  if (proto.data_location() == onnx::TensorProto::EXTERNAL) {
    throw Error("tensor '" + proto.name() + "' keeps its data in an external file", SourceRange(),
                "d2s reads models whose tensors are stored inside the file");
  }
  std::optional<DType> dtype = dtype_of_elem_type(proto.data_type());
  if (!dtype) {
    throw Unsupported("tensor '" + proto.name() + "' has element type " +
                          elem_type_name(proto.data_type()) +
                          ", which d2s does not have (float32, int64 and bool only)",
                      "dtype " + elem_type_name(proto.data_type()));
  }
  Shape shape;
  int64_t numel = 1;
  for (int64_t d : proto.dims()) {
    if (d < 0) throw Error("tensor '" + proto.name() + "' has a negative dimension");
    shape.push_back(d);
    if (d != 0 && numel > kMaxTensorElementsCeiling / d) {
      throw Error("tensor '" + proto.name() + "' is too large");
    }
    numel *= d;
  }
  Tensor t = Tensor::empty(shape, *dtype);
  const size_t bytes = static_cast<size_t>(numel) * dtype_size(*dtype);
  auto mismatch = [&](size_t have) {
    return Error("tensor '" + proto.name() + "' holds " + std::to_string(have) +
                 " values, its dims say " + std::to_string(numel));
  };
  if (proto.has_raw_data()) {
    if (proto.raw_data().size() != bytes)
      throw mismatch(proto.raw_data().size() / dtype_size(*dtype));
    if (bytes) std::memcpy(t.data<std::byte>(), proto.raw_data().data(), bytes);
    if (*dtype == DType::Bool) {
      bool* b = t.data<bool>();
      const auto* raw = reinterpret_cast<const unsigned char*>(proto.raw_data().data());
      for (int64_t i = 0; i < numel; ++i) b[i] = raw[i] != 0;
    }
    return t;
  }
  switch (*dtype) {
    case DType::Float32:
      if (proto.float_data_size() != numel) throw mismatch(proto.float_data_size());
      for (int64_t i = 0; i < numel; ++i)
        t.data<float>()[i] = proto.float_data(static_cast<int>(i));
      break;
    case DType::Int64:
      if (proto.int64_data_size() != numel) throw mismatch(proto.int64_data_size());
      for (int64_t i = 0; i < numel; ++i)
        t.data<int64_t>()[i] = proto.int64_data(static_cast<int>(i));
      break;
    case DType::Bool:  // bools are stored in int32_data
      if (proto.int32_data_size() != numel) throw mismatch(proto.int32_data_size());
      for (int64_t i = 0; i < numel; ++i)
        t.data<bool>()[i] = proto.int32_data(static_cast<int>(i)) != 0;
      break;
  }
  return t;
}

}  // namespace d2s::onnx_io
