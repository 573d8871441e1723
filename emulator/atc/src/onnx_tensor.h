// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// ONNX tensors and types as the engine sees them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ascend_emu/tensor.h"
#include "onnx/onnx_pb.h"

namespace ascend_emu {
namespace atc {

// The engine dtype of an ONNX TensorProto.DataType; false when the emulator
// has none (double, string, ...).
bool DTypeFromOnnx(int32_t elem_type, DType* dtype);

// ONNX's name for a TensorProto.DataType ("FLOAT", "DOUBLE", ...).
std::string OnnxTypeName(int32_t elem_type);

// The dtype and shape of an initializer or a Constant's value and the bytes
// its data must hold (dtype size x element count), checked for size
// overflow. Returns "" or why the emulator cannot hold it.
std::string DecodeTensorType(const onnx::TensorProto& tensor, DType* dtype,
                             Shape* shape, uint64_t* nbytes);

// Decodes an initializer or a Constant's value (raw_data or the typed
// fields) into little-endian bytes. Returns "" or why it cannot (external
// data included: initializers stored that way go through ExternalData).
std::string DecodeTensor(const onnx::TensorProto& tensor, DType* dtype,
                         Shape* shape, std::vector<uint8_t>* bytes);

// A fully static tensor type: true and *dtype/*shape set; false when the
// type is not a tensor, its dtype is not the engine's, or a dim is unknown.
bool StaticTensorType(const onnx::TypeProto& type, DType* dtype, Shape* shape);

}  // namespace atc
}  // namespace ascend_emu
