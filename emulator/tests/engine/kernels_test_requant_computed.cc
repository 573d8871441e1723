// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// requant_computed.h's vector dequantization (DequantN) against
// dequant.h's reference (DequantOne) where rounding float's product to
// float16 again would be wrong: sums times scales whose float product lands
// exactly on a float16 tie while the exact product does not, in float16's
// normal range, at its overflow point, and below 2^-14 (float16's
// subnormals). The random int8 Convs of kernels_test_conv_dequant.cc meet
// such ties too rarely to tell (a shortcut that skipped the round to odd
// unless a product looked like a tie passed them all).
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "dequant.h"
#include "kernels_test_util.h"
#include "requant_computed.h"

namespace ascend_emu {
namespace testing {
namespace {

#if defined(ASCEND_EMU_REQUANT_COMPUTED)
namespace rc = kernels::requant_computed;

struct Pair {
  int32_t acc;
  float scale;
};

kernels::DeqScale ScaleOf(float s) {
  uint64_t word = 0;
  std::memcpy(&word, &s, sizeof s);
  TensorRef t;
  t.dtype = DType::kUInt64;
  t.shape.rank = 1;
  t.shape.dims[0] = 1;
  t.data = &word;
  return kernels::ReadDeqScale(t, 0);
}

// Sums near `span` whose float product with scale = tie / acc rounds to
// the tie itself while the exact product does not (both sides of it).
std::vector<Pair> TiePairs(float tie, int32_t span, size_t want) {
  std::vector<Pair> out;
  for (int32_t acc = span; acc < 2 * span && out.size() < want; ++acc) {
    for (int32_t sign : {1, -1}) {
      const float s = tie / static_cast<float>(acc);
      const float p = static_cast<float>(acc) * s;
      const float e = std::fma(static_cast<float>(acc), s, -p);
      if (p == tie && e != 0.0f) out.push_back({sign * acc, s});
    }
  }
  return out;
}

void ExpectSame(const std::vector<Pair>& pairs, const char* label) {
  ASSERT_GE(pairs.size(), 64u) << label;
  kernels::RequantComputed k;
  k.lo = -INFINITY;
  k.hi = INFINITY;
  size_t differ_from_naive = 0;
  for (size_t i = 0; i + 64 <= pairs.size(); i += 64) {
    __m256i acc[8];
    rc::V8 scale[8], v[8];
    for (int j = 0; j < 8; ++j) {
      alignas(32) int32_t a[8];
      alignas(32) float s[8];
      for (int l = 0; l < 8; ++l) {
        a[l] = pairs[i + 8 * j + l].acc;
        s[l] = pairs[i + 8 * j + l].scale;
      }
      acc[j] = _mm256_load_si256(reinterpret_cast<const __m256i*>(a));
      std::memcpy(&scale[j], s, sizeof s);
    }
    rc::DequantN<8>(acc, scale, k, v);
    for (int j = 0; j < 8; ++j) {
      for (int l = 0; l < 8; ++l) {
        const Pair& p = pairs[i + 8 * j + l];
        const float want =
            kernels::DequantOne(p.acc, ScaleOf(p.scale), true, false, false);
        const float got = v[j][l];
        ASSERT_EQ(std::memcmp(&got, &want, sizeof got), 0)
            << label << ": acc " << p.acc << " scale " << p.scale << " got "
            << got << " want " << want;
        const float naive = static_cast<float>(
            kernels::Half(static_cast<float>(p.acc) * p.scale));
        differ_from_naive += naive != want;
      }
    }
  }
  // The cases are the ones that matter: rounding the float product would
  // have been wrong for many of them.
  EXPECT_GT(differ_from_naive, 0u) << label;
}

TEST(KernelsRequantComputed, FloatProductsOnFloat16TiesRoundOnce) {
  // 1 + 2^-11: halfway between 1 and 1 + 2^-10.
  ExpectSame(TiePairs(1.0f + std::ldexp(1.0f, -11), 1 << 12, 512), "near 1");
  // Larger sums and a tie near 100.
  ExpectSame(TiePairs(100.0f + 1.0f / 32.0f, 1 << 18, 512), "near 100");
  // 65520: halfway between float16's largest value and its overflow.
  ExpectSame(TiePairs(65520.0f, 1 << 16, 512), "the overflow point");
  // A float16 subnormal tie (3 * 2^-25: between 2^-24 and 2^-23).
  ExpectSame(TiePairs(3.0f * std::ldexp(1.0f, -25), 1 << 12, 512),
             "a subnormal");
}
#endif

}  // namespace
}  // namespace testing
}  // namespace ascend_emu
