// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Device state through the backend (a KV cache in miniature): a running sum
// s the .om reads as input 1 and writes as output 1 stays on the device
// between executes, only x and y cross, it starts from zeros or from named
// data at every init, two delegates never share it, a failed execute leaves
// it as it was, and every malformed state entry or ACL fault at init fails
// cleanly (the fixture checks nothing is left alive).
#include "ascend_delegate.h"
#include "emulator_fixture.h"
#include "om_builder.h"

namespace executorch::backends::ascend::testing {
namespace {

using executorch::aten::ScalarType;
using executorch::runtime::DelegateHandle;
using executorch::runtime::Error;

constexpr char kAccumulateKey[] = "ascend/om/accumulate";
constexpr char kInitialKey[] = "ascend/state/initial";
constexpr size_t kCount = 6;
constexpr size_t kBytes = kCount * sizeof(float);

Error error_of(const executorch::runtime::Result<DelegateHandle*>& r) {
  return r.ok() ? Error::Ok : r.error();
}

class BackendState : public AscendEmulatorTest {
 protected:
  static void SetUpTestSuite() {
    AscendEmulatorTest::SetUpTestSuite();
    std::string error;
    om_ = new std::vector<uint8_t>(
        compile_with_atc(accumulate_model_onnx(), "accumulate", &error));
  }
  static void TearDownTestSuite() {
    delete om_;
    AscendEmulatorTest::TearDownTestSuite();
  }

  void SetUp() override {
    AscendEmulatorTest::SetUp();
    ASSERT_FALSE(om_->empty());
    data_.add(kAccumulateKey, *om_);
    std::vector<uint8_t> initial(kBytes);
    for (size_t i = 0; i < kCount; ++i) {
      const float v = 10.0f * static_cast<float>(i);
      std::memcpy(initial.data() + i * sizeof(float), &v, sizeof(float));
    }
    data_.add(kInitialKey, initial);
  }

  static BlobSpec state_blob(const std::string& initial_key = "") {
    BlobSpec spec;
    spec.om_key = kAccumulateKey;
    spec.states.push_back({"total", 1, 1, kBytes, initial_key});
    return spec;
  }

  // Executes with x[i] = step + i and checks y = 2 * (start + sum of x).
  void step(DelegateHandle* handle, std::vector<float>& sum, int n) {
    HostTensor x(ScalarType::Float, {2, 3});
    HostTensor y(ScalarType::Float, {2, 3});
    for (size_t i = 0; i < kCount; ++i) {
      x.floats()[i] = static_cast<float>(n) + 0.5f * static_cast<float>(i);
      sum[i] += x.floats()[i];
    }
    ASSERT_EQ(execute(handle, {x.evalue(), y.evalue()}), Error::Ok);
    for (size_t i = 0; i < kCount; ++i) {
      ASSERT_EQ(y.floats()[i], 2.0f * sum[i]) << "step " << n << " i " << i;
    }
  }

  inline static std::vector<uint8_t>* om_ = nullptr;
};

TEST_F(BackendState, CarriesOverAndOnlyUserIoCrosses) {
  auto handle = init(state_blob());
  ASSERT_TRUE(handle.ok());
  std::vector<float> sum(kCount, 0.0f);
  for (int n = 0; n < 4; ++n) {
    const aclEmuStats before = hooks_.stats();
    step(*handle, sum, n);
    const aclEmuStats after = hooks_.stats();
    EXPECT_EQ(after.bytes_host_to_device - before.bytes_host_to_device, kBytes);
    EXPECT_EQ(after.bytes_device_to_host - before.bytes_device_to_host, kBytes);
  }
}

TEST_F(BackendState, StartsFromNamedDataAtEveryInit) {
  auto first = init(state_blob(kInitialKey));
  ASSERT_TRUE(first.ok());
  std::vector<float> sum(kCount);
  for (size_t i = 0; i < kCount; ++i) sum[i] = 10.0f * static_cast<float>(i);
  const std::vector<float> initial = sum;
  step(*first, sum, 0);
  step(*first, sum, 1);
  // A second delegate starts over, and the first is not disturbed by it.
  auto second = init(state_blob(kInitialKey));
  ASSERT_TRUE(second.ok());
  std::vector<float> other = initial;
  step(*second, other, 5);
  step(*first, sum, 2);
  step(*second, other, 6);
}

TEST_F(BackendState, AFailedExecuteLeavesTheStateAsItWas) {
  auto handle = init(state_blob());
  ASSERT_TRUE(handle.ok());
  std::vector<float> sum(kCount, 0.0f);
  step(*handle, sum, 0);
  hooks_.inject("aclmdlExecuteAsync", 0, ACL_ERROR_RT_FAILURE);
  HostTensor x(ScalarType::Float, {2, 3});
  HostTensor y(ScalarType::Float, {2, 3});
  EXPECT_EQ(execute(*handle, {x.evalue(), y.evalue()}), Error::InvalidState);
  hooks_.clear();
  step(*handle, sum, 1);
  // A run that fails on the device, reported by the stream's
  // synchronisation (ACL_ERROR_RT_MODEL_EXECUTE), wrote no new state either.
  hooks_.fail_next_run(static_cast<AscendDelegate*>(*handle)->model_id());
  EXPECT_EQ(execute(*handle, {x.evalue(), y.evalue()}), Error::InvalidState);
  step(*handle, sum, 2);
}

TEST_F(BackendState, TheDelegateTakesOnlyTheUserArguments) {
  auto handle = init(state_blob());
  ASSERT_TRUE(handle.ok());
  HostTensor x(ScalarType::Float, {2, 3});
  HostTensor s(ScalarType::Float, {2, 3});
  HostTensor y(ScalarType::Float, {2, 3});
  HostTensor s_out(ScalarType::Float, {2, 3});
  EXPECT_EQ(
      execute(*handle, {x.evalue(), s.evalue(), y.evalue(), s_out.evalue()}),
      Error::InvalidArgument);
}

TEST_F(BackendState, MalformedEntriesAreInvalidProgram) {
  BlobSpec spec = state_blob();
  spec.states[0].input_index = 2;  // the .om has 2 inputs
  EXPECT_EQ(error_of(init(spec)), Error::InvalidProgram);
  spec = state_blob();
  spec.states[0].output_index = 2;
  EXPECT_EQ(error_of(init(spec)), Error::InvalidProgram);
  spec = state_blob();
  spec.states[0].size = kBytes + 4;  // not the slots' size
  EXPECT_EQ(error_of(init(spec)), Error::InvalidProgram);
}

TEST_F(BackendState, InitialValueErrors) {
  EXPECT_EQ(error_of(init(state_blob("ascend/state/missing"))),
            Error::NotFound);
  data_.add("ascend/state/short", std::vector<uint8_t>(kBytes - 4));
  EXPECT_EQ(error_of(init(state_blob("ascend/state/short"))),
            Error::InvalidProgram);
}

TEST_F(BackendState, AclFaultsWhileSettingTheStateAreCleanedUp) {
  hooks_.inject("aclrtMemset", 0, ACL_ERROR_RT_FAILURE);
  EXPECT_EQ(error_of(init(state_blob())), Error::InvalidState);
  hooks_.clear();
  // The upload of the initial value: the first host-to-device copy at init.
  hooks_.inject("aclrtMemcpy", 0, ACL_ERROR_RT_FAILURE);
  EXPECT_EQ(error_of(init(state_blob(kInitialKey))), Error::InvalidState);
  hooks_.clear();
  auto handle = init(state_blob());
  ASSERT_TRUE(handle.ok());
  std::vector<float> sum(kCount, 0.0f);
  step(*handle, sum, 0);
}

}  // namespace
}  // namespace executorch::backends::ascend::testing
