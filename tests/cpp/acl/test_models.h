// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Real emulator .om images for the model tests, written in-process with the
// engine's own .om writer (the same code atc uses), so these tests do not
// depend on atc. atc_model_test.cc covers the ONNX -> atc -> load path.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ascend_emu::acl_test {

// z = Relu((x + y) * w): inputs x, y float32[2, 3]; w a float32[2, 3] weight
// holding kWeights; output z float32[2, 3]. Needs work memory (two arena
// tensors) and weight memory.
std::vector<uint8_t> BuildAddMulReluOm(const std::string& soc_version);

constexpr float kWeights[6] = {1.0f, -1.0f, 2.0f, -2.0f, 0.5f, 3.0f};
constexpr size_t kTensorBytes = 6 * sizeof(float);

// The reference result of the model above.
std::vector<float> ExpectedAddMulRelu(const std::vector<float>& x,
                                      const std::vector<float>& y);

}  // namespace ascend_emu::acl_test
