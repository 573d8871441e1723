// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "acl_test_util.h"

#include <cstdlib>

namespace ascend_emu::acl_test {

void ResetEmulatorEnv() {
  for (const char* name :
       {"EXECUTORCH_ASCEND_EMU_DEVICE_COUNT",
        "EXECUTORCH_ASCEND_EMU_DEVICE_MEMORY", "EXECUTORCH_ASCEND_EMU_SOC_NAME",
        "EXECUTORCH_ASCEND_EMU_FAULT", "EXECUTORCH_ASCEND_EMU_VERBOSE",
        "EXECUTORCH_ASCEND_EMU_NUM_THREADS",
        "EXECUTORCH_ASCEND_EMU_RUN_MODE"}) {
    unsetenv(name);
  }
  setenv("EXECUTORCH_ASCEND_EMU_STRICT", "1", 1);
}

std::string LastError() {
  const char* message = aclGetRecentErrMsg();
  return message == nullptr ? std::string() : std::string(message);
}

aclEmuStats Stats() {
  aclEmuStats stats{};
  EXPECT_EQ(aclEmuGetStats(&stats), ACL_SUCCESS);
  return stats;
}

aclrtContext SetDeviceContext(int32_t device) {
  aclrtContext context = nullptr;
  EXPECT_EQ(aclrtSetDevice(device), ACL_SUCCESS) << LastError();
  EXPECT_EQ(aclrtGetCurrentContext(&context), ACL_SUCCESS) << LastError();
  return context;
}

void AclEnvTest::SetUp() {
  aclEmuInjectFault(nullptr, 0, 0);
  ResetEmulatorEnv();
}

void AclEnvTest::TearDown() {
  aclEmuInjectFault(nullptr, 0, 0);
  // Still initialized when a test stopped early: finalize so the next test
  // can aclInit, and fail if anything leaked.
  if (aclrtGetSocName() != nullptr) {
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS) << LastError();
  }
}

void AclTest::SetUp() {
  AclEnvTest::SetUp();
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS) << LastError();
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS) << LastError();
  device_set_ = true;
}

void AclTest::TearDown() {
  aclEmuInjectFault(nullptr, 0, 0);
  if (device_set_) {
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS) << LastError();
  }
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS) << LastError();
}

DeviceBuffer::DeviceBuffer(size_t size) : size_(size) {
  EXPECT_EQ(aclrtMalloc(&ptr_, size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS)
      << LastError();
}

DeviceBuffer::~DeviceBuffer() {
  if (ptr_ != nullptr) {
    EXPECT_EQ(aclrtFree(ptr_), ACL_SUCCESS) << LastError();
  }
}

}  // namespace ascend_emu::acl_test
