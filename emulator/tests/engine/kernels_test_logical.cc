// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Comparisons (bool out, every numeric dtype and bool for Equal), And, Or,
// Xor, Not, Where (3-way broadcast), IsInf and IsNaN against naive oracles,
// and refusals. KernelsBinary.Refusals also covers the broadcasting
// arithmetic ops (Mod, Pow, Max, Min, Add).
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

struct Case {
  std::vector<int64_t> a, b, out;
};
const Case kCases[] = {
    {{2, 3}, {2, 3}, {2, 3}},
    {{}, {}, {}},
    {{2, 3, 4}, {}, {2, 3, 4}},
    {{2, 1, 4}, {1, 3, 1}, {2, 3, 4}},
    {{4, 1}, {1, 5}, {4, 5}},
    {{3, 0, 2}, {1, 2}, {3, 0, 2}},
    {{1, 3, 1, 5}, {2, 1, 4, 1}, {2, 3, 4, 5}},
};

// Small integers as floats so comparisons see equal values too.
std::vector<float> SmallInts(int64_t n, uint32_t seed) {
  std::vector<float> v = RandomFloats(n, seed);
  for (float& x : v) x = std::round(x * 3);
  return v;
}

TEST(KernelsBinary, ComparisonsGiveBoolForEveryDtype) {
  const std::pair<const char*, std::function<bool(float, float)>> ops[] = {
      {"Equal", [](float x, float y) { return x == y; }},
      {"Less", [](float x, float y) { return x < y; }},
      {"LessOrEqual", [](float x, float y) { return x <= y; }},
      {"Greater", [](float x, float y) { return x > y; }},
      {"GreaterOrEqual", [](float x, float y) { return x >= y; }},
  };
  uint32_t seed = 1;
  for (const auto& [op, f] : ops) {
    const auto& fn = f;  // C++17 lambdas cannot capture a structured binding
    for (const Case& c : kCases) {
      const Shape sa = S(c.a), sb = S(c.b), so = S(c.out);
      std::vector<float> a = SmallInts(sa.numel(), seed++);
      std::vector<float> b = SmallInts(sb.numel(), seed++);
      std::vector<uint8_t> want = Oracle<uint8_t>(
          sa, sb, so, [&](int64_t i, int64_t j) { return fn(a[i], b[j]); });
      std::vector<int32_t> a32(a.begin(), a.end()), b32(b.begin(), b.end());
      std::vector<int64_t> a64(a.begin(), a.end()), b64(b.begin(), b.end());
      const std::vector<std::pair<HostTensor, HostTensor>> typed = {
          {HostTensor::F32(sa, a), HostTensor::F32(sb, b)},
          {F16(sa, a), F16(sb, b)},
          {I32(sa, a32), I32(sb, b32)},
          {HostTensor::I64(sa, a64), HostTensor::I64(sb, b64)},
      };
      for (const auto& [ta, tb] : typed) {
        RunResult r = RunKernel(op, Attrs(), {ta, tb});
        ASSERT_EQ(r.error, "") << op;
        ASSERT_EQ(r.outputs[0].shape, so);
        ASSERT_EQ(r.outputs[0].dtype, DType::kBool);
        EXPECT_EQ(r.outputs[0].values<uint8_t>(), want)
            << op << " " << DTypeName(ta.dtype);
      }
    }
  }
  RunResult r =
      RunKernel("Equal", Attrs(),
                {BoolT(S({4}), {0, 1, 7, 0}), BoolT(S({4}), {0, 1, 1, 3})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].values<uint8_t>(), (std::vector<uint8_t>{1, 1, 1, 0}));
}

TEST(KernelsBinary, AndOrWhere) {
  HostTensor a = BoolT(S({2, 1}), {0, 5});
  HostTensor b = BoolT(S({3}), {0, 1, 0});
  RunResult r = RunKernel("And", Attrs(), {a, b});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].values<uint8_t>(),
            (std::vector<uint8_t>{0, 0, 0, 0, 1, 0}));
  r = RunKernel("Or", Attrs(), {a, b});
  EXPECT_EQ(r.outputs[0].values<uint8_t>(),
            (std::vector<uint8_t>{0, 1, 0, 1, 1, 1}));
  // Xor reads any non-zero byte as true (5 xor 1 is false) and writes 0/1.
  r = RunKernel("Xor", Attrs(), {a, b});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].shape, S({2, 3}));
  EXPECT_EQ(r.outputs[0].dtype, DType::kBool);
  EXPECT_EQ(r.outputs[0].values<uint8_t>(),
            (std::vector<uint8_t>{0, 1, 0, 1, 0, 1}));
  // Where: cond [2,1], x [3], y scalar -> [2,3], for several dtypes.
  r = RunKernel(
      "Where", Attrs(),
      {a, HostTensor::F32(S({3}), {1, 2, 3}), HostTensor::F32(S({}), {-1})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].shape, S({2, 3}));
  EXPECT_EQ(r.outputs[0].f32(), (std::vector<float>{-1, -1, -1, 1, 2, 3}));
  r = RunKernel("Where", Attrs(),
                {b, HostTensor::I64(S({2, 1}), {7, 8}),
                 HostTensor::I64(S({1, 3}), {0, 1, 2})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].values<int64_t>(),
            (std::vector<int64_t>{0, 7, 2, 0, 8, 2}));
  r = RunKernel("Where", Attrs(),
                {BoolT(S({2}), {1, 0}), F16(S({2}), {0.5f, 0.5f}),
                 F16(S({2}), {-3, -3})});
  EXPECT_EQ(HalfValues(r.outputs[0]), (std::vector<float>{0.5f, -3}));
  // masked_fill's pattern on a larger broadcast against the oracle.
  const Shape sc = S({1, 4, 1, 5}), sx = S({2, 1, 3, 5}), so = S({2, 4, 3, 5});
  std::vector<uint8_t> cond(20);
  for (size_t i = 0; i < cond.size(); ++i) cond[i] = (i * 7) % 3 == 0;
  HostTensor x = RandF32(sx, 9);
  r = RunKernel("Where", Attrs(),
                {BoolT(sc, cond), x, HostTensor::F32(S({}), {-1e9f})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].f32(),
            Oracle<float>(sc, sx, so, [&](int64_t i, int64_t j) {
              return cond[i] ? x.f32()[j] : -1e9f;
            }));
}

TEST(KernelsUnary, NotReadsAnyNonZeroByteAsTrue) {
  RunResult r = RunKernel("Not", Attrs(), {BoolT(S({4}), {0, 1, 2, 255})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].dtype, DType::kBool);
  EXPECT_EQ(r.outputs[0].values<uint8_t>(), (std::vector<uint8_t>{1, 0, 0, 0}));
}

TEST(KernelsUnary, IsInfAndIsNaNInFloat32AndFloat16) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float big = std::numeric_limits<float>::max();
  const std::vector<float> x = {0, -1.5f, inf, -inf, nan, big, -big, -0.0f};
  const Shape s = S({2, 4});
  struct Case {
    int64_t pos, neg;  // -1: attribute absent (default 1)
    std::vector<uint8_t> want;
  };
  const Case cases[] = {
      {-1, -1, {0, 0, 1, 1, 0, 0, 0, 0}}, {1, 0, {0, 0, 1, 0, 0, 0, 0, 0}},
      {0, 1, {0, 0, 0, 1, 0, 0, 0, 0}},   {0, 0, {0, 0, 0, 0, 0, 0, 0, 0}},
      {1, -1, {0, 0, 1, 1, 0, 0, 0, 0}},
  };
  for (const Case& c : cases) {
    Attrs a;
    if (c.pos >= 0) a.Int("detect_positive", c.pos);
    if (c.neg >= 0) a.Int("detect_negative", c.neg);
    RunResult r = RunKernel("IsInf", a, {HostTensor::F32(s, x)});
    ASSERT_EQ(r.error, "");
    EXPECT_EQ(r.outputs[0].dtype, DType::kBool);
    EXPECT_EQ(r.outputs[0].shape, s);
    EXPECT_EQ(r.outputs[0].values<uint8_t>(), c.want) << c.pos << " " << c.neg;
    // float32 max is inf in half: fp16's own 65504 stays finite.
    std::vector<float> hx = x;
    hx[5] = 65504.0f;
    hx[6] = -65504.0f;
    r = RunKernel("IsInf", a, {F16(s, hx)});
    ASSERT_EQ(r.error, "");
    EXPECT_EQ(r.outputs[0].values<uint8_t>(), c.want) << c.pos << " " << c.neg;
  }
  const std::vector<uint8_t> nans = {0, 0, 0, 0, 1, 0, 0, 0};
  RunResult r = RunKernel("IsNaN", Attrs(), {HostTensor::F32(s, x)});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].dtype, DType::kBool);
  EXPECT_EQ(r.outputs[0].values<uint8_t>(), nans);
  r = RunKernel("IsNaN", Attrs(), {F16(s, x)});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].values<uint8_t>(), nans);
  r = RunKernel("IsNaN", Attrs(), {HostTensor::F32(S({}), {nan})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].shape, S({}));
  EXPECT_EQ(r.outputs[0].values<uint8_t>(), (std::vector<uint8_t>{1}));
}

TEST(KernelsBinary, Refusals) {
  HostTensor f = RandF32(S({2, 3}), 1);
  HostTensor i = HostTensor::I64(S({3}), {1, 2, 3});
  HostTensor bo = BoolT(S({3}), {1, 0, 1});
  EXPECT_INFER_FAILS(InferKernel("Less", Attrs(), {f, i}), "dtypes differ");
  EXPECT_INFER_FAILS(InferKernel("Less", Attrs(), {bo, bo}),
                     "unsupported dtype");
  EXPECT_INFER_FAILS(InferKernel("Equal", Attrs(), {f, RandF32(S({4}), 2)}),
                     "do not broadcast");
  EXPECT_INFER_FAILS(InferKernel("And", Attrs(), {f, f}), "unsupported dtype");
  EXPECT_INFER_FAILS(InferKernel("Or", Attrs(), {bo}), "expects 2 inputs");
  EXPECT_INFER_FAILS(InferKernel("Xor", Attrs(), {i, i}), "unsupported dtype");
  EXPECT_INFER_FAILS(InferKernel("Xor", Attrs(), {bo, BoolT(S({2}), {1, 0})}),
                     "do not broadcast");
  EXPECT_INFER_FAILS(InferKernel("Where", Attrs(), {f, f, f}),
                     "condition must be bool");
  EXPECT_INFER_FAILS(InferKernel("Where", Attrs(), {bo, f, i}),
                     "X and Y dtypes differ");
  EXPECT_INFER_FAILS(InferKernel("Where", Attrs(),
                                 {bo, RandF32(S({2}), 1), RandF32(S({2}), 1)}),
                     "do not broadcast");
  EXPECT_INFER_FAILS(InferKernel("Mod", Attrs(), {f, f}),
                     "floating-point inputs require fmod=1");
  Attrs bad;
  bad.Int("fmod", 2);
  EXPECT_INFER_FAILS(InferKernel("Mod", bad, {i, i}), "fmod must be 0 or 1");
  EXPECT_INFER_FAILS(InferKernel("Pow", Attrs(), {i, f}), "base");
  EXPECT_INFER_FAILS(InferKernel("Pow", Attrs(), {f, bo}), "exponent");
  EXPECT_INFER_FAILS(InferKernel("Max", Attrs(), {}), "expects 1..64 inputs");
  // A variadic op reads every input: an absent one is refused (issue 11).
  EXPECT_INFER_FAILS(InferKernel("Max", Attrs(), {f, HostTensor::Absent()}),
                     "Max: input 1 is absent");
  EXPECT_INFER_FAILS(InferKernel("Min", Attrs(), {f, f, i}), "dtypes differ");
  EXPECT_INFER_FAILS(InferKernel("Max", Attrs(), {bo, bo}),
                     "unsupported dtype");
  EXPECT_INFER_FAILS(InferKernel("Add", Attrs(), {bo, bo}),
                     "unsupported dtype");
  EXPECT_INFER_FAILS(
      InferKernel("Add", Attrs(), {f, F16(S({2, 3}), std::vector<float>(6))}),
      "dtypes differ");
}

}  // namespace
}  // namespace testing
}  // namespace ascend_emu
