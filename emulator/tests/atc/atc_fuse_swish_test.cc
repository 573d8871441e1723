// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// atc's Swish fusion (fuse_swish.cc): Sigmoid(x) * x becomes one Swish op.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "atc_fusion_fixture.h"

namespace ascend_emu {
namespace testing {
namespace {

// SiLU as the lowering emits it, Mul(x, Sigmoid(x)) in either operand
// order, becomes one Swish op with the unfused program's results bit for bit
// (infinities, NaN and the Sigmoid's tiny tail among the inputs); the
// squeeze-and-excitation gate Mul(z, Sigmoid(x)), a Sigmoid with a second
// reader and a Sigmoid that is a graph output stay apart; a Conv's output
// can feed the Swish (EfficientNet: Conv, BatchNormalization, SiLU).
TEST_F(AtcConvFusionTest, SigmoidTimesItsInputFusesIntoSwish) {
  const int64_t C = 3, H = 5, W = 7, N = C * H * W;
  OnnxBuilder b;
  b.Input("x", {1, C, H, W})
      .Input("z", {1, C, H, W})
      .InitF32("w", {C, C, 1, 1}, Ramp(C * C, 0.4f, -1.5f))
      .Output("y1", {1, C, H, W})
      .Output("y2", {1, C, H, W})
      .Output("y3", {1, C, H, W})
      .Output("y4", {1, C, H, W})
      .Output("s4", {1, C, H, W});
  b.Node("Sigmoid", {"x"}, {"s1"}, "sig1");
  b.Node("Mul", {"x", "s1"}, {"y1"}, "mul1");
  b.Node("Conv", {"x", "w"}, {"c"}, "conv");
  b.Node("Sigmoid", {"c"}, {"s2"}, "sig2");
  b.Node("Mul", {"s2", "c"}, {"m2"}, "mul2");  // Sigmoid's output first
  b.Node("Sigmoid", {"m2"}, {"s3"}, "sig3");
  b.Node("Mul", {"z", "s3"}, {"y3"}, "gate");  // not its own input: apart
  b.Node("Add", {"m2", "z"}, {"y2"}, "add");
  b.Node("Sigmoid", {"z"}, {"s4"}, "sig4");  // a graph output: apart
  b.Node("Mul", {"z", "s4"}, {"y4"}, "mul4");
  std::vector<float> x = Ramp(N, 0.9f, -30.0f);
  const float inf = std::numeric_limits<float>::infinity();
  x[0] = inf;
  x[1] = -inf;
  x[2] = std::nanf("");
  x[3] = -100.0f;
  x[4] = -0.0f;
  const std::vector<float> z = Ramp(N, -0.2f, 6.0f);
  auto fused = CompileAndLoad(b, "silu");
  auto plain = CompileAndLoad(b, "silu_plain", {FusionOff()});
  ASSERT_NE(fused, nullptr);
  ASSERT_NE(plain, nullptr);
  EXPECT_EQ(
      OpNames(Path("silu.om")),
      (std::vector<std::string>{"Swish:sig1+mul1", "Conv:conv",
                                "Swish:sig2+mul2", "Sigmoid:sig3", "Mul:gate",
                                "Add:add", "Sigmoid:sig4", "Mul:mul4"}));
  const auto want = RunFloat(*plain, {x, z});
  const auto got = RunFloat(*fused, {x, z});
  ASSERT_EQ(got.size(), want.size());
  for (size_t o = 0; o < got.size(); ++o) {
    ASSERT_EQ(got[o].size(), want[o].size());
    for (size_t i = 0; i < got[o].size(); ++i) {
      if (std::isnan(want[o][i])) {
        EXPECT_TRUE(std::isnan(got[o][i])) << "output " << o << " at " << i;
      } else {
        EXPECT_EQ(std::memcmp(&got[o][i], &want[o][i], sizeof(float)), 0)
            << "output " << o << " at " << i << ": " << got[o][i] << " vs "
            << want[o][i];
      }
    }
  }
}

}  // namespace
}  // namespace testing
}  // namespace ascend_emu
