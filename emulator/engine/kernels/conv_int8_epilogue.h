// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// FusedConvDequant's epilogue (conv_int8_fused.cc): AscendDequant's
// arithmetic (dequant.h), the exact float16 -> float32 widening, the
// activation and a merged AscendQuant (quant.h) applied to the int8 Conv's
// int32 result, in the layouts the Conv writes and the op's output is
// agreed in: NCHW to NCHW, channels last to NCHW (8x8 blocks transposed in
// registers), channels last to channels last. Every pass gives what the
// unfused chain gives, bit for bit (kernels_test_conv_dequant.cc).
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "ascend_emu/kernel.h"
#include "dequant.h"
#include "quant.h"
#include "requant_table.h"

// The channels-last passes (AVX2 intrinsics: the 8x8 transposes).
#if defined(__AVX2__) && defined(__FMA__) && defined(__F16C__)
#define ASCEND_EMU_FUSED_CHANNELS_LAST 1
#endif

namespace ascend_emu {
namespace kernels {

// The merged AscendQuant's attributes: its own names behind this prefix.
constexpr const char* kQuantPrefix = "quant_";

// What the epilogue applies after AscendDequant's float16 rounding.
struct Epilogue {
  bool u64 = true, twice = false, relu_flag = false, to_float = false;
  bool relu = false, clip = false;
  // The activation as a clamp (Relu: [0, inf], none: [-inf, inf]).
  float lo = -std::numeric_limits<float>::infinity();
  float hi = std::numeric_limits<float>::infinity();
  // An AscendQuant merged after the activation: int8 out.
  bool quant = false;
  QuantParams q;
};

// The op's attributes (Infer validated them) and deq_scale's dtype.
Epilogue ReadEpilogue(const Attributes& attrs, const TensorRef& deq);

// Infer's check of the output-stage attributes both fused int8 ops take
// (FusedConvDequant, FusedMatMulInt8): `to` 10 or 1, `activation` Relu or
// Clip, `activation_params` with Clip alone. "" when they are sound.
std::string CheckOutputStage(const char* op, const Attributes& attrs);

// deq_scale's scales in order; *any_special: one of them is inf or NaN.
std::vector<DeqScale> ReadDeqScales(const TensorRef& deq, bool* any_special);

// Planes under a vector's length (the last blocks' 2x2, 4x4) take vectors
// across channels, each element given its channel's scale in arrays of up
// to kSmallChunk elements; the channels-last passes likewise chunks of
// whole pixels.
constexpr int64_t kSmallChunk = 1024;

// y (N, M, plane) from the int32 result in NCHW, channel c with scales[c]
// (or scales[0] for one scale).
void ApplyEpilogue(const int32_t* acc, int64_t n, int64_t m, int64_t plane,
                   const DeqScale* scales, bool per_channel, bool any_special,
                   const Epilogue& e, void* y);

// y (N, M, plane) from the int32 result channels last ([N, plane, M]): the
// reference on every element (any scale, special ones included).
void ApplyEpilogueChannelsLastReference(const int32_t* acc, int64_t n,
                                        int64_t m, int64_t plane,
                                        const DeqScale* scales,
                                        bool per_channel, const Epilogue& e,
                                        void* y);

#if defined(ASCEND_EMU_FUSED_CHANNELS_LAST)
// The same with uint64 scales, none special: 8x8 blocks transposed in
// registers; vs holds each channel's vscale.
void ApplyEpilogueChannelsLast(const int32_t* acc, int64_t n, int64_t m,
                               int64_t plane, const DeqScale* scales,
                               const float* vs, bool per_channel,
                               const Epilogue& e, void* y);
#endif

#if defined(ASCEND_EMU_FUSED_CHANNELS_LAST)
// Channels last in and out ([pixels, M], count = pixels * M elements,
// uint64 scales, none special): y = the table's int8 (BuildRequantTable)
// for each dequantized acc, in chunks of `per` whole pixels whose
// channels' vscales rep_vs repeats (per * M of them).
void RequantNhwcByTable(const int32_t* acc, int64_t count, int64_t m,
                        const DeqScale* scales, bool per_channel,
                        const float* rep_vs, int64_t per,
                        const RequantTable& table, int8_t* y);
#endif

// The merged AscendQuant as a table, for a prepared op to build once.
// AscendDequant's results are float16 values, so what relu_flag, the
// activation and the AscendQuant make of one is a function of its 16 bits:
// the table holds that int8 for each of the 65 536 (compactly:
// requant_table.h), computed by the reference functions (Activate,
// QuantizeAscend). A run then dequantizes to float16 with the activation
// left out (DequantOnly) and looks each value up: computed one vector after
// another, the three float16 roundings after the dequantization made one
// dependency chain of about 100 cycles per vector and cost about twice the
// table's reads (BM_ConvInt8Dequant; "Quantized models" in
// docs/benchmarks.md). Where the sums are still in registers (the pointwise
// path) the chain is computed instead, many vectors interleaved
// (requant_computed.h), and nothing between the Conv and y is stored.
RequantTable BuildRequantTable(const Epilogue& e);
// e without relu_flag, the activation and the AscendQuant, float16 out:
// the pass whose result the table reads.
Epilogue DequantOnly(const Epilogue& e);
// y[i] = table(the bits of deq[i]), i < count (the same layout), and y
// [N, plane, M] from deq [N, M, plane].
void RequantByTable(const RequantTable& table, const Half* deq, int64_t count,
                    int8_t* y);
void RequantByTableTransposed(const RequantTable& table, const Half* deq,
                              int64_t n, int64_t m, int64_t plane, int8_t* y);

// y = AscendQuant(deq), element for element (any layout, the same in both).
void QuantizeOut(const Epilogue& e, const TensorRef& deq, TensorRef& y);
// y [N, plane, M] = AscendQuant(deq [N, M, plane]): an NCHW result into an
// output agreed channels last.
void QuantizeTransposed(const Epilogue& e, const TensorRef& deq, int64_t n,
                        int64_t m, int64_t plane, int8_t* y);

}  // namespace kernels
}  // namespace ascend_emu
