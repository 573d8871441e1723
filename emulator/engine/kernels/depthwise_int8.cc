// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// depthwise_int8.h: the exact channels-last int8 depthwise Conv.
#include "depthwise_int8.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "gnu_vectors.h"
#include "quant_round.h"
#include "transpose8x8.h"

namespace ascend_emu {
namespace kernels {
namespace {

// The reduction bound of the exact float sums (conv_int8.cc's kExactTerms).
constexpr int64_t kExactTaps = 514;
// Output pixels summed side by side.
constexpr int64_t kBlock = 4;
// The largest NCHW input plane worth transposing: on wider ones that costs
// more than conv.cc's row-wise float kernels take (MobileNetV2's
// 96-channel 32x32 stride-2 depthwise Conv: 38 against 14 us in the model).
constexpr int64_t kMaxIn = 8;

#if defined(__AVX2__)
// Pixels [q0, q0 + kPix) (kPix 8 or 4) of the flattened plane (hw pixels,
// rows wd wide) of channels [ch0, ch0 + 8) of an NCHW image, as (x - ox)
// floats at their places in the padded channels-last image p: read kPix
// pixels of a channel at a time and transposed in registers.
template <int kPix>
inline void Transposed8x8(const DepthwiseInt8& d, const int8_t* x, int64_t q0,
                          int64_t ch0, float* p) {
  const Window2D& w = d.g.w;
  const int64_t c = d.g.c, hw = w.in[0] * w.in[1], wd = w.in[1];
  __m256i r[8];
  const __m256 o = _mm256_set1_ps(static_cast<float>(d.ox));
  for (int k = 0; k < 8; ++k) {
    const int8_t* src = x + (ch0 + k) * hw + q0;
    __m128i b;
    if constexpr (kPix == 8) {
      b = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(src));
    } else {
      int32_t four;
      std::memcpy(&four, src, sizeof four);
      b = _mm_cvtsi32_si128(four);
    }
    const __m256 v =
        _mm256_sub_ps(_mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(b)), o);
    r[k] = _mm256_castps_si256(v);
  }
  Transpose8x8(r);
  int64_t i = q0 / wd, col = q0 % wd;  // pixel q0's row and column
  for (int j = 0; j < kPix; ++j) {
    float* dst =
        p + ((i + w.pad_begin[0]) * d.padded_w + col + w.pad_begin[1]) * c +
        ch0;
    _mm256_storeu_ps(dst, _mm256_castsi256_ps(r[j]));
    if (++col == wd) {
      col = 0;
      ++i;
    }
  }
}
#endif

// The padded image: (x - ox) as float at [h + pad_top, w + pad_left, c],
// zeros around (what the offset_x padding contributes).
void FillPadded(const DepthwiseInt8& d, const int8_t* x, bool channels_last,
                float* p) {
  const Window2D& w = d.g.w;
  const int64_t c = d.g.c, h = w.in[0], wd = w.in[1];
  const int64_t row = d.padded_w * c;
  std::fill(p, p + d.padded_h * row, 0.0f);
  const float ox = static_cast<float>(d.ox);
  if (channels_last) {
    for (int64_t i = 0; i < h; ++i) {
      float* dst = p + (i + w.pad_begin[0]) * row + w.pad_begin[1] * c;
      const int8_t* src = x + i * wd * c;
      for (int64_t k = 0; k < wd * c; ++k)
        dst[k] = static_cast<float>(src[k]) - ox;
    }
    return;
  }
  // NCHW: every channel's plane written at a stride of c, 8 channels x 8
  // pixels at a time transposed in registers (one scalar store per element
  // was a third of the depthwise Conv's time), the rest one by one.
  const int64_t hw = h * wd;
  int64_t q8 = 0, c8 = 0;
#if defined(__AVX2__)
  q8 = hw / 4 * 4;  // a 2x2 plane: one block of 4
  c8 = c / 8 * 8;
  for (int64_t ch0 = 0; ch0 < c8; ch0 += 8) {
    int64_t q0 = 0;
    for (; q0 + 8 <= q8; q0 += 8) Transposed8x8<8>(d, x, q0, ch0, p);
    if (q0 < q8) Transposed8x8<4>(d, x, q0, ch0, p);
  }
#endif
  for (int64_t ch = 0; ch < c; ++ch) {
    const int64_t q_begin = ch < c8 ? q8 : 0;
    int64_t i = q_begin / wd, j = q_begin % wd;
    for (int64_t q = q_begin; q < hw; ++q) {
      p[((i + w.pad_begin[0]) * d.padded_w + j + w.pad_begin[1]) * c + ch] =
          static_cast<float>(x[ch * hw + q]) - ox;
      if (++j == wd) {
        j = 0;
        ++i;
      }
    }
  }
}

// Output pixel (oh, ow), channels [c0, c1): the taps' sum (exact) to int32,
// plus the bias.
inline void PixelScalar(const DepthwiseInt8& d, const float* p, int64_t oh,
                        int64_t ow, int64_t c0, int64_t c1, int32_t* y) {
  const Window2D& w = d.g.w;
  const int64_t c = d.g.c;
  for (int64_t ch = c0; ch < c1; ++ch) {
    float acc = 0.0f;
    for (int64_t kh = 0; kh < w.kernel[0]; ++kh) {
      const int64_t ih = oh * w.stride[0] + kh * w.dilation[0];
      for (int64_t kw = 0; kw < w.kernel[1]; ++kw) {
        const int64_t iw = ow * w.stride[1] + kw * w.dilation[1];
        acc += p[(ih * d.padded_w + iw) * c + ch] *
               d.w[(kh * w.kernel[1] + kw) * c + ch];
      }
    }
    const uint32_t b = d.bias.empty() ? 0u : static_cast<uint32_t>(d.bias[ch]);
    y[ch] = static_cast<int32_t>(
        static_cast<uint32_t>(static_cast<int32_t>(acc)) + b);
  }
}

}  // namespace

bool MakeDepthwiseInt8(const ConvGeometry& g, int32_t offset_x, const int8_t* w,
                       const int32_t* bias, DepthwiseInt8* d) {
  const Window2D& win = g.w;
  const int64_t taps = win.kernel[0] * win.kernel[1];
  if (win.spatial_rank != 2 || g.group != g.c || g.m != g.c || g.c <= 0 ||
      taps <= 0 || taps > kExactTaps || g.n <= 0)
    return false;
  d->g = g;
  d->ox = offset_x;
  d->padded_h = win.in[0] + win.pad_begin[0] + win.pad_end[0];
  d->padded_w = win.in[1] + win.pad_begin[1] + win.pad_end[1];
  d->w.assign(static_cast<size_t>(taps * g.c), 0.0f);
  for (int64_t ch = 0; ch < g.c; ++ch) {
    for (int64_t t = 0; t < taps; ++t)
      d->w[t * g.c + ch] = static_cast<float>(w[ch * taps + t]);
  }
  if (bias != nullptr) d->bias.assign(bias, bias + g.c);
  return true;
}

bool DepthwiseInt8FitsPlanes(const ConvGeometry& g) {
  return g.w.in[0] <= kMaxIn && g.w.in[1] <= kMaxIn;
}

size_t DepthwiseInt8ScratchBytes(const ConvGeometry& g) {
  const Window2D& w = g.w;
  return static_cast<size_t>((w.in[0] + w.pad_begin[0] + w.pad_end[0]) *
                             (w.in[1] + w.pad_begin[1] + w.pad_end[1]) * g.c) *
         sizeof(float);
}

#if defined(ASCEND_EMU_GNU_VECTORS)
namespace {
using gnu_vectors::kLanes;
using gnu_vectors::Vec;
typedef int32_t IVec __attribute__((vector_size(sizeof(Vec))));
typedef uint32_t UVec __attribute__((vector_size(sizeof(Vec))));

// kPixels output pixels of one row from column ow, channels [c0, c0 +
// kLanes): the taps' exact sums to int32, plus the bias. Each tap's weights
// load once for all the pixels, whose sums are independent (the FMAs do not
// wait on each other's latency).
template <int kPixels>
inline void PixelsVec(const DepthwiseInt8& d, const float* p, int64_t oh,
                      int64_t ow, int64_t c0, int32_t* y_row) {
  const Window2D& w = d.g.w;
  const int64_t c = d.g.c, sw = w.stride[1];
  Vec acc[kPixels] = {};
  for (int64_t kh = 0; kh < w.kernel[0]; ++kh) {
    const int64_t ih = oh * w.stride[0] + kh * w.dilation[0];
    for (int64_t kw = 0; kw < w.kernel[1]; ++kw) {
      const Vec wv =
          gnu_vectors::Load(d.w.data() + (kh * w.kernel[1] + kw) * c + c0);
      const float* xp =
          p + (ih * d.padded_w + ow * sw + kw * w.dilation[1]) * c + c0;
      for (int j = 0; j < kPixels; ++j)
        acc[j] += gnu_vectors::Load(xp + j * sw * c) * wv;
    }
  }
  UVec b = UVec{};
  if (!d.bias.empty()) std::memcpy(&b, d.bias.data() + c0, sizeof b);
  for (int j = 0; j < kPixels; ++j) {
    // Exact integers: the conversion is exact; the bias wraps.
    const UVec r =
        gnu_vectors::BitCastV<UVec>(__builtin_convertvector(acc[j], IVec)) + b;
    std::memcpy(y_row + (ow + j) * c + c0, &r, sizeof r);
  }
}
}  // namespace
#endif

void RunDepthwiseInt8(const DepthwiseInt8& d, const int8_t* x,
                      bool x_channels_last, void* scratch, int32_t* y) {
  const ConvGeometry& g = d.g;
  const Window2D& w = g.w;
  const int64_t c = g.c;
  float* p = static_cast<float*>(scratch);
  int64_t vec_end = 0;
#if defined(ASCEND_EMU_GNU_VECTORS)
  vec_end = c / kLanes * kLanes;
#endif
  for (int64_t n = 0; n < g.n; ++n) {
    FillPadded(d, x + n * c * w.in[0] * w.in[1], x_channels_last, p);
    int32_t* yn = y + n * w.out[0] * w.out[1] * c;
    for (int64_t oh = 0; oh < w.out[0]; ++oh) {
      int32_t* y_row = yn + oh * w.out[1] * c;
#if defined(ASCEND_EMU_GNU_VECTORS)
      for (int64_t c0 = 0; c0 < vec_end; c0 += kLanes) {
        int64_t ow = 0;
        for (; ow + kBlock <= w.out[1]; ow += kBlock)
          PixelsVec<kBlock>(d, p, oh, ow, c0, y_row);
        for (; ow < w.out[1]; ++ow) PixelsVec<1>(d, p, oh, ow, c0, y_row);
      }
#endif
      for (int64_t ow = 0; ow < w.out[1]; ++ow)
        PixelScalar(d, p, oh, ow, vec_end, c, y_row + ow * c);
    }
  }
}

}  // namespace kernels
}  // namespace ascend_emu
