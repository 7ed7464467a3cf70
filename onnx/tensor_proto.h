// Tensors and element types between d2s and ONNX's protobuf messages.
//
// d2s tensors are float32, int64 or bool; ONNX's other element types (float16,
// double, int32, uint8, strings, ...) have no d2s dtype, so reading one is an
// UnsupportedType error, which the importer reports (exit 2) and the test-data
// runner counts as a skip.
#pragma once

#include <onnx/onnx_pb.h>

#include <optional>
#include <stdexcept>
#include <string>

#include "core/tensor/tensor.h"

namespace d2s::onnx_io {

// A model uses something d2s has no counterpart for (an element type, a sequence
// type): not a bug in the file, so the test-data runner skips rather than fails.
struct Unsupported : std::runtime_error {
  Unsupported(std::string what, std::string key)
      : std::runtime_error(std::move(what)), key(std::move(key)) {}
  std::string key;  // what is missing, for the skip counts: "op Foo", "dtype double"
};

// onnx::TensorProto::FLOAT / INT64 / BOOL.
int elem_type_of(DType dtype);
// The d2s dtype of an ONNX element type; nullopt for the others.
std::optional<DType> dtype_of_elem_type(int elem_type);
// "float16", "double", ...: the ONNX name of an element type.
std::string elem_type_name(int elem_type);

// A d2s tensor as a TensorProto (raw_data, little-endian as ONNX stores it).
void tensor_to_proto(const Tensor& t, const std::string& name, onnx::TensorProto* proto);
// A TensorProto (raw_data or the typed fields) as a d2s tensor. Throws Unsupported
// for element types d2s has none of, and d2s::Error for a malformed one (data not
// matching the dims, external data).
Tensor tensor_from_proto(const onnx::TensorProto& proto);

}  // namespace d2s::onnx_io
