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

// The same model with w in an external weight file (atc --external_weight):
// file kExternalName holds kExternalFileBytes bytes, w at offset
// kExternalWeightOffset (the bytes before it are padding the model never
// reads). No weight memory; the file must be bound or read from a folder.
std::vector<uint8_t> BuildAddMulReluExternalOm(const std::string& soc_version);

constexpr char kExternalName[] = "weight_w";
constexpr size_t kExternalWeightOffset = 64;
constexpr size_t kExternalFileBytes = kExternalWeightOffset + 6 * sizeof(float);
// kExternalFileBytes rounded up to ACL_EXTERNAL_WEIGHT_SIZE_ALIGNMENT.
constexpr size_t kExternalBindBytes = 96;

// The bytes of that file, with w = `weights` (kWeights by default).
std::vector<uint8_t> ExternalWeightFile(const float* weights = kWeights);

// The reference result of the models above.
std::vector<float> ExpectedAddMulRelu(const std::vector<float>& x,
                                      const std::vector<float>& y,
                                      const float* weights = kWeights);

// Kernels at real model sizes, for the allocation tests: y = Relu(Conv(x, W,
// b)) (FusedConv, float32, 3x3, pads 1, x [1, 16, 16, 16], W [16, 16, 3, 3],
// prepared at load: oneDNN's primitive) and z = a @ B (a [64, 128], B [128,
// 128]: above the size that runs on Eigen). Inputs x, a; outputs y, z. The
// weights are kConvMatMul* below.
std::vector<uint8_t> BuildConvMatMulOm(const std::string& soc_version);

constexpr int64_t kConvC = 16, kConvH = 16;  // x [1, C, H, H], y likewise
constexpr int64_t kMatM = 64, kMatK = 128, kMatN = 128;
std::vector<float> ConvMatMulWeight(size_t n, int salt);  // W: 0, b: 1, B: 2
// The reference results (float64 accumulation).
std::vector<float> ExpectedConvRelu(const std::vector<float>& x);
std::vector<float> ExpectedMatMul(const std::vector<float>& a);

// A tiny MLP like the per-call benchmark's (batch 1, so each Gemm is one
// row: Eigen's GEMV path): z = alpha2 * Relu(x @ W1^T + b1) @ W2 + beta2 *
// b2 (Gemm transB=1 with bias, Relu, Gemm with alpha and beta). Input x [1,
// kMlpIn], output z [1, kMlpOut]; weights are ConvMatMulWeight(n, 5..8).
std::vector<uint8_t> BuildTinyMlpOm(const std::string& soc_version);
constexpr int64_t kMlpIn = 16, kMlpHidden = 32, kMlpOut = 16;
constexpr float kMlpAlpha2 = 0.5f, kMlpBeta2 = 2.0f;
std::vector<float> ExpectedTinyMlp(const std::vector<float>& x);

}  // namespace ascend_emu::acl_test
