// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Rounding float values to the 16-bit float grids (float16, bfloat16) while
// staying in float, branch-free, so that a loop over them vectorises: the
// quantization kernels (quant.cc, weight_quant_matmul.cc) compute CANN's
// float16 arithmetic as float operations each rounded to float16 (for + and
// * of two float16 values the float result rounded again is the correctly
// rounded float16 result: 24 >= 2 * 11 + 2 bits). Both round to nearest,
// ties to even, exactly like Eigen::half / Eigen::bfloat16's conversions
// (kernels_test_quant.cc checks every float16 tie and boundary).
#pragma once

#include <cstdint>
#include <cstring>

#include "gnu_vectors.h"

#if defined(__F16C__)
#include <immintrin.h>
#endif

namespace ascend_emu {
namespace kernels {

inline uint32_t FloatBits(float v) {
  uint32_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}
inline float BitsFloat(uint32_t b) {
  float v;
  std::memcpy(&v, &b, sizeof v);
  return v;
}

// v rounded to the nearest float16 value (as a float): +-inf from 65520 up
// (65504 is the largest float16), float16 subnormals below 2^-14 (multiples
// of 2^-24), NaN kept. Adding 1.5 * 2^(e + 13) to |v| (e its float16
// exponent, at least -14) leaves float's ulp equal to float16's ulp at v, so
// float's own round-to-nearest-even does the rounding; subtracting it back
// is exact.
inline float RoundToHalf(float v) {
  const uint32_t b = FloatBits(v);
  const uint32_t sign = b & 0x80000000u;
  const uint32_t a = b & 0x7FFFFFFFu;
  uint32_t e = a & 0x7F800000u;
  e = e < (113u << 23) ? (113u << 23) : e;  // 2^-14: float16's subnormals
  e = e > (142u << 23) ? (142u << 23) : e;  // 2^15 (larger: inf below)
  const float magic = BitsFloat((e + (13u << 23)) | 0x400000u);
  const float r = (BitsFloat(a) + magic) - magic;
  uint32_t out = FloatBits(r) | sign;
  out = a >= 0x477FF000u ? (sign | 0x7F800000u) : out;  // >= 65520: inf
  out = a > 0x7F800000u ? b : out;                      // NaN stays
  return BitsFloat(out);
}

// v rounded to the nearest bfloat16 value (as a float), NaN kept.
inline float RoundToBf16(float v) {
  const uint32_t b = FloatBits(v);
  const uint32_t r = (b + 0x7FFFu + ((b >> 16) & 1u)) & 0xFFFF0000u;
  return BitsFloat((b & 0x7FFFFFFFu) > 0x7F800000u ? b : r);
}

#if defined(ASCEND_EMU_GNU_VECTORS)
// RoundToHalf and RoundToBf16 on a vector of the build's arch (GCC does not
// vectorise the scalar forms' selects inside the decode loops by itself).
namespace gnu_vectors {
// The bits of one vector as another type of the same size (memcpy: no
// type-punned reference, which strict aliasing would let GCC misread).
template <typename To, typename From>
inline To BitCastV(const From& f) {
  static_assert(sizeof(To) == sizeof(From));
  To t;
  std::memcpy(&t, &f, sizeof t);
  return t;
}
inline Vec RoundToHalfV(Vec v) {
#if defined(__AVX512F__)
  // The CPU's own conversion there and back (round to nearest even, inf on
  // overflow, NaN kept): two instructions for the dozen below.
  static_assert(kLanes == 16);
  const __m512 x = BitCastV<__m512>(v);
  const __m512 r =
      _mm512_cvtph_ps(_mm512_cvtps_ph(x, _MM_FROUND_TO_NEAREST_INT));
  return BitCastV<Vec>(r);
#elif defined(__F16C__) && defined(__AVX__)
  static_assert(kLanes == 8);
  const __m256 x = BitCastV<__m256>(v);
  const __m256 r =
      _mm256_cvtph_ps(_mm256_cvtps_ph(x, _MM_FROUND_TO_NEAREST_INT));
  return BitCastV<Vec>(r);
#else
  const Mask b = BitCastV<Mask>(v);
  const Mask sign = b & static_cast<int32_t>(0x80000000u);
  const Mask a = b & 0x7FFFFFFF;
  Mask e = a & 0x7F800000;
  const Mask lo = Mask{} + (113 << 23), hi = Mask{} + (142 << 23);
  e = e < lo ? lo : e;
  e = e > hi ? hi : e;
  const Mask magic_bits = (e + (13 << 23)) | 0x400000;
  const Vec magic = BitCastV<Vec>(magic_bits);
  const Vec r = (BitCastV<Vec>(a) + magic) - magic;
  Mask out = BitCastV<Mask>(r) | sign;
  out = a >= 0x477FF000 ? (sign | 0x7F800000) : out;
  out = a > 0x7F800000 ? b : out;
  return BitCastV<Vec>(out);
#endif
}
// kLanes float16 values (raw bits at p) widened to float, and a Vec of
// float16 values stored as float16: the CPU's conversions (F16C / AVX-512).
// Without F16C there are none: the callers keep scalar loops.
#if defined(__F16C__) && (defined(__AVX512F__) || defined(__AVX__))
#define ASCEND_EMU_HALF_VECTORS 1
inline Vec LoadHalfV(const void* p) {
#if defined(__AVX512F__)
  __m256i h;
  std::memcpy(&h, p, sizeof h);
  const __m512 r = _mm512_cvtph_ps(h);
#else
  __m128i h;
  std::memcpy(&h, p, sizeof h);
  const __m256 r = _mm256_cvtph_ps(h);
#endif
  return BitCastV<Vec>(r);
}
// v rounded to float16 (to nearest even) and stored at p (kLanes halves).
inline void StoreHalfV(void* p, Vec v) {
#if defined(__AVX512F__)
  const __m256i h =
      _mm512_cvtps_ph(BitCastV<__m512>(v), _MM_FROUND_TO_NEAREST_INT);
#else
  const __m128i h =
      _mm256_cvtps_ph(BitCastV<__m256>(v), _MM_FROUND_TO_NEAREST_INT);
#endif
  std::memcpy(p, &h, sizeof h);
}
// kLanes int8 at p widened to float, and int32 lanes already in [-128, 127]
// stored as kLanes int8: the CPU's sign extension and packing (GCC turns
// __builtin_convertvector between int8 and wider vectors into a scalar
// conversion per lane).
inline Vec LoadInt8V(const int8_t* p) {
#if defined(__AVX512F__)
  const __m512 r = _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(
      _mm_loadu_si128(reinterpret_cast<const __m128i*>(p))));
#else
  const __m256 r = _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(
      _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p))));
#endif
  return BitCastV<Vec>(r);
}
inline void StoreInt8V(int8_t* p, Mask v) {
#if defined(__AVX512F__)
  const __m128i b = _mm512_cvtsepi32_epi8(BitCastV<__m512i>(v));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(p), b);
#else
  const __m256i w = BitCastV<__m256i>(v);
  const __m128i h = _mm_packs_epi32(_mm256_castsi256_si128(w),
                                    _mm256_extracti128_si256(w, 1));
  _mm_storel_epi64(reinterpret_cast<__m128i*>(p), _mm_packs_epi16(h, h));
#endif
}
#endif
inline Vec RoundToBf16V(Vec v) {
  const Mask b = BitCastV<Mask>(v);
  const Mask r =
      (b + 0x7FFF + ((b >> 16) & 1)) & static_cast<int32_t>(0xFFFF0000u);
  const Mask out = (b & 0x7FFFFFFF) > 0x7F800000 ? b : r;
  return BitCastV<Vec>(out);
}
}  // namespace gnu_vectors
#endif

// m * 2^exp (m >= 0, exact) rounded once to the nearest float16, as a float:
// AscendDequant's int32 x times an fp32 scale needs up to 55 bits, more than
// a double holds, so the product is kept as an integer.
inline float RoundScaledToHalf(uint64_t m, int exp) {
  if (m == 0) return 0.0f;
  const int bits = 64 - __builtin_clzll(m);
  int e = bits - 1 + exp;  // floor(log2(value))
  if (e < -14) e = -14;
  if (e > 15) return __builtin_inff();  // >= 2^16
  const int ulp = e - 10;
  const int shift = ulp - exp;  // value / 2^ulp = m / 2^shift
  uint64_t q;
  if (shift <= 0) {
    q = m << -shift;  // exact: q < 2^11 here
  } else if (shift >= 64) {
    q = 0;  // below half an ulp (m < 2^64 <= 2^(shift - 1) * 2)
    if (shift == 64 && m > (uint64_t{1} << 63)) q = 1;
  } else {
    q = m >> shift;
    const uint64_t rem = m & ((uint64_t{1} << shift) - 1);
    const uint64_t half = uint64_t{1} << (shift - 1);
    if (rem > half || (rem == half && (q & 1) != 0)) ++q;
  }
  const float r = __builtin_ldexpf(static_cast<float>(q), ulp);
  return r > 65504.0f ? __builtin_inff() : r;
}

}  // namespace kernels
}  // namespace ascend_emu
