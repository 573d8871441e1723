// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Elementwise math kernels against std:: math oracles: float32 exactly (same
// formula), float16 within half rounding, integer Abs/Neg/Sign, rounding and
// special values, and refusals. The oracle tables and KernelsUnary.Refusals
// also cover the float activations (Sigmoid, Tanh, HardSwish, LeakyRelu, Elu,
// HardSigmoid), Clip and the bool-valued Not, IsInf and IsNaN.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include "kernels_test_dtypes.h"
#include "kernels_test_unary_oracle.h"
#include "kernels_test_util.h"

namespace ascend_emu {
namespace testing {
namespace {

struct UnaryCase {
  const char* op;
  FloatFn ref;
  bool positive_only;  // Log, Sqrt: inputs in (0, 4]
};

std::vector<UnaryCase> FloatCases() {
  return {
      {"Abs", [](float v) { return std::fabs(v); }, false},
      {"Neg", [](float v) { return -v; }, false},
      {"Exp", [](float v) { return std::exp(v); }, false},
      {"Log", [](float v) { return std::log(v); }, true},
      {"Sqrt", [](float v) { return std::sqrt(v); }, true},
      {"Reciprocal", [](float v) { return 1.0f / v; }, true},
      {"Sigmoid", RefSigmoid, false},
      {"Swish", [](float v) { return v * RefSigmoid(v); }, false},
      {"Tanh", [](float v) { return std::tanh(v); }, false},
      {"Erf", [](float v) { return std::erf(v); }, false},
      {"Sin", [](float v) { return std::sin(v); }, false},
      {"Cos", [](float v) { return std::cos(v); }, false},
      {"Floor", [](float v) { return std::floor(v); }, false},
      {"Ceil", [](float v) { return std::ceil(v); }, false},
      {"Round", [](float v) { return std::nearbyint(v); }, false},
      {"Sign", [](float v) { return v > 0 ? 1.0f : (v < 0 ? -1.0f : 0.0f); },
       false},
      {"HardSwish",
       [](float v) { return v * RefHardSigmoid(v, 1.0f / 6.0f, 0.5f); }, false},
      {"LeakyRelu", [](float v) { return v < 0 ? 0.01f * v : v; }, false},
      {"Elu", [](float v) { return v < 0 ? std::exp(v) - 1.0f : v; }, false},
      {"HardSigmoid", [](float v) { return RefHardSigmoid(v, 0.2f, 0.5f); },
       false},
  };
}

TEST(KernelsUnary, Float32MatchesOracleOverShapes) {
  uint32_t seed = 1;
  for (const UnaryCase& c : FloatCases()) {
    for (const Shape& s : {S({}), S({7}), S({2, 3, 4}), S({2, 0, 3})}) {
      std::vector<float> x = Inputs(s.numel(), c.positive_only, seed++);
      RunResult r = RunKernel(c.op, Attrs(), {HostTensor::F32(s, x)});
      ASSERT_EQ(r.error, "") << c.op;
      ASSERT_EQ(r.outputs[0].shape, s) << c.op;
      ASSERT_EQ(r.outputs[0].dtype, DType::kFloat32) << c.op;
      // Elu uses expm1 and Sigmoid a stable form: not bit-identical.
      ExpectNear(r.outputs[0].f32(), Apply(x, c.ref), 1e-6f);
    }
  }
}

TEST(KernelsUnary, Float16ComputesInFloatAndRoundsOnce) {
  uint32_t seed = 100;
  for (const UnaryCase& c : FloatCases()) {
    const Shape s = S({3, 5});
    std::vector<float> x = RoundToHalf(Inputs(15, c.positive_only, seed++));
    RunResult r = RunKernel(c.op, Attrs(), {F16(s, x)});
    ASSERT_EQ(r.error, "") << c.op;
    ASSERT_EQ(r.outputs[0].dtype, DType::kFloat16) << c.op;
    SCOPED_TRACE(c.op);
    ExpectHalfNear(HalfValues(r.outputs[0]), Apply(x, c.ref), 1.0f, 1e-7f);
  }
}

TEST(KernelsUnary, RoundHalvesToEvenAndSpecialValues) {
  const float inf = std::numeric_limits<float>::infinity();
  RunResult r = RunKernel("Round", Attrs(),
                          {HostTensor::F32(S({8}), {0.5f, 1.5f, 2.5f, -0.5f,
                                                    -1.5f, 2.4f, -2.6f, inf})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].f32(),
            (std::vector<float>{0, 2, 2, -0.0f, -2, 2, -3, inf}));
  r = RunKernel("Sigmoid", Attrs(),
                {HostTensor::F32(S({3}), {-100.0f, 100.0f, -inf})});
  ASSERT_EQ(r.error, "");
  // The stable form keeps the tiny tail the naive 1 / (1 + e^100) loses.
  EXPECT_GT(r.outputs[0].f32()[0], 0.0f);
  EXPECT_LT(r.outputs[0].f32()[0], 1e-40f);
  EXPECT_EQ(r.outputs[0].f32()[1], 1.0f);
  EXPECT_EQ(r.outputs[0].f32()[2], 0.0f);
  r = RunKernel("Sign", Attrs(), {HostTensor::F32(S({1}), {std::nanf("")})});
  EXPECT_TRUE(std::isnan(r.outputs[0].f32()[0]));
}

// Erf, Tanh, Exp and Sigmoid run on vectorised blocks (vector_math.h): long
// and odd lengths (several 256-element chunks, a SIMD tail; float16 runs in
// place on a float chunk), arguments far past the approximations' clamps,
// infinities and NaN. Sigmoid's small tail is checked relative to its value.
TEST(KernelsUnary, VectorisedErfTanhExpSigmoidOverLongInputsAndSpecialValues) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::nanf("");
  const int64_t n = 1000 + 3;
  std::vector<float> x(n);
  for (int64_t i = 0; i < n; ++i) x[i] = -12.0f + 24.0f * i / (n - 1);
  x[5] = inf;
  x[6] = -inf;
  x[7] = nan;
  x[n - 1] = nan;
  x[8] = 0.0f;
  x[9] = -1e-30f;
  x[10] = -100.0f;  // exp: subnormal, below the vectorised exp's clamp
  x[11] = -87.5f;   // exp: just below FLT_MIN
  x[12] = -30.0f;   // sigmoid 9.4e-14: below Eigen's logistic clamp (-18)
  x[13] = 40.0f;
  const struct {
    const char* op;
    float (*ref)(float);
    bool relative;  // tolerance relative to the value, however small
  } cases[] = {
      {"Erf", [](float v) { return std::erf(v); }, false},
      {"Tanh", [](float v) { return std::tanh(v); }, false},
      {"Exp", [](float v) { return std::exp(v); }, false},
      {"Sigmoid",
       [](float v) {
         const double e = std::exp(-std::fabs(double{v}));
         return static_cast<float>(v >= 0 ? 1.0 / (1.0 + e) : e / (1.0 + e));
       },
       true}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.op);
    RunResult r = RunKernel(c.op, Attrs(), {HostTensor::F32(S({n}), x)});
    ASSERT_EQ(r.error, "");
    const std::vector<float> got = r.outputs[0].f32();
    for (int64_t i = 0; i < n; ++i) {
      const float want = c.ref(x[i]);
      if (std::isnan(want)) {
        EXPECT_TRUE(std::isnan(got[i])) << "at " << i;
      } else if (std::isinf(want) || want == 0.0f ||
                 std::fpclassify(want) == FP_SUBNORMAL) {
        EXPECT_EQ(got[i], want) << "at " << i << ", x " << x[i];
      } else {
        const float tol = c.relative ? 1e-6f * std::fabs(want)
                                     : 4e-7f * std::max(1.0f, std::fabs(want));
        EXPECT_NEAR(got[i], want, tol) << "at " << i << ", x " << x[i];
      }
    }
    // float16 through float chunks: NaN and values at every chunk boundary.
    std::vector<float> xh = RoundToHalf(x);
    for (float& v : xh) v = std::isinf(v) || std::fabs(v) > 8 ? 0.5f : v;
    xh[7] = nan;
    RunResult h = RunKernel(c.op, Attrs(), {F16(S({n}), xh)});
    ASSERT_EQ(h.error, "");
    std::vector<float> hv = HalfValues(h.outputs[0]);
    EXPECT_TRUE(std::isnan(hv[7]));
    hv[7] = 0.0f;
    xh[7] = 0.0f;
    std::vector<float> want = Apply(xh, c.ref);
    want[7] = 0.0f;
    ExpectHalfNear(hv, want, 1.0f, 1e-7f);
  }
}

// Swish (atc's fusion of Sigmoid and the Mul by it, docs/atc.md) is exactly
// x times the Sigmoid kernel's own values, bit for bit, over several chunks
// and a tail, with infinities (-inf * 0 is NaN, as unfused), NaN, signed
// zeros and the Sigmoid's subnormal tail; and it takes no attributes.
TEST(KernelsUnary, SwishIsXTimesTheSigmoidKernelBitForBit) {
  const float inf = std::numeric_limits<float>::infinity();
  const int64_t n = 3 * 256 + 5;
  std::vector<float> x = Inputs(n, false, 42);
  for (int64_t i = 0; i < n; ++i) x[i] *= 1.0f + static_cast<float>(i % 40);
  const float specials[] = {inf,     -inf,   std::nanf(""), 0.0f,  -0.0f,
                            -100.0f, -87.5f, -30.0f,        88.5f, 1e-30f};
  for (size_t k = 0; k < std::size(specials); ++k) x[250 + k] = specials[k];
  RunResult sig = RunKernel("Sigmoid", Attrs(), {HostTensor::F32(S({n}), x)});
  RunResult swish = RunKernel("Swish", Attrs(), {HostTensor::F32(S({n}), x)});
  ASSERT_EQ(sig.error, "");
  ASSERT_EQ(swish.error, "");
  const std::vector<float> s = sig.outputs[0].f32();
  const std::vector<float> y = swish.outputs[0].f32();
  for (int64_t i = 0; i < n; ++i) {
    const float want = x[i] * s[i];
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(y[i])) << "at " << i << ", x " << x[i];
    } else {
      EXPECT_EQ(std::memcmp(&y[i], &want, sizeof(float)), 0)
          << "at " << i << ", x " << x[i] << ": " << y[i] << " vs " << want;
    }
  }
  Attrs scale;
  scale.Float("scale", 2.0f);
  EXPECT_INFER_FAILS(InferKernel("Swish", scale, {RandF32(S({2}), 1)}),
                     "takes no attributes");
}

// Found by the random differential test (scripts/random_graphs.py): Eigen's
// packet exp overflowed to +inf from about 88.38 up to ln(FLT_MAX) = 88.72,
// where expf is still finite (2.4e38..3.4e38); a short input ran the scalar
// tail and hid it.
TEST(KernelsUnary, ExpIsFiniteUpToLnFltMax) {
  const int64_t n = 64;
  std::vector<float> x(n);
  for (int64_t i = 0; i < n; ++i) x[i] = 88.0f + 1.0f * i / (n - 1);
  RunResult r = RunKernel("Exp", Attrs(), {HostTensor::F32(S({n}), x)});
  ASSERT_EQ(r.error, "");
  const std::vector<float> got = r.outputs[0].f32();
  for (int64_t i = 0; i < n; ++i) {
    const float want = std::exp(x[i]);
    if (std::isinf(want)) {
      EXPECT_EQ(got[i], want) << "x " << x[i];
    } else {
      EXPECT_NEAR(got[i], want, 4e-7f * want) << "x " << x[i];
    }
  }
}

TEST(KernelsUnary, PowByScalarSquareAndCubeMatchPowf) {
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> x = Inputs(37, false, 7);
  x[0] = inf;
  x[1] = -inf;
  x[2] = -0.0f;
  x[3] = 1e20f;  // overflows to inf in both
  for (float p : {2.0f, 3.0f}) {
    RunResult r =
        RunKernel("Pow", Attrs(),
                  {HostTensor::F32(S({37}), x), HostTensor::F32(S({}), {p})});
    ASSERT_EQ(r.error, "");
    const std::vector<float> got = r.outputs[0].f32();
    for (size_t i = 0; i < x.size(); ++i) {
      const float want = std::pow(x[i], p);
      if (std::isinf(want) || want == 0.0f) {
        EXPECT_EQ(got[i], want) << "x " << x[i] << " p " << p;
      } else {
        EXPECT_NEAR(got[i], want, 2.5e-7f * std::fabs(want)) << "x " << x[i];
      }
    }
  }
  std::vector<float> nan_in = {std::nanf("")};
  RunResult r =
      RunKernel("Pow", Attrs(),
                {HostTensor::F32(S({1}), nan_in), HostTensor::F32(S({}), {3})});
  ASSERT_EQ(r.error, "");
  EXPECT_TRUE(std::isnan(r.outputs[0].f32()[0]));
}

TEST(KernelsUnary, IntegerAbsNegSignWrapAtMinimum) {
  const int64_t lo = std::numeric_limits<int64_t>::min();
  HostTensor x = HostTensor::I64(S({4}), {-3, 0, 7, lo});
  RunResult r = RunKernel("Abs", Attrs(), {x});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].values<int64_t>(),
            (std::vector<int64_t>{3, 0, 7, lo}));
  r = RunKernel("Neg", Attrs(), {x});
  EXPECT_EQ(r.outputs[0].values<int64_t>(),
            (std::vector<int64_t>{3, 0, -7, lo}));
  r = RunKernel("Sign", Attrs(), {x});
  EXPECT_EQ(r.outputs[0].values<int64_t>(),
            (std::vector<int64_t>{-1, 0, 1, -1}));
  r = RunKernel("Neg", Attrs(), {I32(S({2, 1}), {5, -9})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].dtype, DType::kInt32);
  EXPECT_EQ(r.outputs[0].values<int32_t>(), (std::vector<int32_t>{-5, 9}));
}

TEST(KernelsUnary, Refusals) {
  HostTensor i64 = HostTensor::I64(S({2}), {1, 2});
  EXPECT_INFER_FAILS(InferKernel("Exp", Attrs(), {i64}), "unsupported dtype");
  EXPECT_INFER_FAILS(InferKernel("Not", Attrs(), {RandF32(S({2}), 1)}),
                     "unsupported dtype float32 (bool)");
  EXPECT_INFER_FAILS(InferKernel("Abs", Attrs(), {BoolT(S({1}), {1})}),
                     "unsupported dtype");
  EXPECT_INFER_FAILS(InferKernel("IsInf", Attrs(), {i64}),
                     "unsupported dtype int64 (float32 or float16)");
  EXPECT_INFER_FAILS(InferKernel("IsNaN", Attrs(), {BoolT(S({1}), {1})}),
                     "unsupported dtype bool");
  Attrs detect2;
  detect2.Int("detect_positive", 2);
  EXPECT_INFER_FAILS(InferKernel("IsInf", detect2, {RandF32(S({2}), 1)}),
                     "IsInf: detect_positive must be 0 or 1, got 2");
  Attrs detect_float;
  detect_float.Float("detect_negative", 1);
  EXPECT_INFER_FAILS(InferKernel("IsInf", detect_float, {RandF32(S({2}), 1)}),
                     "attribute 'detect_negative' must be of kind int");
  Attrs stranger;
  stranger.Int("detect_positive", 1);
  EXPECT_INFER_FAILS(InferKernel("IsNaN", stranger, {RandF32(S({2}), 1)}),
                     "unsupported attribute 'detect_positive'");
  EXPECT_INFER_FAILS(
      InferKernel("IsNaN", Attrs(), {RandF32(S({2}), 1), RandF32(S({2}), 1)}),
      "expects 1 inputs");
  EXPECT_INFER_FAILS(InferKernel("Sqrt", Attrs(), {}), "expects 1 inputs");
  EXPECT_INFER_FAILS(
      InferKernel("Tanh", Attrs(), {RandF32(S({2}), 1), RandF32(S({2}), 1)}),
      "expects 1 inputs");
  Attrs alpha_int;
  alpha_int.Int("alpha", 1);
  EXPECT_INFER_FAILS(InferKernel("LeakyRelu", alpha_int, {RandF32(S({2}), 1)}),
                     "attribute 'alpha' must be of kind float");
  Attrs alpha;
  alpha.Float("alpha", 1);
  EXPECT_INFER_FAILS(InferKernel("Sigmoid", alpha, {RandF32(S({2}), 1)}),
                     "unsupported attribute 'alpha'");
  HostTensor x = RandF32(S({2, 2}), 2);
  EXPECT_INFER_FAILS(InferKernel("Clip", Attrs(), {x, RandF32(S({2}), 3)}),
                     "min must be a scalar");
  EXPECT_INFER_FAILS(
      InferKernel("Clip", Attrs(), {x, HostTensor::Absent(), F16(S({}), {1})}),
      "max dtype float16 differs");
  Attrs old_clip;
  old_clip.Float("min", 0);
  EXPECT_INFER_FAILS(InferKernel("Clip", old_clip, {x}),
                     "unsupported attribute 'min'");
  EXPECT_INFER_FAILS(InferKernel("Clip", Attrs(), {BoolT(S({1}), {1})}),
                     "unsupported dtype");
}

}  // namespace
}  // namespace testing
}  // namespace ascend_emu
