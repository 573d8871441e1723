// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Dynamic AIPP through ACL, as the backend uses it (docs/aipp.md): a model
// compiled by the emulator's atc with `aipp_mode: dynamic`, its description
// (the frame [1, max_src_image_size], CANN's extra input
// ACL_DYNAMIC_AIPP_NAME of 64 + 96 * N bytes, aclmdlGetAippType), the
// aclmdlAIPP setters and their refusals, aclmdlSetInputAIPP's checks against
// the model, and two parameter sets run on one .om against hand-computed
// pixels.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "acl_test_util.h"
#include "onnx_builder.h"

namespace ascend_emu::acl_test {
namespace {

using ascend_emu::testing::OnnxBuilder;
using ::testing::HasSubstr;

// y = Identity(x), x float32 [n, c, 4, 4]: what comes out is what the Aipp
// step wrote into x.
OnnxBuilder Identity(int64_t n, int64_t c) {
  OnnxBuilder b(17);
  b.Input("x", {n, c, 4, 4});
  b.Output("y", {n, c, 4, 4});
  b.Node("Identity", {"x"}, {"y"}, "id");
  return b;
}

class AclDynamicAipp : public AclTest {
 protected:
  void SetUp() override {
    AclTest::SetUp();
    char dir[] = "/tmp/acl_daipp_test_XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    dir_ = dir;
  }
  void TearDown() override {
    for (aclmdlAIPP* a : aipps_) {
      EXPECT_EQ(aclmdlDestroyAIPP(a), ACL_SUCCESS);
    }
    if (desc_ != nullptr) {
      EXPECT_EQ(aclmdlDestroyDesc(desc_), ACL_SUCCESS);
    }
    if (id_ != 0) {
      EXPECT_EQ(aclmdlUnload(id_), ACL_SUCCESS);
    }
    for (aclDataBuffer* b : data_buffers_) aclDestroyDataBuffer(b);
    for (aclmdlDataset* d : datasets_) aclmdlDestroyDataset(d);
    buffers_.clear();
    std::system(("rm -rf '" + dir_ + "'").c_str());
    AclTest::TearDown();
  }

  // atc's exit code for `model` with the AIPP config `config`; its log in
  // *log.
  int Compile(const OnnxBuilder& model, const std::string& config,
              std::string* log, const std::string& options = "") {
    model.Save(dir_ + "/net.onnx");
    std::FILE* f = std::fopen((dir_ + "/aipp.cfg").c_str(), "w");
    std::fputs(config.c_str(), f);
    std::fclose(f);
    const std::string command =
        std::string("'") + ATC_BINARY + "' --framework=5 --model='" + dir_ +
        "/net.onnx' --output='" + dir_ + "/net' --soc_version=Ascend910B1 " +
        "--insert_op_conf='" + dir_ + "/aipp.cfg' " + options + " >'" + dir_ +
        "/atc.log' 2>&1";
    const int status = std::system(command.c_str());
    std::FILE* in = std::fopen((dir_ + "/atc.log").c_str(), "r");
    log->clear();
    char chunk[512];
    size_t got = 0;
    while (in != nullptr && (got = std::fread(chunk, 1, sizeof chunk, in)) > 0)
      log->append(chunk, got);
    if (in != nullptr) std::fclose(in);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  void Load(const OnnxBuilder& model, const std::string& config) {
    std::string log;
    ASSERT_EQ(Compile(model, config, &log), 0) << log;
    ASSERT_EQ(aclmdlLoadFromFile((dir_ + "/net.om").c_str(), &id_), ACL_SUCCESS)
        << LastError();
    desc_ = aclmdlCreateDesc();
    ASSERT_EQ(aclmdlGetDesc(desc_, id_), ACL_SUCCESS);
  }
  aclmdlDataset* Dataset(const std::vector<size_t>& sizes) {
    aclmdlDataset* d = aclmdlCreateDataset();
    datasets_.push_back(d);
    for (size_t bytes : sizes) {
      buffers_.push_back(std::make_unique<DeviceBuffer>(bytes));
      aclDataBuffer* b = aclCreateDataBuffer(buffers_.back()->get(), bytes);
      data_buffers_.push_back(b);
      EXPECT_EQ(aclmdlAddDatasetBuffer(d, b), ACL_SUCCESS);
    }
    return d;
  }
  void* Addr(aclmdlDataset* d, size_t i) {
    return aclGetDataBufferAddr(aclmdlGetDatasetBuffer(d, i));
  }
  aclmdlAIPP* Aipp(uint64_t batch) {
    aclmdlAIPP* a = aclmdlCreateAIPP(batch);
    EXPECT_NE(a, nullptr) << LastError();
    if (a != nullptr) aipps_.push_back(a);
    return a;
  }

  std::string dir_;
  uint32_t id_ = 0;
  aclmdlDesc* desc_ = nullptr;
  std::vector<aclmdlAIPP*> aipps_;
  std::vector<std::unique_ptr<DeviceBuffer>> buffers_;
  std::vector<aclDataBuffer*> data_buffers_;
  std::vector<aclmdlDataset*> datasets_;
};

constexpr const char* kDynamic =
    "aipp_op {\n  aipp_mode: dynamic\n  max_src_image_size: 120\n"
    "  support_rotation: false\n}\n";

TEST_F(AclDynamicAipp, SettersCheckCannsRanges) {
  size_t size = 0;
  ASSERT_EQ(aclmdlGetAippDataSize(2, &size), ACL_SUCCESS);
  EXPECT_EQ(size, 64u + 96u * 2);
  EXPECT_EQ(aclmdlGetAippDataSize(0, &size), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlGetAippDataSize(1, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlCreateAIPP(0), nullptr);
  EXPECT_THAT(LastError(), HasSubstr("the batchSize can't be zero"));

  aclmdlAIPP* a = Aipp(2);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(aclmdlSetAIPPInputFormat(a, ACL_RGB888_U8), ACL_SUCCESS);
  EXPECT_EQ(aclmdlSetAIPPInputFormat(a, static_cast<aclAippInputFormat>(99)),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("unsupported inputFormat[99]"));
  EXPECT_EQ(aclmdlSetAIPPSrcImageSize(a, 2, 1), ACL_SUCCESS);
  EXPECT_EQ(aclmdlSetAIPPSrcImageSize(a, 1, 8), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("must be in range of [2] and [4096]"));
  EXPECT_EQ(aclmdlSetAIPPSrcImageSize(a, 8, 4097), ACL_ERROR_INVALID_PARAM);
  // The matrix is checked only with the switch on, as CANN's setter does.
  EXPECT_EQ(aclmdlSetAIPPCscParams(a, 0, 32677, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                   0, 0, 0),
            ACL_SUCCESS);
  EXPECT_EQ(aclmdlSetAIPPCscParams(a, 1, 32677, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                   0, 0, 0),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(),
              HasSubstr("must be in range of [-32677] and [32676]"));
  EXPECT_EQ(
      aclmdlSetAIPPCscParams(a, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
      ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlSetAIPPRbuvSwapSwitch(a, 1), ACL_SUCCESS);
  EXPECT_EQ(aclmdlSetAIPPRbuvSwapSwitch(a, -1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlSetAIPPCropParams(a, 1, 0, 4095, 1, 4096, 1), ACL_SUCCESS);
  EXPECT_EQ(aclmdlSetAIPPCropParams(a, 1, 4096, 0, 1, 1, 1),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlSetAIPPCropParams(a, 1, 0, 0, 0, 1, 1),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("cropSizeW"));
  EXPECT_EQ(aclmdlSetAIPPCropParams(a, 1, 0, 0, 1, 1, 2),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("batch_index (2) is greater than or "
                                     "equal to batch_number (2)"));
  EXPECT_EQ(aclmdlSetAIPPPaddingParams(a, 1, 32, 0, 0, 0, 0), ACL_SUCCESS);
  EXPECT_EQ(aclmdlSetAIPPPaddingParams(a, 1, 33, 0, 0, 0, 0),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlSetAIPPPaddingParams(a, 0, 33, 0, 0, 0, 0), ACL_SUCCESS);
  EXPECT_EQ(aclmdlSetAIPPDtcPixelMean(a, 0, 255, 1, 2, 1), ACL_SUCCESS);
  EXPECT_EQ(aclmdlSetAIPPDtcPixelMean(a, 256, 0, 0, 0, 0),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlSetAIPPDtcPixelMin(a, 0.0f, 255.0f, 1.5f, 0.0f, 0),
            ACL_SUCCESS);
  EXPECT_EQ(aclmdlSetAIPPDtcPixelMin(a, -0.5f, 0.0f, 0.0f, 0.0f, 0),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlSetAIPPPixelVarReci(a, -65504.0f, 65504.0f, 1.0f, 0.0f, 0),
            ACL_SUCCESS);
  EXPECT_EQ(aclmdlSetAIPPPixelVarReci(a, 65505.0f, 0.0f, 0.0f, 0.0f, 0),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlSetAIPPScfParams(a, 1, 15, 16, 16, 16, 0),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlSetAIPPScfParams(a, 1, 16, 16, 1921, 16, 0),
            ACL_ERROR_INVALID_PARAM);
  // A stale or forged pointer is refused, never dereferenced.
  aclmdlAIPP* gone = aclmdlCreateAIPP(1);
  ASSERT_NE(gone, nullptr);
  EXPECT_EQ(aclmdlDestroyAIPP(gone), ACL_SUCCESS);
  EXPECT_EQ(aclmdlDestroyAIPP(gone), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlSetAIPPSrcImageSize(gone, 8, 8), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("not a live aclmdlAIPP"));
  EXPECT_EQ(aclmdlSetAIPPInputFormat(nullptr, ACL_RGB888_U8),
            ACL_ERROR_INVALID_PARAM);
}

TEST_F(AclDynamicAipp, TheModelDescribesCannsInputs) {
  ASSERT_NO_FATAL_FAILURE(Load(Identity(1, 3), kDynamic));
  ASSERT_EQ(aclmdlGetNumInputs(desc_), 2u);
  // The frame keeps the Data node's name: uint8 [1, max_src_image_size].
  EXPECT_STREQ(aclmdlGetInputNameByIndex(desc_, 0), "x");
  EXPECT_EQ(aclmdlGetInputDataType(desc_, 0), ACL_UINT8);
  EXPECT_EQ(aclmdlGetInputFormat(desc_, 0), ACL_FORMAT_NHWC);
  EXPECT_EQ(aclmdlGetInputSizeByIndex(desc_, 0), 120u);
  aclmdlIODims dims;
  ASSERT_EQ(aclmdlGetInputDims(desc_, 0, &dims), ACL_SUCCESS);
  ASSERT_EQ(dims.dimCount, 2u);
  EXPECT_EQ(dims.dims[0], 1);
  EXPECT_EQ(dims.dims[1], 120);
  // CANN's AippData input, last: 64 + 96 * N bytes.
  EXPECT_STREQ(aclmdlGetInputNameByIndex(desc_, 1), ACL_DYNAMIC_AIPP_NAME);
  EXPECT_EQ(aclmdlGetInputDataType(desc_, 1), ACL_UINT8);
  EXPECT_EQ(aclmdlGetInputSizeByIndex(desc_, 1), 160u);
  size_t index = 99;
  ASSERT_EQ(aclmdlGetInputIndexByName(desc_, ACL_DYNAMIC_AIPP_NAME, &index),
            ACL_SUCCESS);
  EXPECT_EQ(index, 1u);
  aclmdlInputAippType type = ACL_DATA_WITHOUT_AIPP;
  size_t attached = 0;
  ASSERT_EQ(aclmdlGetAippType(id_, 0, &type, &attached), ACL_SUCCESS);
  EXPECT_EQ(type, ACL_DATA_WITH_DYNAMIC_AIPP);
  EXPECT_EQ(attached, 1u);
  ASSERT_EQ(aclmdlGetAippType(id_, 1, &type, &attached), ACL_SUCCESS);
  EXPECT_EQ(type, ACL_DYNAMIC_AIPP_NODE);
  EXPECT_EQ(attached, static_cast<size_t>(ACL_INVALID_NODE_INDEX));
  EXPECT_EQ(aclmdlGetAippType(id_, 2, &type, &attached),
            ACL_ERROR_INVALID_PARAM);
}

// Two parameter sets on one .om: the frame is a 5x6 RGB888_U8 image
// (120 bytes reserved, 90 used); each set crops 4x4 somewhere else and
// normalises differently. Every value is exact in float16, so the expected
// pixels are exact.
TEST_F(AclDynamicAipp, TwoParameterSetsOnOneOm) {
  ASSERT_NO_FATAL_FAILURE(Load(Identity(1, 3), kDynamic));
  aclmdlDataset* in = Dataset({120, 160});
  aclmdlDataset* out = Dataset({3 * 16 * 4});
  std::vector<uint8_t> frame(120, 0);
  for (size_t i = 0; i < 90; ++i) frame[i] = static_cast<uint8_t>(i * 37 % 251);
  ASSERT_EQ(aclrtMemcpy(Addr(in, 0), 120, frame.data(), 120,
                        ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  // Never set: the buffer is zeros, and the Aipp step refuses it.
  ASSERT_EQ(aclrtMemset(Addr(in, 1), 160, 0, 160), ACL_SUCCESS);
  EXPECT_NE(aclmdlExecute(id_, in, out), ACL_SUCCESS);
  EXPECT_THAT(LastError(), HasSubstr("were never set"));

  struct Set {
    int crop_x, crop_y, swap;
    int16_t mean[3];
    float min, var;
  } sets[] = {{1, 1, 0, {10, 20, 30}, 0.5f, 0.5f},
              {2, 0, 1, {5, 5, 5}, 0.25f, 0.25f}};
  aclmdlAIPP* a = Aipp(1);
  ASSERT_NE(a, nullptr);
  for (const Set& s : sets) {
    ASSERT_EQ(aclmdlSetAIPPInputFormat(a, ACL_RGB888_U8), ACL_SUCCESS);
    ASSERT_EQ(aclmdlSetAIPPSrcImageSize(a, 6, 5), ACL_SUCCESS);
    ASSERT_EQ(aclmdlSetAIPPRbuvSwapSwitch(a, static_cast<int8_t>(s.swap)),
              ACL_SUCCESS);
    ASSERT_EQ(aclmdlSetAIPPCropParams(a, 1, s.crop_x, s.crop_y, 4, 4, 0),
              ACL_SUCCESS);
    ASSERT_EQ(
        aclmdlSetAIPPDtcPixelMean(a, s.mean[0], s.mean[1], s.mean[2], 0, 0),
        ACL_SUCCESS);
    ASSERT_EQ(aclmdlSetAIPPDtcPixelMin(a, s.min, s.min, s.min, 0.0f, 0),
              ACL_SUCCESS);
    ASSERT_EQ(aclmdlSetAIPPPixelVarReci(a, s.var, s.var, s.var, 1.0f, 0),
              ACL_SUCCESS);
    ASSERT_EQ(aclmdlSetInputAIPP(id_, in, 1, a), ACL_SUCCESS) << LastError();
    ASSERT_EQ(aclmdlExecute(id_, in, out), ACL_SUCCESS) << LastError();
    std::vector<float> y(3 * 16);
    ASSERT_EQ(aclrtMemcpy(y.data(), y.size() * 4, Addr(out, 0), y.size() * 4,
                          ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    for (int c = 0; c < 3; ++c) {
      for (int yy = 0; yy < 4; ++yy) {
        for (int xx = 0; xx < 4; ++xx) {
          const int src = s.swap ? 2 - c : c;
          const int p =
              frame[((s.crop_y + yy) * 6 + (s.crop_x + xx)) * 3 + src];
          const float want =
              (static_cast<float>(p - s.mean[c]) - s.min) * s.var;
          EXPECT_EQ(y[(c * 4 + yy) * 4 + xx], want)
              << "set " << (&s - sets) << " c " << c << " (" << yy << ", " << xx
              << ")";
        }
      }
    }
  }
}

TEST_F(AclDynamicAipp, SetInputAippChecksAgainstTheModel) {
  ASSERT_NO_FATAL_FAILURE(Load(Identity(1, 3), kDynamic));
  aclmdlDataset* in = Dataset({120, 160});
  aclmdlAIPP* a = Aipp(1);
  ASSERT_NE(a, nullptr);
  // Unset: CANN's AippParamsCheck wants a format.
  EXPECT_EQ(aclmdlSetInputAIPP(id_, in, 1, a), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclmdlSetAIPPInputFormat(a, ACL_RGB888_U8), ACL_SUCCESS);
  ASSERT_EQ(aclmdlSetAIPPSrcImageSize(a, 4, 4), ACL_SUCCESS);
  EXPECT_EQ(aclmdlSetInputAIPP(id_, in, 1, a), ACL_SUCCESS) << LastError();
  // The frame is not the AIPP data input.
  EXPECT_EQ(aclmdlSetInputAIPP(id_, in, 0, a), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("Dynamic AIPP data index 0 is invalid"));
  // 6x6 RGB is 108 bytes, under 120, but no crop: 6x6 out, not the model's.
  ASSERT_EQ(aclmdlSetAIPPSrcImageSize(a, 6, 6), ACL_SUCCESS);
  EXPECT_EQ(aclmdlSetInputAIPP(id_, in, 1, a), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(),
              HasSubstr("aipp output shape set by ACL must be equal to aipp "
                        "output shape in the model"));
  // 8x8 RGB is 192 bytes: more than max_src_image_size.
  ASSERT_EQ(aclmdlSetAIPPSrcImageSize(a, 8, 8), ACL_SUCCESS);
  ASSERT_EQ(aclmdlSetAIPPCropParams(a, 1, 0, 0, 4, 4, 0), ACL_SUCCESS);
  EXPECT_EQ(aclmdlSetInputAIPP(id_, in, 1, a), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("is bigger than max_src_image_size[120]"));
  // A crop outside the image.
  ASSERT_EQ(aclmdlSetAIPPSrcImageSize(a, 6, 5), ACL_SUCCESS);
  ASSERT_EQ(aclmdlSetAIPPCropParams(a, 1, 3, 0, 4, 4, 0), ACL_SUCCESS);
  EXPECT_EQ(aclmdlSetInputAIPP(id_, in, 1, a), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("cannot be larger than srcImageSizeW"));
  // YUV400 has no CSC; YUV420SP crops start even.
  ASSERT_EQ(aclmdlSetAIPPCropParams(a, 1, 0, 0, 4, 4, 0), ACL_SUCCESS);
  ASSERT_EQ(aclmdlSetAIPPInputFormat(a, ACL_YUV400_U8), ACL_SUCCESS);
  ASSERT_EQ(aclmdlSetAIPPCscParams(a, 1, 256, 0, 0, 0, 256, 0, 0, 0, 256, 0, 0,
                                   0, 0, 0, 0),
            ACL_SUCCESS);
  EXPECT_EQ(aclmdlSetInputAIPP(id_, in, 1, a), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("YUV400 or raw not support csc switch"));
  ASSERT_EQ(aclmdlSetAIPPInputFormat(a, ACL_YUV420SP_U8), ACL_SUCCESS);
  ASSERT_EQ(aclmdlSetAIPPSrcImageSize(a, 6, 6), ACL_SUCCESS);
  ASSERT_EQ(aclmdlSetAIPPCropParams(a, 1, 1, 0, 4, 4, 0), ACL_SUCCESS);
  EXPECT_EQ(aclmdlSetInputAIPP(id_, in, 1, a), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("must be even for YUV420SP_U8"));
  // A resize's output (16x16 at least) is the AIPP output CANN checks first;
  // resize itself is not supported in dynamic AIPP.
  ASSERT_EQ(aclmdlSetAIPPCropParams(a, 1, 2, 2, 4, 4, 0), ACL_SUCCESS);
  ASSERT_EQ(aclmdlSetAIPPScfParams(a, 1, 16, 16, 16, 16, 0), ACL_SUCCESS);
  EXPECT_EQ(aclmdlSetInputAIPP(id_, in, 1, a), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("AclAippOutputW = 16"));
  ASSERT_EQ(aclmdlSetAIPPScfParams(a, 0, 0, 0, 0, 0, 0), ACL_SUCCESS);
  EXPECT_EQ(aclmdlSetInputAIPP(id_, in, 1, a), ACL_SUCCESS) << LastError();
  // A parameter set for another batch size.
  aclmdlAIPP* two = Aipp(2);
  ASSERT_NE(two, nullptr);
  ASSERT_EQ(aclmdlSetAIPPInputFormat(two, ACL_YUV400_U8), ACL_SUCCESS);
  ASSERT_EQ(aclmdlSetAIPPSrcImageSize(two, 4, 4), ACL_SUCCESS);
  EXPECT_EQ(aclmdlSetInputAIPP(id_, in, 1, two), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("AclAippBatchSize = 2"));
  // A data buffer smaller than the parameters.
  aclmdlDataset* small = Dataset({120, 100});
  EXPECT_EQ(aclmdlSetInputAIPP(id_, small, 1, a),
            ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID);
}

TEST_F(AclDynamicAipp, AtcRefusesWhatCannRefuses) {
  std::string log;
  EXPECT_NE(Compile(Identity(1, 3), "aipp_op { aipp_mode: dynamic }", &log), 0);
  EXPECT_THAT(log, HasSubstr("max_src_image_size must be set"));
  EXPECT_NE(Compile(Identity(1, 3),
                    "aipp_op { aipp_mode: dynamic max_src_image_size: 48 "
                    "support_rotation: true }",
                    &log),
            0);
  EXPECT_THAT(log, HasSubstr("support_rotation is a reserved AIPP field"));
  OnnxBuilder flat(17);
  flat.Input("x", {2, 8}).Output("y", {2, 8});
  flat.Node("Identity", {"x"}, {"y"}, "id");
  EXPECT_NE(Compile(flat, kDynamic, &log), 0);
  EXPECT_THAT(log, HasSubstr("Its shape size must be in the range[3,4] when "
                             "dynamic AIPP is linked"));
  // The static fields of a dynamic block are CANN's to ignore.
  EXPECT_EQ(Compile(Identity(2, 1),
                    "aipp_op { aipp_mode: dynamic max_src_image_size: 64 "
                    "input_format: RGB888_U8 crop: true }",
                    &log),
            0)
      << log;
  ASSERT_EQ(aclmdlLoadFromFile((dir_ + "/net.om").c_str(), &id_), ACL_SUCCESS)
      << LastError();
  desc_ = aclmdlCreateDesc();
  ASSERT_EQ(aclmdlGetDesc(desc_, id_), ACL_SUCCESS);
  EXPECT_EQ(aclmdlGetInputSizeByIndex(desc_, 1), 64u + 96u * 2);
}

}  // namespace
}  // namespace ascend_emu::acl_test
