// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// FusedConvDequant's whole epilogue computed on vectors of eight int32 sums
// in registers: AscendDequant with a uint64 (fp32) scale rounded once to
// float16 (dequant.h's round to odd), relu_flag and the activation as one
// clamp (DequantN: float16 or float32 out), then a merged AscendQuant's
// float16 steps (quant.h's QuantClampedV: times scale, twice with
// sqrt_mode, plus offset, each rounded to float16; NaN to 0, saturated) and
// its rounding to nearest even (RequantN: int8 out). The pointwise kernel
// (pointwise_int8.h) calls them on the sums it holds, so neither the int32
// result nor the float16 one nor the table pass over it
// (BuildRequantTable) is written; the other int8 Convs' results take one
// pass of the same steps (RequantPlanes and its siblings below). In
// MobileNetV2 those passes had taken more time than the Convs ("Quantized
// models" in docs/benchmarks.md).
//
// Exact: each step is the reference's own vector step (the same functions
// the unfused ops run), and the clamp equals relu_flag then the activation
// because no lane is NaN before AscendQuant (a finite scale times an int32
// of at most 2^24 is finite or +-inf). kernels_test_conv_dequant.cc checks
// it against the op-by-op chain, kernels_test_requant_computed.cc on float
// products that land on float16 ties. What it does not take (float16
// scales, an inf or NaN scale, another round mode) stays on the table.
#pragma once

#include <cstdint>

#include "conv_int8_epilogue.h"
#include "dequant.h"
#include "quant.h"

#if defined(ASCEND_EMU_FUSED_CHANNELS_LAST) && \
    defined(ASCEND_EMU_DEQUANT_VECTORS) && defined(ASCEND_EMU_QUANT_VECTORS)
#include <immintrin.h>
#define ASCEND_EMU_REQUANT_COMPUTED 1
#endif

namespace ascend_emu {
namespace kernels {

// The epilogue's constants, read once at prepare.
struct RequantComputed {
  float lo = 0.0f, hi = 0.0f;  // relu_flag and the activation, as a clamp
  float scale = 1.0f, offset = 0.0f;
  bool twice = false;  // AscendQuant's sqrt_mode
  // No lane can be NaN before the rounding: the scale finite and not 0
  // and the offset finite (inf times 0, or inf plus -inf, make one), so
  // the passes leave out the NaN-to-0 step.
  bool nan_free = false;
};

// True, with *out set, when the computed path gives what the table gives:
// an AscendQuant merged, rounding to nearest, uint64 scales none of which is
// inf or NaN.
bool MakeRequantComputed(const Epilogue& e, bool any_special,
                         RequantComputed* out);
// The same without an AscendQuant (float16 or float32 out): only lo and
// hi are used.
bool MakeDequantComputed(const Epilogue& e, bool any_special,
                         RequantComputed* out);

// The reference for one sum (the fallback of lanes past 2^24): the unfused
// chain's steps one element at a time, with the AscendQuant and without.
int8_t RequantOne(int32_t acc, const DeqScale& s, const Epilogue& e);
float DequantActivatedOne(int32_t acc, const DeqScale& s, const Epilogue& e);

#if defined(ASCEND_EMU_REQUANT_COMPUTED)
namespace requant_computed {

typedef float V8 __attribute__((vector_size(32)));
typedef int32_t M8 __attribute__((vector_size(32)));

inline V8 RoundToHalf8(V8 v) {
  return gnu_vectors::BitCastV<V8>(_mm256_cvtph_ps(_mm256_cvtps_ph(
      gnu_vectors::BitCastV<__m256>(v), _MM_FROUND_TO_NEAREST_INT)));
}

// True when every lane of acc is within +-2^24, where float holds it
// exactly (dequant.h's fast path's domain).
inline bool Within24Bits8(__m256i acc) {
  const __m256i big =
      _mm256_or_si256(_mm256_cmpgt_epi32(acc, _mm256_set1_epi32(1 << 24)),
                      _mm256_cmpgt_epi32(_mm256_set1_epi32(-(1 << 24)), acc));
  return _mm256_testz_si256(big, big) != 0;
}

// AscendDequant's float16 results of kN vectors of eight sums within
// +-2^24, relu_flag and the activation applied (k.lo, k.hi), as floats.
template <int kN>
inline void DequantN(const __m256i (&acc)[kN], const V8 (&scale)[kN],
                     const RequantComputed& k, V8 (&v)[kN]) {
  for (int j = 0; j < kN; ++j) {
    const V8 xf = gnu_vectors::BitCastV<V8>(_mm256_cvtepi32_ps(acc[j]));
    v[j] = gnu_vectors::ScaleToHalfOdd<V8, M8>(xf, scale[j]);
  }
  for (int j = 0; j < kN; ++j) v[j] = RoundToHalf8(v[j]);
  const V8 lo = V8{} + k.lo, hi = V8{} + k.hi;
  for (int j = 0; j < kN; ++j) {
    v[j] = v[j] < lo ? lo : v[j];
    v[j] = hi < v[j] ? hi : v[j];
  }
}

// The int8 results of kN vectors of eight sums within +-2^24
// (Within24Bits8), as int32 lanes in [-128, 127], in place; scale[j] holds
// vector j's DeqScale::vscale. Stage by stage across the kN vectors: one
// vector's steps are a chain of about 90 cycles of latency, and a Zen 3's
// 64-entry float scheduler holds only about two such chains when they come
// one after the other (8 sums per chain took 3.5 cycles per sum); kN
// interleaved chains keep its pipes busy.
template <bool kNanFree, int kN>
inline void RequantN(__m256i (&acc)[kN], const V8 (&scale)[kN],
                     const RequantComputed& k) {
  V8 v[kN];
  DequantN<kN>(acc, scale, k, v);
  const V8 qs = V8{} + k.scale;
  for (int j = 0; j < kN; ++j) v[j] = RoundToHalf8(v[j] * qs);
  if (k.twice) {
    for (int j = 0; j < kN; ++j) v[j] = RoundToHalf8(v[j] * qs);
  }
  const V8 offset = V8{} + k.offset;
  for (int j = 0; j < kN; ++j) v[j] = RoundToHalf8(v[j] + offset);
  const V8 qlo = V8{} - 128.0f, qhi = V8{} + 127.0f;
  for (int j = 0; j < kN; ++j) {
    // NaN (inf times a zero scale) -> 0, then the int8 range.
    V8 r = v[j];
    if constexpr (!kNanFree)
      r = gnu_vectors::BitCastV<V8>(gnu_vectors::BitCastV<M8>(r) & (r == r));
    r = r < qlo ? qlo : r;
    r = r > qhi ? qhi : r;
    acc[j] = _mm256_cvtps_epi32(gnu_vectors::BitCastV<__m256>(r));
  }
}

// Eight int32 lanes in [-128, 127] stored as eight int8 at y.
inline void StoreInt8x8(int8_t* y, __m256i a) {
  const __m128i a16 = _mm_packs_epi32(_mm256_castsi256_si128(a),
                                      _mm256_extracti128_si256(a, 1));
  _mm_storel_epi64(reinterpret_cast<__m128i*>(y), _mm_packs_epi16(a16, a16));
}

// Sixteen int32 lanes in [-128, 127] (a then b) as sixteen int8.
inline __m128i PackInt8x16(__m256i a, __m256i b) {
  const __m128i a16 = _mm_packs_epi32(_mm256_castsi256_si128(a),
                                      _mm256_extracti128_si256(a, 1));
  const __m128i b16 = _mm_packs_epi32(_mm256_castsi256_si128(b),
                                      _mm256_extracti128_si256(b, 1));
  return _mm_packs_epi16(a16, b16);
}

}  // namespace requant_computed

// The passes over a stored int32 result, for the Convs whose sums are not
// in registers when the epilogue runs (the depthwise paths, oneDNN's): y
// int8 [N, M, plane] from acc in NCHW (RequantPlanes) or channels last
// ([N, plane, M], RequantChannelsLastToPlanes, 8x8 blocks transposed in
// registers), and y channels last from acc channels last (RequantNhwc:
// count elements in chunks of `per` whole pixels whose channels' vscales
// rep_vs repeats). vs holds each output channel's vscale; scales,
// per_channel and e are the reference's, for sums past 2^24.
void RequantPlanes(const int32_t* acc, int64_t n, int64_t m, int64_t plane,
                   const float* vs, const DeqScale* scales, bool per_channel,
                   const Epilogue& e, const RequantComputed& k, int8_t* y);
void RequantChannelsLastToPlanes(const int32_t* acc, int64_t n, int64_t m,
                                 int64_t plane, const float* vs,
                                 const DeqScale* scales, bool per_channel,
                                 const Epilogue& e, const RequantComputed& k,
                                 int8_t* y);
void RequantNhwc(const int32_t* acc, int64_t count, int64_t m,
                 const float* rep_vs, int64_t per, const DeqScale* scales,
                 bool per_channel, const Epilogue& e, const RequantComputed& k,
                 int8_t* y);
#endif

}  // namespace kernels
}  // namespace ascend_emu
