// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Model load, description and execution, with the usage rules real CANN
// imposes: emulator .om only, matching SoC, device-memory I/O of the right
// size and count, and one context for load, execute and unload.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "acl_test_util.h"
#include "model_io.h"
#include "test_models.h"

namespace ascend_emu::acl_test {
namespace {

using ::testing::HasSubstr;

class ModelTest : public AclTest {
 protected:
  void SetUp() override {
    AclTest::SetUp();
    image_ = BuildAddMulReluOm("Ascend910B1");
    ASSERT_FALSE(image_.empty());
  }
  uint32_t Load() {
    uint32_t id = 0;
    EXPECT_EQ(aclmdlLoadFromMem(image_.data(), image_.size(), &id), ACL_SUCCESS)
        << LastError();
    return id;
  }
  std::vector<uint8_t> image_;
};

TEST_F(ModelTest, LoadDescribeExecuteUnload) {
  uint32_t id = Load();
  EXPECT_EQ(id, 1u);  // ids are small and start at 1
  EXPECT_EQ(Stats().live_models, 1u);

  aclmdlDesc* desc = aclmdlCreateDesc();
  ASSERT_NE(desc, nullptr);
  ASSERT_EQ(aclmdlGetDesc(desc, id), ACL_SUCCESS);
  EXPECT_EQ(aclmdlGetNumInputs(desc), 2u);
  EXPECT_EQ(aclmdlGetNumOutputs(desc), 1u);
  EXPECT_EQ(aclmdlGetInputSizeByIndex(desc, 1), kTensorBytes);
  EXPECT_EQ(aclmdlGetOutputSizeByIndex(desc, 0), kTensorBytes);
  aclmdlIODims dims;
  ASSERT_EQ(aclmdlGetInputDims(desc, 1, &dims), ACL_SUCCESS);
  EXPECT_STREQ(dims.name, "y");
  ASSERT_EQ(dims.dimCount, 2u);
  EXPECT_EQ(dims.dims[0], 2);
  EXPECT_EQ(dims.dims[1], 3);
  ASSERT_EQ(aclmdlGetOutputDims(desc, 0, &dims), ACL_SUCCESS);
  EXPECT_STREQ(dims.name, "z");
  EXPECT_EQ(aclmdlGetInputDataType(desc, 0), ACL_FLOAT);
  EXPECT_EQ(aclmdlGetOutputDataType(desc, 0), ACL_FLOAT);
  EXPECT_EQ(aclmdlGetInputFormat(desc, 0), ACL_FORMAT_ND);
  EXPECT_EQ(aclmdlGetOutputFormat(desc, 0), ACL_FORMAT_ND);
  EXPECT_STREQ(aclmdlGetInputNameByIndex(desc, 0), "x");
  EXPECT_STREQ(aclmdlGetOutputNameByIndex(desc, 0), "z");

  {
    ModelIo io;
    io.CopyInputs();
    ASSERT_EQ(aclmdlExecute(id, io.input(), io.output()), ACL_SUCCESS)
        << LastError();
    EXPECT_EQ(io.Output(), ExpectedAddMulRelu(kX, kY));
    EXPECT_EQ(Stats().executes, 1u);
  }
  ASSERT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  EXPECT_EQ(aclmdlUnload(id), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID);
  // A description is a snapshot: still readable after unload.
  EXPECT_EQ(aclmdlGetNumInputs(desc), 2u);
  EXPECT_EQ(aclmdlDestroyDesc(desc), ACL_SUCCESS);
  EXPECT_EQ(aclmdlDestroyDesc(desc), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlGetNumInputs(desc), 0u);
}

TEST_F(ModelTest, DescriptionQueriesRejectBadIndexes) {
  uint32_t id = Load();
  aclmdlDesc* desc = aclmdlCreateDesc();
  ASSERT_EQ(aclmdlGetDesc(desc, id), ACL_SUCCESS);
  aclmdlIODims dims;
  EXPECT_EQ(aclmdlGetInputSizeByIndex(desc, 2), 0u);
  EXPECT_THAT(LastError(), HasSubstr("input index 2 is out of range"));
  EXPECT_EQ(aclmdlGetOutputSizeByIndex(desc, 1), 0u);
  EXPECT_EQ(aclmdlGetInputDims(desc, 2, &dims), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlGetOutputDims(desc, 1, &dims), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlGetInputDims(desc, 0, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlGetInputDataType(desc, 5), ACL_DT_UNDEFINED);
  EXPECT_EQ(aclmdlGetOutputDataType(desc, 5), ACL_DT_UNDEFINED);
  EXPECT_EQ(aclmdlGetInputFormat(desc, 5), ACL_FORMAT_UNDEFINED);
  EXPECT_EQ(aclmdlGetOutputFormat(desc, 5), ACL_FORMAT_UNDEFINED);
  EXPECT_EQ(aclmdlGetInputNameByIndex(desc, 5), nullptr);
  EXPECT_EQ(aclmdlGetOutputNameByIndex(desc, 1), nullptr);
  EXPECT_EQ(aclmdlGetDesc(desc, 99), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID);
  EXPECT_EQ(aclmdlGetDesc(nullptr, id), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlGetNumInputs(nullptr), 0u);
  EXPECT_EQ(aclmdlDestroyDesc(desc), ACL_SUCCESS);
  EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
}

TEST_F(ModelTest, ExecuteAsyncNeedsAValidStreamAndRunsToCompletion) {
  uint32_t id = Load();
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  {
    ModelIo io;
    io.CopyInputs();
    ASSERT_EQ(aclmdlExecuteAsync(id, io.input(), io.output(), stream),
              ACL_SUCCESS)
        << LastError();
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT_EQ(io.Output(), ExpectedAddMulRelu(kX, kY));
    int bogus = 0;
    EXPECT_EQ(aclmdlExecuteAsync(id, io.input(), io.output(), &bogus),
              ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_EQ(Stats().executes, 1u);
  }
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
}

TEST_F(ModelTest, LoadFromFileAndFromDeviceMemory) {
  char path[] = "/tmp/acl_model_test_XXXXXX";
  int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(write(fd, image_.data(), image_.size()),
            static_cast<ssize_t>(image_.size()));
  close(fd);
  uint32_t from_file = 0;
  EXPECT_EQ(aclmdlLoadFromFile(path, &from_file), ACL_SUCCESS) << LastError();
  std::remove(path);
  EXPECT_EQ(aclmdlLoadFromFile(path, &from_file),
            ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID);
  EXPECT_THAT(LastError(), HasSubstr(path));
  EXPECT_EQ(aclmdlLoadFromFile(nullptr, &from_file), ACL_ERROR_INVALID_PARAM);

  // Model bytes in device memory (SoC boards) load too, bounds-checked.
  DeviceBuffer device_image(image_.size());
  ASSERT_EQ(aclrtMemcpy(device_image.get(), image_.size(), image_.data(),
                        image_.size(), ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  uint32_t from_device = 0;
  EXPECT_EQ(aclmdlLoadFromMem(device_image.get(), image_.size(), &from_device),
            ACL_SUCCESS)
      << LastError();
  EXPECT_EQ(
      aclmdlLoadFromMem(device_image.get(), image_.size() + 1, &from_device),
      ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(from_file, from_device);
  EXPECT_EQ(aclmdlUnload(from_file), ACL_SUCCESS);
  EXPECT_EQ(aclmdlUnload(from_device), ACL_SUCCESS);
}

TEST_F(ModelTest, GarbageIsNotAnEmulatorOm) {
  uint32_t id = 0;
  const char garbage[] = "ATC\x01 this is what CANN's atc would write";
  EXPECT_EQ(aclmdlLoadFromMem(garbage, sizeof(garbage), &id),
            ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID);
  EXPECT_THAT(LastError(), HasSubstr("not an emulator .om"));
  EXPECT_THAT(LastError(), HasSubstr("real Ascend device"));
  EXPECT_EQ(aclmdlLoadFromMem(garbage, 3, &id),
            ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID);
  EXPECT_EQ(aclmdlLoadFromMem(nullptr, 10, &id), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlLoadFromMem(garbage, 0, &id), ACL_ERROR_INVALID_PARAM);
  size_t work = 0;
  size_t weight = 0;
  EXPECT_EQ(aclmdlQuerySizeFromMem(garbage, sizeof(garbage), &work, &weight),
            ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID);
  EXPECT_EQ(Stats().live_models, 0u);
}

TEST_F(ModelTest, CorruptOmGetsTheEnginesMessage) {
  uint32_t id = 0;
  // Right magic, truncated body.
  EXPECT_EQ(aclmdlLoadFromMem(image_.data(), image_.size() / 2, &id),
            ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID);
  EXPECT_THAT(LastError(), HasSubstr("invalid emulator .om"));
  // Every single-byte corruption is refused or loads; never a crash.
  for (size_t i = 0; i < image_.size(); i += 7) {
    std::vector<uint8_t> bad = image_;
    bad[i] ^= 0x5a;
    aclError rc = aclmdlLoadFromMem(bad.data(), bad.size(), &id);
    if (rc == ACL_SUCCESS) {
      EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
    } else {
      EXPECT_EQ(rc, ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID) << "byte " << i;
    }
  }
}

TEST_F(ModelTest, SocMismatchIsRefusedWithBothNames) {
  std::vector<uint8_t> other = BuildAddMulReluOm("Ascend310P3");
  uint32_t id = 0;
  EXPECT_EQ(aclmdlLoadFromMem(other.data(), other.size(), &id),
            ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID);
  EXPECT_THAT(LastError(), HasSubstr("Ascend310P3"));
  EXPECT_THAT(LastError(), HasSubstr("Ascend910B1"));
}

TEST_F(ModelTest, UnknownModelIds) {
  ModelIo io;
  EXPECT_EQ(aclmdlExecute(0, io.input(), io.output()),
            ACL_ERROR_GE_EXEC_MODEL_ID_INVALID);
  EXPECT_EQ(aclmdlExecute(42, io.input(), io.output()),
            ACL_ERROR_GE_EXEC_MODEL_ID_INVALID);
  EXPECT_THAT(LastError(), HasSubstr("model id 42"));
  EXPECT_EQ(aclmdlUnload(42), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID);
  EXPECT_EQ(aclmdlUnload(42), 145003);  // CANN's number, not 100011
}

TEST_F(ModelTest, ModelFileCodesAreCanns) {
  // CANN (hicann/ge ge_error_codes.h): 145002 for a model file it cannot
  // read, 145006 for model data of a bad size (an empty file).
  uint32_t id = 0;
  EXPECT_EQ(aclmdlLoadFromFile("/nonexistent/model.om", &id),
            ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID);
  EXPECT_EQ(aclmdlLoadFromFile("/nonexistent/model.om", &id), 145002);
  EXPECT_THAT(LastError(), HasSubstr("/nonexistent/model.om"));
  const std::string empty = ::testing::TempDir() + "empty_model.om";
  std::FILE* f = std::fopen(empty.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  std::fclose(f);
  EXPECT_EQ(aclmdlLoadFromFile(empty.c_str(), &id), 145006);
  std::remove(empty.c_str());
  const char garbage[] = "not an om";
  EXPECT_EQ(aclmdlLoadFromMem(garbage, sizeof(garbage), &id), 145006);
  EXPECT_EQ(Stats().live_models, 0u);
}

TEST_F(ModelTest, ExecuteRefusesHostBuffers) {
  uint32_t id = Load();
  std::vector<float> x = kX;
  std::vector<float> y = kY;
  std::vector<float> z(6);
  aclmdlDataset* input = aclmdlCreateDataset();
  aclmdlDataset* output = aclmdlCreateDataset();
  aclDataBuffer* bx = aclCreateDataBuffer(x.data(), kTensorBytes);
  aclDataBuffer* by = aclCreateDataBuffer(y.data(), kTensorBytes);
  aclDataBuffer* bz = aclCreateDataBuffer(z.data(), kTensorBytes);
  ASSERT_EQ(aclmdlAddDatasetBuffer(input, bx), ACL_SUCCESS);
  ASSERT_EQ(aclmdlAddDatasetBuffer(input, by), ACL_SUCCESS);
  ASSERT_EQ(aclmdlAddDatasetBuffer(output, bz), ACL_SUCCESS);
  EXPECT_EQ(aclmdlExecute(id, input, output), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("input 0"));
  EXPECT_THAT(LastError(), HasSubstr("host memory"));
  EXPECT_EQ(Stats().executes, 0u);
  for (aclDataBuffer* b : {bx, by, bz}) aclDestroyDataBuffer(b);
  aclmdlDestroyDataset(input);
  aclmdlDestroyDataset(output);
  EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
}

TEST_F(ModelTest, ExecuteRefusesTooSmallBuffers) {
  uint32_t id = Load();
  {
    ModelIo io(kTensorBytes, kTensorBytes - 4, kTensorBytes);
    EXPECT_EQ(aclmdlExecute(id, io.input(), io.output()),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT(LastError(), HasSubstr("input 1 ('y')"));
    EXPECT_THAT(LastError(), HasSubstr("needs 24"));
  }
  {
    ModelIo io(kTensorBytes, kTensorBytes, kTensorBytes - 1);
    EXPECT_EQ(aclmdlExecute(id, io.input(), io.output()),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT(LastError(), HasSubstr("output 0 ('z')"));
  }
  {
    // The data buffer claims enough bytes but its allocation is smaller.
    DeviceBuffer small(16);
    ModelIo io;
    aclmdlDataset* input = aclmdlCreateDataset();
    aclDataBuffer* lying = aclCreateDataBuffer(small.get(), kTensorBytes);
    aclDataBuffer* x = aclmdlGetDatasetBuffer(io.input(), 0);
    ASSERT_EQ(aclmdlAddDatasetBuffer(input, x), ACL_SUCCESS);
    ASSERT_EQ(aclmdlAddDatasetBuffer(input, lying), ACL_SUCCESS);
    EXPECT_EQ(aclmdlExecute(id, input, io.output()), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT(LastError(), HasSubstr("allocation holds only 16 bytes"));
    aclDestroyDataBuffer(lying);
    aclmdlDestroyDataset(input);
  }
  EXPECT_EQ(Stats().executes, 0u);
  EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
}

TEST_F(ModelTest, ExecuteRefusesWrongBufferCountsAndBadDatasets) {
  uint32_t id = Load();
  ModelIo io;
  DeviceBuffer extra(kTensorBytes);
  aclDataBuffer* extra_buffer = aclCreateDataBuffer(extra.get(), kTensorBytes);
  // Two outputs for a one-output model.
  ASSERT_EQ(aclmdlAddDatasetBuffer(io.output(), extra_buffer), ACL_SUCCESS);
  EXPECT_EQ(aclmdlExecute(id, io.input(), io.output()),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("holds 2 buffer(s) but the model has 1"));
  // Inputs and outputs swapped: one input for a two-input model.
  EXPECT_EQ(aclmdlExecute(id, io.output(), io.input()),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlExecute(id, nullptr, io.output()), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlExecute(id, io.input(), nullptr), ACL_ERROR_INVALID_PARAM);
  // A buffer destroyed after it was added.
  ASSERT_EQ(aclDestroyDataBuffer(extra_buffer), ACL_SUCCESS);
  EXPECT_EQ(aclmdlExecute(id, io.input(), io.output()),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(Stats().executes, 0u);
  EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
}

TEST_F(ModelTest, LoadExecuteUnloadMustShareAContext) {
  aclrtContext default_context = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&default_context), ACL_SUCCESS);
  uint32_t id = Load();
  ModelIo io;
  io.CopyInputs();
  aclrtContext other = nullptr;
  ASSERT_EQ(aclrtCreateContext(&other, 0), ACL_SUCCESS);  // now current
  EXPECT_EQ(aclmdlExecute(id, io.input(), io.output()),
            ACL_ERROR_RT_MODEL_CONTEXT);
  EXPECT_THAT(LastError(), HasSubstr("same context"));
  EXPECT_EQ(aclmdlUnload(id), ACL_ERROR_RT_MODEL_CONTEXT);
  ASSERT_EQ(aclrtSetCurrentContext(default_context), ACL_SUCCESS);
  // The loading context cannot go away while it holds the model.
  EXPECT_EQ(aclrtResetDevice(0), ACL_ERROR_FAILURE);
  EXPECT_THAT(LastError(), HasSubstr("1 loaded model(s)"));
  EXPECT_EQ(aclmdlExecute(id, io.input(), io.output()), ACL_SUCCESS);
  EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyContext(other), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetCurrentContext(default_context), ACL_SUCCESS);
}

TEST_F(ModelTest, ModelWithoutCurrentContextIsRefused) {
  std::thread worker([this] {
    uint32_t id = 0;
    EXPECT_EQ(aclmdlLoadFromMem(image_.data(), image_.size(), &id),
              ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_THAT(LastError(), HasSubstr("no current context"));
  });
  worker.join();
}

TEST_F(ModelTest, LoadFromMemChargesDeviceMemory) {
  size_t work = 0;
  size_t weight = 0;
  ASSERT_EQ(
      aclmdlQuerySizeFromMem(image_.data(), image_.size(), &work, &weight),
      ACL_SUCCESS);
  EXPECT_GT(work, 0u);
  EXPECT_GT(weight, 0u);
  size_t free_before = 0;
  size_t total = 0;
  ASSERT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free_before, &total), ACL_SUCCESS);
  uint32_t id = Load();
  size_t free_loaded = 0;
  ASSERT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free_loaded, &total), ACL_SUCCESS);
  EXPECT_EQ(free_before - free_loaded, work + weight);
  ASSERT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  size_t free_after = 0;
  ASSERT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free_after, &total), ACL_SUCCESS);
  EXPECT_EQ(free_after, free_before);
}

TEST_F(ModelTest, LoadWithCallerMemoryValidatesAndUsesIt) {
  size_t work = 0;
  size_t weight = 0;
  ASSERT_EQ(
      aclmdlQuerySizeFromMem(image_.data(), image_.size(), &work, &weight),
      ACL_SUCCESS);
  DeviceBuffer weight_memory(weight);
  std::vector<uint8_t> host_work(work);
  uint32_t id = 0;
  EXPECT_EQ(aclmdlLoadFromMemWithMem(image_.data(), image_.size(), &id,
                                     host_work.data(), work,
                                     weight_memory.get(), weight),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("host memory"));
  {
    DeviceBuffer small_work(work - 1);
    EXPECT_EQ(aclmdlLoadFromMemWithMem(image_.data(), image_.size(), &id,
                                       small_work.get(), work,
                                       weight_memory.get(), weight),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT(LastError(), HasSubstr("work memory"));
  }
  void* work_memory = nullptr;
  ASSERT_EQ(aclrtMalloc(&work_memory, work, ACL_MEM_MALLOC_HUGE_FIRST),
            ACL_SUCCESS);
  EXPECT_EQ(
      aclmdlLoadFromMemWithMem(image_.data(), image_.size(), &id, work_memory,
                               work - 1, weight_memory.get(), weight),
      ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(
      aclmdlLoadFromMemWithMem(image_.data(), image_.size(), &id, work_memory,
                               work, weight_memory.get(), weight - 1),
      ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("weight memory"));
  EXPECT_EQ(Stats().live_models, 0u);
  ASSERT_EQ(
      aclmdlLoadFromMemWithMem(image_.data(), image_.size(), &id, work_memory,
                               work, weight_memory.get(), weight),
      ACL_SUCCESS)
      << LastError();
  {
    ModelIo io;
    io.CopyInputs();
    ASSERT_EQ(aclmdlExecute(id, io.input(), io.output()), ACL_SUCCESS)
        << LastError();
    EXPECT_EQ(io.Output(), ExpectedAddMulRelu(kX, kY));
    // The model's work and weight memory cannot be freed while it is
    // loaded: the next allocation would overwrite what the model uses.
    EXPECT_EQ(aclrtFree(work_memory), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT(LastError(), HasSubstr("in use by loaded model"));
    EXPECT_EQ(aclrtFree(weight_memory.get()), ACL_ERROR_INVALID_PARAM);
    ASSERT_EQ(aclmdlExecute(id, io.input(), io.output()), ACL_SUCCESS);
  }
  EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(work_memory), ACL_SUCCESS);
}

TEST_F(ModelTest, SocNameFromEnvironmentAcceptsMatchingModels) {
  // Re-initialize as a different chip.
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  setenv("EXECUTORCH_ASCEND_EMU_SOC_NAME", "Ascend310P3", 1);
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  std::vector<uint8_t> other = BuildAddMulReluOm("Ascend310P3");
  uint32_t id = 0;
  ASSERT_EQ(aclmdlLoadFromMem(other.data(), other.size(), &id), ACL_SUCCESS);
  EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  EXPECT_EQ(aclmdlLoadFromMem(image_.data(), image_.size(), &id),
            ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID);
}

TEST_F(ModelTest, LeakedModelIsReportedByFinalize) {
  Load();
  ASSERT_EQ(aclrtResetDevice(0), ACL_ERROR_FAILURE);
  device_set_ = false;
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(aclFinalize(), ACL_ERROR_FAILURE);
  EXPECT_THAT(::testing::internal::GetCapturedStderr(),
              HasSubstr("leaked model id 1"));
  EXPECT_THAT(LastError(), HasSubstr("1 model(s)"));
  // TearDown finalizes again: start a clean session for it.
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
}

}  // namespace
}  // namespace ascend_emu::acl_test
