// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Reading an ONNX model the way CANN's ONNX parser accepts it: protobuf,
// ai.onnx opset 11..18, every node registered for that exact opset, then
// ONNX's checker and shape inference with the --input_shape overrides, and
// static input shapes only.
#pragma once

#include <cstdint>
#include <string>

#include "atc_options.h"
#include "onnx/onnx_pb.h"
#include "onnx_external_data.h"

namespace ascend_emu {
namespace atc {

constexpr int64_t kMinOnnxOpset = 11;
constexpr int64_t kMaxOnnxOpset = 18;

// Fills *model (shape-inferred, input shapes fixed), *opset (the model's
// ai.onnx opset) and *external (the initializers stored as ONNX external
// data, mapped from their files; it must outlive every use of their bytes).
// Returns "" or the reason the model is refused.
std::string LoadOnnxModel(const AtcOptions& options, onnx::ModelProto* model,
                          int64_t* opset, ExternalData* external);

// "node 'name' op 'Type'" (or "node #i" when unnamed), for messages.
std::string NodeLabel(const onnx::NodeProto& node, int index);

}  // namespace atc
}  // namespace ascend_emu
