// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Add, Sub, Mul, Div, Pow, Mod and variadic Max/Min: broadcasting against a
// naive oracle in float32, float16, int32 and int64 (wrapping, truncating
// division that never traps), and refusals. KernelsBinary.
// ArithmeticInInt32AndHalf also checks Relu in int32 and float16.
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "kernels_test_broadcast.h"
#include "kernels_test_dtypes.h"
#include "kernels_test_util.h"

namespace ascend_emu {
namespace testing {
namespace {

struct BroadcastCase {
  std::vector<int64_t> a, b, out;
};

const BroadcastCase kCases[] = {
    {{2, 3}, {2, 3}, {2, 3}},
    {{}, {}, {}},
    {{2, 3, 4}, {}, {2, 3, 4}},
    {{1}, {5}, {5}},
    {{2, 3, 4}, {4}, {2, 3, 4}},
    {{2, 3, 4}, {3, 1}, {2, 3, 4}},
    {{2, 1, 4}, {1, 3, 1}, {2, 3, 4}},
    {{4, 1}, {1, 5}, {4, 5}},
    {{2, 3, 4, 5}, {1, 3, 1, 1}, {2, 3, 4, 5}},
    {{1, 3, 1, 5}, {2, 1, 4, 1}, {2, 3, 4, 5}},
    {{5, 1, 1}, {7}, {5, 1, 7}},
    {{3, 0, 2}, {1, 2}, {3, 0, 2}},
    {{2, 1, 3, 1, 2, 1, 2, 1}, {2, 1, 2, 1, 2, 1, 2}, {2, 2, 3, 2, 2, 2, 2, 2}},
};

TEST(KernelsElementwise, FloatOpsBroadcastLikeNumpy) {
  const std::pair<const char*, std::function<float(float, float)>> ops[] = {
      {"Add", [](float x, float y) { return x + y; }},
      {"Sub", [](float x, float y) { return x - y; }},
      {"Mul", [](float x, float y) { return x * y; }},
      {"Div", [](float x, float y) { return x / y; }},
  };
  uint32_t seed = 1;
  for (const auto& [op, f] : ops) {
    const auto& fn = f;  // C++17 lambdas cannot capture a structured binding
    for (const BroadcastCase& c : kCases) {
      for (bool swap : {false, true}) {
        Shape sa = S(swap ? c.b : c.a);
        Shape sb = S(swap ? c.a : c.b);
        HostTensor a = RandF32(sa, seed++);
        HostTensor b = RandF32(sb, seed++);
        const std::vector<float> av = a.f32(), bv = b.f32();
        RunResult r = RunKernel(op, Attrs(), {a, b});
        ASSERT_EQ(r.error, "") << op;
        ASSERT_EQ(r.outputs[0].shape, S(c.out)) << op;
        EXPECT_EQ(r.outputs[0].dtype, DType::kFloat32);
        ExpectNear(r.outputs[0].f32(),
                   Oracle<float>(
                       sa, sb, S(c.out),
                       [&](int64_t i, int64_t j) { return fn(av[i], bv[j]); }),
                   0);
      }
    }
  }
}

TEST(KernelsElementwise, Int64OpsWrapAndTruncate) {
  const int64_t kMin = std::numeric_limits<int64_t>::min();
  const int64_t kMax = std::numeric_limits<int64_t>::max();
  HostTensor a = HostTensor::I64(S({2, 4}), {7, -7, 9, 0, kMax, kMin, kMin, 5});
  HostTensor b = HostTensor::I64(S({4}), {2, 2, -4, 3});
  RunResult r = RunKernel("Div", Attrs(), {a, b});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].dtype, DType::kInt64);
  EXPECT_EQ(
      r.outputs[0].values<int64_t>(),
      (std::vector<int64_t>{3, -3, -2, 0, kMax / 2, kMin / 2, kMin / -4, 1}));
  r = RunKernel("Add", Attrs(), {a, b});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(
      r.outputs[0].values<int64_t>(),
      (std::vector<int64_t>{9, -5, 5, 3, kMin + 1, kMin + 2, kMax - 3, 8}));
  r = RunKernel("Mul", Attrs(), {a, HostTensor::I64(S({}), {3})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].values<int64_t>()[0], 21);
  r = RunKernel("Sub", Attrs(), {HostTensor::I64(S({1}), {10}), a});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].values<int64_t>()[1], 17);
}

TEST(KernelsElementwise, Int64DivisionEdgeCasesDoNotTrap) {
  const int64_t kMin = std::numeric_limits<int64_t>::min();
  HostTensor a = HostTensor::I64(S({3}), {5, kMin, -8});
  HostTensor b = HostTensor::I64(S({3}), {0, -1, -1});
  RunResult r = RunKernel("Div", Attrs(), {a, b});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].values<int64_t>(), (std::vector<int64_t>{0, kMin, 8}));
}

TEST(KernelsElementwise, BinaryInferRejections) {
  HostTensor f = RandF32(S({2, 3}), 1);
  EXPECT_INFER_FAILS(InferKernel("Add", Attrs(), {f, RandF32(S({4}), 2)}),
                     "Add: shapes [2, 3] and [4] do not broadcast");
  EXPECT_INFER_FAILS(
      InferKernel("Mul", Attrs(), {f, HostTensor::I64(S({3}), {1, 2, 3})}),
      "Mul: input dtypes differ");
  EXPECT_INFER_FAILS(InferKernel("Sub", Attrs(), {f}), "Sub: expects 2 inputs");
  EXPECT_INFER_FAILS(InferKernel("Div", Attrs(), {f, f, f}), "expects 2");
  HostTensor u8 = HostTensor::Of<uint8_t>(DType::kUInt8, S({1}), {1});
  EXPECT_INFER_FAILS(InferKernel("Add", Attrs(), {u8, u8}),
                     "unsupported dtype uint8");
  EXPECT_INFER_FAILS(InferKernel("Add", Attrs(), {f, HostTensor::Absent()}),
                     "input 1 is required");
  EXPECT_INFER_FAILS(InferKernel("Add", Attrs(), {f, f}, 2), "output");
  Attrs broadcast;
  broadcast.Int("broadcast", 1);  // opset < 7 attribute
  EXPECT_INFER_FAILS(InferKernel("Add", broadcast, {f, f}),
                     "unsupported attribute 'broadcast'");
}

TEST(KernelsBinary, MaxMinAreVariadicAndPropagateNaN) {
  const Shape s1 = S({2, 1, 3}), s2 = S({4, 1}), s3 = S({3}), so = S({2, 4, 3});
  HostTensor a = RandF32(s1, 1), b = RandF32(s2, 2), c = RandF32(s3, 3);
  for (const char* op : {"Max", "Min"}) {
    const bool is_max = std::string(op) == "Max";
    auto pick = [is_max](float x, float y) {
      return is_max ? std::fmax(x, y) : std::fmin(x, y);
    };
    std::vector<float> ab = Oracle<float>(
        s1, s2, so,
        [&](int64_t i, int64_t j) { return pick(a.f32()[i], b.f32()[j]); });
    std::vector<float> abc = Oracle<float>(
        so, s3, so,
        [&](int64_t i, int64_t j) { return pick(ab[i], c.f32()[j]); });
    RunResult r = RunKernel(op, Attrs(), {a, b, c});
    ASSERT_EQ(r.error, "");
    ASSERT_EQ(r.outputs[0].shape, so);
    EXPECT_EQ(r.outputs[0].f32(), abc) << op;
    r = RunKernel(op, Attrs(), {a});
    EXPECT_EQ(r.outputs[0].f32(), a.f32());
    r = RunKernel(op, Attrs(),
                  {HostTensor::F32(S({2}), {std::nanf(""), 1}),
                   HostTensor::F32(S({2}), {0, std::nanf("")})});
    EXPECT_TRUE(std::isnan(r.outputs[0].f32()[0]));
    EXPECT_TRUE(std::isnan(r.outputs[0].f32()[1]));
    r = RunKernel(op, Attrs(), {I32(S({3}), {-5, 2, 9}), I32(S({1}), {3})});
    ASSERT_EQ(r.error, "");
    EXPECT_EQ(r.outputs[0].values<int32_t>(),
              is_max ? (std::vector<int32_t>{3, 3, 9})
                     : (std::vector<int32_t>{-5, 2, 3}));
    r = RunKernel(op, Attrs(), {F16(S({2}), {1.5f, -2}), F16(S({}), {0.25f})});
    EXPECT_EQ(HalfValues(r.outputs[0]), is_max
                                            ? (std::vector<float>{1.5f, 0.25f})
                                            : (std::vector<float>{0.25f, -2}));
  }
}

TEST(KernelsBinary, PowWithFloatAndIntegerExponents) {
  const Shape sa = S({2, 3}), sb = S({3});
  std::vector<float> base = RandomFloats(6, 4);
  for (float& x : base) x = std::fabs(x) * 3;
  const std::vector<float> e = {2, 0.5f, -1};
  RunResult r = RunKernel("Pow", Attrs(),
                          {HostTensor::F32(sa, base), HostTensor::F32(sb, e)});
  ASSERT_EQ(r.error, "");
  std::vector<float> want = Oracle<float>(
      sa, sb, sa,
      [&](int64_t i, int64_t j) { return std::pow(base[i], e[j]); });
  ExpectNear(r.outputs[0].f32(), want, 1e-6f);
  r = RunKernel(
      "Pow", Attrs(),
      {HostTensor::F32(S({3}), {-2, 3, 0.5f}), HostTensor::I64(S({}), {3})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].f32(), (std::vector<float>{-8, 27, 0.125f}));
  r = RunKernel("Pow", Attrs(), {F16(S({2}), {1.5f, 3}), F16(S({}), {2})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(HalfValues(r.outputs[0]), (std::vector<float>{2.25f, 9}));
}

TEST(KernelsBinary, ModFollowsFmodAttribute) {
  HostTensor a = HostTensor::I64(S({6}), {7, -7, 7, -7, 5, 3});
  HostTensor b = HostTensor::I64(S({6}), {3, 3, -3, -3, 0, -1});
  RunResult r = RunKernel("Mod", Attrs(), {a, b});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].values<int64_t>(),
            (std::vector<int64_t>{1, 2, -2, -1, 0, 0}));
  Attrs fmod;
  fmod.Int("fmod", 1);
  r = RunKernel("Mod", fmod, {a, b});
  EXPECT_EQ(r.outputs[0].values<int64_t>(),
            (std::vector<int64_t>{1, -1, 1, -1, 0, 0}));
  r = RunKernel(
      "Mod", fmod,
      {HostTensor::F32(S({3}), {5.5f, -5.5f, 1}), HostTensor::F32(S({}), {2})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].f32(), (std::vector<float>{1.5f, -1.5f, 1}));
  r = RunKernel("Mod", Attrs(),
                {I32(S({2}), {std::numeric_limits<int32_t>::min(), -9}),
                 I32(S({1}), {4})});
  EXPECT_EQ(r.outputs[0].values<int32_t>(), (std::vector<int32_t>{0, 3}));
}

TEST(KernelsBinary, ArithmeticInInt32AndHalf) {
  const Shape sa = S({2, 3}), sb = S({3});
  const int32_t lo = std::numeric_limits<int32_t>::min();
  const int32_t hi = std::numeric_limits<int32_t>::max();
  const std::vector<int32_t> a = {7, -7, 100, 0, lo, 5};
  const std::vector<int32_t> b = {2, -1, 0};
  RunResult r = RunKernel("Div", Attrs(), {I32(sa, a), I32(sb, b)});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].values<int32_t>(),
            (std::vector<int32_t>{3, 7, 0, 0, lo, 0}));
  r = RunKernel("Add", Attrs(), {I32(sa, a), I32(sb, b)});
  EXPECT_EQ(r.outputs[0].values<int32_t>(),
            (std::vector<int32_t>{9, -8, 100, 2, hi, 5}));
  const std::pair<const char*, std::function<float(float, float)>> ops[] = {
      {"Add", [](float x, float y) { return x + y; }},
      {"Sub", [](float x, float y) { return x - y; }},
      {"Mul", [](float x, float y) { return x * y; }},
      {"Div", [](float x, float y) { return x / y; }},
  };
  for (const auto& [op, f] : ops) {
    const auto& fn = f;  // C++17 lambdas cannot capture a structured binding
    std::vector<float> x = RoundToHalf(RandomFloats(6, 11));
    std::vector<float> y = RoundToHalf({0.75f, -1.5f, 2.25f});
    RunResult h = RunKernel(op, Attrs(), {F16(sa, x), F16(sb, y)});
    ASSERT_EQ(h.error, "") << op;
    ASSERT_EQ(h.outputs[0].dtype, DType::kFloat16);
    std::vector<float> want = Oracle<float>(
        sa, sb, sa, [&](int64_t i, int64_t j) { return fn(x[i], y[j]); });
    // One rounding to half of the exact float result.
    EXPECT_EQ(HalfValues(h.outputs[0]), RoundToHalf(want)) << op;
  }
  r = RunKernel("Relu", Attrs(), {F16(S({3}), {-1, 0.5f, 2})});
  EXPECT_EQ(HalfValues(r.outputs[0]), (std::vector<float>{0, 0.5f, 2}));
  r = RunKernel("Relu", Attrs(), {I32(S({2}), {-1, 4})});
  EXPECT_EQ(r.outputs[0].values<int32_t>(), (std::vector<int32_t>{0, 4}));
}

}  // namespace
}  // namespace testing
}  // namespace ascend_emu
