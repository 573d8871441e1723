// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Decoding ONNX tensors. Lengths are checked against the declared dims before
// any copy, so a malformed initializer is an error, never a wild read.
#include "onnx_tensor.h"

#include <cstring>
#include <string>
#include <vector>

namespace ascend_emu {
namespace atc {
namespace {

constexpr uint64_t kMaxTensorBytes = uint64_t{1} << 40;

template <typename T, typename Repeated>
void PackAs(const Repeated& values, std::vector<uint8_t>* bytes) {
  bytes->resize(static_cast<size_t>(values.size()) * sizeof(T));
  uint8_t* out = bytes->data();
  for (const auto& v : values) {
    const T narrowed = static_cast<T>(v);
    std::memcpy(out, &narrowed, sizeof(T));
    out += sizeof(T);
  }
}

}  // namespace

bool DTypeFromOnnx(int32_t elem_type, DType* dtype) {
  switch (elem_type) {
    case onnx::TensorProto::FLOAT:
      *dtype = DType::kFloat32;
      return true;
    case onnx::TensorProto::FLOAT16:
      *dtype = DType::kFloat16;
      return true;
    case onnx::TensorProto::BFLOAT16:
      *dtype = DType::kBFloat16;
      return true;
    case onnx::TensorProto::INT8:
      *dtype = DType::kInt8;
      return true;
    case onnx::TensorProto::UINT8:
      *dtype = DType::kUInt8;
      return true;
    case onnx::TensorProto::INT32:
      *dtype = DType::kInt32;
      return true;
    case onnx::TensorProto::INT64:
      *dtype = DType::kInt64;
      return true;
    case onnx::TensorProto::UINT64:  // AscendDequant's deq_scale
      *dtype = DType::kUInt64;
      return true;
    case onnx::TensorProto::BOOL:
      *dtype = DType::kBool;
      return true;
    default:
      return false;
  }
}

std::string OnnxTypeName(int32_t elem_type) {
  if (onnx::TensorProto::DataType_IsValid(elem_type)) {
    return onnx::TensorProto::DataType_Name(
        static_cast<onnx::TensorProto::DataType>(elem_type));
  }
  return "type " + std::to_string(elem_type);
}

std::string DecodeTensorType(const onnx::TensorProto& t, DType* dtype,
                             Shape* shape, uint64_t* nbytes) {
  const std::string label = "tensor '" + t.name() + "'";
  if (t.has_segment()) return label + " is segmented, which is not supported";
  if (!DTypeFromOnnx(t.data_type(), dtype)) {
    return label + " has dtype " + OnnxTypeName(t.data_type()) +
           ", which the emulator does not support";
  }
  if (t.dims_size() > kMaxRank) {
    return label + " has rank " + std::to_string(t.dims_size()) +
           " (the emulator supports up to " + std::to_string(kMaxRank) + ")";
  }
  *shape = Shape();
  uint64_t numel = 1;
  for (int i = 0; i < t.dims_size(); ++i) {
    const int64_t d = t.dims(i);
    if (d < 0) return label + " has a negative dim";
    if (d != 0 && numel > kMaxTensorBytes / static_cast<uint64_t>(d)) {
      return label + " is too large";
    }
    numel *= static_cast<uint64_t>(d);
    shape->dims[shape->rank++] = d;
  }
  const size_t elem = DTypeSize(*dtype);
  if (numel > kMaxTensorBytes / elem) return label + " is too large";
  *nbytes = numel * elem;
  return "";
}

std::string DecodeTensor(const onnx::TensorProto& t, DType* dtype, Shape* shape,
                         std::vector<uint8_t>* bytes) {
  const std::string label = "tensor '" + t.name() + "'";
  if (t.data_location() == onnx::TensorProto::EXTERNAL) {
    // Graph initializers are read by onnx_external_data.h; a Constant
    // node's value in another file is something no exporter writes.
    return label +
           " uses ONNX external data, which the emulator's atc reads only for "
           "graph initializers";
  }
  uint64_t expected = 0;
  std::string err = DecodeTensorType(t, dtype, shape, &expected);
  if (!err.empty()) return err;
  const size_t elem = DTypeSize(*dtype);
  const uint64_t numel = expected / elem;

  if (t.has_raw_data()) {
    if (t.raw_data().size() != expected) {
      return label + " has " + std::to_string(t.raw_data().size()) +
             " bytes of raw_data, its dims need " + std::to_string(expected);
    }
    bytes->assign(t.raw_data().begin(), t.raw_data().end());
    return "";
  }
  switch (*dtype) {
    case DType::kFloat32:
      PackAs<float>(t.float_data(), bytes);
      break;
    case DType::kInt64:
      PackAs<int64_t>(t.int64_data(), bytes);
      break;
    case DType::kUInt64:  // ONNX keeps UINT64 values in uint64_data
      PackAs<uint64_t>(t.uint64_data(), bytes);
      break;
    case DType::kInt32:
      PackAs<int32_t>(t.int32_data(), bytes);
      break;
    case DType::kFloat16:   // the int32 field holds the 16-bit patterns
    case DType::kBFloat16:  // (ONNX stores both that way)
      PackAs<uint16_t>(t.int32_data(), bytes);
      break;
    case DType::kInt8:
      PackAs<int8_t>(t.int32_data(), bytes);
      break;
    case DType::kUInt8:
    case DType::kBool:
      PackAs<uint8_t>(t.int32_data(), bytes);
      break;
  }
  if (bytes->size() != expected) {
    return label + " holds " + std::to_string(bytes->size() / elem) +
           " values, its dims need " + std::to_string(numel);
  }
  return "";
}

bool StaticTensorType(const onnx::TypeProto& type, DType* dtype, Shape* shape) {
  if (!type.has_tensor_type()) return false;
  const auto& tt = type.tensor_type();
  if (!DTypeFromOnnx(tt.elem_type(), dtype) || !tt.has_shape()) return false;
  if (tt.shape().dim_size() > kMaxRank) return false;
  *shape = Shape();
  for (const auto& dim : tt.shape().dim()) {
    if (!dim.has_dim_value() || dim.dim_value() < 0) return false;
    shape->dims[shape->rank++] = dim.dim_value();
  }
  return true;
}

}  // namespace atc
}  // namespace ascend_emu
