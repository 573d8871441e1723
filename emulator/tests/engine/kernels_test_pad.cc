// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Pad in constant, reflect and edge modes against a naive per-element
// oracle (reflection by repeated folding), cropping with negative pads,
// element sizes and refusals.
#include <cstdint>
#include <string>
#include <vector>

#include "kernels_test_util.h"

namespace ascend_emu {
namespace testing {
namespace {

HostTensor Pads(std::vector<int64_t> v) {
  return HostTensor::I64(S({static_cast<int64_t>(v.size())}), v).Const();
}

// Index into an axis of size d, or -1 for the constant.
int64_t Oracle(int64_t i, int64_t d, const std::string& mode) {
  if (i >= 0 && i < d) return i;
  if (mode == "constant") return -1;
  if (mode == "edge") return i < 0 ? 0 : d - 1;
  if (d == 1) return 0;
  while (i < 0 || i >= d) {
    if (i < 0) i = -i;
    if (i >= d) i = 2 * (d - 1) - i;
  }
  return i;
}

void CheckPad(const HostTensor& x, const std::vector<int64_t>& pads,
              const std::string& mode, float value) {
  Attrs a;
  a.Str("mode", mode);
  RunResult r = RunKernel(
      "Pad", a, {x, Pads(pads), HostTensor::F32(S({}), {value}).Const()});
  ASSERT_EQ(r.error, "") << mode;
  const int32_t rank = x.shape.rank;
  Shape want = x.shape;
  for (int32_t d = 0; d < rank; ++d) want.dims[d] += pads[d] + pads[d + rank];
  ASSERT_EQ(r.outputs[0].shape, want);
  const std::vector<float> got = r.outputs[0].f32();
  const std::vector<float> xv = x.f32();
  const std::vector<int64_t> xs = Strides(x.shape);
  for (int64_t o = 0; o < want.numel(); ++o) {
    const std::vector<int64_t> idx = Unravel(o, want);
    int64_t off = 0;
    for (int32_t d = 0; d < rank && off >= 0; ++d) {
      const int64_t i = Oracle(idx[d] - pads[d], x.shape.dims[d], mode);
      off = i < 0 ? -1 : off + i * xs[d];
    }
    ASSERT_EQ(got[o], off < 0 ? value : xv[off]) << mode << " at " << o;
  }
}

TEST(KernelsPad, ModesAgainstNaiveOracle) {
  const HostTensor x = RandF32(S({2, 3, 4}), 7);
  for (const char* mode : {"constant", "reflect", "edge"}) {
    CheckPad(x, {0, 1, 2, 1, 2, 3}, mode, 0.0f);
    CheckPad(x, {1, 0, 0, 0, 1, 1}, mode, -2.5f);
    CheckPad(x, {0, -1, 1, 0, 2, -2}, mode, 4.0f);  // crop and pad
    CheckPad(x, {0, 0, 7, 0, 0, 9}, mode, 1.0f);    // wider than the axis
  }
  CheckPad(RandF32(S({1, 1, 1}), 3), {1, 1, 1, 1, 1, 1}, "reflect", 0.0f);
  // The innermost axis copies its inside columns in one run: runs cut by a
  // crop on either side, a crop past the whole row, a pad on one side only
  // (MobileNetV2's TF padding), over several outer rows.
  const HostTensor wide = RandF32(S({2, 3, 11}), 8);
  for (const char* mode : {"constant", "reflect", "edge"}) {
    CheckPad(wide, {0, 0, -3, 0, 1, -2}, mode, 2.0f);
    CheckPad(wide, {0, 1, 0, 1, 0, 1}, mode, 0.0f);
    CheckPad(wide, {0, 0, 4, 0, 0, -11}, mode, 3.0f);
  }
  CheckPad(wide, {0, 0, -12, 0, 0, 13}, "constant", -1.0f);  // row all fill
}

TEST(KernelsPad, DefaultsAndDtypes) {
  const HostTensor x = HostTensor::I64(S({2}), {5, 6});
  RunResult r = RunKernel("Pad", Attrs(), {x, Pads({1, 2})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].values<int64_t>(),
            (std::vector<int64_t>{0, 5, 6, 0, 0}));
  r = RunKernel("Pad", Attrs(),
                {x, Pads({1, 0}), HostTensor::I64(S({1}), {-7}).Const()});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].values<int64_t>(), (std::vector<int64_t>{-7, 5, 6}));
  const HostTensor h =
      HostTensor::Of<uint16_t>(DType::kFloat16, S({1, 3}), {1, 2, 3});
  Attrs a;
  a.Str("mode", "reflect");
  r = RunKernel("Pad", a, {h, Pads({0, 2, 0, 2})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].values<uint16_t>(),
            (std::vector<uint16_t>{3, 2, 1, 2, 3, 2, 1}));
}

TEST(KernelsPad, Refusals) {
  const HostTensor x = RandF32(S({2, 3}), 1);
  EXPECT_INFER_FAILS(RunKernel("Pad", Attrs(), {x, Pads({1, 1})}),
                     "pads has 2 values, input [2, 3] needs 4");
  EXPECT_INFER_FAILS(RunKernel("Pad", Attrs(), {x, Pads({0, -4, 0, 0})}),
                     "do not fit axis 1");
  Attrs a;
  a.Str("mode", "wrap");
  EXPECT_INFER_FAILS(RunKernel("Pad", a, {x, Pads({0, 0, 0, 0})}),
                     "mode 'wrap'");
  EXPECT_INFER_FAILS(
      RunKernel("Pad", Attrs(),
                {x, Pads({0, 0, 0, 0}), HostTensor::I64(S({}), {1})}),
      "constant_value must be a float32 scalar");
  HostTensor p = HostTensor::I64(S({4}), {0, 0, 0, 0});
  EXPECT_INFER_FAILS(RunKernel("Pad", Attrs(), {x, p}), "constant initializer");
  a.Str("mode", "edge");
  EXPECT_INFER_FAILS(
      RunKernel("Pad", a, {HostTensor::F32(S({0, 2}), {}), Pads({1, 0, 0, 0})}),
      "cannot pad the empty axis 0");
  EXPECT_INFER_FAILS(
      RunKernel("Pad", Attrs(), {x, Pads({INT64_MAX, INT64_MAX, 0, 0})}),
      "do not fit");
}

}  // namespace
}  // namespace testing
}  // namespace ascend_emu
