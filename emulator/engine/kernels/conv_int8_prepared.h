// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// What conv_int8.cc's PrepareConvInt8 makes, shared by the files of its
// paths: oneDNN's int8 convolution (conv_int8_onednn.cc), the exact float
// paths and the channels-last depthwise path (conv_int8.cc). Private to
// the kernels.
#pragma once

#include <cstdint>
#include <memory>

#include "ascend_emu/kernel.h"
#include "conv_geometry.h"
#include "conv_onednn.h"
#include "kernel_util.h"

namespace ascend_emu {
namespace kernels {

// What PrepareConvInt8 made: oneDNN's int8 convolution, the exact float
// convolutions of ViaFloat, or the exact depthwise and pointwise paths.
class ConvInt8Prepared : public PreparedOp {
 public:
  enum class Kind { kOnednnInt8, kViaFloat, kDepthwise, kPointwise };
  explicit ConvInt8Prepared(Kind k) : kind(k) {}
  const Kind kind;
};

// offset_x: the padding's value (atc sets it from the AscendQuant before).
inline int32_t OffsetX(const Attributes& attrs) {
  return static_cast<int32_t>(AttrInt(attrs, "offset_x", 0));
}

inline OnednnConvShape ShapeOf(const ConvGeometry& g) {
  OnednnConvShape s;
  s.n = g.n;
  s.c = g.c;
  s.m = g.m;
  s.group = g.group;
  s.w = g.w;
  return s;
}

// oneDNN's int8 convolution of a Conv with constant weights (and bias), or
// null (no such primitive, or its layouts would not fit the scratch Infer
// reserves).
std::unique_ptr<ConvInt8Prepared> PrepareOnednnInt8(const PrepareContext& ctx,
                                                    const ConvGeometry& g,
                                                    bool has_bias);

// Its run; false when it cannot serve this call (another thread holds it):
// the caller runs the reference. With `keep` and a destination in another
// layout, that destination is left in the scratch (*keep its address)
// rather than reordered into y. With x_channels_last (an agreed layout:
// OnednnInt8ChannelsLast's src), x is oneDNN's source as it is, and the run
// waits for the lock: the reference cannot read it.
bool RunOnednnInt8(const ConvInt8Prepared& p, const int8_t* x, int32_t* y,
                   void* scratch, const int32_t** keep = nullptr,
                   bool x_channels_last = false);

// Whether oneDNN chose channels last (NHWC) for its source and destination.
void OnednnInt8ChannelsLast(const ConvInt8Prepared& p, bool* src, bool* dst);

}  // namespace kernels
}  // namespace ascend_emu
