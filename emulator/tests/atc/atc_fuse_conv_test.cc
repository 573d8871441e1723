// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// atc's Conv fusions (docs/atc.md "Fusions"): the lowering's
// Conv -> Mul -> Add (BatchNormalization) -> [Add residual] -> Relu chains
// become one op named by the merged nodes joined with '+', with the same
// results as the unfused program (--fusion_switch_file switching them off),
// and nothing merges where the intermediate value has another reader or the
// constant is not per channel; Clip (ReLU6) with constant bounds fuses as
// the activation.
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

// Two ResNet blocks as the lowering emits them: BN as Mul/Add by [C,1,1]
// and [1,C,1,1] constants, a residual Add whose other operand is computed
// earlier, Relu; odd sizes, stride, groups and dilations.
TEST_F(AtcConvFusionTest, ResNetBlockFusesAndMatchesUnfused) {
  const int64_t C = 4, H = 7, W = 6;
  OnnxBuilder b;
  b.Input("x", {1, C, H, W})
      .InitF32("w1", {C, C, 3, 3}, Ramp(C * C * 9, 0.03f, -0.3f))
      .InitF32("s1", {C, 1, 1}, {0.5f, 1.5f, -2.0f, 0.75f})
      .InitF32("t1", {1, C, 1, 1}, {0.1f, -0.2f, 0.3f, -0.4f})
      .InitF32("w2", {C, 2, 3, 3}, Ramp(C * 2 * 9, 0.05f, -0.4f))
      .InitF32("b2", {C}, {0.05f, 0.0f, -0.05f, 0.2f})
      .InitF32("s2", {C, 1, 1}, {1.0f, -1.0f, 2.0f, 0.25f})
      .InitF32("t2", {C, 1, 1}, {0.0f, 0.5f, -0.5f, 1.0f})
      .Output("y", {1, C, H, W});
  onnx::NodeProto& c1 = b.Node("Conv", {"x", "w1"}, {"c1"}, "Conv_0");
  OnnxBuilder::AttrInts(c1, "pads", {1, 1, 1, 1});
  b.Node("Mul", {"c1", "s1"}, {"m1"}, "Mul_0");
  b.Node("Add", {"t1", "m1"}, {"a1"}, "Add_0");  // constant first
  b.Node("Relu", {"a1"}, {"r1"}, "Relu_0");
  onnx::NodeProto& c2 = b.Node("Conv", {"r1", "w2", "b2"}, {"c2"}, "Conv_1");
  OnnxBuilder::AttrInts(c2, "pads", {2, 1, 2, 1});
  OnnxBuilder::AttrInts(c2, "dilations", {2, 1});
  OnnxBuilder::AttrInt(c2, "group", 2);
  b.Node("Mul", {"c2", "s2"}, {"m2"}, "Mul_1");
  b.Node("Add", {"m2", "t2"}, {"a2"}, "Add_1");
  b.Node("Add", {"a2", "x"}, {"a3"}, "Add_2");  // the residual
  b.Node("Relu", {"a3"}, {"y"}, "Relu_1");
  ExpectSameAsUnfused(b, "block", {Ramp(C * H * W)});
  EXPECT_EQ(
      OpNames(Path("block.om")),
      (std::vector<std::string>{"FusedConv:Conv_0+Mul_0+Add_0+Relu_0",
                                "FusedConv:Conv_1+Mul_1+Add_1+Add_2+Relu_1"}));
  EXPECT_EQ(OpNames(Path("block_plain.om")).size(), 9u);
}

// Weights held as ONNX external data (what the backend writes for a real
// model's Convs) are not scaled into a second copy: BN's scale becomes
// FusedConv's weight scale S (input 4), a later Mul multiplies into it, and
// the results match the unfused program's.
TEST_F(AtcConvFusionTest, BatchNormScaleOfExternalWeightsBecomesWeightScale) {
  const int64_t C = 4, M = 6, H = 5, W = 5;
  const std::vector<float> w = Ramp(M * C * 9, 0.03f, -0.3f);
  WriteFile("w.data", AsBytes(w));
  OnnxBuilder b;
  b.Input("x", {1, C, H, W})
      .Input("z", {1, M, H, W})
      .InitExternal(
          "w", onnx::TensorProto::FLOAT, {M, C, 3, 3},
          {{"location", "w.data"}, {"length", std::to_string(w.size() * 4)}})
      .InitF32("b", {M}, {0.1f, 0.2f, -0.3f, 0.4f, 0.0f, -0.5f})
      .InitF32("s", {M, 1, 1}, {0.5f, 1.5f, -2.0f, 0.75f, 3.0f, -0.25f})
      .InitF32("t", {1, M, 1, 1}, {0.1f, -0.2f, 0.3f, -0.4f, 0.5f, 0.6f})
      .InitF32("s2", {1, M, 1, 1}, {2.0f, 1.0f, 0.5f, -1.0f, 1.0f, 4.0f})
      .Output("y", {1, M, H, W});
  onnx::NodeProto& c = b.Node("Conv", {"x", "w", "b"}, {"c"}, "conv");
  OnnxBuilder::AttrInts(c, "pads", {1, 1, 1, 1});
  b.Node("Mul", {"c", "s"}, {"m"}, "mul");
  b.Node("Add", {"m", "t"}, {"a"}, "add");
  b.Node("Mul", {"s2", "a"}, {"m2"}, "mul2");  // a second scale multiplies in
  b.Node("Add", {"m2", "z"}, {"r"}, "residual");
  b.Node("Relu", {"r"}, {"y"}, "relu");
  ExpectSameAsUnfused(b, "ext", {Ramp(C * H * W), Ramp(M * H * W, 0.2f)});
  EXPECT_EQ(
      OpNames(Path("ext.om")),
      (std::vector<std::string>{"FusedConv:conv+mul+add+mul2+residual+relu"}));
  // The .om holds the weights once (as the unfused one does), not a scaled
  // second copy beside them.
  const auto om_size = [&](const std::string& name) {
    return ReadBytes(Path(name + ".om")).size();
  };
  EXPECT_LT(om_size("ext"), om_size("ext_plain") + w.size() * 4 / 2);
}

// Conv + BN alone stays a Conv (with the folded bias); a 1-D Conv folds too.
TEST_F(AtcConvFusionTest, BatchNormFoldsIntoPlainConv) {
  OnnxBuilder b;
  b.Input("x", {2, 3, 9})
      .InitF32("w", {5, 3, 3}, Ramp(45, 0.04f, -0.5f))
      .InitF32("s", {5, 1}, {1.0f, 2.0f, -1.0f, 0.5f, 3.0f})
      .InitF32("t", {5, 1}, {0.5f, 0.0f, -0.5f, 1.0f, 2.0f})
      .Output("y", {2, 5, 4});
  onnx::NodeProto& c = b.Node("Conv", {"x", "w"}, {"c"}, "conv");
  OnnxBuilder::AttrInts(c, "strides", {2});
  b.Node("Mul", {"c", "s"}, {"m"}, "mul");
  b.Node("Add", {"m", "t"}, {"y"}, "add");
  ExpectSameAsUnfused(b, "bn1d", {Ramp(54)});
  EXPECT_EQ(OpNames(Path("bn1d.om")),
            (std::vector<std::string>{"Conv:conv+mul+add"}));
}

// No merge when the Conv's output has a second reader (or is a graph
// output), when the constant is not per channel, or for a Mul after Relu.
TEST_F(AtcConvFusionTest, NothingMergesWhereItWouldChangeTheGraph) {
  OnnxBuilder b;
  b.Input("x", {1, 2, 4, 4})
      .InitF32("w", {2, 2, 1, 1}, {1.0f, 0.5f, -0.5f, 2.0f})
      .InitF32("row", {1, 1, 1, 4}, {1.0f, 2.0f, 3.0f, 4.0f})
      .InitF32("s", {2, 1, 1}, {2.0f, 3.0f})
      .Output("y", {1, 2, 4, 4})
      .Output("z", {1, 2, 4, 4})
      .Output("v", {1, 2, 4, 4});
  b.Node("Conv", {"x", "w"}, {"c"}, "conv_a");
  b.Node("Relu", {"c"}, {"y"}, "relu_a");       // c is read twice:
  b.Node("Mul", {"c", "row"}, {"z"}, "mul_a");  // no merge
  b.Node("Conv", {"x", "w"}, {"d"}, "conv_b");
  b.Node("Mul", {"d", "row"}, {"e"}, "mul_b");  // not per channel
  b.Node("Relu", {"e"}, {"f"}, "relu_b");
  b.Node("Conv", {"f", "w"}, {"g"}, "conv_c");
  b.Node("Relu", {"g"}, {"h"}, "relu_c");
  b.Node("Mul", {"h", "s"}, {"v"}, "mul_c");  // after the activation
  ExpectSameAsUnfused(b, "none", {Ramp(32)});
  EXPECT_EQ(OpNames(Path("none.om")),
            (std::vector<std::string>{"Conv:conv_a", "Relu:relu_a", "Mul:mul_a",
                                      "Conv:conv_b", "Mul:mul_b", "Relu:relu_b",
                                      "FusedConv:conv_c+relu_c", "Mul:mul_c"}));
}

// MobileNetV2's inverted residual block as the lowering emits it: ReLU6 is
// Clip(0, 6) with constant bounds and fuses as the activation, so the three
// Convs are neighbours (the loader then keeps their activations NHWC and
// runs the depthwise one on oneDNN); results as unfused, values on both
// sides of both bounds. A Clip with only a max (min absent) fuses too.
TEST_F(AtcConvFusionTest, Relu6ClipFusesIntoTheConvBeforeIt) {
  const int64_t C = 16, E = 32, H = 6, W = 5;
  OnnxBuilder b;
  b.Input("x", {1, C, H, W})
      .InitF32("we", {E, C, 1, 1}, Ramp(E * C, 0.09f, -0.9f))
      .InitF32("se", {E, 1, 1}, Ramp(E, 0.3f, -1.0f))
      .InitF32("te", {E, 1, 1}, Ramp(E, 0.5f, -2.0f))
      .InitF32("wd", {E, 1, 3, 3}, Ramp(E * 9, 0.2f, -1.5f))
      .InitF32("bd", {E}, Ramp(E, 0.4f, -3.0f))
      .InitF32("wp", {C, E, 1, 1}, Ramp(C * E, 0.05f, -0.5f))
      .InitF32("lo", {}, {0.0f})
      .InitF32("hi", {}, {6.0f})
      .InitF32("cap", {1}, {2.5f})
      .Output("y", {1, C, H, W});
  b.Node("Conv", {"x", "we"}, {"e"}, "conv_e");
  b.Node("Mul", {"e", "se"}, {"em"}, "mul_e");
  b.Node("Add", {"em", "te"}, {"ea"}, "add_e");
  b.Node("Clip", {"ea", "lo", "hi"}, {"ec"}, "clip_e");
  onnx::NodeProto& dw = b.Node("Conv", {"ec", "wd", "bd"}, {"d"}, "conv_d");
  OnnxBuilder::AttrInt(dw, "group", E);
  OnnxBuilder::AttrInts(dw, "pads", {1, 1, 1, 1});
  b.Node("Clip", {"d", "", "cap"}, {"dc"}, "clip_d");
  b.Node("Conv", {"dc", "wp"}, {"p"}, "conv_p");
  b.Node("Add", {"p", "x"}, {"y"}, "add_r");
  ExpectSameAsUnfused(b, "relu6", {Ramp(C * H * W, 0.4f, -4.0f)});
  EXPECT_EQ(OpNames(Path("relu6.om")),
            (std::vector<std::string>{"FusedConv:conv_e+mul_e+add_e+clip_e",
                                      "FusedConv:conv_d+clip_d",
                                      "FusedConv:conv_p+add_r"}));
}

// A Clip stays apart where its bounds are not constants known to atc, or
// after a Conv that already has its activation.
TEST_F(AtcConvFusionTest, ClipWithComputedBoundStaysApart) {
  OnnxBuilder b;
  b.Input("x", {1, 2, 4, 4})
      .Input("lo", {})
      .InitF32("w", {2, 2, 1, 1}, {1.0f, 0.5f, -0.5f, 2.0f})
      .InitF32("hi", {}, {0.5f})
      .Output("y", {1, 2, 4, 4})
      .Output("v", {1, 2, 4, 4});
  b.Node("Conv", {"x", "w"}, {"c"}, "conv_a");
  b.Node("Clip", {"c", "lo", "hi"}, {"y"}, "clip_a");  // min is an input
  b.Node("Conv", {"x", "w"}, {"d"}, "conv_b");
  b.Node("Relu", {"d"}, {"e"}, "relu_b");
  b.Node("Clip", {"e", "", "hi"}, {"v"}, "clip_b");  // after the activation
  auto fused = CompileAndLoad(b, "computed");
  ASSERT_NE(fused, nullptr);
  EXPECT_EQ(
      OpNames(Path("computed.om")),
      (std::vector<std::string>{"Conv:conv_a", "Clip:clip_a",
                                "FusedConv:conv_b+relu_b", "Clip:clip_b"}));
}

// A precision mode that rounds each op's output keeps every op apart (the
// rounding between them is part of the result).
TEST_F(AtcConvFusionTest, RoundingPrecisionModeKeepsOpsApart) {
  OnnxBuilder b;
  b.Input("x", {1, 2, 3, 3})
      .InitF32("w", {2, 2, 1, 1}, {1.0f, 0.5f, -0.5f, 2.0f})
      .Output("y", {1, 2, 3, 3});
  b.Node("Conv", {"x", "w"}, {"c"}, "conv");
  b.Node("Relu", {"c"}, {"y"}, "relu");
  AtcResult r = Compile(b, "fp16", {"--precision_mode=force_fp16"});
  ASSERT_EQ(r.code, 0) << r.err;
  for (const std::string& name : OpNames(Path("fp16.om"))) {
    EXPECT_EQ(name.find('+'), std::string::npos) << name;
  }
}

}  // namespace
}  // namespace testing
}  // namespace ascend_emu
