// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// AscendQuant's arithmetic (quant.cc says what CANN computes), its
// attributes read once: the op itself and the AscendQuant that atc merges
// into FusedConvDequant (conv_int8_fused.cc) share it, so the two cannot
// drift apart.
#pragma once

#include <cstdint>
#include <string>

#include "ascend_emu/kernel.h"
#include "gnu_vectors.h"
#include "numeric.h"
#include "quant_round.h"

#if defined(ASCEND_EMU_GNU_VECTORS) && defined(ASCEND_EMU_HALF_VECTORS)
#include <immintrin.h>
#define ASCEND_EMU_QUANT_VECTORS 1
#endif

namespace ascend_emu {
namespace kernels {

enum class RoundMode { kRound, kFloor, kCeil, kTrunc };

// scale and offset as the TBE kernel holds them (float16 values), whether
// it multiplies (scale != 1, twice with sqrt_mode) and adds (offset != 0).
struct QuantParams {
  float scale = 1.0f, offset = 0.0f;
  bool mul = false, add = false, twice = false;
  RoundMode mode = RoundMode::kRound;
};

// The AscendQuant attributes named prefix + scale, offset, sqrt_mode,
// round_mode (Infer validated them).
QuantParams ReadQuantParams(const Attributes& attrs, const std::string& prefix);

// y[i] = AscendQuant(x[i]) for i < n.
void QuantizeAscend(const float* x, int8_t* y, int64_t n, const QuantParams& q);
void QuantizeAscend(const Half* x, int8_t* y, int64_t n, const QuantParams& q);

#if defined(ASCEND_EMU_QUANT_VECTORS)
namespace gnu_vectors {
// QuantLoop's steps before rounding, on a vector (the scalar loop in
// quant.cc is the reference): v rounded to float16 (kToHalf: a float32
// input), times scale (twice with sqrt_mode), plus offset, each rounded to
// float16; NaN made 0 and the value clamped to [-128, 127]. The bounds are
// integers and every round mode is monotonic, so rounding the clamped value
// gives round-then-saturate's int8, and its conversion to int32 is exact.
template <bool kToHalf, bool kMul, bool kTwice, bool kAdd>
inline Vec QuantClampedV(Vec v, Vec scale, Vec offset) {
  if constexpr (kToHalf) v = RoundToHalfV(v);
  if constexpr (kMul) {
    v = RoundToHalfV(v * scale);
    if constexpr (kTwice) v = RoundToHalfV(v * scale);
  }
  if constexpr (kAdd) v = RoundToHalfV(v + offset);
  // NaN -> 0 (its lanes' mask is 0), then the clamp (no NaN left for the
  // selects to disagree on).
  v = BitCastV<Vec>(BitCastV<Mask>(v) & (v == v));
  const Vec lo = Vec{} - 128.0f, hi = Vec{} + 127.0f;
  v = v < lo ? lo : v;
  return v > hi ? hi : v;
}

// Round (to nearest even): the CPU's own conversion (cvtps2dq).
inline Mask RoundNearestV(Vec v) {
#if defined(__AVX512F__)
  return BitCastV<Mask>(_mm512_cvtps_epi32(BitCastV<__m512>(v)));
#else
  return BitCastV<Mask>(_mm256_cvtps_epi32(BitCastV<__m256>(v)));
#endif
}
}  // namespace gnu_vectors
#endif

}  // namespace kernels
}  // namespace ascend_emu
