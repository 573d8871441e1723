// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The AVX2 8x8 transpose of 32-bit lanes, shared by the passes that turn
// channels-last blocks into planes and back (conv_int8_epilogue.cc,
// depthwise_int8.cc).
#pragma once

#if defined(__AVX2__)
#include <immintrin.h>

namespace ascend_emu {
namespace kernels {

// Rows r[0..7] to columns: lane j of row i becomes lane i of row j (8
// channels of one pixel each to 8 pixels of one channel each, or back).
inline void Transpose8x8(__m256i r[8]) {
  __m256i t[8], u[8];
  for (int i = 0; i < 8; i += 2) {
    t[i] = _mm256_unpacklo_epi32(r[i], r[i + 1]);
    t[i + 1] = _mm256_unpackhi_epi32(r[i], r[i + 1]);
  }
  for (int i = 0; i < 8; i += 4) {
    u[i] = _mm256_unpacklo_epi64(t[i], t[i + 2]);
    u[i + 1] = _mm256_unpackhi_epi64(t[i], t[i + 2]);
    u[i + 2] = _mm256_unpacklo_epi64(t[i + 1], t[i + 3]);
    u[i + 3] = _mm256_unpackhi_epi64(t[i + 1], t[i + 3]);
  }
  for (int i = 0; i < 4; ++i) {
    r[i] = _mm256_permute2x128_si256(u[i], u[i + 4], 0x20);
    r[i + 4] = _mm256_permute2x128_si256(u[i], u[i + 4], 0x31);
  }
}

}  // namespace kernels
}  // namespace ascend_emu
#endif
