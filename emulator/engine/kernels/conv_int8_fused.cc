// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// FusedConvDequant: what the emulator's atc makes of CANN's int8 chain
// Conv(int8) -> AscendDequant [-> Cast to float32] [-> Relu | Clip] when
// each step only feeds the next (docs/atc.md, "Conv fusions"), as CANN's
// graph compiler fuses AscendDequant into the cube op's output stage.
// Inputs: X int8, W int8, deq_scale (uint64 or float16, one or one per
// output channel), B int32 (optional: last, so the arity row can say so).
// Attributes: the int8 Conv's, the AscendDequant's (sqrt_mode, relu_flag,
// dtype), `to` (10: float16 out, AscendDequant's own; 1: float32, the Cast
// merged), `activation` (Relu, or Clip with `activation_params` [min, max])
// and, with the next int8 op's AscendQuant merged, its attributes behind
// `quant_` (quant_scale, quant_offset, ...): int8 out, that op's arithmetic
// (quant.h) on the dequantized value. Between two such Convs the int8
// tensor is agreed channels last at load (kernel.h's layout protocol), as
// the float Convs agree theirs.
// The result is bit for bit the unfused chain's: the int8 Conv runs as
// conv_int8.cc runs it, into scratch, then one pass applies AscendDequant's
// arithmetic (dequant.h, shared with the op) and the activation, and stores
// float16 or float32 (a float16 value widened exactly, as the Cast does).
// It saves the chain's three passes over the output and two of its tensors.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "conv_int8.h"
#include "dequant.h"
#include "kernel_util.h"
#include "numeric.h"
#include "ops.h"
#include "quant.h"

// The channels-last passes (AVX2 intrinsics: the 8x8 transposes).
#if defined(__AVX2__) && defined(__FMA__) && defined(__F16C__)
#define ASCEND_EMU_FUSED_CHANNELS_LAST 1
#endif

namespace ascend_emu {
namespace kernels {
namespace {

constexpr const char* kOp = "FusedConvDequant";

// The attributes that are not the Conv's.
constexpr const char* kOwnAttrs[] = {
    "sqrt_mode",       "relu_flag",         "dtype",         "to",
    "activation",      "activation_params", "quant_scale",   "quant_offset",
    "quant_sqrt_mode", "quant_round_mode",  "quant_dst_type"};

// The merged AscendQuant's attributes: its own names behind this prefix.
constexpr const char* kQuantPrefix = "quant_";
constexpr const char* kQuantAttrs[] = {"scale", "offset", "sqrt_mode",
                                       "round_mode", "dst_type"};

size_t Align64(size_t bytes) { return (bytes + 63) / 64 * 64; }

// What the epilogue applies after AscendDequant's float16 rounding.
struct Epilogue {
  bool u64 = true, twice = false, relu_flag = false, to_float = false;
  bool relu = false, clip = false;
  // The activation as a clamp (Relu: [0, inf], none: [-inf, inf]).
  float lo = -std::numeric_limits<float>::infinity();
  float hi = std::numeric_limits<float>::infinity();
  // An AscendQuant merged after the activation: int8 out.
  bool quant = false;
  QuantParams q;
};

Epilogue ReadEpilogue(const Attributes& attrs, const TensorRef& deq) {
  Epilogue e;
  e.u64 = deq.dtype == DType::kUInt64;
  e.twice = AttrInt(attrs, "sqrt_mode", 0) != 0;
  e.relu_flag = AttrInt(attrs, "relu_flag", 0) != 0;
  e.to_float = AttrInt(attrs, "to", 10) == 1;
  const std::string act = AttrString(attrs, "activation", "");
  e.relu = act == "Relu";
  const std::vector<float> params = attrs.GetFloats("activation_params");
  e.clip = act == "Clip" && params.size() == 2;
  if (e.clip) {
    e.lo = params[0];
    e.hi = params[1];
  } else if (e.relu) {
    e.lo = 0.0f;  // the vector passes clamp to [lo, hi] for either
  }
  e.quant = attrs.Has("quant_scale");
  if (e.quant) e.q = ReadQuantParams(attrs, kQuantPrefix);
  return e;
}

// The activation on one float16 value: the Relu and Clip kernels' own
// expressions (NaN kept; Clip is max then min).
inline float Activate(float v, const Epilogue& e) {
  if (e.relu) return v < 0.0f ? 0.0f : v;
  if (e.clip) return std::min(std::max(v, e.lo), e.hi);
  return v;
}

// The prepared op: the int8 Conv's own (or null) and the scales, read once.
class FusedConvDequantPrepared final : public PreparedOp {
 public:
  std::unique_ptr<PreparedOp> conv;
  std::vector<DeqScale> scales;
  std::vector<float> vscales;  // each output channel's DeqScale::vscale
  std::vector<float> hscales;  // and its half_scale
  // vscales and hscales repeated for as many whole pixels as fit
  // kSmallChunk (at least one): the channels-last epilogue's.
  std::vector<float> rep_vs, rep_hs;
  bool any_special = false;
  Epilogue epilogue;  // read once: a run reads no attribute
  int32_t rank = 0;
  // The layouts agreed at load (kernel.h): int8 x and int8 y channels last,
  // between int8 Convs that both read and write it (MobileNet's chain of
  // 1x1, depthwise and 1x1 Convs), saving oneDNN's reorder of x and the
  // epilogue's transpose of y.
  bool x_nhwc = false, y_nhwc = false;

  // Channels last where the epilogue has a channels-last pass: uint64
  // scales, none special, a 4-D int8 result.
  bool ChannelsLastEpilogue() const {
#if defined(ASCEND_EMU_FUSED_CHANNELS_LAST) && \
    defined(ASCEND_EMU_DEQUANT_VECTORS)
    return epilogue.u64 && !any_special && rank == 4;
#else
    return false;
#endif
  }
  TensorLayout PreferredOutputLayout(size_t index) const override {
    return index == 0 && epilogue.quant && ChannelsLastEpilogue() &&
                   ConvInt8WritesChannelsLast(conv.get(), x_nhwc)
               ? TensorLayout::kNhwc
               : TensorLayout::kPlain;
  }
  bool CanReadInput(size_t index, TensorLayout layout) const override {
    return index == 0 && layout == TensorLayout::kNhwc &&
           ChannelsLastEpilogue() && ConvInt8ReadsChannelsLast(conv.get());
  }
  void UseOutputLayout(size_t index, TensorLayout layout) override {
    if (index == 0) y_nhwc = layout == TensorLayout::kNhwc;
  }
  void UseInputLayout(size_t index, TensorLayout layout) override {
    if (index == 0) x_nhwc = layout == TensorLayout::kNhwc;
  }
};

// Each of the m output channels' vscale (one scale: m copies).
std::vector<float> ChannelVScales(const DeqScale* scales, int64_t count,
                                  int64_t m) {
  std::vector<float> vs(static_cast<size_t>(m));
  for (int64_t c = 0; c < m; ++c) vs[c] = scales[count == 1 ? 0 : c].vscale;
  return vs;
}

#if defined(ASCEND_EMU_DEQUANT_VECTORS)
using gnu_vectors::kLanes;
using gnu_vectors::Mask;
using gnu_vectors::Vec;

// len elements from x: with one scale (vs / hs null) or element j's at
// vs[j] / hs[j]. Returns how many it did (stops at a vector with |x| >
// 2^24: the caller's reference loop does the rest).
template <bool kU64, bool kTwice, bool kReluFlag>
int64_t PlaneVec(const int32_t* x, int64_t len, const DeqScale& s,
                 const float* vs, const float* hs, const Epilogue& e,
                 void* out) {
  const Vec scale = Vec{} + s.vscale, half = Vec{} + s.half_scale;
  const Vec lo = Vec{} + e.lo, hi = Vec{} + e.hi;
  const bool act = e.relu || e.clip;
  int64_t i = 0;
  for (; i + kLanes <= len; i += kLanes) {
    Mask xi;
    std::memcpy(&xi, x + i, sizeof xi);
    Vec v;
    if (!gnu_vectors::DequantV<kU64, kTwice, kReluFlag>(
            xi, vs != nullptr ? gnu_vectors::Load(vs + i) : scale,
            hs != nullptr ? gnu_vectors::Load(hs + i) : half, &v))
      break;
    if (act) {
      v = v < lo ? lo : v;  // Relu: `v < 0 ? 0 : v`; Clip: max(v, lo)
      v = hi < v ? hi : v;  // min(v, hi)
    }
    if (e.to_float) {
      gnu_vectors::Store(static_cast<float*>(out) + i, v);
    } else {
      gnu_vectors::StoreHalfV(static_cast<Half*>(out) + i, v);  // exact
    }
  }
  return i;
}

int64_t PlaneVecAny(const int32_t* x, int64_t len, const DeqScale& s,
                    const float* vs, const float* hs, const Epilogue& e,
                    void* out) {
  if (e.u64) {
    return e.relu_flag
               ? PlaneVec<true, false, true>(x, len, s, vs, hs, e, out)
               : PlaneVec<true, false, false>(x, len, s, vs, hs, e, out);
  }
  if (e.twice) {
    return e.relu_flag
               ? PlaneVec<false, true, true>(x, len, s, vs, hs, e, out)
               : PlaneVec<false, true, false>(x, len, s, vs, hs, e, out);
  }
  return e.relu_flag ? PlaneVec<false, false, true>(x, len, s, vs, hs, e, out)
                     : PlaneVec<false, false, false>(x, len, s, vs, hs, e, out);
}

#if defined(ASCEND_EMU_QUANT_VECTORS)
// The channels-last pass with the merged AscendQuant kept in registers:
// PlaneVec's dequantization and activation (the activation as a clamp to
// [lo, hi], -inf and inf without one), then quant.h's steps, rounded to
// nearest even, stored as int8. uint64 scales, no sqrt_mode, Round only
// (the caller checks). Returns how many elements it did, as PlaneVec.
template <bool kReluFlag, bool kMul, bool kAdd>
int64_t DequantQuantVec(const int32_t* x, int64_t len, const float* vs,
                        const float* hs, const Epilogue& e, int8_t* y) {
  const Vec lo = Vec{} + e.lo, hi = Vec{} + e.hi;
  const Vec scale = Vec{} + e.q.scale, offset = Vec{} + e.q.offset;
  int64_t i = 0;
  for (; i + kLanes <= len; i += kLanes) {
    Mask xi;
    std::memcpy(&xi, x + i, sizeof xi);
    Vec v;
    if (!gnu_vectors::DequantV<true, false, kReluFlag>(
            xi, gnu_vectors::Load(vs + i), gnu_vectors::Load(hs + i), &v))
      break;
    v = v < lo ? lo : v;  // Relu: `v < 0 ? 0 : v`; Clip: max(v, lo)
    v = hi < v ? hi : v;  // min(v, hi)
    gnu_vectors::StoreInt8V(
        y + i, gnu_vectors::RoundNearestV(
                   gnu_vectors::QuantClampedV<true, kMul, false, kAdd>(
                       v, scale, offset)));
  }
  return i;
}

int64_t DequantQuantVecAny(const int32_t* x, int64_t len, const float* vs,
                           const float* hs, const Epilogue& e, int8_t* y) {
  const bool mul = e.q.mul, add = e.q.add;
  if (e.relu_flag) {
    if (mul) {
      return add ? DequantQuantVec<true, true, true>(x, len, vs, hs, e, y)
                 : DequantQuantVec<true, true, false>(x, len, vs, hs, e, y);
    }
    return add ? DequantQuantVec<true, false, true>(x, len, vs, hs, e, y)
               : DequantQuantVec<true, false, false>(x, len, vs, hs, e, y);
  }
  if (mul) {
    return add ? DequantQuantVec<false, true, true>(x, len, vs, hs, e, y)
               : DequantQuantVec<false, true, false>(x, len, vs, hs, e, y);
  }
  return add ? DequantQuantVec<false, false, true>(x, len, vs, hs, e, y)
             : DequantQuantVec<false, false, false>(x, len, vs, hs, e, y);
}
#endif
#endif

// Element i of y (float32 or float16) = v.
inline void Put(void* y, const Epilogue& e, int64_t i, float v) {
  if (e.to_float) {
    static_cast<float*>(y)[i] = v;
  } else {
    static_cast<Half*>(y)[i] = Half(v);
  }
}

// Planes under a vector's length (the last blocks' 2x2, 4x4): the vectors
// run across channels, each element given its channel's scale in arrays of
// up to kSmallChunk elements, as AscendDequant's own DequantPlanes.
constexpr int64_t kSmallChunk = 1024;

// y (N, M, plane) from the int32 conv output, channel c with scales[c] (or
// scales[0] for one scale).
void ApplyEpilogue(const int32_t* acc, int64_t n, int64_t m, int64_t plane,
                   const DeqScale* scales, bool per_channel, bool any_special,
                   const Epilogue& e, void* y) {
#if defined(ASCEND_EMU_DEQUANT_VECTORS)
  if (plane < kLanes && plane > 0 && !(e.u64 && any_special)) {
    const int64_t per_chunk = kSmallChunk / plane;
    alignas(64) float vs[kSmallChunk];
    alignas(64) float hs[kSmallChunk];
    for (int64_t c0 = 0; c0 < m; c0 += per_chunk) {
      const int64_t len = std::min(per_chunk, m - c0) * plane;
      for (int64_t j = 0; j < len; ++j) {
        const DeqScale& s = scales[per_channel ? c0 + j / plane : 0];
        vs[j] = s.vscale;
        hs[j] = s.half_scale;
      }
      for (int64_t b = 0; b < n; ++b) {
        const int64_t base = (b * m + c0) * plane;
        void* out = e.to_float
                        ? static_cast<void*>(static_cast<float*>(y) + base)
                        : static_cast<void*>(static_cast<Half*>(y) + base);
        int64_t i = PlaneVecAny(acc + base, len, scales[0], vs, hs, e, out);
        for (; i < len; ++i) {
          const DeqScale& s = scales[per_channel ? c0 + i / plane : 0];
          Put(y, e, base + i,
              Activate(
                  DequantOne(acc[base + i], s, e.u64, e.twice, e.relu_flag),
                  e));
        }
      }
    }
    return;
  }
#endif
  for (int64_t b = 0; b < n; ++b) {
    for (int64_t c = 0; c < m; ++c) {
      const DeqScale& s = scales[per_channel ? c : 0];
      const int64_t base = (b * m + c) * plane;
      const int32_t* x = acc + base;
      int64_t i = 0;
#if defined(ASCEND_EMU_DEQUANT_VECTORS)
      if (!(e.u64 && s.special)) {
        void* out = e.to_float
                        ? static_cast<void*>(static_cast<float*>(y) + base)
                        : static_cast<void*>(static_cast<Half*>(y) + base);
        i = PlaneVecAny(x, plane, s, nullptr, nullptr, e, out);
      }
#endif
      for (; i < plane; ++i) {
        Put(y, e, base + i,
            Activate(DequantOne(x[i], s, e.u64, e.twice, e.relu_flag), e));
      }
    }
  }
}

#if defined(ASCEND_EMU_FUSED_CHANNELS_LAST)
typedef float V8 __attribute__((vector_size(32)));
typedef int32_t M8 __attribute__((vector_size(32)));

// Rows r[0..7] (8 channels of one pixel each) to columns (8 pixels of one
// channel each): the usual AVX2 8x8 transpose.
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

// The uint64 path of DequantV and the activation on 8 lanes of |x| <= 2^24.
template <bool kReluFlag, int kAct>
inline V8 Dequant8(__m256i xi, V8 scale, V8 lo, V8 hi) {
  const V8 xf = gnu_vectors::BitCastV<V8>(_mm256_cvtepi32_ps(xi));
  const V8 odd = gnu_vectors::ScaleToHalfOdd<V8, M8>(xf, scale);
  V8 v = gnu_vectors::BitCastV<V8>(_mm256_cvtph_ps(_mm256_cvtps_ph(
      gnu_vectors::BitCastV<__m256>(odd), _MM_FROUND_TO_NEAREST_INT)));
  if constexpr (kReluFlag) v = v < V8{} ? V8{} : v;
  if constexpr (kAct != 0) {
    v = v < lo ? lo : v;  // Relu (lo 0): `v < 0 ? 0 : v`; Clip: max(v, lo)
    v = hi < v ? hi : v;  // min(v, hi)
  }
  return v;
}

// y [N, M, P] from oneDNN's channels-last int32 result [N, P, M], uint64
// scales: blocks of 8 pixels x 8 channels transposed in registers and
// dequantized a channel (8 pixels) at a time; the edges and any block with
// |x| > 2^24 one element at a time (the reference).
template <bool kToFloat, bool kReluFlag, int kAct>
void ChannelsLastT(const int32_t* acc, int64_t n, int64_t m, int64_t plane,
                   const DeqScale* scales, const float* vs, bool per_channel,
                   const Epilogue& e, void* y) {
  auto one = [&](const int32_t* a, int64_t p, int64_t c, int64_t base) {
    const DeqScale& s = scales[per_channel ? c : 0];
    const float v =
        Activate(DequantOne(a[p * m + c], s, true, false, kReluFlag), e);
    const int64_t at = base + c * plane + p;
    if constexpr (kToFloat) {
      static_cast<float*>(y)[at] = v;
    } else {
      static_cast<Half*>(y)[at] = Half(v);
    }
  };
  const V8 lo = V8{} + e.lo, hi = V8{} + e.hi;
  const __m256i top = _mm256_set1_epi32(1 << 24);
  const __m256i bottom = _mm256_set1_epi32(-(1 << 24));
  const int64_t p8 = plane / 8 * 8, m8 = m / 8 * 8;
  for (int64_t b = 0; b < n; ++b) {
    const int32_t* a = acc + b * plane * m;
    const int64_t base = b * m * plane;
    // Channels outer: the stores run along 8 output rows (at one plane's
    // stride from each other: pixels outer would touch each row's line
    // twice, evicted between, at 4 KB strides).
    for (int64_t c0 = 0; c0 < m8; c0 += 8) {
      for (int64_t p0 = 0; p0 < p8; p0 += 8) {
        __m256i r[8];
        __m256i big = _mm256_setzero_si256();
        for (int i = 0; i < 8; ++i) {
          r[i] = _mm256_loadu_si256(
              reinterpret_cast<const __m256i*>(a + (p0 + i) * m + c0));
          big = _mm256_or_si256(big, _mm256_cmpgt_epi32(r[i], top));
          big = _mm256_or_si256(big, _mm256_cmpgt_epi32(bottom, r[i]));
        }
        if (!_mm256_testz_si256(big, big)) {
          for (int64_t c = c0; c < c0 + 8; ++c) {
            for (int64_t p = p0; p < p0 + 8; ++p) one(a, p, c, base);
          }
          continue;
        }
        Transpose8x8(r);
        for (int j = 0; j < 8; ++j) {
          const int64_t c = c0 + j;
          const V8 v = Dequant8<kReluFlag, kAct>(
              r[j], V8{} + scales[per_channel ? c : 0].vscale, lo, hi);
          const int64_t at = base + c * plane + p0;
          if constexpr (kToFloat) {
            _mm256_storeu_ps(static_cast<float*>(y) + at,
                             gnu_vectors::BitCastV<__m256>(v));
          } else {
            _mm_storeu_si128(
                reinterpret_cast<__m128i*>(static_cast<Half*>(y) + at),
                _mm256_cvtps_ph(gnu_vectors::BitCastV<__m256>(v),
                                _MM_FROUND_TO_NEAREST_INT));
          }
        }
      }
    }
    for (int64_t c = m8; c < m; ++c) {
      for (int64_t p = 0; p < p8; ++p) one(a, p, c, base);
    }
    // The pixels past the last block of 8 (all of a 2x2 plane): a pixel's
    // channels are contiguous, 8 at a time with their scales from vs.
    for (int64_t p = p8; p < plane; ++p) {
      for (int64_t c0 = 0; c0 < m8; c0 += 8) {
        const __m256i xi = _mm256_loadu_si256(
            reinterpret_cast<const __m256i*>(a + p * m + c0));
        const __m256i big = _mm256_or_si256(_mm256_cmpgt_epi32(xi, top),
                                            _mm256_cmpgt_epi32(bottom, xi));
        if (!_mm256_testz_si256(big, big)) {
          for (int64_t c = c0; c < c0 + 8; ++c) one(a, p, c, base);
          continue;
        }
        const V8 v = Dequant8<kReluFlag, kAct>(
            xi, gnu_vectors::BitCastV<V8>(_mm256_loadu_ps(vs + c0)), lo, hi);
        alignas(32) float lanes[8];
        _mm256_store_ps(lanes, gnu_vectors::BitCastV<__m256>(v));
        for (int j = 0; j < 8; ++j) {
          const int64_t at = base + (c0 + j) * plane + p;
          if constexpr (kToFloat) {
            static_cast<float*>(y)[at] = lanes[j];
          } else {
            static_cast<Half*>(y)[at] = Half(lanes[j]);  // exact
          }
        }
      }
      for (int64_t c = m8; c < m; ++c) one(a, p, c, base);
    }
  }
}

template <bool kToFloat, bool kReluFlag>
void ChannelsLastAct(const int32_t* acc, int64_t n, int64_t m, int64_t plane,
                     const DeqScale* scales, const float* vs, bool per_channel,
                     const Epilogue& e, void* y) {
  if (e.relu) {
    ChannelsLastT<kToFloat, kReluFlag, 1>(acc, n, m, plane, scales, vs,
                                          per_channel, e, y);
  } else if (e.clip) {
    ChannelsLastT<kToFloat, kReluFlag, 2>(acc, n, m, plane, scales, vs,
                                          per_channel, e, y);
  } else {
    ChannelsLastT<kToFloat, kReluFlag, 0>(acc, n, m, plane, scales, vs,
                                          per_channel, e, y);
  }
}

void ApplyEpilogueChannelsLast(const int32_t* acc, int64_t n, int64_t m,
                               int64_t plane, const DeqScale* scales,
                               const float* vs, bool per_channel,
                               const Epilogue& e, void* y) {
  if (e.to_float) {
    return e.relu_flag ? ChannelsLastAct<true, true>(acc, n, m, plane, scales,
                                                     vs, per_channel, e, y)
                       : ChannelsLastAct<true, false>(acc, n, m, plane, scales,
                                                      vs, per_channel, e, y);
  }
  return e.relu_flag ? ChannelsLastAct<false, true>(acc, n, m, plane, scales,
                                                    vs, per_channel, e, y)
                     : ChannelsLastAct<false, false>(acc, n, m, plane, scales,
                                                     vs, per_channel, e, y);
}
#endif

// The Conv's own attributes (InferConvInt8 refuses any other).
Attributes ConvAttributes(const Attributes& attrs) {
  Attributes conv = attrs;
  for (const char* name : kOwnAttrs) conv.map().erase(name);
  return conv;
}

// The int8 Conv's inputs X, W, B (B absent when the node has none) from
// FusedConvDequant's X, W, deq_scale, B.
std::vector<TensorRef> ConvInputs(const TensorRef* inputs, size_t n) {
  std::vector<TensorRef> in = {inputs[0], inputs[1]};
  if (n > 3 && inputs[3].present()) in.push_back(inputs[3]);
  return in;
}

// y = AscendQuant(deq), element for element (any layout, the same in both).
void QuantizeOut(const Epilogue& e, const TensorRef& deq, TensorRef& y) {
  const int64_t n = y.shape.numel();
  if (e.to_float) {
    QuantizeAscend(deq.as<const float>(), y.as<int8_t>(), n, e.q);
  } else {
    QuantizeAscend(deq.as<const Half>(), y.as<int8_t>(), n, e.q);
  }
}

}  // namespace

std::string InferFusedConvDequant(InferContext& ctx) {
  using K = Attribute::Kind;
  std::string err = CheckInputs(kOp, ctx, 3, 4);
  if (!err.empty()) return err;
  Attributes own;
  for (const char* name : kOwnAttrs) {
    auto it = ctx.attrs.map().find(name);
    if (it != ctx.attrs.map().end()) own.map()[name] = it->second;
  }
  err = CheckAttributes(kOp, own,
                        {{"sqrt_mode", K::kInt},
                         {"relu_flag", K::kInt},
                         {"dtype", K::kInt},
                         {"to", K::kInt},
                         {"activation", K::kString},
                         {"activation_params", K::kFloats},
                         {"quant_scale", K::kFloat},
                         {"quant_offset", K::kFloat},
                         {"quant_sqrt_mode", K::kInt},
                         {"quant_round_mode", K::kString},
                         {"quant_dst_type", K::kString}});
  if (!err.empty()) return err;
  const int64_t to = AttrInt(own, "to", 10);
  if (to != 10 && to != 1) {
    return Fail(kOp, "to must be 10 (float16) or 1 (float32), got " +
                         std::to_string(to));
  }
  const std::string act = AttrString(own, "activation", "");
  if (!act.empty() && act != "Relu" && act != "Clip")
    return Fail(kOp, "activation '" + act + "' (Relu or Clip)");
  if ((act == "Clip") != (own.GetFloats("activation_params").size() == 2))
    return Fail(kOp, "activation_params [min, max] go with Clip alone");

  // The int8 Conv, as the Conv kernel checks it.
  const Attributes conv_attrs = ConvAttributes(ctx.attrs);
  const std::vector<TensorRef> conv_in =
      ConvInputs(ctx.inputs.data(), ctx.inputs.size());
  std::vector<TensorRef> conv_out(1);
  InferContext conv{conv_attrs, conv_in, conv_out};
  if (!ConvIsInt8(conv_in.data(), conv_in.size()))
    return Fail(kOp, "X and W must be int8 (CANN's int8 Conv2D)");
  err = InferConvInt8(conv);
  if (!err.empty()) return std::string(kOp) + ": " + err;  // "...: Conv: ..."

  // AscendDequant on its output, as that kernel checks it.
  const std::vector<TensorRef> deq_in = {conv_out[0], ctx.inputs[2]};
  std::vector<TensorRef> deq_out(1);
  Attributes deq_attrs;
  for (const char* name : {"sqrt_mode", "relu_flag", "dtype"}) {
    auto it = own.map().find(name);
    if (it != own.map().end()) deq_attrs.map()[name] = it->second;
  }
  InferContext deq{deq_attrs, deq_in, deq_out};
  err = InferAscendDequant(deq);
  if (!err.empty()) return std::string(kOp) + ": " + err;

  // The merged AscendQuant (its attributes all behind quant_, scale
  // required), as that kernel checks it on the dequantized value.
  const DType dequantized = to == 1 ? DType::kFloat32 : DType::kFloat16;
  std::vector<TensorRef> quant_in(1);
  quant_in[0].dtype = dequantized;
  quant_in[0].shape = conv_out[0].shape;
  Attributes quant_attrs;
  for (const char* name : kQuantAttrs) {
    auto it = own.map().find(std::string(kQuantPrefix) + name);
    if (it != own.map().end()) quant_attrs.map()[name] = it->second;
  }
  const bool quant = !quant_attrs.map().empty();
  if (quant) {
    if (!quant_attrs.Has("scale"))
      return Fail(kOp, "a merged AscendQuant needs quant_scale");
    std::vector<TensorRef> quant_out(1);
    InferContext q{quant_attrs, quant_in, quant_out};
    err = InferAscendQuant(q);
    if (!err.empty()) return std::string(kOp) + ": " + err;
  }

  err = PrepareOutputs(kOp, ctx, 1);
  if (!err.empty()) return err;
  err = SetOutput(kOp, ctx, 0, quant ? DType::kInt8 : dequantized,
                  conv_out[0].shape);
  if (!err.empty()) return err;
  // The int32 conv output, the dequantized value when an AscendQuant
  // follows, then the Conv's own scratch.
  ctx.scratch_bytes =
      Align64(static_cast<size_t>(conv_out[0].nbytes())) +
      (quant ? Align64(static_cast<size_t>(quant_in[0].nbytes())) : size_t{0}) +
      conv.scratch_bytes;
  return "";
}

std::unique_ptr<PreparedOp> PrepareFusedConvDequant(const PrepareContext& ctx) {
  const TensorRef& d = ctx.inputs[2];
  if (d.data == nullptr) return nullptr;  // computed scales: read per run
  auto p = std::make_unique<FusedConvDequantPrepared>();
  p->epilogue = ReadEpilogue(ctx.attrs, d);
  const int64_t count = d.shape.numel();
  for (int64_t c = 0; c < count; ++c) {
    p->scales.push_back(ReadDeqScale(d, c));
    p->any_special = p->any_special || p->scales.back().special;
  }
  if (!ctx.outputs.empty() && ctx.outputs[0].shape.rank >= 2) {
    const int64_t m = ctx.outputs[0].shape.dims[1];
    p->vscales = ChannelVScales(p->scales.data(), count, m);
    for (int64_t c = 0; c < m; ++c)
      p->hscales.push_back(p->scales[count == 1 ? 0 : c].half_scale);
    const int64_t per =
        std::max<int64_t>(1, kSmallChunk / std::max<int64_t>(m, 1));
    for (int64_t k = 0; k < per; ++k) {
      p->rep_vs.insert(p->rep_vs.end(), p->vscales.begin(), p->vscales.end());
      p->rep_hs.insert(p->rep_hs.end(), p->hscales.begin(), p->hscales.end());
    }
  }
  if (!ctx.outputs.empty()) p->rank = ctx.outputs[0].shape.rank;
  const std::vector<TensorRef> conv_in =
      ConvInputs(ctx.inputs.data(), ctx.inputs.size());
  const PrepareContext conv{ctx.attrs, conv_in, ctx.outputs};
  p->conv = PrepareConvInt8(conv);
  return p;
}

void RunFusedConvDequant(const RunContext& ctx) {
  const TensorRef& d = ctx.inputs[2];
  TensorRef& y = ctx.outputs[0];
  const Shape& shape = y.shape;
  const auto* p = static_cast<const FusedConvDequantPrepared*>(ctx.prepared);

  // The int8 Conv into the scratch's first part.
  TensorRef acc;
  acc.dtype = DType::kInt32;
  acc.shape = shape;
  acc.data = ctx.scratch;
  const size_t acc_room = Align64(static_cast<size_t>(acc.nbytes()));
  const Epilogue e = p != nullptr ? p->epilogue : ReadEpilogue(ctx.attrs, d);
  // Where the epilogue writes: y, or (an AscendQuant merged) the scratch
  // after acc, quantized into y at the end.
  TensorRef deq;
  deq.dtype = e.to_float ? DType::kFloat32 : DType::kFloat16;
  deq.shape = shape;
  deq.data = static_cast<unsigned char*>(ctx.scratch) + acc_room;
  const size_t deq_room =
      e.quant ? Align64(static_cast<size_t>(deq.nbytes())) : size_t{0};
  void* out = e.quant ? deq.data : y.data;
  const bool has_bias = ctx.num_inputs > 3 && ctx.inputs[3].present();
  const TensorRef conv_in[3] = {ctx.inputs[0], ctx.inputs[1],
                                has_bias ? ctx.inputs[3] : TensorRef{}};
  const RunContext conv{
      ctx.attrs,
      conv_in,
      has_bias ? size_t{3} : size_t{2},
      &acc,
      1,
      static_cast<unsigned char*>(ctx.scratch) + acc_room + deq_room,
      p != nullptr ? p->conv.get() : nullptr};
  // Channels last where oneDNN writes that and the scales are uint64
  // (float16 scales, v100 chips, take the NCHW pass).
  const int32_t* channels_last = nullptr;
  const bool x_nhwc = p != nullptr && p->x_nhwc;
  const bool y_nhwc = p != nullptr && p->y_nhwc;
#if defined(ASCEND_EMU_FUSED_CHANNELS_LAST)
  if (e.u64 || x_nhwc) {
    channels_last = RunConvInt8KeepChannelsLast(conv, x_nhwc);
  } else {
    RunConvInt8(conv);
  }
#else
  RunConvInt8(conv);
#endif

  std::vector<DeqScale> read;
  const DeqScale* scales;
  bool any_special = false;
  const int64_t count = d.shape.numel();
  if (p != nullptr) {
    scales = p->scales.data();
    any_special = p->any_special;
  } else {
    for (int64_t c = 0; c < count; ++c) {
      read.push_back(ReadDeqScale(d, c));
      any_special = any_special || read.back().special;
    }
    scales = read.data();
  }
  std::vector<float> read_vs;
  const float* vs;
  if (p != nullptr && p->vscales.size() == static_cast<size_t>(shape.dims[1])) {
    vs = p->vscales.data();
  } else {
    read_vs = ChannelVScales(scales, count, shape.dims[1]);
    vs = read_vs.data();
  }
  const int64_t plane = shape.rank == 4   ? shape.dims[2] * shape.dims[3]
                        : shape.rank == 3 ? shape.dims[2]
                                          : int64_t{1};
  bool done = false;
#if defined(ASCEND_EMU_FUSED_CHANNELS_LAST) && \
    defined(ASCEND_EMU_DEQUANT_VECTORS)
  if (y_nhwc && channels_last != nullptr) {
    // Channels last in and out (only with uint64 scales, none special, and
    // an AscendQuant merged: ChannelsLastEpilogue): a pixel's channels at a
    // time with their scales from the prepared arrays.
    // Chunks of whole pixels, their channels' scales repeated (rep_vs,
    // rep_hs: one PlaneVec call per chunk, not per pixel).
    const int64_t m = shape.dims[1], pixels = shape.dims[0] * plane;
    const int64_t per =
        m > 0 ? static_cast<int64_t>(p->rep_vs.size()) / m : int64_t{1};
#if defined(ASCEND_EMU_QUANT_VECTORS)
    if (!e.q.twice && e.q.mode == RoundMode::kRound) {
      // Straight to int8: no dequantized tensor written and read back.
      int8_t* yq = y.as<int8_t>();
      for (int64_t q0 = 0; m > 0 && q0 < pixels; q0 += per) {
        const int64_t len = std::min(per, pixels - q0) * m;
        const int32_t* a = channels_last + q0 * m;
        int64_t i = DequantQuantVecAny(a, len, p->rep_vs.data(),
                                       p->rep_hs.data(), e, yq + q0 * m);
        for (; i < len; ++i) {
          const float v =
              Activate(DequantOne(a[i], scales[count != 1 ? i % m : 0], true,
                                  false, e.relu_flag),
                       e);
          QuantizeAscend(&v, yq + q0 * m + i, 1, e.q);
        }
      }
      return;
    }
#endif
    for (int64_t q0 = 0; m > 0 && q0 < pixels; q0 += per) {
      const int64_t len = std::min(per, pixels - q0) * m;
      const int32_t* a = channels_last + q0 * m;
      void* row = e.to_float
                      ? static_cast<void*>(static_cast<float*>(out) + q0 * m)
                      : static_cast<void*>(static_cast<Half*>(out) + q0 * m);
      int64_t i = PlaneVecAny(a, len, scales[0], p->rep_vs.data(),
                              p->rep_hs.data(), e, row);
      for (; i < len; ++i) {
        const int64_t c = i % m;
        Put(out, e, q0 * m + i,
            Activate(DequantOne(a[i], scales[count != 1 ? c : 0], true, false,
                                e.relu_flag),
                     e));
      }
    }
    QuantizeOut(e, deq, y);
    return;
  }
#endif
#if defined(ASCEND_EMU_FUSED_CHANNELS_LAST)
  if (channels_last != nullptr && !any_special) {
    ApplyEpilogueChannelsLast(channels_last, shape.dims[0], shape.dims[1],
                              plane, scales, vs, count != 1, e, out);
    done = true;
  } else if (channels_last != nullptr) {
    // A special (inf / NaN) scale: the reference on every element.
    const int64_t m = shape.dims[1];
    for (int64_t b = 0; b < shape.dims[0]; ++b) {
      for (int64_t p = 0; p < plane; ++p) {
        for (int64_t c = 0; c < m; ++c) {
          const float v = Activate(
              DequantOne(channels_last[(b * plane + p) * m + c],
                         scales[count != 1 ? c : 0], true, false, e.relu_flag),
              e);
          Put(out, e, (b * m + c) * plane + p, v);
        }
      }
    }
    done = true;
  }
#endif
  if (!done) {
    ApplyEpilogue(acc.as<const int32_t>(), shape.dims[0], shape.dims[1], plane,
                  scales, count != 1, any_special, e, out);
  }
  if (!e.quant) return;
  if (!y_nhwc) {
    QuantizeOut(e, deq, y);
    return;
  }
  // y agreed channels last, the result NCHW (oneDNN's fast path declined
  // this run): quantized a row at a time, stored transposed.
  const int64_t m = shape.dims[1];
  int8_t row[256];
  for (int64_t b = 0; b < shape.dims[0]; ++b) {
    for (int64_t c = 0; c < m; ++c) {
      for (int64_t p0 = 0; p0 < plane; p0 += 256) {
        const int64_t len = std::min<int64_t>(256, plane - p0);
        const int64_t at = (b * m + c) * plane + p0;
        if (e.to_float) {
          QuantizeAscend(deq.as<const float>() + at, row, len, e.q);
        } else {
          QuantizeAscend(deq.as<const Half>() + at, row, len, e.q);
        }
        for (int64_t i = 0; i < len; ++i)
          y.as<int8_t>()[(b * plane + p0 + i) * m + c] = row[i];
      }
    }
  }
}

}  // namespace kernels
}  // namespace ascend_emu
