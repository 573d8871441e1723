// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Emulator .om images whose weight is an external weight file (what atc
// --external_weight writes), built in-process with the engine's .om writer,
// and the blobs that name the file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "program_spec.h"

namespace executorch::backends::ascend::testing {

// Every model here is [kRows, kCols] float32 in and out, reading the weight
// file kWeightName (kRows * kCols floats, w[i] = kWeightAt(i)) stored under
// the named-data key kWeightKey.
inline constexpr int kRows = 63;
inline constexpr int kCols = 65;  // 16380 bytes: not a multiple of 32
inline constexpr size_t kElements = kRows * kCols;
inline constexpr size_t kTensorBytes = kElements * sizeof(float);
inline constexpr char kWeightName[] = "weight_w";
inline constexpr char kWeightKey[] = "ascend/weight/w";
inline float weight_at(size_t i) { return static_cast<float>(i % 7) - 3.0f; }

// y = Relu(x * w): one arena tensor, so it needs work memory.
std::vector<uint8_t> scale_relu_om();
// y = Relu(x + w): another partition reading the same file.
std::vector<uint8_t> shift_relu_om();
// y = Relu(x * w) on [2, 3] with w inline: a small work size.
std::vector<uint8_t> small_inline_om();

// The weight file's bytes.
std::vector<uint8_t> weight_bytes();

// A blob for `om_key` listing kWeightName under kWeightKey.
BlobSpec external_blob(const std::string& om_key);

}  // namespace executorch::backends::ascend::testing
