// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// atc --precision_mode: the numbers an fp32 graph gives under each of CANN's
// modes (precision_mode.cc, docs/atc.md "Precision modes"). Each expectation
// is computed here independently: operands rounded to float16 (Eigen::half,
// round to nearest even) where the mode rounds them, accumulation in double,
// the result rounded where the mode rounds results.
#include <gtest/gtest.h>

#include <Eigen/Core>
#include <cmath>
#include <string>
#include <vector>

#include "atc_test_util.h"

namespace ascend_emu {
namespace {

using testing::AtcResult;
using testing::AtcTest;
using testing::OnnxBuilder;

constexpr int kM = 4, kK = 64, kN = 3;

float H(float v) { return static_cast<float>(Eigen::half(v)); }
float B(float v) { return static_cast<float>(Eigen::bfloat16(v)); }

// Values with many significant bits, so float16 rounding shows.
std::vector<float> Values(size_t n, float seed) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) {
    v[i] = std::sin(seed + 0.731f * static_cast<float>(i)) * 1.2345678f;
  }
  return v;
}

// y = exp(MatMul(x, w)) (Exp: a vector op on the black list).
OnnxBuilder MatMulExp(const std::vector<float>& w) {
  OnnxBuilder b;
  b.Input("x", {kM, kK}).Output("y", {kM, kN});
  b.InitF32("w", {kK, kN}, w);
  b.Node("MatMul", {"x", "w"}, {"mm"});
  b.Node("Exp", {"mm"}, {"y"});
  return b;
}

// The reference: MatMul of (optionally rounded) operands accumulated in
// double, then (optionally) rounded, then exp, then (optionally) rounded.
std::vector<float> Reference(const std::vector<float>& x,
                             const std::vector<float>& w, float (*in)(float),
                             float (*mm_out)(float), float (*exp_out)(float)) {
  std::vector<float> y(kM * kN);
  for (int m = 0; m < kM; ++m) {
    for (int n = 0; n < kN; ++n) {
      double acc = 0;
      for (int k = 0; k < kK; ++k)
        acc += static_cast<double>(in(x[m * kK + k])) * in(w[k * kN + n]);
      y[m * kN + n] = exp_out(std::exp(mm_out(static_cast<float>(acc))));
    }
  }
  return y;
}

float Same(float v) { return v; }

double MaxRelDiff(const std::vector<float>& a, const std::vector<float>& b) {
  double worst = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    const double diff = std::abs(static_cast<double>(a[i]) - b[i]);
    worst = std::max(worst, diff / std::max(1.0, std::abs(double{b[i]})));
  }
  return worst;
}

class PrecisionTest : public AtcTest {
 protected:
  // Compiles MatMulExp with `mode` ("" = no option) and runs it on x.
  std::vector<float> Run(const std::string& mode, const std::string& soc,
                         const std::vector<float>& x,
                         const std::vector<float>& w) {
    const std::string name = "m" + std::to_string(count_++);
    MatMulExp(w).Save(Path(name + ".onnx"));
    std::vector<std::string> args = {
        "--framework=5", "--model=" + Path(name + ".onnx"),
        "--output=" + Path(name), "--soc_version=" + soc};
    if (!mode.empty()) args.push_back(mode);
    AtcResult r = testing::RunAtcArgs(args);
    EXPECT_EQ(r.code, 0) << r.err;
    if (r.code != 0) return {};
    const std::vector<uint8_t> om = testing::ReadBytes(Path(name + ".om"));
    std::string error;
    std::unique_ptr<Model> model = Model::Load(om.data(), om.size(), &error);
    EXPECT_NE(model, nullptr) << error;
    if (model == nullptr) return {};
    return testing::RunFloat(*model, {x})[0];
  }
  int count_ = 0;
};

const std::vector<float> kX = Values(kM * kK, 0.3f);
const std::vector<float> kW = Values(kK * kN, 1.7f);

TEST_F(PrecisionTest, MustKeepOriginDtypeIsFloat32) {
  const std::vector<float> y =
      Run("--precision_mode=must_keep_origin_dtype", "Ascend910B1", kX, kW);
  const std::vector<float> fp32 = Reference(kX, kW, Same, Same, Same);
  ASSERT_EQ(y.size(), fp32.size());
  EXPECT_LT(MaxRelDiff(y, fp32), 1e-5);
  // Far from what float16 operands give: the graph was not rounded.
  const std::vector<float> fp16 = Reference(kX, kW, H, H, H);
  EXPECT_GT(MaxRelDiff(y, fp16), 1e-4);
  // precision_mode_v2=origin is the same mode.
  EXPECT_EQ(Run("--precision_mode_v2=origin", "Ascend910B1", kX, kW), y);
}

TEST_F(PrecisionTest, ForceFp16RoundsEveryOpLikeAFloat16Graph) {
  const std::vector<float> y =
      Run("--precision_mode=force_fp16", "Ascend910B1", kX, kW);
  // MatMul on float16 operands (float32 accumulation), its result float16,
  // Exp on that, its result float16: exactly, up to accumulation order.
  const std::vector<float> fp16 = Reference(kX, kW, H, H, H);
  ASSERT_EQ(y.size(), fp16.size());
  EXPECT_LT(MaxRelDiff(y, fp16), 3e-3);  // a float16 ulp or two of the result
  for (float v : y) EXPECT_EQ(v, H(v)) << "every output is a float16 value";
  const std::vector<float> fp32 = Reference(kX, kW, Same, Same, Same);
  EXPECT_GT(MaxRelDiff(y, fp32), 1e-4);  // and it is not float32's result
  EXPECT_LT(MaxRelDiff(y, fp32), 2e-2);  // but close to it
  // v2's fp16 is the same mode.
  EXPECT_EQ(Run("--precision_mode_v2=fp16", "Ascend910B1", kX, kW), y);
}

TEST_F(PrecisionTest, DefaultIsCannsForceFp16) {
  EXPECT_EQ(Run("", "Ascend910B1", kX, kW),
            Run("--precision_mode=force_fp16", "Ascend910B1", kX, kW));
}

TEST_F(PrecisionTest, CubeFp16inFp32outRoundsCubeInputsOnly) {
  const std::vector<float> y =
      Run("--precision_mode=cube_fp16in_fp32out", "Ascend910B1", kX, kW);
  const std::vector<float> want = Reference(kX, kW, H, Same, Same);
  ASSERT_EQ(y.size(), want.size());
  EXPECT_LT(MaxRelDiff(y, want), 1e-5);
  // force_fp32 has the same effect (CANN's ATC guide).
  EXPECT_EQ(Run("--precision_mode=force_fp32", "Ascend910B1", kX, kW), y);
}

TEST_F(PrecisionTest, AllowFp32ToFp16RoundsCubeOpsKeepsVectorOps) {
  const std::vector<float> y =
      Run("--precision_mode=allow_fp32_to_fp16", "Ascend910B1", kX, kW);
  const std::vector<float> want = Reference(kX, kW, H, H, Same);
  ASSERT_EQ(y.size(), want.size());
  EXPECT_LT(MaxRelDiff(y, want), 1e-5);
  // Exp ran in float32: its results are not all float16 values.
  int not_half = 0;
  for (float v : y) not_half += v != H(v);
  EXPECT_GT(not_half, 0);
}

TEST_F(PrecisionTest, MixedPrecisionKeepsTheBlackListInFloat32) {
  // MatMul (white list) in float16, Exp (black list) in float32.
  const std::vector<float> want = Reference(kX, kW, H, H, Same);
  for (const char* mode : {"--precision_mode=allow_mix_precision",
                           "--precision_mode=allow_mix_precision_fp16",
                           "--precision_mode_v2=mixed_float16"}) {
    const std::vector<float> y = Run(mode, "Ascend910B1", kX, kW);
    ASSERT_EQ(y.size(), want.size()) << mode;
    EXPECT_LT(MaxRelDiff(y, want), 1e-5) << mode;
  }
}

TEST_F(AtcTest, MixedPrecisionGrayOpsFollowTheirInputs) {
  // y1 = Relu(MatMul(x, w) + b): Add and Relu (gray) follow the float16
  // MatMul (white), so y1 holds float16 values. y2 = Relu(Exp(MatMul(x, w))):
  // Exp (black) is float32, so the Relu after it is too.
  OnnxBuilder g;
  g.Input("x", {kM, kK}).Output("y1", {kM, kN}).Output("y2", {kM, kN});
  g.InitF32("w", {kK, kN}, kW);
  g.InitF32("b", {kN}, {0.1234567f, -0.7654321f, 0.3333333f});
  g.Node("MatMul", {"x", "w"}, {"mm"});
  g.Node("Add", {"mm", "b"}, {"a"});
  g.Node("Relu", {"a"}, {"y1"});
  g.Node("Exp", {"mm"}, {"e"});
  g.Node("Relu", {"e"}, {"y2"});
  g.Save(Path("g.onnx"));
  const AtcResult r =
      testing::RunAtcArgs({"--framework=5", "--model=" + Path("g.onnx"),
                           "--output=" + Path("g"), "--soc_version=Ascend910B1",
                           "--precision_mode=allow_mix_precision_fp16"});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::vector<uint8_t> om = testing::ReadBytes(Path("g.om"));
  std::string error;
  std::unique_ptr<Model> model = Model::Load(om.data(), om.size(), &error);
  ASSERT_NE(model, nullptr) << error;
  const auto y = testing::RunFloat(*model, {kX});
  const std::vector<float> mm = Reference(kX, kW, H, H, Same);  // exp(mm16)
  int y2_not_half = 0;
  for (int i = 0; i < kM * kN; ++i) {
    const float a = H(H(std::log(mm[i])) + H(i % kN == 0   ? 0.1234567f
                                             : i % kN == 1 ? -0.7654321f
                                                           : 0.3333333f));
    EXPECT_NEAR(y[0][i], std::max(0.0f, a), 1e-3f) << i;
    EXPECT_EQ(y[0][i], H(y[0][i])) << "y1[" << i << "] is a float16 value";
    EXPECT_NEAR(y[1][i], mm[i], 1e-5f * std::max(1.0f, mm[i])) << i;
    y2_not_half += y[1][i] != H(y[1][i]);
  }
  EXPECT_GT(y2_not_half, 0) << "y2 stayed float32";
}

TEST_F(PrecisionTest, Bf16ModesRoundToBfloat16) {
  const std::vector<float> want = Reference(kX, kW, B, B, Same);
  for (const char* mode : {"--precision_mode=allow_mix_precision_bf16",
                           "--precision_mode=allow_fp32_to_bf16",
                           "--precision_mode_v2=mixed_bfloat16"}) {
    const std::vector<float> y = Run(mode, "Ascend910B1", kX, kW);
    ASSERT_EQ(y.size(), want.size()) << mode;
    EXPECT_LT(MaxRelDiff(y, want), 1e-5) << mode;
  }
}

TEST_F(AtcTest, PrecisionModeNamesAndRefusals) {
  OnnxBuilder b;
  b.Input("x", {2}).Output("y", {2});
  b.Node("Relu", {"x"}, {"y"});
  b.Save(Path("m.onnx"));
  const std::vector<std::string> base = {
      "--framework=5", "--model=" + Path("m.onnx"), "--output=" + Path("m")};
  auto run = [&](const std::string& soc, const std::string& mode) {
    std::vector<std::string> args = base;
    args.push_back("--soc_version=" + soc);
    args.push_back(mode);
    return testing::RunAtcArgs(args);
  };
  for (const char* mode : {"force_fp16", "force_fp32", "cube_fp16in_fp32out",
                           "allow_mix_precision", "allow_fp32_to_fp16",
                           "must_keep_origin_dtype", "allow_mix_precision_fp16",
                           "allow_mix_precision_bf16", "allow_fp32_to_bf16"}) {
    AtcResult r = run("Ascend910B1", std::string("--precision_mode=") + mode);
    EXPECT_EQ(r.code, 0) << mode << ": " << r.err;
  }
  AtcResult r = run("Ascend310P3", "--precision_mode=allow_fp32_to_bf16");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("computes in bfloat16"), std::string::npos) << r.err;
  r = run("Ascend910B1", "--precision_mode_v2=cube_hif8");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("not emulated"), std::string::npos) << r.err;
  r = run("Ascend910B1", "--precision_mode=fast");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("is not a CANN precision mode"), std::string::npos)
      << r.err;
}

// The inference chips (Ascend310P, Ascend310B) have no float32 cube units
// (src/executorch_ascend/cann_op_facts.json): an fp32 MatMul there under
// must_keep_origin_dtype is refused, naming the op, the chip and the modes
// that work; Ascend910B1 keeps it float32. Under allow_fp32_to_fp16 (the
// backend's default for those chips) it runs on float16 operands.
TEST_F(PrecisionTest, InferenceChipsRefuseFloat32CubeOpsUnderMustKeep) {
  for (const char* soc : {"Ascend310P3", "Ascend310B1"}) {
    MatMulExp(kW).Save(Path("keep.onnx"));
    const AtcResult r = testing::RunAtcArgs(
        {"--framework=5", "--model=" + Path("keep.onnx"),
         "--output=" + Path("keep"), std::string("--soc_version=") + soc,
         "--precision_mode=must_keep_origin_dtype"});
    EXPECT_NE(r.code, 0) << soc;
    EXPECT_NE(r.err.find(std::string("float32 MatMul is not supported on "
                                     "--soc_version=") +
                         soc),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("allow_fp32_to_fp16"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("mat_mul_v3_def.cpp"), std::string::npos)
        << "the message names its source: " << r.err;
    const std::vector<float> y =
        Run("--precision_mode=allow_fp32_to_fp16", soc, kX, kW);
    EXPECT_LT(MaxRelDiff(y, Reference(kX, kW, H, H, Same)), 1e-5) << soc;
  }
  const std::vector<float> y =
      Run("--precision_mode=must_keep_origin_dtype", "Ascend910B1", kX, kW);
  EXPECT_LT(MaxRelDiff(y, Reference(kX, kW, Same, Same, Same)), 1e-5);
}

// A vector op without float32 on the chip (AveragePool on Ascend310P3):
// allow_fp32_to_fp16 keeps vector ops float32 except that one, which reads
// and writes float16 values; on Ascend910B1 it stays float32.
TEST_F(AtcTest, OpsWithoutFloat32RunInFloat16OnTheirChip) {
  OnnxBuilder b;
  b.Input("x", {1, 1, 4, 4}).Output("y", {1, 1, 2, 2});
  onnx::NodeProto& pool = b.Node("AveragePool", {"x"}, {"y"});
  OnnxBuilder::AttrInts(pool, "kernel_shape", {2, 2});
  OnnxBuilder::AttrInts(pool, "strides", {2, 2});
  b.Save(Path("pool.onnx"));
  const std::vector<float> x = Values(16, 0.9f);
  auto run = [&](const std::string& soc, const std::string& mode) {
    const AtcResult r =
        testing::RunAtcArgs({"--framework=5", "--model=" + Path("pool.onnx"),
                             "--output=" + Path("pool"), "--soc_version=" + soc,
                             "--precision_mode=" + mode});
    EXPECT_EQ(r.code, 0) << soc << " " << mode << ": " << r.err;
    const std::vector<uint8_t> om = testing::ReadBytes(Path("pool.om"));
    std::string error;
    std::unique_ptr<Model> model = Model::Load(om.data(), om.size(), &error);
    EXPECT_NE(model, nullptr) << error;
    return model == nullptr ? std::vector<float>()
                            : testing::RunFloat(*model, {x})[0];
  };
  const std::vector<float> fp16 = run("Ascend310P3", "allow_fp32_to_fp16");
  const std::vector<float> fp32 = run("Ascend910B1", "allow_fp32_to_fp16");
  ASSERT_EQ(fp16.size(), 4u);
  ASSERT_EQ(fp32.size(), 4u);
  for (int i = 0; i < 4; ++i) {
    const int r0 = (i / 2) * 8 + (i % 2) * 2;
    const float h = (H(x[r0]) + H(x[r0 + 1]) + H(x[r0 + 4]) + H(x[r0 + 5])) / 4;
    const float f = (x[r0] + x[r0 + 1] + x[r0 + 4] + x[r0 + 5]) / 4;
    EXPECT_EQ(fp16[i], H(h)) << i;
    EXPECT_NEAR(fp32[i], f, 1e-6f) << i;
  }
  EXPECT_NE(fp16, fp32);
}

// bfloat16 into an op CANN defines without it (Resize) is refused on every
// chip, with the source of the fact. (GlobalAveragePool, the other, ONNX's
// own opset-17 schema refuses already, in atc's shape inference.)
TEST_F(AtcTest, OpsWithoutBfloat16RefuseIt) {
  OnnxBuilder b;
  b.Input("x", {1, 2, 3, 3}, onnx::TensorProto::BFLOAT16)
      .Output("y", {1, 2, 6, 6}, onnx::TensorProto::BFLOAT16);
  b.InitF32("scales", {4}, {1.0f, 1.0f, 2.0f, 2.0f});
  b.Node("Resize", {"x", "", "scales"}, {"y"});
  b.Save(Path("resize.onnx"));
  const AtcResult r = testing::RunAtcArgs(
      {"--framework=5", "--model=" + Path("resize.onnx"),
       "--output=" + Path("resize"), "--soc_version=Ascend910B1",
       "--precision_mode=must_keep_origin_dtype"});
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("CANN's Resize has no bfloat16 kernel (ops-cv"),
            std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace ascend_emu
