// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// CANN's quantization ops, as its ONNX plugins name them (registered for
// ai.onnx opsets 8-22, hicann/ops-nn) and as the built-in TBE kernels of the
// chips before Ascend 950 compute them (CANN 8.1.RC1 ascend_quant.py,
// ascend_anti_quant.py, ascend_dequant.py; reference/cann-quant.md):
//
//   AscendQuant(x fp32|fp16) -> int8: x cast to float16; times fp16(scale)
//     rounded to float16 unless scale == 1 (twice with sqrt_mode); plus
//     fp16(offset) rounded to float16 unless offset == 0; rounded by
//     round_mode (Round: to nearest even, Floor, Ceil, Trunc) and saturated
//     to [-128, 127]; NaN gives 0.
//   AscendAntiQuant(x int8) -> fp16: (fp16(x) + fp16(-offset)) * fp16(scale)
//     (twice with sqrt_mode), each step rounded to float16: y = (x - offset)
//     * scale in ONNX terms (the plugin negates offset for the IR).
//   AscendDequant(x int32, deq_scale uint64|fp16) -> fp16, deq_scale of one
//     element or one per channel (dim 1 of x). uint64 (AMCT's layout, v200
//     chips): bits 31:0 hold the fp32 scale, y = fp16(x * scale) rounded
//     once; sqrt_mode refused, as CANN does. fp16 (v100 chips): y =
//     fp16(fp16(x) * deq_scale) (twice with sqrt_mode). relu_flag: ReLU
//     after. The output is float16 whatever `dtype` says (the TBE kernel's).
#include "quant.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "dequant.h"
#include "gnu_vectors.h"
#include "kernel_util.h"
#include "numeric.h"
#include "ops.h"
#include "quant_round.h"

namespace ascend_emu {
namespace kernels {
namespace {

using K = Attribute::Kind;

bool ParseRoundMode(const char* s, RoundMode* mode) {
  const std::string m(s);
  if (m == "Round")
    *mode = RoundMode::kRound;
  else if (m == "Floor")
    *mode = RoundMode::kFloor;
  else if (m == "Ceil")
    *mode = RoundMode::kCeil;
  else if (m == "Trunc")
    *mode = RoundMode::kTrunc;
  else
    return false;
  return true;
}

std::string CheckFlag(const char* op, const Attributes& attrs,
                      const char* name) {
  const int64_t v = AttrInt(attrs, name, 0);
  if (v != 0 && v != 1) {
    return Fail(
        op, std::string(name) + " must be 0 or 1, got " + std::to_string(v));
  }
  return "";
}

// float16 products and sums of float16 operands, each rounded to float16.
inline float MulHalf(float a, float b) { return RoundToHalf(a * b); }
inline float AddHalf(float a, float b) { return RoundToHalf(a + b); }

// A rounded float16 value to int8: saturated, NaN to 0.
inline int8_t SaturateInt8(float r) {
  if (std::isnan(r)) return 0;
  if (r <= -128.0f) return -128;
  if (r >= 127.0f) return 127;
  return static_cast<int8_t>(r);
}

// The scalar loops below are the reference: the vector loops (GNU vectors
// with F16C, ASCEND_EMU_HALF_VECTORS) do the same steps a vector at a time
// and leave the tail (fewer than kLanes elements) to them;
// kernels_test_quant_fast.cc compares the two on random and edge values.
template <typename T>
void QuantLoop(const T* x, int8_t* y, int64_t n, float scale, bool mul,
               bool twice, float offset, bool add, RoundMode mode) {
  for (int64_t i = 0; i < n; ++i) {
    float v = RoundToHalf(Load(x[i]));  // fp32 -> fp16 (exact for fp16)
    if (mul) {
      v = MulHalf(v, scale);
      if (twice) v = MulHalf(v, scale);
    }
    if (add) v = AddHalf(v, offset);
    float r;
    switch (mode) {
      case RoundMode::kFloor:
        r = std::floor(v);
        break;
      case RoundMode::kCeil:
        r = std::ceil(v);
        break;
      case RoundMode::kTrunc:
        r = std::trunc(v);
        break;
      default:
        r = std::nearbyint(v);  // ties to even (the default rounding mode)
        break;
    }
    y[i] = SaturateInt8(r);
  }
}

#if defined(ASCEND_EMU_QUANT_VECTORS)
using gnu_vectors::kLanes;
using gnu_vectors::Mask;
using gnu_vectors::RoundToHalfV;
using gnu_vectors::Vec;

template <typename T>
inline Vec LoadV(const T* p) {
  if constexpr (std::is_same_v<T, Half>) {
    return gnu_vectors::LoadHalfV(p);
  } else {
    return gnu_vectors::Load(p);
  }
}

// QuantLoop's steps on whole vectors (quant.h's QuantClampedV), the round
// mode and the optional steps template arguments (no branch in the loop).
// Round converts with the CPU's own round-to-nearest-even; Floor and Ceil
// correct the truncation by one. Returns how many elements it did (a
// multiple of kLanes).
template <RoundMode kMode, bool kMul, bool kTwice, bool kAdd, typename T>
int64_t QuantVec(const T* x, int8_t* y, int64_t n, float scale, float offset) {
  const Vec vscale = Vec{} + scale, voffset = Vec{} + offset;
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    const Vec v =
        gnu_vectors::QuantClampedV<!std::is_same_v<T, Half>, kMul, kTwice,
                                   kAdd>(LoadV(x + i), vscale, voffset);
    Mask r;
    if constexpr (kMode == RoundMode::kRound) {
      r = gnu_vectors::RoundNearestV(v);
    } else {
      const Mask t = __builtin_convertvector(v, Mask);  // toward zero
      const Vec tf = __builtin_convertvector(t, Vec);
      if constexpr (kMode == RoundMode::kFloor) {
        r = t + (tf > v);  // a true comparison is -1
      } else if constexpr (kMode == RoundMode::kCeil) {
        r = t - (tf < v);
      } else {
        r = t;
      }
    }
    gnu_vectors::StoreInt8V(y + i, r);
  }
  return i;
}

template <RoundMode kMode, typename T>
int64_t QuantVecMode(const T* x, int8_t* y, int64_t n, float scale, bool mul,
                     bool twice, float offset, bool add) {
  if (!mul) {
    return add ? QuantVec<kMode, false, false, true>(x, y, n, scale, offset)
               : QuantVec<kMode, false, false, false>(x, y, n, scale, offset);
  }
  if (twice) {
    return add ? QuantVec<kMode, true, true, true>(x, y, n, scale, offset)
               : QuantVec<kMode, true, true, false>(x, y, n, scale, offset);
  }
  return add ? QuantVec<kMode, true, false, true>(x, y, n, scale, offset)
             : QuantVec<kMode, true, false, false>(x, y, n, scale, offset);
}
#endif

// The vector loop where there is one, then the scalar loop for the rest.
template <typename T>
void Quant(const T* x, int8_t* y, int64_t n, float scale, bool mul, bool twice,
           float offset, bool add, RoundMode mode) {
  int64_t done = 0;
#if defined(ASCEND_EMU_QUANT_VECTORS)
  switch (mode) {
    case RoundMode::kFloor:
      done = QuantVecMode<RoundMode::kFloor>(x, y, n, scale, mul, twice, offset,
                                             add);
      break;
    case RoundMode::kCeil:
      done = QuantVecMode<RoundMode::kCeil>(x, y, n, scale, mul, twice, offset,
                                            add);
      break;
    case RoundMode::kTrunc:
      done = QuantVecMode<RoundMode::kTrunc>(x, y, n, scale, mul, twice, offset,
                                             add);
      break;
    default:
      done = QuantVecMode<RoundMode::kRound>(x, y, n, scale, mul, twice, offset,
                                             add);
      break;
  }
#endif
  QuantLoop(x + done, y + done, n - done, scale, mul, twice, offset, add, mode);
}

}  // namespace

std::string InferAscendQuant(InferContext& ctx) {
  const char* op = "AscendQuant";
  std::string err = CheckInputs(op, ctx, 1, 1);
  if (err.empty()) {
    err = CheckAttributes(op, ctx.attrs,
                          {{"scale", K::kFloat},
                           {"offset", K::kFloat},
                           {"sqrt_mode", K::kInt},
                           {"round_mode", K::kString},
                           {"dst_type", K::kString}});
  }
  if (err.empty()) err = CheckFlag(op, ctx.attrs, "sqrt_mode");
  if (err.empty()) err = PrepareOutputs(op, ctx, 1);
  if (!err.empty()) return err;
  const TensorRef& x = ctx.inputs[0];
  if (x.dtype != DType::kFloat32 && x.dtype != DType::kFloat16) {
    return Fail(op, DTypeRefusal(x.dtype, kFloatDTypes));
  }
  RoundMode mode;
  const char* round_mode = AttrString(ctx.attrs, "round_mode", "Round");
  if (!ParseRoundMode(round_mode, &mode)) {
    return Fail(op, std::string("round_mode '") + round_mode +
                        "' (CANN's are Round, Floor, Ceil, Trunc; Hybrid is "
                        "for hifloat8 only)");
  }
  const std::string dst = AttrString(ctx.attrs, "dst_type", "INT8");
  if (dst != "INT8") {
    return Fail(op, "dst_type '" + dst +
                        "' is not emulated (the emulator computes INT8; "
                        "CANN also has INT16 and INT4)");
  }
  return SetOutput(op, ctx, 0, DType::kInt8, x.shape);
}

QuantParams ReadQuantParams(const Attributes& attrs,
                            const std::string& prefix) {
  const float scale = AttrFloat(attrs, (prefix + "scale").c_str(), 0.0f);
  const float offset = AttrFloat(attrs, (prefix + "offset").c_str(), 0.0f);
  QuantParams q;
  q.twice = AttrInt(attrs, (prefix + "sqrt_mode").c_str(), 0) != 0;
  ParseRoundMode(AttrString(attrs, (prefix + "round_mode").c_str(), "Round"),
                 &q.mode);
  // The TBE kernel tests the attributes, then makes float16 constants.
  q.mul = scale != 1.0f;
  q.add = offset != 0.0f;
  q.scale = RoundToHalf(scale);
  q.offset = RoundToHalf(offset);
  return q;
}

void QuantizeAscend(const float* x, int8_t* y, int64_t n,
                    const QuantParams& q) {
  Quant(x, y, n, q.scale, q.mul, q.twice, q.offset, q.add, q.mode);
}

void QuantizeAscend(const Half* x, int8_t* y, int64_t n, const QuantParams& q) {
  Quant(x, y, n, q.scale, q.mul, q.twice, q.offset, q.add, q.mode);
}

void RunAscendQuant(const RunContext& ctx) {
  const TensorRef& x = ctx.inputs[0];
  const QuantParams q = ReadQuantParams(ctx.attrs, "");
  int8_t* y = ctx.outputs[0].as<int8_t>();
  const int64_t n = x.shape.numel();
  if (x.dtype == DType::kFloat16) {
    QuantizeAscend(x.as<const Half>(), y, n, q);
  } else {
    QuantizeAscend(x.as<const float>(), y, n, q);
  }
}

std::string InferAscendAntiQuant(InferContext& ctx) {
  const char* op = "AscendAntiQuant";
  std::string err = CheckInputs(op, ctx, 1, 1);
  if (err.empty()) {
    err = CheckAttributes(op, ctx.attrs,
                          {{"scale", K::kFloat},
                           {"offset", K::kFloat},
                           {"dtype", K::kInt},
                           {"sqrt_mode", K::kInt}});
  }
  if (err.empty()) err = CheckFlag(op, ctx.attrs, "sqrt_mode");
  if (err.empty()) err = PrepareOutputs(op, ctx, 1);
  if (!err.empty()) return err;
  const TensorRef& x = ctx.inputs[0];
  if (x.dtype != DType::kInt8) return Fail(op, DTypeRefusal(x.dtype, "int8"));
  // float16 whatever `dtype` asks: the TBE kernel's only output.
  return SetOutput(op, ctx, 0, DType::kFloat16, x.shape);
}

void RunAscendAntiQuant(const RunContext& ctx) {
  const TensorRef& x = ctx.inputs[0];
  const float scale = RoundToHalf(AttrFloat(ctx.attrs, "scale", 0.0f));
  // The plugin hands the IR -offset; the kernel adds it.
  const float offset = RoundToHalf(-AttrFloat(ctx.attrs, "offset", 0.0f));
  const bool twice = AttrInt(ctx.attrs, "sqrt_mode", 0) != 0;
  const int8_t* px = x.as<const int8_t>();
  Half* y = ctx.outputs[0].as<Half>();
  const int64_t n = x.shape.numel();
  int64_t i = 0;
#if defined(ASCEND_EMU_QUANT_VECTORS)
  for (; i + kLanes <= n; i += kLanes) {
    Vec v = RoundToHalfV(gnu_vectors::LoadInt8V(px + i) + offset);
    v = RoundToHalfV(v * scale);
    if (twice) v = RoundToHalfV(v * scale);
    gnu_vectors::StoreHalfV(y + i, v);
  }
#endif
  for (; i < n; ++i) {
    float v = AddHalf(static_cast<float>(px[i]), offset);
    v = MulHalf(v, scale);
    if (twice) v = MulHalf(v, scale);
    y[i] = Half(v);  // already a float16 value: exact
  }
}

namespace {

// The channel count a per-channel deq_scale must have for x, or -1 when x
// has no channel axis the emulator knows: dim 1 of an NCHW conv output
// (rank 4) or the last dim of a [M, N] MatMul output (rank 2).
int64_t DequantChannels(const Shape& x) {
  if (x.rank == 4 || x.rank == 2) return x.dims[1];
  return -1;
}

}  // namespace

std::string InferAscendDequant(InferContext& ctx) {
  const char* op = "AscendDequant";
  std::string err = CheckInputs(op, ctx, 2, 2);
  if (err.empty()) {
    err = CheckAttributes(
        op, ctx.attrs,
        {{"dtype", K::kInt}, {"sqrt_mode", K::kInt}, {"relu_flag", K::kInt}});
  }
  if (err.empty()) err = CheckFlag(op, ctx.attrs, "sqrt_mode");
  if (err.empty()) err = CheckFlag(op, ctx.attrs, "relu_flag");
  if (err.empty()) err = CheckFlag(op, ctx.attrs, "dtype");
  if (err.empty()) err = PrepareOutputs(op, ctx, 1);
  if (!err.empty()) return err;
  const TensorRef& x = ctx.inputs[0];
  const TensorRef& d = ctx.inputs[1];
  if (x.dtype != DType::kInt32) return Fail(op, DTypeRefusal(x.dtype, "int32"));
  if (d.dtype != DType::kUInt64 && d.dtype != DType::kFloat16) {
    return Fail(op, "deq_scale " + DTypeRefusal(d.dtype, "uint64 or float16"));
  }
  if (d.dtype == DType::kUInt64 && AttrInt(ctx.attrs, "sqrt_mode", 0) != 0) {
    return Fail(op,
                "sqrt_mode=1 with a uint64 deq_scale, which CANN refuses "
                "(its vdeq_cast path has no sqrt_mode)");
  }
  const int64_t count = d.shape.numel();
  if (count != 1) {
    const int64_t c = DequantChannels(x.shape);
    if (c < 0) {
      return Fail(op, "a per-channel deq_scale " + d.shape.ToString() +
                          " needs x of rank 4 (NCHW) or 2 ([M, N]), got " +
                          x.shape.ToString());
    }
    if (count != c) {
      return Fail(op, "deq_scale " + d.shape.ToString() + " must have 1 or " +
                          std::to_string(c) + " elements (the channels of x " +
                          x.shape.ToString() + ")");
    }
  }
  return SetOutput(op, ctx, 0, DType::kFloat16, x.shape);
}

namespace {

#if defined(ASCEND_EMU_DEQUANT_VECTORS)
// y[0, len) of one channel (kPerLane false: scale s) or with a scale per
// element (kPerLane: element j's at vs[j] / hs[j], which is each[j /
// each_div], none of them special). Returns how many it did; a vector with
// |x| > 2^24 goes to the reference.
template <bool kU64, bool kTwice, bool kRelu, bool kPerLane>
int64_t DequantVec(const int32_t* x, Half* y, int64_t len, const DeqScale& s,
                   const float* vs, const float* hs, const DeqScale* each,
                   int64_t each_div) {
  const Vec s1 = Vec{} + s.vscale, h1 = Vec{} + s.half_scale;
  int64_t i = 0;
  for (; i + kLanes <= len; i += kLanes) {
    Mask xi;
    std::memcpy(&xi, x + i, sizeof xi);
    Vec v;
    if (gnu_vectors::DequantV<kU64, kTwice, kRelu>(
            xi, kPerLane ? gnu_vectors::Load(vs + i) : s1,
            kPerLane ? gnu_vectors::Load(hs + i) : h1, &v)) {
      gnu_vectors::StoreHalfV(y + i, v);
      continue;
    }
    for (int64_t l = i; l < i + kLanes; ++l) {
      y[l] = Half(DequantOne(x[l], kPerLane ? each[l / each_div] : s, kU64,
                             kTwice, kRelu));
    }
  }
  return i;
}

template <bool kPerLane>
int64_t DequantVecAny(bool u64, bool twice, bool relu, const int32_t* x,
                      Half* y, int64_t len, const DeqScale& s, const float* vs,
                      const float* hs, const DeqScale* each, int64_t each_div) {
  if (u64) {
    return relu ? DequantVec<true, false, true, kPerLane>(x, y, len, s, vs, hs,
                                                          each, each_div)
                : DequantVec<true, false, false, kPerLane>(x, y, len, s, vs, hs,
                                                           each, each_div);
  }
  if (twice) {
    return relu ? DequantVec<false, true, true, kPerLane>(x, y, len, s, vs, hs,
                                                          each, each_div)
                : DequantVec<false, true, false, kPerLane>(x, y, len, s, vs, hs,
                                                           each, each_div);
  }
  return relu ? DequantVec<false, false, true, kPerLane>(x, y, len, s, vs, hs,
                                                         each, each_div)
              : DequantVec<false, false, false, kPerLane>(x, y, len, s, vs, hs,
                                                          each, each_div);
}

// Per channel on NCHW planes too small for a channel's own vector loop to
// pay (MobileNet's 7x7, 4x4...): the scales are read once, then the planes
// go in chunks of whole channels of at most kPlanesChunk elements, each
// element given its channel's scale in an array (vs / hs), so that the
// vectors run across plane and channel boundaries. A chunk with a special
// (inf or NaN) uint64 scale goes to the reference.
constexpr int64_t kPlanesChunk = 1024;

void DequantPlanes(const TensorRef& d, const int32_t* px, Half* y,
                   int64_t outer, int64_t channels, int64_t inner, bool u64,
                   bool twice, bool relu) {
  std::vector<DeqScale> scales(static_cast<size_t>(channels));
  for (int64_t c = 0; c < channels; ++c) scales[c] = ReadDeqScale(d, c);
  const int64_t per_chunk = kPlanesChunk / inner;  // >= 1 channel
  alignas(64) float vs[kPlanesChunk];
  alignas(64) float hs[kPlanesChunk];
  for (int64_t c0 = 0; c0 < channels; c0 += per_chunk) {
    const int64_t m = std::min(per_chunk, channels - c0);
    const int64_t len = m * inner;
    const DeqScale* each = scales.data() + c0;
    bool special = false;
    for (int64_t c = 0; c < m; ++c) {
      special = special || (u64 && each[c].special);
      std::fill(vs + c * inner, vs + (c + 1) * inner, each[c].vscale);
      std::fill(hs + c * inner, hs + (c + 1) * inner, each[c].half_scale);
    }
    for (int64_t o = 0; o < outer; ++o) {
      const int64_t base = (o * channels + c0) * inner;
      const int32_t* xr = px + base;
      Half* yr = y + base;
      int64_t k = 0;
      if (!special) {
        k = DequantVecAny<true>(u64, twice, relu, xr, yr, len, each[0], vs, hs,
                                each, inner);
      }
      for (; k < len; ++k)
        yr[k] = Half(DequantOne(xr[k], each[k / inner], u64, twice, relu));
    }
  }
}
#endif

}  // namespace

void RunAscendDequant(const RunContext& ctx) {
  const TensorRef& x = ctx.inputs[0];
  const TensorRef& d = ctx.inputs[1];
  const bool twice = AttrInt(ctx.attrs, "sqrt_mode", 0) != 0;
  const bool relu = AttrInt(ctx.attrs, "relu_flag", 0) != 0;
  const int32_t* px = x.as<const int32_t>();
  Half* y = ctx.outputs[0].as<Half>();
  const int64_t n = x.shape.numel();
  if (n == 0) return;
  const int64_t count = d.shape.numel();
  // Per channel: channel of element i is (i / inner) % channels.
  const int64_t channels = count == 1 ? 1 : x.shape.dims[1];
  const int64_t inner = count == 1          ? n
                        : x.shape.rank == 4 ? x.shape.dims[2] * x.shape.dims[3]
                                            : int64_t{1};
  const int64_t outer = n / (channels * inner);
  const bool u64 = d.dtype == DType::kUInt64;
  if (inner == 1) {
    // [M, N] per channel: the channels along the row, in chunks whose
    // scales are read once into arrays for the vector loop.
    constexpr int64_t kChunk = 256;
    DeqScale each[kChunk];
    // (Read only by the vector loop, which builds where F16C does.)
    [[maybe_unused]] alignas(64) float vs[kChunk];
    [[maybe_unused]] alignas(64) float hs[kChunk];
    for (int64_t c0 = 0; c0 < channels; c0 += kChunk) {
      const int64_t len = std::min(kChunk, channels - c0);
      bool special = false;
      for (int64_t c = 0; c < len; ++c) {
        each[c] = ReadDeqScale(d, c0 + c);
        vs[c] = each[c].vscale;
        hs[c] = each[c].half_scale;
        special = special || (u64 && each[c].special);
      }
      for (int64_t o = 0; o < outer; ++o) {
        const int32_t* xr = px + o * channels + c0;
        Half* yr = y + o * channels + c0;
        int64_t c = 0;
#if defined(ASCEND_EMU_DEQUANT_VECTORS)
        if (!special) {
          c = DequantVecAny<true>(u64, twice, relu, xr, yr, len, each[0], vs,
                                  hs, each, 1);
        }
#endif
        for (; c < len; ++c)
          yr[c] = Half(DequantOne(xr[c], each[c], u64, twice, relu));
      }
    }
    return;
  }
#if defined(ASCEND_EMU_DEQUANT_VECTORS)
  if (channels > 1 && inner < kPlanesChunk) {
    DequantPlanes(d, px, y, outer, channels, inner, u64, twice, relu);
    return;
  }
#endif
  int64_t i = 0;
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t c = 0; c < channels; ++c) {
      const DeqScale s = ReadDeqScale(d, c);
      int64_t k = 0;
#if defined(ASCEND_EMU_DEQUANT_VECTORS)
      if (!(u64 && s.special)) {
        k = DequantVecAny<false>(u64, twice, relu, px + i, y + i, inner, s,
                                 nullptr, nullptr, nullptr, 1);
      }
#endif
      for (; k < inner; ++k) {
        y[i + k] = Half(DequantOne(px[i + k], s, u64, twice, relu));
      }
      i += inner;
    }
  }
}

}  // namespace kernels
}  // namespace ascend_emu
