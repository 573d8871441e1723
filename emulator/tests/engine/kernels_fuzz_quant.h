// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Random inputs for CANN's quantization kernels (quant.cc) in
// kernels_test_fuzz.cc: int8, int32 and uint64 operands of near-valid
// shapes, with the odd wrong dtype.
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "kernels_test_util.h"

namespace ascend_emu {
namespace testing {

template <typename F>
Shape QuantFuzzShape(F& f, int max_rank) {
  Shape s;
  s.rank = static_cast<int32_t>(f.Int(0, max_rank));
  for (int32_t i = 0; i < s.rank; ++i) s.dims[i] = f.Coin(5) ? 0 : f.Int(1, 5);
  return s;
}

template <typename T, typename F>
HostTensor QuantFuzzTensor(F& f, DType dtype, const Shape& s, int64_t lo,
                           int64_t hi) {
  std::vector<T> v(static_cast<size_t>(s.numel()));
  for (T& x : v) x = static_cast<T>(f.Int(lo, hi));
  return HostTensor::Of(dtype, s, v);
}

// True (and *in filled) for the quantization ops.
template <typename F>
bool QuantFuzzInputs(F& f, const std::string& op, std::vector<HostTensor>* in) {
  if (op == "AscendQuant") {
    const Shape s = QuantFuzzShape(f, 4);
    if (f.Coin(70)) {
      in->push_back(RandF32(s, static_cast<uint32_t>(f.Int(0, 1 << 30))));
    } else {
      std::vector<Eigen::half> v(static_cast<size_t>(s.numel()));
      for (auto& x : v) x = Eigen::half(static_cast<float>(f.Int(-300, 300)));
      in->push_back(HostTensor::Of(DType::kFloat16, s, v));
    }
    return true;
  }
  if (op == "AscendAntiQuant") {
    const Shape s = QuantFuzzShape(f, 4);
    in->push_back(f.Coin(85)
                      ? QuantFuzzTensor<int8_t>(f, DType::kInt8, s, -128, 127)
                      : RandF32(s, 3));
    return true;
  }
  if (op == "FusedConvDequant") {
    // The int8 Conv's X and W (near-valid, as below), a deq_scale of one
    // element or one per output channel (now and then of another size),
    // then B or not.
    Shape x;
    x.rank = f.Coin(90) ? 4 : 3;
    for (int32_t i = 0; i < x.rank; ++i) x.dims[i] = f.Int(i < 2 ? 0 : 1, 6);
    in->push_back(QuantFuzzTensor<int8_t>(f, DType::kInt8, x, -128, 127));
    Shape w = x;
    w.dims[0] = f.Int(0, 4);
    w.dims[1] = f.Coin(80) ? x.dims[1] : f.Int(0, 4);
    for (int32_t i = 2; i < w.rank; ++i) w.dims[i] = f.Int(1, 3);
    in->push_back(f.Coin(95)
                      ? QuantFuzzTensor<int8_t>(f, DType::kInt8, w, -128, 127)
                      : RandF32(w, 4));
    const int64_t count = f.Coin(40) ? 1 : f.Coin(85) ? w.dims[0] : f.Int(0, 5);
    std::vector<uint64_t> v(static_cast<size_t>(count));
    for (auto& d : v) {
      d = Eigen::numext::bit_cast<uint32_t>(
          static_cast<float>(f.Int(-100, 100)) / 1000);
    }
    in->push_back(f.Coin(90) ? HostTensor::Of(DType::kUInt64, S({count}), v)
                             : RandF32(S({count}), 5));
    in->push_back(f.Coin() ? QuantFuzzTensor<int32_t>(
                                 f, DType::kInt32, S({w.dims[0]}), -1000, 1000)
                           : HostTensor::Absent());
    return true;
  }
  if (op == "FusedMatMulInt8") {
    // A [.., M, K] and B [K, N] int8 (near-valid: now and then another K or
    // a float B), a bias of N int32 or none, then a deq_scale of one or N
    // elements (now and then another count) or none.
    Shape a;
    a.rank = static_cast<int32_t>(f.Int(2, 3));
    for (int32_t i = 0; i < a.rank; ++i) a.dims[i] = f.Int(0, 6);
    in->push_back(QuantFuzzTensor<int8_t>(f, DType::kInt8, a, -128, 127));
    const int64_t k = f.Coin(90) ? a.dims[a.rank - 1] : f.Int(0, 4);
    const int64_t n = f.Int(0, 6);
    in->push_back(f.Coin(95) ? QuantFuzzTensor<int8_t>(f, DType::kInt8,
                                                       S({k, n}), -128, 127)
                             : RandF32(S({k, n}), 4));
    in->push_back(f.Coin(60)
                      ? QuantFuzzTensor<int32_t>(
                            f, DType::kInt32, S({f.Coin(90) ? n : f.Int(0, 5)}),
                            -1000, 1000)
                      : HostTensor::Absent());
    if (f.Coin(80)) {
      const int64_t count = f.Coin(50) ? 1 : f.Coin(85) ? n : f.Int(0, 5);
      std::vector<uint64_t> v(static_cast<size_t>(count));
      for (auto& d : v) {
        d = Eigen::numext::bit_cast<uint32_t>(
            static_cast<float>(f.Int(-100, 100)) / 1000);
      }
      in->push_back(HostTensor::Of(DType::kUInt64, S({count}), v));
    }
    return true;
  }
  if (op == "AscendDequant") {
    const Shape s = QuantFuzzShape(f, 4);
    in->push_back(f.Coin(90) ? QuantFuzzTensor<int32_t>(f, DType::kInt32, s,
                                                        -100000, 100000)
                             : RandF32(s, 3));
    Shape d;
    d.rank = 1;
    d.dims[0] = f.Coin(40) || s.rank < 2 ? 1
                : f.Coin(80)             ? s.dims[1]
                                         : f.Int(0, 5);
    if (f.Coin(70)) {
      std::vector<uint64_t> v(static_cast<size_t>(d.numel()));
      for (auto& x : v) {
        x = (static_cast<uint64_t>(f.Int(0, 1 << 20)) << 40) |
            Eigen::numext::bit_cast<uint32_t>(
                static_cast<float>(f.Int(-100, 100)) / 1000);
      }
      in->push_back(HostTensor::Of(DType::kUInt64, d, v));
    } else {
      std::vector<Eigen::half> v(static_cast<size_t>(d.numel()));
      for (auto& x : v) x = Eigen::half(static_cast<float>(f.Int(-9, 9)) / 8);
      in->push_back(HostTensor::Of(DType::kFloat16, d, v));
    }
    return true;
  }
  if (op == "NPUDynamicQuant") {
    // x [.., K] float16 or bfloat16 (a float32 now and then), smooth [K]
    // or a near miss, group_index now and then.
    const int64_t k = f.Int(0, 9);
    const bool bf16 = f.Coin(30);
    auto half = [&](const Shape& s) {
      std::vector<Eigen::half> v(static_cast<size_t>(s.numel()));
      for (auto& x : v) x = Eigen::half(static_cast<float>(f.Int(-9, 9)) / 8);
      HostTensor t = HostTensor::Of(DType::kFloat16, s, v);
      if (bf16) t.dtype = DType::kBFloat16;  // (any bytes will do here)
      return t;
    };
    in->push_back(f.Coin(10) ? f.RandomTensor(3)
                             : half(f.Coin() ? S({f.Int(0, 3), k})
                                             : S({2, f.Int(0, 2), k})));
    if (f.Coin(50)) in->push_back(half(f.Coin(85) ? S({k}) : S({k + 1})));
    if (f.Coin(10)) {
      if (in->size() == 1) in->push_back(HostTensor::Absent());
      in->push_back(
          HostTensor::Of(DType::kInt32, S({1}), std::vector<int32_t>{1}));
    }
    return true;
  }
  if (op == "QuantBatchMatMul") {
    // x1 [.., M, K] and x2 [.., K, N] int8 (transposed or not: the
    // attributes are drawn apart, so K often misses), rank 2-3 now and then
    // 1; a scale of each dtype, [1] or [N] or a near miss; an offset now
    // and then; a bias of each dtype, [N] or [B, 1, N]; pertoken [M].
    const int64_t m = f.Int(0, 4), k = f.Int(0, 5), n = f.Int(0, 4);
    const int64_t b1 = f.Coin(30) ? f.Int(1, 2) : 0,
                  b2 = f.Coin(30) ? f.Int(1, 2) : 0;
    auto mat = [&](int64_t batch, int64_t r, int64_t c) {
      Shape s = batch > 0 ? S({batch, r, c}) : S({r, c});
      if (f.Coin(5)) s = S({r});
      if (f.Coin(50))
        std::swap(s.dims[s.rank - 1], s.dims[s.rank > 1 ? s.rank - 2 : 0]);
      return QuantFuzzTensor<int8_t>(f, DType::kInt8, s, -128, 127);
    };
    in->push_back(f.Coin(5) ? f.RandomTensor(2) : mat(b1, m, k));
    in->push_back(mat(b2, k, n));
    const DType scale_types[] = {DType::kUInt64, DType::kInt64, DType::kFloat32,
                                 DType::kBFloat16, DType::kInt32};
    const DType st = scale_types[f.Int(0, 4)];
    const Shape ss = f.Coin(80) ? (f.Coin() ? S({1}) : S({n})) : S({1, n});
    HostTensor scale = QuantFuzzTensor<int8_t>(f, DType::kInt8, ss, 0, 127);
    scale.dtype = st;  // (the bytes need no meaning: sized below)
    scale.bytes.resize(static_cast<size_t>(ss.numel()) * DTypeSize(st));
    in->push_back(scale);
    in->push_back(f.Coin(5) ? RandF32(S({1}), 3) : HostTensor::Absent());
    const DType bias_types[] = {DType::kInt32, DType::kBFloat16,
                                DType::kFloat16, DType::kFloat32};
    if (f.Coin(60)) {
      const DType bt = bias_types[f.Int(0, 3)];
      const int64_t batch = std::max<int64_t>({b1, b2, 1});
      const Shape bs = f.Coin(70) ? S({n})
                       : f.Coin() ? S({batch, 1, n})
                                  : S({n + 1});
      HostTensor bias = QuantFuzzTensor<int8_t>(f, DType::kInt8, bs, -9, 9);
      bias.dtype = bt;
      bias.bytes.resize(static_cast<size_t>(bs.numel()) * DTypeSize(bt));
      in->push_back(bias);
    } else {
      in->push_back(HostTensor::Absent());
    }
    if (f.Coin(40)) in->push_back(RandF32(f.Coin(80) ? S({m}) : S({m + 1}), 5));
    return true;
  }
  if (op == "NPUWeightQuantBatchMatmulV2") {
    const int64_t m = f.Int(0, 3), k = f.Coin(30) ? 64 : f.Int(0, 9),
                  n8 = f.Int(0, 3);
    const bool bf16 = f.Coin(30);
    const DType dt = bf16 ? DType::kBFloat16 : DType::kFloat16;
    auto half = [&](const Shape& s) {
      std::vector<Eigen::half> v(static_cast<size_t>(s.numel()));
      for (auto& x : v) x = Eigen::half(static_cast<float>(f.Int(-9, 9)) / 8);
      HostTensor t = HostTensor::Of(DType::kFloat16, s, v);
      t.dtype = dt;  // (the bytes of a bf16 tensor need no meaning here)
      return t;
    };
    in->push_back(half(S({m, k})));
    const bool int4 = f.Coin(40);
    const int64_t n = int4 ? n8 * 8 : f.Int(0, 20);
    in->push_back(
        int4 ? QuantFuzzTensor<int32_t>(f, DType::kInt32, S({k, n8}),
                                        -(1 << 30), 1 << 30)
             : QuantFuzzTensor<int8_t>(f, DType::kInt8, S({k, n}), -128, 127));
    const bool grouped = k == 64 && f.Coin(50);
    const Shape ss = grouped ? S({2, n}) : f.Coin() ? S({1}) : S({n});
    in->push_back(half(f.Coin(90) ? ss : S({n + 1})));
    in->push_back(f.Coin() ? half(ss) : HostTensor::Absent());
    in->push_back(HostTensor::Absent());
    in->push_back(f.Coin(5) ? half(ss) : HostTensor::Absent());
    in->push_back(f.Coin() ? half(S({n})) : HostTensor::Absent());
    return true;
  }
  if ((op == "Conv" || op == "MatMul" || op == "Gemm") && f.Coin(25)) {
    // The int8 forms (conv_int8.h, matmul_int8.h), now and then a float
    // operand among them.
    Shape x = QuantFuzzShape(f, op == "Conv" ? 4 : 3);
    if (op == "Conv" && f.Coin(80)) x.rank = 4;
    for (int32_t i = 0; i < x.rank; ++i) x.dims[i] = f.Int(i < 2 ? 0 : 1, 6);
    in->push_back(QuantFuzzTensor<int8_t>(f, DType::kInt8, x, -128, 127));
    Shape w = x;
    if (op == "Conv") {
      w.dims[0] = f.Int(0, 4);
      w.dims[1] = f.Coin(70) && x.rank > 1 ? x.dims[1] : f.Int(0, 4);
      for (int32_t i = 2; i < w.rank; ++i) w.dims[i] = f.Int(1, 3);
    } else {
      w.rank = 2;
      w.dims[0] = f.Coin(80) && x.rank > 0 ? x.dims[x.rank - 1] : f.Int(0, 4);
      w.dims[1] = f.Int(0, 5);
    }
    in->push_back(f.Coin(90)
                      ? QuantFuzzTensor<int8_t>(f, DType::kInt8, w, -128, 127)
                      : RandF32(w, 4));
    if (op != "MatMul" && f.Coin()) {
      const int64_t m = op == "Conv" ? w.dims[0] : w.dims[1];
      in->push_back(QuantFuzzTensor<int32_t>(
          f, DType::kInt32, S({f.Coin(85) ? m : 2}), -1000, 1000));
    }
    return true;
  }
  return false;
}

// Random attributes of the quantization ops.
template <typename F, typename A>
void QuantFuzzAttrs(F& f, const std::string& op, A* a) {
  if (op == "AscendQuant" || op == "AscendAntiQuant") {
    if (f.Coin(70)) a->Float("scale", static_cast<float>(f.Int(-50, 50)) / 7);
    if (f.Coin(50)) a->Float("offset", static_cast<float>(f.Int(-20, 20)));
    if (f.Coin(30)) a->Int("sqrt_mode", f.Int(0, 2));
  }
  if (op == "AscendQuant") {
    const char* modes[] = {"Round", "Floor", "Ceil", "Trunc", "Hybrid"};
    if (f.Coin(40)) a->Str("round_mode", modes[f.Int(0, 4)]);
    if (f.Coin(10)) a->Str("dst_type", f.Coin() ? "INT8" : "INT4");
  }
  if ((op == "Conv" || op == "MatMul" || op == "Gemm") && f.Coin(20)) {
    a->Int("offset_x", f.Int(-130, 130));
  }
  if (op == "QuantBatchMatMul") {
    const int64_t codes[] = {1, 2, 3, 27, 0};
    if (f.Coin(90)) a->Int("dtype", codes[f.Int(0, 4)]);
    if (f.Coin(50)) a->Int("transpose_x1", f.Coin(90) ? 1 : f.Int(0, 3));
    if (f.Coin(50)) a->Int("transpose_x2", f.Coin(90) ? 1 : f.Int(0, 3));
  }
  if (op == "NPUWeightQuantBatchMatmulV2" && f.Coin(50)) {
    a->Int("antiquant_group_size", f.Coin(80) ? 32 : f.Int(0, 40));
  }
  if (op == "FusedConvDequant") {
    if (f.Coin(20)) a->Int("offset_x", f.Int(-130, 130));
    if (f.Coin(30)) a->Int("relu_flag", f.Int(0, 2));
    if (f.Coin(40)) a->Int("to", f.Coin(90) ? 1 : f.Int(0, 12));
    if (f.Coin(40)) {
      const bool clip = f.Coin(60);
      a->Str("activation", clip ? "Clip" : f.Coin(90) ? "Relu" : "Gelu");
      if (clip && f.Coin(90)) {
        a->Floats("activation_params", {0.0f, static_cast<float>(f.Int(1, 6))});
      }
    }
  }
  if (op == "FusedMatMulInt8") {
    a->Str("base", f.Coin(95) ? "MatMul" : "Gemm");
    if (f.Coin(20)) a->Int("offset_x", f.Int(-130, 130));
    if (f.Coin(30)) a->Int("relu_flag", f.Int(0, 2));
    if (f.Coin(40)) a->Int("to", f.Coin(90) ? 1 : f.Int(0, 12));
    if (f.Coin(20)) {
      const bool clip = f.Coin(60);
      a->Str("activation", clip ? "Clip" : f.Coin(90) ? "Relu" : "Gelu");
      if (clip && f.Coin(90)) {
        a->Floats("activation_params", {0.0f, static_cast<float>(f.Int(1, 6))});
      }
    }
  }
  if (op == "AscendDequant") {
    if (f.Coin(30)) a->Int("sqrt_mode", f.Int(0, 1));
    if (f.Coin(30)) a->Int("relu_flag", f.Int(0, 2));
    if (f.Coin(30)) a->Int("dtype", f.Int(0, 2));
  }
}

}  // namespace testing
}  // namespace ascend_emu
