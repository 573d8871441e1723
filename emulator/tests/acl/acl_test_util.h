// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Shared fixtures for the libascendcl.so emulator tests. Every test starts
// from a clean EXECUTORCH_ASCEND_EMU_* environment with strict mode on, so a
// test that leaks anything fails in TearDown's aclFinalize.
#pragma once

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "acl_api.h"
#include "acl_emu_extras.h"
#include "emulator_ids.h"

namespace ascend_emu::acl_test {

// Unsets every emulator variable, then sets STRICT=1.
void ResetEmulatorEnv();

// This thread's aclGetRecentErrMsg as a string ("" when NULL).
std::string LastError();

aclEmuStats Stats();
// aclrtSetDevice(device), then the thread's current context (the device's
// default context); nullptr after a failure (already reported).
aclrtContext SetDeviceContext(int32_t device);

// Test without aclInit: for configuration and lifecycle checks. TearDown
// finalizes if a test left ACL initialized (and fails on leaks).
class AclEnvTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;
};

// aclInit plus aclrtSetDevice(0) in SetUp; the reverse in TearDown, which
// fails the test when aclFinalize reports a leak.
class AclTest : public AclEnvTest {
 protected:
  void SetUp() override;
  void TearDown() override;
  bool device_set_ = false;
};

// Device memory from aclrtMalloc, freed on scope exit.
class DeviceBuffer {
 public:
  explicit DeviceBuffer(size_t size);
  ~DeviceBuffer();
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  void* get() const { return ptr_; }
  size_t size() const { return size_; }

 private:
  void* ptr_ = nullptr;
  size_t size_ = 0;
};

}  // namespace ascend_emu::acl_test
