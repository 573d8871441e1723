// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Resize: hand-computed values from the ONNX reference formulas (which match
// torch's upsample_nearest2d / upsample_bilinear2d), a naive per-element
// oracle over every mode combination, sizes vs scales, fp16, refusals.
#include <Eigen/Core>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels_test_util.h"

namespace ascend_emu {
namespace testing {
namespace {

HostTensor Scales(float h, float w) {
  return HostTensor::F32(S({4}), {1, 1, h, w}).Const();
}
HostTensor Sizes(std::vector<int64_t> v) {
  return HostTensor::I64(S({4}), v).Const();
}

RunResult Resize(const HostTensor& x, const HostTensor& scales,
                 const HostTensor& sizes, const std::string& mode,
                 const std::string& coord, const std::string& nearest = "") {
  Attrs a;
  a.Str("mode", mode).Str("coordinate_transformation_mode", coord);
  if (!nearest.empty()) a.Str("nearest_mode", nearest);
  return RunKernel("Resize", a, {x, HostTensor::Absent(), scales, sizes});
}

const HostTensor k2x2 = HostTensor::F32(S({1, 1, 2, 2}), {1, 2, 3, 4});

TEST(KernelsResize, HandComputedTorchEquivalents) {
  // upsample_bilinear2d(scale 2, align_corners=False) == half_pixel linear.
  RunResult r =
      Resize(k2x2, Scales(2, 2), HostTensor::Absent(), "linear", "half_pixel");
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].shape, S({1, 1, 4, 4}));
  ExpectNear(r.outputs[0].f32(), {1, 1.25, 1.75, 2, 1.5, 1.75, 2.25, 2.5, 2.5,
                                  2.75, 3.25, 3.5, 3, 3.25, 3.75, 4});
  // align_corners=True, to 3x3 by sizes.
  r = Resize(k2x2, HostTensor::Absent(), Sizes({1, 1, 3, 3}), "linear",
             "align_corners");
  ASSERT_EQ(r.error, "");
  ExpectNear(r.outputs[0].f32(), {1, 1.5, 2, 2, 2.5, 3, 3, 3.5, 4});
  // upsample_nearest2d == asymmetric + floor.
  r = Resize(k2x2, Scales(2, 2), HostTensor::Absent(), "nearest", "asymmetric",
             "floor");
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].f32(), (std::vector<float>{1, 1, 2, 2, 1, 1, 2, 2, 3,
                                                    3, 4, 4, 3, 3, 4, 4}));
}

TEST(KernelsResize, NearestModesOnTies) {
  // Downsampling 4 -> 2 with half_pixel lands exactly on .5 coordinates.
  const HostTensor x = HostTensor::F32(S({1, 1, 1, 4}), {0, 1, 2, 3});
  struct Case {
    const char* mode;
    std::vector<float> want;
  };
  const Case cases[] = {{"round_prefer_floor", {0, 2}},
                        {"round_prefer_ceil", {1, 3}},
                        {"floor", {0, 2}},
                        {"ceil", {1, 3}}};
  for (const Case& c : cases) {
    RunResult r = Resize(x, Scales(1, 0.5f), HostTensor::Absent(), "nearest",
                         "half_pixel", c.mode);
    ASSERT_EQ(r.error, "") << c.mode;
    EXPECT_EQ(r.outputs[0].f32(), c.want) << c.mode;
  }
}

// ONNX reference semantics, one output element at a time, in double.
double Coord(const std::string& ct, double o, double scale, double in,
             double out) {
  if (ct == "half_pixel") return (o + 0.5) / scale - 0.5;
  if (ct == "pytorch_half_pixel") return out > 1 ? (o + 0.5) / scale - 0.5 : 0;
  if (ct == "align_corners") return out == 1 ? 0 : o * (in - 1) / (out - 1);
  return o / scale;
}

int64_t Near(const std::string& nm, double c, int64_t n) {
  double r;
  const double frac = c - std::floor(c);
  if (nm == "floor") {
    r = std::floor(c);
  } else if (nm == "ceil") {
    r = std::ceil(c);
  } else if (frac == 0.5) {
    r = nm == "round_prefer_ceil" ? std::ceil(c) : std::floor(c);
  } else {
    r = frac < 0.5 ? std::floor(c) : std::ceil(c);
  }
  return std::min<int64_t>(std::max<int64_t>(static_cast<int64_t>(r), 0),
                           n - 1);
}

double Lerp1(const std::vector<float>& row, double c) {
  const int64_t n = static_cast<int64_t>(row.size());
  c = std::min(std::max(c, 0.0), static_cast<double>(n - 1));
  const int64_t i = static_cast<int64_t>(std::floor(c));
  const int64_t j = std::min(i + 1, n - 1);
  return row[i] * (1 - (c - i)) + row[j] * (c - i);
}

TEST(KernelsResize, EveryModeAgainstNaiveOracle) {
  const HostTensor x = RandF32(S({2, 3, 5, 4}), 17);
  const std::vector<float> xv = x.f32();
  const float scale_sets[][2] = {{2.0f, 3.0f}, {0.5f, 0.75f}, {1.6f, 0.6f}};
  for (const char* ct :
       {"half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric"}) {
    for (const char* mode : {"nearest", "linear"}) {
      for (const char* nm :
           {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"}) {
        for (const auto& sc : scale_sets) {
          RunResult r = Resize(x, Scales(sc[0], sc[1]), HostTensor::Absent(),
                               mode, ct, nm);
          ASSERT_EQ(r.error, "");
          const int64_t oh = static_cast<int64_t>(std::floor(5 * sc[0]));
          const int64_t ow = static_cast<int64_t>(std::floor(4 * sc[1]));
          ASSERT_EQ(r.outputs[0].shape, S({2, 3, oh, ow}));
          std::vector<float> want;
          for (int64_t p = 0; p < 6; ++p) {
            auto at = [&](int64_t yy, int64_t xx) {
              return xv[p * 20 + yy * 4 + xx];
            };
            for (int64_t oy = 0; oy < oh; ++oy) {
              const double cy = Coord(ct, oy, sc[0], 5, oh);
              for (int64_t ox = 0; ox < ow; ++ox) {
                const double cx = Coord(ct, ox, sc[1], 4, ow);
                if (std::string(mode) == "nearest") {
                  want.push_back(at(Near(nm, cy, 5), Near(nm, cx, 4)));
                } else {
                  std::vector<float> col(5);
                  for (int64_t yy = 0; yy < 5; ++yy) {
                    std::vector<float> row(4);
                    for (int64_t xx = 0; xx < 4; ++xx) row[xx] = at(yy, xx);
                    col[yy] = static_cast<float>(Lerp1(row, cx));
                  }
                  want.push_back(static_cast<float>(Lerp1(col, cy)));
                }
              }
            }
          }
          ExpectNear(r.outputs[0].f32(), want, 1e-5f);
        }
      }
    }
  }
}

TEST(KernelsResize, Float16) {
  std::vector<Eigen::half> v = {Eigen::half(1), Eigen::half(2), Eigen::half(3),
                                Eigen::half(4)};
  const HostTensor x = HostTensor::Of(DType::kFloat16, S({1, 1, 2, 2}), v);
  RunResult r = Resize(x, Scales(2, 2), HostTensor::Absent(), "linear",
                       "pytorch_half_pixel");
  ASSERT_EQ(r.error, "");
  ASSERT_EQ(r.outputs[0].dtype, DType::kFloat16);
  std::vector<float> got;
  for (Eigen::half h : r.outputs[0].values<Eigen::half>()) {
    got.push_back(static_cast<float>(h));
  }
  ExpectNear(got, {1, 1.25, 1.75, 2, 1.5, 1.75, 2.25, 2.5, 2.5, 2.75, 3.25, 3.5,
                   3, 3.25, 3.75, 4});
}

TEST(KernelsResize, Refusals) {
  const HostTensor none = HostTensor::Absent();
  EXPECT_INFER_FAILS(Resize(k2x2, none, none, "linear", "half_pixel"),
                     "exactly one of scales and sizes");
  EXPECT_INFER_FAILS(
      Resize(k2x2, Scales(2, 2), Sizes({1, 1, 4, 4}), "linear", "half_pixel"),
      "exactly one");
  EXPECT_INFER_FAILS(Resize(k2x2, Scales(2, 2), none, "cubic", "half_pixel"),
                     "mode 'cubic'");
  EXPECT_INFER_FAILS(
      Resize(k2x2, Scales(2, 2), none, "linear", "tf_crop_and_resize"),
      "coordinate_transformation_mode 'tf_crop_and_resize'");
  EXPECT_INFER_FAILS(
      Resize(k2x2, Scales(2, 2), none, "nearest", "half_pixel", "nope"),
      "nearest_mode 'nope'");
  EXPECT_INFER_FAILS(Resize(k2x2, HostTensor::F32(S({4}), {2, 1, 1, 1}).Const(),
                            none, "nearest", "half_pixel"),
                     "N and C scales must be 1");
  EXPECT_INFER_FAILS(Resize(k2x2, Scales(0, 2), none, "nearest", "asymmetric"),
                     "> 0");
  EXPECT_INFER_FAILS(Resize(k2x2, HostTensor::F32(S({4}), {1, 1, 2, 2}), none,
                            "nearest", "asymmetric"),
                     "constant");
  EXPECT_INFER_FAILS(
      Resize(k2x2, none, Sizes({2, 1, 4, 4}), "nearest", "asymmetric"),
      "keep N and C");
  EXPECT_INFER_FAILS(Resize(RandF32(S({1, 2, 2}), 1), Scales(2, 2), none,
                            "nearest", "asymmetric"),
                     "4-D NCHW");
}

// Issue 11: each output dim (1e12) is within bounds but their product
// overflows int64; it used to be multiplied unchecked (UBSan) before the
// refusal. Now a checked product refuses it, naming Resize and the shape.
TEST(KernelsResize, HugeScalesAreRefusedWithoutOverflow) {
  const HostTensor x =
      HostTensor::F32(S({1, 1, 1000, 1000}), std::vector<float>(1000000));
  EXPECT_INFER_FAILS(
      Resize(x, Scales(1e9f, 1e9f), HostTensor::Absent(), "nearest",
             "asymmetric"),
      "Resize: output shape [1, 1, 1000000000000, 1000000000000] is too large");
}

}  // namespace
}  // namespace testing
}  // namespace ascend_emu
