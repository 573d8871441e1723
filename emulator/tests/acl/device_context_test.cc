// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Devices, contexts and streams: ranges, the thread-local current context,
// default contexts and what may not be destroyed while in use.
#include <cstdlib>
#include <thread>

#include "acl_test_util.h"

namespace ascend_emu::acl_test {
namespace {

using ::testing::HasSubstr;

using DeviceEnvTest = AclEnvTest;
using ContextTest = AclTest;

// The numbers CANN's runtime returns (hicann/runtime include/external/acl/
// error_codes/rt_error_codes.h, mapped in errcode_manage.cc), one per
// mistake rather than 107000 for all of them.
static_assert(ACL_ERROR_RT_INVALID_DEVICEID == 107001, "device id");
static_assert(ACL_ERROR_RT_CONTEXT_NULL == 107002, "no current context");
static_assert(ACL_ERROR_RT_STREAM_CONTEXT == 107003, "stream of another");
static_assert(ACL_ERROR_RT_MODEL_CONTEXT == 107004, "model of another");
static_assert(ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID == 145002, "model path");
static_assert(ACL_ERROR_GE_EXEC_MODEL_ID_INVALID == 145003, "model id");
static_assert(ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID == 145006, "data");
static_assert(ACL_ERROR_INVALID_FILE == 100003, "config file");
static_assert(ACL_ERROR_REPEAT_FINALIZE == 100037, "second aclFinalize");

TEST_F(ContextTest, EachContextMistakeHasItsOwnCode) {
  aclrtContext default_context = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&default_context), ACL_SUCCESS);
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  aclrtContext other = nullptr;
  ASSERT_EQ(aclrtCreateContext(&other, 0), ACL_SUCCESS);  // now current
  char host[4] = {};
  void* device = nullptr;
  ASSERT_EQ(aclrtMalloc(&device, 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(
      aclrtMemcpyAsync(device, 4, host, 4, ACL_MEMCPY_HOST_TO_DEVICE, stream),
      107003);  // the stream belongs to the default context
  EXPECT_EQ(aclrtFree(device), ACL_SUCCESS);
  std::thread worker([] {
    void* ptr = nullptr;
    EXPECT_EQ(aclrtMalloc(&ptr, 8, ACL_MEM_MALLOC_HUGE_FIRST), 107002);
  });
  worker.join();
  EXPECT_EQ(aclrtSetDevice(64), 107001);
  ASSERT_EQ(aclrtDestroyContext(other), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetCurrentContext(default_context), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST_F(DeviceEnvTest, DeviceCountAndRange) {
  setenv("EXECUTORCH_ASCEND_EMU_DEVICE_COUNT", "4", 1);
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  uint32_t count = 0;
  EXPECT_EQ(aclrtGetDeviceCount(&count), ACL_SUCCESS);
  EXPECT_EQ(count, 4u);
  EXPECT_EQ(aclrtGetDeviceCount(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtSetDevice(4), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_THAT(LastError(), HasSubstr("4 device(s)"));
  EXPECT_EQ(aclrtSetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_EQ(aclrtResetDevice(4), ACL_ERROR_RT_INVALID_DEVICEID);
  aclrtContext context = nullptr;
  EXPECT_EQ(aclrtCreateContext(&context, 5), ACL_ERROR_RT_INVALID_DEVICEID);
  ASSERT_EQ(aclrtSetDevice(3), ACL_SUCCESS);
  int32_t device = -1;
  EXPECT_EQ(aclrtGetDevice(&device), ACL_SUCCESS);
  EXPECT_EQ(device, 3);
  EXPECT_EQ(aclrtResetDevice(3), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST_F(DeviceEnvTest, ZeroDevicesIsNoDevice) {
  setenv("EXECUTORCH_ASCEND_EMU_DEVICE_COUNT", "0", 1);
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  uint32_t count = 9;
  EXPECT_EQ(aclrtGetDeviceCount(&count), ACL_SUCCESS);
  EXPECT_EQ(count, 0u);
  EXPECT_EQ(aclrtSetDevice(0), ACL_ERROR_RT_NO_DEVICE);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST_F(DeviceEnvTest, SetDeviceIsCountedUntilTheLastReset) {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtContext first = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&first), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtContext second = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&second), ACL_SUCCESS);
  EXPECT_EQ(first, second);  // one default context per device
  EXPECT_EQ(Stats().live_contexts, 1u);
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(Stats().live_contexts, 1u);
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(Stats().live_contexts, 0u);
  EXPECT_EQ(aclrtGetCurrentContext(&first), ACL_ERROR_RT_CONTEXT_NULL);
  EXPECT_EQ(aclrtResetDevice(0), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(LastError(), HasSubstr("not set"));
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST_F(DeviceEnvTest, MemoryAndStreamCallsNeedACurrentContext) {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  void* ptr = nullptr;
  EXPECT_EQ(aclrtMalloc(&ptr, 8, ACL_MEM_MALLOC_HUGE_FIRST),
            ACL_ERROR_RT_CONTEXT_NULL);
  EXPECT_THAT(LastError(), HasSubstr("no current context"));
  aclrtStream stream = nullptr;
  EXPECT_EQ(aclrtCreateStream(&stream), ACL_ERROR_RT_CONTEXT_NULL);
  int32_t device = 0;
  EXPECT_EQ(aclrtGetDevice(&device), ACL_ERROR_RT_CONTEXT_NULL);
  char a[4] = {};
  char b[4] = {};
  EXPECT_EQ(aclrtMemcpy(a, 4, b, 4, ACL_MEMCPY_HOST_TO_HOST),
            ACL_ERROR_RT_CONTEXT_NULL);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST_F(ContextTest, CurrentContextIsPerThread) {
  aclrtContext main_context = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&main_context), ACL_SUCCESS);
  std::thread worker([&] {
    void* ptr = nullptr;
    // A new thread has no current context until it sets one.
    EXPECT_EQ(aclrtMalloc(&ptr, 8, ACL_MEM_MALLOC_HUGE_FIRST),
              ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_EQ(aclrtSetCurrentContext(main_context), ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(&ptr, 8, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(ptr), ACL_SUCCESS);
  });
  worker.join();
}

TEST_F(ContextTest, CreateContextMakesItCurrentAndDestroyClearsIt) {
  aclrtContext default_context = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&default_context), ACL_SUCCESS);
  aclrtContext context = nullptr;
  ASSERT_EQ(aclrtCreateContext(&context, 0), ACL_SUCCESS);
  EXPECT_NE(context, default_context);
  aclrtContext current = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&current), ACL_SUCCESS);
  EXPECT_EQ(current, context);
  EXPECT_EQ(aclrtCreateContext(nullptr, 0), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtDestroyContext(context), ACL_SUCCESS);
  EXPECT_EQ(aclrtGetCurrentContext(&current), ACL_ERROR_RT_CONTEXT_NULL);
  EXPECT_EQ(aclrtDestroyContext(context), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtSetCurrentContext(context), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(LastError(), HasSubstr("not a live context"));
  int bogus = 0;
  EXPECT_EQ(aclrtSetCurrentContext(&bogus), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtSetCurrentContext(nullptr), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclrtSetCurrentContext(default_context), ACL_SUCCESS);
}

TEST_F(ContextTest, DefaultContextIsReleasedOnlyByResetDevice) {
  aclrtContext default_context = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&default_context), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyContext(default_context), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(LastError(), HasSubstr("aclrtResetDevice"));
}

TEST_F(ContextTest, ContextOwningAStreamCannotBeDestroyed) {
  aclrtContext default_context = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&default_context), ACL_SUCCESS);
  aclrtContext context = nullptr;
  ASSERT_EQ(aclrtCreateContext(&context, 0), ACL_SUCCESS);
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyContext(context), ACL_ERROR_FAILURE);
  EXPECT_THAT(LastError(), HasSubstr("1 stream(s)"));
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyContext(context), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetCurrentContext(default_context), ACL_SUCCESS);
}

TEST_F(ContextTest, ResetDeviceRefusesWhileTheDefaultContextOwnsAStream) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDevice(0), ACL_ERROR_FAILURE);
  EXPECT_THAT(LastError(), HasSubstr("default context"));
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST_F(ContextTest, StreamHandlesAreValidated) {
  aclrtStream stream = nullptr;
  EXPECT_EQ(aclrtCreateStream(nullptr), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  EXPECT_EQ(Stats().live_streams, 1u);
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);  // default stream
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(LastError(), HasSubstr("not a live stream"));
  int bogus = 0;
  EXPECT_EQ(aclrtDestroyStream(&bogus), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(Stats().live_streams, 0u);
}

}  // namespace
}  // namespace ascend_emu::acl_test
