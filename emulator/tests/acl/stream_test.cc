// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Streams (docs/emulator.md, "Streams"): aclrtMemcpyAsync and
// aclmdlExecuteAsync queue work that the stream's worker runs in order;
// aclrtSynchronizeStream waits for it and reports a task that failed, as
// CANN does; exclusive calls and aclrtDestroyStream let queued work finish
// first; streams on several threads run side by side (TSan: the tests whose
// names hold "Concurrent"). And aclrtGetRunMode, with RC mode's model I/O in
// host memory.
#include <cstdlib>
#include <thread>
#include <vector>

#include "acl_test_util.h"
#include "model_io.h"
#include "test_models.h"

namespace ascend_emu::acl_test {
namespace {

using ::testing::HasSubstr;

// Round r's inputs: kX and kY shifted by r, so every round's output differs.
std::vector<float> Shifted(const std::vector<float>& base, int r) {
  std::vector<float> values(base);
  for (float& v : values) v += static_cast<float>(r);
  return values;
}

class StreamTest : public AclTest {
 protected:
  void SetUp() override {
    AclTest::SetUp();
    image_ = BuildAddMulReluOm("Ascend910B1");
    ASSERT_EQ(aclmdlLoadFromMem(image_.data(), image_.size(), &id_),
              ACL_SUCCESS)
        << LastError();
    ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS) << LastError();
  }
  void TearDown() override {
    if (stream_ != nullptr) EXPECT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(aclmdlUnload(id_), ACL_SUCCESS);
    AclTest::TearDown();
  }
  // Queues round r: both inputs up, the run, the output down into `out`.
  void Queue(ModelIo& io, const std::vector<float>& x,
             const std::vector<float>& y, float* out) {
    void* dx = aclGetDataBufferAddr(aclmdlGetDatasetBuffer(io.input(), 0));
    void* dy = aclGetDataBufferAddr(aclmdlGetDatasetBuffer(io.input(), 1));
    void* dz = aclGetDataBufferAddr(aclmdlGetDatasetBuffer(io.output(), 0));
    ASSERT_EQ(aclrtMemcpyAsync(dx, kTensorBytes, x.data(), kTensorBytes,
                               ACL_MEMCPY_HOST_TO_DEVICE, stream_),
              ACL_SUCCESS)
        << LastError();
    ASSERT_EQ(aclrtMemcpyAsync(dy, kTensorBytes, y.data(), kTensorBytes,
                               ACL_MEMCPY_HOST_TO_DEVICE, stream_),
              ACL_SUCCESS);
    ASSERT_EQ(aclmdlExecuteAsync(id_, io.input(), io.output(), stream_),
              ACL_SUCCESS)
        << LastError();
    ASSERT_EQ(aclrtMemcpyAsync(out, kTensorBytes, dz, kTensorBytes,
                               ACL_MEMCPY_DEVICE_TO_HOST, stream_),
              ACL_SUCCESS);
  }
  std::vector<uint8_t> image_;
  uint32_t id_ = 0;
  aclrtStream stream_ = nullptr;
};

// 40 rounds through the same device buffers with one synchronize at the
// end: each output is right only if every task ran in the order queued
// (160 tasks: more than the ring holds, so queueing also waited for room).
TEST_F(StreamTest, QueuedRoundsRunInOrderWithOneSynchronize) {
  ModelIo io;
  constexpr int kRounds = 40;
  std::vector<std::vector<float>> xs, ys;
  for (int r = 0; r < kRounds; ++r) {
    xs.push_back(Shifted(kX, r));
    ys.push_back(Shifted(kY, -r));
  }
  std::vector<std::vector<float>> outs(kRounds, std::vector<float>(6, -1.0f));
  const uint64_t executes_before = Stats().executes;
  for (int r = 0; r < kRounds; ++r) Queue(io, xs[r], ys[r], outs[r].data());
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << LastError();
  for (int r = 0; r < kRounds; ++r) {
    EXPECT_EQ(outs[r], ExpectedAddMulRelu(xs[r], ys[r])) << "round " << r;
  }
  EXPECT_EQ(Stats().executes - executes_before, uint64_t{kRounds});
}

// A run that fails on the device is not an error of aclmdlExecuteAsync
// (which only queued it) but of the synchronize that waits for it, with
// ACL_ERROR_RT_MODEL_EXECUTE and the reason in aclGetRecentErrMsg; the
// error is reported once, and the stream goes on.
TEST_F(StreamTest, FailedRunIsReportedBySynchronize) {
  ModelIo io;
  std::vector<float> out(6, -1.0f);
  ASSERT_EQ(aclEmuFailNextRun(id_), ACL_SUCCESS);
  Queue(io, kX, kY, out.data());
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_MODEL_EXECUTE);
  EXPECT_THAT(LastError(), HasSubstr("aclrtSynchronizeStream"));
  EXPECT_THAT(LastError(), HasSubstr("injected run failure"));
  EXPECT_THAT(LastError(), HasSubstr("aclmdlExecuteAsync"));
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  Queue(io, kX, kY, out.data());
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << LastError();
  EXPECT_EQ(out, ExpectedAddMulRelu(kX, kY));
}

// What the call can check is checked when it is called, as on CANN: a bad
// argument fails aclrtMemcpyAsync / aclmdlExecuteAsync, nothing is queued.
TEST_F(StreamTest, BadArgumentsFailTheQueueingCall) {
  ModelIo io;
  float host[6] = {};
  EXPECT_EQ(aclrtMemcpyAsync(host, sizeof(host), kX.data(), kTensorBytes,
                             ACL_MEMCPY_HOST_TO_DEVICE, stream_),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("needs a device dst"));
  EXPECT_NE(aclmdlExecuteAsync(id_ + 100, io.input(), io.output(), stream_),
            ACL_SUCCESS);
  EXPECT_THAT(LastError(), HasSubstr("model"));
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
}

// aclEmuGetStats is an exclusive call: it runs only once every stream has
// run what it holds, so it sees every queued run counted without a
// synchronize (as would an aclrtFree of memory the runs use).
TEST_F(StreamTest, ExclusiveCallsLetQueuedWorkFinishFirst) {
  ModelIo io;
  std::vector<float> out(6, -1.0f);
  const uint64_t before = Stats().executes;
  for (int r = 0; r < 10; ++r) Queue(io, kX, kY, out.data());
  EXPECT_EQ(Stats().executes - before, 10u);
  EXPECT_EQ(out, ExpectedAddMulRelu(kX, kY));
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
}

// Destroying a stream runs what it holds first.
TEST_F(StreamTest, DestroyRunsWhatTheStreamHolds) {
  ModelIo io;
  std::vector<float> out(6, -1.0f);
  Queue(io, kX, kY, out.data());
  ASSERT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS);
  stream_ = nullptr;
  EXPECT_EQ(out, ExpectedAddMulRelu(kX, kY));
}

// Four threads, each with its own model, stream and buffers, queueing and
// synchronizing rounds side by side: every output right (TSan job).
TEST_F(StreamTest, ConcurrentStreamsOnThreads) {
  aclrtContext context = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&context), ACL_SUCCESS);
  constexpr int kThreads = 4;
  constexpr int kRounds = 30;
  std::vector<std::thread> threads;
  std::vector<int> wrong(kThreads, 0);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      ASSERT_EQ(aclrtSetCurrentContext(context), ACL_SUCCESS);
      uint32_t id = 0;
      ASSERT_EQ(aclmdlLoadFromMem(image_.data(), image_.size(), &id),
                ACL_SUCCESS);
      aclrtStream stream = nullptr;
      ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
      {
        ModelIo io;
        void* dx = aclGetDataBufferAddr(aclmdlGetDatasetBuffer(io.input(), 0));
        void* dy = aclGetDataBufferAddr(aclmdlGetDatasetBuffer(io.input(), 1));
        void* dz = aclGetDataBufferAddr(aclmdlGetDatasetBuffer(io.output(), 0));
        for (int r = 0; r < kRounds; ++r) {
          const std::vector<float> x = Shifted(kX, r + t);
          const std::vector<float> y = Shifted(kY, t - r);
          std::vector<float> out(6, -1.0f);
          EXPECT_EQ(aclrtMemcpyAsync(dx, kTensorBytes, x.data(), kTensorBytes,
                                     ACL_MEMCPY_HOST_TO_DEVICE, stream),
                    ACL_SUCCESS);
          EXPECT_EQ(aclrtMemcpyAsync(dy, kTensorBytes, y.data(), kTensorBytes,
                                     ACL_MEMCPY_HOST_TO_DEVICE, stream),
                    ACL_SUCCESS);
          EXPECT_EQ(aclmdlExecuteAsync(id, io.input(), io.output(), stream),
                    ACL_SUCCESS);
          EXPECT_EQ(aclrtMemcpyAsync(out.data(), kTensorBytes, dz, kTensorBytes,
                                     ACL_MEMCPY_DEVICE_TO_HOST, stream),
                    ACL_SUCCESS);
          EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
          if (out != ExpectedAddMulRelu(x, y)) ++wrong[t];
        }
      }
      EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
      EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(wrong[t], 0) << "thread " << t;
}

// aclrtGetRunMode: ACL_HOST unless EXECUTORCH_ASCEND_EMU_RUN_MODE=device.
TEST_F(AclEnvTest, RunModeIsHostByDefault) {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  aclrtRunMode mode = ACL_DEVICE;
  EXPECT_EQ(aclrtGetRunMode(&mode), ACL_SUCCESS);
  EXPECT_EQ(mode, ACL_HOST);
  EXPECT_EQ(aclrtGetRunMode(nullptr), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST_F(AclEnvTest, RunModeVariableIsChecked) {
  setenv("EXECUTORCH_ASCEND_EMU_RUN_MODE", "board", 1);
  EXPECT_NE(aclInit(nullptr), ACL_SUCCESS);
  EXPECT_THAT(LastError(), HasSubstr("EXECUTORCH_ASCEND_EMU_RUN_MODE='board'"));
}

// RC mode: the NPU shares the board's memory, so a model reads and writes
// host memory in place: no copy, no byte of host/device traffic.
TEST_F(AclEnvTest, DeviceRunModeRunsOnHostMemoryWithoutCopies) {
  setenv("EXECUTORCH_ASCEND_EMU_RUN_MODE", "device", 1);
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS) << LastError();
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtRunMode mode = ACL_HOST;
  EXPECT_EQ(aclrtGetRunMode(&mode), ACL_SUCCESS);
  EXPECT_EQ(mode, ACL_DEVICE);
  const std::vector<uint8_t> image = BuildAddMulReluOm("Ascend910B1");
  uint32_t id = 0;
  ASSERT_EQ(aclmdlLoadFromMem(image.data(), image.size(), &id), ACL_SUCCESS)
      << LastError();
  std::vector<float> x(kX), y(kY), z(6, -1.0f);
  aclmdlDataset* input = aclmdlCreateDataset();
  aclmdlDataset* output = aclmdlCreateDataset();
  aclDataBuffer* bx = aclCreateDataBuffer(x.data(), kTensorBytes);
  aclDataBuffer* by = aclCreateDataBuffer(y.data(), kTensorBytes);
  aclDataBuffer* bz = aclCreateDataBuffer(z.data(), kTensorBytes);
  ASSERT_EQ(aclmdlAddDatasetBuffer(input, bx), ACL_SUCCESS);
  ASSERT_EQ(aclmdlAddDatasetBuffer(input, by), ACL_SUCCESS);
  ASSERT_EQ(aclmdlAddDatasetBuffer(output, bz), ACL_SUCCESS);
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  const aclEmuStats before = Stats();
  ASSERT_EQ(aclmdlExecuteAsync(id, input, output, stream), ACL_SUCCESS)
      << LastError();
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << LastError();
  EXPECT_EQ(z, ExpectedAddMulRelu(kX, kY));
  // Moved in place: the next call reads other memory.
  std::vector<float> x2 = Shifted(kX, 3);
  ASSERT_EQ(aclUpdateDataBuffer(bx, x2.data(), kTensorBytes), ACL_SUCCESS);
  ASSERT_EQ(aclmdlExecuteAsync(id, input, output, stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  EXPECT_EQ(z, ExpectedAddMulRelu(x2, kY));
  const aclEmuStats after = Stats();
  EXPECT_EQ(after.bytes_host_to_device, before.bytes_host_to_device);
  EXPECT_EQ(after.bytes_device_to_host, before.bytes_device_to_host);
  EXPECT_EQ(after.executes - before.executes, 2u);
  EXPECT_EQ(aclUpdateDataBuffer(nullptr, x2.data(), kTensorBytes),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  EXPECT_EQ(aclDestroyDataBuffer(bx), ACL_SUCCESS);
  EXPECT_EQ(aclDestroyDataBuffer(by), ACL_SUCCESS);
  EXPECT_EQ(aclDestroyDataBuffer(bz), ACL_SUCCESS);
  EXPECT_EQ(aclmdlDestroyDataset(input), ACL_SUCCESS);
  EXPECT_EQ(aclmdlDestroyDataset(output), ACL_SUCCESS);
  EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

// Host mode keeps refusing host memory as model I/O.
TEST_F(StreamTest, HostRunModeRefusesHostMemoryAsModelIo) {
  std::vector<float> x(kX), y(kY), z(6);
  aclmdlDataset* input = aclmdlCreateDataset();
  aclmdlDataset* output = aclmdlCreateDataset();
  aclDataBuffer* bx = aclCreateDataBuffer(x.data(), kTensorBytes);
  aclDataBuffer* by = aclCreateDataBuffer(y.data(), kTensorBytes);
  aclDataBuffer* bz = aclCreateDataBuffer(z.data(), kTensorBytes);
  ASSERT_EQ(aclmdlAddDatasetBuffer(input, bx), ACL_SUCCESS);
  ASSERT_EQ(aclmdlAddDatasetBuffer(input, by), ACL_SUCCESS);
  ASSERT_EQ(aclmdlAddDatasetBuffer(output, bz), ACL_SUCCESS);
  EXPECT_EQ(aclmdlExecuteAsync(id_, input, output, stream_),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("is host memory"));
  EXPECT_EQ(aclDestroyDataBuffer(bx), ACL_SUCCESS);
  EXPECT_EQ(aclDestroyDataBuffer(by), ACL_SUCCESS);
  EXPECT_EQ(aclDestroyDataBuffer(bz), ACL_SUCCESS);
  EXPECT_EQ(aclmdlDestroyDataset(input), ACL_SUCCESS);
  EXPECT_EQ(aclmdlDestroyDataset(output), ACL_SUCCESS);
}

}  // namespace
}  // namespace ascend_emu::acl_test
