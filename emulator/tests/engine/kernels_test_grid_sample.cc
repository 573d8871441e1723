// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// GridSample: hand-computed values, an oracle written the other way round
// (ONNX Runtime's formulation: reflection by repeated mirroring, border and
// reflection clamping the pixel index rather than the coordinate) over every
// mode, padding and align_corners, fp16, and the refusals.
#include <Eigen/Core>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels_test_util.h"

namespace ascend_emu {
namespace testing {
namespace {

RunResult Sample(const HostTensor& x, const HostTensor& grid,
                 const std::string& mode, const std::string& padding,
                 int64_t align) {
  Attrs a;
  a.Str("mode", mode).Str("padding_mode", padding).Int("align_corners", align);
  return RunKernel("GridSample", a, {x, grid});
}

const HostTensor k2x2 = HostTensor::F32(S({1, 1, 2, 2}), {1, 2, 3, 4});

// (x, y) pairs as a (1, 1, n, 2) grid.
HostTensor Points(std::vector<float> xy) {
  const int64_t n = static_cast<int64_t>(xy.size() / 2);
  return HostTensor::F32(S({1, 1, n, 2}), xy);
}

TEST(KernelsGridSample, HandComputed) {
  // Centre, top-left corner, bottom-right corner, right of the input.
  const HostTensor g = Points({0, 0, -1, -1, 1, 1, 2, 0});
  struct Case {
    const char* mode;
    const char* padding;
    int64_t align;
    std::vector<float> want;
  };
  const Case cases[] = {
      // align 0: -1 and 1 are the outer edges, -0.5 and 1.5 in pixels.
      {"bilinear", "zeros", 0, {2.5f, 0.25f, 1.0f, 0.0f}},
      {"bilinear", "border", 0, {2.5f, 1.0f, 4.0f, 3.0f}},
      // x = 2 -> 2.5 px, mirrored at 1.5 to 0.5.
      {"bilinear", "reflection", 0, {2.5f, 1.0f, 4.0f, 2.5f}},
      // align 1: -1 and 1 are the corner pixels' centres.
      // x = 2 -> 1.5 px: half of the right column's weight.
      {"bilinear", "zeros", 1, {2.5f, 1.0f, 4.0f, 1.5f}},
      {"bilinear", "border", 1, {2.5f, 1.0f, 4.0f, 3.0f}},
      // 0.5 px rounds half to even (0), -0.5 to -0 (inside), 1.5 to 2.
      {"nearest", "zeros", 0, {1.0f, 1.0f, 0.0f, 0.0f}},
      {"nearest", "border", 0, {1.0f, 1.0f, 4.0f, 2.0f}},
  };
  for (const Case& c : cases) {
    RunResult r = Sample(k2x2, g, c.mode, c.padding, c.align);
    ASSERT_EQ(r.error, "") << c.mode << " " << c.padding;
    EXPECT_EQ(r.outputs[0].shape, S({1, 1, 1, 4}));
    ExpectNear(r.outputs[0].f32(), c.want);
  }
}

double Unnormalize(double g, int64_t size, bool align) {
  return align ? (g + 1) / 2 * (size - 1) : ((g + 1) * size - 1) / 2;
}

double Mirror(double c, double lo, double hi) {
  if (hi <= lo) return lo;
  while (c < lo || c > hi) c = c < lo ? 2 * lo - c : 2 * hi - c;
  return c;
}

double Pixel(const std::vector<float>& plane, int64_t h, int64_t w, int64_t y,
             int64_t x, const std::string& padding) {
  if (padding == "zeros") {
    if (y < 0 || y >= h || x < 0 || x >= w) return 0;
  } else {
    y = std::min<int64_t>(std::max<int64_t>(y, 0), h - 1);
    x = std::min<int64_t>(std::max<int64_t>(x, 0), w - 1);
  }
  return plane[y * w + x];
}

double Oracle(const std::vector<float>& plane, int64_t h, int64_t w, double gx,
              double gy, const std::string& mode, const std::string& padding,
              bool align) {
  double cx = Unnormalize(gx, w, align), cy = Unnormalize(gy, h, align);
  if (padding == "border") {
    cx = std::min<double>(std::max(cx, 0.0), w - 1);
    cy = std::min<double>(std::max(cy, 0.0), h - 1);
  } else if (padding == "reflection") {
    const double e = align ? 0.0 : 0.5;
    cx = Mirror(cx, -e, w - 1 + e);
    cy = Mirror(cy, -e, h - 1 + e);
  }
  if (mode == "nearest") {
    return Pixel(plane, h, w, static_cast<int64_t>(std::nearbyint(cy)),
                 static_cast<int64_t>(std::nearbyint(cx)), padding);
  }
  const int64_t x0 = static_cast<int64_t>(std::floor(cx));
  const int64_t y0 = static_cast<int64_t>(std::floor(cy));
  const double fx = cx - x0, fy = cy - y0;
  return Pixel(plane, h, w, y0, x0, padding) * (1 - fx) * (1 - fy) +
         Pixel(plane, h, w, y0, x0 + 1, padding) * fx * (1 - fy) +
         Pixel(plane, h, w, y0 + 1, x0, padding) * (1 - fx) * fy +
         Pixel(plane, h, w, y0 + 1, x0 + 1, padding) * fx * fy;
}

TEST(KernelsGridSample, MatchesOracleEveryMode) {
  const int64_t n = 2, c = 3, h = 4, w = 5, oh = 3, ow = 6;
  const HostTensor x = RandF32(S({n, c, h, w}), 7);
  // Grid values in [-1.6, 1.6]: inside and outside the input.
  std::vector<float> gv = RandomFloats(n * oh * ow * 2, 8);
  for (float& v : gv) v *= 1.6f;
  const HostTensor grid = HostTensor::F32(S({n, oh, ow, 2}), gv);
  const std::vector<float> xv = x.f32();
  for (const char* mode : {"bilinear", "nearest"}) {
    for (const char* padding : {"zeros", "border", "reflection"}) {
      for (int64_t align : {0, 1}) {
        RunResult r = Sample(x, grid, mode, padding, align);
        ASSERT_EQ(r.error, "") << mode << " " << padding;
        ASSERT_EQ(r.outputs[0].shape, S({n, c, oh, ow}));
        std::vector<float> want;
        for (int64_t b = 0; b < n; ++b) {
          for (int64_t k = 0; k < c; ++k) {
            const std::vector<float> plane(
                xv.begin() + (b * c + k) * h * w,
                xv.begin() + (b * c + k + 1) * h * w);
            for (int64_t o = 0; o < oh * ow; ++o) {
              const float* g = &gv[(b * oh * ow + o) * 2];
              want.push_back(static_cast<float>(
                  Oracle(plane, h, w, g[0], g[1], mode, padding, align)));
            }
          }
        }
        ExpectNear(r.outputs[0].f32(), want, 1e-5f);
      }
    }
  }
}

TEST(KernelsGridSample, FarAndNonFiniteCoordinatesReadOutside) {
  const HostTensor g = Points({1e30f, 0, -INFINITY, 0, NAN, 0});
  RunResult r = Sample(k2x2, g, "bilinear", "zeros", 0);
  ASSERT_EQ(r.error, "");
  ExpectNear(r.outputs[0].f32(), {0, 0, 0});
  r = Sample(k2x2, g, "nearest", "border", 1);
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].f32()[0], 2.0f);  // clipped to the right column
}

TEST(KernelsGridSample, Float16) {
  auto half = [](std::vector<float> v) {
    std::vector<Eigen::half> h;
    for (float f : v) h.push_back(Eigen::half(f));
    return h;
  };
  const HostTensor x =
      HostTensor::Of(DType::kFloat16, S({1, 1, 2, 2}), half({1, 2, 3, 4}));
  const HostTensor g =
      HostTensor::Of(DType::kFloat16, S({1, 1, 2, 2}), half({0, 0, 2, 0}));
  RunResult r = Sample(x, g, "bilinear", "border", 0);
  ASSERT_EQ(r.error, "");
  ASSERT_EQ(r.outputs[0].dtype, DType::kFloat16);
  std::vector<float> got;
  for (Eigen::half v : r.outputs[0].values<Eigen::half>()) {
    got.push_back(static_cast<float>(v));
  }
  ExpectNear(got, {2.5f, 3.0f});
}

TEST(KernelsGridSample, Refusals) {
  const HostTensor g = Points({0, 0});
  EXPECT_INFER_FAILS(Sample(k2x2, g, "bicubic", "zeros", 0), "no bicubic");
  EXPECT_INFER_FAILS(Sample(k2x2, g, "linear", "zeros", 0), "mode 'linear'");
  EXPECT_INFER_FAILS(Sample(k2x2, g, "bilinear", "wrap", 0),
                     "padding_mode 'wrap'");
  EXPECT_INFER_FAILS(Sample(k2x2, g, "bilinear", "zeros", 2),
                     "align_corners must be 0 or 1");
  EXPECT_INFER_FAILS(
      Sample(RandF32(S({1, 2, 2}), 1), g, "bilinear", "zeros", 0), "4-D NCHW");
  EXPECT_INFER_FAILS(Sample(k2x2, HostTensor::F32(S({1, 1, 1, 3}), {0, 0, 0}),
                            "bilinear", "zeros", 0),
                     "grid must be (N, H_out, W_out, 2)");
  EXPECT_INFER_FAILS(
      Sample(k2x2, HostTensor::F32(S({2, 1, 1, 2}), {0, 0, 0, 0}), "bilinear",
             "zeros", 0),
      "grid must be");
  const HostTensor g16 = HostTensor::Of(DType::kFloat16, S({1, 1, 1, 2}),
                                        std::vector<Eigen::half>(2));
  EXPECT_INFER_FAILS(Sample(k2x2, g16, "bilinear", "zeros", 0),
                     "differs from X's");
  const HostTensor xi =
      HostTensor::I64(S({1, 1, 2, 2}), std::vector<int64_t>{1, 2, 3, 4});
  EXPECT_INFER_FAILS(Sample(xi, g, "bilinear", "zeros", 0),
                     "unsupported dtype int64");
}

}  // namespace
}  // namespace testing
}  // namespace ascend_emu
