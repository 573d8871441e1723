// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The per-inference ACL sequence allocates nothing once warm: the copies of
// the inputs, the execute and the copies of the outputs (synchronous, and
// asynchronous with a stream and its synchronize), with the context made
// current before each run as the backend does. Its own binary: it replaces
// malloc to count (tests/cpp/common/alloc_counter.cc).
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
