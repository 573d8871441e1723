// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// conv_int8_epilogue.h: FusedConvDequant's epilogue passes.
#include "conv_int8_epilogue.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "kernel_util.h"
#include "numeric.h"
#include "requant_computed.h"
#include "transpose8x8.h"

namespace ascend_emu {
namespace kernels {

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

std::string CheckOutputStage(const char* op, const Attributes& attrs) {
  const int64_t to = AttrInt(attrs, "to", 10);
  if (to != 10 && to != 1) {
    return Fail(op, "to must be 10 (float16) or 1 (float32), got " +
                        std::to_string(to));
  }
  const std::string act = AttrString(attrs, "activation", "");
  if (!act.empty() && act != "Relu" && act != "Clip")
    return Fail(op, "activation '" + act + "' (Relu or Clip)");
  if ((act == "Clip") != (attrs.GetFloats("activation_params").size() == 2))
    return Fail(op, "activation_params [min, max] go with Clip alone");
  return "";
}

std::vector<DeqScale> ReadDeqScales(const TensorRef& deq, bool* any_special) {
  const int64_t count = deq.shape.numel();
  std::vector<DeqScale> scales(static_cast<size_t>(count));
  *any_special = false;
  for (int64_t c = 0; c < count; ++c) {
    scales[c] = ReadDeqScale(deq, c);
    *any_special = *any_special || scales[c].special;
  }
  return scales;
}

namespace {

// The activation on one float16 value: the Relu and Clip kernels' own
// expressions (NaN kept; Clip is max then min).
inline float Activate(float v, const Epilogue& e) {
  if (e.relu) return v < 0.0f ? 0.0f : v;
  if (e.clip) return std::min(std::max(v, e.lo), e.hi);
  return v;
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

#endif

// Element i of y (float32 or float16) = v.
inline void Put(void* y, const Epilogue& e, int64_t i, float v) {
  if (e.to_float) {
    static_cast<float*>(y)[i] = v;
  } else {
    static_cast<Half*>(y)[i] = Half(v);
  }
}

}  // namespace

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
namespace {

typedef float V8 __attribute__((vector_size(32)));
typedef int32_t M8 __attribute__((vector_size(32)));

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

}  // namespace

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

void RequantNhwcByTable(const int32_t* acc, int64_t count, int64_t m,
                        const DeqScale* scales, bool per_channel,
                        const float* rep_vs, int64_t per,
                        const RequantTable& table, int8_t* y) {
  const int64_t chunk = per * m;
  const __m256i top = _mm256_set1_epi32(1 << 24);
  const __m256i bottom = _mm256_set1_epi32(-(1 << 24));
  for (int64_t i0 = 0; i0 < count; i0 += chunk) {
    const int64_t len = std::min(chunk, count - i0);
    const int32_t* a = acc + i0;
    int64_t i = 0;
    for (; i + 8 <= len; i += 8) {
      const __m256i xi =
          _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + i));
      const __m256i big = _mm256_or_si256(_mm256_cmpgt_epi32(xi, top),
                                          _mm256_cmpgt_epi32(bottom, xi));
      if (!_mm256_testz_si256(big, big)) break;
      const V8 odd = gnu_vectors::ScaleToHalfOdd<V8, M8>(
          gnu_vectors::BitCastV<V8>(_mm256_cvtepi32_ps(xi)),
          gnu_vectors::BitCastV<V8>(_mm256_loadu_ps(rep_vs + i)));
      table.Look8(_mm256_cvtps_ph(gnu_vectors::BitCastV<__m256>(odd),
                                  _MM_FROUND_TO_NEAREST_INT),
                  y + i0 + i);
    }
    for (; i < len; ++i) {
      const Half h(DequantOne(a[i], scales[per_channel ? (i0 + i) % m : 0],
                              true, false, false));
      y[i0 + i] = table(Eigen::numext::bit_cast<uint16_t>(h));
    }
  }
}
#endif

void ApplyEpilogueChannelsLastReference(const int32_t* acc, int64_t n,
                                        int64_t m, int64_t plane,
                                        const DeqScale* scales,
                                        bool per_channel, const Epilogue& e,
                                        void* y) {
  for (int64_t b = 0; b < n; ++b) {
    for (int64_t p = 0; p < plane; ++p) {
      for (int64_t c = 0; c < m; ++c) {
        const float v = Activate(DequantOne(acc[(b * plane + p) * m + c],
                                            scales[per_channel ? c : 0], e.u64,
                                            e.twice, e.relu_flag),
                                 e);
        Put(y, e, (b * m + c) * plane + p, v);
      }
    }
  }
}

namespace {
// relu_flag and the activation as one clamp [lo, hi]: relu_flag (v < 0 ?
// +0 : v) then the activation's max(v, lo) is max(v, lo) with lo at least
// +0, on values that are never NaN (a Clip's min of -0 becomes +0, as
// relu_flag's own result).
void FoldActivation(const Epilogue& e, RequantComputed* out) {
  out->lo = e.relu_flag ? (e.lo > 0.0f ? e.lo : 0.0f) : e.lo;
  out->hi = e.hi;
}
}  // namespace

bool MakeRequantComputed(const Epilogue& e, bool any_special,
                         RequantComputed* out) {
  if (!e.quant || e.q.mode != RoundMode::kRound || !e.u64 || any_special)
    return false;
  FoldActivation(e, out);
  // Without mul (scale 1) or add (offset 0) the reference skips a step that
  // would give its input back: x * 1 and x + 0 are x (a -0 made +0 rounds
  // to the same int8).
  out->scale = e.q.mul ? e.q.scale : 1.0f;
  out->twice = e.q.mul && e.q.twice;
  out->offset = e.q.add ? e.q.offset : 0.0f;
  out->nan_free = std::isfinite(out->scale) && out->scale != 0.0f &&
                  std::isfinite(out->offset);
  return true;
}

bool MakeDequantComputed(const Epilogue& e, bool any_special,
                         RequantComputed* out) {
  if (e.quant || !e.u64 || any_special) return false;
  FoldActivation(e, out);
  return true;
}

float DequantActivatedOne(int32_t acc, const DeqScale& s, const Epilogue& e) {
  return Activate(DequantOne(acc, s, e.u64, e.twice, e.relu_flag), e);
}

int8_t RequantOne(int32_t acc, const DeqScale& s, const Epilogue& e) {
  const float v = DequantActivatedOne(acc, s, e);
  int8_t y;
  QuantizeAscend(&v, &y, 1, e.q);
  return y;
}

RequantTable BuildRequantTable(const Epilogue& e) {
  std::vector<float> in(static_cast<size_t>(RequantTable::kFullSize));
  for (int64_t bits = 0; bits < RequantTable::kFullSize; ++bits) {
    float v = static_cast<float>(
        Eigen::numext::bit_cast<Half>(static_cast<uint16_t>(bits)));
    if (e.relu_flag && v < 0.0f) v = 0.0f;  // DequantOne's last step
    in[static_cast<size_t>(bits)] = Activate(v, e);
  }
  std::vector<int8_t> full(static_cast<size_t>(RequantTable::kFullSize));
  QuantizeAscend(in.data(), full.data(), RequantTable::kFullSize, e.q);
  return RequantTable(full);
}

Epilogue DequantOnly(const Epilogue& e) {
  Epilogue d;
  d.u64 = e.u64;
  d.twice = e.twice;
  return d;  // no relu_flag, activation or AscendQuant; float16 out
}

void RequantByTable(const RequantTable& table, const Half* deq, int64_t count,
                    int8_t* y) {
  int64_t i = 0;
#if defined(ASCEND_EMU_REQUANT_TABLE_VECTORS)
  for (; i + 16 <= count; i += 16) {
    table.Look16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(deq + i)),
                 y + i);
  }
#endif
  for (; i < count; ++i)
    y[i] = table(Eigen::numext::bit_cast<uint16_t>(deq[i]));
}

void RequantByTableTransposed(const RequantTable& table, const Half* deq,
                              int64_t n, int64_t m, int64_t plane, int8_t* y) {
  for (int64_t b = 0; b < n; ++b) {
    for (int64_t c = 0; c < m; ++c) {
      const Half* row = deq + (b * m + c) * plane;
      int8_t* col = y + b * plane * m + c;
      for (int64_t p = 0; p < plane; ++p)
        col[p * m] = table(Eigen::numext::bit_cast<uint16_t>(row[p]));
    }
  }
}

void QuantizeOut(const Epilogue& e, const TensorRef& deq, TensorRef& y) {
  const int64_t n = y.shape.numel();
  if (e.to_float) {
    QuantizeAscend(deq.as<const float>(), y.as<int8_t>(), n, e.q);
  } else {
    QuantizeAscend(deq.as<const Half>(), y.as<int8_t>(), n, e.q);
  }
}

void QuantizeTransposed(const Epilogue& e, const TensorRef& deq, int64_t n,
                        int64_t m, int64_t plane, int8_t* y) {
  int8_t row[256];
  for (int64_t b = 0; b < n; ++b) {
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
          y[(b * plane + p0 + i) * m + c] = row[i];
      }
    }
  }
}

#if defined(ASCEND_EMU_REQUANT_COMPUTED)
namespace {

namespace rc = requant_computed;

// RequantN on kN vectors (a sum past 2^24 in any: false, nothing done).
template <bool kNanFree, int kN>
inline bool RequantChecked(__m256i (&v)[kN], const rc::V8 (&scale)[kN],
                           const RequantComputed& k) {
  for (int j = 0; j < kN; ++j) {
    if (!rc::Within24Bits8(v[j])) return false;
  }
  rc::RequantN<kNanFree, kN>(v, scale, k);
  return true;
}

// y[i] for the len sums at a, element i's scale rep_vs[i] (or, null, one
// scale for all): eight vectors at a time (requant_computed.h says why),
// then one. Returns how many it did (it stops before a vector with a sum
// past 2^24: the caller's reference loop does the rest).
template <bool kNanFree>
int64_t RequantRun(const int32_t* a, int64_t len, const float* rep_vs,
                   float one, const RequantComputed& k, int8_t* y) {
  auto scale_at = [&](int64_t i) {
    return rep_vs != nullptr
               ? gnu_vectors::BitCastV<rc::V8>(_mm256_loadu_ps(rep_vs + i))
               : rc::V8{} + one;
  };
  int64_t i = 0;
  for (; i + 64 <= len; i += 64) {
    __m256i v[8];
    rc::V8 scale[8];
    for (int j = 0; j < 8; ++j) {
      v[j] =
          _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + i + 8 * j));
      scale[j] = scale_at(i + 8 * j);
    }
    if (!RequantChecked<kNanFree, 8>(v, scale, k)) break;
    for (int j = 0; j < 8; ++j) rc::StoreInt8x8(y + i + 8 * j, v[j]);
  }
  for (; i + 8 <= len; i += 8) {
    __m256i v[1] = {
        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + i))};
    const rc::V8 scale[1] = {scale_at(i)};
    if (!RequantChecked<kNanFree, 1>(v, scale, k)) break;
    rc::StoreInt8x8(y + i, v[0]);
  }
  return i;
}

template <bool kNanFree>
void PlanesT(const int32_t* acc, int64_t n, int64_t m, int64_t plane,
             const float* vs, const DeqScale* scales, bool per_channel,
             const Epilogue& e, const RequantComputed& k, int8_t* y) {
  for (int64_t bc = 0; bc < n * m; ++bc) {
    const int64_t c = bc % m;
    const int32_t* a = acc + bc * plane;
    int8_t* out = y + bc * plane;
    const DeqScale& d = scales[per_channel ? c : 0];
    int64_t i = RequantRun<kNanFree>(a, plane, nullptr, vs[c], k, out);
    for (; i < plane; ++i) out[i] = RequantOne(a[i], d, e);
  }
}

template <bool kNanFree>
void ChannelsLastToPlanesT(const int32_t* acc, int64_t n, int64_t m,
                           int64_t plane, const float* vs,
                           const DeqScale* scales, bool per_channel,
                           const Epilogue& e, const RequantComputed& k,
                           int8_t* y) {
  const int64_t p8 = plane / 8 * 8, m8 = m / 8 * 8;
  for (int64_t b = 0; b < n; ++b) {
    const int32_t* a = acc + b * plane * m;
    int8_t* yb = y + b * m * plane;
    auto one = [&](int64_t p, int64_t c) {
      yb[c * plane + p] =
          RequantOne(a[p * m + c], scales[per_channel ? c : 0], e);
    };
    // 8 pixels x 8 channels, transposed in registers: a channel's 8 pixels
    // per vector, 8 vectors requantized together.
    for (int64_t c0 = 0; c0 < m8; c0 += 8) {
      rc::V8 scale[8];
      for (int j = 0; j < 8; ++j) scale[j] = rc::V8{} + vs[c0 + j];
      for (int64_t p0 = 0; p0 < p8; p0 += 8) {
        __m256i r[8];
        for (int i = 0; i < 8; ++i) {
          r[i] = _mm256_loadu_si256(
              reinterpret_cast<const __m256i*>(a + (p0 + i) * m + c0));
        }
        Transpose8x8(r);
        if (!RequantChecked<kNanFree, 8>(r, scale, k)) {
          for (int64_t c = c0; c < c0 + 8; ++c) {
            for (int64_t p = p0; p < p0 + 8; ++p) one(p, c);
          }
          continue;
        }
        for (int j = 0; j < 8; ++j)
          rc::StoreInt8x8(yb + (c0 + j) * plane + p0, r[j]);
      }
    }
    for (int64_t c = m8; c < m; ++c) {
      for (int64_t p = 0; p < p8; ++p) one(p, c);
    }
    // The pixels past the last block of 8 (all of a 2x2 plane): a pixel's
    // channels are contiguous, 8 at a time with their scales from vs.
    for (int64_t p = p8; p < plane; ++p) {
      for (int64_t c0 = 0; c0 < m8; c0 += 8) {
        __m256i v[1] = {_mm256_loadu_si256(
            reinterpret_cast<const __m256i*>(a + p * m + c0))};
        const rc::V8 scale[1] = {
            gnu_vectors::BitCastV<rc::V8>(_mm256_loadu_ps(vs + c0))};
        if (!RequantChecked<kNanFree, 1>(v, scale, k)) {
          for (int64_t c = c0; c < c0 + 8; ++c) one(p, c);
          continue;
        }
        alignas(32) int32_t lanes[8];
        _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), v[0]);
        for (int j = 0; j < 8; ++j)
          yb[(c0 + j) * plane + p] = static_cast<int8_t>(lanes[j]);
      }
      for (int64_t c = m8; c < m; ++c) one(p, c);
    }
  }
}

template <bool kNanFree>
void NhwcT(const int32_t* acc, int64_t count, int64_t m, const float* rep_vs,
           int64_t per, const DeqScale* scales, bool per_channel,
           const Epilogue& e, const RequantComputed& k, int8_t* y) {
  // Chunks of `per` whole pixels, element i's scale rep_vs[i].
  const int64_t chunk = per * m;
  for (int64_t i0 = 0; i0 < count; i0 += chunk) {
    const int64_t len = std::min(chunk, count - i0);
    const int32_t* a = acc + i0;
    int64_t i = RequantRun<kNanFree>(a, len, rep_vs, 0.0f, k, y + i0);
    for (; i < len; ++i) {
      y[i0 + i] = RequantOne(a[i], scales[per_channel ? (i0 + i) % m : 0], e);
    }
  }
}

}  // namespace

void RequantPlanes(const int32_t* acc, int64_t n, int64_t m, int64_t plane,
                   const float* vs, const DeqScale* scales, bool per_channel,
                   const Epilogue& e, const RequantComputed& k, int8_t* y) {
  (k.nan_free ? PlanesT<true> : PlanesT<false>)(acc, n, m, plane, vs, scales,
                                                per_channel, e, k, y);
}

void RequantChannelsLastToPlanes(const int32_t* acc, int64_t n, int64_t m,
                                 int64_t plane, const float* vs,
                                 const DeqScale* scales, bool per_channel,
                                 const Epilogue& e, const RequantComputed& k,
                                 int8_t* y) {
  (k.nan_free ? ChannelsLastToPlanesT<true>
              : ChannelsLastToPlanesT<false>)(acc, n, m, plane, vs, scales,
                                              per_channel, e, k, y);
}

void RequantNhwc(const int32_t* acc, int64_t count, int64_t m,
                 const float* rep_vs, int64_t per, const DeqScale* scales,
                 bool per_channel, const Epilogue& e, const RequantComputed& k,
                 int8_t* y) {
  (k.nan_free ? NhwcT<true> : NhwcT<false>)(acc, count, m, rep_vs, per, scales,
                                            per_channel, e, k, y);
}
#endif

}  // namespace kernels
}  // namespace ascend_emu
