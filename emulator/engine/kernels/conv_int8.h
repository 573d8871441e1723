// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// CANN's int8 Conv2D (reference/cann-quant.md): int8 x, int8 weight,
// optional int32 bias, int32 output, int32 accumulation, and the
// activation's quantization offset `offset_x` (an attribute atc sets from the
// AscendQuant that produces x): y = sum((x - offset_x) * w) + bias, padded
// positions filled with offset_x, i.e. contributing 0. The reference loop is
// the oracle; a Conv with constant weights is prepared on oneDNN's int8
// convolution (s8 source with a source zero point, s8 weights, s32 bias and
// destination) where oneDNN computes it exactly (VNNI: OnednnHasExactInt8).
// Elsewhere, and for grouped Convs oneDNN has no int8 kernel for, exact
// float convolutions: every product is an integer of at most 32640, so a
// float32 sum of up to 514 of them is exact. A Conv with constant weights is
// prepared on oneDNN's float convolution of (x - offset_x), zero padding,
// over slices of at most 514 / (kH * kW) input channels, each slice's result
// summed in int32; a depthwise Conv (one input channel per group) runs
// conv.cc's float depthwise kernels on blocks of channels converted to
// float, or, prepared with one output channel per input channel and an
// input plane of at most 8 x 8, depthwise_int8.h's channels-last path (its
// result left channels last for FusedConvDequant). A 1x1 Conv (stride 1, no
// padding, one group) where oneDNN's int8 is not exact takes
// pointwise_int8.h's exact vpmaddwd path instead of the float one.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "ascend_emu/kernel.h"

namespace ascend_emu {
namespace kernels {

// True when any of a Conv's inputs is int8 (the int8 kernel's, which refuses
// the mixes).
bool ConvIsInt8(const TensorRef* inputs, size_t num_inputs);

std::string InferConvInt8(InferContext& ctx);
void RunConvInt8(const RunContext& ctx);
// The oneDNN primitive of an int8 Conv with constant weights (and bias), or
// null (no such primitive, a CPU where oneDNN's int8 is not exact).
std::unique_ptr<PreparedOp> PrepareConvInt8(const PrepareContext& ctx);

// RunConvInt8 for FusedConvDequant: where the prepared op writes its result
// channels last (oneDNN's NHWC destination, the depthwise channels-last
// path: [N, H, W, M]), that is left in ctx.scratch and returned, not
// reordered into ctx.outputs[0] (the fused epilogue reads it as it
// dequantizes); else null, the result in ctx.outputs[0] (NCHW) as
// RunConvInt8 writes it. x_channels_last: x is [N, H, W, C] (a layout agreed
// at load, kernel.h), only where ConvInt8ReadsChannelsLast said so.
const int32_t* RunConvInt8KeepChannelsLast(const RunContext& ctx,
                                           bool x_channels_last);

// Whether the prepared op (or null) can read x channels last, and whether it
// writes its result channels last given x's layout: what FusedConvDequant
// offers in the layout agreement.
bool ConvInt8ReadsChannelsLast(const PreparedOp* prepared);
bool ConvInt8WritesChannelsLast(const PreparedOp* prepared,
                                bool x_channels_last);

// The pointwise path's plan (pointwise_int8.h) when the prepared op (or
// null) runs on it, else null: FusedConvDequant then runs it with its
// epilogue in registers.
struct PointwiseInt8;
const PointwiseInt8* ConvInt8PointwisePlan(const PreparedOp* prepared);

// The reference loop alone (the tests compare the fast paths with it).
void RunConvInt8Reference(const RunContext& ctx);

// Test and benchmark hook: off leaves only oneDNN's int8 convolution (where
// exact) and the reference loop, as before the float paths; on by default.
// Applies to ops prepared and run after the call.
void SetConvInt8ViaFloatForTest(bool on);
// Test hook: where the pointwise path (pointwise_int8.h) takes the 1x1
// Convs it can: by default only where oneDNN's int8 convolution is not
// exact; always; or never (the float paths', as before it). Applies to ops
// prepared after the call.
enum class PointwiseUse { kWhereOnednnInexact, kAlways, kNever };
void SetConvInt8PointwiseForTest(PointwiseUse use);

}  // namespace kernels
}  // namespace ascend_emu
