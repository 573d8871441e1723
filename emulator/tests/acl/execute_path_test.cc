// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The execute path's cached checks (docs/emulator.md, "What is checked
// when"): once a dataset pair has run, a later change to what it was checked
// against (a buffer destroyed or added, device memory freed or reused, a
// pinned host allocation freed) is still refused on the next execute or
// copy, with the same codes and messages as on a first run; and shared calls
// from several threads (each with its own model) run side by side.
#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "acl_test_util.h"
#include "model_io.h"
#include "test_models.h"

namespace ascend_emu::acl_test {
namespace {

using ::testing::HasSubstr;

class ExecutePathTest : public AclTest {
 protected:
  void SetUp() override {
    AclTest::SetUp();
    image_ = BuildAddMulReluOm("Ascend910B1");
    ASSERT_FALSE(image_.empty());
    ASSERT_EQ(aclmdlLoadFromMem(image_.data(), image_.size(), &id_),
              ACL_SUCCESS)
        << LastError();
  }
  void TearDown() override {
    EXPECT_EQ(aclmdlUnload(id_), ACL_SUCCESS);
    AclTest::TearDown();
  }
  // Runs once so the pair's checks are cached.
  void Warm(ModelIo& io) {
    io.CopyInputs();
    ASSERT_EQ(aclmdlExecute(id_, io.input(), io.output()), ACL_SUCCESS)
        << LastError();
    ASSERT_EQ(aclmdlExecute(id_, io.input(), io.output()), ACL_SUCCESS);
    EXPECT_EQ(io.Output(), ExpectedAddMulRelu(kX, kY));
  }
  std::vector<uint8_t> image_;
  uint32_t id_ = 0;
};

TEST_F(ExecutePathTest, BufferDestroyedAfterACachedRunIsRefused) {
  DeviceBuffer x(kTensorBytes);
  DeviceBuffer y(kTensorBytes);
  DeviceBuffer z(kTensorBytes);
  aclmdlDataset* input = aclmdlCreateDataset();
  aclmdlDataset* output = aclmdlCreateDataset();
  aclDataBuffer* bx = aclCreateDataBuffer(x.get(), kTensorBytes);
  aclDataBuffer* by = aclCreateDataBuffer(y.get(), kTensorBytes);
  aclDataBuffer* bz = aclCreateDataBuffer(z.get(), kTensorBytes);
  ASSERT_EQ(aclmdlAddDatasetBuffer(input, bx), ACL_SUCCESS);
  ASSERT_EQ(aclmdlAddDatasetBuffer(input, by), ACL_SUCCESS);
  ASSERT_EQ(aclmdlAddDatasetBuffer(output, bz), ACL_SUCCESS);
  ASSERT_EQ(aclmdlExecute(id_, input, output), ACL_SUCCESS) << LastError();
  ASSERT_EQ(aclmdlExecute(id_, input, output), ACL_SUCCESS);
  ASSERT_EQ(aclDestroyDataBuffer(by), ACL_SUCCESS);
  EXPECT_EQ(aclmdlExecute(id_, input, output), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("input 1: data buffer"));
  EXPECT_THAT(LastError(), HasSubstr("was destroyed after it was added"));
  EXPECT_EQ(aclDestroyDataBuffer(bx), ACL_SUCCESS);
  EXPECT_EQ(aclDestroyDataBuffer(bz), ACL_SUCCESS);
  EXPECT_EQ(aclmdlDestroyDataset(input), ACL_SUCCESS);
  EXPECT_EQ(aclmdlDestroyDataset(output), ACL_SUCCESS);
}

TEST_F(ExecutePathTest, BufferAddedAfterACachedRunIsRefused) {
  ModelIo io;
  Warm(io);
  DeviceBuffer extra(kTensorBytes);
  io.Add(io.output(), extra.get(), kTensorBytes);
  EXPECT_EQ(aclmdlExecute(id_, io.input(), io.output()),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("the output dataset holds 2 buffer(s) "
                                     "but the model has 1 output(s)"));
}

TEST_F(ExecutePathTest, MemoryFreedAfterACachedRunIsRefused) {
  void* x = nullptr;
  ASSERT_EQ(aclrtMalloc(&x, kTensorBytes, ACL_MEM_MALLOC_HUGE_FIRST),
            ACL_SUCCESS);
  DeviceBuffer y(kTensorBytes);
  DeviceBuffer z(kTensorBytes);
  aclmdlDataset* input = aclmdlCreateDataset();
  aclmdlDataset* output = aclmdlCreateDataset();
  aclDataBuffer* buffers[] = {aclCreateDataBuffer(x, kTensorBytes),
                              aclCreateDataBuffer(y.get(), kTensorBytes),
                              aclCreateDataBuffer(z.get(), kTensorBytes)};
  ASSERT_EQ(aclmdlAddDatasetBuffer(input, buffers[0]), ACL_SUCCESS);
  ASSERT_EQ(aclmdlAddDatasetBuffer(input, buffers[1]), ACL_SUCCESS);
  ASSERT_EQ(aclmdlAddDatasetBuffer(output, buffers[2]), ACL_SUCCESS);
  ASSERT_EQ(aclmdlExecute(id_, input, output), ACL_SUCCESS) << LastError();
  // The copy's view of x is cached too: the free must reach both.
  std::vector<float> host(6, 1.0f);
  ASSERT_EQ(aclrtMemcpy(x, kTensorBytes, host.data(), kTensorBytes,
                        ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtFree(x), ACL_SUCCESS);
  EXPECT_EQ(aclmdlExecute(id_, input, output), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("input 0 ('x'): buffer"));
  EXPECT_THAT(LastError(), HasSubstr("is host memory"));
  EXPECT_EQ(aclrtMemcpy(x, kTensorBytes, host.data(), kTensorBytes,
                        ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("is host memory"));
  for (aclDataBuffer* buffer : buffers) {
    EXPECT_EQ(aclDestroyDataBuffer(buffer), ACL_SUCCESS);
  }
  EXPECT_EQ(aclmdlDestroyDataset(input), ACL_SUCCESS);
  EXPECT_EQ(aclmdlDestroyDataset(output), ACL_SUCCESS);
}

TEST_F(ExecutePathTest, PinnedHostBoundsSurviveTheCache) {
  void* pinned = nullptr;
  ASSERT_EQ(aclrtMallocHost(&pinned, 16), ACL_SUCCESS);
  DeviceBuffer device(64);
  ASSERT_EQ(
      aclrtMemcpy(device.get(), 64, pinned, 16, ACL_MEMCPY_HOST_TO_DEVICE),
      ACL_SUCCESS);
  EXPECT_EQ(
      aclrtMemcpy(device.get(), 64, pinned, 32, ACL_MEMCPY_HOST_TO_DEVICE),
      ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("aclrtMallocHost allocation"));
  ASSERT_EQ(aclrtFreeHost(pinned), ACL_SUCCESS);
}

TEST_F(ExecutePathTest, ContextDestroyedAfterACachedCallIsRefused) {
  aclrtContext other = nullptr;
  ASSERT_EQ(aclrtCreateContext(&other, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetCurrentContext(other), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetCurrentContext(other), ACL_SUCCESS);  // cached
  ASSERT_EQ(aclrtDestroyContext(other), ACL_SUCCESS);
  EXPECT_EQ(aclrtSetCurrentContext(other), ACL_ERROR_RT_PARAM_INVALID);
  aclrtContext current = nullptr;
  EXPECT_EQ(aclrtGetCurrentContext(&current), ACL_ERROR_RT_CONTEXT_NULL);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);  // the default context again
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
}

TEST_F(ExecutePathTest, ModelUnloadedAfterACachedRunIsRefused) {
  ModelIo io;
  Warm(io);
  uint32_t second = 0;
  ASSERT_EQ(aclmdlLoadFromMem(image_.data(), image_.size(), &second),
            ACL_SUCCESS);
  ASSERT_EQ(aclmdlExecute(second, io.input(), io.output()), ACL_SUCCESS);
  ASSERT_EQ(aclmdlUnload(second), ACL_SUCCESS);
  EXPECT_EQ(aclmdlExecute(second, io.input(), io.output()),
            ACL_ERROR_GE_EXEC_MODEL_ID_INVALID);
  EXPECT_EQ(aclmdlExecute(id_, io.input(), io.output()), ACL_SUCCESS);
}

// The fast ways' caches hold calls checked in the thread's current context:
// switching to another context (a shared call: the epoch stays) drops them,
// so a cached execute is checked again there and refused; back in the first
// context it runs.
TEST_F(ExecutePathTest, CachedRunIsCheckedAgainInAnotherContext) {
  aclrtContext first = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&first), ACL_SUCCESS);
  aclrtContext other = nullptr;
  ASSERT_EQ(aclrtCreateContext(&other, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetCurrentContext(first), ACL_SUCCESS);
  ModelIo io;
  Warm(io);  // cached in `first`, in the current epoch
  ASSERT_EQ(aclrtSetCurrentContext(other), ACL_SUCCESS);
  EXPECT_EQ(aclmdlExecute(id_, io.input(), io.output()),
            ACL_ERROR_RT_MODEL_CONTEXT);
  EXPECT_THAT(LastError(), HasSubstr("must happen in the same context"));
  ASSERT_EQ(aclrtSetCurrentContext(first), ACL_SUCCESS);
  EXPECT_EQ(aclmdlExecute(id_, io.input(), io.output()), ACL_SUCCESS)
      << LastError();
  ASSERT_EQ(aclrtSetCurrentContext(other), ACL_SUCCESS);
  EXPECT_EQ(aclmdlExecute(id_, io.input(), io.output()),
            ACL_ERROR_RT_MODEL_CONTEXT);
  ASSERT_EQ(aclrtSetCurrentContext(first), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyContext(other), ACL_SUCCESS);
}

// A thread's cached run points at the model's checked pair, which stays as
// it is while the epoch does: other pairs run meanwhile (on another thread,
// in the same epoch) never rewrite it, so the cached run still writes its
// own output.
TEST_F(ExecutePathTest, ACachedPairIsNotRewrittenInItsEpoch) {
  aclrtContext context = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&context), ACL_SUCCESS);
  ModelIo first;
  ModelIo second;
  ModelIo third;
  for (ModelIo* io : {&first, &second, &third}) io->CopyInputs();
  void* first_z =
      aclGetDataBufferAddr(aclmdlGetDatasetBuffer(first.output(), 0));
  const std::vector<float> zeros(6, 0.0f);
  // From here on only shared calls: the epoch stays.
  std::atomic<int> step{0};
  std::thread worker([&] {
    ASSERT_EQ(aclrtSetCurrentContext(context), ACL_SUCCESS);
    ASSERT_EQ(aclmdlExecute(id_, first.input(), first.output()), ACL_SUCCESS)
        << LastError();  // checked and cached by this thread
    step = 1;
    while (step.load() != 2) std::this_thread::yield();
    ASSERT_EQ(aclmdlExecute(id_, first.input(), first.output()), ACL_SUCCESS)
        << LastError();  // the fast way, from the cached run
  });
  while (step.load() != 1) std::this_thread::yield();
  for (ModelIo* io : {&second, &third}) {
    ASSERT_EQ(aclmdlExecute(id_, io->input(), io->output()), ACL_SUCCESS);
  }
  ASSERT_EQ(aclrtMemcpy(first_z, kTensorBytes, zeros.data(), kTensorBytes,
                        ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  step = 2;
  worker.join();
  EXPECT_EQ(first.Output(), ExpectedAddMulRelu(kX, kY));
  EXPECT_EQ(third.Output(), ExpectedAddMulRelu(kX, kY));
}

// An empty slot of the fast ways' caches matches no call, not even one with
// NULL pointers, a zero count or model id 0: those still get their errors.
TEST_F(ExecutePathTest, EmptyCacheSlotsMatchNoCall) {
  ModelIo io;
  Warm(io);
  io.CopyInputs();
  io.CopyInputs();  // the thread's caches are filled and current
  for (int kind = ACL_MEMCPY_HOST_TO_HOST; kind <= ACL_MEMCPY_DEVICE_TO_DEVICE;
       ++kind) {
    EXPECT_EQ(
        aclrtMemcpy(nullptr, 0, nullptr, 0, static_cast<aclrtMemcpyKind>(kind)),
        ACL_ERROR_INVALID_PARAM)
        << "kind " << kind;
    EXPECT_THAT(LastError(), HasSubstr("is NULL"));
  }
  EXPECT_EQ(aclmdlExecute(0, nullptr, nullptr),
            ACL_ERROR_GE_EXEC_MODEL_ID_INVALID);
  EXPECT_EQ(aclmdlExecute(id_, io.input(), io.output()), ACL_SUCCESS);
}

// The fast way (a repeated copy, a cached execute) still counts each call,
// still meets an injected fault and still checks destMax.
TEST_F(ExecutePathTest, RepeatedCallsAreCountedFaultedAndChecked) {
  ModelIo io;
  Warm(io);
  io.CopyInputs();
  io.CopyInputs();  // now repeated copies
  uint64_t copies_before = 0;
  uint64_t runs_before = 0;
  ASSERT_EQ(aclEmuGetCallCount("aclrtMemcpy", &copies_before), ACL_SUCCESS);
  ASSERT_EQ(aclEmuGetCallCount("aclmdlExecute", &runs_before), ACL_SUCCESS);
  for (int i = 0; i < 3; ++i) {
    io.CopyInputs();
    ASSERT_EQ(aclmdlExecute(id_, io.input(), io.output()), ACL_SUCCESS);
  }
  uint64_t copies_after = 0;
  uint64_t runs_after = 0;
  ASSERT_EQ(aclEmuGetCallCount("aclrtMemcpy", &copies_after), ACL_SUCCESS);
  ASSERT_EQ(aclEmuGetCallCount("aclmdlExecute", &runs_after), ACL_SUCCESS);
  EXPECT_EQ(copies_after - copies_before, 6u);
  EXPECT_EQ(runs_after - runs_before, 3u);
  EXPECT_EQ(io.Output(), ExpectedAddMulRelu(kX, kY));

  ASSERT_EQ(aclEmuInjectFault("aclrtMemcpy", 0, ACL_ERROR_RT_FAILURE),
            ACL_SUCCESS);
  ASSERT_EQ(aclEmuInjectFault("aclmdlExecute", 0, ACL_ERROR_GE_FAILURE),
            ACL_SUCCESS);
  void* x = io.x();
  EXPECT_EQ(aclrtMemcpy(x, kTensorBytes, kX.data(), kTensorBytes,
                        ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_RT_FAILURE);
  EXPECT_THAT(LastError(), HasSubstr("injected fault"));
  EXPECT_EQ(aclmdlExecute(id_, io.input(), io.output()), ACL_ERROR_GE_FAILURE);
  EXPECT_THAT(LastError(), HasSubstr("injected fault"));
  ASSERT_EQ(aclEmuInjectFault(nullptr, 0, 0), ACL_SUCCESS);
  io.CopyInputs();
  io.CopyInputs();
  EXPECT_EQ(aclmdlExecute(id_, io.input(), io.output()), ACL_SUCCESS);
  EXPECT_EQ(aclmdlExecute(id_, io.input(), io.output()), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(x, kTensorBytes - 4, kX.data(), kTensorBytes,
                        ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("is larger than destMax"));
}

// The fast ways count in their thread's cache slots (one increment per
// call): the counts reach aclEmuGetCallCount and aclEmuGetStats while the
// slots live, when a slot is taken over by another copy (of another size),
// and after the thread that made them has ended with its slots full (its
// last calls fast ones: no exclusive call of its own dropped them).
TEST_F(ExecutePathTest, FastWayCountsSurviveSlotReuseAndTheThreadsEnd) {
  aclrtContext context = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&context), ACL_SUCCESS);
  ModelIo io;
  const aclEmuStats before = Stats();
  uint64_t copies_before = 0;
  uint64_t runs_before = 0;
  ASSERT_EQ(aclEmuGetCallCount("aclrtMemcpy", &copies_before), ACL_SUCCESS);
  ASSERT_EQ(aclEmuGetCallCount("aclmdlExecute", &runs_before), ACL_SUCCESS);
  constexpr int kRuns = 20;
  constexpr size_t kHalf = kTensorBytes / 2;
  std::atomic<int> stage{0};
  std::thread worker([&] {
    ASSERT_EQ(aclrtSetCurrentContext(context), ACL_SUCCESS);
    for (int i = 0; i < kRuns; ++i) {
      io.CopyInputs();  // two copies of kTensorBytes
      ASSERT_EQ(aclmdlExecute(id_, io.input(), io.output()), ACL_SUCCESS);
    }
    // The same destination, half the bytes: the slot is taken over.
    for (int i = 0; i < 2; ++i) {
      ASSERT_EQ(aclrtMemcpy(io.x(), kTensorBytes, kX.data(), kHalf,
                            ACL_MEMCPY_HOST_TO_DEVICE),
                ACL_SUCCESS);
    }
    stage = 1;
    while (stage.load() != 2) std::this_thread::yield();
  });
  while (stage.load() != 1) std::this_thread::yield();
  const auto expect_counts = [&](const char* when) {
    SCOPED_TRACE(when);
    uint64_t copies = 0;
    uint64_t runs = 0;
    ASSERT_EQ(aclEmuGetCallCount("aclrtMemcpy", &copies), ACL_SUCCESS);
    ASSERT_EQ(aclEmuGetCallCount("aclmdlExecute", &runs), ACL_SUCCESS);
    EXPECT_EQ(copies - copies_before, 2u * kRuns + 2);
    EXPECT_EQ(runs - runs_before, uint64_t{kRuns});
    const aclEmuStats now = Stats();
    EXPECT_EQ(now.bytes_host_to_device - before.bytes_host_to_device,
              2u * kRuns * kTensorBytes + 2 * kHalf);
    EXPECT_EQ(now.executes - before.executes, uint64_t{kRuns});
  };
  expect_counts("while the worker's slots live");
  stage = 2;
  worker.join();
  expect_counts("after the worker ended");
}

// A run on the fast way is a reader, and an exclusive call waits for it:
// unloading a model another thread keeps running ends that thread's runs
// with an error, never in the middle of one nor with the model's record
// freed under it (ASan and TSan report either; TSan caught a fast way that
// took the model before entering as a reader).
TEST_F(ExecutePathTest, UnloadWaitsForAFastRunInFlight) {
  aclrtContext context = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&context), ACL_SUCCESS);
  uint32_t id = 0;
  ASSERT_EQ(aclmdlLoadFromMem(image_.data(), image_.size(), &id), ACL_SUCCESS);
  std::atomic<int> runs{0};
  std::thread runner([&] {
    ASSERT_EQ(aclrtSetCurrentContext(context), ACL_SUCCESS);
    ModelIo io;
    io.CopyInputs();
    for (;;) {
      const aclError rc = aclmdlExecute(id, io.input(), io.output());
      if (rc != ACL_SUCCESS) {
        EXPECT_EQ(rc, ACL_ERROR_GE_EXEC_MODEL_ID_INVALID) << LastError();
        break;
      }
      ++runs;
    }
    EXPECT_EQ(io.Output(), ExpectedAddMulRelu(kX, kY));
  });
  while (runs.load() < 50) std::this_thread::yield();
  EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS) << LastError();
  runner.join();
}

// Each thread its own model and buffers, all on one context: executes and
// copies are shared calls and overlap; a thread allocating and freeing
// meanwhile (exclusive calls) is serialised against them. Run under TSan.
TEST_F(ExecutePathTest, ConcurrentExecutesOfOwnModelsRunSideBySide) {
  aclrtContext context = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&context), ACL_SUCCESS);
  constexpr int kThreads = 3;
  constexpr int kRuns = 100;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([this, context] {
      ASSERT_EQ(aclrtSetCurrentContext(context), ACL_SUCCESS);
      uint32_t id = 0;
      ASSERT_EQ(aclmdlLoadFromMem(image_.data(), image_.size(), &id),
                ACL_SUCCESS);
      {
        ModelIo io;
        for (int i = 0; i < kRuns; ++i) {
          io.CopyInputs();
          ASSERT_EQ(aclmdlExecute(id, io.input(), io.output()), ACL_SUCCESS)
              << LastError();
          ASSERT_EQ(io.Output(), ExpectedAddMulRelu(kX, kY));
        }
      }
      ASSERT_EQ(aclmdlUnload(id), ACL_SUCCESS);
    });
  }
  threads.emplace_back([context] {
    ASSERT_EQ(aclrtSetCurrentContext(context), ACL_SUCCESS);
    for (int i = 0; i < kRuns; ++i) {
      void* ptr = nullptr;
      ASSERT_EQ(aclrtMalloc(&ptr, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
      ASSERT_EQ(aclrtFree(ptr), ACL_SUCCESS);
    }
  });
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(Stats().executes, uint64_t{kThreads} * kRuns);
}

// The same with kernels that keep per-op state made at load (the Conv's
// oneDNN objects, whose data handles each run sets): two models, one per
// thread, run side by side. Run under TSan.
TEST_F(ExecutePathTest, ConcurrentExecutesOfPreparedConvModels) {
  aclrtContext context = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&context), ACL_SUCCESS);
  const std::vector<uint8_t> image = BuildConvMatMulOm("Ascend910B1");
  std::vector<std::thread> threads;
  for (int t = 0; t < 2; ++t) {
    threads.emplace_back([&] {
      ASSERT_EQ(aclrtSetCurrentContext(context), ACL_SUCCESS);
      uint32_t id = 0;
      ASSERT_EQ(aclmdlLoadFromMem(image.data(), image.size(), &id),
                ACL_SUCCESS);
      {
        ConvMatMulIo io;
        const std::vector<float> want = ExpectedConvRelu(io.x());
        for (int i = 0; i < 10; ++i) {
          io.Run(id);
          for (size_t j = 0; j < want.size(); ++j)
            ASSERT_NEAR(io.y()[j], want[j], 1e-4) << j;
        }
      }
      ASSERT_EQ(aclmdlUnload(id), ACL_SUCCESS);
    });
  }
  for (auto& thread : threads) thread.join();
}

// One model id run by two threads at once breaks CANN's rule (one model id
// on one stream at a time): whichever execute overlaps another is refused,
// never run on the same model memory concurrently.
TEST_F(ExecutePathTest, ConcurrentExecutesOfOneModelAreRefusedNotRaced) {
  aclrtContext context = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&context), ACL_SUCCESS);
  std::atomic<int> refused{0};
  std::atomic<int> ran{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 2; ++t) {
    threads.emplace_back([&, context] {
      ASSERT_EQ(aclrtSetCurrentContext(context), ACL_SUCCESS);
      ModelIo io;
      io.CopyInputs();
      for (int i = 0; i < 200; ++i) {
        aclError rc = aclmdlExecute(id_, io.input(), io.output());
        if (rc == ACL_SUCCESS) {
          ++ran;
        } else {
          ASSERT_EQ(rc, ACL_ERROR_INVALID_PARAM);
          ASSERT_THAT(LastError(), HasSubstr("is running on another thread"));
          ++refused;
        }
      }
      EXPECT_EQ(io.Output(), ExpectedAddMulRelu(kX, kY));
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(ran + refused, 400);
  EXPECT_GT(ran, 0);
}

// Two devices: a copy cached while a context of device 0 was current is
// checked again once a context of device 1 is current (device 0's memory
// then needs ACL_MEMCPY_INTER_DEVICE_TO_DEVICE), and runs again on device 0.
class TwoDeviceCopyTest : public AclEnvTest {};

TEST_F(TwoDeviceCopyTest, CachedCopyIsCheckedAgainOnAnotherDevice) {
  setenv("EXECUTORCH_ASCEND_EMU_DEVICE_COUNT", "2", 1);
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  aclrtContext on_1 = SetDeviceContext(1);
  aclrtContext on_0 = SetDeviceContext(0);  // current from here
  ASSERT_NE(on_1, nullptr);
  ASSERT_NE(on_0, nullptr);
  {
    DeviceBuffer memory(kTensorBytes);
    for (int i = 0; i < 2; ++i) {  // the second one is a cached copy
      ASSERT_EQ(aclrtMemcpy(memory.get(), kTensorBytes, kX.data(), kTensorBytes,
                            ACL_MEMCPY_HOST_TO_DEVICE),
                ACL_SUCCESS)
          << LastError();
    }
    ASSERT_EQ(aclrtSetCurrentContext(on_1), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpy(memory.get(), kTensorBytes, kX.data(), kTensorBytes,
                          ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT(LastError(), HasSubstr("is memory of device 0, but the "
                                       "current context is on device 1"));
    ASSERT_EQ(aclrtSetCurrentContext(on_0), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpy(memory.get(), kTensorBytes, kX.data(), kTensorBytes,
                          ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
  }
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDevice(1), ACL_SUCCESS);
}

}  // namespace
}  // namespace ascend_emu::acl_test
