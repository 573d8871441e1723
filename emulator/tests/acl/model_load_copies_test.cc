// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// What a model load copies (issue 14): the inline weights of an .om exactly
// once, from the model bytes straight to device memory (the caller's weight
// memory when given, else the model's own), and external weight files bound
// with aclmdlSetExternalWeightAddress never. Read from the emulator's
// counters (aclEmuStats::weight_bytes_loaded, weight_file_bytes_read,
// bytes_host_to_device), not from timings.
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "acl_test_util.h"
#include "ascend_emu/om_format.h"
#include "model_io.h"
#include "test_models.h"

namespace ascend_emu::acl_test {
namespace {

// The counters a load may move.
struct LoadCounters {
  uint64_t weight_bytes_loaded;
  uint64_t weight_file_bytes_read;
  uint64_t bytes_host_to_device;

  static LoadCounters Now() {
    const aclEmuStats s = Stats();
    return {s.weight_bytes_loaded, s.weight_file_bytes_read,
            s.bytes_host_to_device};
  }
  LoadCounters Since(const LoadCounters& before) const {
    return {weight_bytes_loaded - before.weight_bytes_loaded,
            weight_file_bytes_read - before.weight_file_bytes_read,
            bytes_host_to_device - before.bytes_host_to_device};
  }
};

class ModelLoadCopiesTest : public AclTest {
 protected:
  void SetUp() override {
    AclTest::SetUp();
    image_ = BuildAddMulReluOm("Ascend910B1");
    ASSERT_FALSE(image_.empty());
    std::string error;
    ASSERT_TRUE(ReadOmTables(image_.data(), image_.size(), &program_, &section_,
                             &error))
        << error;
    ASSERT_GT(section_.size, 0u);
  }
  void ExpectRunsRight(uint32_t id, const float* weights = kWeights) {
    ModelIo io;
    io.CopyInputs();
    ASSERT_EQ(aclmdlExecute(id, io.input(), io.output()), ACL_SUCCESS)
        << LastError();
    EXPECT_EQ(io.Output(), ExpectedAddMulRelu(kX, kY, weights));
  }
  std::vector<uint8_t> image_;
  Program program_;
  OmWeightSection section_;  // inside image_
};

TEST_F(ModelLoadCopiesTest, QuerySizeCopiesNothing) {
  const LoadCounters before = LoadCounters::Now();
  size_t work = 0;
  size_t weight = 0;
  ASSERT_EQ(
      aclmdlQuerySizeFromMem(image_.data(), image_.size(), &work, &weight),
      ACL_SUCCESS)
      << LastError();
  EXPECT_EQ(weight, section_.size);
  const LoadCounters moved = LoadCounters::Now().Since(before);
  EXPECT_EQ(moved.weight_bytes_loaded, 0u);
  EXPECT_EQ(moved.bytes_host_to_device, 0u);
}

TEST_F(ModelLoadCopiesTest, LoadFromMemCopiesTheWeightsOnce) {
  std::vector<uint8_t> bytes = image_;
  const LoadCounters before = LoadCounters::Now();
  uint32_t id = 0;
  ASSERT_EQ(aclmdlLoadFromMem(bytes.data(), bytes.size(), &id), ACL_SUCCESS)
      << LastError();
  const LoadCounters moved = LoadCounters::Now().Since(before);
  EXPECT_EQ(moved.weight_bytes_loaded, section_.size);
  EXPECT_EQ(moved.weight_file_bytes_read, 0u);
  // The model bytes may be freed (here: overwritten) once loaded: the model
  // runs on its copy in device memory.
  std::memset(bytes.data(), 0xA5, bytes.size());
  ExpectRunsRight(id);
  ASSERT_EQ(aclmdlUnload(id), ACL_SUCCESS);
}

TEST_F(ModelLoadCopiesTest, CallerWeightMemoryGetsTheOneCopy) {
  size_t work = 0;
  size_t weight = 0;
  ASSERT_EQ(
      aclmdlQuerySizeFromMem(image_.data(), image_.size(), &work, &weight),
      ACL_SUCCESS);
  DeviceBuffer work_memory(work);
  DeviceBuffer weight_memory(weight);
  ASSERT_EQ(aclrtMemset(weight_memory.get(), weight, 0x5A, weight),
            ACL_SUCCESS);
  const LoadCounters before = LoadCounters::Now();
  uint32_t id = 0;
  ASSERT_EQ(aclmdlLoadFromMemWithMem(image_.data(), image_.size(), &id,
                                     work_memory.get(), work,
                                     weight_memory.get(), weight),
            ACL_SUCCESS)
      << LastError();
  const LoadCounters moved = LoadCounters::Now().Since(before);
  EXPECT_EQ(moved.weight_bytes_loaded, section_.size);
  // The caller's device memory holds the .om's weight section, byte for byte.
  std::vector<uint8_t> held(weight);
  ASSERT_EQ(aclrtMemcpy(held.data(), held.size(), weight_memory.get(), weight,
                        ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  EXPECT_EQ(held,
            std::vector<uint8_t>(section_.data, section_.data + section_.size));
  ExpectRunsRight(id);
  // And the model reads it there (no private copy): new bytes, new results.
  const float doubled[6] = {2.0f, -2.0f, 4.0f, -4.0f, 1.0f, 6.0f};
  const TensorInfo* w = nullptr;
  for (const TensorInfo& t : program_.tensors) {
    if (t.location == TensorLocation::kWeight) w = &t;
  }
  ASSERT_NE(w, nullptr);
  ASSERT_EQ(aclrtMemcpy(static_cast<uint8_t*>(weight_memory.get()) + w->offset,
                        sizeof(doubled), doubled, sizeof(doubled),
                        ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  ExpectRunsRight(id, doubled);
  ASSERT_EQ(aclmdlUnload(id), ACL_SUCCESS);
}

TEST_F(ModelLoadCopiesTest, LoadFromFileCopiesTheWeightsOnce) {
  char path[] = "/tmp/acl_load_copies_XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(write(fd, image_.data(), image_.size()),
            static_cast<ssize_t>(image_.size()));
  close(fd);
  const LoadCounters before = LoadCounters::Now();
  uint32_t id = 0;
  const aclError rc = aclmdlLoadFromFile(path, &id);
  std::remove(path);
  ASSERT_EQ(rc, ACL_SUCCESS) << LastError();
  EXPECT_EQ(LoadCounters::Now().Since(before).weight_bytes_loaded,
            section_.size);
  ExpectRunsRight(id);
  ASSERT_EQ(aclmdlUnload(id), ACL_SUCCESS);
}

TEST_F(ModelLoadCopiesTest, BoundExternalWeightsAreNeverCopied) {
  const std::vector<uint8_t> image = BuildAddMulReluExternalOm("Ascend910B1");
  const std::vector<uint8_t> file = ExternalWeightFile();
  DeviceBuffer memory(kExternalBindBytes);
  ASSERT_EQ(aclrtMemcpy(memory.get(), memory.size(), file.data(), file.size(),
                        ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  const LoadCounters before = LoadCounters::Now();
  aclmdlConfigHandle* config = aclmdlCreateConfigHandle();
  ASSERT_NE(config, nullptr);
  const size_t type = ACL_MDL_LOAD_FROM_MEM;
  const void* addr = image.data();
  const size_t size = image.size();
  ASSERT_EQ(
      aclmdlSetConfigOpt(config, ACL_MDL_LOAD_TYPE_SIZET, &type, sizeof(type)),
      ACL_SUCCESS);
  ASSERT_EQ(
      aclmdlSetConfigOpt(config, ACL_MDL_MEM_ADDR_PTR, &addr, sizeof(addr)),
      ACL_SUCCESS);
  ASSERT_EQ(aclmdlSetConfigOpt(config, ACL_MDL_MEM_SIZET, &size, sizeof(size)),
            ACL_SUCCESS);
  ASSERT_EQ(aclmdlSetExternalWeightAddress(config, kExternalName, memory.get(),
                                           kExternalBindBytes),
            ACL_SUCCESS);
  uint32_t id = 0;
  ASSERT_EQ(aclmdlLoadWithConfig(config, &id), ACL_SUCCESS) << LastError();
  ASSERT_EQ(aclmdlDestroyConfigHandle(config), ACL_SUCCESS);
  const LoadCounters moved = LoadCounters::Now().Since(before);
  EXPECT_EQ(moved.weight_bytes_loaded, 0u);  // no inline weights
  EXPECT_EQ(moved.weight_file_bytes_read, 0u);
  EXPECT_EQ(moved.bytes_host_to_device, 0u);
  ExpectRunsRight(id);
  ASSERT_EQ(aclmdlUnload(id), ACL_SUCCESS);
}

}  // namespace
}  // namespace ascend_emu::acl_test
