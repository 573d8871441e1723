// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The path the backend takes: an ONNX graph compiled by the emulator's atc
// (same command line as CANN's), then loaded and run through ACL.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "acl_test_util.h"
#include "onnx_builder.h"

namespace ascend_emu::acl_test {
namespace {

using ::testing::HasSubstr;

constexpr int64_t kShape[] = {1, 2, 2, 2};
constexpr size_t kNumel = 8;
constexpr float kBias[kNumel] = {1, -1, 0.5f, -0.5f, 2, -2, 0, 3};

// y = Relu(x + b), x float32[1, 2, 2, 2], b an initializer.
std::string BuildOnnxModel() {
  const std::vector<int64_t> shape(std::begin(kShape), std::end(kShape));
  ascend_emu::testing::OnnxBuilder b;
  b.Input("x", shape).Output("y", shape);
  b.InitF32("b", shape, std::vector<float>(std::begin(kBias), std::end(kBias)));
  b.Node("Add", {"x", "b"}, {"s"}, "add");
  b.Node("Relu", {"s"}, {"y"}, "relu");
  return b.Serialize();
}

class AtcModelTest : public AclTest {
 protected:
  void SetUp() override {
    AclTest::SetUp();
    char dir[] = "/tmp/acl_atc_test_XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    dir_ = dir;
    std::ofstream(dir_ + "/net.onnx", std::ios::binary) << BuildOnnxModel();
  }
  void TearDown() override {
    std::system(("rm -rf '" + dir_ + "'").c_str());
    AclTest::TearDown();
  }
  // Runs atc as the Python side does; returns its exit status.
  int RunAtc(const std::string& soc_version) {
    std::string command =
        std::string("'") + ATC_BINARY + "' --framework=5 --model='" + dir_ +
        "/net.onnx' --output='" + dir_ + "/net' --soc_version=" + soc_version +
        " --precision_mode=must_keep_origin_dtype"
        " >'" +
        dir_ + "/atc.log' 2>&1";
    int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  std::string om_path() const { return dir_ + "/net.om"; }
  std::string dir_;
};

TEST_F(AtcModelTest, CompiledOnnxModelRunsThroughAcl) {
  ASSERT_EQ(RunAtc("Ascend910B1"), 0);
  uint32_t id = 0;
  ASSERT_EQ(aclmdlLoadFromFile(om_path().c_str(), &id), ACL_SUCCESS)
      << LastError();
  aclmdlDesc* desc = aclmdlCreateDesc();
  ASSERT_EQ(aclmdlGetDesc(desc, id), ACL_SUCCESS);
  ASSERT_EQ(aclmdlGetNumInputs(desc), 1u);
  ASSERT_EQ(aclmdlGetNumOutputs(desc), 1u);
  EXPECT_STREQ(aclmdlGetInputNameByIndex(desc, 0), "x");
  EXPECT_EQ(aclmdlGetInputFormat(desc, 0), ACL_FORMAT_NCHW);  // 4-D input
  EXPECT_EQ(aclmdlGetInputDataType(desc, 0), ACL_FLOAT);
  size_t bytes = aclmdlGetInputSizeByIndex(desc, 0);
  ASSERT_EQ(bytes, kNumel * sizeof(float));
  ASSERT_EQ(aclmdlGetOutputSizeByIndex(desc, 0), bytes);
  EXPECT_EQ(aclmdlDestroyDesc(desc), ACL_SUCCESS);

  const std::vector<float> x = {0, 0, 0, 0, -3, 3, 1, -4};
  {
    DeviceBuffer x_dev(bytes);
    DeviceBuffer y_dev(bytes);
    ASSERT_EQ(aclrtMemcpy(x_dev.get(), bytes, x.data(), bytes,
                          ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
    aclmdlDataset* input = aclmdlCreateDataset();
    aclmdlDataset* output = aclmdlCreateDataset();
    aclDataBuffer* xb = aclCreateDataBuffer(x_dev.get(), bytes);
    aclDataBuffer* yb = aclCreateDataBuffer(y_dev.get(), bytes);
    ASSERT_EQ(aclmdlAddDatasetBuffer(input, xb), ACL_SUCCESS);
    ASSERT_EQ(aclmdlAddDatasetBuffer(output, yb), ACL_SUCCESS);
    EXPECT_EQ(aclmdlExecute(id, input, output), ACL_SUCCESS) << LastError();
    std::vector<float> y(kNumel, -1.0f);
    ASSERT_EQ(aclrtMemcpy(y.data(), bytes, y_dev.get(), bytes,
                          ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    for (size_t i = 0; i < kNumel; ++i) {
      float expected = x[i] + kBias[i] > 0 ? x[i] + kBias[i] : 0.0f;
      EXPECT_FLOAT_EQ(y[i], expected) << i;
    }
    aclDestroyDataBuffer(xb);
    aclDestroyDataBuffer(yb);
    aclmdlDestroyDataset(input);
    aclmdlDestroyDataset(output);
  }
  EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
}

TEST_F(AtcModelTest, ModelCompiledForAnotherSocIsRefused) {
  ASSERT_EQ(RunAtc("Ascend310P3"), 0);
  uint32_t id = 0;
  EXPECT_EQ(aclmdlLoadFromFile(om_path().c_str(), &id),
            ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID);
  EXPECT_THAT(LastError(), HasSubstr("Ascend310P3"));
  EXPECT_THAT(LastError(), HasSubstr("Ascend910B1"));
}

TEST_F(AtcModelTest, OnnxFileItselfIsNotAnOm) {
  uint32_t id = 0;
  EXPECT_EQ(aclmdlLoadFromFile((dir_ + "/net.onnx").c_str(), &id),
            ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID);
  EXPECT_THAT(LastError(), HasSubstr("not an emulator .om"));
}

}  // namespace
}  // namespace ascend_emu::acl_test
