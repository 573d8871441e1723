// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// AscendDequant's arithmetic (quant.cc says what CANN computes), one element
// at a time (the reference) and a vector at a time: the op itself
// (quant.cc) and the int8 Conv's fused dequantization (conv_int8_fused.cc)
// share it, so the two cannot drift apart.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "gnu_vectors.h"
#include "kernel_util.h"
#include "numeric.h"
#include "quant_round.h"

#if defined(ASCEND_EMU_GNU_VECTORS) && defined(ASCEND_EMU_HALF_VECTORS) && \
    defined(__FMA__)
#include <immintrin.h>
#define ASCEND_EMU_DEQUANT_VECTORS 1
#endif

namespace ascend_emu {
namespace kernels {

// One channel's deq_scale, read once: the fp16 scale (v100), or the uint64's
// fp32 scale as the exact integer mant * 2^exp (the reference) and as a
// float for the vector path (-0 made +0: the reference's sign of a zero).
struct DeqScale {
  float half_scale = 0.0f;
  float scale = 0.0f;
  float vscale = 0.0f;
  uint64_t mant = 0;
  int exp = 0;
  bool neg_scale = false, special = false;
};

inline __attribute__((always_inline)) DeqScale ReadDeqScale(const TensorRef& d,
                                                            int64_t c) {
  DeqScale s;
  if (d.dtype == DType::kUInt64) {
    // Bits 31:0: the fp32 scale; 39:32 an offset AMCT leaves 0; the rest
    // (TransQuantParamV2's flags) is not read here.
    uint64_t raw;
    std::memcpy(&raw, d.as<const uint8_t>() + c * 8, 8);
    s.scale = BitsFloat(static_cast<uint32_t>(raw));
    s.special = !std::isfinite(s.scale);
    const uint32_t e = (static_cast<uint32_t>(raw) >> 23) & 0xFF;
    if (e != 0 && e != 0xFF) {
      // A normal float: its 24-bit significand, what frexp below gives
      // (read from the bits: frexp and ldexp are library calls).
      s.mant = (static_cast<uint32_t>(raw) & 0x7FFFFFu) | 0x800000u;
      s.exp = static_cast<int>(e) - 150;
      s.neg_scale = s.scale < 0.0f;
    } else if (!s.special && s.scale != 0.0f) {
      int e2 = 0;
      const float frac = std::frexp(std::fabs(s.scale), &e2);
      s.mant = static_cast<uint64_t>(std::ldexp(frac, 24));  // exact
      s.exp = e2 - 24;
      s.neg_scale = s.scale < 0.0f;
    }
    s.vscale = s.scale == 0.0f ? 0.0f : s.scale;
  } else {
    s.half_scale = static_cast<float>(d.as<const Half>()[c]);
  }
  return s;
}

// The reference: one element, a float16 value as a float.
inline float DequantOne(int32_t x, const DeqScale& s, bool u64, bool twice,
                        bool relu) {
  float v;
  if (u64) {
    if (s.special) {
      v = RoundToHalf(static_cast<float>(x) * s.scale);
    } else {
      const int64_t xv = x;
      const uint64_t mag = static_cast<uint64_t>(xv < 0 ? -xv : xv) * s.mant;
      v = RoundScaledToHalf(mag, s.exp);
      if ((xv < 0) != s.neg_scale) v = -v;
    }
  } else {
    v = RoundToHalf(RoundToHalf(static_cast<float>(x)) * s.half_scale);
    if (twice) v = RoundToHalf(v * s.half_scale);
  }
  if (relu && v < 0.0f) v = 0.0f;
  return v;
}

#if defined(ASCEND_EMU_DEQUANT_VECTORS)
namespace gnu_vectors {

// x * scale rounded once to float16, for lanes with |x| <= 2^24 (exact as
// floats): float's product p = RN(x * scale) and its exact error
// e = fma(x, scale, -p) give x * scale rounded to odd at float's 24 bits
// (p truncated toward zero, its last bit set when e != 0), which float ->
// float16 then rounds correctly (24 >= 11 + 2 bits). An infinite p is
// float16's answer already. Below float's normal range the product is far
// under float16's half ulp: the sign is all that matters, and p has it.
template <typename V, typename M>
inline V ScaleToHalfOdd(V xf, V scale) {
  const V p = xf * scale;
  V e;
  if constexpr (sizeof(V) == 64) {
#if defined(__AVX512F__)
    e = BitCastV<V>(_mm512_fmsub_ps(
        BitCastV<__m512>(xf), BitCastV<__m512>(scale), BitCastV<__m512>(p)));
#endif
  } else {
    static_assert(sizeof(V) == 32);
    e = BitCastV<V>(_mm256_fmsub_ps(
        BitCastV<__m256>(xf), BitCastV<__m256>(scale), BitCastV<__m256>(p)));
  }
  const M pb = BitCastV<M>(p), eb = BitCastV<M>(e);
  const M inexact = e != V{};
  // Past v (opposite signs): one step back toward zero, then odd.
  const M back = inexact & ((pb ^ eb) < 0);
  M odd = (pb + back) | (inexact & 1);
  odd = (pb & 0x7FFFFFFF) >= 0x7F800000 ? pb : odd;
  return BitCastV<V>(odd);
}
inline Vec ScaleToHalfOddV(Vec xf, Vec scale) {
  return ScaleToHalfOdd<Vec, Mask>(xf, scale);
}

// True when every lane of x is within +-2^24 (the fast path's domain).
inline bool Within24Bits(Mask x) {
  const Mask big = (x > (1 << 24)) | (x < -(1 << 24));
#if defined(__AVX512F__)
  const __m512i m = BitCastV<__m512i>(big);
  return _mm512_test_epi32_mask(m, m) == 0;
#else
  const __m256i m = BitCastV<__m256i>(big);
  return _mm256_testz_si256(m, m) != 0;
#endif
}

// DequantOne on a vector: lane j's scale is scale[j] (uint64: the DeqScale's
// vscale) or half_scale[j] (float16). False, with *out untouched, when a
// lane needs the reference (uint64 and |x| > 2^24).
template <bool kU64, bool kTwice, bool kRelu>
inline bool DequantV(Mask xi, Vec scale, Vec half_scale, Vec* out) {
  Vec v;
  if constexpr (kU64) {
    if (!Within24Bits(xi)) return false;
    v = RoundToHalfV(ScaleToHalfOddV(__builtin_convertvector(xi, Vec), scale));
  } else {
    v = RoundToHalfV(RoundToHalfV(__builtin_convertvector(xi, Vec)) *
                     half_scale);
    if constexpr (kTwice) v = RoundToHalfV(v * half_scale);
  }
  if constexpr (kRelu) v = v < Vec{} ? Vec{} : v;
  *out = v;
  return true;
}

}  // namespace gnu_vectors
#endif

}  // namespace kernels
}  // namespace ascend_emu
