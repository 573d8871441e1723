// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Device and pinned host memory: limits, pointer classification, and the
// checks on every copy.
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "acl_test_util.h"

namespace ascend_emu::acl_test {
namespace {

using ::testing::HasSubstr;

using MemoryEnvTest = AclEnvTest;
using MemoryTest = AclTest;

TEST_F(MemoryTest, MallocValidatesItsArguments) {
  void* ptr = nullptr;
  EXPECT_EQ(aclrtMalloc(&ptr, 0, ACL_MEM_MALLOC_HUGE_FIRST),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMalloc(nullptr, 8, ACL_MEM_MALLOC_HUGE_FIRST),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMalloc(&ptr, 8, static_cast<aclrtMemMallocPolicy>(42)),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMallocHost(&ptr, 0), ACL_ERROR_INVALID_PARAM);
  // A policy with a documented bandwidth flag bit is accepted.
  ASSERT_EQ(aclrtMalloc(&ptr, 8,
                        static_cast<aclrtMemMallocPolicy>(
                            ACL_MEM_MALLOC_NORMAL_ONLY | 0x1000)),
            ACL_SUCCESS);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(ptr) % 64, 0u);
  EXPECT_EQ(aclrtFree(ptr), ACL_SUCCESS);
}

TEST_F(MemoryEnvTest, DeviceMemoryLimitIsPerDevice) {
  setenv("EXECUTORCH_ASCEND_EMU_DEVICE_MEMORY", "1M", 1);
  setenv("EXECUTORCH_ASCEND_EMU_DEVICE_COUNT", "2", 1);
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  void* big = nullptr;
  ASSERT_EQ(aclrtMalloc(&big, (1 << 20) - 16, ACL_MEM_MALLOC_HUGE_FIRST),
            ACL_SUCCESS);
  size_t free_bytes = 0;
  size_t total = 0;
  ASSERT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free_bytes, &total), ACL_SUCCESS);
  EXPECT_EQ(total, size_t{1} << 20);
  EXPECT_EQ(free_bytes, 16u);
  void* more = nullptr;
  EXPECT_EQ(aclrtMalloc(&more, 17, ACL_MEM_MALLOC_HUGE_FIRST),
            ACL_ERROR_RT_MEMORY_ALLOCATION);
  EXPECT_THAT(LastError(), HasSubstr("16 of 1048576 bytes free"));
  // Device 1 has its own memory.
  ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&more, 1 << 19, ACL_MEM_MALLOC_HUGE_FIRST),
            ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(more), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDevice(1), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(big), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free_bytes, &total), ACL_SUCCESS);
  EXPECT_EQ(free_bytes, total);
  EXPECT_EQ(aclrtGetMemInfo(static_cast<aclrtMemAttr>(9), &free_bytes, &total),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, nullptr, &total),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST_F(MemoryTest, FreeAcceptsOnlyAllocationBases) {
  std::vector<char> host(16);
  EXPECT_EQ(aclrtFree(host.data()), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("not device memory"));
  EXPECT_EQ(aclrtFree(nullptr), ACL_ERROR_INVALID_PARAM);
  void* ptr = nullptr;
  ASSERT_EQ(aclrtMalloc(&ptr, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(static_cast<char*>(ptr) + 8), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("inside the device allocation"));
  EXPECT_EQ(aclrtFreeHost(ptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtFree(ptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(ptr), ACL_ERROR_INVALID_PARAM);  // double free
  void* pinned = nullptr;
  ASSERT_EQ(aclrtMallocHost(&pinned, 32), ACL_SUCCESS);
  EXPECT_EQ(Stats().live_host_allocs, 1u);
  EXPECT_EQ(aclrtFree(pinned), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtFreeHost(pinned), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreeHost(pinned), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(Stats().live_host_allocs, 0u);
}

TEST_F(MemoryTest, CopiesRoundTripAndAreCounted) {
  DeviceBuffer a(32);
  DeviceBuffer b(32);
  std::vector<uint8_t> in(32);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<uint8_t>(i * 7);
  std::vector<uint8_t> out(32, 0);
  ASSERT_EQ(aclrtMemcpy(a.get(), 32, in.data(), 32, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(b.get(), 32, a.get(), 32, ACL_MEMCPY_DEVICE_TO_DEVICE),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(out.data(), 32, b.get(), 32, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  EXPECT_EQ(in, out);
  aclEmuStats stats = Stats();
  EXPECT_EQ(stats.bytes_host_to_device, 32u);
  EXPECT_EQ(stats.bytes_device_to_host, 32u);
  // ACL_MEMCPY_DEFAULT infers the direction from the pointers.
  std::vector<uint8_t> out2(16, 0);
  ASSERT_EQ(aclrtMemcpy(static_cast<char*>(a.get()) + 16, 16, in.data(), 16,
                        ACL_MEMCPY_DEFAULT),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(out2.data(), 16, static_cast<char*>(a.get()) + 16, 16,
                        ACL_MEMCPY_DEFAULT),
            ACL_SUCCESS);
  EXPECT_EQ(std::vector<uint8_t>(in.begin(), in.begin() + 16), out2);
  stats = Stats();
  EXPECT_EQ(stats.bytes_host_to_device, 48u);
  EXPECT_EQ(stats.bytes_device_to_host, 48u);
  // Host to host through the API is allowed and not device traffic.
  ASSERT_EQ(aclrtMemcpy(out.data(), 32, in.data(), 32, ACL_MEMCPY_HOST_TO_HOST),
            ACL_SUCCESS);
  EXPECT_EQ(Stats().bytes_host_to_device, 48u);
}

TEST_F(MemoryTest, CopyKindMustMatchThePointers) {
  DeviceBuffer device(16);
  char host[16] = {};
  char host2[16] = {};
  EXPECT_EQ(aclrtMemcpy(host, 16, host2, 16, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("needs a device dst"));
  EXPECT_EQ(aclrtMemcpy(host, 16, host2, 16, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("needs a device src"));
  EXPECT_EQ(aclrtMemcpy(device.get(), 16, host, 16, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemcpy(host, 16, device.get(), 16, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("needs a host src"));
  EXPECT_EQ(aclrtMemcpy(device.get(), 16, host, 16, ACL_MEMCPY_HOST_TO_HOST),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(
      aclrtMemcpy(device.get(), 16, host, 16, ACL_MEMCPY_DEVICE_TO_DEVICE),
      ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(
      aclrtMemcpy(device.get(), 16, host, 16, static_cast<aclrtMemcpyKind>(99)),
      ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("not an aclrtMemcpyKind"));
  EXPECT_EQ(Stats().bytes_host_to_device, 0u);
}

TEST_F(MemoryTest, CopyBoundsAreChecked) {
  DeviceBuffer device(16);
  char host[64] = {};
  EXPECT_EQ(aclrtMemcpy(device.get(), 8, host, 16, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("larger than destMax"));
  EXPECT_EQ(aclrtMemcpy(device.get(), 64, host, 17, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("runs past the end"));
  EXPECT_EQ(aclrtMemcpy(static_cast<char*>(device.get()) + 8, 64, host, 9,
                        ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemcpy(host, 64, static_cast<char*>(device.get()) + 15, 2,
                        ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemcpy(nullptr, 16, host, 16, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(
      aclrtMemcpy(device.get(), 16, nullptr, 16, ACL_MEMCPY_HOST_TO_DEVICE),
      ACL_ERROR_INVALID_PARAM);
  // Exactly to the end is fine.
  EXPECT_EQ(aclrtMemcpy(static_cast<char*>(device.get()) + 8, 8, host, 8,
                        ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
}

TEST_F(MemoryTest, PinnedHostMemoryIsHostMemoryWithBounds) {
  void* pinned = nullptr;
  ASSERT_EQ(aclrtMallocHost(&pinned, 16), ACL_SUCCESS);
  DeviceBuffer device(64);
  EXPECT_EQ(
      aclrtMemcpy(device.get(), 64, pinned, 16, ACL_MEMCPY_HOST_TO_DEVICE),
      ACL_SUCCESS);
  EXPECT_EQ(
      aclrtMemcpy(device.get(), 64, pinned, 32, ACL_MEMCPY_HOST_TO_DEVICE),
      ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("aclrtMallocHost allocation"));
  EXPECT_EQ(aclrtFreeHost(pinned), ACL_SUCCESS);
}

TEST_F(MemoryTest, AsyncCopyNeedsAStreamOfTheCurrentContext) {
  DeviceBuffer device(16);
  char host[16] = {1, 2, 3};
  char back[16] = {};
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(device.get(), 16, host, 16,
                             ACL_MEMCPY_HOST_TO_DEVICE, stream),
            ACL_SUCCESS);
  // Queued: done by the stream's worker, waited for by the synchronize.
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(back, 16, device.get(), 16, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  EXPECT_EQ(std::memcmp(host, back, 16), 0);
  EXPECT_EQ(aclrtMemcpyAsync(device.get(), 16, host, 16,
                             ACL_MEMCPY_HOST_TO_DEVICE, nullptr),
            ACL_SUCCESS);  // the default stream
  EXPECT_EQ(
      aclrtMemcpyAsync(host, 16, host, 16, ACL_MEMCPY_HOST_TO_DEVICE, stream),
      ACL_ERROR_INVALID_PARAM);

  aclrtContext default_context = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&default_context), ACL_SUCCESS);
  aclrtContext other = nullptr;
  ASSERT_EQ(aclrtCreateContext(&other, 0), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpyAsync(device.get(), 16, host, 16,
                             ACL_MEMCPY_HOST_TO_DEVICE, stream),
            ACL_ERROR_RT_STREAM_CONTEXT);
  EXPECT_THAT(LastError(), HasSubstr("not to the current context"));
  ASSERT_EQ(aclrtDestroyContext(other), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetCurrentContext(default_context), ACL_SUCCESS);

  ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpyAsync(device.get(), 16, host, 16,
                             ACL_MEMCPY_HOST_TO_DEVICE, stream),
            ACL_ERROR_RT_PARAM_INVALID);
}

TEST_F(MemoryEnvTest, DeviceMemoryMustBelongToTheCurrentDevice) {
  setenv("EXECUTORCH_ASCEND_EMU_DEVICE_COUNT", "2", 1);
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  void* on_one = nullptr;
  ASSERT_EQ(aclrtMalloc(&on_one, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  void* on_zero = nullptr;
  ASSERT_EQ(aclrtMalloc(&on_zero, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  char host[16] = {};
  EXPECT_EQ(aclrtMemcpy(on_one, 16, host, 16, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("memory of device 1"));
  EXPECT_EQ(
      aclrtMemcpy(on_one, 16, on_zero, 16, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE),
      ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(
      aclrtMemcpy(on_one, 16, on_zero, 16, ACL_MEMCPY_INTER_DEVICE_TO_DEVICE),
      ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(on_zero), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(on_one), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDevice(1), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST_F(MemoryTest, ConcurrentThreadsShareTheRegistrySafely) {
  aclrtContext context = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&context), ACL_SUCCESS);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([context, t] {
      ASSERT_EQ(aclrtSetCurrentContext(context), ACL_SUCCESS);
      std::vector<uint8_t> in(256, static_cast<uint8_t>(t));
      std::vector<uint8_t> out(256);
      for (int i = 0; i < 200; ++i) {
        void* ptr = nullptr;
        ASSERT_EQ(aclrtMalloc(&ptr, 256, ACL_MEM_MALLOC_HUGE_FIRST),
                  ACL_SUCCESS);
        ASSERT_EQ(
            aclrtMemcpy(ptr, 256, in.data(), 256, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
        ASSERT_EQ(
            aclrtMemcpy(out.data(), 256, ptr, 256, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
        ASSERT_EQ(in, out);
        ASSERT_EQ(aclrtFree(ptr), ACL_SUCCESS);
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(Stats().bytes_host_to_device, 4u * 200u * 256u);
  EXPECT_EQ(Stats().live_device_allocs, 0u);
}

}  // namespace
}  // namespace ascend_emu::acl_test
