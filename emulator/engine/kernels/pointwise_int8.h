// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// CANN's int8 1x1 Conv (stride 1, no padding, group 1), exact, on AVX2's
// vpmaddwd: y[m][p] = bias[m] + sum_c (x[c][p] - offset_x) * w[m][c], the
// image's (x - offset_x) widened once to int16 pairs of channels, each
// vpmaddwd adding two products per int32 lane. The products are integers of
// magnitude at most 255 * 128 = 32640, a pair's sum fits int32, and the
// int32 sums wrap as the reference loop's.
//
// Why: on a CPU without VNNI (AVX2 only: Zen 1-3, Haswell to Skylake
// client) oneDNN's int8 Convs add pairs of products in saturating int16
// lanes, so conv_int8.cc computed CANN's exactly through float32 Convs:
// the image converted to float, oneDNN's reorders to its blocked layout
// and back, the result converted to int32. A 1x1 Conv is a GEMM, and
// vpmaddwd does 16 exact multiply-adds per instruction where float32's FMA
// does 8 ("int8 Conv, MatMul and Gemm through float" in
// docs/emulator-kernels.md; "Quantized models" in docs/benchmarks.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "conv_geometry.h"
#include "conv_int8_epilogue.h"
#include "dequant.h"
#include "requant_computed.h"

#if defined(__AVX2__)
#define ASCEND_EMU_POINTWISE_INT8 1
#endif

namespace ascend_emu {
namespace kernels {

// What a pointwise int8 Conv with constant weights keeps from its load.
struct PointwiseInt8 {
  int64_t n = 0, c = 0, m = 0, plane = 0;
  int32_t ox = 0;
  int64_t pairs = 0;  // (c + 1) / 2: input channels in int16 pairs
  // [m][pairs]: w[m][2k] low, w[m][2k + 1] high (empty where wt is used).
  std::vector<int32_t> w;
  std::vector<int32_t> bias;  // [m], empty: none (or wt is used)
  // Planes under 16 pixels (the kernel's column block: MobileNet's last
  // stages at 2x2 left 3/4 of every vector idle): output channels across
  // the lanes instead. wt [pairs][m8][2] holds 8 output channels' pairs
  // side by side, m8 = m rounded up to 8 (zeros past m), bias8 the bias so.
  // The weights stay int8, widened as they load: on those planes the
  // kernel waits on their bytes (MobileNetV2's last Conv reads 200 KB of
  // them per call, where int16 pairs took 400 KB).
  int64_t m8 = 0;
  std::vector<int8_t> wt;
  std::vector<int32_t> bias8;
  // Every sum provably within +-2^24 for any x (sum_c |w| * max |x - ox|
  // + |bias| per output channel): the requantization then checks none.
  bool within24 = false;
};

// True when the path takes `g` (a 1x1 Conv with stride 1, no padding and
// one group); *p then holds `w` ([m, c, 1, 1]) and `bias` (null: none)
// rearranged.
bool MakePointwiseInt8(const ConvGeometry& g, int32_t offset_x, const int8_t* w,
                       const int32_t* bias, PointwiseInt8* p);

// Bytes of scratch RunPointwiseInt8 needs for `g` (one image's int16 pairs).
size_t PointwiseInt8ScratchBytes(const ConvGeometry& g);

#if defined(ASCEND_EMU_POINTWISE_INT8)
// y [n, m, plane] (int32) from x [n, c, plane]. Reads x and writes y and
// the scratch only.
void RunPointwiseInt8(const PointwiseInt8& p, const int8_t* x, void* scratch,
                      int32_t* y);
#endif

// FusedConvDequant's epilogue, with a merged AscendQuant or without, to
// apply to the sums in registers (requant_computed.h) rather than storing
// them.
struct PointwiseRequant {
  RequantComputed k;
  // [m rounded up to 8]: each output channel's vscale (0 past m).
  const float* vscale = nullptr;
  // The reference's view, for sums past 2^24.
  const DeqScale* scales = nullptr;  // [m], or [1] with !per_channel
  bool per_channel = false;
  const Epilogue* epilogue = nullptr;
};

#if defined(ASCEND_EMU_POINTWISE_INT8) && defined(ASCEND_EMU_REQUANT_COMPUTED)
#define ASCEND_EMU_POINTWISE_REQUANT 1
// y [n, m, plane] (int8) from x [n, c, plane]: RunPointwiseInt8's sums
// requantized as FusedConvDequant's chain would, without storing them.
void RunPointwiseInt8Requant(const PointwiseInt8& p, const int8_t* x,
                             void* scratch, const PointwiseRequant& r,
                             int8_t* y);
// y [n, m, plane] (float16, or float32 with to_float) from x: without an
// AscendQuant merged, the dequantized sums (MakeDequantComputed's r).
void RunPointwiseInt8Dequant(const PointwiseInt8& p, const int8_t* x,
                             void* scratch, const PointwiseRequant& r,
                             bool to_float, void* y);
#endif

}  // namespace kernels
}  // namespace ascend_emu
