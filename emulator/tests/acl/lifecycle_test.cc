// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// aclInit / aclFinalize rules, configuration from the environment, leak
// reporting and the thread-local error message.
#include <cstdlib>
#include <string>
#include <thread>

#include "acl_test_util.h"

namespace ascend_emu::acl_test {
namespace {

using ::testing::HasSubstr;

using LifecycleTest = AclEnvTest;

TEST_F(LifecycleTest, CallsBeforeInitFailWithUninitialize) {
  void* ptr = nullptr;
  uint32_t count = 0;
  uint32_t model_id = 0;
  char bytes[16] = {};
  EXPECT_EQ(aclrtSetDevice(0), ACL_ERROR_UNINITIALIZE);
  EXPECT_THAT(LastError(), HasSubstr("aclInit"));
  EXPECT_THAT(LastError(), HasSubstr("aclrtSetDevice"));
  EXPECT_EQ(aclrtGetDeviceCount(&count), ACL_ERROR_UNINITIALIZE);
  EXPECT_EQ(aclrtMalloc(&ptr, 16, ACL_MEM_MALLOC_HUGE_FIRST),
            ACL_ERROR_UNINITIALIZE);
  EXPECT_EQ(aclrtMemcpy(bytes, 16, bytes + 8, 8, ACL_MEMCPY_HOST_TO_HOST),
            ACL_ERROR_UNINITIALIZE);
  EXPECT_EQ(aclmdlLoadFromMem(bytes, sizeof(bytes), &model_id),
            ACL_ERROR_UNINITIALIZE);
  EXPECT_EQ(aclmdlExecute(1, nullptr, nullptr), ACL_ERROR_UNINITIALIZE);
  // aclFinalize without aclInit: "uninitialized", or, once an earlier test
  // in this process finalized, CANN's "repeatedly finalized".
  const aclError finalize = aclFinalize();
  EXPECT_TRUE(finalize == ACL_ERROR_UNINITIALIZE ||
              finalize == ACL_ERROR_REPEAT_FINALIZE)
      << finalize;
  // Pointer and size results: NULL and 0.
  EXPECT_EQ(aclrtGetSocName(), nullptr);
  EXPECT_EQ(aclCreateDataBuffer(bytes, sizeof(bytes)), nullptr);
  EXPECT_EQ(aclmdlCreateDataset(), nullptr);
  EXPECT_EQ(aclmdlCreateDesc(), nullptr);
  EXPECT_EQ(aclmdlGetNumInputs(nullptr), 0u);
  EXPECT_EQ(aclGetDataBufferSizeV2(nullptr), 0u);
  EXPECT_EQ(aclmdlGetInputDataType(nullptr, 0), ACL_DT_UNDEFINED);
  EXPECT_EQ(aclmdlGetInputFormat(nullptr, 0), ACL_FORMAT_UNDEFINED);
}

TEST_F(LifecycleTest, SecondInitIsRepeatInitialize) {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclInit(nullptr), ACL_ERROR_REPEAT_INITIALIZE);
  EXPECT_THAT(LastError(), HasSubstr("already initialized"));
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST_F(LifecycleTest, InitFinalizeCyclesAndCallsAfterFinalizeFail) {
  for (int cycle = 0; cycle < 3; ++cycle) {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS) << LastError();
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    void* ptr = nullptr;
    ASSERT_EQ(aclrtMalloc(&ptr, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(ptr), ACL_SUCCESS);
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclFinalize(), ACL_SUCCESS) << LastError();
    EXPECT_EQ(aclrtSetDevice(0), ACL_ERROR_UNINITIALIZE);
    EXPECT_EQ(aclrtGetSocName(), nullptr);
  }
}

TEST_F(LifecycleTest, SecondFinalizeIsRepeatFinalize) {
  // CANN: 100037 ACL_ERROR_REPEAT_FINALIZE (hicann/runtime acl.cpp,
  // aclFinalizeImpl), until aclInit again.
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS) << LastError();
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS) << LastError();
  EXPECT_EQ(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
  EXPECT_EQ(aclFinalize(), 100037);
  EXPECT_THAT(LastError(), HasSubstr("already finalized"));
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS) << LastError();
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
  EXPECT_EQ(aclrtSetDevice(0), ACL_ERROR_UNINITIALIZE);  // other calls: 100001
}

TEST_F(LifecycleTest, MissingConfigFileFailsInit) {
  // CANN: 100003 ACL_ERROR_INVALID_FILE for a config it cannot read.
  EXPECT_EQ(aclInit("/nonexistent/acl.json"), ACL_ERROR_INVALID_FILE);
  EXPECT_EQ(aclInit("/nonexistent/acl.json"), 100003);
  EXPECT_THAT(LastError(), HasSubstr("/nonexistent/acl.json"));
  EXPECT_EQ(aclrtGetSocName(), nullptr);  // still not initialized
}

struct BadEnv {
  const char* name;
  const char* value;
};

TEST_F(LifecycleTest, MalformedEnvironmentFailsInitWithClearMessage) {
  const BadEnv cases[] = {
      {"EXECUTORCH_ASCEND_EMU_DEVICE_COUNT", "two"},
      {"EXECUTORCH_ASCEND_EMU_DEVICE_COUNT", "-1"},
      {"EXECUTORCH_ASCEND_EMU_DEVICE_COUNT", "65"},
      {"EXECUTORCH_ASCEND_EMU_NUM_THREADS", "0"},
      {"EXECUTORCH_ASCEND_EMU_NUM_THREADS", "257"},
      {"EXECUTORCH_ASCEND_EMU_NUM_THREADS", "two"},
      {"EXECUTORCH_ASCEND_EMU_DEVICE_MEMORY", "0"},
      {"EXECUTORCH_ASCEND_EMU_DEVICE_MEMORY", "12X"},
      {"EXECUTORCH_ASCEND_EMU_DEVICE_MEMORY", "1GG"},
      {"EXECUTORCH_ASCEND_EMU_DEVICE_MEMORY", "99999999999999999999999"},
      {"EXECUTORCH_ASCEND_EMU_SOC_NAME", "Ascend 910"},
      {"EXECUTORCH_ASCEND_EMU_SOC_NAME", "Ascend910B9"},  // not CANN's
      {"EXECUTORCH_ASCEND_EMU_STRICT", "yes"},
      {"EXECUTORCH_ASCEND_EMU_VERBOSE", "2"},
      {"EXECUTORCH_ASCEND_EMU_FAULT", "aclrtMallocc:0:207001"},
      {"EXECUTORCH_ASCEND_EMU_FAULT", "aclrtMalloc:x:207001"},
      {"EXECUTORCH_ASCEND_EMU_FAULT", "aclrtMalloc:1:0"},
      {"EXECUTORCH_ASCEND_EMU_FAULT", "aclrtMalloc:1"},
      {"EXECUTORCH_ASCEND_EMU_FAULT", "aclrtMalloc:1:207001,"},
  };
  for (const BadEnv& bad : cases) {
    ResetEmulatorEnv();
    setenv(bad.name, bad.value, 1);
    EXPECT_EQ(aclInit(nullptr), ACL_ERROR_INVALID_PARAM)
        << bad.name << "=" << bad.value;
    EXPECT_THAT(LastError(), HasSubstr(bad.name));
    EXPECT_EQ(aclrtGetSocName(), nullptr) << bad.name << "=" << bad.value;
  }
}

TEST_F(LifecycleTest, SocNameDefaultsAndFollowsEnv) {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  EXPECT_STREQ(aclrtGetSocName(), "Ascend910B1");
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  setenv("EXECUTORCH_ASCEND_EMU_SOC_NAME", "Ascend310P3", 1);
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  EXPECT_STREQ(aclrtGetSocName(), "Ascend310P3");
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  // Any of CANN's names, including those with '_' or '-' or not "Ascend".
  for (const char* soc : {"Ascend910B4-1", "Ascend950PR_9579", "Kirin9030"}) {
    setenv("EXECUTORCH_ASCEND_EMU_SOC_NAME", soc, 1);
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS) << soc << ": " << LastError();
    EXPECT_STREQ(aclrtGetSocName(), soc);
    ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  }
  // A name CANN does not have: refused with the nearest ones.
  setenv("EXECUTORCH_ASCEND_EMU_SOC_NAME", "Ascend310P2", 1);
  EXPECT_EQ(aclInit(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("is not a SoC name CANN knows"));
  EXPECT_THAT(LastError(), HasSubstr("did you mean Ascend310P1"));
}

TEST_F(LifecycleTest, DeviceMemoryAcceptsSuffixes) {
  const std::pair<const char*, size_t> cases[] = {
      {"1048576", size_t{1} << 20}, {"512M", size_t{512} << 20},
      {"2G", size_t{2} << 30},      {"2GiB", size_t{2} << 30},
      {"64k", size_t{64} << 10},    {"3MB", size_t{3} << 20},
  };
  for (const auto& [text, bytes] : cases) {
    setenv("EXECUTORCH_ASCEND_EMU_DEVICE_MEMORY", text, 1);
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS) << text << ": " << LastError();
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    size_t free_bytes = 0;
    size_t total = 0;
    EXPECT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free_bytes, &total), ACL_SUCCESS);
    EXPECT_EQ(total, bytes) << text;
    EXPECT_EQ(free_bytes, bytes) << text;
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  }
}

TEST_F(LifecycleTest, DefaultDeviceMemoryIs8GiB) {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  size_t free_bytes = 0;
  size_t total = 0;
  EXPECT_EQ(aclrtGetMemInfo(ACL_DDR_MEM, &free_bytes, &total), ACL_SUCCESS);
  EXPECT_EQ(total, size_t{8} << 30);
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
}

// Creates one object of every kind and never releases any of them.
void LeakEverything() {
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  void* device = nullptr;
  ASSERT_EQ(aclrtMalloc(&device, 100, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  void* host = nullptr;
  ASSERT_EQ(aclrtMallocHost(&host, 10), ACL_SUCCESS);
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  ASSERT_NE(aclCreateDataBuffer(device, 100), nullptr);
  ASSERT_NE(aclmdlCreateDataset(), nullptr);
  ASSERT_NE(aclmdlCreateDesc(), nullptr);
  aclrtContext context = nullptr;
  ASSERT_EQ(aclrtCreateContext(&context, 0), ACL_SUCCESS);
  aclEmuStats stats = Stats();
  EXPECT_EQ(stats.live_device_allocs, 1u);
  EXPECT_EQ(stats.live_device_bytes, 100u);
  EXPECT_EQ(stats.live_host_allocs, 1u);
  EXPECT_EQ(stats.live_streams, 1u);
  EXPECT_EQ(stats.live_data_buffers, 1u);
  EXPECT_EQ(stats.live_datasets, 1u);
  EXPECT_EQ(stats.live_descs, 1u);
  EXPECT_EQ(stats.live_contexts, 2u);  // the default one and `context`
}

TEST_F(LifecycleTest, StrictFinalizeReportsLeaksAndFails) {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  LeakEverything();
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(aclFinalize(), ACL_ERROR_FAILURE);
  std::string log = ::testing::internal::GetCapturedStderr();
  for (const char* what :
       {"device allocation", "host allocation", "stream", "data buffer",
        "dataset", "model description", "aclrtSetDevice called 1 more time(s)",
        "(never destroyed)"}) {
    EXPECT_THAT(log, HasSubstr(what));
  }
  EXPECT_THAT(LastError(), HasSubstr("1 device allocation(s)"));
  EXPECT_THAT(LastError(), HasSubstr("2 context(s)"));
  EXPECT_THAT(LastError(), HasSubstr("EXECUTORCH_ASCEND_EMU_STRICT"));
  // Finalized and released either way.
  EXPECT_EQ(aclrtGetSocName(), nullptr);
  aclEmuStats stats = Stats();
  EXPECT_EQ(stats.live_device_allocs + stats.live_host_allocs +
                stats.live_streams + stats.live_contexts +
                stats.live_data_buffers + stats.live_datasets +
                stats.live_descs,
            0u);
}

TEST_F(LifecycleTest, NonStrictFinalizeReportsLeaksAndSucceeds) {
  setenv("EXECUTORCH_ASCEND_EMU_STRICT", "0", 1);
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  LeakEverything();
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
  std::string log = ::testing::internal::GetCapturedStderr();
  EXPECT_THAT(log, HasSubstr("leaked device allocation"));
  EXPECT_THAT(LastError(), HasSubstr("released leaked objects"));
  EXPECT_EQ(Stats().live_device_allocs, 0u);
}

TEST_F(LifecycleTest, CleanFinalizeWritesNothing) {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
}

TEST_F(LifecycleTest, ErrorMessageIsPerThread) {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(7), ACL_ERROR_RT_INVALID_DEVICEID);
  std::string main_message = LastError();
  EXPECT_THAT(main_message, HasSubstr("device id 7"));
  std::string other_before;
  std::string other_after;
  std::thread other([&] {
    other_before = LastError();
    void* ptr = nullptr;
    EXPECT_EQ(aclrtMalloc(&ptr, 0, ACL_MEM_MALLOC_HUGE_FIRST),
              ACL_ERROR_INVALID_PARAM);
    other_after = LastError();
  });
  other.join();
  EXPECT_EQ(other_before, "");
  EXPECT_THAT(other_after, HasSubstr("size is 0"));
  EXPECT_EQ(LastError(), main_message);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST_F(LifecycleTest, VerboseLogsEachCall) {
  setenv("EXECUTORCH_ASCEND_EMU_VERBOSE", "1", 1);
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtSetDevice(9), ACL_ERROR_RT_INVALID_DEVICEID);  // 107001
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  std::string log = ::testing::internal::GetCapturedStderr();
  EXPECT_THAT(log, HasSubstr("[ascend-emu] aclrtSetDevice"));
  EXPECT_THAT(log, HasSubstr("[ascend-emu] aclrtResetDevice"));
  EXPECT_THAT(log, HasSubstr("failed with 107001"));
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST_F(LifecycleTest, CountersResetAtInit) {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  {
    DeviceBuffer buffer(8);
    char host[8] = {};
    ASSERT_EQ(aclrtMemcpy(buffer.get(), 8, host, 8, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
  }
  EXPECT_EQ(Stats().bytes_host_to_device, 8u);
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  EXPECT_EQ(Stats().bytes_host_to_device, 8u);  // readable after finalize
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  EXPECT_EQ(Stats().bytes_host_to_device, 0u);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
}

}  // namespace
}  // namespace ascend_emu::acl_test
