// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The per-inference ACL sequence allocates nothing once warm: the copies of
// the inputs, the execute and the copies of the outputs (synchronous, and
// asynchronous with a stream and its synchronize), with the context made
// current before each run as the backend does. Its own binary: it replaces
// malloc to count (emulator/tests/common/alloc_counter.cc).
#include "acl_test_util.h"
#include "alloc_counter.h"
#include "model_io.h"
#include "test_models.h"

namespace ascend_emu::acl_test {
namespace {

class ExecuteNoAllocTest : public AclTest {
 protected:
  void SetUp() override {
    AclTest::SetUp();
    image_ = BuildAddMulReluOm("Ascend910B1");
    ASSERT_EQ(aclmdlLoadFromMem(image_.data(), image_.size(), &id_),
              ACL_SUCCESS)
        << LastError();
    ASSERT_EQ(aclrtGetCurrentContext(&context_), ACL_SUCCESS);
  }
  void TearDown() override {
    EXPECT_EQ(aclmdlUnload(id_), ACL_SUCCESS);
    AclTest::TearDown();
  }
  std::vector<uint8_t> image_;
  uint32_t id_ = 0;
  aclrtContext context_ = nullptr;
};

TEST_F(ExecuteNoAllocTest, SynchronousSequenceAllocatesNothingWhenWarm) {
  ModelIo io;
  void* x = aclGetDataBufferAddr(aclmdlGetDatasetBuffer(io.input(), 0));
  void* y = aclGetDataBufferAddr(aclmdlGetDatasetBuffer(io.input(), 1));
  void* z = aclGetDataBufferAddr(aclmdlGetDatasetBuffer(io.output(), 0));
  float out[6] = {};
  auto run = [&] {
    ASSERT_EQ(aclrtSetCurrentContext(context_), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(x, kTensorBytes, kX.data(), kTensorBytes,
                          ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(y, kTensorBytes, kY.data(), kTensorBytes,
                          ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
    ASSERT_EQ(aclmdlExecute(id_, io.input(), io.output()), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(out, sizeof(out), z, kTensorBytes,
                          ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
  };
  run();  // warm-up: the checks of this dataset pair are made and kept
  ascend_test::StartCountingAllocations();
  for (int i = 0; i < 10; ++i) run();
  EXPECT_EQ(ascend_test::StopCountingAllocations(), 0u);
  EXPECT_EQ(std::vector<float>(out, out + 6), ExpectedAddMulRelu(kX, kY));
}

TEST_F(ExecuteNoAllocTest, AsynchronousSequenceAllocatesNothingWhenWarm) {
  ModelIo io;
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  void* x = aclGetDataBufferAddr(aclmdlGetDatasetBuffer(io.input(), 0));
  void* y = aclGetDataBufferAddr(aclmdlGetDatasetBuffer(io.input(), 1));
  void* z = aclGetDataBufferAddr(aclmdlGetDatasetBuffer(io.output(), 0));
  float out[6] = {};
  auto run = [&] {
    ASSERT_EQ(aclrtMemcpyAsync(x, kTensorBytes, kX.data(), kTensorBytes,
                               ACL_MEMCPY_HOST_TO_DEVICE, stream),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpyAsync(y, kTensorBytes, kY.data(), kTensorBytes,
                               ACL_MEMCPY_HOST_TO_DEVICE, stream),
              ACL_SUCCESS);
    ASSERT_EQ(aclmdlExecuteAsync(id_, io.input(), io.output(), stream),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpyAsync(out, sizeof(out), z, kTensorBytes,
                               ACL_MEMCPY_DEVICE_TO_HOST, stream),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  };
  run();
  ascend_test::StartCountingAllocations();
  for (int i = 0; i < 10; ++i) run();
  EXPECT_EQ(ascend_test::StopCountingAllocations(), 0u);
  EXPECT_EQ(std::vector<float>(out, out + 6), ExpectedAddMulRelu(kX, kY));
  ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

// A tiny MLP (two one-row Gemms on Eigen, one with alpha and beta, and a
// Relu), like the per-call benchmark's: nothing at all, malloc included
// (Eigen's GEMV once malloc'ed a temporary for a scaled product).
TEST_F(AclTest, TinyMlpAllocatesNothingWhenWarm) {
  const std::vector<uint8_t> image = BuildTinyMlpOm("Ascend910B1");
  uint32_t id = 0;
  ASSERT_EQ(aclmdlLoadFromMem(image.data(), image.size(), &id), ACL_SUCCESS)
      << LastError();
  const size_t x_bytes = kMlpIn * sizeof(float);
  const size_t z_bytes = kMlpOut * sizeof(float);
  DeviceBuffer dx(x_bytes);
  DeviceBuffer dz(z_bytes);
  aclDataBuffer* x_buffer = aclCreateDataBuffer(dx.get(), x_bytes);
  aclDataBuffer* z_buffer = aclCreateDataBuffer(dz.get(), z_bytes);
  aclmdlDataset* input = aclmdlCreateDataset();
  aclmdlDataset* output = aclmdlCreateDataset();
  ASSERT_EQ(aclmdlAddDatasetBuffer(input, x_buffer), ACL_SUCCESS);
  ASSERT_EQ(aclmdlAddDatasetBuffer(output, z_buffer), ACL_SUCCESS);
  const std::vector<float> x = ConvMatMulWeight(kMlpIn, 9);
  std::vector<float> z(kMlpOut);
  auto run = [&] {
    ASSERT_EQ(aclrtMemcpy(dx.get(), x_bytes, x.data(), x_bytes,
                          ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
    ASSERT_EQ(aclmdlExecute(id, input, output), ACL_SUCCESS) << LastError();
    ASSERT_EQ(aclrtMemcpy(z.data(), z_bytes, dz.get(), z_bytes,
                          ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
  };
  run();
  ascend_test::StartCountingAllocations();
  for (int i = 0; i < 10; ++i) run();
  EXPECT_EQ(ascend_test::StopCountingAllocations(), 0u);
  const std::vector<float> want = ExpectedTinyMlp(x);
  for (size_t i = 0; i < z.size(); ++i) EXPECT_NEAR(z[i], want[i], 1e-5) << i;
  EXPECT_EQ(aclDestroyDataBuffer(x_buffer), ACL_SUCCESS);
  EXPECT_EQ(aclDestroyDataBuffer(z_buffer), ACL_SUCCESS);
  EXPECT_EQ(aclmdlDestroyDataset(input), ACL_SUCCESS);
  EXPECT_EQ(aclmdlDestroyDataset(output), ACL_SUCCESS);
  EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
}

// The same at real model sizes: a Conv prepared on oneDNN at load and a
// MatMul above the size that runs on Eigen. Not yet 0
// (docs/emulator-kernels.md, "No heap in Run"): the emulator's own code
// allocates nothing there (the Conv's oneDNN objects are made at load), but
// oneDNN 2.6 allocates inside dnnl_primitive_execute (its argument map: 18 per
// execute for the Conv's three primitives, reorder in, conv, reorder out) and
// dnnl_sgemm mallocs its packing buffer (1 per GEMM). The bound catches any
// allocation the emulator adds (it was 51 per execute before the Conv's run
// objects were prepared).
constexpr uint64_t kOnednnAllocsPerExecute = 18 + 1;

TEST_F(AclTest, ConvAndLargeMatMulAllocateOnlyInsideOnednnWhenWarm) {
  const std::vector<uint8_t> image = BuildConvMatMulOm("Ascend910B1");
  uint32_t id = 0;
  ASSERT_EQ(aclmdlLoadFromMem(image.data(), image.size(), &id), ACL_SUCCESS)
      << LastError();
  ConvMatMulIo io;
  auto run = [&] { io.Run(id); };
  run();  // warm-up: oneDNN's JIT kernels, per-thread buffers
  ascend_test::StartCountingAllocations();
  for (int i = 0; i < 10; ++i) run();
  const uint64_t counted = ascend_test::StopCountingAllocations();
  if (ascend_test::CountsMalloc()) {
    EXPECT_LE(counted, 10 * kOnednnAllocsPerExecute);
  }
  const std::vector<float> want_y = ExpectedConvRelu(io.x());
  const std::vector<float> want_z = ExpectedMatMul(io.a());
  for (size_t i = 0; i < want_y.size(); ++i)
    ASSERT_NEAR(io.y()[i], want_y[i], 1e-4) << i;
  for (size_t i = 0; i < want_z.size(); ++i)
    ASSERT_NEAR(io.z()[i], want_z[i], 1e-4) << i;
  EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
}

// The counter itself counts (else the tests above would prove nothing).
TEST(AllocCounter, CountsAnAllocation) {
  ascend_test::StartCountingAllocations();
  auto* v = new std::vector<int>(100);
  uint64_t counted = ascend_test::StopCountingAllocations();
  delete v;
  // The vector's object and elements (a compiler may merge the two).
  EXPECT_GE(counted, 1u);
}

}  // namespace
}  // namespace ascend_emu::acl_test
