// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// atc end to end: ONNX graphs built in C++, compiled in-process, loaded and
// run by the engine, compared with numbers computed here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "ascend_emu/om_format.h"
#include "atc_test_util.h"
#include "om_corruption.h"

namespace ascend_emu {
namespace {

using testing::AtcTest;
using testing::OnnxBuilder;
using testing::Ramp;
using testing::RunFloat;

constexpr float kTol = 1e-5f;

TEST_F(AtcTest, AddReluWithInitializer) {
  OnnxBuilder b;
  const std::vector<float> bias = {0.5f, -1.0f, 2.0f, -3.0f, 0.0f, 1.0f};
  b.Input("x", {2, 3}).InitF32("b", {2, 3}, bias).Output("y", {2, 3});
  b.Node("Add", {"x", "b"}, {"t"});
  b.Node("Relu", {"t"}, {"y"});
  auto model = CompileAndLoad(b, "add_relu");
  ASSERT_NE(model, nullptr);
  EXPECT_EQ(model->soc_version(), "Ascend910B1");
  ASSERT_EQ(model->inputs().size(), 1u);
  EXPECT_EQ(model->inputs()[0].name, "x");
  EXPECT_EQ(model->inputs()[0].format, ACL_FORMAT_ND);  // 2-D: not NCHW

  const std::vector<float> x = {1, 2, -3, 4, -5, 6};
  const auto y = RunFloat(*model, {x});
  ASSERT_EQ(y.size(), 1u);
  for (size_t i = 0; i < x.size(); ++i) {
    EXPECT_FLOAT_EQ(y[0][i], std::max(0.0f, x[i] + bias[i])) << i;
  }
}

// Conv with padding, stride and bias (its kernel uses arena scratch).
TEST_F(AtcTest, ConvMatchesDirectComputation) {
  const int N = 1, C = 2, H = 5, W = 5, M = 3, K = 3, S = 2, P = 1;
  const int OH = (H + 2 * P - K) / S + 1, OW = (W + 2 * P - K) / S + 1;
  const std::vector<float> x = Ramp(N * C * H * W);
  const std::vector<float> w = Ramp(M * C * K * K, 0.05f, -0.5f);
  const std::vector<float> bias = {0.1f, -0.2f, 0.3f};
  OnnxBuilder b;
  b.Input("x", {N, C, H, W})
      .InitF32("w", {M, C, K, K}, w)
      .InitF32("b", {M}, bias);
  b.Output("y", {N, M, OH, OW});
  onnx::NodeProto& conv = b.Node("Conv", {"x", "w", "b"}, {"y"}, "conv");
  OnnxBuilder::AttrInts(conv, "kernel_shape", {K, K});
  OnnxBuilder::AttrInts(conv, "pads", {P, P, P, P});
  OnnxBuilder::AttrInts(conv, "strides", {S, S});
  auto model = CompileAndLoad(b, "conv");
  ASSERT_NE(model, nullptr);
  EXPECT_EQ(model->inputs()[0].format, ACL_FORMAT_NCHW);
  const auto y = RunFloat(*model, {x});
  for (int m = 0; m < M; ++m) {
    for (int oh = 0; oh < OH; ++oh) {
      for (int ow = 0; ow < OW; ++ow) {
        float want = bias[m];
        for (int c = 0; c < C; ++c) {
          for (int kh = 0; kh < K; ++kh) {
            for (int kw = 0; kw < K; ++kw) {
              const int ih = oh * S - P + kh, iw = ow * S - P + kw;
              if (ih < 0 || ih >= H || iw < 0 || iw >= W) continue;
              want +=
                  x[(c * H + ih) * W + iw] * w[((m * C + c) * K + kh) * K + kw];
            }
          }
        }
        EXPECT_NEAR(y[0][(m * OH + oh) * OW + ow], want, kTol)
            << "m=" << m << " oh=" << oh << " ow=" << ow;
      }
    }
  }
}

TEST_F(AtcTest, GemmThenSoftmax) {
  const std::vector<float> x = Ramp(2 * 4);
  const std::vector<float> w = Ramp(3 * 4, 0.07f, -0.3f);  // [3, 4], transB
  const std::vector<float> c = {0.25f, -0.5f, 1.0f};
  OnnxBuilder b;
  b.Input("x", {2, 4})
      .InitF32("w", {3, 4}, w)
      .InitF32("c", {3}, c)
      .Output("y", {2, 3});
  onnx::NodeProto& gemm = b.Node("Gemm", {"x", "w", "c"}, {"h"});
  OnnxBuilder::AttrInt(gemm, "transB", 1);
  OnnxBuilder::AttrFloat(gemm, "alpha", 0.5f);
  b.Node("Softmax", {"h"}, {"y"});  // axis defaults to -1 at opset 17
  auto model = CompileAndLoad(b, "gemm_softmax");
  ASSERT_NE(model, nullptr);
  const auto y = RunFloat(*model, {x});
  for (int i = 0; i < 2; ++i) {
    float h[3], sum = 0;
    for (int j = 0; j < 3; ++j) {
      h[j] = c[j];
      for (int k = 0; k < 4; ++k) h[j] += 0.5f * x[i * 4 + k] * w[j * 4 + k];
    }
    const float mx = *std::max_element(h, h + 3);
    for (float& v : h) sum += (v = std::exp(v - mx));
    for (int j = 0; j < 3; ++j) EXPECT_NEAR(y[0][i * 3 + j], h[j] / sum, kTol);
  }
}

TEST_F(AtcTest, ReshapeFromConstantNodeThenTranspose) {
  OnnxBuilder b;
  b.Input("x", {2, 3, 4}).Output("y", {6, 4});
  b.ConstI64("shape", {4, 6});
  b.Node("Reshape", {"x", "shape"}, {"r"});
  onnx::NodeProto& t = b.Node("Transpose", {"r"}, {"y"});
  OnnxBuilder::AttrInts(t, "perm", {1, 0});
  auto model = CompileAndLoad(b, "reshape_transpose");
  ASSERT_NE(model, nullptr);
  const std::vector<float> x = Ramp(24);
  const auto y = RunFloat(*model, {x});
  for (int i = 0; i < 6; ++i) {
    for (int j = 0; j < 4; ++j) EXPECT_EQ(y[0][i * 4 + j], x[j * 6 + i]);
  }
}

// Graph outputs that no op writes: a graph input and an initializer.
TEST_F(AtcTest, OutputsThatAreAnInputAndAConstant) {
  const std::vector<float> c = {3, 1, 4, 1};
  OnnxBuilder b;
  b.Input("x", {4}).InitF32("c", {4}, c);
  b.Output("relu", {4}).Output("x", {4}).Output("c", {4});
  b.Node("Relu", {"x"}, {"relu"});
  auto model = CompileAndLoad(b, "passthrough");
  ASSERT_NE(model, nullptr);
  const std::vector<float> x = {-1, 2, -3, 4};
  const auto y = RunFloat(*model, {x});
  ASSERT_EQ(y.size(), 3u);
  EXPECT_EQ(y[0], (std::vector<float>{0, 2, 0, 4}));
  EXPECT_EQ(y[1], x);
  EXPECT_EQ(y[2], c);
}

// A chain of eight ops on 4 KiB tensors needs two live buffers at a time,
// not eight: the planner must reuse arena regions.
TEST_F(AtcTest, PlannerReusesArena) {
  OnnxBuilder b;
  b.Input("x", {1, 1024}).Output("y", {1, 1024});
  std::string prev = "x";
  for (int i = 0; i < 8; ++i) {
    const std::string next = i == 7 ? "y" : "t" + std::to_string(i);
    b.Node(i % 2 ? "Relu" : "Add",
           i % 2 ? std::vector<std::string>{prev}
                 : std::vector<std::string>{prev, prev},
           {next});
    prev = next;
  }
  auto model = CompileAndLoad(b, "chain");
  ASSERT_NE(model, nullptr);
  Program program;
  std::string error;
  const auto om = testing::ReadBytes(Path("chain.om"));
  ASSERT_TRUE(ReadOm(om.data(), om.size(), &program, &error)) << error;
  EXPECT_EQ(program.arena_size, 2u * 4096u);
  const std::vector<float> x = Ramp(1024);
  const auto y = RunFloat(*model, {x});
  for (size_t i = 0; i < x.size(); ++i) {
    float want = x[i];
    for (int k = 0; k < 4; ++k) want = std::max(0.0f, want * 2);  // Add, Relu
    EXPECT_FLOAT_EQ(y[0][i], want) << i;
  }
}

TEST_F(AtcTest, InputShapeResolvesDynamicDims) {
  OnnxBuilder b;
  b.Input("x", {-1, 3}).OutputNoShape("y");
  b.Node("Relu", {"x"}, {"y"});
  auto r = Compile(b, "dyn");
  EXPECT_EQ(r.code, atc::kAtcFailureExit);
  EXPECT_NE(r.err.find("input 'x' dim 0 ('d0') is dynamic"), std::string::npos)
      << r.err;
  EXPECT_FALSE(testing::FileExists(Path("dyn.om")));

  auto model = CompileAndLoad(b, "dyn", {"--input_shape=x:5,3"});
  ASSERT_NE(model, nullptr);
  EXPECT_EQ(model->inputs()[0].size_bytes, 5u * 3u * 4u);
  EXPECT_EQ(model->outputs()[0].size_bytes, 5u * 3u * 4u);
}

TEST_F(AtcTest, InputShapeMustAgreeWithStaticDims) {
  OnnxBuilder b;
  b.Input("x", {2, 3}).Output("y", {2, 3});
  b.Node("Relu", {"x"}, {"y"});
  auto r = Compile(b, "conflict", {"--input_shape=x:4,3"});
  EXPECT_EQ(r.code, atc::kAtcFailureExit);
  EXPECT_NE(r.err.find("the model fixes it to 2"), std::string::npos) << r.err;
  r = Compile(b, "conflict", {"--input_shape=z:4,3"});
  EXPECT_NE(r.err.find("'z', which is not a model input"), std::string::npos)
      << r.err;
  // -1 needs the gears to compile (--dynamic_batch_size / --dynamic_dims).
  r = Compile(b, "conflict", {"--input_shape=x:-1,3"});
  EXPECT_NE(r.err.find("neither --dynamic_batch_size nor --dynamic_dims"),
            std::string::npos)
      << r.err;
}

TEST_F(AtcTest, Opset18AndOpset11AreAccepted) {
  for (int64_t opset : {11, 18}) {
    OnnxBuilder b(opset);
    b.Input("x", {2, 2}).Output("y", {2, 2});
    b.Node("Mul", {"x", "x"}, {"y"});
    auto model = CompileAndLoad(b, "opset" + std::to_string(opset));
    ASSERT_NE(model, nullptr) << opset;
    EXPECT_EQ(RunFloat(*model, {{1, -2, 3, 4}})[0],
              (std::vector<float>{1, 4, 9, 16}));
  }
}

TEST_F(AtcTest, PreCheckModeWritesNothing) {
  OnnxBuilder b;
  b.Input("x", {2}).Output("y", {2});
  b.Node("Relu", {"x"}, {"y"});
  auto r = Compile(b, "precheck", {"--mode=3"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("ATC run success"), std::string::npos);
  EXPECT_FALSE(testing::FileExists(Path("precheck.om")));
  // Pre-check still runs every check.
  OnnxBuilder bad(10);
  bad.Input("x", {2}).Output("y", {2});
  bad.Node("Relu", {"x"}, {"y"});
  r = Compile(bad, "precheck_bad", {"--mode=3"});
  EXPECT_EQ(r.code, atc::kAtcFailureExit);
}

TEST_F(AtcTest, OutputPathGetsOneOmSuffix) {
  EXPECT_EQ(atc::OmPathFor("/a/net"), "/a/net.om");
  EXPECT_EQ(atc::OmPathFor("/a/net.om"), "/a/net.om");
}

TEST_F(AtcTest, FailureLeavesNoFileBehind) {
  OnnxBuilder b;
  b.Input("x", {2}).Output("y", {2});
  b.Node("Relu", {"x"}, {"y"});
  auto r = Compile(b, "nodir", {});
  ASSERT_EQ(r.code, 0) << r.err;
  // An output directory that does not exist: clear error, nothing written.
  r = testing::RunAtcArgs({"--framework=5", "--model=" + Path("nodir.onnx"),
                           "--output=" + Path("missing/dir/net"),
                           "--soc_version=Ascend910B1",
                           "--precision_mode=must_keep_origin_dtype"});
  EXPECT_EQ(r.code, atc::kAtcFailureExit);
  EXPECT_NE(r.err.find("cannot write"), std::string::npos) << r.err;
}

// Damage to an atc-built .om with scratch (Conv) and several weights.
TEST_F(AtcTest, CorruptedCompiledOmNeverCrashes) {
  OnnxBuilder b;
  b.Input("x", {1, 2, 4, 4}).InitF32("w", {2, 2, 3, 3}, Ramp(36));
  b.Output("y", {1, 8});
  onnx::NodeProto& conv = b.Node("Conv", {"x", "w"}, {"c"});
  OnnxBuilder::AttrInts(conv, "kernel_shape", {3, 3});
  b.Node("Relu", {"c"}, {"r"});
  b.ConstI64("shape", {1, 8});
  b.Node("Reshape", {"r", "shape"}, {"y"});
  auto model = CompileAndLoad(b, "fuzzme");
  ASSERT_NE(model, nullptr);
  const auto om = testing::ReadBytes(Path("fuzzme.om"));
  testing::CheckAllTruncations(om);
  const auto stats = testing::CheckRandomCorruptions(om, 5000, /*seed=*/99);
  EXPECT_GT(stats.rejected, stats.attempts / 2);
}

}  // namespace
}  // namespace ascend_emu
