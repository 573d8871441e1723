// Pow, Max/Min (variadic), comparisons, And/Or/Xor, Where, Mod, and int32/fp16
// Add/Sub/Mul/Div against a naive broadcasting oracle, plus refusals.
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "kernels_test_dtypes.h"
#include "kernels_test_util.h"

namespace ascend_emu {
namespace testing {
namespace {

int64_t BIndex(const std::vector<int64_t>& idx, const Shape& out,
               const Shape& in) {
  int64_t flat = 0;
  for (int32_t i = 0; i < in.rank; ++i) {
    const int64_t k = in.dims[i] == 1 ? 0 : idx[i + (out.rank - in.rank)];
    flat = flat * in.dims[i] + k;
  }
  return flat;
}

// out[i] = f(i_a, i_b): the flat input indices for output element i.
template <typename R>
std::vector<R> Oracle(const Shape& sa, const Shape& sb, const Shape& out,
                      const std::function<R(int64_t, int64_t)>& f) {
  std::vector<R> y(static_cast<size_t>(out.numel()));
  for (int64_t i = 0; i < out.numel(); ++i) {
    std::vector<int64_t> idx = Unravel(i, out);
    y[i] = f(BIndex(idx, out, sa), BIndex(idx, out, sb));
  }
  return y;
}

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
    for (const Case& c : kCases) {
      const Shape sa = S(c.a), sb = S(c.b), so = S(c.out);
      std::vector<float> a = SmallInts(sa.numel(), seed++);
      std::vector<float> b = SmallInts(sb.numel(), seed++);
      std::vector<uint8_t> want = Oracle<uint8_t>(
          sa, sb, so, [&](int64_t i, int64_t j) { return f(a[i], b[j]); });
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
    std::vector<float> x = RoundToHalf(RandomFloats(6, 11));
    std::vector<float> y = RoundToHalf({0.75f, -1.5f, 2.25f});
    RunResult h = RunKernel(op, Attrs(), {F16(sa, x), F16(sb, y)});
    ASSERT_EQ(h.error, "") << op;
    ASSERT_EQ(h.outputs[0].dtype, DType::kFloat16);
    std::vector<float> want = Oracle<float>(
        sa, sb, sa, [&](int64_t i, int64_t j) { return f(x[i], y[j]); });
    // One rounding to half of the exact float result.
    EXPECT_EQ(HalfValues(h.outputs[0]), RoundToHalf(want)) << op;
  }
  r = RunKernel("Relu", Attrs(), {F16(S({3}), {-1, 0.5f, 2})});
  EXPECT_EQ(HalfValues(r.outputs[0]), (std::vector<float>{0, 0.5f, 2}));
  r = RunKernel("Relu", Attrs(), {I32(S({2}), {-1, 4})});
  EXPECT_EQ(r.outputs[0].values<int32_t>(), (std::vector<int32_t>{0, 4}));
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
