// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// int8 MatMul and Gemm as CANN's quantized models use them (AMCT: x from an
// AscendQuant, a constant int8 weight, an int32 bias, int32 out into an
// AscendDequant): y = (x - offset_x) @ w (+ bias), int32 sums. offset_x is
// the attribute atc sets from the AscendQuant producing x (conv_int8.h).
// MatMul: x [..., M, K], w [K, N]. Gemm: A [M, K] (transA 0), B [K, N] or
// [N, K] (transB), C int32 [N], alpha = beta = 1. oneDNN's gemm_s8s8s32
// where it is exact (OnednnHasExactInt8), else the reference loop.
#pragma once

#include <string>

#include "ascend_emu/kernel.h"

namespace ascend_emu {
namespace kernels {

bool MatMulIsInt8(const std::vector<TensorRef>& inputs);
std::string InferMatMulInt8(InferContext& ctx);
void RunMatMulInt8(const RunContext& ctx);
std::string InferGemmInt8(InferContext& ctx);
void RunGemmInt8(const RunContext& ctx);
// Both ops' reference loops (the tests compare oneDNN's with them).
void RunMatMulInt8Reference(const RunContext& ctx);
void RunGemmInt8Reference(const RunContext& ctx);

}  // namespace kernels
}  // namespace ascend_emu
