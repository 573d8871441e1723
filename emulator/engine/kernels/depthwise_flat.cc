// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Depthwise KxK planes as one flat 1-D convolution (depthwise_flat.h).
//
// Why flat: ConvNeXt's 7x7 depthwise Convs run on planes of 16x16 down to
// 2x2 (at 64x64 input), at most one AVX-512 vector wide, where the 3x3
// strips (depthwise_strips.h, a vector of output columns walking down the
// plane) would waste most lanes, and the generic row path (conv.cc's
// DepthwiseRow, one output row at a time) took 68-80 us for [1, 32, 16, 16]
// (~11 GFLOP/s; 13-15 us here, CHANGELOG.md "Performance history"). Here a
// plane is copied into a buffer with row stride S = W + max(left, right pad)
// (at least ow): each row holds its left padding zeros, its W inputs and
// zeros to S, so padded column C >= S of row R is padded column C - S < left
// pad of row R + 1, a zero as well. Output (r, c) is then
// sum over (kh, kw) of tap * buf[(r + kh) * S + c + kw] = the 1-D window
// at flat index i = r * S + c, so one loop over i in vectors of the build's
// widest float register computes the whole plane, whatever its width; the
// S - ow columns past each output row are computed and dropped (16% at
// 16x16, k = 7). Four vectors at a time, two partial sums each (even and
// odd tap rows): eight independent multiply-add chains hide the latency of
// the k*k-deep sum, and each tap's broadcast feeds four vectors.
//
// The copy costs one pass over the plane, far less than k*k taps per
// output. Planes larger than the stack buffer keep conv.cc's row path
// (none in the models benchmarked; a larger plane would want the strips
// generalised to k columns).
#include "depthwise_flat.h"

#include <algorithm>
#include <cstring>

#include "gnu_vectors.h"

#if defined(__GNUC__) && defined(__has_builtin)
#if __has_builtin(__builtin_shufflevector)
#define ASCEND_EMU_DW_FLAT 1
#endif
#endif

namespace ascend_emu {
namespace kernels {

#ifdef ASCEND_EMU_DW_FLAT
namespace {

// Floats of the per-call stack buffer: the padded plane and the output.
constexpr int64_t kBufFloats = 4096;

using gnu_vectors::kLanes;
using gnu_vectors::Load;
using gnu_vectors::Store;
using gnu_vectors::Vec;

// The buffer's layout for `s`: row stride, floats of the padded copy (its
// padded rows, one zero row for the wrap past the last one, and a vector of
// slack for the last vector's reads) and of the output (whole vectors).
struct FlatLayout {
  int64_t stride = 0, in_floats = 0, out_floats = 0;
};

FlatLayout Layout(const DepthwiseFlatShape& s) {
  FlatLayout l;
  // At least ow too: with both side pads past k - 1 an output row is wider
  // than the input row and its pads.
  l.stride = std::max(s.w + std::max(s.pl, s.pr), s.ow);
  l.in_floats = (s.oh + s.k) * l.stride + kLanes + s.k;
  l.out_floats = (s.oh * l.stride + kLanes - 1) / kLanes * kLanes;
  return l;
}

// NB output vectors at flat index p's offset: o[j] = b + sum over taps of
// t[kh * K + kw] * p[j * kLanes + kh * stride + kw].
template <int K, int NB>
inline void Block(const float* __restrict p, int64_t stride, const Vec* t,
                  Vec b, float* __restrict o) {
  Vec even[NB], odd[NB];
  for (int j = 0; j < NB; ++j) {
    even[j] = b;
    odd[j] = Vec{};
  }
  for (int kh = 0; kh < K; kh += 2) {
    const float* row = p + kh * stride;
    for (int kw = 0; kw < K; ++kw) {
      for (int j = 0; j < NB; ++j) {
        even[j] += t[kh * K + kw] * Load(row + j * kLanes + kw);
      }
    }
  }
  for (int kh = 1; kh < K; kh += 2) {
    const float* row = p + kh * stride;
    for (int kw = 0; kw < K; ++kw) {
      for (int j = 0; j < NB; ++j) {
        odd[j] += t[kh * K + kw] * Load(row + j * kLanes + kw);
      }
    }
  }
  for (int j = 0; j < NB; ++j) Store(o + j * kLanes, even[j] + odd[j]);
}

// One plane: `out` [oh, stride] (whole vectors) from the padded copy `in`.
template <int K>
void Plane(const float* in, int64_t stride, int64_t total, const float* tap,
           float bias, float* out) {
  Vec t[K * K];
  for (int i = 0; i < K * K; ++i) t[i] = Vec{} + tap[i];
  const Vec b = Vec{} + bias;
  int64_t i = 0;
  for (; i + 4 * kLanes < total; i += 4 * kLanes) {
    Block<K, 4>(in + i, stride, t, b, out + i);
  }
  // The 1 to 4 vectors left (the last one partly past the plane's end).
  switch ((total - i + kLanes - 1) / kLanes) {
    case 4:
      Block<K, 4>(in + i, stride, t, b, out + i);
      break;
    case 3:
      Block<K, 3>(in + i, stride, t, b, out + i);
      break;
    case 2:
      Block<K, 2>(in + i, stride, t, b, out + i);
      break;
    case 1:
      Block<K, 1>(in + i, stride, t, b, out + i);
      break;
    default:
      break;
  }
}

}  // namespace

bool DepthwiseFlatFit(const DepthwiseFlatShape& s) {
  if ((s.k != 3 && s.k != 5 && s.k != 7) || s.pt < 0 || s.pl < 0 || s.pb < 0 ||
      s.pr < 0 || s.h < 1 || s.w < 1 || s.oh < 1 || s.ow < 1 ||
      s.oh != s.h + s.pt + s.pb - s.k + 1 ||
      s.ow != s.w + s.pl + s.pr - s.k + 1) {
    return false;
  }
  // Bound each term before multiplying (pads may be anything).
  if (s.w > kBufFloats || s.pl > kBufFloats || s.pr > kBufFloats ||
      s.oh > kBufFloats) {
    return false;
  }
  const FlatLayout l = Layout(s);
  return l.in_floats + l.out_floats <= kBufFloats;
}

void DepthwiseFlat(const float* x, const float* w, const float* bias,
                   const DepthwiseFlatShape& s, float* y) {
  alignas(64) float buf[kBufFloats];
  const FlatLayout l = Layout(s);
  float* in = buf;
  float* out = buf + l.in_floats;
  // The padding stays zero: each plane writes only its inputs' places.
  std::fill(in, in + l.in_floats, 0.0f);
  const int64_t mg = s.m / s.c, k2 = s.k * s.k, total = s.oh * l.stride;
  for (int64_t n = 0; n < s.n; ++n) {
    for (int64_t m = 0; m < s.m; ++m) {
      if (m % mg == 0) {  // M/C output channels read one input plane
        const float* plane = x + (n * s.c + m / mg) * s.h * s.w;
        for (int64_t r = 0; r < s.h; ++r) {
          std::memcpy(in + (s.pt + r) * l.stride + s.pl, plane + r * s.w,
                      static_cast<size_t>(s.w) * sizeof(float));
        }
      }
      const float b = bias != nullptr ? bias[m] : 0.0f;
      if (s.k == 3) {
        Plane<3>(in, l.stride, total, w + m * k2, b, out);
      } else if (s.k == 5) {
        Plane<5>(in, l.stride, total, w + m * k2, b, out);
      } else {
        Plane<7>(in, l.stride, total, w + m * k2, b, out);
      }
      float* o = y + (n * s.m + m) * s.oh * s.ow;
      for (int64_t r = 0; r < s.oh; ++r) {
        std::memcpy(o + r * s.ow, out + r * l.stride,
                    static_cast<size_t>(s.ow) * sizeof(float));
      }
    }
  }
}

#else  // no GNU vector extensions: conv.cc keeps its row path

bool DepthwiseFlatFit(const DepthwiseFlatShape&) { return false; }
void DepthwiseFlat(const float*, const float*, const float*,
                   const DepthwiseFlatShape&, float*) {}

#endif

}  // namespace kernels
}  // namespace ascend_emu
