// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Builds small ONNX models with the onnx protobuf API and compiles them with
// the emulator's atc (path in env EXECUTORCH_ASCEND_ATC), giving the tests a
// real emulator .om.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace executorch::backends::ascend::testing {

// z[2,3] = x[2,3] + y[2,3] (float32).
std::string add_model_onnx();
// y[2,3] = Relu(x[2,4] @ W), W a [4,3] initializer with W[i][j] = i - j.
std::string matmul_relu_model_onnx();

// A running sum as device state: s_out = s + x, y = s_out * 2 (all [2,3]
// float32; inputs x then s, outputs y then s_out).
std::string accumulate_model_onnx();

// y[b,3] = 3 * x[b,3], b a dynamic batch (for atc --dynamic_batch_size).
std::string batch_scale_model_onnx();

// y = Identity(x), x float32 [1, 3, 4, 4], compiled with dynamic AIPP
// (aipp_mode: dynamic, max_src_image_size 48: one 4x4 RGB888_U8 frame): the
// .om takes the frame, uint8 [1, 48], and ascend_dynamic_aipp_data
// (160 bytes). Empty with `error` set when atc fails.
std::vector<uint8_t> dynamic_aipp_om(std::string* error);

// Compiles serialized ONNX bytes with `atc --framework=5` and
// `extra_options` (e.g. shape gears); returns the .om bytes, or an empty
// vector with `error` set.
std::vector<uint8_t> compile_with_atc(const std::string& onnx_bytes,
                                      const std::string& name,
                                      std::string* error,
                                      const std::string& extra_options = "");

}  // namespace executorch::backends::ascend::testing
