// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// pointwise_int8.h: the exact int8 1x1 Conv on vpmaddwd.
#include "pointwise_int8.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#if defined(ASCEND_EMU_POINTWISE_INT8)
#include <immintrin.h>
#endif

namespace ascend_emu {
namespace kernels {
namespace {

// Pixels per packed row: the kernel's column block, 16 (two vectors of 8
// int32 sums); a plane is padded to a multiple of it with zeros.
constexpr int64_t kCols = 16;
// Output channels per block: kRows x 2 accumulators, the two x vectors, a
// broadcast weight pair and vpmaddwd's result in AVX2's 16 registers (at 6
// rows GCC spilled accumulators to the stack: BM_ConvInt8 1x1 64 -> 256 at
// 56x56 3.0 ms, at 5 rows 2.2 ms, at 4 rows 1.9 ms).
constexpr int kRows = 4;

int64_t PaddedPlane(int64_t plane) {
  return (plane + kCols - 1) / kCols * kCols;
}

}  // namespace

bool MakePointwiseInt8(const ConvGeometry& g, int32_t offset_x, const int8_t* w,
                       const int32_t* bias, PointwiseInt8* p) {
  if (g.group != 1 || !g.direct() || g.n <= 0 || g.c <= 0 || g.m <= 0 ||
      g.in_plane() <= 0)
    return false;
  p->n = g.n;
  p->c = g.c;
  p->m = g.m;
  p->plane = g.in_plane();
  p->ox = offset_x;
  p->pairs = (g.c + 1) / 2;
  p->w.assign(static_cast<size_t>(g.m * p->pairs), 0);
  for (int64_t m = 0; m < g.m; ++m) {
    for (int64_t k = 0; k < p->pairs; ++k) {
      const int64_t c = 2 * k;
      const uint16_t lo =
          static_cast<uint16_t>(static_cast<int16_t>(w[m * g.c + c]));
      const uint16_t hi =
          c + 1 < g.c
              ? static_cast<uint16_t>(static_cast<int16_t>(w[m * g.c + c + 1]))
              : uint16_t{0};
      p->w[m * p->pairs + k] = static_cast<int32_t>(static_cast<uint32_t>(lo) |
                                                    (uint32_t{hi} << 16));
    }
  }
  if (bias != nullptr) p->bias.assign(bias, bias + g.m);
  if (p->plane < kCols) {
    p->m8 = (g.m + 7) / 8 * 8;
    p->wt.assign(static_cast<size_t>(p->pairs * p->m8 * 2), 0);
    for (int64_t m = 0; m < g.m; ++m) {
      for (int64_t c = 0; c < g.c; ++c)
        p->wt[((c / 2) * p->m8 + m) * 2 + c % 2] = w[m * g.c + c];
    }
    p->bias8.assign(static_cast<size_t>(p->m8), 0);
    if (bias != nullptr) std::copy(bias, bias + g.m, p->bias8.begin());
  }
  const int64_t x_max = std::max(std::abs(-128 - int64_t{offset_x}),
                                 std::abs(127 - int64_t{offset_x}));
  p->within24 = true;
  for (int64_t m = 0; m < g.m; ++m) {
    int64_t bound = bias != nullptr ? std::abs(int64_t{bias[m]}) : 0;
    for (int64_t c = 0; c < g.c; ++c)
      bound += std::abs(int64_t{w[m * g.c + c]}) * x_max;
    p->within24 = p->within24 && bound <= (int64_t{1} << 24);
  }
  if (!p->wt.empty()) {
    // The channel layout replaces the row one: the weights are held once.
    std::vector<int32_t>().swap(p->w);
    std::vector<int32_t>().swap(p->bias);
  }
  return true;
}

size_t PointwiseInt8ScratchBytes(const ConvGeometry& g) {
  return static_cast<size_t>((g.c + 1) / 2 * PaddedPlane(g.in_plane()) * 2) *
         sizeof(int16_t);
}

#if defined(ASCEND_EMU_POINTWISE_INT8)
namespace {

// The image's (x - ox) as int16 pairs: packed[k][p] = (x[2k][p] - ox,
// x[2k + 1][p] - ox) (the high half 0 past the last channel), p up to the
// padded plane (0 past the plane: those sums are never stored).
void Pack(const PointwiseInt8& p, const int8_t* x, int16_t* packed) {
  const int64_t plane = p.plane, padded = PaddedPlane(plane);
  const __m256i ox = _mm256_set1_epi16(static_cast<int16_t>(p.ox));
  for (int64_t k = 0; k < p.pairs; ++k) {
    const int8_t* r0 = x + 2 * k * plane;
    const int8_t* r1 = 2 * k + 1 < p.c ? r0 + plane : nullptr;
    int16_t* out = packed + k * padded * 2;
    int64_t i = 0;
    for (; i + kCols <= plane; i += kCols) {
      const __m256i a = _mm256_sub_epi16(
          _mm256_cvtepi8_epi16(
              _mm_loadu_si128(reinterpret_cast<const __m128i*>(r0 + i))),
          ox);
      const __m256i b =
          r1 != nullptr
              ? _mm256_sub_epi16(_mm256_cvtepi8_epi16(_mm_loadu_si128(
                                     reinterpret_cast<const __m128i*>(r1 + i))),
                                 ox)
              : _mm256_setzero_si256();
      // unpack interleaves within 128-bit halves: lo holds pixels 0-3 and
      // 8-11, hi 4-7 and 12-15; the permutes put them in order.
      const __m256i lo = _mm256_unpacklo_epi16(a, b);
      const __m256i hi = _mm256_unpackhi_epi16(a, b);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 2 * i),
                          _mm256_permute2x128_si256(lo, hi, 0x20));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 2 * i + 16),
                          _mm256_permute2x128_si256(lo, hi, 0x31));
    }
    for (; i < padded; ++i) {
      const bool in = i < plane;
      out[2 * i] = in ? static_cast<int16_t>(r0[i] - p.ox) : int16_t{0};
      out[2 * i + 1] =
          in && r1 != nullptr ? static_cast<int16_t>(r1[i] - p.ox) : int16_t{0};
    }
  }
}

// y's int32 sums stored as they are.
struct StoreSums {
  int32_t* y;  // this image's [m, plane]
  int64_t plane;
  template <int kR>
  void operator()(int64_t m0, int64_t p0, int64_t cols,
                  const __m256i (&s)[kR][2]) const {
    for (int r = 0; r < kR; ++r) {
      int32_t* out = y + (m0 + r) * plane + p0;
      if (cols == kCols) {
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), s[r][0]);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 8), s[r][1]);
      } else {  // the plane's last pixels
        alignas(32) int32_t sums[kCols];
        _mm256_store_si256(reinterpret_cast<__m256i*>(sums), s[r][0]);
        _mm256_store_si256(reinterpret_cast<__m256i*>(sums + 8), s[r][1]);
        std::memcpy(out, sums, static_cast<size_t>(cols) * sizeof(int32_t));
      }
    }
  }
  // The channel-vectorised path's: s[j] holds channels [m0 + 8j, +8) of
  // pixel pix (channels past `m` are not stored).
  template <int kJ>
  void Lanes(int64_t m0, int64_t m, int64_t pix, const __m256i (&s)[kJ]) const {
    for (int j = 0; j < kJ; ++j) {
      alignas(32) int32_t lanes[8];
      _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), s[j]);
      const int64_t c0 = m0 + 8 * j;
      for (int l = 0; l < 8 && c0 + l < m; ++l)
        y[(c0 + l) * plane + pix] = lanes[l];
    }
  }
};

#if defined(ASCEND_EMU_POINTWISE_REQUANT)
// A block's rows' sums as 2 kR vectors, each with its row's scale (vscale
// from the block's first row); false when kChecked and a sum is past 2^24.
template <bool kChecked, int kR>
inline bool Flatten(const __m256i (&s)[kR][2], const float* vscale,
                    __m256i (&v)[2 * kR],
                    requant_computed::V8 (&scale)[2 * kR]) {
  namespace rc = requant_computed;
  bool within = true;
  for (int i = 0; i < kR; ++i) {
    v[2 * i] = s[i][0];
    v[2 * i + 1] = s[i][1];
    if constexpr (kChecked) {
      within =
          within && rc::Within24Bits8(s[i][0]) && rc::Within24Bits8(s[i][1]);
    }
    scale[2 * i] = scale[2 * i + 1] = rc::V8{} + vscale[i];
  }
  return within;
}

// y's int8: FusedConvDequant's epilogue computed on the block's sums in
// registers, all its rows at once (requant_computed.h's RequantN); a block
// with a sum past 2^24 through the reference (kChecked: unless the weights
// rule such sums out, PointwiseInt8::within24).
template <bool kNanFree, bool kChecked>
struct StoreRequantized {
  const PointwiseRequant* r;
  int8_t* y;  // this image's [m, plane]
  int64_t plane;
  template <int kR>
  void operator()(int64_t m0, int64_t p0, int64_t cols,
                  const __m256i (&s)[kR][2]) const {
    namespace rc = requant_computed;
    __m256i v[2 * kR];
    rc::V8 scale[2 * kR];
    const bool within = Flatten<kChecked, kR>(s, r->vscale + m0, v, scale);
    if (!within) {
      Reference<kR>(m0, p0, cols, s);
      return;
    }
    rc::RequantN<kNanFree, 2 * kR>(v, scale, r->k);
    for (int i = 0; i < kR; ++i) {
      const __m128i q = rc::PackInt8x16(v[2 * i], v[2 * i + 1]);
      int8_t* out = y + (m0 + i) * plane + p0;
      if (cols == kCols) {
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out), q);
      } else {
        alignas(16) int8_t lanes[kCols];
        _mm_store_si128(reinterpret_cast<__m128i*>(lanes), q);
        std::memcpy(out, lanes, static_cast<size_t>(cols));
      }
    }
  }

  template <int kJ>
  void Lanes(int64_t m0, int64_t m, int64_t pix, const __m256i (&s)[kJ]) const {
    namespace rc = requant_computed;
    __m256i v[kJ];
    rc::V8 scale[kJ];
    bool within = true;
    for (int j = 0; j < kJ; ++j) {
      v[j] = s[j];
      if constexpr (kChecked) within = within && rc::Within24Bits8(s[j]);
      scale[j] = gnu_vectors::BitCastV<rc::V8>(
          _mm256_loadu_ps(r->vscale + m0 + 8 * j));
    }
    if (within) rc::RequantN<kNanFree, kJ>(v, scale, r->k);
    for (int j = 0; j < kJ; ++j) {
      alignas(32) int32_t lanes[8];
      _mm256_store_si256(reinterpret_cast<__m256i*>(lanes),
                         within ? v[j] : s[j]);
      const int64_t c0 = m0 + 8 * j;
      for (int l = 0; l < 8 && c0 + l < m; ++l) {
        y[(c0 + l) * plane + pix] =
            within
                ? static_cast<int8_t>(lanes[l])
                : RequantOne(lanes[l], r->scales[r->per_channel ? c0 + l : 0],
                             *r->epilogue);
      }
    }
  }

  template <int kR>
  void Reference(int64_t m0, int64_t p0, int64_t cols,
                 const __m256i (&s)[kR][2]) const {
    for (int i = 0; i < kR; ++i) {
      alignas(32) int32_t sums[kCols];
      _mm256_store_si256(reinterpret_cast<__m256i*>(sums), s[i][0]);
      _mm256_store_si256(reinterpret_cast<__m256i*>(sums + 8), s[i][1]);
      const DeqScale& d = r->scales[r->per_channel ? m0 + i : 0];
      for (int64_t j = 0; j < cols; ++j)
        y[(m0 + i) * plane + p0 + j] = RequantOne(sums[j], d, *r->epilogue);
    }
  }
};

// y's float16 or float32 (kToFloat): AscendDequant, relu_flag and the
// activation computed on the block's sums in registers (requant_computed.h's
// DequantN), a block with a sum past 2^24 through the reference.
template <bool kToFloat, bool kChecked>
struct StoreDequantized {
  const PointwiseRequant* r;
  void* y;  // this image's [m, plane]
  int64_t plane;

  // Element i of y = v (a float16 value: its conversion is exact).
  void Put(int64_t i, float v) const {
    if constexpr (kToFloat) {
      static_cast<float*>(y)[i] = v;
    } else {
      static_cast<Half*>(y)[i] = Half(v);
    }
  }
  // Eight values at element i.
  void Put8(int64_t i, requant_computed::V8 v) const {
    const __m256 f = gnu_vectors::BitCastV<__m256>(v);
    if constexpr (kToFloat) {
      _mm256_storeu_ps(static_cast<float*>(y) + i, f);
    } else {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(static_cast<Half*>(y) + i),
                       _mm256_cvtps_ph(f, _MM_FROUND_TO_NEAREST_INT));
    }
  }

  template <int kR>
  void operator()(int64_t m0, int64_t p0, int64_t cols,
                  const __m256i (&s)[kR][2]) const {
    namespace rc = requant_computed;
    __m256i a[2 * kR];
    rc::V8 scale[2 * kR], v[2 * kR] = {};  // (v read only when within)
    const bool within = Flatten<kChecked, kR>(s, r->vscale + m0, a, scale);
    if (within) rc::DequantN<2 * kR>(a, scale, r->k, v);
    for (int i = 0; i < kR; ++i) {
      const int64_t at = (m0 + i) * plane + p0;
      if (within && cols == kCols) {
        Put8(at, v[2 * i]);
        Put8(at + 8, v[2 * i + 1]);
        continue;
      }
      alignas(32) float lanes[kCols];
      alignas(32) int32_t sums[kCols];
      _mm256_store_ps(lanes, gnu_vectors::BitCastV<__m256>(v[2 * i]));
      _mm256_store_ps(lanes + 8, gnu_vectors::BitCastV<__m256>(v[2 * i + 1]));
      _mm256_store_si256(reinterpret_cast<__m256i*>(sums), s[i][0]);
      _mm256_store_si256(reinterpret_cast<__m256i*>(sums + 8), s[i][1]);
      const DeqScale& d = r->scales[r->per_channel ? m0 + i : 0];
      for (int64_t j = 0; j < cols; ++j) {
        Put(at + j,
            within ? lanes[j] : DequantActivatedOne(sums[j], d, *r->epilogue));
      }
    }
  }

  template <int kJ>
  void Lanes(int64_t m0, int64_t m, int64_t pix, const __m256i (&s)[kJ]) const {
    namespace rc = requant_computed;
    rc::V8 scale[kJ], v[kJ] = {};  // (v read only when within)
    bool within = true;
    for (int j = 0; j < kJ; ++j) {
      if constexpr (kChecked) within = within && rc::Within24Bits8(s[j]);
      scale[j] = gnu_vectors::BitCastV<rc::V8>(
          _mm256_loadu_ps(r->vscale + m0 + 8 * j));
    }
    if (within) rc::DequantN<kJ>(s, scale, r->k, v);
    for (int j = 0; j < kJ; ++j) {
      alignas(32) float lanes[8];
      alignas(32) int32_t sums[8];
      _mm256_store_ps(lanes, gnu_vectors::BitCastV<__m256>(v[j]));
      _mm256_store_si256(reinterpret_cast<__m256i*>(sums), s[j]);
      const int64_t c0 = m0 + 8 * j;
      for (int l = 0; l < 8 && c0 + l < m; ++l) {
        Put((c0 + l) * plane + pix,
            within ? lanes[l]
                   : DequantActivatedOne(sums[l],
                                         r->scales[r->per_channel ? c0 + l : 0],
                                         *r->epilogue));
      }
    }
  }
};

#endif

// Rows [m0, m0 + kR) of the image's result, pixels [p0, p0 + kCols) of the
// padded plane: the sums in registers, plus the bias, handed to `out` (only
// pixels < plane are stored).
template <int kR, typename Out>
inline void Block(const PointwiseInt8& p, const int16_t* packed, int64_t m0,
                  int64_t p0, const Out& out) {
  const int64_t padded = PaddedPlane(p.plane);
  __m256i acc[kR][2];
  for (int r = 0; r < kR; ++r) acc[r][0] = acc[r][1] = _mm256_setzero_si256();
  const int32_t* w = p.w.data() + m0 * p.pairs;
  const int16_t* xk = packed + 2 * p0;
  for (int64_t k = 0; k < p.pairs; ++k, xk += 2 * padded) {
    const __m256i x0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(xk));
    const __m256i x1 =
        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(xk + 16));
    for (int r = 0; r < kR; ++r) {
      const __m256i wr = _mm256_set1_epi32(w[r * p.pairs + k]);
      acc[r][0] = _mm256_add_epi32(acc[r][0], _mm256_madd_epi16(x0, wr));
      acc[r][1] = _mm256_add_epi32(acc[r][1], _mm256_madd_epi16(x1, wr));
    }
  }
  for (int r = 0; r < kR; ++r) {
    const __m256i b = _mm256_set1_epi32(p.bias.empty() ? 0 : p.bias[m0 + r]);
    acc[r][0] = _mm256_add_epi32(acc[r][0], b);
    acc[r][1] = _mm256_add_epi32(acc[r][1], b);
  }
  out.template operator()<kR>(m0, p0, std::min(kCols, p.plane - p0), acc);
}

// Channels [m0, m0 + 8 kJ) of pixels [pix, pix + kPix) for a plane under
// kCols: x's pairs broadcast, 8 output channels' weight pairs per vector
// (wt's int8 pairs widened to int16 as they load), the sums handed to `out`
// a pixel at a time.
template <int kJ, int kPix, typename Out>
inline void ChannelBlock(const PointwiseInt8& p, const int16_t* packed,
                         int64_t m0, int64_t pix, const Out& out) {
  const int64_t padded = PaddedPlane(p.plane);
  __m256i acc[kPix][kJ];
  for (int q = 0; q < kPix; ++q) {
    for (int j = 0; j < kJ; ++j) acc[q][j] = _mm256_setzero_si256();
  }
  const int8_t* wk = p.wt.data() + 2 * m0;
  for (int64_t k = 0; k < p.pairs; ++k, wk += 2 * p.m8) {
    __m256i x[kPix];
    for (int q = 0; q < kPix; ++q) {
      int32_t pair;  // (x[2k] - ox, x[2k + 1] - ox) at this pixel
      std::memcpy(&pair, packed + 2 * (k * padded + pix + q), sizeof pair);
      x[q] = _mm256_set1_epi32(pair);
    }
    for (int j = 0; j < kJ; ++j) {
      const __m256i wj = _mm256_cvtepi8_epi16(
          _mm_loadu_si128(reinterpret_cast<const __m128i*>(wk + 16 * j)));
      for (int q = 0; q < kPix; ++q)
        acc[q][j] = _mm256_add_epi32(acc[q][j], _mm256_madd_epi16(wj, x[q]));
    }
  }
  for (int q = 0; q < kPix; ++q) {
    for (int j = 0; j < kJ; ++j) {
      acc[q][j] = _mm256_add_epi32(
          acc[q][j], _mm256_loadu_si256(reinterpret_cast<const __m256i*>(
                         p.bias8.data() + m0 + 8 * j)));
    }
    out.template Lanes<kJ>(m0, p.m, pix + q, acc[q]);
  }
}

template <int kPix, typename Out>
void ChannelBlocks(const PointwiseInt8& p, const int16_t* packed, int64_t pix,
                   const Out& out) {
  // 8 accumulators: 4 pixels x 2 channel vectors, or 2 (1) x 4.
  constexpr int kJ = kPix == 4 ? 2 : 4;
  int64_t m0 = 0;
  for (; m0 + 8 * kJ <= p.m8; m0 += 8 * kJ)
    ChannelBlock<kJ, kPix>(p, packed, m0, pix, out);
  for (; m0 < p.m8; m0 += 8) ChannelBlock<1, kPix>(p, packed, m0, pix, out);
}

// Every block of one image (x already packed), each handed to `out`.
template <typename Out>
void Blocks(const PointwiseInt8& p, const int16_t* packed, const Out& out) {
  const int64_t padded = PaddedPlane(p.plane);
  if (!p.wt.empty()) {  // a plane under kCols: channels across the lanes
    // Four pixels at a time where there are four: a 2x2 plane then reads
    // each weight once (MobileNetV2's last Conv: 400 KB of them).
    int64_t pix = 0;
    for (; pix + 4 <= p.plane; pix += 4) ChannelBlocks<4>(p, packed, pix, out);
    for (; pix + 2 <= p.plane; pix += 2) ChannelBlocks<2>(p, packed, pix, out);
    if (pix < p.plane) ChannelBlocks<1>(p, packed, pix, out);
    return;
  }
  // Pixels outer: a column block's pairs (pairs x 64 bytes) stay in L1
  // while every row block reads them.
  for (int64_t p0 = 0; p0 < padded; p0 += kCols) {
    int64_t m0 = 0;
    for (; m0 + kRows <= p.m; m0 += kRows) Block<kRows>(p, packed, m0, p0, out);
    switch (p.m - m0) {
      case 3:
        Block<3>(p, packed, m0, p0, out);
        break;
      case 2:
        Block<2>(p, packed, m0, p0, out);
        break;
      case 1:
        Block<1>(p, packed, m0, p0, out);
        break;
      default:
        break;
    }
  }
}

}  // namespace

void RunPointwiseInt8(const PointwiseInt8& p, const int8_t* x, void* scratch,
                      int32_t* y) {
  auto* packed = static_cast<int16_t*>(scratch);
  for (int64_t n = 0; n < p.n; ++n) {
    Pack(p, x + n * p.c * p.plane, packed);
    Blocks(p, packed, StoreSums{y + n * p.m * p.plane, p.plane});
  }
}

#if defined(ASCEND_EMU_POINTWISE_REQUANT)
void RunPointwiseInt8Dequant(const PointwiseInt8& p, const int8_t* x,
                             void* scratch, const PointwiseRequant& r,
                             bool to_float, void* y) {
  auto* packed = static_cast<int16_t*>(scratch);
  const size_t out_bytes = to_float ? sizeof(float) : sizeof(Half);
  for (int64_t n = 0; n < p.n; ++n) {
    Pack(p, x + n * p.c * p.plane, packed);
    void* yn = static_cast<unsigned char*>(y) + n * p.m * p.plane * out_bytes;
    if (to_float) {
      if (p.within24) {
        Blocks(p, packed, StoreDequantized<true, false>{&r, yn, p.plane});
      } else {
        Blocks(p, packed, StoreDequantized<true, true>{&r, yn, p.plane});
      }
    } else if (p.within24) {
      Blocks(p, packed, StoreDequantized<false, false>{&r, yn, p.plane});
    } else {
      Blocks(p, packed, StoreDequantized<false, true>{&r, yn, p.plane});
    }
  }
}

void RunPointwiseInt8Requant(const PointwiseInt8& p, const int8_t* x,
                             void* scratch, const PointwiseRequant& r,
                             int8_t* y) {
  auto* packed = static_cast<int16_t*>(scratch);
  for (int64_t n = 0; n < p.n; ++n) {
    Pack(p, x + n * p.c * p.plane, packed);
    int8_t* yn = y + n * p.m * p.plane;
    if (r.k.nan_free && p.within24) {
      Blocks(p, packed, StoreRequantized<true, false>{&r, yn, p.plane});
    } else if (r.k.nan_free) {
      Blocks(p, packed, StoreRequantized<true, true>{&r, yn, p.plane});
    } else {
      Blocks(p, packed, StoreRequantized<false, true>{&r, yn, p.plane});
    }
  }
}
#endif
#endif

}  // namespace kernels
}  // namespace ascend_emu
