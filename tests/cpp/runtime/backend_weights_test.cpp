// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// External weights through the backend: each weight file is uploaded once
// per device and shared by every delegate naming its key (two programs, two
// methods, two partitions), freed with the last one; the load through a
// config handle; every error (missing key, size mismatch, a blob that does
// not match the .om) and every injected ACL fault fails cleanly.
#include <cmath>
#include <memory>
#include <thread>

#include "emulator_fixture.h"
#include "external_om.h"

namespace executorch::backends::ascend::testing {
namespace {

using executorch::aten::ScalarType;
using executorch::runtime::DelegateHandle;
using executorch::runtime::Error;

constexpr char kScaleKey[] = "ascend/om/scale_relu";
constexpr char kShiftKey[] = "ascend/om/shift_relu";
// The weight's device copy: its size rounded up to 32 bytes.
constexpr size_t kWeightDeviceBytes = (kTensorBytes + 31) / 32 * 32;

Error error_of(const executorch::runtime::Result<DelegateHandle*>& r) {
  return r.ok() ? Error::Ok : r.error();
}

class BackendWeights : public AscendEmulatorTest {
 protected:
  static void SetUpTestSuite() {
    AscendEmulatorTest::SetUpTestSuite();
    scale_om_ = new std::vector<uint8_t>(scale_relu_om());
    shift_om_ = new std::vector<uint8_t>(shift_relu_om());
  }
  static void TearDownTestSuite() {
    delete scale_om_;
    delete shift_om_;
    AscendEmulatorTest::TearDownTestSuite();
  }

  void SetUp() override {
    AscendEmulatorTest::SetUp();
    ASSERT_FALSE(scale_om_->empty());
    add_program(data_);
  }

  // What one program's .pte/.ptd holds: both .om files and the weight.
  static void add_program(BytesNamedDataMap& data) {
    data.add(kScaleKey, *scale_om_);
    data.add(kShiftKey, *shift_om_);
    data.add(kWeightKey, weight_bytes());
  }

  // Runs a delegate of scale_relu_om (shift: shift_relu_om) and checks it.
  void expect_runs_right(DelegateHandle* handle, bool shift = false) {
    HostTensor x(ScalarType::Float, {kRows, kCols});
    HostTensor y(ScalarType::Float, {kRows, kCols});
    for (size_t i = 0; i < kElements; ++i) {
      x.floats()[i] = 0.25f * static_cast<float>(i % 11) - 1.0f;
    }
    ASSERT_EQ(execute(handle, {x.evalue(), y.evalue()}), Error::Ok);
    for (size_t i = 0; i < kElements; ++i) {
      const float t =
          shift ? x.floats()[i] + weight_at(i) : x.floats()[i] * weight_at(i);
      ASSERT_EQ(y.floats()[i], std::max(0.0f, t)) << "element " << i;
    }
  }

  // Bytes of device allocations that are external weight copies: what is
  // live beyond the delegates' I/O buffers (one input, one output each).
  size_t weight_bytes_on_device(size_t delegates) {
    return hooks_.stats().live_device_bytes - delegates * 2 * kTensorBytes;
  }

  inline static std::vector<uint8_t>* scale_om_ = nullptr;
  inline static std::vector<uint8_t>* shift_om_ = nullptr;
};

TEST_F(BackendWeights, OneDelegateRunsWithItsWeightOnTheDevice) {
  const uint64_t uploaded_before = hooks_.stats().bytes_host_to_device;
  auto handle = init(external_blob(kScaleKey));
  ASSERT_TRUE(handle.ok());
  EXPECT_EQ(data_.outstanding(), 0) << "weight bytes held after the upload";
  EXPECT_EQ(hooks_.stats().bytes_host_to_device - uploaded_before,
            kTensorBytes);
  EXPECT_EQ(weight_bytes_on_device(1), kWeightDeviceBytes);
  EXPECT_EQ(WeightsCache::get().live(), 1u);
  expect_runs_right(*handle);
  expect_runs_right(*handle);
}

TEST_F(BackendWeights, TwoProgramsShareOneDeviceCopy) {
  BytesNamedDataMap other_program;
  add_program(other_program);
  auto first = init(external_blob(kScaleKey));
  ASSERT_TRUE(first.ok());
  const uint64_t uploaded = hooks_.stats().bytes_host_to_device;
  Arena other_arena;
  auto second =
      init(external_blob(kScaleKey), {}, other_arena.get(), &other_program);
  ASSERT_TRUE(second.ok());
  // Found in the cache: not read from the second program, not uploaded.
  EXPECT_EQ(hooks_.stats().bytes_host_to_device, uploaded);
  EXPECT_EQ(weight_bytes_on_device(2), kWeightDeviceBytes);
  EXPECT_EQ(WeightsCache::get().live(), 1u);
  expect_runs_right(*first);
  expect_runs_right(*second);
  // The copy lives as long as one of them does.
  destroy(*first);
  EXPECT_EQ(WeightsCache::get().live(), 1u);
  EXPECT_EQ(weight_bytes_on_device(1), kWeightDeviceBytes);
  expect_runs_right(*second);
  destroy(*second);
  EXPECT_EQ(WeightsCache::get().live(), 0u);
  expect_nothing_alive(hooks_.stats());
}

TEST_F(BackendWeights, TwoMethodsOfOneProgramShareOneDeviceCopy) {
  Arena& decode_arena = another_arena();
  auto forward = init(external_blob(kScaleKey));
  ASSERT_TRUE(forward.ok());
  auto decode = init(external_blob(kScaleKey), {}, decode_arena.get(), nullptr,
                     true, "decode");
  ASSERT_TRUE(decode.ok());
  EXPECT_EQ(weight_bytes_on_device(2), kWeightDeviceBytes);
  expect_runs_right(*forward);
  expect_runs_right(*decode);
}

TEST_F(BackendWeights, TwoPartitionsShareAWeight) {
  auto scale = init(external_blob(kScaleKey));
  ASSERT_TRUE(scale.ok());
  auto shift = init(external_blob(kShiftKey));
  ASSERT_TRUE(shift.ok());
  EXPECT_EQ(weight_bytes_on_device(2), kWeightDeviceBytes);
  expect_runs_right(*scale);
  expect_runs_right(*shift, /*shift=*/true);
}

TEST_F(BackendWeights, ConcurrentInitsUploadTheWeightOnce) {
  constexpr int kThreads = 4;
  std::vector<Arena*> arenas;
  for (int t = 0; t < kThreads; ++t) {
    arenas.push_back(&another_arena());
  }
  const uint64_t uploaded_before = hooks_.stats().bytes_host_to_device;
  std::vector<DelegateHandle*> handles(kThreads, nullptr);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const BlobSpec spec = external_blob(kScaleKey);
      ProcessedBlob processed(write_blob(spec));
      const CompileSpecs compile_specs(spec);
      executorch::runtime::BackendInitContext context(arenas[t]->get(), nullptr,
                                                      "forward", &data_);
      auto handle =
          backend_->init(context, processed.get(), compile_specs.get());
      if (handle.ok()) handles[t] = *handle;
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (DelegateHandle* handle : handles) {
    ASSERT_NE(handle, nullptr);
    handles_.push_back(handle);  // destroyed by TearDown
  }
  EXPECT_EQ(hooks_.stats().bytes_host_to_device - uploaded_before,
            kTensorBytes);
  EXPECT_EQ(weight_bytes_on_device(kThreads), kWeightDeviceBytes);
  for (DelegateHandle* handle : handles) expect_runs_right(handle);
}

TEST_F(BackendWeights, EachDeviceHoldsItsOwnCopy) {
  BlobSpec on_device_1 = external_blob(kScaleKey);
  on_device_1.device_id = "1";  // EXECUTORCH_ASCEND_EMU_DEVICE_COUNT=2
  auto zero = init(external_blob(kScaleKey));
  ASSERT_TRUE(zero.ok());
  auto one = init(on_device_1);
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(WeightsCache::get().live(), 2u);
  EXPECT_EQ(weight_bytes_on_device(2), 2 * kWeightDeviceBytes);
  expect_runs_right(*zero);
  expect_runs_right(*one);
}

TEST_F(BackendWeights, MissingWeightKeyIsNotFound) {
  BlobSpec spec = external_blob(kScaleKey);
  spec.weights[0].key = "ascend/weight/not-there";
  EXPECT_EQ(error_of(init(spec)), Error::NotFound);
}

TEST_F(BackendWeights, AProgramWithoutTheWeightIsRefusedThoughTheCacheHasIt) {
  auto first = init(external_blob(kScaleKey));
  ASSERT_TRUE(first.ok());
  BytesNamedDataMap without_weight;
  without_weight.add(kScaleKey, *scale_om_);
  Arena other_arena;
  EXPECT_EQ(error_of(init(external_blob(kScaleKey), {}, other_arena.get(),
                          &without_weight)),
            Error::NotFound);
  EXPECT_EQ(WeightsCache::get().live(), 1u);
  expect_runs_right(*first);
}

TEST_F(BackendWeights, SizeMismatchIsInvalidProgram) {
  BlobSpec spec = external_blob(kScaleKey);
  spec.weights[0].size = kTensorBytes + 4;
  EXPECT_EQ(error_of(init(spec)), Error::InvalidProgram);
  // Against a copy another delegate already uploaded, too.
  auto holder = init(external_blob(kScaleKey));
  ASSERT_TRUE(holder.ok());
  EXPECT_EQ(error_of(init(spec)), Error::InvalidProgram);
}

TEST_F(BackendWeights, BlobThatDoesNotMatchTheOmIsInvalidProgram) {
  // A name the .om does not read: ACL refuses the load.
  BlobSpec renamed = external_blob(kScaleKey);
  renamed.weights[0].name = "weight_other";
  EXPECT_EQ(error_of(init(renamed)), Error::InvalidProgram);
  // No weights listed for an .om that reads one.
  BlobSpec none = external_blob(kScaleKey);
  none.weights.clear();
  EXPECT_EQ(error_of(init(none)), Error::InvalidProgram);
  // A second file the .om does not read.
  BlobSpec extra = external_blob(kScaleKey);
  extra.weights.push_back({"weight_extra", kWeightKey, kTensorBytes});
  EXPECT_EQ(error_of(init(extra)), Error::InvalidProgram);
}

TEST_F(BackendWeights, NoNamedDataMapIsNotFound) {
  EXPECT_EQ(error_of(init(external_blob(kScaleKey), {}, nullptr, nullptr,
                          /*use_data=*/false)),
            Error::NotFound);
}

TEST_F(BackendWeights, EveryAclFailureOfTheExternalLoadIsCleanedUp) {
  struct Case {
    const char* function;
    int after;
  };
  const Case cases[] = {
      {"aclrtMalloc", 0},  // the weight's device copy
      {"aclrtMemcpy", 0},  // its upload
      {"aclmdlCreateConfigHandle", 0},
      {"aclmdlSetConfigOpt", 0},  // LOAD_TYPE
      {"aclmdlSetConfigOpt", 1},  // MEM_ADDR
      {"aclmdlSetConfigOpt", 2},  // MEM_SIZE
      {"aclmdlSetExternalWeightAddress", 0},
      {"aclmdlLoadWithConfig", 0},
      {"aclmdlCreateDesc", 0},
  };
  for (const Case& c : cases) {
    hooks_.inject(c.function, c.after, ACL_ERROR_RT_FAILURE);
    EXPECT_NE(error_of(init(external_blob(kScaleKey))), Error::Ok)
        << c.function << " after " << c.after;
    hooks_.clear();
    expect_nothing_alive(hooks_.stats());
    EXPECT_EQ(data_.outstanding(), 0) << c.function;
    EXPECT_EQ(hooks_.finalize_and_reinit(), 0) << c.function;
  }
  // A weight another delegate holds survives the failed one.
  auto holder = init(external_blob(kScaleKey));
  ASSERT_TRUE(holder.ok());
  hooks_.inject("aclmdlLoadWithConfig", 0, ACL_ERROR_RT_FAILURE);
  EXPECT_NE(error_of(init(external_blob(kShiftKey))), Error::Ok);
  hooks_.clear();
  EXPECT_EQ(WeightsCache::get().live(), 1u);
  expect_runs_right(*holder);
}

TEST_F(BackendWeights, FailedConfigHandleDestroyIsAnError) {
  hooks_.inject("aclmdlDestroyConfigHandle", 0, ACL_ERROR_RT_FAILURE);
  EXPECT_EQ(error_of(init(external_blob(kScaleKey))), Error::InvalidState);
  hooks_.clear();
  // The model, its memory and the weight are released; only the handle ACL
  // refused to destroy is left, and aclFinalize names it.
  expect_nothing_alive(hooks_.stats());
  ::testing::internal::CaptureStderr();
  EXPECT_NE(hooks_.finalize_and_reinit(), 0);
  const std::string leaks = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(leaks.find("leaked model config handle"), std::string::npos)
      << leaks;
}

}  // namespace
}  // namespace executorch::backends::ascend::testing
