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
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#include "kernel_util.h"
#include "numeric.h"
#include "ops.h"
#include "quant_round.h"

namespace ascend_emu {
namespace kernels {
namespace {

using K = Attribute::Kind;

enum class RoundMode { kRound, kFloor, kCeil, kTrunc };

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

void RunAscendQuant(const RunContext& ctx) {
  const TensorRef& x = ctx.inputs[0];
  const float scale_attr = AttrFloat(ctx.attrs, "scale", 0.0f);
  const float offset_attr = AttrFloat(ctx.attrs, "offset", 0.0f);
  const bool twice = AttrInt(ctx.attrs, "sqrt_mode", 0) != 0;
  RoundMode mode = RoundMode::kRound;
  ParseRoundMode(AttrString(ctx.attrs, "round_mode", "Round"), &mode);
  // The TBE kernel tests the attributes, then makes float16 constants.
  const bool mul = scale_attr != 1.0f;
  const bool add = offset_attr != 0.0f;
  const float scale = RoundToHalf(scale_attr);
  const float offset = RoundToHalf(offset_attr);
  int8_t* y = ctx.outputs[0].as<int8_t>();
  const int64_t n = x.shape.numel();
  if (x.dtype == DType::kFloat16) {
    QuantLoop(x.as<const Half>(), y, n, scale, mul, twice, offset, add, mode);
  } else {
    QuantLoop(x.as<const float>(), y, n, scale, mul, twice, offset, add, mode);
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
  for (int64_t i = 0; i < n; ++i) {
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
  const int64_t inner =
      x.shape.rank == 4 ? x.shape.dims[2] * x.shape.dims[3] : int64_t{1};
  const int64_t outer = n / (channels * inner);
  const bool u64 = d.dtype == DType::kUInt64;
  int64_t i = 0;
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t c = 0; c < channels; ++c) {
      float half_scale = 0.0f;
      uint64_t mant = 0;
      int exp = 0;
      bool neg_scale = false, special = false;
      float scale = 0.0f;
      if (u64) {
        // Bits 31:0: the fp32 scale; 39:32 an offset AMCT leaves 0; the
        // rest (TransQuantParamV2's flags) is not read here.
        uint64_t raw;
        std::memcpy(&raw, d.as<const uint8_t>() + c * 8, 8);
        scale = BitsFloat(static_cast<uint32_t>(raw));
        special = !std::isfinite(scale);
        if (!special && scale != 0.0f) {
          int e2 = 0;
          const float frac = std::frexp(std::fabs(scale), &e2);
          mant = static_cast<uint64_t>(std::ldexp(frac, 24));  // exact
          exp = e2 - 24;
          neg_scale = scale < 0.0f;
        }
      } else {
        half_scale = static_cast<float>(d.as<const Half>()[c]);
      }
      for (int64_t k = 0; k < inner; ++k, ++i) {
        float v;
        if (u64) {
          if (special) {
            v = RoundToHalf(static_cast<float>(px[i]) * scale);
          } else {
            const int64_t xv = px[i];
            const uint64_t mag =
                static_cast<uint64_t>(xv < 0 ? -xv : xv) * mant;
            v = RoundScaledToHalf(mag, exp);
            if ((xv < 0) != neg_scale) v = -v;
          }
        } else {
          v = MulHalf(RoundToHalf(static_cast<float>(px[i])), half_scale);
          if (twice) v = MulHalf(v, half_scale);
        }
        if (relu && v < 0.0f) v = 0.0f;
        y[i] = Half(v);
      }
    }
  }
}

}  // namespace kernels
}  // namespace ascend_emu
