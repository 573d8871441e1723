// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// NPUDynamicQuant (dynamic_quant.cc) against the Ascend910B kernel's
// arithmetic written out here in float32 (ops-nn dynamic_quant.h): per row
// m = max |x * smooth|, s = 127 / m, scale = 1 / s, y = rint(x * s), ties
// to even; float16 and bfloat16 rows, leading dims, a zero row, refusals.
#include <Eigen/Core>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "kernels_test_util.h"

namespace ascend_emu {
namespace testing {
namespace {

using Half = Eigen::half;
using Bf16 = Eigen::bfloat16;

// The formula on rows of `k` widened values (smooth: [k] or empty).
void Expected(const std::vector<float>& x, const std::vector<float>& smooth,
              int64_t k, std::vector<int8_t>* y, std::vector<float>* scale) {
  const int64_t rows = static_cast<int64_t>(x.size()) / k;
  for (int64_t r = 0; r < rows; ++r) {
    float m = 0.0f;
    std::vector<float> v(static_cast<size_t>(k));
    for (int64_t i = 0; i < k; ++i) {
      v[i] = x[r * k + i] * (smooth.empty() ? 1.0f : smooth[i]);
      m = std::max(m, std::fabs(v[i]));
    }
    const float s = 127.0f / m;
    scale->push_back(1.0f / s);
    for (int64_t i = 0; i < k; ++i) {
      const float q = v[i] * s;
      y->push_back(std::isnan(q) ? 0 : static_cast<int8_t>(std::nearbyint(q)));
    }
  }
}

template <typename T>
HostTensor Tensor(DType dtype, const Shape& shape,
                  const std::vector<float>& v) {
  std::vector<T> t(v.begin(), v.end());
  return HostTensor::Of(dtype, shape, t);
}

TEST(KernelsDynamicQuant, RowsMatchTheKernelsArithmetic) {
  std::mt19937 gen(7);
  std::normal_distribution<float> dist(0.0f, 3.0f);
  for (DType dtype : {DType::kFloat16, DType::kBFloat16}) {
    for (bool smooth : {false, true}) {
      const int64_t k = 48;
      std::vector<float> x(2 * 3 * k), s;
      for (float& v : x) {
        v = dtype == DType::kFloat16 ? static_cast<float>(Half(dist(gen)))
                                     : static_cast<float>(Bf16(dist(gen)));
      }
      // Row 1: all zeros; row 2: max 127 exactly, so s = 1 and the halves
      // round to even (2.5 -> 2, 3.5 -> 4, -0.5 -> 0).
      for (int64_t i = 0; i < k; ++i) x[k + i] = 0.0f;
      for (int64_t i = 0; i < k; ++i) x[2 * k + i] = 0.25f * (i % 8);
      x[2 * k] = 127.0f;
      x[2 * k + 1] = 2.5f;
      x[2 * k + 2] = 3.5f;
      x[2 * k + 3] = -0.5f;
      if (smooth) {
        for (int64_t i = 0; i < k; ++i) s.push_back(0.5f + 0.125f * (i % 4));
        s[0] = s[1] = s[2] = s[3] = 1.0f;  // keep row 2's exact halves
      }
      const Shape xs = S({2, 3, k});
      std::vector<HostTensor> in = {dtype == DType::kFloat16
                                        ? Tensor<Half>(dtype, xs, x)
                                        : Tensor<Bf16>(dtype, xs, x)};
      if (smooth) {
        in.push_back(dtype == DType::kFloat16 ? Tensor<Half>(dtype, S({k}), s)
                                              : Tensor<Bf16>(dtype, S({k}), s));
      }
      std::vector<int8_t> want_y;
      std::vector<float> want_scale;
      Expected(x, s, k, &want_y, &want_scale);
      RunResult r = RunKernel("NPUDynamicQuant", Attrs(), in, 2);
      ASSERT_EQ(r.error, "");
      ASSERT_EQ(r.outputs[0].shape, xs);
      ASSERT_EQ(r.outputs[1].shape, S({2, 3}));
      EXPECT_EQ(r.outputs[0].values<int8_t>(), want_y)
          << "dtype " << DTypeName(dtype) << " smooth " << smooth;
      EXPECT_EQ(r.outputs[1].f32(), want_scale);
      const std::vector<int8_t> y = r.outputs[0].values<int8_t>();
      EXPECT_EQ(r.outputs[1].f32()[1], 0.0f);  // the zero row
      for (int64_t i = 0; i < k; ++i) EXPECT_EQ(y[k + i], 0);
      if (!smooth) {
        EXPECT_EQ(y[2 * k], 127);
        EXPECT_EQ(y[2 * k + 1], 2);  // 2.5: ties to even
        EXPECT_EQ(y[2 * k + 2], 4);  // 3.5
        EXPECT_EQ(y[2 * k + 3], 0);  // -0.5
      }
    }
  }
}

TEST(KernelsDynamicQuant, Refusals) {
  const std::vector<float> v(8, 1.0f);
  // float32 x (the kernel takes float16 and bfloat16).
  RunResult r =
      RunKernel("NPUDynamicQuant", Attrs(), {HostTensor::F32(S({2, 4}), v)}, 2);
  EXPECT_NE(r.error.find("float16 or bfloat16"), std::string::npos) << r.error;
  // smooth_scales of the wrong length.
  const HostTensor x = Tensor<Half>(DType::kFloat16, S({2, 4}), v);
  r = RunKernel("NPUDynamicQuant", Attrs(),
                {x, Tensor<Half>(DType::kFloat16, S({3}), {1, 1, 1})}, 2);
  EXPECT_NE(r.error.find("smooth_scales must be float16 [4]"),
            std::string::npos)
      << r.error;
  // group_index: the MoE form.
  r = RunKernel(
      "NPUDynamicQuant", Attrs(),
      {x, HostTensor::Absent(),
       HostTensor::Of(DType::kInt32, S({1}), std::vector<int32_t>{2})},
      2);
  EXPECT_NE(r.error.find("group_index"), std::string::npos) << r.error;
}

}  // namespace
}  // namespace testing
}  // namespace ascend_emu
