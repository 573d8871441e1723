// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// RequantTable: a function from the 65 536 float16 bit patterns to int8,
// stored in the few KB where it changes. FusedConvDequant uses one for what
// relu_flag, the activation and a merged AscendQuant make of AscendDequant's
// float16 result (conv_int8_epilogue.h, BuildRequantTable).
//
// Why compact: stored whole, each such op held 64 KiB, and an int8
// MobileNetV2's 36 of them (2.3 MiB) did not fit a 512 KiB L2: every call
// read its tables back from L3, and those misses were a fifth of the
// model's time on a Zen 3 core ("Quantized models" in docs/benchmarks.md).
// A quantizing function is flat below its first step and past its last
// (saturation, or a Relu's zero), so each sign keeps only the magnitudes
// between: a Relu6 then AscendQuant keeps about 8 K entries.
//
// Exact by construction: for each sign, every magnitude below the window
// gives what the window's first entry gives, every one above it (up to
// infinity) what its last gives, and the NaN magnitudes their own entry
// (checked when built: if NaN payloads disagreed, the window would run to
// 0x7FFF instead).
#pragma once

#include <cstdint>
#include <vector>

#if defined(__AVX2__)
#include <immintrin.h>
#define ASCEND_EMU_REQUANT_TABLE_VECTORS 1
#endif

namespace ascend_emu {
namespace kernels {

class RequantTable {
 public:
  // The number of float16 bit patterns a full table has.
  static constexpr int64_t kFullSize = 65536;

  RequantTable() = default;
  // full[bits] for every one of the kFullSize bit patterns.
  explicit RequantTable(const std::vector<int8_t>& full);

  bool empty() const { return entries_.empty(); }
  // The entries held (what the cache sees).
  int64_t size() const { return static_cast<int64_t>(entries_.size()); }

  int8_t operator()(uint16_t bits) const {
    const int sign = bits >> 15;
    const int32_t m = bits & 0x7FFF;
    if (m > top_[sign]) return entries_[nan_[sign]];
    const int32_t at = m < lo_[sign]   ? lo_[sign]
                       : m > hi_[sign] ? hi_[sign]
                                       : m;
    return entries_[static_cast<uint16_t>(at + shift_[sign])];
  }

#if defined(ASCEND_EMU_REQUANT_TABLE_VECTORS)
  // y[0..15] = (*this)(lane j of h), h sixteen float16 bit patterns: the
  // indices computed in a vector, the entries read by scalar loads (which
  // beat AVX2's gathers here: BM_ConvInt8Dequant).
  void Look16(__m256i h, int8_t* y) const {
    const __m256i at = Index(h);
    Read8(_mm256_castsi256_si128(at), y);
    Read8(_mm256_extracti128_si256(at, 1), y + 8);
  }
  // y[0..7] for eight.
  void Look8(__m128i h, int8_t* y) const {
    Read8(_mm256_castsi256_si128(Index(_mm256_castsi128_si256(h))), y);
  }
#endif

 private:
#if defined(ASCEND_EMU_REQUANT_TABLE_VECTORS)
  // Each lane's entry index: operator()'s arithmetic on 16-bit lanes.
  __m256i Index(__m256i h) const {
    const __m256i neg = _mm256_srai_epi16(h, 15);
    auto pick = [neg](int a, int b) {
      return _mm256_blendv_epi8(_mm256_set1_epi16(static_cast<int16_t>(a)),
                                _mm256_set1_epi16(static_cast<int16_t>(b)),
                                neg);
    };
    const __m256i m = _mm256_and_si256(h, _mm256_set1_epi16(0x7FFF));
    const __m256i at = _mm256_min_epi16(
        _mm256_max_epi16(m, pick(lo_[0], lo_[1])), pick(hi_[0], hi_[1]));
    const __m256i index = _mm256_add_epi16(at, pick(shift_[0], shift_[1]));
    return _mm256_blendv_epi8(index, pick(nan_[0], nan_[1]),
                              _mm256_cmpgt_epi16(m, pick(top_[0], top_[1])));
  }
  // y[0..7] = entries_[the eight 16-bit indices in at], the indices read
  // back from memory: two loads and a store per entry, about 20% faster
  // than shifting them out of 64-bit words and storing the eight as one
  // (250 K lookups, table in cache: 118 against 146 µs on a Zen 3).
  void Read8(__m128i at, int8_t* y) const {
    alignas(16) uint16_t index[8];
    _mm_store_si128(reinterpret_cast<__m128i*>(index), at);
    const int8_t* e = entries_.data();
    for (int j = 0; j < 8; ++j) y[j] = e[index[j]];
  }
#endif
  // Per sign (0: +, 1: -): magnitudes in [lo, hi] read
  // entries_[m + shift] (mod 2^16), those past top (NaN) entries_[nan].
  int16_t lo_[2] = {0, 0}, hi_[2] = {0, 0}, top_[2] = {0x7FFF, 0x7FFF};
  uint16_t shift_[2] = {0, 0}, nan_[2] = {0, 0};
  std::vector<int8_t> entries_;
};

}  // namespace kernels
}  // namespace ascend_emu
