// Add, Sub, Mul, Div (broadcasting, float32 and int64) and Relu against a
// naive oracle that maps every output index back to its inputs.
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "kernels_test_util.h"

namespace ascend_emu {
namespace testing {
namespace {

// Index into `in` for output multi-index `idx` under numpy broadcasting.
int64_t BroadcastIndex(const std::vector<int64_t>& idx, const Shape& out,
                       const Shape& in) {
  int64_t flat = 0;
  for (int32_t i = 0; i < in.rank; ++i) {
    const int32_t o = i + (out.rank - in.rank);
    const int64_t k = in.dims[i] == 1 ? 0 : idx[o];
    flat = flat * in.dims[i] + k;
  }
  return flat;
}

template <typename T>
std::vector<T> Oracle(const std::vector<T>& a, const Shape& sa,
                      const std::vector<T>& b, const Shape& sb,
                      const Shape& out, const std::function<T(T, T)>& f) {
  std::vector<T> y(static_cast<size_t>(out.numel()));
  for (int64_t i = 0; i < out.numel(); ++i) {
    std::vector<int64_t> idx = Unravel(i, out);
    y[i] = f(a[BroadcastIndex(idx, out, sa)], b[BroadcastIndex(idx, out, sb)]);
  }
  return y;
}

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
    for (const BroadcastCase& c : kCases) {
      for (bool swap : {false, true}) {
        Shape sa = S(swap ? c.b : c.a);
        Shape sb = S(swap ? c.a : c.b);
        HostTensor a = RandF32(sa, seed++);
        HostTensor b = RandF32(sb, seed++);
        RunResult r = RunKernel(op, Attrs(), {a, b});
        ASSERT_EQ(r.error, "") << op;
        ASSERT_EQ(r.outputs[0].shape, S(c.out)) << op;
        EXPECT_EQ(r.outputs[0].dtype, DType::kFloat32);
        ExpectNear(r.outputs[0].f32(),
                   Oracle<float>(a.f32(), sa, b.f32(), sb, S(c.out), f), 0);
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

TEST(KernelsElementwise, ReluFloatKeepsNanAndInt64) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  HostTensor x =
      HostTensor::F32(S({2, 3}), {-1.0f, 0.0f, 2.5f, -0.0f, nan, 3.0f});
  RunResult r = RunKernel("Relu", Attrs(), {x});
  ASSERT_EQ(r.error, "");
  std::vector<float> y = r.outputs[0].f32();
  EXPECT_EQ(r.outputs[0].shape, S({2, 3}));
  EXPECT_EQ(y[0], 0.0f);
  EXPECT_EQ(y[1], 0.0f);
  EXPECT_EQ(y[2], 2.5f);
  EXPECT_TRUE(std::isnan(y[4]));
  EXPECT_EQ(y[5], 3.0f);

  HostTensor big = RandF32(S({3, 5, 7}), 9);
  r = RunKernel("Relu", Attrs(), {big});
  ASSERT_EQ(r.error, "");
  std::vector<float> in = big.f32();
  std::vector<float> want(in.size());
  for (size_t i = 0; i < in.size(); ++i) want[i] = in[i] > 0 ? in[i] : 0.0f;
  ExpectNear(r.outputs[0].f32(), want, 0);

  r = RunKernel("Relu", Attrs(), {HostTensor::I64(S({3}), {-4, 0, 9})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].values<int64_t>(), (std::vector<int64_t>{0, 0, 9}));

  EXPECT_INFER_FAILS(InferKernel("Relu", Attrs(), {x, x}), "Relu: expects 1");
  EXPECT_INFER_FAILS(
      InferKernel("Relu", Attrs(),
                  {HostTensor::Of<uint8_t>(DType::kBool, S({1}), {1})}),
      "Relu: unsupported dtype bool");
}

}  // namespace
}  // namespace testing
}  // namespace ascend_emu
