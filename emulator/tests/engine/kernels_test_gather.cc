// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Gather and GatherElements against naive index loops, with negative,
// int32 and out-of-range indices (which must yield zeros, never a read
// outside the data).
#include <cstdint>
#include <string>
#include <vector>

#include "kernels_test_util.h"

namespace ascend_emu {
namespace testing {
namespace {

TEST(KernelsGather, EveryAxisAgainstNaiveLoops) {
  const HostTensor x = RandF32(S({3, 4, 5}), 9);
  const std::vector<float> xv = x.f32();
  const std::vector<int64_t> xs = Strides(x.shape);
  const HostTensor ind = HostTensor::I64(S({2, 2}), {0, -1, 2, 1});
  for (int64_t axis = -3; axis < 3; ++axis) {
    Attrs a;
    a.Int("axis", axis);
    RunResult r = RunKernel("Gather", a, {x, ind});
    ASSERT_EQ(r.error, "");
    const int ax = static_cast<int>(axis < 0 ? axis + 3 : axis);
    const Shape& out = r.outputs[0].shape;
    ASSERT_EQ(out.rank, 4);
    const std::vector<float> got = r.outputs[0].f32();
    for (int64_t o = 0; o < out.numel(); ++o) {
      const std::vector<int64_t> oi = Unravel(o, out);
      std::vector<int64_t> xi;
      for (int d = 0; d < ax; ++d) xi.push_back(oi[d]);
      int64_t k = ind.values<int64_t>()[oi[ax] * 2 + oi[ax + 1]];
      if (k < 0) k += x.shape.dims[ax];
      xi.push_back(k);
      for (int d = ax + 2; d < 4; ++d) xi.push_back(oi[d]);
      int64_t off = 0;
      for (int d = 0; d < 3; ++d) off += xi[d] * xs[d];
      ASSERT_EQ(got[o], xv[off]) << "axis " << axis << " at " << o;
    }
  }
}

TEST(KernelsGather, EmbeddingLookupInt32IndicesAndScalarIndex) {
  const HostTensor table = HostTensor::F32(S({3, 2}), {0, 1, 10, 11, 20, 21});
  const HostTensor ids =
      HostTensor::Of<int32_t>(DType::kInt32, S({1, 3}), {2, 0, 2});
  RunResult r = RunKernel("Gather", Attrs(), {table, ids});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].shape, S({1, 3, 2}));
  EXPECT_EQ(r.outputs[0].f32(), (std::vector<float>{20, 21, 0, 1, 20, 21}));
  // A scalar index drops the axis (torch.select).
  Attrs a;
  a.Int("axis", 1);
  r = RunKernel("Gather", a, {table, HostTensor::I64(S({}), {-1})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].shape, S({3}));
  EXPECT_EQ(r.outputs[0].f32(), (std::vector<float>{1, 11, 21}));
}

TEST(KernelsGather, OutOfRangeIndicesWriteZeros) {
  const HostTensor table = HostTensor::F32(S({3, 2}), {1, 1, 2, 2, 3, 3});
  const HostTensor ids = HostTensor::I64(S({4}), {3, -4, 1, 1000000});
  RunResult r = RunKernel("Gather", Attrs(), {table, ids});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].f32(), (std::vector<float>{0, 0, 0, 0, 2, 2, 0, 0}));
  Attrs a;
  a.Int("axis", 1);
  r = RunKernel("GatherElements", a,
                {table, HostTensor::I64(S({3, 1}), {1, 2, -3})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].f32(), (std::vector<float>{1, 0, 0}));
}

TEST(KernelsGather, GatherElementsAgainstNaiveLoops) {
  const HostTensor x = RandF32(S({3, 4}), 4);
  const std::vector<float> xv = x.f32();
  const std::vector<int64_t> iv = {0, -1, 2, 1, 3, 0, 1, 2};
  for (int64_t axis : {0, 1, -1}) {
    Attrs a;
    a.Int("axis", axis);
    const Shape is = axis == 0 ? S({2, 4}) : S({3, 2});
    std::vector<int64_t> vals(iv.begin(), iv.begin() + is.numel());
    if (axis == 0) {
      for (int64_t& v : vals) v = v % 3;  // stay inside dim 3
    }
    RunResult r =
        RunKernel("GatherElements", a, {x, HostTensor::I64(is, vals)});
    ASSERT_EQ(r.error, "");
    ASSERT_EQ(r.outputs[0].shape, is);
    const std::vector<float> got = r.outputs[0].f32();
    for (int64_t o = 0; o < is.numel(); ++o) {
      std::vector<int64_t> idx = Unravel(o, is);
      const int ax = axis < 0 ? 1 : static_cast<int>(axis);
      int64_t k = vals[o];
      if (k < 0) k += x.shape.dims[ax];
      idx[ax] = k;
      ASSERT_EQ(got[o], xv[idx[0] * 4 + idx[1]]) << "axis " << axis;
    }
  }
}

TEST(KernelsGather, Refusals) {
  const HostTensor x = RandF32(S({3, 4}), 4);
  Attrs a;
  a.Int("axis", 2);
  EXPECT_INFER_FAILS(RunKernel("Gather", a, {x, HostTensor::I64(S({1}), {0})}),
                     "out of range");
  EXPECT_INFER_FAILS(RunKernel("Gather", Attrs(), {x, RandF32(S({1}), 1)}),
                     "indices must be int64 or int32");
  EXPECT_INFER_FAILS(RunKernel("Gather", Attrs(),
                               {RandF32(S({1, 1, 1, 1, 1}), 1),
                                HostTensor::I64(S({1, 1, 1, 1, 1}), {0})}),
                     "output rank exceeds 8");
  EXPECT_INFER_FAILS(RunKernel("GatherElements", Attrs(),
                               {x, HostTensor::I64(S({3}), {0, 0, 0})}),
                     "must have the rank");
  EXPECT_INFER_FAILS(
      RunKernel("GatherElements", Attrs(),
                {x, HostTensor::I64(S({1, 5}), {0, 0, 0, 0, 0})}),
      "exceed data");
}

}  // namespace
}  // namespace testing
}  // namespace ascend_emu
