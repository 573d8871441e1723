// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// NPUWeightQuantBatchMatmulV2 (CANN's ONNX plugin name; IR
// WeightQuantBatchMatmulV2, reference/cann-quant.md): the LLM decode matmul
// with an int8 or int4 weight dequantized on the fly.
//   x [..., M, K] float16 or bfloat16; weight int8 [K, N], or int32
//   [K, N / 8] holding 8 int4 per int32 (element 8j + i of a row in bits
//   4i..4i+3, two's complement); antiquant_scale (x's dtype) [1], [N],
//   [1, N], or [ceil(K / G), N] with antiquant_group_size G (a multiple of
//   32, < K); antiquant_offset (optional, like the scale); quant_scale and
//   quant_offset refused; bias (optional, [N], x's dtype or float32 for
//   bfloat16 x).
//   W' = (w + offset) * scale, each step rounded to x's dtype; y = x @ W' +
//   bias accumulated in float32, rounded once to x's dtype. transpose_x and
//   transpose_weight are ignored: the plugin forces them false.
// Decode (M = 1) reads the weight once: per block of rows of the weight,
// the dequantized block (on the stack) is multiplied into float32 sums of
// every row of x, so no float copy of the weight is made; the loops are
// plain and vectorise (quant_round.h rounds branch-free).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include "gnu_vectors.h"
#include "kernel_util.h"
#include "numeric.h"
#include "ops.h"
#include "quant_round.h"

namespace ascend_emu {
namespace kernels {
namespace {

constexpr const char* kOp = "NPUWeightQuantBatchMatmulV2";
constexpr int64_t kBlockN = 256;  // weight columns per block (1 KB floats)

// ge::DataType codes of the `dtype` attribute: the output of x's dtype.
constexpr int64_t kGeFloat16 = 1;
constexpr int64_t kGeBf16 = 27;

struct WqDims {
  int64_t m = 0, k = 0, n = 0;
  int64_t groups = 1;        // rows of the scale: 1 or ceil(K / G)
  int64_t group_size = 0;    // G, or 0
  bool per_channel = false;  // the scale has N columns
  bool int4 = false;
};

bool GetDims(const TensorRef* in, const Attributes& attrs, WqDims* d) {
  const Shape& x = in[0].shape;
  const Shape& w = in[1].shape;
  d->k = x.dims[x.rank - 1];
  d->int4 = in[1].dtype == DType::kInt32;
  d->n = d->int4 ? w.dims[1] * 8 : w.dims[1];
  d->m = d->k == 0 ? 0 : x.numel() / d->k;
  d->group_size = AttrInt(attrs, "antiquant_group_size", 0);
  const Shape& s = in[2].shape;
  d->per_channel = s.numel() != 1;
  d->groups =
      d->group_size > 0 ? (d->k + d->group_size - 1) / d->group_size : 1;
  return true;
}

template <bool kBf16>
inline float Round(float v) {
  return kBf16 ? RoundToBf16(v) : RoundToHalf(v);
}

template <typename T>
float Ld(const void* p, int64_t i) {
  return Load(static_cast<const T*>(p)[i]);
}

// Widens a float16/bfloat16 (or float32) vector to float.
void Widen(const TensorRef& t, int64_t count, float* out) {
  for (int64_t i = 0; i < count; ++i) {
    out[i] = t.dtype == DType::kFloat16    ? Ld<Half>(t.data, i)
             : t.dtype == DType::kBFloat16 ? Ld<BFloat16>(t.data, i)
                                           : Ld<float>(t.data, i);
  }
}

// The scratch layout: x in float [M, K], the sums [M, N], the scale and
// offset in float [groups, N] (per channel) or [groups] (a scalar).
struct Scratch {
  float *x, *acc, *scale, *offset;
};
int64_t ScratchFloats(const WqDims& d, int64_t* parts) {
  const int64_t cols = d.n;  // a scalar scale is spread over the columns
  parts[0] = d.m * d.k;
  parts[1] = d.m * d.n;
  parts[2] = d.groups * cols;
  parts[3] = d.groups * cols;
  int64_t total = 0;
  for (int i = 0; i < 4; ++i) total += (parts[i] + 15) / 16 * 16;
  return total;
}

}  // namespace

std::string InferNPUWeightQuantBatchMatmulV2(InferContext& ctx) {
  using K = Attribute::Kind;
  std::string err = CheckInputs(kOp, ctx, 3, 7);
  if (err.empty()) {
    err = CheckAttributes(kOp, ctx.attrs,
                          {{"antiquant_group_size", K::kInt},
                           {"dtype", K::kInt},
                           {"transpose_x", K::kInt},
                           {"transpose_weight", K::kInt}});
  }
  if (err.empty()) err = PrepareOutputs(kOp, ctx, 1);
  if (!err.empty()) return err;
  const std::vector<TensorRef>& in = ctx.inputs;
  const TensorRef& x = in[0];
  const TensorRef& w = in[1];
  if (x.dtype != DType::kFloat16 && x.dtype != DType::kBFloat16) {
    return Fail(kOp, "x " + DTypeRefusal(x.dtype, "float16 or bfloat16"));
  }
  const bool bf16 = x.dtype == DType::kBFloat16;
  if (w.dtype != DType::kInt8 && w.dtype != DType::kInt32) {
    return Fail(kOp, "weight " + DTypeRefusal(w.dtype,
                                              "int8, or int32 holding 8 int4"));
  }
  for (int i : {4, 5}) {
    if (OptionalInput(in.data(), in.size(), i) != nullptr) {
      return Fail(kOp, std::string(i == 4 ? "quant_scale" : "quant_offset") +
                           " (an int8 output) is not emulated");
    }
  }
  const int64_t dtype = AttrInt(ctx.attrs, "dtype", -1);
  if (dtype != -1 && dtype != (bf16 ? kGeBf16 : kGeFloat16)) {
    return Fail(kOp, "dtype " + std::to_string(dtype) +
                         " (without quant_scale the output is x's dtype: -1)");
  }
  if (x.shape.rank < 2 || w.shape.rank != 2) {
    return Fail(kOp, "needs x [..., M, K] and a 2-D weight, got " +
                         x.shape.ToString() + " and " + w.shape.ToString());
  }
  const int64_t k = x.shape.dims[x.shape.rank - 1];
  if (w.shape.dims[0] != k) {
    return Fail(kOp, "x " + x.shape.ToString() + " and weight " +
                         w.shape.ToString() + " differ in K");
  }
  WqDims d;
  GetDims(in.data(), ctx.attrs, &d);
  const int64_t g = d.group_size;
  if (g < 0 || (g > 0 && (g % 32 != 0 || g >= k))) {
    return Fail(kOp, "antiquant_group_size " + std::to_string(g) +
                         " must be 0 or a multiple of 32 below K = " +
                         std::to_string(k));
  }
  const TensorRef& s = in[2];
  if (s.dtype != x.dtype) {
    return Fail(kOp, std::string("antiquant_scale is ") + DTypeName(s.dtype) +
                         ", x " + DTypeName(x.dtype) + " (they must match)");
  }
  const Shape& ss = s.shape;
  bool shape_ok;
  if (g > 0) {
    shape_ok = ss.rank == 2 && ss.dims[0] == d.groups && ss.dims[1] == d.n;
  } else {
    shape_ok = (ss.rank == 1 && (ss.dims[0] == 1 || ss.dims[0] == d.n)) ||
               (ss.rank == 2 && ss.dims[0] == 1 && ss.dims[1] == d.n);
  }
  if (!shape_ok) {
    return Fail(kOp, "antiquant_scale " + ss.ToString() + " must be " +
                         (g > 0 ? "[" + std::to_string(d.groups) + ", " +
                                      std::to_string(d.n) +
                                      "] (ceil(K / group size), N)"
                                : "[1], [" + std::to_string(d.n) + "] or [1, " +
                                      std::to_string(d.n) + "]"));
  }
  if (const TensorRef* o = OptionalInput(in.data(), in.size(), 3)) {
    if (o->dtype != s.dtype || o->shape != s.shape) {
      return Fail(kOp, "antiquant_offset " + std::string(DTypeName(o->dtype)) +
                           " " + o->shape.ToString() +
                           " must have antiquant_scale's dtype and shape");
    }
  }
  if (const TensorRef* b = OptionalInput(in.data(), in.size(), 6)) {
    const bool dtype_ok =
        b->dtype == x.dtype || (bf16 && b->dtype == DType::kFloat32);
    if (!dtype_ok || b->shape.rank != 1 || b->shape.dims[0] != d.n) {
      return Fail(kOp, std::string("bias ") + DTypeName(b->dtype) + " " +
                           b->shape.ToString() + " must be [" +
                           std::to_string(d.n) + "] of x's dtype" +
                           (bf16 ? " or float32" : ""));
    }
  }
  Shape out = x.shape;
  out.dims[out.rank - 1] = d.n;
  err = SetOutput(kOp, ctx, 0, x.dtype, out);
  if (!err.empty()) return err;
  int64_t parts[4];
  int64_t bytes = 0;
  if (!MulBounded(ScratchFloats(d, parts), sizeof(float), &bytes)) {
    return Fail(kOp, "scratch would be too large");
  }
  ctx.scratch_bytes = static_cast<size_t>(bytes);
  return "";
}

namespace {

// One weight row's columns [j0, j0 + nb) as int8 values.
inline void WeightRow(const TensorRef& w, bool int4, int64_t n, int64_t row,
                      int64_t j0, int64_t nb, int8_t* out) {
  if (!int4) {
    std::memcpy(out, w.as<const int8_t>() + row * n + j0,
                static_cast<size_t>(nb));
    return;
  }
  // j0 and nb are multiples of 8 here (kBlockN is, and so is N).
  const int32_t* words = w.as<const int32_t>() + row * (n / 8) + j0 / 8;
  for (int64_t q = 0; q < nb / 8; ++q) {
    const uint32_t word = static_cast<uint32_t>(words[q]);
    for (int i = 0; i < 8; ++i) {
      // Nibble i sign-extended: shift it to the top, arithmetic shift down.
      out[q * 8 + i] =
          static_cast<int8_t>(static_cast<int32_t>(word << (28 - 4 * i)) >> 28);
    }
  }
}

// One weight element.
inline int8_t WeightAt(const TensorRef& w, bool int4, int64_t n, int64_t row,
                       int64_t j) {
  if (!int4) return w.as<const int8_t>()[row * n + j];
  const uint32_t word =
      static_cast<uint32_t>(w.as<const int32_t>()[row * (n / 8) + j / 8]);
  const int i = static_cast<int>(j % 8);
  return static_cast<int8_t>(static_cast<int32_t>(word << (28 - 4 * i)) >> 28);
}

// W' = round(round(w + offset) * scale) for one block of a weight row, in
// x's dtype's rounding (a template, so that each loop is branch-free and
// vectorises).
template <bool kBf16>
inline void DequantScalar(const int8_t* w, int64_t j0, int64_t nb,
                          const float* sc, const float* of, bool per_channel,
                          bool has_offset, float* tile) {
  for (int64_t j = j0; j < nb; ++j) {
    const float s = per_channel ? sc[j] : sc[0];
    const float o = has_offset ? (per_channel ? of[j] : of[0]) : 0.0f;
    tile[j] = Round<kBf16>(Round<kBf16>(w[j] + o) * s);
  }
}

// W' = round(round(w + offset) * scale) for one block of a weight row, in
// x's dtype's rounding, a vector of the build's arch at a time (GNU vector
// extensions; GCC left the scalar form's selects unvectorised: 9 ms for a
// 2048 x 2048 decode product). Without an offset the add is exact (an int8
// is a float16 and a bfloat16), so it is skipped.
template <bool kBf16>
void DequantRow(const int8_t* w, int64_t nb, const float* sc, const float* of,
                bool per_channel, bool has_offset, float* tile) {
  int64_t j = 0;
#if defined(ASCEND_EMU_GNU_VECTORS)
  using gnu_vectors::kLanes;
  using gnu_vectors::Vec;
  auto round = [](Vec v) {
    return kBf16 ? gnu_vectors::RoundToBf16V(v) : gnu_vectors::RoundToHalfV(v);
  };
  const Vec s0 = Vec{} + sc[0];
  const Vec o0 = Vec{} + (has_offset ? of[0] : 0.0f);
  typedef int8_t Bytes __attribute__((vector_size(kLanes)));
  for (; j + kLanes <= nb; j += kLanes) {
    Bytes wb;
    std::memcpy(&wb, w + j, sizeof wb);
    Vec wv = __builtin_convertvector(wb, Vec);
    const Vec s = per_channel ? gnu_vectors::Load(sc + j) : s0;
    if (has_offset) {
      const Vec o = per_channel ? gnu_vectors::Load(of + j) : o0;
      wv = round(wv + o);
    }
    gnu_vectors::Store(tile + j, round(wv * s));
  }
#endif
  DequantScalar<kBf16>(w, j, nb, sc, of, per_channel, has_offset, tile);
}

// Decode (M = 1): acc[j] += x * W'[j] over a whole weight row, the
// dequantized values never stored (the row is read once, contiguously; the
// sums and the scales stay in L1).
template <bool kBf16>
void DequantFma(const int8_t* w, int64_t n, const float* sc, const float* of,
                bool per_channel, bool has_offset, float xv, float* acc) {
  int64_t j = 0;
#if defined(ASCEND_EMU_GNU_VECTORS)
  using gnu_vectors::kLanes;
  using gnu_vectors::Vec;
  auto round = [](Vec v) {
    return kBf16 ? gnu_vectors::RoundToBf16V(v) : gnu_vectors::RoundToHalfV(v);
  };
  typedef int8_t Bytes __attribute__((vector_size(kLanes)));
  const Vec s0 = Vec{} + sc[0];
  const Vec o0 = Vec{} + (has_offset ? of[0] : 0.0f);
  const Vec x = Vec{} + xv;
  for (; j + kLanes <= n; j += kLanes) {
    Bytes wb;
    std::memcpy(&wb, w + j, sizeof wb);
    Vec wv = __builtin_convertvector(wb, Vec);
    const Vec s = per_channel ? gnu_vectors::Load(sc + j) : s0;
    if (has_offset) {
      const Vec o = per_channel ? gnu_vectors::Load(of + j) : o0;
      wv = round(wv + o);
    }
    gnu_vectors::Store(acc + j, gnu_vectors::Load(acc + j) + x * round(wv * s));
  }
#endif
  for (; j < n; ++j) {
    const float s = per_channel ? sc[j] : sc[0];
    const float o = has_offset ? (per_channel ? of[j] : of[0]) : 0.0f;
    acc[j] += xv * Round<kBf16>(Round<kBf16>(w[j] + o) * s);
  }
}

#if defined(ASCEND_EMU_HALF_VECTORS)
#define ASCEND_EMU_WQ_DECODE 1
using gnu_vectors::kLanes;
using gnu_vectors::Mask;
using gnu_vectors::Vec;

// Columns [j, j + kLanes) of an int4 weight row (words: the row's int32s)
// as int32 lanes: nibble i of word q is column 8q + i, sign-extended by
// shifting it to the top and back.
inline Mask Int4Lanes(const int32_t* words, int64_t j) {
#if !defined(__AVX512F__)
  // 8 lanes, one word (j is a multiple of 8): the word in every lane, each
  // lane's nibble shifted to the top.
  static_assert(kLanes == 8);
  const __m256i shift = _mm256_setr_epi32(28, 24, 20, 16, 12, 8, 4, 0);
  const __m256i w = _mm256_set1_epi32(words[j / 8]);
  return gnu_vectors::BitCastV<Mask>(
      _mm256_srai_epi32(_mm256_sllv_epi32(w, shift), 28));
#else
  // 16 lanes, two words (j is a multiple of 16): word j / 8 in lanes 0-7,
  // the next in lanes 8-15 (a per-lane gather loop here took 6x the int8
  // decode's time).
  static_assert(kLanes == 16);
  const __m512i shift = _mm512_setr_epi32(28, 24, 20, 16, 12, 8, 4, 0, 28, 24,
                                          20, 16, 12, 8, 4, 0);
  const __m512i w = _mm512_inserti64x4(
      _mm512_castsi256_si512(_mm256_set1_epi32(words[j / 8])),
      _mm256_set1_epi32(words[j / 8 + 1]), 1);
  return gnu_vectors::BitCastV<Mask>(
      _mm512_srai_epi32(_mm512_sllv_epi32(w, shift), 28));
#endif
}

// Decode for M = kM rows of x (1 to 8): a block of kV vectors of columns at
// a time, its sums in registers, down every row of the weight in order (so
// each sum adds the same terms in the same order as the reference loops);
// each weight vector is dequantized once (widen, + offset, * scale, each
// rounded with the CPU's float16 conversion or the bf16 bit rounding) and
// multiplied into the kM rows' sums. scale and offset are [groups, N].
template <bool kBf16, bool kInt4, bool kOffset, int kM, int kV>
void DecodeBlocks(const void* weight, const WqDims& d, const float* x,
                  const float* scale, const float* offset, float* acc,
                  int64_t j_begin, int64_t j_end) {
  constexpr int64_t kW = kV * kLanes;
  auto round = [](Vec v) {
    return kBf16 ? gnu_vectors::RoundToBf16V(v) : gnu_vectors::RoundToHalfV(v);
  };
  const int64_t n = d.n, k = d.k;
  for (int64_t j0 = j_begin; j0 + kW <= j_end; j0 += kW) {
    Vec sum[kM][kV];
    for (int i = 0; i < kM; ++i)
      for (int v = 0; v < kV; ++v) sum[i][v] = Vec{};
    const int64_t group_size = d.group_size > 0 ? d.group_size : k;
    for (int64_t r = 0; r < k; ++r) {
      const int64_t g = r / group_size;
      const float* sc = scale + g * n + j0;
      const float* of = offset + g * n + j0;
      // The block's bytes of a row kPrefetch rows down: the rows are N
      // apart, a stride the hardware prefetchers follow late.
      constexpr int64_t kPrefetch = 16;
      if (r + kPrefetch < k) {
        const char* ahead = kInt4 ? reinterpret_cast<const char*>(
                                        static_cast<const int32_t*>(weight) +
                                        (r + kPrefetch) * (n / 8) + j0 / 8)
                                  : reinterpret_cast<const char*>(weight) +
                                        (r + kPrefetch) * n + j0;
        __builtin_prefetch(ahead);
        if constexpr (!kInt4 && kW > 64) __builtin_prefetch(ahead + 64);
      }
      Vec xr[kM];
      for (int i = 0; i < kM; ++i) xr[i] = Vec{} + x[i * k + r];
      for (int v = 0; v < kV; ++v) {
        Vec wv;
        if constexpr (kInt4) {
          const int32_t* words =
              static_cast<const int32_t*>(weight) + r * (n / 8);
          wv = __builtin_convertvector(Int4Lanes(words, j0 + v * kLanes), Vec);
        } else {
          wv = gnu_vectors::LoadInt8V(static_cast<const int8_t*>(weight) +
                                      r * n + j0 + v * kLanes);
        }
        if constexpr (kOffset) {
          wv = round(wv + gnu_vectors::Load(of + v * kLanes));
        }
        wv = round(wv * gnu_vectors::Load(sc + v * kLanes));
        for (int i = 0; i < kM; ++i) sum[i][v] = sum[i][v] + xr[i] * wv;
      }
    }
    for (int i = 0; i < kM; ++i)
      for (int v = 0; v < kV; ++v)
        gnu_vectors::Store(acc + i * n + j0 + v * kLanes, sum[i][v]);
  }
}

// Columns [0, N) in blocks of kV vectors, then single vectors; returns the
// first column left (fewer than kLanes).
template <bool kBf16, bool kInt4, bool kOffset, int kM>
int64_t Decode(const void* weight, const WqDims& d, const float* x,
               const float* scale, const float* offset, float* acc) {
  constexpr int kV = kM == 1 ? 8 : kM <= 3 ? 4 : kM <= 6 ? 2 : 1;
  const int64_t wide = d.n / (kV * kLanes) * (kV * kLanes);
  DecodeBlocks<kBf16, kInt4, kOffset, kM, kV>(weight, d, x, scale, offset, acc,
                                              0, wide);
  const int64_t narrow = d.n / kLanes * kLanes;
  DecodeBlocks<kBf16, kInt4, kOffset, kM, 1>(weight, d, x, scale, offset, acc,
                                             wide, narrow);
  return narrow;
}

template <bool kBf16, bool kInt4, bool kOffset>
int64_t DecodeM(const void* weight, const WqDims& d, const float* x,
                const float* scale, const float* offset, float* acc) {
  switch (d.m) {
    case 1:
      return Decode<kBf16, kInt4, kOffset, 1>(weight, d, x, scale, offset, acc);
    case 2:
      return Decode<kBf16, kInt4, kOffset, 2>(weight, d, x, scale, offset, acc);
    case 3:
      return Decode<kBf16, kInt4, kOffset, 3>(weight, d, x, scale, offset, acc);
    case 4:
      return Decode<kBf16, kInt4, kOffset, 4>(weight, d, x, scale, offset, acc);
    default: {
      // 5 to 8 rows: the first 4, then the rest, each pass with its sums in
      // registers (8 rows of sums at once leave no room for a block of
      // columns wide enough to share the row broadcasts: slower).
      Decode<kBf16, kInt4, kOffset, 4>(weight, d, x, scale, offset, acc);
      const float* x4 = x + 4 * d.k;
      float* acc4 = acc + 4 * d.n;
      switch (d.m) {
        case 5:
          return Decode<kBf16, kInt4, kOffset, 1>(weight, d, x4, scale, offset,
                                                  acc4);
        case 6:
          return Decode<kBf16, kInt4, kOffset, 2>(weight, d, x4, scale, offset,
                                                  acc4);
        case 7:
          return Decode<kBf16, kInt4, kOffset, 3>(weight, d, x4, scale, offset,
                                                  acc4);
        default:
          return Decode<kBf16, kInt4, kOffset, 4>(weight, d, x4, scale, offset,
                                                  acc4);
      }
    }
  }
}

// The vector decode for M <= 8; returns the first column it left to the
// reference loops (N when it did them all, 0 when it did none).
int64_t DecodeVector(const void* weight, const WqDims& d, bool bf16,
                     bool has_offset, const float* x, const float* scale,
                     const float* offset, float* acc) {
  if (d.m < 1 || d.m > 8) return 0;
  const int key = (bf16 ? 4 : 0) + (d.int4 ? 2 : 0) + (has_offset ? 1 : 0);
  switch (key) {
    case 0:
      return DecodeM<false, false, false>(weight, d, x, scale, offset, acc);
    case 1:
      return DecodeM<false, false, true>(weight, d, x, scale, offset, acc);
    case 2:
      return DecodeM<false, true, false>(weight, d, x, scale, offset, acc);
    case 3:
      return DecodeM<false, true, true>(weight, d, x, scale, offset, acc);
    case 4:
      return DecodeM<true, false, false>(weight, d, x, scale, offset, acc);
    case 5:
      return DecodeM<true, false, true>(weight, d, x, scale, offset, acc);
    case 6:
      return DecodeM<true, true, false>(weight, d, x, scale, offset, acc);
    default:
      return DecodeM<true, true, true>(weight, d, x, scale, offset, acc);
  }
}
#endif

// Test hook (kernels_test_weight_quant.cc): 0 turns the vector decode off,
// so that the reference loops can be compared with it.
bool g_wq_vector_decode = true;

}  // namespace

void SetWeightQuantVectorDecodeForTest(bool on) { g_wq_vector_decode = on; }

void RunNPUWeightQuantBatchMatmulV2(const RunContext& ctx) {
  const TensorRef* in = ctx.inputs;
  WqDims d;
  GetDims(in, ctx.attrs, &d);
  const bool bf16 = in[0].dtype == DType::kBFloat16;
  int64_t parts[4];
  ScratchFloats(d, parts);
  float* base = static_cast<float*>(ctx.scratch);
  Scratch s;
  s.x = base;
  s.acc = s.x + (parts[0] + 15) / 16 * 16;
  s.scale = s.acc + (parts[1] + 15) / 16 * 16;
  s.offset = s.scale + (parts[2] + 15) / 16 * 16;
  if (d.m == 0 || d.n == 0) return;
  Widen(in[0], d.m * d.k, s.x);
  std::fill(s.acc, s.acc + d.m * d.n, 0.0f);
  // The scale and offset as [groups, N] floats (a scalar spread).
  const int64_t cols = d.n;
  const TensorRef* off = OptionalInput(in, ctx.num_inputs, 3);
  if (d.per_channel) {
    Widen(in[2], d.groups * cols, s.scale);
    if (off != nullptr) Widen(*off, d.groups * cols, s.offset);
  } else {
    Widen(in[2], 1, s.scale);
    std::fill(s.scale + 1, s.scale + d.n, s.scale[0]);
    if (off != nullptr) {
      Widen(*off, 1, s.offset);
      std::fill(s.offset + 1, s.offset + d.n, s.offset[0]);
    }
  }
  d.per_channel = true;

  int64_t done = 0;  // columns [0, done) computed by the vector decode
#if defined(ASCEND_EMU_WQ_DECODE)
  if (g_wq_vector_decode) {
    done = DecodeVector(in[1].data, d, bf16, off != nullptr, s.x, s.scale,
                        s.offset, s.acc);
  }
#endif
  if (done == d.n) {
    // Every column done.
  } else if (done > 0) {
    // The last columns (fewer than a vector): the reference sums.
    for (int64_t i = 0; i < d.m; ++i) {
      for (int64_t j = done; j < d.n; ++j) {
        float sum = 0.0f;
        for (int64_t r = 0; r < d.k; ++r) {
          const int64_t g = d.group_size > 0 ? r / d.group_size : 0;
          const int8_t wv = WeightAt(in[1], d.int4, d.n, r, j);
          const float sc = s.scale[g * cols + j];
          const float o = off != nullptr ? s.offset[g * cols + j] : 0.0f;
          const float w = bf16 ? Round<true>(Round<true>(wv + o) * sc)
                               : Round<false>(Round<false>(wv + o) * sc);
          sum += s.x[i * d.k + r] * w;
        }
        s.acc[i * d.n + j] = sum;
      }
    }
  } else if (d.m == 1 && (!d.int4 || d.n <= kBlockN * 8)) {
    // Decode: whole rows, fused (int4 rows unpacked into a stack row).
    alignas(64) int8_t unpacked[kBlockN * 8];
    for (int64_t r = 0; r < d.k; ++r) {
      const int64_t g = d.group_size > 0 ? r / d.group_size : 0;
      const int8_t* row = in[1].as<const int8_t>() + r * d.n;
      if (d.int4) {
        WeightRow(in[1], true, d.n, r, 0, d.n, unpacked);
        row = unpacked;
      }
      const float* sc = s.scale + g * cols;
      const float* of = s.offset + g * cols;
      if (bf16) {
        DequantFma<true>(row, d.n, sc, of, d.per_channel, off != nullptr,
                         s.x[r], s.acc);
      } else {
        DequantFma<false>(row, d.n, sc, of, d.per_channel, off != nullptr,
                          s.x[r], s.acc);
      }
    }
  } else {
    // Blocks of kBlockN columns: each block of a row dequantized once into
    // the stack, then multiplied into every row of x's sums.
    alignas(64) float tile[kBlockN];
    alignas(64) int8_t wrow[kBlockN];
    for (int64_t j0 = 0; j0 < d.n; j0 += kBlockN) {
      const int64_t nb = std::min(kBlockN, d.n - j0);
      for (int64_t r = 0; r < d.k; ++r) {
        const int64_t g = d.group_size > 0 ? r / d.group_size : 0;
        const float* sc = s.scale + g * cols + (d.per_channel ? j0 : 0);
        const float* of = s.offset + g * cols + (d.per_channel ? j0 : 0);
        WeightRow(in[1], d.int4, d.n, r, j0, nb, wrow);
        if (bf16) {
          DequantRow<true>(wrow, nb, sc, of, d.per_channel, off != nullptr,
                           tile);
        } else {
          DequantRow<false>(wrow, nb, sc, of, d.per_channel, off != nullptr,
                            tile);
        }
        for (int64_t i = 0; i < d.m; ++i) {
          const float xv = s.x[i * d.k + r];
          float* acc = s.acc + i * d.n + j0;
          for (int64_t j = 0; j < nb; ++j) acc[j] += xv * tile[j];
        }
      }
    }
  }
  const TensorRef* bias = OptionalInput(in, ctx.num_inputs, 6);
  for (int64_t i = 0; i < d.m; ++i) {
    float* acc = s.acc + i * d.n;
    if (bias != nullptr) {
      for (int64_t j = 0; j < d.n; ++j)
        acc[j] += bias->dtype == DType::kFloat32 ? Ld<float>(bias->data, j)
                  : bf16                         ? Ld<BFloat16>(bias->data, j)
                                                 : Ld<Half>(bias->data, j);
    }
    if (bf16) {
      BFloat16* y = ctx.outputs[0].as<BFloat16>() + i * d.n;
      for (int64_t j = 0; j < d.n; ++j) y[j] = BFloat16(acc[j]);
    } else {
      Half* y = ctx.outputs[0].as<Half>() + i * d.n;
      for (int64_t j = 0; j < d.n; ++j) y[j] = Half(acc[j]);
    }
  }
}

}  // namespace kernels
}  // namespace ascend_emu
