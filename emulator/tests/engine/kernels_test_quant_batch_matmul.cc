// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// QuantBatchMatMul (quant_batch_matmul.cc) against CANN's arithmetic for the
// Ascend910B kernel written out here (ops-nn quant_batch_matmul_v3: the
// op_kernel's steps and its golden's formulas): int32 sums computed in
// int64 with numpy's batch broadcasting, every float32 step of the epilogue
// as a double product or sum rounded to float (exact before the rounding),
// the last rounding by Eigen's conversions; and hand-computed values for
// the uint64 layout, the int9 clamp, the offset, ties and saturation.
#include <Eigen/Core>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "kernels_test_util.h"

namespace ascend_emu {
namespace testing {
namespace {

using Half = Eigen::half;
using Bf16 = Eigen::bfloat16;
constexpr const char* kOp = "QuantBatchMatMul";

uint32_t Bits(float v) {
  uint32_t b;
  std::memcpy(&b, &v, 4);
  return b;
}
float FromBits(uint32_t b) {
  float v;
  std::memcpy(&v, &b, 4);
  return v;
}

// TransQuantParamV2's packing: the fp32 bits, an int9 offset in 45:37, and
// bit 46 set; `junk` goes into the bits the fixpipe does not read
// (12:0 and 63:47).
uint64_t Pack(float scale, int offset = 0, bool junk = false) {
  uint64_t v = Bits(scale) | (uint64_t{1} << 46) |
               (static_cast<uint64_t>(offset & 0x1FF) << 37);
  if (junk) v |= (uint64_t{0x1ABCD} << 47) | 0x1FFFu;
  return v;
}
// What the fixpipe reads of it: the top 19 bits of the fp32.
float Scale19(float scale) { return FromBits(Bits(scale) & 0xFFFFE000u); }

std::vector<int8_t> RandInt8(int64_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> dist(-128, 127);
  std::vector<int8_t> v(static_cast<size_t>(n));
  for (int8_t& x : v) x = static_cast<int8_t>(dist(gen));
  return v;
}

struct Mm {
  std::vector<int64_t> a_shape, b_shape;  // as stored (before transposes)
  bool ta = false, tb = false;
};

// acc [batch..., M, N] in int64 with numpy's broadcasting of batch dims,
// plus an int32 bias ([N] or [batch, 1, N]) when given.
std::vector<int64_t> Acc(const Mm& p, const std::vector<int8_t>& a,
                         const std::vector<int8_t>& b,
                         const std::vector<int32_t>& bias, bool bias3,
                         std::vector<int64_t>* out_shape, int64_t* m_out,
                         int64_t* n_out) {
  const size_t ra = p.a_shape.size(), rb = p.b_shape.size();
  const int64_t m = p.ta ? p.a_shape[ra - 1] : p.a_shape[ra - 2];
  const int64_t k = p.ta ? p.a_shape[ra - 2] : p.a_shape[ra - 1];
  const int64_t n = p.tb ? p.b_shape[rb - 2] : p.b_shape[rb - 1];
  const size_t rc = std::max(ra, rb);
  std::vector<int64_t> bc(rc - 2), ba(rc - 2, 1), bb(rc - 2, 1);
  for (size_t i = 0; i + 2 < ra; ++i) ba[rc - ra + i] = p.a_shape[i];
  for (size_t i = 0; i + 2 < rb; ++i) bb[rc - rb + i] = p.b_shape[i];
  int64_t batch = 1;
  for (size_t i = 0; i + 2 < rc; ++i) {
    bc[i] = std::max(ba[i], bb[i]);
    batch *= bc[i];
  }
  std::vector<int64_t> y(static_cast<size_t>(batch * m * n));
  for (int64_t c = 0; c < batch; ++c) {
    // numpy: the index of c in each input, broadcast dims held at 0.
    int64_t rem = c, ia = 0, ib = 0, sa = 1, sb = 1;
    for (size_t i = rc - 2; i-- > 0;) {
      const int64_t idx = rem % bc[i];
      rem /= bc[i];
      ia += (ba[i] == 1 ? 0 : idx) * sa;
      ib += (bb[i] == 1 ? 0 : idx) * sb;
      sa *= ba[i];
      sb *= bb[i];
    }
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        int64_t s = 0;
        for (int64_t t = 0; t < k; ++t) {
          const int64_t av = a[ia * m * k + (p.ta ? t * m + i : i * k + t)];
          const int64_t bv = b[ib * k * n + (p.tb ? j * k + t : t * n + j)];
          s += av * bv;
        }
        if (!bias.empty()) s += bias[(bias3 ? c * n : 0) + j];
        y[(c * m + i) * n + j] = s;
      }
  }
  *out_shape = bc;
  out_shape->push_back(m);
  out_shape->push_back(n);
  *m_out = m;
  *n_out = n;
  return y;
}

Shape ToShape(const std::vector<int64_t>& v) { return S(v); }

HostTensor Int8(const std::vector<int64_t>& shape,
                const std::vector<int8_t>& v) {
  return HostTensor::Of(DType::kInt8, S(shape), v);
}
HostTensor U64(const std::vector<uint64_t>& v, DType t = DType::kUInt64) {
  return HostTensor::Of(t, S({static_cast<int64_t>(v.size())}), v);
}
template <typename T>
HostTensor Floats(DType t, const std::vector<int64_t>& shape,
                  const std::vector<float>& v) {
  return HostTensor::Of(t, S(shape), std::vector<T>(v.begin(), v.end()));
}
HostTensor Bias32(const std::vector<int64_t>& shape,
                  const std::vector<int32_t>& v) {
  return HostTensor::Of(DType::kInt32, S(shape), v);
}

Attrs Dtype(int64_t code, bool ta = false, bool tb = false) {
  Attrs a;
  a.Int("dtype", code);
  if (ta) a.Int("transpose_x1", 1);
  if (tb) a.Int("transpose_x2", 1);
  return a;
}

// float32 steps: exact in double, then rounded to float.
float MulF(float a, float b) {
  return static_cast<float>(static_cast<double>(a) * b);
}
float AddF(float a, float b) {
  return static_cast<float>(static_cast<double>(a) + b);
}

TEST(KernelsQuantBatchMatMul, Int32OutputIsTheExactSumPlusBias) {
  // K = 4000: sums far past int16 and float16, exact in int32.
  const Mm p{{3, 4000}, {4000, 5}};
  std::vector<int8_t> a(12000, 127), b(20000, -128);
  a[1] = -128;
  std::vector<int8_t> ar = RandInt8(12000, 1), br = RandInt8(20000, 2);
  for (size_t i = 4000; i < a.size(); ++i) a[i] = ar[i];
  for (size_t i = 0; i < b.size(); ++i)
    if (i % 5 != 0) b[i] = br[i];  // column 0 stays -128
  const std::vector<int32_t> bias = {1, -2, 1 << 20, -(1 << 20), 7};
  std::vector<int64_t> shape;
  int64_t m = 0, n = 0;
  const std::vector<int64_t> want = Acc(p, a, b, bias, false, &shape, &m, &n);
  for (DType st : {DType::kFloat32, DType::kBFloat16}) {
    RunResult r = RunKernel(
        kOp, Dtype(3),
        {Int8(p.a_shape, a), Int8(p.b_shape, b),
         st == DType::kFloat32 ? Floats<float>(st, {1}, {0.5f})
                               : Floats<Bf16>(st, {5}, {1, 2, 3, 4, 5}),
         HostTensor::Absent(), Bias32({5}, bias)});
    ASSERT_EQ(r.error, "");
    ASSERT_EQ(r.outputs[0].dtype, DType::kInt32);
    ASSERT_EQ(r.outputs[0].shape, S({3, 5}));
    const std::vector<int32_t> got = r.outputs[0].values<int32_t>();
    for (size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], want[i]) << i;
  }
  // Row 0 by hand: 127 * -128 * 3999 + (-128) * -128 for column 0.
  EXPECT_EQ(want[0], int64_t{127} * -128 * 3999 + 128 * 128 + 1);
}

TEST(KernelsQuantBatchMatMul, PackedScaleToFloat16PerChannelAndPerTensor) {
  const Mm p{{2, 3, 64}, {64, 6}};
  const std::vector<int8_t> a = RandInt8(2 * 3 * 64, 3), b = RandInt8(384, 4);
  const std::vector<int32_t> bias = {100, -100, 0, 5, -5, 12345};
  // Scales with mantissa bits below the 19 the fixpipe reads.
  std::vector<float> scales = {0.00123457f, -0.000987654f, 0.0311f,
                               1.0f / 3.0f, 0.0002f,       0.0077777f};
  for (bool per_tensor : {false, true}) {
    for (DType st : {DType::kUInt64, DType::kInt64}) {
      for (bool with_bias : {false, true}) {
        std::vector<uint64_t> packed;
        for (size_t j = 0; j < (per_tensor ? 1 : scales.size()); ++j)
          packed.push_back(Pack(scales[j], /*offset=*/-7, /*junk=*/true));
        std::vector<int64_t> shape;
        int64_t m = 0, n = 0;
        const std::vector<int64_t> acc =
            Acc(p, a, b, with_bias ? bias : std::vector<int32_t>{}, false,
                &shape, &m, &n);
        std::vector<HostTensor> in = {Int8(p.a_shape, a), Int8(p.b_shape, b),
                                      U64(packed, st)};
        if (with_bias) {
          in.push_back(HostTensor::Absent());
          in.push_back(Bias32({6}, bias));
        }
        RunResult r = RunKernel(kOp, Attrs(), in);  // dtype defaults to 1
        ASSERT_EQ(r.error, "");
        ASSERT_EQ(r.outputs[0].dtype, DType::kFloat16);
        ASSERT_EQ(r.outputs[0].shape, S({2, 3, 6}));
        const std::vector<Half> got = r.outputs[0].values<Half>();
        for (size_t e = 0; e < acc.size(); ++e) {
          const int64_t j = static_cast<int64_t>(e) % n;
          const float s = Scale19(scales[per_tensor ? 0 : j]);
          const float v = MulF(static_cast<float>(acc[e]), s);
          EXPECT_EQ(Bits(static_cast<float>(got[e])),
                    Bits(static_cast<float>(Half(v))))
              << "element " << e << " per_tensor " << per_tensor;
        }
      }
    }
  }
}

TEST(KernelsQuantBatchMatMul, PackedScaleReadsOnlyTheTop19Bits) {
  // x1 [1, 1] = 1, x2 [1, 2] = {1, 2}: y = fp16(acc * s19). 1 + 2^-11 +
  // 2^-12 has mantissa bits below the 19 read (2^-10 is the last one):
  // read as 1 (the whole value would round up to float16's 1 + 2^-10).
  const float s = 1.0f + 0x1p-11f + 0x1p-12f;
  RunResult r = RunKernel(
      kOp, Dtype(1), {Int8({1, 1}, {1}), Int8({1, 2}, {1, 2}), U64({Pack(s)})});
  ASSERT_EQ(r.error, "");
  const std::vector<Half> y = r.outputs[0].values<Half>();
  EXPECT_EQ(static_cast<float>(y[0]), 1.0f);
  EXPECT_EQ(static_cast<float>(y[1]), 2.0f);
  // 1 + 2^-10 is kept: 1.0009765625 is a float16.
  r = RunKernel(
      kOp, Dtype(1),
      {Int8({1, 1}, {1}), Int8({1, 2}, {1, 2}), U64({Pack(1.0f + 0x1p-10f)})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(static_cast<float>(r.outputs[0].values<Half>()[0]),
            1.0f + 0x1p-10f);
  // float16 overflows to inf: 127 * 127 * 8 = 129032.
  r = RunKernel(
      kOp, Dtype(1),
      {Int8({1, 1}, {127}), Int8({1, 2}, {127, -127}), U64({Pack(8.0f)})});
  ASSERT_EQ(r.error, "");
  EXPECT_TRUE(std::isinf(static_cast<float>(r.outputs[0].values<Half>()[0])));
  EXPECT_LT(static_cast<float>(r.outputs[0].values<Half>()[1]), 0.0f);
}

TEST(KernelsQuantBatchMatMul, Int8OutputRoundsTiesClampsToInt9AddsOffset) {
  // K = 1: acc[i][j] = a[i] * b[j]; scale 0.5 per channel, offsets from
  // the uint64's bits 45:37.
  const std::vector<int8_t> a = {5, 7, -5, -7, 1, 127, -128, 0};
  const std::vector<int8_t> b = {1, 1, 9};
  const std::vector<uint64_t> scale = {Pack(0.5f, 0), Pack(0.5f, 3),
                                       Pack(0.5f, -200)};
  RunResult r =
      RunKernel(kOp, Dtype(2), {Int8({8, 1}, a), Int8({1, 3}, b), U64(scale)});
  ASSERT_EQ(r.error, "");
  ASSERT_EQ(r.outputs[0].dtype, DType::kInt8);
  const std::vector<int8_t> y = r.outputs[0].values<int8_t>();
  // Column 0 (offset 0): 2.5 -> 2, 3.5 -> 4, -2.5 -> -2, -3.5 -> -4,
  // 0.5 -> 0, 63.5 -> 64, -64, 0.
  const std::vector<int8_t> c0 = {2, 4, -2, -4, 0, 64, -64, 0};
  // Column 1 (offset 3): the same + 3.
  const std::vector<int8_t> c1 = {5, 7, 1, -1, 3, 67, -61, 3};
  // Column 2 (offset -200): acc * 0.5 = 4.5 a[i]: 22.5 -> 22, 31.5 -> 32,
  // ...; 571.5 clamps to 255 first (int9), 255 - 200 = 55 (not -128+...);
  // -576 clamps to -256, -456 -> -128.
  const std::vector<int8_t> c2 = {-128, -128, -128, -128, -128, 55, -128, -128};
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(y[i * 3 + 0], c0[i]) << i;
    EXPECT_EQ(y[i * 3 + 1], c1[i]) << i;
    EXPECT_EQ(y[i * 3 + 2], c2[i]) << i;
  }
  // Saturation to [-128, 127] after the offset: 127 * 9 * 0.25 = 285.75,
  // clamped to 255, + 0 -> 127; offset +100 on -64 -> 36.
  r = RunKernel(kOp, Dtype(2),
                {Int8({2, 1}, {127, -128}), Int8({1, 2}, {9, 1}),
                 U64({Pack(0.25f, 0), Pack(0.5f, 100)})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].values<int8_t>(),
            (std::vector<int8_t>{127, 127, -128, 36}));
}

TEST(KernelsQuantBatchMatMul, Int8OutputMatchesTheFormulaWithBias) {
  const Mm p{{5, 96}, {7, 96}, false, true};
  const std::vector<int8_t> a = RandInt8(5 * 96, 5), b = RandInt8(7 * 96, 6);
  const std::vector<int32_t> bias = {-3000, 3000, 0, 1, -1, 17, 40000};
  std::vector<float> scales;
  std::vector<uint64_t> packed;
  for (int j = 0; j < 7; ++j) {
    scales.push_back(0.0031f * (j + 1) * (j % 2 ? -1.0f : 1.0f));
    packed.push_back(Pack(scales.back(), j * 37 - 100, true));
  }
  std::vector<int64_t> shape;
  int64_t m = 0, n = 0;
  const std::vector<int64_t> acc = Acc(p, a, b, bias, false, &shape, &m, &n);
  RunResult r = RunKernel(kOp, Dtype(2, false, true),
                          {Int8(p.a_shape, a), Int8(p.b_shape, b), U64(packed),
                           HostTensor::Absent(), Bias32({7}, bias)});
  ASSERT_EQ(r.error, "");
  const std::vector<int8_t> y = r.outputs[0].values<int8_t>();
  for (size_t e = 0; e < acc.size(); ++e) {
    const int64_t j = static_cast<int64_t>(e) % n;
    const float v = MulF(static_cast<float>(acc[e]), Scale19(scales[j]));
    double q = std::nearbyint(static_cast<double>(v));
    q = std::min(255.0, std::max(-256.0, q)) + (j * 37 - 100);
    q = std::min(127.0, std::max(-128.0, q));
    EXPECT_EQ(y[e], static_cast<int8_t>(q)) << e;
  }
}

// The vector epilogue: v = float(acc) * scale [* pertoken] [+ float bias],
// one rounding to y.
void CheckVector(const Mm& p, DType y_dtype, DType scale_dtype,
                 const std::vector<float>& scale, DType bias_dtype,
                 const std::vector<float>& bias, bool bias3,
                 const std::vector<float>& pertoken, uint32_t seed) {
  int64_t na = 1, nb = 1;
  for (int64_t d : p.a_shape) na *= d;
  for (int64_t d : p.b_shape) nb *= d;
  const std::vector<int8_t> a = RandInt8(na, seed), b = RandInt8(nb, seed + 1);
  std::vector<int32_t> ibias;
  if (bias_dtype == DType::kInt32)
    for (float v : bias) ibias.push_back(static_cast<int32_t>(v));
  std::vector<int64_t> shape;
  int64_t m = 0, n = 0;
  const std::vector<int64_t> acc = Acc(p, a, b, ibias, bias3, &shape, &m, &n);
  std::vector<HostTensor> in = {Int8(p.a_shape, a), Int8(p.b_shape, b)};
  const int64_t ns = static_cast<int64_t>(scale.size());
  in.push_back(scale_dtype == DType::kFloat32
                   ? Floats<float>(scale_dtype, {ns}, scale)
                   : Floats<Bf16>(scale_dtype, {ns}, scale));
  in.push_back(HostTensor::Absent());
  std::vector<int64_t> bshape = {n};
  if (bias3) bshape = {static_cast<int64_t>(bias.size()) / n, 1, n};
  if (bias.empty()) {
    in.push_back(HostTensor::Absent());
  } else if (bias_dtype == DType::kInt32) {
    in.push_back(Bias32(bshape, ibias));
  } else if (bias_dtype == DType::kFloat32) {
    in.push_back(Floats<float>(bias_dtype, bshape, bias));
  } else if (bias_dtype == DType::kFloat16) {
    in.push_back(Floats<Half>(bias_dtype, bshape, bias));
  } else {
    in.push_back(Floats<Bf16>(bias_dtype, bshape, bias));
  }
  if (!pertoken.empty())
    in.push_back(Floats<float>(DType::kFloat32, {m}, pertoken));
  RunResult r = RunKernel(
      kOp, Dtype(y_dtype == DType::kBFloat16 ? 27 : 1, p.ta, p.tb), in);
  ASSERT_EQ(r.error, "");
  ASSERT_EQ(r.outputs[0].dtype, y_dtype);
  ASSERT_EQ(r.outputs[0].shape, ToShape(shape));
  // The inputs as the kernel reads them (bfloat16 / float16 widened).
  auto narrow = [](DType t, float v) {
    return t == DType::kBFloat16  ? static_cast<float>(Bf16(v))
           : t == DType::kFloat16 ? static_cast<float>(Half(v))
                                  : v;
  };
  for (size_t e = 0; e < acc.size(); ++e) {
    const int64_t j = static_cast<int64_t>(e) % n;
    const int64_t i = (static_cast<int64_t>(e) / n) % m;
    const int64_t c = static_cast<int64_t>(e) / (m * n);
    float v = MulF(static_cast<float>(acc[e]),
                   narrow(scale_dtype, scale[ns == 1 ? 0 : j]));
    if (!pertoken.empty()) v = MulF(v, pertoken[i]);
    if (!bias.empty() && bias_dtype != DType::kInt32)
      v = AddF(v, narrow(bias_dtype, bias[(bias3 ? c * n : 0) + j]));
    float want, got;
    if (y_dtype == DType::kBFloat16) {
      want = static_cast<float>(Bf16(v));
      got = static_cast<float>(r.outputs[0].values<Bf16>()[e]);
    } else {
      want = static_cast<float>(Half(v));
      got = static_cast<float>(r.outputs[0].values<Half>()[e]);
    }
    ASSERT_EQ(Bits(got), Bits(want))
        << "element " << e << " y " << DTypeName(y_dtype) << " bias "
        << (bias.empty() ? "none" : DTypeName(bias_dtype));
  }
}

std::vector<float> Vals(int64_t n, float lo, float step) {
  std::vector<float> v;
  for (int64_t i = 0; i < n; ++i) v.push_back(lo + step * i);
  return v;
}

TEST(KernelsQuantBatchMatMul, Bf16OutputWithFloatScalesAndEachBias) {
  const Mm p{{4, 80}, {80, 6}};
  const std::vector<float> sc = {0.0013f, -0.002f, 0.0007f,
                                 0.01f,   0.0031f, -0.0005f};
  for (DType st : {DType::kFloat32, DType::kBFloat16}) {
    for (bool per_tensor : {false, true}) {
      const std::vector<float> s =
          per_tensor ? std::vector<float>{0.0027f} : sc;
      CheckVector(p, DType::kBFloat16, st, s, DType::kInt32, {}, false, {}, 10);
      CheckVector(p, DType::kBFloat16, st, s, DType::kInt32,
                  Vals(6, -3000, 1111), false, {}, 11);
      CheckVector(p, DType::kBFloat16, st, s, DType::kBFloat16,
                  Vals(6, -3.3f, 1.7f), false, {}, 12);
      CheckVector(p, DType::kBFloat16, st, s, DType::kFloat32,
                  Vals(6, -0.77f, 0.31f), false, {}, 13);
    }
  }
}

TEST(KernelsQuantBatchMatMul, BiasOrderIsTheKernels) {
  // int32 bias before the scale, float bias after: acc = 10, scale 0.5,
  // bias 4 -> (10 + 4) * 0.5 = 7 and 10 * 0.5 + 4 = 9.
  const HostTensor a = Int8({1, 1}, {2}), b = Int8({1, 1}, {5});
  const HostTensor s = Floats<float>(DType::kFloat32, {1}, {0.5f});
  RunResult r = RunKernel(kOp, Dtype(27),
                          {a, b, s, HostTensor::Absent(), Bias32({1}, {4})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(static_cast<float>(r.outputs[0].values<Bf16>()[0]), 7.0f);
  r = RunKernel(kOp, Dtype(27),
                {a, b, s, HostTensor::Absent(),
                 Floats<float>(DType::kFloat32, {1}, {4.0f})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(static_cast<float>(r.outputs[0].values<Bf16>()[0]), 9.0f);
  // Pertoken: (10 * 0.5) * 3 + 4 = 19 (float16 bias, float16 out).
  r = RunKernel(kOp, Dtype(1),
                {a, b, s, HostTensor::Absent(),
                 Floats<Half>(DType::kFloat16, {1}, {4.0f}),
                 Floats<float>(DType::kFloat32, {1}, {3.0f})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(static_cast<float>(r.outputs[0].values<Half>()[0]), 19.0f);
}

TEST(KernelsQuantBatchMatMul, PertokenScales) {
  const Mm p{{2, 5, 70}, {70, 9}};
  const std::vector<float> tok = {0.01f, 0.02f, 0.5f, 1.5f, 0.003f};
  const std::vector<float> sc = Vals(9, 0.0011f, 0.0007f);
  CheckVector(p, DType::kFloat16, DType::kFloat32, sc, DType::kInt32, {}, false,
              tok, 20);
  CheckVector(p, DType::kFloat16, DType::kFloat32, {0.004f}, DType::kFloat16,
              Vals(9, -2.0f, 0.5f), false, tok, 21);
  CheckVector(p, DType::kBFloat16, DType::kBFloat16, sc, DType::kFloat32,
              Vals(9, -1.0f, 0.25f), false, tok, 22);
  CheckVector(p, DType::kBFloat16, DType::kFloat32, sc, DType::kInt32,
              Vals(9, -500, 123), false, tok, 23);
}

TEST(KernelsQuantBatchMatMul, TransposesAndBatchBroadcast) {
  const std::vector<float> sc = Vals(6, 0.001f, 0.0005f);
  // x1 batched, x2 2-D; both transposed.
  CheckVector({{2, 3, 40, 4}, {6, 40}, true, true}, DType::kBFloat16,
              DType::kFloat32, sc, DType::kInt32, Vals(6, -50, 20), false, {},
              30);
  // x2 batched [3, K, N], x1 [1, M, K]: x1's batch broadcast.
  CheckVector({{1, 4, 33}, {3, 33, 6}, false, false}, DType::kBFloat16,
              DType::kFloat32, sc, DType::kFloat32, {}, false, {}, 31);
  // Both batched alike, a 3-D bias [batch, 1, N] (one row per batch).
  CheckVector({{2, 4, 33}, {2, 6, 33}, false, true}, DType::kBFloat16,
              DType::kBFloat16, sc, DType::kBFloat16, Vals(12, -2.0f, 0.375f),
              true, {}, 32);
  CheckVector({{2, 33, 4}, {2, 33, 6}, true, false}, DType::kBFloat16,
              DType::kFloat32, sc, DType::kInt32, Vals(12, -900, 150), true, {},
              33);
  // Rank 5 against rank 2, and the packed-scale path under transposes.
  const Mm p{{2, 1, 2, 3, 17}, {5, 17}, false, true};
  const std::vector<int8_t> a = RandInt8(2 * 2 * 3 * 17, 34),
                            b = RandInt8(5 * 17, 35);
  std::vector<int64_t> shape;
  int64_t m = 0, n = 0;
  const std::vector<int64_t> acc = Acc(p, a, b, {}, false, &shape, &m, &n);
  RunResult r =
      RunKernel(kOp, Dtype(1, false, true),
                {Int8(p.a_shape, a), Int8(p.b_shape, b), U64({Pack(0.0123f)})});
  ASSERT_EQ(r.error, "");
  ASSERT_EQ(r.outputs[0].shape, S({2, 1, 2, 3, 5}));
  const std::vector<Half> y = r.outputs[0].values<Half>();
  for (size_t e = 0; e < acc.size(); ++e) {
    EXPECT_EQ(static_cast<float>(y[e]),
              static_cast<float>(
                  Half(MulF(static_cast<float>(acc[e]), Scale19(0.0123f)))))
        << e;
  }
}

TEST(KernelsQuantBatchMatMul, Refusals) {
  const HostTensor a = Int8({2, 4}, std::vector<int8_t>(8, 1));
  const HostTensor b = Int8({4, 3}, std::vector<int8_t>(12, 1));
  const HostTensor u = U64({Pack(0.5f)});
  const HostTensor f = Floats<float>(DType::kFloat32, {1}, {0.5f});
  const HostTensor none = HostTensor::Absent();
  struct Case {
    Attrs attrs;
    std::vector<HostTensor> in;
    std::string want;
  };
  const std::vector<Case> cases = {
      {Dtype(1),
       {Floats<float>(DType::kFloat32, {2, 4}, std::vector<float>(8)), b, u},
       "x1 and x2 must be int8, got float32 and int8 (int4 is not emulated)"},
      {Dtype(0), {a, b, u}, "dtype 0 is not an output"},
      {Dtype(1),
       {a, b, HostTensor::Of(DType::kInt32, S({1}), std::vector<int32_t>{1})},
       "scale unsupported dtype int32"},
      {Dtype(1), {a, b, f}, "needs a uint64 or int64 scale, got float32"},
      {Dtype(2), {a, b, f}, "an int8 output needs a uint64 or int64 scale"},
      {Dtype(27), {a, b, u}, "a bfloat16 output needs a float32 or bfloat16"},
      {Dtype(3), {a, b, u}, "an int32 output needs a float32 or bfloat16"},
      {Dtype(3),
       {a, b, f, none, Floats<float>(DType::kFloat32, {3}, {1, 2, 3})},
       "an int32 output needs an int32 bias, got float32"},
      {Dtype(1),
       {a, b, u, none, Floats<Half>(DType::kFloat16, {3}, {1, 2, 3})},
       "a float16 bias needs pertoken_scale"},
      {Dtype(1),
       {a, b, u, none, Floats<Bf16>(DType::kBFloat16, {3}, {1, 2, 3})},
       "a bfloat16 bias needs a bfloat16 output"},
      {Dtype(1),
       {a, b, u, none, none, Floats<float>(DType::kFloat32, {2}, {1, 1})},
       "a float16 output with pertoken_scale needs a float32 scale"},
      {Dtype(2),
       {a, b, u, none, none, Floats<float>(DType::kFloat32, {2}, {1, 1})},
       "pertoken_scale needs a float16 or bfloat16 output"},
      {Dtype(2),
       {a, b, u, Floats<float>(DType::kFloat32, {1}, {1})},
       "an offset input is not emulated"},
      {Dtype(1),
       {a, Int8({5, 3}, std::vector<int8_t>(15)), u},
       "K of x1 (4) and of x2 (5) differ"},
      {Dtype(1),
       {Int8({4}, std::vector<int8_t>(4)), b, u},
       "x1 and x2 must have rank 2 to 6"},
      {Dtype(1),
       {Int8({2, 0}, {}), Int8({0, 3}, {}), u},
       "x1 dims must be in [1, 2147483647]"},
      {Dtype(1),
       {Int8({1, 65536}, std::vector<int8_t>(65536)),
        Int8({65536, 1}, std::vector<int8_t>(65536)), u},
       "x1's last dim may not exceed 65535"},
      {Dtype(1), {a, b, U64({Pack(1), Pack(1)})}, "scale must be [1] or [3]"},
      {Dtype(1),
       {a, b,
        HostTensor::Of(DType::kUInt64, S({1, 3}), std::vector<uint64_t>(3))},
       "(a 2-D scale is not emulated)"},
      {Dtype(1),
       {a, b, u, none, Bias32({2}, {1, 2})},
       "bias must be [3] or [1, 1, 3], got [2]"},
      {Dtype(27),
       {a, b, f, none, none, Floats<float>(DType::kFloat32, {3}, {1, 1, 1})},
       "pertoken_scale must be [2]"},
      {Dtype(1),
       {Int8({2, 1, 2, 4}, std::vector<int8_t>(16)),
        Int8({1, 3, 4, 3}, std::vector<int8_t>(36)), u},
       "broadcast both ways, which is not emulated"},
      {Dtype(1),
       {Int8({2, 2, 4}, std::vector<int8_t>(16)),
        Int8({3, 4, 3}, std::vector<int8_t>(36)), u},
       "do not broadcast"},
      {Dtype(1).Int("transpose_x1", 2),
       {a, b, u},
       "transpose_x1 must be 0 or 1, got 2"},
      {Dtype(1).Int("group_size", 0), {a, b, u}, "group_size"},
  };
  for (const Case& c : cases) {
    RunResult r = RunKernel(kOp, c.attrs, c.in);
    EXPECT_NE(r.error.find(c.want), std::string::npos)
        << "want '" << c.want << "', got '" << r.error << "'";
    EXPECT_EQ(r.error.rfind("QuantBatchMatMul: ", 0), 0u) << r.error;
  }
  // The pertoken form with a float scale may pass 65535 (the tiling's
  // Ascend910B exemption): accepted.
  RunResult r =
      InferKernel(kOp, Dtype(27),
                  {Int8({1, 65536}, std::vector<int8_t>(65536)),
                   Int8({65536, 1}, std::vector<int8_t>(65536)), f, none, none,
                   Floats<float>(DType::kFloat32, {1}, {1})});
  EXPECT_EQ(r.error, "");
}

}  // namespace
}  // namespace testing
}  // namespace ascend_emu
