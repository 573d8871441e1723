// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Cast between float32, float16, int32, int64 and bool: every pair against a
// per-value oracle, ONNX's truncation and != 0 rules, and refusals.
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "kernels_test_dtypes.h"
#include "kernels_test_util.h"

namespace ascend_emu {
namespace testing {
namespace {

Attrs To(int64_t onnx_type) {
  Attrs a;
  a.Int("to", onnx_type);
  return a;
}

// Values exactly representable in every dtype (so the oracle is obvious).
const std::vector<double> kValues = {0, 1, -1, 2, -3, 7, 100, -128};

HostTensor Make(DType d, const std::vector<double>& v) {
  const Shape s = S({2, static_cast<int64_t>(v.size() / 2)});
  switch (d) {
    case DType::kFloat16:
      return F16(s, std::vector<float>(v.begin(), v.end()));
    case DType::kInt32:
      return I32(s, std::vector<int32_t>(v.begin(), v.end()));
    case DType::kInt64:
      return HostTensor::I64(s, std::vector<int64_t>(v.begin(), v.end()));
    case DType::kBool: {
      std::vector<uint8_t> b(v.size());
      for (size_t i = 0; i < v.size(); ++i) b[i] = v[i] != 0;
      return BoolT(s, b);
    }
    default:
      return HostTensor::F32(s, std::vector<float>(v.begin(), v.end()));
  }
}

std::vector<double> Read(const HostTensor& t) {
  std::vector<double> out;
  switch (t.dtype) {
    case DType::kFloat16:
      for (float x : HalfValues(t)) out.push_back(x);
      break;
    case DType::kInt32:
      for (int32_t x : t.values<int32_t>()) out.push_back(x);
      break;
    case DType::kInt64:
      for (int64_t x : t.values<int64_t>())
        out.push_back(static_cast<double>(x));
      break;
    case DType::kBool:
      for (uint8_t x : t.values<uint8_t>()) out.push_back(x);
      break;
    default:
      for (float x : t.f32()) out.push_back(x);
  }
  return out;
}

TEST(KernelsCast, EveryPairOfDtypes) {
  const std::pair<DType, int64_t> types[] = {
      {DType::kFloat32, 1}, {DType::kFloat16, 10}, {DType::kInt32, 6},
      {DType::kInt64, 7},   {DType::kBool, 9},
  };
  for (const auto& [from, unused] : types) {
    for (const auto& [to, onnx] : types) {
      HostTensor x = Make(from, kValues);
      RunResult r = RunKernel("Cast", To(onnx), {x});
      ASSERT_EQ(r.error, "") << DTypeName(from) << "->" << DTypeName(to);
      ASSERT_EQ(r.outputs[0].dtype, to);
      ASSERT_EQ(r.outputs[0].shape, x.shape);
      std::vector<double> want = Read(x);
      if (to == DType::kBool) {
        for (double& v : want) v = v != 0;
      }
      EXPECT_EQ(Read(r.outputs[0]), want)
          << DTypeName(from) << "->" << DTypeName(to);
    }
  }
}

TEST(KernelsCast, FloatToIntTruncatesTowardZeroAndBoolIsNonZero) {
  const float nan = std::nanf("");
  HostTensor x = HostTensor::F32(
      S({8}), {2.9f, -2.9f, 0.5f, -0.5f, 1e20f, -1e20f, nan, -0.0f});
  RunResult r = RunKernel("Cast", To(6), {x});
  ASSERT_EQ(r.error, "");
  const int32_t hi = std::numeric_limits<int32_t>::max();
  const int32_t lo = std::numeric_limits<int32_t>::min();
  EXPECT_EQ(r.outputs[0].values<int32_t>(),
            (std::vector<int32_t>{2, -2, 0, 0, hi, lo, 0, 0}));
  r = RunKernel("Cast", To(7), {x});
  EXPECT_EQ(
      r.outputs[0].values<int64_t>(),
      (std::vector<int64_t>{2, -2, 0, 0, std::numeric_limits<int64_t>::max(),
                            std::numeric_limits<int64_t>::min(), 0, 0}));
  r = RunKernel("Cast", To(9), {x});
  EXPECT_EQ(r.outputs[0].values<uint8_t>(),
            (std::vector<uint8_t>{1, 1, 1, 1, 1, 1, 1, 0}));
  // float -> float16 rounds to nearest even and overflows to infinity.
  r = RunKernel(
      "Cast", To(10),
      {HostTensor::F32(S({3}), {1.0f + 1.0f / 4096, 70000.0f, 0.1f})});
  ASSERT_EQ(r.error, "");
  std::vector<float> h = HalfValues(r.outputs[0]);
  EXPECT_EQ(h[0], 1.0f);
  EXPECT_TRUE(std::isinf(h[1]));
  EXPECT_EQ(h[2], static_cast<float>(Eigen::half(0.1f)));
  // int64 -> int32 wraps; a bool byte of 7 reads as true.
  r = RunKernel("Cast", To(6),
                {HostTensor::I64(S({2}), {(int64_t{1} << 32) + 5, -1})});
  EXPECT_EQ(r.outputs[0].values<int32_t>(), (std::vector<int32_t>{5, -1}));
  r = RunKernel("Cast", To(1), {BoolT(S({2}), {7, 0})});
  EXPECT_EQ(r.outputs[0].f32(), (std::vector<float>{1, 0}));
  // Empty and scalar tensors.
  r = RunKernel("Cast", To(10), {HostTensor::F32(S({0, 3}), {})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].shape, S({0, 3}));
  r = RunKernel("Cast", To(7), {HostTensor::F32(S({}), {-7.5f})});
  EXPECT_EQ(r.outputs[0].values<int64_t>(), (std::vector<int64_t>{-7}));
}

// float32 <-> float16 over whole tensors (the F16C vector loop where the
// build has it, the scalar loop for the tail) gives the bits the scalar
// conversion gives one element at a time: every float16 bit pattern, and
// floats around float16's ties, subnormals, overflow, infinities and NaNs.
TEST(KernelsCast, HalfFloatVectorsMatchOneElementAtATime) {
  std::vector<uint16_t> halves(65536 + 5);
  for (size_t i = 0; i < halves.size(); ++i)
    halves[i] = static_cast<uint16_t>(i * 40503u);  // odd: every pattern
  {
    const HostTensor x = HostTensor::Of(
        DType::kFloat16, S({static_cast<int64_t>(halves.size())}), halves);
    RunResult r = RunKernel("Cast", To(1), {x});
    ASSERT_EQ(r.error, "");
    const std::vector<uint32_t> got = r.outputs[0].values<uint32_t>();
    for (size_t i = 0; i < halves.size(); i += 1) {
      if (i % 97 != 0 && (halves[i] & 0x7C00u) != 0x7C00u &&
          (halves[i] & 0x7C00u) != 0)
        continue;  // a sample of normal values, every subnormal and NaN
      RunResult one =
          RunKernel("Cast", To(1),
                    {HostTensor::Of(DType::kFloat16, S({1}),
                                    std::vector<uint16_t>{halves[i]})});
      ASSERT_EQ(got[i], one.outputs[0].values<uint32_t>()[0])
          << "half bits " << halves[i];
    }
  }
  std::vector<uint32_t> floats;
  std::mt19937 gen(7);
  for (uint32_t e = 100; e <= 143; ++e) {  // around float16's exponents
    for (uint32_t m : {0u, 0x1000u, 0x1001u, 0x0FFFu, 0x3000u, 0x2000u,
                       0x7FFFFFu, 0x7FE000u, 0x7FF000u, 0x7FEFFFu}) {
      floats.push_back((e << 23) | m);
      floats.push_back(0x80000000u | (e << 23) | m);
    }
  }
  for (uint32_t b : {0u, 0x80000000u, 0x7F800000u, 0xFF800000u, 0x7FC00000u,
                     0x7F800001u, 0xFFC12345u, 0x7FA00000u, 0x477FEFFFu,
                     0x477FF000u, 0x33000000u, 0x33000001u, 0x00000001u})
    floats.push_back(b);
  for (int i = 0; i < 3000; ++i) floats.push_back(static_cast<uint32_t>(gen()));
  floats.resize(floats.size() | 1);  // odd: a tail after the vectors
  const HostTensor x = HostTensor::Of(
      DType::kFloat32, S({static_cast<int64_t>(floats.size())}), floats);
  RunResult r = RunKernel("Cast", To(10), {x});
  ASSERT_EQ(r.error, "");
  const std::vector<uint16_t> got = r.outputs[0].values<uint16_t>();
  for (size_t i = 0; i < floats.size(); ++i) {
    RunResult one =
        RunKernel("Cast", To(10),
                  {HostTensor::Of(DType::kFloat32, S({1}),
                                  std::vector<uint32_t>{floats[i]})});
    ASSERT_EQ(got[i], one.outputs[0].values<uint16_t>()[0])
        << "float bits " << floats[i];
  }
}

TEST(KernelsCast, Refusals) {
  HostTensor x = RandF32(S({2}), 1);
  EXPECT_INFER_FAILS(InferKernel("Cast", Attrs(), {x}),
                     "attribute 'to' is required");
  EXPECT_INFER_FAILS(InferKernel("Cast", To(11), {x}),
                     "unsupported target type 11");
  EXPECT_INFER_FAILS(InferKernel("Cast", To(0), {x}), "unsupported target");
  Attrs str;
  str.Str("to", "float");
  EXPECT_INFER_FAILS(InferKernel("Cast", str, {x}), "must be of kind int");
  Attrs saturate = To(1);
  saturate.Int("saturate", 1);
  EXPECT_INFER_FAILS(InferKernel("Cast", saturate, {x}),
                     "unsupported attribute 'saturate'");
  HostTensor u8 = HostTensor::Of<uint8_t>(DType::kUInt8, S({1}), {1});
  EXPECT_INFER_FAILS(InferKernel("Cast", To(1), {u8}),
                     "unsupported dtype uint8");
  EXPECT_INFER_FAILS(InferKernel("Cast", To(1), {x, x}), "expects 1 inputs");
}

}  // namespace
}  // namespace testing
}  // namespace ascend_emu
