// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// matmul_int8.h: int8 MatMul and Gemm, int32 out.
#include "matmul_int8.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kernel_util.h"
#include "onednn.h"

namespace ascend_emu {
namespace kernels {
namespace {

using K = Attribute::Kind;

// y [m, n] = (a [m, k] - ox) * op(b) + bias, int32 wrapping sums. The
// two layouts' loops apart, so that the compiler vectorizes each.
void Reference(const int8_t* a, const int8_t* b, bool trans_b,
               const int32_t* bias, int32_t ox, int64_t m, int64_t n, int64_t k,
               int32_t* y) {
  for (int64_t i = 0; i < m; ++i) {
    const int8_t* __restrict ai = a + i * k;
    uint32_t* __restrict yi = reinterpret_cast<uint32_t*>(y + i * n);
    for (int64_t j = 0; j < n; ++j)
      yi[j] = bias != nullptr ? static_cast<uint32_t>(bias[j]) : 0u;
    if (trans_b) {
      // b [n, k]: a dot product per output.
      for (int64_t j = 0; j < n; ++j) {
        const int8_t* __restrict bj = b + j * k;
        uint32_t acc = 0;
        for (int64_t t = 0; t < k; ++t)
          acc += static_cast<uint32_t>((ai[t] - ox) * bj[t]);
        yi[j] += acc;
      }
    } else {
      // b [k, n]: a row of b scaled into the outputs.
      for (int64_t t = 0; t < k; ++t) {
        const int32_t av = ai[t] - ox;
        const int8_t* __restrict bt = b + t * n;
        for (int64_t j = 0; j < n; ++j)
          yi[j] += static_cast<uint32_t>(av * bt[j]);
      }
    }
  }
}

// The exact float path where oneDNN's int8 GEMM is not exact (no VNNI):
// every product (a - ox) * b is an integer of magnitude at most
// 255 * 128 = 32640, so a float32 sum of up to 514 of them is an integer
// below 2^24 at every step, in any order: exact. oneDNN's sgemm over chunks
// of kChunk of K, each chunk's [rows, n] result converted to int32 and
// summed in int32 (wrapping, as the reference loop), on blocks of kRowBlock
// rows of a converted to float. The weight is converted once, at load
// (PrepareMatMulInt8).
constexpr int64_t kChunk = 512;
constexpr int64_t kRowBlock = 256;

// SetMatMulInt8ViaFloatForTest.
bool g_via_float = true;

class MatMulInt8ViaFloat final : public PreparedOp {
 public:
  std::vector<float> b;  // the weight as float, in its own layout
};

// The scratch of the float path: a block of rows of a and its [rows, n]
// float product. False when it would be too large (the path is not taken).
bool ViaFloatScratch(int64_t m, int64_t n, int64_t k, size_t* bytes) {
  const int64_t rows = std::min(m, kRowBlock);
  if (rows * k > kMaxTensorBytes / 4 || rows * n > kMaxTensorBytes / 4)
    return false;
  *bytes = Align64(rows * k * 4) + Align64(rows * n * 4);
  return true;
}

void ViaFloat(const int8_t* a, const float* bf, bool trans_b,
              const int32_t* bias, int32_t ox, int64_t m, int64_t n, int64_t k,
              int32_t* y, void* scratch) {
  const int64_t block = std::min(m, kRowBlock);
  float* af = static_cast<float*>(scratch);
  float* cf = reinterpret_cast<float*>(static_cast<unsigned char*>(scratch) +
                                       Align64(block * k * 4));
  for (int64_t i0 = 0; i0 < m; i0 += block) {
    const int64_t rows = std::min(block, m - i0);
    const int8_t* ab = a + i0 * k;
    for (int64_t i = 0; i < rows * k; ++i)
      af[i] = static_cast<float>(static_cast<int32_t>(ab[i]) - ox);
    uint32_t* yb = reinterpret_cast<uint32_t*>(y + i0 * n);
    for (int64_t k0 = 0; k0 < k; k0 += kChunk) {
      const int64_t kk = std::min(kChunk, k - k0);
      Sgemm(false, trans_b, rows, n, kk, 1.0f, af + k0, k,
            trans_b ? bf + k0 : bf + k0 * n, trans_b ? k : n, 0.0f, cf, n);
      for (int64_t i = 0; i < rows; ++i) {
        uint32_t* yr = yb + i * n;
        const float* cr = cf + i * n;
        if (k0 != 0) {
          for (int64_t j = 0; j < n; ++j)
            yr[j] += static_cast<uint32_t>(static_cast<int32_t>(cr[j]));
        } else if (bias != nullptr) {
          for (int64_t j = 0; j < n; ++j)
            yr[j] = static_cast<uint32_t>(static_cast<int32_t>(cr[j])) +
                    static_cast<uint32_t>(bias[j]);
        } else {
          for (int64_t j = 0; j < n; ++j)
            yr[j] = static_cast<uint32_t>(static_cast<int32_t>(cr[j]));
        }
      }
    }
  }
}

// Products up to this many multiplications take the reference loop, exact
// by definition: a classifier head's [1, 128] x [128, 10] is 1 280 of them,
// which oneDNN's gemm_s8s8s32 takes 15 us over in a model (its per-call
// set-up) and the loop well under 1 us.
constexpr int64_t kSmallProduct = 1 << 15;

// `prepared`: the float weight (or null); `scratch`: ViaFloatScratch bytes.
void Product(const int8_t* a, const int8_t* b, bool trans_b,
             const int32_t* bias, int32_t ox, int64_t m, int64_t n, int64_t k,
             int32_t* y, bool reference, const PreparedOp* prepared,
             void* scratch) {
  if (m == 0 || n == 0) return;
  if (reference || k == 0 || m * n * k <= kSmallProduct) {
    Reference(a, b, trans_b, bias, ox, m, n, k, y);
    return;
  }
  if (OnednnHasExactInt8()) {
    GemmS8S8S32(trans_b, m, n, k, a, k, static_cast<int8_t>(ox), b,
                trans_b ? k : n, y, n, bias);
    return;
  }
  size_t bytes = 0;
  if (prepared != nullptr && ViaFloatScratch(m, n, k, &bytes)) {
    ViaFloat(a, static_cast<const MatMulInt8ViaFloat&>(*prepared).b.data(),
             trans_b, bias, ox, m, n, k, y, scratch);
    return;
  }
  Reference(a, b, trans_b, bias, ox, m, n, k, y);
}

std::string CheckOffsetX(const char* op, const Attributes& attrs) {
  const int64_t ox = AttrInt(attrs, "offset_x", 0);
  if (ox < -128 || ox > 127) {
    return Fail(op, "offset_x " + std::to_string(ox) + " outside [-128, 127]");
  }
  return "";
}

std::string DTypes(const char* op, const std::vector<TensorRef>& in) {
  std::string got;
  bool ok = true;
  for (size_t i = 0; i < in.size(); ++i) {
    if (!in[i].present()) continue;
    const DType want = i < 2 ? DType::kInt8 : DType::kInt32;
    ok = ok && in[i].dtype == want;
    got += (got.empty() ? "" : ", ") + std::string(DTypeName(in[i].dtype));
  }
  if (ok) return "";
  return Fail(op, std::string("int8 ") + op +
                      " needs int8 inputs (and an int32 bias), got " + got +
                      ": int8 and float operands do not mix");
}

}  // namespace

bool MatMulIsInt8(const std::vector<TensorRef>& inputs) {
  for (size_t i = 0; i < inputs.size() && i < 2; ++i) {
    if (inputs[i].present() && inputs[i].dtype == DType::kInt8) return true;
  }
  return false;
}

std::string InferMatMulInt8(InferContext& ctx) {
  const char* op = "MatMul";
  std::string err = CheckInputs(op, ctx, 2, 2);
  if (err.empty())
    err = CheckAttributes(op, ctx.attrs, {{"offset_x", K::kInt}});
  if (err.empty()) err = CheckOffsetX(op, ctx.attrs);
  if (err.empty()) err = PrepareOutputs(op, ctx, 1);
  if (err.empty()) err = DTypes(op, ctx.inputs);
  if (!err.empty()) return err;
  const Shape& a = ctx.inputs[0].shape;
  const Shape& b = ctx.inputs[1].shape;
  if (a.rank < 2 || b.rank != 2) {
    return Fail(op, "int8 MatMul needs x of rank >= 2 and a 2-D weight, got " +
                        a.ToString() + " and " + b.ToString());
  }
  if (a.dims[a.rank - 1] != b.dims[0]) {
    return Fail(op, "shapes " + a.ToString() + " and " + b.ToString() +
                        " are not compatible");
  }
  Shape out = a;
  out.dims[out.rank - 1] = b.dims[1];
  const int64_t k = b.dims[0];
  size_t bytes = 0;
  if (k != 0 && ViaFloatScratch(a.numel() / k, b.dims[1], k, &bytes))
    ctx.scratch_bytes = bytes;
  return SetOutput(op, ctx, 0, DType::kInt32, out);
}

namespace {
void MatMulInt8(const RunContext& ctx, bool reference, const int32_t* bias) {
  const Shape& a = ctx.inputs[0].shape;
  const int64_t k = a.dims[a.rank - 1];
  const int64_t n = ctx.inputs[1].shape.dims[1];
  const int64_t m =
      k == 0 ? ctx.outputs[0].shape.numel() / (n == 0 ? 1 : n) : a.numel() / k;
  Product(ctx.inputs[0].as<const int8_t>(), ctx.inputs[1].as<const int8_t>(),
          false, bias, static_cast<int32_t>(AttrInt(ctx.attrs, "offset_x", 0)),
          m, n, k, ctx.outputs[0].as<int32_t>(), reference, ctx.prepared,
          ctx.scratch);
}

void GemmInt8(const RunContext& ctx, bool reference) {
  const bool trans_b = AttrInt(ctx.attrs, "transB", 0) != 0;
  const Shape& a = ctx.inputs[0].shape;
  const int64_t m = a.dims[0], k = a.dims[1];
  const int64_t n = ctx.outputs[0].shape.dims[1];
  const int32_t* bias = ctx.num_inputs >= 3 && ctx.inputs[2].present()
                            ? ctx.inputs[2].as<const int32_t>()
                            : nullptr;
  Product(ctx.inputs[0].as<const int8_t>(), ctx.inputs[1].as<const int8_t>(),
          trans_b, bias,
          static_cast<int32_t>(AttrInt(ctx.attrs, "offset_x", 0)), m, n, k,
          ctx.outputs[0].as<int32_t>(), reference, ctx.prepared, ctx.scratch);
}
}  // namespace

void Int8Product(const int8_t* a, const int8_t* b, bool trans_b,
                 const int32_t* bias, int64_t m, int64_t n, int64_t k,
                 int32_t* y) {
  Product(a, b, trans_b, bias, 0, m, n, k, y, false, nullptr, nullptr);
}

void RunMatMulInt8(const RunContext& ctx, const int32_t* bias) {
  MatMulInt8(ctx, false, bias);
}
void RunMatMulInt8Reference(const RunContext& ctx) {
  MatMulInt8(ctx, true, nullptr);
}

std::string InferGemmInt8(InferContext& ctx) {
  const char* op = "Gemm";
  std::string err = CheckInputs(op, ctx, 2, 3);
  if (err.empty()) {
    err = CheckAttributes(op, ctx.attrs,
                          {{"alpha", K::kFloat},
                           {"beta", K::kFloat},
                           {"transA", K::kInt},
                           {"transB", K::kInt},
                           {"offset_x", K::kInt}});
  }
  if (err.empty()) err = CheckOffsetX(op, ctx.attrs);
  if (err.empty()) err = PrepareOutputs(op, ctx, 1);
  if (err.empty()) err = DTypes(op, ctx.inputs);
  if (!err.empty()) return err;
  const int64_t trans_b = AttrInt(ctx.attrs, "transB", 0);
  if (AttrInt(ctx.attrs, "transA", 0) != 0 || (trans_b != 0 && trans_b != 1)) {
    return Fail(op, "int8 Gemm needs transA = 0 and transB 0 or 1");
  }
  if (AttrFloat(ctx.attrs, "alpha", 1.0f) != 1.0f ||
      AttrFloat(ctx.attrs, "beta", 1.0f) != 1.0f) {
    return Fail(op, "int8 Gemm needs alpha = beta = 1 (an int32 product)");
  }
  const Shape& a = ctx.inputs[0].shape;
  const Shape& b = ctx.inputs[1].shape;
  if (a.rank != 2 || b.rank != 2) {
    return Fail(op, "A and B must be 2-D, got " + a.ToString() + " and " +
                        b.ToString());
  }
  const int64_t k = a.dims[1];
  const int64_t kb = trans_b ? b.dims[1] : b.dims[0];
  const int64_t n = trans_b ? b.dims[0] : b.dims[1];
  if (k != kb) {
    return Fail(op, "inner dimensions differ: A " + a.ToString() + ", B " +
                        b.ToString() + " (transB=" + std::to_string(trans_b) +
                        ")");
  }
  if (ctx.inputs.size() == 3 && ctx.inputs[2].present()) {
    const Shape& c = ctx.inputs[2].shape;
    if (c.rank != 1 || c.dims[0] != n) {
      return Fail(op, "int8 Gemm's C " + c.ToString() + " must be [" +
                          std::to_string(n) + "] (an int32 bias)");
    }
  }
  size_t bytes = 0;
  if (ViaFloatScratch(a.dims[0], n, k, &bytes)) ctx.scratch_bytes = bytes;
  return SetOutput(op, ctx, 0, DType::kInt32, MakeShape({a.dims[0], n}));
}

void RunGemmInt8(const RunContext& ctx) { GemmInt8(ctx, false); }
void RunGemmInt8Reference(const RunContext& ctx) { GemmInt8(ctx, true); }

std::unique_ptr<PreparedOp> PrepareMatMulInt8(const PrepareContext& ctx) {
  if (!g_via_float || OnednnHasExactInt8()) return nullptr;
  const TensorRef& b = ctx.inputs[1];
  if (b.data == nullptr || b.dtype != DType::kInt8) return nullptr;
  auto p = std::make_unique<MatMulInt8ViaFloat>();
  const int8_t* w = b.as<const int8_t>();
  p->b.assign(w, w + b.shape.numel());
  return p;
}

void SetMatMulInt8ViaFloatForTest(bool on) { g_via_float = on; }

}  // namespace kernels
}  // namespace ascend_emu
