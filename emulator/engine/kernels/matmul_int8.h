// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// int8 MatMul and Gemm as CANN's quantized models use them (AMCT: x from an
// AscendQuant, a constant int8 weight, an int32 bias, int32 out into an
// AscendDequant): y = (x - offset_x) @ w (+ bias), int32 sums. offset_x is
// the attribute atc sets from the AscendQuant producing x (conv_int8.h).
// MatMul: x [..., M, K], w [K, N]. Gemm: A [M, K] (transA 0), B [K, N] or
// [N, K] (transB), C int32 [N], alpha = beta = 1. oneDNN's gemm_s8s8s32
// where it is exact (OnednnHasExactInt8); elsewhere, with a constant weight
// (prepared at load as float), oneDNN's sgemm over chunks of 512 of K, exact
// (every partial sum an integer below 2^24), summed in int32; else the
// reference loop.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "ascend_emu/kernel.h"

namespace ascend_emu {
namespace kernels {

bool MatMulIsInt8(const std::vector<TensorRef>& inputs);
std::string InferMatMulInt8(InferContext& ctx);
// bias: int32 [N] added to every row of the sums (wrapping), or null
// (FusedMatMulInt8's merged Add; the MatMul op has none).
void RunMatMulInt8(const RunContext& ctx, const int32_t* bias = nullptr);
std::string InferGemmInt8(InferContext& ctx);
void RunGemmInt8(const RunContext& ctx);
// Both ops' reference loops (the tests compare the fast paths with them).
void RunMatMulInt8Reference(const RunContext& ctx);
void RunGemmInt8Reference(const RunContext& ctx);
// y [m, n] = a [m, k] @ op(b) (+ bias[j] when not null), int32 wrapping
// sums: the int8 MatMul's product (oneDNN's gemm_s8s8s32 where it is exact,
// else the reference loop), for the ops that dequantize it themselves
// (QuantBatchMatMul).
void Int8Product(const int8_t* a, const int8_t* b, bool trans_b,
                 const int32_t* bias, int64_t m, int64_t n, int64_t k,
                 int32_t* y);
// Where oneDNN's int8 GEMM is not exact: the constant weight as float for
// the exact float path (else null: the reference loop runs).
std::unique_ptr<PreparedOp> PrepareMatMulInt8(const PrepareContext& ctx);
// Test and benchmark hook: off, ops prepared after the call keep the
// reference loop where oneDNN's int8 GEMM is not exact. On by default.
void SetMatMulInt8ViaFloatForTest(bool on);

}  // namespace kernels
}  // namespace ascend_emu
