// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// QuantBatchMatMul (CANN's ONNX plugin name, registered for ai.onnx opsets
// 8-16 only; IR QuantBatchMatmulV3, reference/cann-quant.md): the W8A8
// matmul, int8 x int8 with int32 sums and a dequantizing epilogue, as the
// Ascend910B / Ascend910_93 kernels compute it (hicann/ops-nn@e5c3fa9,
// matmul/quant_batch_matmul_v3/op_kernel; the checks of its tiling,
// op_host/op_tiling/quant_batch_matmul_v3_tiling.cpp; the arithmetic of
// its golden, tests/assets/qbmmv3_kernel_golden.py with
// common/tests/st/arch35/matmul_quant_util.py).
//   x1 int8 [..., M, K] ([..., K, M] with transpose_x1), x2 int8 [..., K, N]
//   ([..., N, K] with transpose_x2), ranks 2-6, batch dims broadcast; scale
//   [1] or [N]: uint64 / int64 (fixpipe: bits 31:0 an fp32 scale of which
//   the kernel reads the top 19 bits, bits 45:37 the int9 offset of an int8
//   output, TransQuantParamV2's packing) or float32 / bfloat16 (the vector
//   epilogue); offset refused (the kernel reads the uint64's bits, not
//   this input); bias [N] or [batch, 1, N]: int32 (added to the int32 sums)
//   or bfloat16 / float16 / float32 (added after scaling); pertoken_scale
//   float32 [M]. dtype (the plugin's default 1): 1 float16, 2 int8,
//   27 bfloat16, 3 int32 (scale unused).
//   acc = x1 @ x2 (+ int32 bias), wrapping int32; then in float32:
//     float16 (uint64 scale): fp16(float(acc) * s19)
//     int8: clamp(rint(float(acc) * s19), -256, 255) + offset9, clamped to
//       [-128, 127] (ties to even; NaN -> 0, not verified)
//     bfloat16 / pertoken: v = float(acc) * scale [* pertoken[m]]
//       [+ float bias], rounded once to y (ties to even)
//     int32: acc.
// The int32 product is the int8 MatMul's (matmul_int8.h). The batch
// mapping is the kernel's: batch c of the output reads x1's batch
// c mod batch(x1) (quant_batch_matmul_v3.h, CalcOffset), the same as
// numpy's broadcasting when each input's batch is 1 or the output's; other
// broadcasts are refused as not emulated.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#include "kernel_util.h"
#include "matmul_int8.h"
#include "numeric.h"
#include "ops.h"
#include "quant_round.h"

namespace ascend_emu {
namespace kernels {
namespace {

constexpr const char* kOp = "QuantBatchMatMul";
using K = Attribute::Kind;

// ge::DataType codes of the `dtype` attribute.
constexpr int64_t kGeFloat16 = 1;
constexpr int64_t kGeInt8 = 2;
constexpr int64_t kGeInt32 = 3;
constexpr int64_t kGeBf16 = 27;
// The tiling's bound on x1's and x2's last dims (LAST_AXIS_LIMIT).
constexpr int64_t kLastAxisLimit = 65535;
constexpr int64_t kMaxDim = 2147483647;  // INT32_MAX

enum Input { kX1 = 0, kX2, kScale, kOffset, kBias, kPertoken };

struct Dims {
  int64_t m = 0, k = 0, n = 0;
  int64_t batch = 1, batch1 = 1, batch2 = 1;
  bool trans1 = false, trans2 = false;
};

int64_t Batch(const Shape& s) {
  int64_t b = 1;
  for (int32_t i = 0; i + 2 < s.rank; ++i) b *= s.dims[i];
  return b;
}

Dims GetDims(const TensorRef* in, const Attributes& attrs) {
  Dims d;
  const Shape& a = in[kX1].shape;
  const Shape& b = in[kX2].shape;
  d.trans1 = AttrInt(attrs, "transpose_x1", 0) == 1;
  d.trans2 = AttrInt(attrs, "transpose_x2", 0) == 1;
  d.m = a.dims[a.rank - (d.trans1 ? 1 : 2)];
  d.k = a.dims[a.rank - (d.trans1 ? 2 : 1)];
  d.n = b.dims[b.rank - (d.trans2 ? 2 : 1)];
  d.batch1 = Batch(a);
  d.batch2 = Batch(b);
  return d;
}

bool IsFloatScale(DType t) {
  return t == DType::kFloat32 || t == DType::kBFloat16;
}
bool IsPackedScale(DType t) {
  return t == DType::kUInt64 || t == DType::kInt64;
}

// The dtype combinations of the Ascend910B tiling
// (CheckDtypeOnOnlyL0c2outForUnclassified / ForPertoken).
std::string CheckDtypes(DType y, DType scale, const TensorRef* bias,
                        bool pertoken) {
  const DType b = bias != nullptr ? bias->dtype : DType::kInt32;
  const std::string ys = DTypeName(y);
  if (bias != nullptr && b == DType::kBFloat16 && y != DType::kBFloat16)
    return "a bfloat16 bias needs a bfloat16 output, got " + ys;
  if (scale == DType::kBFloat16 && y != DType::kBFloat16 && y != DType::kInt32)
    return "a bfloat16 scale needs a bfloat16 or int32 output, got " + ys;
  if (y == DType::kBFloat16 && !IsFloatScale(scale))
    return "a bfloat16 output needs a float32 or bfloat16 scale, got " +
           std::string(DTypeName(scale));
  if (y == DType::kInt8 && !IsPackedScale(scale))
    return "an int8 output needs a uint64 or int64 scale, got " +
           std::string(DTypeName(scale));
  if (y == DType::kInt32 && b != DType::kInt32)
    return "an int32 output needs an int32 bias, got " +
           std::string(DTypeName(b));
  if (y == DType::kInt32 && !IsFloatScale(scale))
    return "an int32 output needs a float32 or bfloat16 scale, got " +
           std::string(DTypeName(scale));
  if (pertoken) {
    if (b == DType::kFloat16 && y != DType::kFloat16)
      return "a float16 bias with pertoken_scale needs a float16 output";
    if (y != DType::kFloat16 && y != DType::kBFloat16)
      return "pertoken_scale needs a float16 or bfloat16 output, got " + ys;
    if (y == DType::kFloat16 && scale != DType::kFloat32)
      return "a float16 output with pertoken_scale needs a float32 scale, "
             "got " +
             std::string(DTypeName(scale));
  } else {
    if (b == DType::kFloat16) return "a float16 bias needs pertoken_scale";
    if (b == DType::kFloat32 && y != DType::kBFloat16)
      return "a float32 bias without pertoken_scale needs a bfloat16 output, "
             "got " +
             ys;
    if ((y == DType::kInt8 || y == DType::kFloat16) && scale == DType::kFloat32)
      return "output " + ys +
             " without pertoken_scale needs a uint64 or "
             "int64 scale, got float32";
  }
  return "";
}

std::string CheckShapes(const std::vector<TensorRef>& in, const Dims& d,
                        bool last_axis_exempt, Shape* out) {
  const Shape& a = in[kX1].shape;
  const Shape& b = in[kX2].shape;
  for (const Shape* s : {&a, &b}) {
    const char* name = s == &a ? "x1" : "x2";
    if (s->rank < 2 || s->rank > 6)
      return std::string(name) + " must have rank 2 to 6, got " + s->ToString();
    for (int32_t i = 0; i < s->rank; ++i) {
      if (s->dims[i] < 1 || s->dims[i] > kMaxDim)
        return std::string(name) + " dims must be in [1, 2147483647], got " +
               s->ToString();
    }
    if (!last_axis_exempt && s->dims[s->rank - 1] > kLastAxisLimit)
      return std::string(name) + "'s last dim may not exceed 65535, got " +
             s->ToString();
  }
  const int64_t kb = b.dims[b.rank - (d.trans2 ? 1 : 2)];
  if (kb != d.k)
    return "K of x1 (" + std::to_string(d.k) + ") and of x2 (" +
           std::to_string(kb) + ") differ";
  // Batch dims: numpy's broadcast (the tiling's InferOutBatchDim).
  Shape ba = a, bb = b, bc;
  ba.rank -= 2;
  bb.rank -= 2;
  if (!BroadcastShapes(ba, bb, &bc))
    return "batch dims of x1 " + a.ToString() + " and x2 " + b.ToString() +
           " do not broadcast";
  const int64_t batch = bc.numel();
  if ((d.batch1 != 1 && d.batch1 != batch) ||
      (d.batch2 != 1 && d.batch2 != batch)) {
    return "batch dims of x1 " + a.ToString() + " and x2 " + b.ToString() +
           " broadcast both ways, which is not emulated (the kernel maps an "
           "output batch c to input batch c mod batch(input))";
  }
  *out = bc;
  out->rank += 2;
  out->dims[out->rank - 2] = d.m;
  out->dims[out->rank - 1] = d.n;
  return "";
}

std::string CheckOperands(const std::vector<TensorRef>& in, const Dims& d,
                          int64_t batch) {
  const TensorRef& scale = in[kScale];
  if (scale.shape.rank != 1 ||
      (scale.shape.dims[0] != 1 && scale.shape.dims[0] != d.n)) {
    return "scale must be [1] or [" + std::to_string(d.n) + "], got " +
           scale.shape.ToString() +
           (scale.shape.rank == 2 ? " (a 2-D scale is not emulated)" : "");
  }
  const TensorRef* bias = OptionalInput(in.data(), in.size(), kBias);
  if (bias != nullptr) {
    const Shape& s = bias->shape;
    const bool ok = (s.rank == 1 && s.dims[0] == d.n) ||
                    (s.rank == 3 && s.dims[0] == batch && s.dims[1] == 1 &&
                     s.dims[2] == d.n);
    if (!ok) {
      return "bias must be [" + std::to_string(d.n) + "] or [" +
             std::to_string(batch) + ", 1, " + std::to_string(d.n) + "], got " +
             s.ToString();
    }
  }
  const TensorRef* pt = OptionalInput(in.data(), in.size(), kPertoken);
  if (pt != nullptr && (pt->shape.rank != 1 || pt->shape.dims[0] != d.m)) {
    return "pertoken_scale must be [" + std::to_string(d.m) + "], got " +
           pt->shape.ToString();
  }
  return "";
}

DType OutputDType(int64_t code) {
  switch (code) {
    case kGeFloat16:
      return DType::kFloat16;
    case kGeInt8:
      return DType::kInt8;
    case kGeInt32:
      return DType::kInt32;
    case kGeBf16:
      return DType::kBFloat16;
    default:
      return DType::kFloat32;  // refused by Infer
  }
}

// The scratch: the int32 sums of one batch [M, N], then x1's batch
// transposed to [M, K] when transpose_x1.
// Fixpipe's reading of a packed scale (TransQuantParamV2's layout): bits
// 31:0 an fp32 of which the top 19 bits count (sign, exponent, 10 bits of
// mantissa; the golden's u64_to_deq_scale), bits 45:37 an int9 offset.
struct Packed {
  float scale;
  int32_t offset;
};

Packed ReadPacked(const TensorRef& t, int64_t j) {
  uint64_t raw;
  std::memcpy(&raw, t.as<const uint8_t>() + j * 8, 8);
  Packed p;
  p.scale = BitsFloat(static_cast<uint32_t>(raw) & 0xFFFFE000u);
  const int32_t o9 = static_cast<int32_t>((raw >> 37) & 0x1FF);
  p.offset = o9 >= 256 ? o9 - 512 : o9;
  return p;
}

float ReadFloat(const TensorRef& t, int64_t j) {
  switch (t.dtype) {
    case DType::kFloat16:
      return Load(t.as<const Half>()[j]);
    case DType::kBFloat16:
      return Load(t.as<const BFloat16>()[j]);
    default:
      return t.as<const float>()[j];
  }
}

// rint(v) clamped to the int9 range [-256, 255] (f32_2_s9), NaN as 0.
int32_t RoundS9(float v) {
  if (std::isnan(v)) return 0;
  const float r = std::nearbyint(v);  // ties to even (the default mode)
  return static_cast<int32_t>(r < -256.0f ? -256.0f : r > 255.0f ? 255.0f : r);
}

}  // namespace

std::string InferQuantBatchMatMul(InferContext& ctx) {
  std::string err = CheckInputs(kOp, ctx, 3, 6);
  if (err.empty()) {
    err = CheckAttributes(kOp, ctx.attrs,
                          {{"dtype", K::kInt},
                           {"transpose_x1", K::kInt},
                           {"transpose_x2", K::kInt}});
  }
  if (err.empty()) err = PrepareOutputs(kOp, ctx, 1);
  if (!err.empty()) return err;
  for (const char* flag : {"transpose_x1", "transpose_x2"}) {
    const int64_t v = AttrInt(ctx.attrs, flag, 0);
    if (v != 0 && v != 1)
      return Fail(
          kOp, std::string(flag) + " must be 0 or 1, got " + std::to_string(v));
  }
  const std::vector<TensorRef>& in = ctx.inputs;
  if (in[kX1].dtype != DType::kInt8 || in[kX2].dtype != DType::kInt8) {
    return Fail(kOp, "x1 and x2 must be int8, got " +
                         std::string(DTypeName(in[kX1].dtype)) + " and " +
                         DTypeName(in[kX2].dtype) + " (int4 is not emulated)");
  }
  const int64_t code = AttrInt(ctx.attrs, "dtype", kGeFloat16);
  const DType y = OutputDType(code);
  if (y == DType::kFloat32) {
    return Fail(kOp, "dtype " + std::to_string(code) +
                         " is not an output CANN's Ascend910B kernel writes "
                         "(1 float16, 2 int8, 3 int32, 27 bfloat16)");
  }
  const DType scale = in[kScale].dtype;
  if (!IsFloatScale(scale) && !IsPackedScale(scale))
    return Fail(kOp, "scale " + DTypeRefusal(scale,
                                             "uint64, int64, float32 or "
                                             "bfloat16"));
  if (OptionalInput(in.data(), in.size(), kOffset) != nullptr) {
    return Fail(kOp,
                "an offset input is not emulated: the Ascend910B kernel "
                "(BmmDequant) reads an int8 output's offset from the "
                "uint64 scale's bits 45:37, not from this input");
  }
  const TensorRef* bias = OptionalInput(in.data(), in.size(), kBias);
  if (bias != nullptr && bias->dtype != DType::kInt32 &&
      bias->dtype != DType::kBFloat16 && bias->dtype != DType::kFloat16 &&
      bias->dtype != DType::kFloat32) {
    return Fail(kOp, "bias " + DTypeRefusal(bias->dtype,
                                            "int32, bfloat16, float16 or "
                                            "float32"));
  }
  const TensorRef* pt = OptionalInput(in.data(), in.size(), kPertoken);
  if (pt != nullptr && pt->dtype != DType::kFloat32)
    return Fail(kOp, "pertoken_scale " + DTypeRefusal(pt->dtype, "float32"));
  err = CheckDtypes(y, scale, bias, pt != nullptr);
  if (!err.empty()) return Fail(kOp, err);

  if (in[kX1].shape.rank < 2 || in[kX2].shape.rank < 2) {
    return Fail(kOp, "x1 and x2 must have rank 2 to 6, got " +
                         in[kX1].shape.ToString() + " and " +
                         in[kX2].shape.ToString());
  }
  const Dims d = GetDims(in.data(), ctx.attrs);
  // The tiling lets the last dims pass 65535 on Ascend910B only for the
  // pertoken form with a float scale of one dim (CheckShapeInBoundary).
  const bool exempt =
      pt != nullptr && IsFloatScale(scale) && in[kScale].shape.rank == 1;
  Shape out;
  err = CheckShapes(in, d, exempt, &out);
  if (err.empty()) err = CheckOperands(in, d, Batch(out));
  if (!err.empty()) return Fail(kOp, err);
  err = SetOutput(kOp, ctx, 0, y, out);
  if (!err.empty()) return err;
  int64_t acc_bytes = 0, x1_bytes = 0;
  if (!MulBounded(d.m, d.n * 4, &acc_bytes) ||
      !MulBounded(d.m, d.k, &x1_bytes)) {
    return Fail(kOp, "scratch of [" + std::to_string(d.m) + ", " +
                         std::to_string(d.n) + "] sums is too large");
  }
  ctx.scratch_bytes = Align64(acc_bytes) + (d.trans1 ? Align64(x1_bytes) : 0);
  return "";
}

void RunQuantBatchMatMul(const RunContext& ctx) {
  const TensorRef* in = ctx.inputs;
  Dims d = GetDims(in, ctx.attrs);
  const TensorRef& yt = ctx.outputs[0];
  const int64_t batch = Batch(yt.shape);
  const TensorRef& scale = in[kScale];
  const TensorRef* bias = OptionalInput(in, ctx.num_inputs, kBias);
  const TensorRef* pt = OptionalInput(in, ctx.num_inputs, kPertoken);
  const bool int_bias = bias != nullptr && bias->dtype == DType::kInt32;
  const bool bias3 = bias != nullptr && bias->shape.rank == 3;
  const bool per_tensor = scale.shape.dims[0] == 1;
  const int64_t m = d.m, n = d.n, k = d.k;
  int32_t* acc = static_cast<int32_t*>(ctx.scratch);
  int8_t* x1t = reinterpret_cast<int8_t*>(
      static_cast<unsigned char*>(ctx.scratch) + Align64(m * n * 4));
  const int8_t* x1 = in[kX1].as<const int8_t>();
  const int8_t* x2 = in[kX2].as<const int8_t>();
  for (int64_t c = 0; c < batch; ++c) {
    const int8_t* a = x1 + (c % d.batch1) * m * k;
    if (d.trans1) {  // [K, M] -> [M, K]
      for (int64_t i = 0; i < m; ++i)
        for (int64_t t = 0; t < k; ++t) x1t[i * k + t] = a[t * m + i];
      a = x1t;
    }
    const int8_t* b = x2 + (c % d.batch2) * k * n;
    const int64_t brow = bias3 ? c * n : 0;
    const int32_t* ib = int_bias ? bias->as<const int32_t>() + brow : nullptr;
    Int8Product(a, b, d.trans2, ib, m, n, k, acc);
    const int64_t base = c * m * n;
    switch (yt.dtype) {
      case DType::kInt32:
        std::memcpy(yt.as<int32_t>() + base, acc,
                    static_cast<size_t>(m * n) * 4);
        break;
      case DType::kInt8:
        for (int64_t j = 0; j < n; ++j) {
          const Packed p = ReadPacked(scale, per_tensor ? 0 : j);
          for (int64_t i = 0; i < m; ++i) {
            const float v = static_cast<float>(acc[i * n + j]) * p.scale;
            int32_t r = RoundS9(v) + p.offset;
            r = r < -128 ? -128 : r > 127 ? 127 : r;
            yt.as<int8_t>()[base + i * n + j] = static_cast<int8_t>(r);
          }
        }
        break;
      default: {  // float16, bfloat16
        const bool bf16 = yt.dtype == DType::kBFloat16;
        const bool packed = IsPackedScale(scale.dtype);
        for (int64_t i = 0; i < m; ++i) {
          const float tok = pt != nullptr ? pt->as<const float>()[i] : 1.0f;
          for (int64_t j = 0; j < n; ++j) {
            const int64_t sj = per_tensor ? 0 : j;
            const float s =
                packed ? ReadPacked(scale, sj).scale : ReadFloat(scale, sj);
            float v = static_cast<float>(acc[i * n + j]) * s;
            if (pt != nullptr) v = v * tok;
            if (bias != nullptr && !int_bias)
              v = v + ReadFloat(*bias, brow + j);
            const int64_t o = base + i * n + j;
            if (bf16) {
              yt.as<BFloat16>()[o] = BFloat16(RoundToBf16(v));
            } else {
              yt.as<Half>()[o] = Half(RoundToHalf(v));
            }
          }
        }
      }
    }
  }
}

}  // namespace kernels
}  // namespace ascend_emu
