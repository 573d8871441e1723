// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Depthwise Convs on small output planes, channels-last
// (depthwise_channels_last.h).
//
// Why channels-last: at the end of an EfficientNet or a MobileNet the planes
// are a few pixels wide (EfficientNet-B0 at 32x32: 5x5 stride 2 from 8x8 to
// 4x4, and to 1x1), so a vector along an output row is mostly empty, and
// conv.cc's rows spend their time on per-row set-up (1-3 GFLOP/s). The
// channels are many (48 to 1152), so a vector runs along them instead: a
// block of channels is copied transposed into a zero-padded buffer
// [padded rows, padded columns, block], and output (i, q) of the block is
// sum over taps (a, b) of tap[a, b, :] * buf[i * sh + a * dh, q * sw + b * dw,
// :], a vector multiply-add per tap and vector of channels, with the sum in a
// register. The two transposes cost a pass over the input and the output,
// far less than the taps.
//
// Where oneDNN has its depthwise kernel (brdgmm, AVX-512), PrepareConv puts
// a float32 depthwise Conv with constant weights there, which is faster
// still (conv.cc, docs/emulator-kernels.md); this path serves the rest:
// float16 (widened), weights computed at run time, and CPUs where oneDNN
// has no such kernel. Nothing is prepared and nothing allocated (one stack
// buffer).
#include "depthwise_channels_last.h"

#include <algorithm>

#include "gnu_vectors.h"

namespace ascend_emu {
namespace kernels {

#ifdef ASCEND_EMU_GNU_VECTORS
namespace {

// Floats of the per-call stack buffer (32 KB).
constexpr int64_t kBufFloats = 8192;
// The widest and highest output plane taken; wider rows vectorize along
// themselves in conv.cc.
constexpr int64_t kMaxOut = 16;
// The fewest channels taken: fewer leave most of a vector empty.
constexpr int64_t kMinChannels = 8;

using gnu_vectors::kLanes;
using gnu_vectors::Load;
using gnu_vectors::Store;
using gnu_vectors::Vec;

// The buffer's layout: the padded extents the windows reach, and the
// channels of a block (a multiple of the vector width: the lanes past the
// last channel hold zeros and their sums are dropped).
struct Layout {
  int64_t hp = 0, wp = 0, block = 0;
  int64_t in_floats() const { return hp * wp * block; }
};

int64_t RoundUp(int64_t v, int64_t m) { return (v + m - 1) / m * m; }

Layout MakeLayout(const DepthwiseChannelsLastShape& s) {
  Layout l;
  l.hp = (s.oh - 1) * s.sh + (s.kh - 1) * s.dh + 1;
  l.wp = (s.ow - 1) * s.sw + (s.kw - 1) * s.dw + 1;
  // Per channel: its padded input, taps, bias and outputs.
  const int64_t per_channel = l.hp * l.wp + s.kh * s.kw + 1 + s.oh * s.ow;
  l.block = std::min(kBufFloats / per_channel / kLanes * kLanes,
                     RoundUp(s.c, kLanes));
  return l;
}

// The output extent ONNX's Conv gives one axis (pads >= 0 here).
int64_t OutExtent(int64_t in, int64_t pads, int64_t k, int64_t stride,
                  int64_t dilation) {
  const int64_t span = in + pads - ((k - 1) * dilation + 1);
  return span < 0 ? 0 : span / stride + 1;
}

}  // namespace

bool DepthwiseChannelsLastFit(const DepthwiseChannelsLastShape& s) {
  const int64_t dims[] = {s.n,      s.c,      s.h,      s.w,     s.kh, s.kw,
                          s.sh,     s.sw,     s.dh,     s.dw,    s.oh, s.ow,
                          1 + s.pt, 1 + s.pl, 1 + s.pb, 1 + s.pr};
  // Every size at least 1 (pads at least 0), and each bounded before the
  // products below (a stack buffer of 8192 floats bounds them all anyway).
  for (int64_t d : dims) {
    if (d < 1 || d > kBufFloats) return false;
  }
  if (s.c < kMinChannels || s.oh > kMaxOut || s.ow > kMaxOut ||
      s.oh != OutExtent(s.h, s.pt + s.pb, s.kh, s.sh, s.dh) ||
      s.ow != OutExtent(s.w, s.pl + s.pr, s.kw, s.sw, s.dw)) {
    return false;
  }
  const int64_t extent_h = (s.oh - 1) * s.sh + (s.kh - 1) * s.dh + 1;
  const int64_t extent_w = (s.ow - 1) * s.sw + (s.kw - 1) * s.dw + 1;
  if (extent_h * extent_w > kBufFloats) return false;
  return MakeLayout(s).block >= kLanes;
}

void DepthwiseChannelsLast(const float* x, const float* w, const float* bias,
                           const DepthwiseChannelsLastShape& s, float* y) {
  alignas(64) float buf[kBufFloats];
  const Layout l = MakeLayout(s);
  const int64_t cs = l.block, taps = s.kh * s.kw, plane = s.oh * s.ow;
  float* in = buf;
  float* tap = in + l.in_floats();
  float* b = tap + taps * cs;
  float* out = b + cs;
  // The rows and columns of the padded extent that hold inputs.
  const int64_t row_end = std::min(l.hp, s.pt + s.h);
  const int64_t col_end = std::min(l.wp, s.pl + s.w);
  for (int64_t c0 = 0; c0 < s.c; c0 += cs) {
    const int64_t nc = std::min(cs, s.c - c0);  // real channels of the block
    for (int64_t j = 0; j < cs; ++j) {
      for (int64_t t = 0; t < taps; ++t) {
        tap[t * cs + j] = j < nc ? w[(c0 + j) * taps + t] : 0.0f;
      }
      b[j] = j < nc && bias != nullptr ? bias[c0 + j] : 0.0f;
    }
    for (int64_t n = 0; n < s.n; ++n) {
      // Zeros: the padding, and the lanes past the block's last channel.
      std::fill(in, in + l.in_floats(), 0.0f);
      for (int64_t j = 0; j < nc; ++j) {
        const float* src = x + (n * s.c + c0 + j) * s.h * s.w;
        for (int64_t r = s.pt; r < row_end; ++r) {
          for (int64_t q = s.pl; q < col_end; ++q) {
            in[(r * l.wp + q) * cs + j] = src[(r - s.pt) * s.w + (q - s.pl)];
          }
        }
      }
      for (int64_t i = 0; i < s.oh; ++i) {
        for (int64_t q = 0; q < s.ow; ++q) {
          const float* window = in + (i * s.sh * l.wp + q * s.sw) * cs;
          float* o = out + (i * s.ow + q) * cs;
          for (int64_t j = 0; j < cs; j += kLanes) {
            // The taps in the order of conv.cc's rows: bias, then row by row.
            Vec acc = Load(b + j);
            for (int64_t a = 0; a < s.kh; ++a) {
              const float* src = window + a * s.dh * l.wp * cs + j;
              const float* t = tap + a * s.kw * cs + j;
              for (int64_t bw = 0; bw < s.kw; ++bw) {
                acc += Load(t + bw * cs) * Load(src + bw * s.dw * cs);
              }
            }
            Store(o + j, acc);
          }
        }
      }
      for (int64_t j = 0; j < nc; ++j) {
        float* dst = y + (n * s.c + c0 + j) * plane;
        for (int64_t p = 0; p < plane; ++p) dst[p] = out[p * cs + j];
      }
    }
  }
}

#else  // no GNU vector extensions: conv.cc keeps its row path

bool DepthwiseChannelsLastFit(const DepthwiseChannelsLastShape&) {
  return false;
}
void DepthwiseChannelsLast(const float*, const float*, const float*,
                           const DepthwiseChannelsLastShape&, float*) {}

#endif

}  // namespace kernels
}  // namespace ascend_emu
