// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// FusedMatMulInt8: what the emulator's atc makes of CANN's int8 chain
// MatMul | Gemm (int8) [-> Add of an int32 bias] [-> AscendDequant [-> Cast
// to float32] [-> Relu | Clip]] when each step only feeds the next
// (docs/atc.md, "Conv fusions"), as CANN's graph compiler fuses the bias
// and AscendDequant into the cube op's output stage (a quantized encoder's
// Linear layers: MatMul, Add, AscendDequant, Cast, twelve per two layers of
// BERT).
// Inputs: A int8, B int8, C int32 [N] (Gemm's C, or the Add's constant
// bias, optional), deq_scale (uint64 or float16, one, or one per column of
// a [M, N] result; optional: without it, the int32 sums are the output).
// Attributes: `base` ("MatMul" or "Gemm"), the base op's own (Gemm's
// transA, transB, alpha, beta; offset_x), AscendDequant's (sqrt_mode,
// relu_flag, dtype), `to` (10: float16 out; 1: float32, the Cast merged)
// and `activation` (Relu, or Clip with `activation_params` [min, max]).
// The result is bit for bit the unfused chain's: the int8 product runs as
// matmul_int8.cc runs it, into scratch, the bias is added wrapping (as the
// int32 Add), then FusedConvDequant's epilogue pass (conv_int8_epilogue.h,
// AscendDequant's arithmetic) stores it. It saves up to three ops and their
// tensors per layer.
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "conv_int8_epilogue.h"
#include "dequant.h"
#include "kernel_util.h"
#include "matmul_int8.h"
#include "ops.h"

namespace ascend_emu {
namespace kernels {
namespace {

constexpr const char* kOp = "FusedMatMulInt8";

// The attributes that are not the base op's.
constexpr const char* kOwnAttrs[] = {
    "base", "sqrt_mode",  "relu_flag",        "dtype",
    "to",   "activation", "activation_params"};

bool IsGemm(const Attributes& attrs) {
  return std::strcmp(AttrString(attrs, "base", ""), "Gemm") == 0;
}

// The base op's attributes (its Infer refuses any other).
Attributes BaseAttributes(const Attributes& attrs) {
  Attributes base = attrs;
  for (const char* name : kOwnAttrs) base.map().erase(name);
  return base;
}

// The base op's inputs: A, B, and a Gemm's C (a MatMul's bias is added
// after it).
std::vector<TensorRef> BaseInputs(const TensorRef* inputs, size_t n,
                                  bool gemm) {
  std::vector<TensorRef> in = {inputs[0], inputs[1]};
  if (gemm && n > 2 && inputs[2].present()) in.push_back(inputs[2]);
  return in;
}

const TensorRef* Bias(const TensorRef* inputs, size_t n) {
  return n > 2 && inputs[2].present() ? &inputs[2] : nullptr;
}
const TensorRef* DeqScales(const TensorRef* inputs, size_t n) {
  return n > 3 && inputs[3].present() ? &inputs[3] : nullptr;
}

// How the epilogue sees the int32 product: n images of m channels of
// `plane` elements. One scale: one plane of all of it; a scale per channel
// (dim 1, as AscendDequant takes it: the columns of [M, N]): dims[0] of
// dims[1].
void EpilogueGeometry(const Shape& y, int64_t count, int64_t* n, int64_t* m,
                      int64_t* plane) {
  if (count == 1 || y.rank < 2) {
    *n = 1;
    *m = 1;
    *plane = y.numel();
  } else {
    *n = y.dims[0];
    *m = y.dims[1];
    *plane = *n * *m == 0 ? 0 : y.numel() / (*n * *m);
  }
}

// The prepared op: the base op's own (or null) and the scales, read once.
class FusedMatMulInt8Prepared final : public PreparedOp {
 public:
  std::unique_ptr<PreparedOp> base;
  bool gemm = false;
  std::vector<DeqScale> scales;
  bool any_special = false;
  Epilogue epilogue;  // read once: a run reads no attribute
};

}  // namespace

std::string InferFusedMatMulInt8(InferContext& ctx) {
  using K = Attribute::Kind;
  std::string err = CheckInputs(kOp, ctx, 2, 4);
  if (!err.empty()) return err;
  Attributes own;
  for (const char* name : kOwnAttrs) {
    auto it = ctx.attrs.map().find(name);
    if (it != ctx.attrs.map().end()) own.map()[name] = it->second;
  }
  err = CheckAttributes(kOp, own,
                        {{"base", K::kString},
                         {"sqrt_mode", K::kInt},
                         {"relu_flag", K::kInt},
                         {"dtype", K::kInt},
                         {"to", K::kInt},
                         {"activation", K::kString},
                         {"activation_params", K::kFloats}});
  if (!err.empty()) return err;
  const std::string base = AttrString(own, "base", "");
  if (base != "MatMul" && base != "Gemm")
    return Fail(kOp, "base must be MatMul or Gemm, got '" + base + "'");
  const TensorRef* bias = Bias(ctx.inputs.data(), ctx.inputs.size());
  const TensorRef* deq = DeqScales(ctx.inputs.data(), ctx.inputs.size());
  if (deq == nullptr) {
    for (const auto& kv : own.map()) {
      if (kv.first != "base")
        return Fail(kOp, "'" + kv.first + "' without a deq_scale input");
    }
  }
  err = CheckOutputStage(kOp, own);
  if (!err.empty()) return err;
  const int64_t to = AttrInt(own, "to", 10);

  // The int8 product, as the MatMul or Gemm kernel checks it.
  const Attributes base_attrs = BaseAttributes(ctx.attrs);
  const std::vector<TensorRef> base_in =
      BaseInputs(ctx.inputs.data(), ctx.inputs.size(), base == "Gemm");
  std::vector<TensorRef> base_out(1);
  InferContext product{base_attrs, base_in, base_out};
  if (!MatMulIsInt8(base_in))
    return Fail(kOp, "A and B must be int8 (CANN's int8 " + base + ")");
  err = base == "Gemm" ? InferGemmInt8(product) : InferMatMulInt8(product);
  if (!err.empty()) return std::string(kOp) + ": " + err;
  const Shape& sums = base_out[0].shape;
  if (base == "MatMul" && bias != nullptr &&
      (bias->dtype != DType::kInt32 || bias->shape.rank != 1 || sums.rank < 1 ||
       bias->shape.dims[0] != sums.dims[sums.rank - 1])) {
    return Fail(
        kOp, "the bias must be int32 [" +
                 std::to_string(sums.rank < 1 ? 0 : sums.dims[sums.rank - 1]) +
                 "] (one per column of the product), got " +
                 DTypeName(bias->dtype) + " " + bias->shape.ToString());
  }

  err = PrepareOutputs(kOp, ctx, 1);
  if (!err.empty()) return err;
  if (deq == nullptr) {
    err = SetOutput(kOp, ctx, 0, DType::kInt32, sums);
    if (!err.empty()) return err;
    ctx.scratch_bytes = product.scratch_bytes;
    return "";
  }
  // AscendDequant on the sums, as that kernel checks it.
  const std::vector<TensorRef> deq_in = {base_out[0], *deq};
  std::vector<TensorRef> deq_out(1);
  Attributes deq_attrs;
  for (const char* name : {"sqrt_mode", "relu_flag", "dtype"}) {
    auto it = own.map().find(name);
    if (it != own.map().end()) deq_attrs.map()[name] = it->second;
  }
  InferContext dequant{deq_attrs, deq_in, deq_out};
  err = InferAscendDequant(dequant);
  if (!err.empty()) return std::string(kOp) + ": " + err;
  err =
      SetOutput(kOp, ctx, 0, to == 1 ? DType::kFloat32 : DType::kFloat16, sums);
  if (!err.empty()) return err;
  // The int32 sums, then the base op's own scratch.
  ctx.scratch_bytes = Align64(static_cast<size_t>(base_out[0].nbytes())) +
                      product.scratch_bytes;
  return "";
}

std::unique_ptr<PreparedOp> PrepareFusedMatMulInt8(const PrepareContext& ctx) {
  const TensorRef* deq = DeqScales(ctx.inputs.data(), ctx.inputs.size());
  if (deq != nullptr && deq->data == nullptr) return nullptr;  // per run
  auto p = std::make_unique<FusedMatMulInt8Prepared>();
  p->gemm = IsGemm(ctx.attrs);
  if (deq != nullptr) {
    p->epilogue = ReadEpilogue(ctx.attrs, *deq);
    p->scales = ReadDeqScales(*deq, &p->any_special);
  }
  const Attributes base_attrs = BaseAttributes(ctx.attrs);
  const std::vector<TensorRef> base_in =
      BaseInputs(ctx.inputs.data(), ctx.inputs.size(), p->gemm);
  const PrepareContext base{base_attrs, base_in, ctx.outputs};
  p->base = PrepareMatMulInt8(base);
  return p;
}

void RunFusedMatMulInt8(const RunContext& ctx) {
  TensorRef& y = ctx.outputs[0];
  const auto* p = static_cast<const FusedMatMulInt8Prepared*>(ctx.prepared);
  const bool gemm = p != nullptr ? p->gemm : IsGemm(ctx.attrs);
  const TensorRef* bias = Bias(ctx.inputs, ctx.num_inputs);
  const TensorRef* deq = DeqScales(ctx.inputs, ctx.num_inputs);

  // The int8 product: into y without a deq_scale, else the scratch's first
  // part.
  TensorRef acc;
  acc.dtype = DType::kInt32;
  acc.shape = y.shape;
  acc.data = deq == nullptr ? y.data : ctx.scratch;
  const size_t acc_room =
      deq == nullptr ? size_t{0} : Align64(static_cast<size_t>(acc.nbytes()));
  const bool gemm_bias = gemm && bias != nullptr;
  const TensorRef base_in[3] = {ctx.inputs[0], ctx.inputs[1],
                                gemm_bias ? *bias : TensorRef{}};
  // (The base op's Run reads only its own attributes: no copy without ours.)
  const RunContext base{ctx.attrs,
                        base_in,
                        gemm_bias ? size_t{3} : size_t{2},
                        &acc,
                        1,
                        static_cast<unsigned char*>(ctx.scratch) + acc_room,
                        p != nullptr ? p->base.get() : nullptr};
  if (gemm) {
    RunGemmInt8(base);
  } else {
    // The int32 Add in the product's own int32 pass (wrapping, per column).
    RunMatMulInt8(base, bias != nullptr ? bias->as<const int32_t>() : nullptr);
  }
  if (deq == nullptr) return;

  const Epilogue e = p != nullptr ? p->epilogue : ReadEpilogue(ctx.attrs, *deq);
  std::vector<DeqScale> read;
  const DeqScale* scales;
  bool any_special = false;
  const int64_t count = deq->shape.numel();
  if (p != nullptr) {
    scales = p->scales.data();
    any_special = p->any_special;
  } else {
    read = ReadDeqScales(*deq, &any_special);
    scales = read.data();
  }
  int64_t n = 0, m = 0, plane = 0;
  EpilogueGeometry(y.shape, count, &n, &m, &plane);
  ApplyEpilogue(acc.as<const int32_t>(), n, m, plane, scales, count != 1,
                any_special, e, y.data);
}

}  // namespace kernels
}  // namespace ascend_emu
