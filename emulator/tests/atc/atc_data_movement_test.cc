// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// atc end to end for the data-movement and normalization kernels: constant
// operands (split, starts, axes, pads) travel as int64 initializers and are
// read by the kernels' Infer at compile and load time.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "atc_test_util.h"

namespace ascend_emu {
namespace {

using testing::AtcTest;
using testing::OnnxBuilder;
using testing::Ramp;
using testing::RunFloat;

TEST_F(AtcTest, SplitSliceUnsqueezePadLayerNorm) {
  OnnxBuilder b;
  b.Input("x", {2, 6})
      .InitI64("split", {2}, {2, 4})
      .InitI64("starts", {1}, {3})
      .InitI64("ends", {1}, {-100})
      .InitI64("axes", {1}, {1})
      .InitI64("steps", {1}, {-2})
      .InitI64("uaxes", {1}, {0})
      .InitI64("pads", {6}, {0, 0, 1, 0, 0, 1})
      .InitF32("g", {4}, {1.0f, 2.0f, 0.5f, -1.0f})
      .InitF32("beta", {4}, {0.0f, 0.1f, 0.2f, 0.3f})
      .Output("y", {1, 2, 4});
  onnx::NodeProto& split = b.Node("Split", {"x", "split"}, {"a", "r"});
  OnnxBuilder::AttrInt(split, "axis", 1);
  b.Node("Slice", {"r", "starts", "ends", "axes", "steps"}, {"s"});
  b.Node("Add", {"a", "s"}, {"c"});
  b.Node("Unsqueeze", {"c", "uaxes"}, {"u"});
  onnx::NodeProto& pad = b.Node("Pad", {"u", "pads"}, {"p"});
  onnx::AttributeProto* mode = pad.add_attribute();
  mode->set_name("mode");
  mode->set_type(onnx::AttributeProto::STRING);
  mode->set_s("reflect");
  onnx::NodeProto& ln = b.Node("LayerNormalization", {"p", "g", "beta"}, {"y"});
  OnnxBuilder::AttrFloat(ln, "epsilon", 1e-5f);
  auto model = CompileAndLoad(b, "movement");
  ASSERT_NE(model, nullptr);

  const std::vector<float> x = Ramp(12);
  const std::vector<float> g = {1.0f, 2.0f, 0.5f, -1.0f};
  const std::vector<float> beta = {0.0f, 0.1f, 0.2f, 0.3f};
  std::vector<float> want;
  for (int r = 0; r < 2; ++r) {
    // a = x[r, 0:2]; s = x[r, 2:6][3:-100:-2] = x[r, 5], x[r, 3].
    const float c0 = x[r * 6 + 0] + x[r * 6 + 5];
    const float c1 = x[r * 6 + 1] + x[r * 6 + 3];
    const float p[4] = {c1, c0, c1, c0};  // reflect pad 1 on both sides
    const float mean = (p[0] + p[1] + p[2] + p[3]) / 4;
    float var = 0;
    for (float v : p) var += (v - mean) * (v - mean);
    var /= 4;
    for (int i = 0; i < 4; ++i) {
      want.push_back((p[i] - mean) / std::sqrt(var + 1e-5f) * g[i] + beta[i]);
    }
  }
  const auto y = RunFloat(*model, {x});
  ASSERT_EQ(y.size(), 1u);
  ASSERT_EQ(y[0].size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_NEAR(y[0][i], want[i], 1e-4f) << i;
  }
}

TEST_F(AtcTest, RefusesSplitWhoseSizesDoNotMatchItsOutputs) {
  OnnxBuilder b;
  b.Input("x", {2, 6}).InitI64("split", {2}, {2, 4});
  b.OutputNoShape("a").OutputNoShape("b2").OutputNoShape("c");
  onnx::NodeProto& split =
      b.Node("Split", {"x", "split"}, {"a", "b2", "c"}, "sp");
  OnnxBuilder::AttrInt(split, "axis", 1);
  testing::AtcResult r = Compile(b, "split3");
  EXPECT_EQ(r.code, atc::kAtcFailureExit);
  // ONNX shape inference sees the mismatch before the kernel's Infer
  // ("Split: split has 2 values for 3 outputs", tested in the kernel tests).
  EXPECT_NE(r.err.find("op_type:Split"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("(3)"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace ascend_emu
