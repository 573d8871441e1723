// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Activation kernels: Relu (NaN stays NaN, int64), attribute defaults and
// values of LeakyRelu, Elu and HardSigmoid, and Clip with either or both
// bounds. Their float32/float16 oracles over shapes are in
// kernels_test_unary_math.cc, with the other unary ops.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "kernels_test_dtypes.h"
#include "kernels_test_unary_oracle.h"
#include "kernels_test_util.h"

namespace ascend_emu {
namespace testing {
namespace {

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

TEST(KernelsUnary, AttributesChangeTheFunction) {
  std::vector<float> x = Inputs(20, false, 7);
  Attrs leaky;
  leaky.Float("alpha", 0.3f);
  RunResult r = RunKernel("LeakyRelu", leaky, {HostTensor::F32(S({20}), x)});
  ASSERT_EQ(r.error, "");
  ExpectNear(r.outputs[0].f32(),
             Apply(x, [](float v) { return v < 0 ? 0.3f * v : v; }), 0);
  Attrs elu;
  elu.Float("alpha", 2.0f);
  r = RunKernel("Elu", elu, {HostTensor::F32(S({20}), x)});
  ExpectNear(r.outputs[0].f32(),
             Apply(x, [](float v) { return v < 0 ? 2 * std::expm1(v) : v; }),
             0);
  Attrs hs;
  hs.Float("alpha", 0.5f).Float("beta", 0.25f);
  r = RunKernel("HardSigmoid", hs, {HostTensor::F32(S({20}), x)});
  ExpectNear(r.outputs[0].f32(),
             Apply(x, [](float v) { return RefHardSigmoid(v, 0.5f, 0.25f); }),
             0);
}

TEST(KernelsUnary, ClipWithEitherOrBothBounds) {
  const std::vector<float> x = {-3, -1, 0, 0.5f, 2, 9};
  const Shape s = S({2, 3});
  auto scalar = [](float v) { return HostTensor::F32(S({}), {v}); };
  RunResult r = RunKernel("Clip", Attrs(),
                          {HostTensor::F32(s, x), scalar(-1.5f), scalar(1)});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].f32(), (std::vector<float>{-1.5f, -1, 0, 0.5f, 1, 1}));
  r = RunKernel("Clip", Attrs(),
                {HostTensor::F32(s, x), HostTensor::Absent(), scalar(0)});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].f32(), (std::vector<float>{-3, -1, 0, 0, 0, 0}));
  r = RunKernel("Clip", Attrs(), {HostTensor::F32(s, x), scalar(0.5f)});
  EXPECT_EQ(r.outputs[0].f32(),
            (std::vector<float>{0.5f, 0.5f, 0.5f, 0.5f, 2, 9}));
  r = RunKernel("Clip", Attrs(), {HostTensor::F32(s, x)});
  EXPECT_EQ(r.outputs[0].f32(), x);
  // An absent bound leaves the infinities, NaN stays NaN (ONNX Runtime).
  const float inf = std::numeric_limits<float>::infinity();
  r = RunKernel("Clip", Attrs(),
                {HostTensor::F32(S({3}), {-inf, inf, std::nanf("")}),
                 HostTensor::Absent(), scalar(inf)});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].f32()[0], -inf);
  EXPECT_EQ(r.outputs[0].f32()[1], inf);
  EXPECT_TRUE(std::isnan(r.outputs[0].f32()[2]));
  // relu6 in half precision
  r = RunKernel("Clip", Attrs(),
                {F16(s, x), F16(S({}), {0}), F16(S({1}), {6})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(HalfValues(r.outputs[0]),
            (std::vector<float>{0, 0, 0, 0.5f, 2, 6}));
  r = RunKernel("Clip", Attrs(),
                {HostTensor::I64(S({3}), {-5, 3, 10}),
                 HostTensor::I64(S({}), {0}), HostTensor::I64(S({}), {4})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].values<int64_t>(), (std::vector<int64_t>{0, 3, 4}));
}

}  // namespace
}  // namespace testing
}  // namespace ascend_emu
