// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Vectorised float32 math over contiguous blocks, on Eigen's packet math
// (AVX-512/AVX2/SSE as the build's EXECUTORCH_ASCEND_EMULATOR_ARCH allows):
// the transcendental functions the transformers spend their elementwise time
// in (Erf of BERT's GELU, Tanh of GPT-2's, Softmax's Exp, the Sigmoid of
// Llama's SiLU). Eigen's erf and
// tanh are rational approximations accurate to a couple of ulp that clamp
// their argument; NaN is put back afterwards, so NaN stays NaN as ONNX wants.
// x and y may be the same buffer.
#pragma once

#include <cstdint>

#include "ascend_emu/kernel.h"

namespace ascend_emu {
namespace kernels {

void ErfBlock(const float* x, float* y, int64_t n);
void TanhBlock(const float* x, float* y, int64_t n);
void ExpBlock(const float* x, float* y, int64_t n);
// 1 / (1 + exp(-x)) in its stable form (Llama's SiLU, Sigmoid).
void SigmoidBlock(const float* x, float* y, int64_t n);
// x * Sigmoid(x) (SiLU; atc's Swish, Sigmoid and Mul fused): the Sigmoid
// block's values, multiplied by x element by element, so float32 results are
// those of the two ops apart.
void SwishBlock(const float* x, float* y, int64_t n);
// y = exp(x - shift); returns the sum of y (Softmax's row).
float ExpShiftSumBlock(const float* x, float shift, float* y, int64_t n);
// The largest of x[0..n), NaN if any is NaN (n >= 1; Softmax's row).
float MaxBlock(const float* x, int64_t n);

// Run of a one-input float op whose float32 work is `block` (one of the
// above): float32 in place of the output, float16/bfloat16 through a float
// buffer on the stack, rounded once on store.
void MapFloatBlocks(const RunContext& ctx,
                    void (*block)(const float*, float*, int64_t));

}  // namespace kernels
}  // namespace ascend_emu
