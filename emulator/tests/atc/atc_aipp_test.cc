// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// atc --insert_op_conf (static AIPP, docs/aipp.md): the config parser, the
// model input becoming the uint8 frame, the Aipp step's arithmetic against
// hand-computed pixels, and the configs CANN refuses.
#include <gtest/gtest.h>

#include <Eigen/Core>
#include <cmath>
#include <string>
#include <vector>

#include "aipp_config.h"
#include "atc_test_util.h"

namespace ascend_emu {
namespace testing {
namespace {

float Half16(float v) { return static_cast<float>(Eigen::half(v)); }

// y = Identity(x): what comes out is what the Aipp step wrote into x.
OnnxBuilder IdentityModel(std::vector<int64_t> dims,
                          int32_t elem = onnx::TensorProto::FLOAT) {
  OnnxBuilder b(17);
  b.Input("x", dims, elem);
  b.Output("y", dims, elem);
  b.Node("Identity", {"x"}, {"y"}, "id");
  return b;
}

class AtcAippTest : public AtcTest {
 protected:
  AtcResult CompileAipp(const OnnxBuilder& b, const std::string& name,
                        const std::string& config) {
    WriteFile(name + ".cfg", config);
    return Compile(b, name, {"--insert_op_conf=" + Path(name + ".cfg")});
  }
  std::unique_ptr<Model> LoadAipp(const OnnxBuilder& b, const std::string& name,
                                  const std::string& config) {
    AtcResult r = CompileAipp(b, name, config);
    EXPECT_EQ(r.code, 0) << r.err;
    if (r.code != 0) return nullptr;
    const std::vector<uint8_t> om = ReadBytes(Path(name + ".om"));
    std::string error;
    std::unique_ptr<Model> model = Model::Load(om.data(), om.size(), &error);
    EXPECT_NE(model, nullptr) << error;
    return model;
  }
  static std::vector<float> Run(Model& model, const std::vector<uint8_t>& in) {
    EXPECT_EQ(in.size(), model.inputs()[0].size_bytes);
    std::vector<float> out(model.outputs()[0].size_bytes / sizeof(float));
    const void* ins[] = {in.data()};
    void* outs[] = {out.data()};
    std::string error;
    EXPECT_TRUE(model.Run(ins, outs, nullptr, &error)) << error;
    return out;
  }
};

TEST(AippConfigParse, ReadsCannsTextFormat) {
  std::vector<atc::AippOp> ops;
  const std::string text =
      "# CANN's crop/padding example\n"
      "aipp_op {\n"
      "  aipp_mode: static\n"
      "  input_format : YUV420SP_U8\n"
      "  src_image_size_w: 320\n  src_image_size_h: 240\n"
      "  crop: true load_start_pos_w: 10 load_start_pos_h: 20\n"
      "  var_reci_chn_0: 0.5f, matrix_r0c0: [256]\n"
      "}\n"
      "aipp_op < related_input_rank: 1 aipp_mode: 1 input_format: 3 >\n";
  ASSERT_EQ(atc::ParseAippConfig(text, &ops), "");
  ASSERT_EQ(ops.size(), 2u);
  EXPECT_EQ(ops[0].fields.at("input_format")[0], "YUV420SP_U8");
  EXPECT_EQ(ops[0].fields.at("load_start_pos_h")[0], "20");
  EXPECT_EQ(ops[0].fields.at("matrix_r0c0")[0], "256");
  EXPECT_EQ(ops[0].line, 2);
  EXPECT_EQ(atc::AippInputRank(ops[1]), 1);
  EXPECT_EQ(atc::CheckAippConfig(ops, 2), "");
  // related_input_rank 1 names no input of a one-input model (E10052).
  EXPECT_NE(atc::CheckAippConfig(ops, 1).find(
                "Cannot find the data node by aipp parameter "
                "related_input_rank 1"),
            std::string::npos);
}

TEST(AippConfigParse, RefusesWhatProtobufsTextParserRefuses) {
  auto err = [](const std::string& text) {
    std::vector<atc::AippOp> ops;
    return atc::ParseAippConfig(text, &ops);
  };
  EXPECT_NE(err("aipp_op { aipp_mode: static input_format: BGR888_U8 }")
                .find("Unknown enumeration value of \"BGR888_U8\" for field "
                      "\"input_format\""),
            std::string::npos);
  EXPECT_NE(err("aipp_op { aipp_mode: static\n mean_chn: 3 }")
                .find("line 2: Message type \"domi.AippOpParams\" has no "
                      "field named \"mean_chn\""),
            std::string::npos);
  EXPECT_NE(err("aipp_op { crop: true crop: false }")
                .find("Non-repeated field \"crop\" is specified multiple"),
            std::string::npos);
  EXPECT_NE(err("aipp_op { mean_chn_0: 1.5 }").find("Expected integer"),
            std::string::npos);
  EXPECT_NE(err("aipp_op { crop: maybe }").find("Invalid value for boolean"),
            std::string::npos);
  EXPECT_NE(err("aipp_op { crop: true").find("missing \"}\""),
            std::string::npos);
  EXPECT_NE(err("aipp { }").find("has no field named \"aipp\""),
            std::string::npos);
}

TEST(AippConfigCheck, RefusesWhatCannsValidateParamsRefuses) {
  auto check = [](const std::string& text) {
    std::vector<atc::AippOp> ops;
    EXPECT_EQ(atc::ParseAippConfig(text, &ops), "");
    return atc::CheckAippConfig(ops, 1);
  };
  EXPECT_NE(check("aipp_op { input_format: RGB888_U8 }")
                .find("aipp_mode must be configured as static or dynamic"),
            std::string::npos);
  EXPECT_NE(check("aipp_op { aipp_mode: static }")
                .find("Input format of AIPP conf must be set in static aipp"),
            std::string::npos);
  EXPECT_NE(check("aipp_op { aipp_mode: static input_format: RGB888_U8 "
                  "matrix_r0c0: 1 matrix_r0c0: 2 }")
                .find("The parameter matrix_r0c0 cannot be configured "
                      "repeatedly"),
            std::string::npos);
  EXPECT_NE(check("aipp_op { aipp_mode: static input_format: RGB888_U8 "
                  "load_start_pos_w: -2 }")
                .find("Load_start_pos_w must not be configured smaller than 0"),
            std::string::npos);
  // Dynamic AIPP (its runs: emulator/tests/acl/atc_dynamic_aipp_test.cc).
  EXPECT_EQ(check("aipp_op { aipp_mode: dynamic max_src_image_size: 100 }"),
            "");
  EXPECT_NE(check("aipp_op { aipp_mode: dynamic }")
                .find("For dynamic AIPP params, max_src_image_size must be "
                      "set which number should be greater than 0"),
            std::string::npos);
  EXPECT_NE(check("aipp_op { aipp_mode: dynamic max_src_image_size: 100 "
                  "support_rotation: true }")
                .find("support_rotation is a reserved AIPP field"),
            std::string::npos);
  EXPECT_NE(check("aipp_op { aipp_mode: static input_format: YUYV_U8 }")
                .find("is not one CANN's static AIPP takes"),
            std::string::npos);
  EXPECT_NE(check("aipp_op { aipp_mode: static input_format: RGB888_U8 "
                  "padding: true left_padding_size: 33 }")
                .find("left_padding_size 33 is outside CANN's range [0, 32]"),
            std::string::npos);
  EXPECT_NE(check("aipp_op { aipp_mode: static input_format: RGB888_U8 "
                  "resize: true }")
                .find("resize is a reserved AIPP field"),
            std::string::npos);
  EXPECT_NE(check("aipp_op { aipp_mode: static input_format: RGB888_U8 } "
                  "aipp_op { aipp_mode: static input_format: YUV400_U8 }")
                .find("Can not insert aipp to the same position"),
            std::string::npos);
}

// RGB888_U8 with BGR input (rbuv_swap_switch), mean/min/var per channel:
// y[c] = fp16((p[c] - mean_c - min_c) * var_reci_c), NCHW.
TEST_F(AtcAippTest, RgbFrameNormalisedPerChannel) {
  const std::string config =
      "aipp_op {\n aipp_mode: static\n input_format: RGB888_U8\n"
      " src_image_size_w: 3\n src_image_size_h: 2\n rbuv_swap_switch: true\n"
      " mean_chn_0: 124 mean_chn_1: 117 mean_chn_2: 104\n"
      " min_chn_0: 0.5 min_chn_1: 0 min_chn_2: 0.25\n"
      " var_reci_chn_0: 0.0171 var_reci_chn_1: 0.0175 var_reci_chn_2: 0.0174\n"
      "}\n";
  std::unique_ptr<Model> model =
      LoadAipp(IdentityModel({1, 3, 2, 3}), "rgb", config);
  ASSERT_NE(model, nullptr);
  const IoDesc& in = model->inputs()[0];
  EXPECT_EQ(in.name, "x");
  EXPECT_EQ(in.dtype, DType::kUInt8);
  EXPECT_EQ(in.shape, (Shape{4, {1, 2, 3, 3}}));
  EXPECT_EQ(in.format, ACL_FORMAT_NHWC);
  std::vector<uint8_t> frame(18);
  for (size_t i = 0; i < frame.size(); ++i) frame[i] = 13 * i + 7;
  const std::vector<float> y = Run(*model, frame);
  ASSERT_EQ(y.size(), 18u);
  const float mean[3] = {124, 117, 104}, mn[3] = {0.5f, 0, 0.25f};
  const float var[3] = {Half16(0.0171f), Half16(0.0175f), Half16(0.0174f)};
  for (int c = 0; c < 3; ++c) {
    for (int p = 0; p < 6; ++p) {
      // The frame is BGR: channel c of the model is byte 2 - c.
      const float px = frame[p * 3 + (2 - c)];
      EXPECT_EQ(y[c * 6 + p], Half16((px - mean[c] - mn[c]) * var[c]))
          << "c " << c << " p " << p;
    }
  }
  // One pixel by hand: pixel 1's B (byte 3 of BGR, model channel 2) is 46:
  // (46 - 104 - 0.25) * 0.0174 (fp16 0.017395...) = -1.0133 -> fp16 -1.01367.
  EXPECT_NEAR(y[2 * 6 + 1], -1.0137, 1e-4);
}

// YUV420SP_U8 (NV12) with crop and CSC (CANN's JPEG YUV -> RGB matrix):
// RGB = clamp((M * (YUV - input_bias)) >> 8, 0, 255), then the mean.
TEST_F(AtcAippTest, Yuv420spCropAndCsc) {
  const std::string config =
      "aipp_op {\n aipp_mode: static\n input_format: YUV420SP_U8\n"
      " src_image_size_w: 8\n src_image_size_h: 6\n"
      " crop: true\n load_start_pos_w: 2\n load_start_pos_h: 2\n"
      " crop_size_w: 5\n crop_size_h: 3\n"
      " csc_switch: true\n"
      " matrix_r0c0: 256 matrix_r0c1: 0 matrix_r0c2: 359\n"
      " matrix_r1c0: 256 matrix_r1c1: -88 matrix_r1c2: -183\n"
      " matrix_r2c0: 256 matrix_r2c1: 454 matrix_r2c2: 0\n"
      " input_bias_0: 0 input_bias_1: 128 input_bias_2: 128\n"
      " mean_chn_0: 10 mean_chn_1: 20 mean_chn_2: 30\n"
      "}\n";
  std::unique_ptr<Model> model =
      LoadAipp(IdentityModel({1, 3, 3, 5}), "yuv", config);
  ASSERT_NE(model, nullptr);
  EXPECT_EQ(model->inputs()[0].shape, (Shape{4, {1, 9, 8, 1}}));
  // As CANN describes the Data node (aclmdlGetInputDims): the 6x8 image.
  EXPECT_EQ(model->inputs()[0].described, (Shape{4, {1, 6, 8, 3}}));
  std::vector<uint8_t> frame(6 * 8 * 3 / 2);
  for (size_t i = 0; i < frame.size(); ++i) frame[i] = (37 * i + 11) % 256;
  const std::vector<float> y = Run(*model, frame);
  ASSERT_EQ(y.size(), 45u);
  const int m[9] = {256, 0, 359, 256, -88, -183, 256, 454, 0};
  const int bias[3] = {0, 128, 128}, mean[3] = {10, 20, 30};
  for (int oy = 0; oy < 3; ++oy) {
    for (int ox = 0; ox < 5; ++ox) {
      const int sy = 2 + oy, sx = 2 + ox;
      const int yuv[3] = {frame[sy * 8 + sx],
                          frame[48 + (sy / 2) * 8 + (sx / 2) * 2],
                          frame[48 + (sy / 2) * 8 + (sx / 2) * 2 + 1]};
      for (int c = 0; c < 3; ++c) {
        int sum = 0;
        for (int k = 0; k < 3; ++k) sum += m[c * 3 + k] * (yuv[k] - bias[k]);
        const int rgb = std::min(
            255, std::max(0, static_cast<int>(std::floor(sum / 256.0))));
        EXPECT_EQ(y[c * 15 + oy * 5 + ox], static_cast<float>(rgb - mean[c]))
            << "c " << c << " y " << oy << " x " << ox;
      }
    }
  }
  // Pixel (0, 0) by hand: Y = frame[18] = 165, U, V = frame[58], frame[59]
  // = 109, 146: R = (256*165 + 359*18) >> 8 = 190, minus mean 10.
  EXPECT_EQ(y[0], 180.0f);
}

// Padding after the crop: padded pixels hold padding_value in every channel.
TEST_F(AtcAippTest, PaddingAroundTheCrop) {
  const std::string config =
      "aipp_op { aipp_mode: static input_format: RGB888_U8\n"
      " src_image_size_w: 4 src_image_size_h: 4\n"
      " crop: true load_start_pos_w: 1 load_start_pos_h: 1 crop_size_w: 2"
      " crop_size_h: 2\n padding: true top_padding_size: 1"
      " bottom_padding_size: 0 left_padding_size: 0 right_padding_size: 2\n"
      " padding_value: -1.5 }\n";
  std::unique_ptr<Model> model =
      LoadAipp(IdentityModel({1, 3, 3, 4}), "pad", config);
  ASSERT_NE(model, nullptr);
  std::vector<uint8_t> frame(4 * 4 * 3);
  for (size_t i = 0; i < frame.size(); ++i) frame[i] = i;
  const std::vector<float> y = Run(*model, frame);
  for (int c = 0; c < 3; ++c) {
    for (int oy = 0; oy < 3; ++oy) {
      for (int ox = 0; ox < 4; ++ox) {
        const float got = y[c * 12 + oy * 4 + ox];
        if (oy == 0 || ox >= 2) {
          EXPECT_EQ(got, -1.5f);
        } else {
          EXPECT_EQ(got, static_cast<float>(((oy)*4 + 1 + ox) * 3 + c));
        }
      }
    }
  }
}

// float16 model input: the Aipp step writes float16, and the gray
// YUV400_U8 frame fills the one channel.
TEST_F(AtcAippTest, Yuv400ToFloat16) {
  std::unique_ptr<Model> model =
      LoadAipp(IdentityModel({2, 1, 2, 2}, onnx::TensorProto::FLOAT16), "gray",
               "aipp_op { aipp_mode: static input_format: YUV400_U8 "
               "var_reci_chn_0: 0.00392157 }");
  ASSERT_NE(model, nullptr);
  EXPECT_EQ(model->inputs()[0].shape, (Shape{4, {2, 2, 2, 1}}));
  EXPECT_EQ(model->inputs()[0].described.rank, 0);  // YUV400: as its buffer
  const std::vector<uint8_t> frame = {0, 1, 128, 255, 7, 8, 9, 10};
  std::vector<Eigen::half> y(8);
  const void* ins[] = {frame.data()};
  void* outs[] = {y.data()};
  std::string error;
  ASSERT_TRUE(model->Run(ins, outs, nullptr, &error)) << error;
  for (size_t i = 0; i < 8; ++i) {
    EXPECT_EQ(static_cast<float>(y[i]), Half16(frame[i] * Half16(0.00392157f)));
  }
}

TEST_F(AtcAippTest, RefusesConfigsCannRefuses) {
  const OnnxBuilder model = IdentityModel({1, 3, 4, 4});
  struct Case {
    const char* config;
    const char* error;
  } cases[] = {
      {"aipp_op { aipp_mode: static input_format: RGB888_U8 src_image_size_w:"
       " 8 src_image_size_h: 8 crop: true load_start_pos_w: 6 crop_size_w: 4"
       " crop_size_h: 4 }",
       "load_start_pos_w + crop_size_w should <= src_image_size_w! (6 + 4 > "
       "8)"},
      {"aipp_op { aipp_mode: static input_format: BGR_U8 }",
       "Unknown enumeration value of \"BGR_U8\""},
      {"aipp_op { aipp_mode: static input_format: YUV420SP_U8 src_image_size_w:"
       " 8 src_image_size_h: 8 crop: true load_start_pos_w: 1 crop_size_w: 4"
       " crop_size_h: 4 }",
       "load_start_pos_w and load_start_pos_h must be even"},
      {"aipp_op { aipp_mode: static input_format: YUV420SP_U8 "
       "src_image_size_w: 4 src_image_size_h: 3 }",
       "originalImageSize should be even for YUV420SP_U8"},
      {"aipp_op { aipp_mode: static input_format: RGB888_U8 "
       "src_image_size_w: 5 src_image_size_h: 4 }",
       "the data output H and W is not equal with aipp output H and W"},
      {"aipp_op { aipp_mode: static input_format: RGB888_U8 crop: true }",
       "src_image_size_w and src_image_size_h should > 0"},
      {"aipp_op { aipp_mode: static input_format: XRGB8888_U8 }",
       "XRGB8888_U8 is not emulated"},
      {"aipp_op { aipp_mode: static input_format: RGB888_U8 "
       "related_input_rank: 1 }",
       "related_input_rank 1"},
  };
  int i = 0;
  for (const Case& c : cases) {
    AtcResult r = CompileAipp(model, "bad" + std::to_string(i++), c.config);
    EXPECT_NE(r.code, 0) << c.config;
    EXPECT_NE(r.err.find(c.error), std::string::npos) << r.err;
    EXPECT_FALSE(FileExists(Path("bad" + std::to_string(i - 1) + ".om")));
  }
  AtcResult r =
      Compile(model, "missing", {"--insert_op_conf=" + Path("no_such.cfg")});
  EXPECT_NE(r.err.find("cannot read the file"), std::string::npos) << r.err;
  // An int8 model input is no image AIPP writes.
  r = CompileAipp(IdentityModel({1, 3, 4, 4}, onnx::TensorProto::INT8), "i8",
                  "aipp_op { aipp_mode: static input_format: RGB888_U8 }");
  EXPECT_NE(r.err.find("AIPP needs a 4-D NCHW float32 or float16 model "
                       "input"),
            std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace testing
}  // namespace ascend_emu
