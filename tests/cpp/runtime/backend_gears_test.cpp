// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Shape gears through the backend: a model compiled with atc
// --dynamic_batch_size=1,2,4 runs each gear right (the delegate picks the
// gear from the input's shape, sets it with aclmdlSetDynamicBatchSize and
// sizes the output from aclmdlGetCurOutputDims), copies only that gear's
// bytes, refuses a batch that is no gear, and hides the gear input from
// ExecuTorch. Sequence gears (--dynamic_dims) run through the same code; the
// Python tests cover them end to end.
#include "emulator_fixture.h"
#include "om_builder.h"

namespace executorch::backends::ascend::testing {
namespace {

using executorch::aten::ScalarType;
using executorch::runtime::Error;

constexpr char kGearsKey[] = "ascend/om/batch_scale";

class BackendGears : public AscendEmulatorTest {
 protected:
  static void SetUpTestSuite() {
    AscendEmulatorTest::SetUpTestSuite();
    error_ = new std::string;
    om_ = new std::vector<uint8_t>(
        compile_with_atc(batch_scale_model_onnx(), "batch_scale", error_,
                         "--input_shape=x:-1,3 --dynamic_batch_size=1,2,4"));
  }
  static void TearDownTestSuite() {
    delete om_;
    delete error_;
    AscendEmulatorTest::TearDownTestSuite();
  }
  void SetUp() override {
    AscendEmulatorTest::SetUp();
    ASSERT_FALSE(om_->empty()) << *error_;
    data_.add(kGearsKey, *om_);
  }
  static BlobSpec gears_blob() {
    BlobSpec spec;
    spec.om_key = kGearsKey;
    return spec;
  }

  inline static std::vector<uint8_t>* om_ = nullptr;
  inline static std::string* error_ = nullptr;
};

TEST_F(BackendGears, EachGearRunsRightAndCopiesOnlyItsBytes) {
  auto handle = init(gears_blob());
  ASSERT_TRUE(handle.ok());
  // The output's capacity is the largest gear; it is resized to each.
  int previous = 0;
  for (int batch : {2, 1, 4, 4, 1}) {
    HostTensor x(ScalarType::Float, {batch, 3});
    HostTensor y(ScalarType::Float, {4, 3}, {}, /*dynamic_bound=*/true);
    for (int i = 0; i < 3 * batch; ++i) {
      x.floats()[i] = 0.5f * static_cast<float>(i) - 1.0f;
    }
    const aclEmuStats before = hooks_.stats();
    ASSERT_EQ(execute(*handle, {x.evalue(), y.evalue()}), Error::Ok) << batch;
    const aclEmuStats after = hooks_.stats();
    ASSERT_EQ(y.evalue()->toTensor().size(0), batch);
    for (int i = 0; i < 3 * batch; ++i) {
      ASSERT_EQ(y.floats()[i], 3.0f * x.floats()[i]) << batch << " " << i;
    }
    const uint64_t bytes = 3 * sizeof(float) * static_cast<uint64_t>(batch);
    EXPECT_EQ(after.bytes_device_to_host - before.bytes_device_to_host, bytes);
    // The input's bytes; the gear value only when the gear changes.
    const uint64_t in =
        after.bytes_host_to_device - before.bytes_host_to_device;
    if (batch == previous) {
      EXPECT_EQ(in, bytes);
    } else {
      EXPECT_GE(in, bytes);
      EXPECT_LE(in, bytes + 8);
    }
    previous = batch;
  }
}

TEST_F(BackendGears, ABatchThatIsNoGearIsRefused) {
  auto handle = init(gears_blob());
  ASSERT_TRUE(handle.ok());
  HostTensor x(ScalarType::Float, {3, 3});
  HostTensor y(ScalarType::Float, {4, 3}, {}, /*dynamic_bound=*/true);
  const uint64_t executes_before = executes();
  EXPECT_EQ(execute(*handle, {x.evalue(), y.evalue()}), Error::InvalidArgument);
  EXPECT_EQ(executes(), executes_before);
  // The delegate still runs a gear afterwards.
  HostTensor x2(ScalarType::Float, {2, 3});
  x2.floats()[5] = 7.0f;
  EXPECT_EQ(execute(*handle, {x2.evalue(), y.evalue()}), Error::Ok);
  EXPECT_EQ(y.floats()[5], 21.0f);
}

TEST_F(BackendGears, TheGearInputIsNoArgument) {
  auto handle = init(gears_blob());
  ASSERT_TRUE(handle.ok());
  HostTensor x(ScalarType::Float, {1, 3});
  HostTensor gear(ScalarType::Int, {1});
  HostTensor y(ScalarType::Float, {4, 3}, {}, /*dynamic_bound=*/true);
  EXPECT_EQ(execute(*handle, {x.evalue(), gear.evalue(), y.evalue()}),
            Error::InvalidArgument);
}

TEST_F(BackendGears, AclFaultsOfTheGearCallsAreCleanedUp) {
  for (const char* function :
       {"aclmdlGetInputIndexByName", "aclmdlGetDynamicBatch",
        "aclmdlSetDynamicBatchSize", "aclmdlGetCurOutputDims"}) {
    hooks_.inject(function, 0, ACL_ERROR_RT_FAILURE);
    auto handle = init(gears_blob());
    // A failing name lookup reads as a model without gears, whose -1 dims
    // are then refused.
    EXPECT_FALSE(handle.ok()) << function;
    hooks_.clear();
  }
  auto handle = init(gears_blob());
  ASSERT_TRUE(handle.ok());
  hooks_.inject("aclmdlSetDynamicBatchSize", 0, ACL_ERROR_RT_FAILURE);
  HostTensor x(ScalarType::Float, {2, 3});
  HostTensor y(ScalarType::Float, {4, 3}, {}, /*dynamic_bound=*/true);
  EXPECT_EQ(execute(*handle, {x.evalue(), y.evalue()}), Error::InvalidState);
  hooks_.clear();
  EXPECT_EQ(execute(*handle, {x.evalue(), y.evalue()}), Error::Ok);
}

}  // namespace
}  // namespace executorch::backends::ascend::testing
