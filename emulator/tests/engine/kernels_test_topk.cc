// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// TopK against a naive oracle (a stable sort of (value, index) pairs per
// row) on every axis, largest and smallest, float32 and float16; the tie rule
// (lower index first), NaN as the greatest value, and the refusals (dtypes,
// K not a constant, k outside [1, axis size]).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

#include "kernels_test_dtypes.h"
#include "kernels_test_util.h"

namespace ascend_emu {
namespace testing {
namespace {

HostTensor K(int64_t k) { return Ints({k}); }

// The oracle: per (outer, inner) column, indices stably sorted by value.
void NaiveTopK(const std::vector<float>& x, const Shape& s, int32_t axis,
               int64_t k, bool largest, std::vector<float>* values,
               std::vector<int64_t>* indices) {
  int64_t outer = 1, inner = 1;
  for (int32_t d = 0; d < axis; ++d) outer *= s.dims[d];
  for (int32_t d = axis + 1; d < s.rank; ++d) inner *= s.dims[d];
  const int64_t len = s.dims[axis];
  values->assign(static_cast<size_t>(outer * k * inner), 0.0f);
  indices->assign(values->size(), 0);
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t j = 0; j < inner; ++j) {
      std::vector<int64_t> idx(static_cast<size_t>(len));
      std::iota(idx.begin(), idx.end(), 0);
      auto at = [&](int64_t i) { return x[(o * len + i) * inner + j]; };
      std::stable_sort(idx.begin(), idx.end(), [&](int64_t l, int64_t r) {
        return largest ? at(l) > at(r) : at(l) < at(r);
      });
      for (int64_t i = 0; i < k; ++i) {
        const size_t out = static_cast<size_t>((o * k + i) * inner + j);
        (*values)[out] = at(idx[i]);
        (*indices)[out] = idx[i];
      }
    }
  }
}

TEST(KernelsTopK, EveryAxisLargestAndSmallestAgainstOracle) {
  const Shape s = S({3, 5, 4});
  const HostTensor x = RandF32(s, 21);
  for (int32_t axis = 0; axis < 3; ++axis) {
    for (int largest = 0; largest < 2; ++largest) {
      const int64_t k = s.dims[axis] - 1;
      Attrs a;
      a.Int("axis", axis - (largest ? 3 : 0)).Int("largest", largest);
      RunResult r = RunKernel("TopK", a, {x, K(k)});
      ASSERT_EQ(r.error, "");
      std::vector<float> want_v;
      std::vector<int64_t> want_i;
      NaiveTopK(x.f32(), s, axis, k, largest, &want_v, &want_i);
      Shape out = s;
      out.dims[axis] = k;
      EXPECT_EQ(r.outputs[0].shape, out);
      EXPECT_EQ(r.outputs[1].dtype, DType::kInt64);
      EXPECT_EQ(r.outputs[0].f32(), want_v) << "axis " << axis;
      EXPECT_EQ(r.outputs[1].values<int64_t>(), want_i) << "axis " << axis;
    }
  }
}

TEST(KernelsTopK, Float16AndTiesTakeTheLowerIndexFirst) {
  // Values equal in fp16 (1.0001 rounds to 1): ties at indices 1, 3, 4.
  const std::vector<float> v = {0.5f, 1.0f, -2.0f, 1.0001f, 1.0f, 0.25f};
  Attrs a;
  RunResult r = RunKernel("TopK", a, {F16(S({6}), v), K(4)});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].dtype, DType::kFloat16);
  EXPECT_EQ(HalfValues(r.outputs[0]), (std::vector<float>{1, 1, 1, 0.5f}));
  EXPECT_EQ(r.outputs[1].values<int64_t>(), (std::vector<int64_t>{1, 3, 4, 0}));
  Attrs small;
  small.Int("largest", 0);
  r = RunKernel("TopK", small,
                {HostTensor::F32(S({5}), {3, 0, 3, 0, -1}), K(5)});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[1].values<int64_t>(),
            (std::vector<int64_t>{4, 1, 3, 0, 2}));
}

TEST(KernelsTopK, NanIsTheGreatestValue) {
  const float nan = std::nanf("");
  const HostTensor x = HostTensor::F32(S({4}), {1, nan, 7, nan});
  RunResult r = RunKernel("TopK", Attrs(), {x, K(3)});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[1].values<int64_t>(), (std::vector<int64_t>{1, 3, 2}));
  Attrs small;
  small.Int("largest", 0);
  r = RunKernel("TopK", small, {x, K(4)});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[1].values<int64_t>(), (std::vector<int64_t>{0, 2, 1, 3}));
}

TEST(KernelsTopK, Refusals) {
  const HostTensor x = RandF32(S({2, 3}), 1);
  EXPECT_INFER_FAILS(RunKernel("TopK", Attrs(), {x, K(4)}), "outside [1, 3]");
  EXPECT_INFER_FAILS(RunKernel("TopK", Attrs(), {x, K(0)}), "outside [1, 3]");
  EXPECT_INFER_FAILS(
      RunKernel("TopK", Attrs(), {x, HostTensor::I64(S({1}), {2})}),
      "K must be a constant");
  EXPECT_INFER_FAILS(RunKernel("TopK", Attrs(), {x, Ints({1, 2})}),
                     "1-element int64");
  EXPECT_INFER_FAILS(RunKernel("TopK", Attrs(), {I32(S({3}), {1, 2, 3}), K(1)}),
                     "unsupported dtype int32");
  Attrs bad_axis;
  bad_axis.Int("axis", 2);
  EXPECT_INFER_FAILS(RunKernel("TopK", bad_axis, {x, K(1)}), "out of range");
  Attrs bad_flag;
  bad_flag.Int("largest", 2);
  EXPECT_INFER_FAILS(RunKernel("TopK", bad_flag, {x, K(1)}), "0 or 1");
}

}  // namespace
}  // namespace testing
}  // namespace ascend_emu
