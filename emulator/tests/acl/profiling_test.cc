// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The profiling API (acl_prof.h; emulator/acl/profiling.cc): the op
// subscription's records and their readers, the two ways of profiling
// excluding each other, and every error code on bad input.
#include <fcntl.h>
#include <unistd.h>

#include <cstring>
#include <string>
#include <vector>

#include "model_io.h"

namespace ascend_emu::acl_test {
namespace {

using ::testing::HasSubstr;

class ProfilingTest : public AclTest {
 protected:
  void SetUp() override {
    AclTest::SetUp();
    image_ = BuildAddMulReluOm("Ascend910B1");
    ASSERT_EQ(aclmdlLoadFromMem(image_.data(), image_.size(), &model_),
              ACL_SUCCESS)
        << LastError();
    ASSERT_EQ(pipe(fds_), 0);
    ASSERT_EQ(fcntl(fds_[0], F_SETFL, O_NONBLOCK), 0);
    ASSERT_EQ(aclprofGetOpDescSize(&record_size_), ACL_SUCCESS);
  }
  void TearDown() override {
    if (model_ != 0) EXPECT_EQ(aclmdlUnload(model_), ACL_SUCCESS);
    // The emulator closed the write end at the last unsubscribe (or not).
    if (fds_[1] >= 0) close(fds_[1]);
    close(fds_[0]);
    AclTest::TearDown();
  }

  // Every record waiting in the pipe.
  std::vector<uint8_t> Drain() {
    std::vector<uint8_t> all;
    uint8_t chunk[4096];
    for (;;) {
      const ssize_t got = read(fds_[0], chunk, sizeof chunk);
      if (got <= 0) break;
      all.insert(all.end(), chunk, chunk + got);
    }
    return all;
  }

  void Execute() {
    ModelIo io;
    io.CopyInputs();
    ASSERT_EQ(aclmdlExecute(model_, io.input(), io.output()), ACL_SUCCESS)
        << LastError();
    EXPECT_EQ(io.Output(), ExpectedAddMulRelu(kX, kY));
  }

  std::string Name(const std::vector<uint8_t>& records, uint32_t i) {
    size_t length = 0;
    EXPECT_EQ(aclprofGetOpNameLen(records.data(), records.size(), i, &length),
              ACL_SUCCESS)
        << LastError();
    std::string name(length, '?');
    EXPECT_EQ(aclprofGetOpName(records.data(), records.size(), i, name.data(),
                               length),
              ACL_SUCCESS)
        << LastError();
    EXPECT_EQ(name.back(), '\0');
    name.pop_back();
    return name;
  }
  std::string Type(const std::vector<uint8_t>& records, uint32_t i) {
    size_t length = 0;
    EXPECT_EQ(aclprofGetOpTypeLen(records.data(), records.size(), i, &length),
              ACL_SUCCESS);
    std::string type(length, '?');
    EXPECT_EQ(aclprofGetOpType(records.data(), records.size(), i, type.data(),
                               length),
              ACL_SUCCESS);
    type.pop_back();
    return type;
  }

  std::vector<uint8_t> image_;
  uint32_t model_ = 0;
  int fds_[2] = {-1, -1};
  size_t record_size_ = 0;
};

// A subscribed model writes one record per op and execute, in program order;
// the readers give each op's model, name, type and times.
TEST_F(ProfilingTest, SubscribedModelWritesOneRecordPerOp) {
  aclprofSubscribeConfig* config =
      aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &fds_[1]);
  ASSERT_NE(config, nullptr) << LastError();
  ASSERT_EQ(aclprofModelSubscribe(model_, config), ACL_SUCCESS) << LastError();
  Execute();
  Execute();
  const std::vector<uint8_t> records = Drain();
  ASSERT_EQ(record_size_, 64u);
  ASSERT_EQ(records.size(), 6 * record_size_);
  uint32_t count = 0;
  ASSERT_EQ(aclprofGetOpNum(records.data(), records.size(), &count),
            ACL_SUCCESS);
  EXPECT_EQ(count, 6u);
  const char* names[] = {"Add_0", "Mul_0", "Relu_0"};
  const char* types[] = {"Add", "Mul", "Relu"};
  for (uint32_t i = 0; i < count; ++i) {
    EXPECT_EQ(aclprofGetModelId(records.data(), records.size(), i), model_);
    EXPECT_EQ(Name(records, i), names[i % 3]);
    EXPECT_EQ(Name(records, i), names[i % 3]);  // read again: still there
    EXPECT_EQ(Type(records, i), types[i % 3]);
    const uint64_t start = aclprofGetOpStart(records.data(), records.size(), i);
    const uint64_t end = aclprofGetOpEnd(records.data(), records.size(), i);
    EXPECT_GT(start, 0u);
    EXPECT_GE(end, start);
    EXPECT_EQ(aclprofGetOpDuration(records.data(), records.size(), i),
              end - start);
    if (i > 0) {  // in order, never overlapping
      EXPECT_GE(start, aclprofGetOpEnd(records.data(), records.size(), i - 1));
    }
  }
  // Unsubscribed: no more records, and the last user's pipe is closed, its
  // int set to -1 (as CANN does).
  ASSERT_EQ(aclprofModelUnSubscribe(model_), ACL_SUCCESS);
  EXPECT_EQ(fds_[1], -1);
  Execute();
  EXPECT_TRUE(Drain().empty());
  // Names are gone with the subscription.
  size_t length = 0;
  EXPECT_EQ(aclprofGetOpNameLen(records.data(), records.size(), 0, &length),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("no longer subscribed"));
  EXPECT_EQ(aclprofDestroySubscribeConfig(config), ACL_SUCCESS);
}

// Without time info the records carry the ops, with zero times.
TEST_F(ProfilingTest, WithoutTimeInfoTimesAreZero) {
  aclprofSubscribeConfig* config =
      aclprofCreateSubscribeConfig(0, ACL_AICORE_NONE, &fds_[1]);
  ASSERT_NE(config, nullptr);
  ASSERT_EQ(aclprofModelSubscribe(model_, config), ACL_SUCCESS);
  Execute();
  const std::vector<uint8_t> records = Drain();
  ASSERT_EQ(records.size(), 3 * record_size_);
  EXPECT_EQ(Name(records, 2), "Relu_0");
  EXPECT_EQ(aclprofGetOpStart(records.data(), records.size(), 2), 0u);
  ASSERT_EQ(aclprofModelUnSubscribe(model_), ACL_SUCCESS);
  EXPECT_EQ(aclprofDestroySubscribeConfig(config), ACL_SUCCESS);
}

TEST_F(ProfilingTest, ReadersRefuseBadInput) {
  aclprofSubscribeConfig* config =
      aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &fds_[1]);
  ASSERT_EQ(aclprofModelSubscribe(model_, config), ACL_SUCCESS);
  Execute();
  std::vector<uint8_t> records = Drain();
  ASSERT_EQ(records.size(), 3 * record_size_);
  const void* data = records.data();
  const size_t n = records.size();
  uint32_t count = 0;
  size_t length = 0;
  char text[64];

  EXPECT_EQ(aclprofGetOpDescSize(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofGetOpNum(nullptr, n, &count), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofGetOpNum(data, n, nullptr), ACL_ERROR_INVALID_PARAM);
  // A length that is not whole records.
  EXPECT_EQ(aclprofGetOpNum(data, n - 1, &count), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("whole number"));
  EXPECT_EQ(aclprofGetOpNameLen(data, n + 8, 0, &length),
            ACL_ERROR_INVALID_PARAM);
  // No records at all is zero ops.
  EXPECT_EQ(aclprofGetOpNum(data, 0, &count), ACL_SUCCESS);
  EXPECT_EQ(count, 0u);
  // An index past the last record.
  EXPECT_EQ(aclprofGetOpNameLen(data, n, 3, &length), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("past the 3 op record"));
  EXPECT_EQ(aclprofGetOpTypeLen(data, n, 3, &length), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofGetOpStart(data, n, 3), 0u);
  EXPECT_EQ(aclprofGetOpEnd(data, n, 3), 0u);
  EXPECT_EQ(aclprofGetOpDuration(data, n, 3), 0u);
  EXPECT_EQ(aclprofGetModelId(data, n, 3), 0u);
  EXPECT_EQ(aclprofGetModelId(nullptr, n, 0), 0u);
  // Null outputs and too short buffers.
  EXPECT_EQ(aclprofGetOpNameLen(data, n, 0, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofGetOpName(data, n, 0, nullptr, sizeof text),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofGetOpName(data, n, 0, text, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofGetOpName(data, n, 0, text, 5), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("needs 6 bytes"));
  EXPECT_EQ(aclprofGetOpName(data, n, 0, text, 6), ACL_SUCCESS);
  EXPECT_STREQ(text, "Add_0");
  EXPECT_EQ(aclprofGetOpType(data, n, 1, text, 3), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofGetOpType(data, n, 1, text, 4), ACL_SUCCESS);
  EXPECT_STREQ(text, "Mul");
  // Bytes that are not records the emulator wrote.
  records[record_size_ + 20] ^= 0x40;
  EXPECT_EQ(aclprofGetOpNum(data, n, &count), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("checksum"));
  EXPECT_EQ(aclprofGetOpStart(data, n, 1), 0u);
  EXPECT_EQ(aclprofGetOpNameLen(data, n, 0, &length), ACL_SUCCESS);
  std::vector<uint8_t> zeros(record_size_, 0);
  EXPECT_EQ(aclprofGetOpNum(zeros.data(), zeros.size(), &count),
            ACL_ERROR_INVALID_PARAM);

  ASSERT_EQ(aclprofModelUnSubscribe(model_), ACL_SUCCESS);
  EXPECT_EQ(aclprofDestroySubscribeConfig(config), ACL_SUCCESS);
}

TEST_F(ProfilingTest, SubscriptionErrors) {
  // Configs.
  EXPECT_EQ(aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, nullptr), nullptr);
  EXPECT_THAT(LastError(), HasSubstr("fd is NULL"));
  EXPECT_EQ(aclprofCreateSubscribeConfig(2, ACL_AICORE_NONE, &fds_[1]),
            nullptr);
  EXPECT_EQ(aclprofCreateSubscribeConfig(
                1, static_cast<aclprofAicoreMetrics>(42), &fds_[1]),
            nullptr);
  EXPECT_EQ(aclprofDestroySubscribeConfig(nullptr), ACL_ERROR_INVALID_PARAM);
  aclprofSubscribeConfig* config =
      aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &fds_[1]);
  ASSERT_NE(config, nullptr);

  // Unknown, unsubscribed and twice-subscribed models.
  EXPECT_EQ(aclprofModelSubscribe(model_ + 100, config),
            ACL_ERROR_INVALID_MODEL_ID);
  EXPECT_EQ(aclprofModelUnSubscribe(model_), ACL_ERROR_INVALID_MODEL_ID);
  EXPECT_THAT(LastError(), HasSubstr("not subscribed"));
  EXPECT_EQ(aclprofModelSubscribe(model_, nullptr), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclprofModelSubscribe(model_, config), ACL_SUCCESS);
  EXPECT_EQ(aclprofModelSubscribe(model_, config),
            ACL_ERROR_PROF_REPEAT_SUBSCRIBE);

  // The two ways of profiling exclude each other.
  const char path[] = "/tmp/prof";
  EXPECT_EQ(aclprofInit(path, std::strlen(path)), ACL_ERROR_PROF_API_CONFLICT);
  ASSERT_EQ(aclprofModelUnSubscribe(model_), ACL_SUCCESS);
  ASSERT_EQ(aclprofInit(path, std::strlen(path)), ACL_SUCCESS);
  int other[2] = {-1, -1};
  ASSERT_EQ(pipe(other), 0);
  aclprofSubscribeConfig* second =
      aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &other[1]);
  EXPECT_EQ(aclprofModelSubscribe(model_, second), ACL_ERROR_PROF_API_CONFLICT);
  EXPECT_EQ(aclprofModelUnSubscribe(model_), ACL_ERROR_PROF_API_CONFLICT);
  ASSERT_EQ(aclprofFinalize(), ACL_SUCCESS);

  // A closed pipe is refused at subscribe.
  close(other[1]);
  EXPECT_EQ(aclprofModelSubscribe(model_, second), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("not open for writing"));
  close(other[0]);
  EXPECT_EQ(aclprofDestroySubscribeConfig(second), ACL_SUCCESS);
  EXPECT_EQ(aclprofDestroySubscribeConfig(config), ACL_SUCCESS);
  EXPECT_EQ(aclprofDestroySubscribeConfig(config), ACL_ERROR_INVALID_PARAM);
}

// Unloading a subscribed model ends its subscription.
TEST_F(ProfilingTest, UnloadEndsTheSubscription) {
  aclprofSubscribeConfig* config =
      aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &fds_[1]);
  ASSERT_EQ(aclprofModelSubscribe(model_, config), ACL_SUCCESS);
  ASSERT_EQ(aclmdlUnload(model_), ACL_SUCCESS);
  model_ = 0;
  EXPECT_EQ(fds_[1], -1);
  EXPECT_EQ(aclprofDestroySubscribeConfig(config), ACL_SUCCESS);
}

// A pipe nobody reads never blocks the execute: what does not fit is dropped.
TEST_F(ProfilingTest, AFullPipeDropsRecordsInsteadOfBlocking) {
  ASSERT_GT(fcntl(fds_[1], F_SETPIPE_SZ, 4096), 0);
  aclprofSubscribeConfig* config =
      aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &fds_[1]);
  ASSERT_EQ(aclprofModelSubscribe(model_, config), ACL_SUCCESS);
  for (int i = 0; i < 100; ++i) Execute();  // 300 records, 19 200 bytes
  const std::vector<uint8_t> records = Drain();
  EXPECT_GT(records.size(), 0u);
  EXPECT_LT(records.size(), 300 * record_size_);
  EXPECT_EQ(records.size() % record_size_, 0u);
  ASSERT_EQ(aclprofModelUnSubscribe(model_), ACL_SUCCESS);
  EXPECT_EQ(aclprofDestroySubscribeConfig(config), ACL_SUCCESS);
}

TEST_F(ProfilingTest, InitStartStopFinalize) {
  const char path[] = "/tmp/prof";
  EXPECT_EQ(aclprofInit(nullptr, 4), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofInit(path, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofInit(path, 3), ACL_ERROR_INVALID_PARAM);  // not its length
  EXPECT_EQ(aclprofFinalize(), ACL_ERROR_PROF_NOT_RUN);
  uint32_t devices[] = {0};
  aclprofConfig* config =
      aclprofCreateConfig(devices, 1, ACL_AICORE_NONE, nullptr,
                          ACL_PROF_ACL_API | ACL_PROF_TASK_TIME);
  ASSERT_NE(config, nullptr) << LastError();
  EXPECT_EQ(aclprofStart(config), ACL_ERROR_PROF_NOT_RUN);
  ASSERT_EQ(aclprofInit(path, std::strlen(path)), ACL_SUCCESS);
  EXPECT_EQ(aclprofInit(path, std::strlen(path)), ACL_ERROR_REPEAT_INITIALIZE);
  EXPECT_EQ(aclprofStop(config), ACL_ERROR_INVALID_PARAM);  // not started
  ASSERT_EQ(aclprofStart(config), ACL_SUCCESS);
  EXPECT_EQ(aclprofStart(config), ACL_ERROR_PROF_ALREADY_RUN);
  EXPECT_EQ(aclprofStart(nullptr), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclprofStop(config), ACL_SUCCESS);
  ASSERT_EQ(aclprofFinalize(), ACL_SUCCESS);
  EXPECT_EQ(aclprofDestroyConfig(config), ACL_SUCCESS);
  EXPECT_EQ(aclprofDestroyConfig(config), ACL_ERROR_INVALID_PARAM);

  // Bad configs.
  uint32_t absent[] = {7};
  EXPECT_EQ(aclprofCreateConfig(absent, 1, ACL_AICORE_NONE, nullptr, 0),
            nullptr);
  EXPECT_EQ(aclprofCreateConfig(nullptr, 1, ACL_AICORE_NONE, nullptr, 0),
            nullptr);
  EXPECT_EQ(aclprofCreateConfig(
                devices, 1, static_cast<aclprofAicoreMetrics>(9), nullptr, 0),
            nullptr);
  int events = 0;
  EXPECT_EQ(aclprofCreateConfig(
                devices, 1, ACL_AICORE_NONE,
                reinterpret_cast<const aclprofAicoreEvents*>(&events), 0),
            nullptr);
}

}  // namespace
}  // namespace ascend_emu::acl_test
