// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// AscendBackend::init against the CANN emulator: every error path (missing
// named data, a foreign blob, a wrong SoC, wrong .om kind, device choice, ACL
// failures at each step) fails with a clear error and leaks nothing (the
// fixture checks the emulator's live counters after every test).
#include <executorch/runtime/backend/options.h>

#include <cstring>

#include "ascend_delegate.h"
#include "emulator_fixture.h"

namespace executorch::backends::ascend::testing {
namespace {

using executorch::aten::ScalarType;
using executorch::runtime::BackendOption;
using executorch::runtime::BackendOptionContext;
using executorch::runtime::BackendOptions;
using executorch::runtime::Error;
using executorch::runtime::Span;

class BackendInit : public AscendEmulatorTest {};

Error error_of(
    const executorch::runtime::Result<executorch::runtime::DelegateHandle*>&
        r) {
  return r.ok() ? Error::Ok : r.error();
}

int32_t device_of(executorch::runtime::DelegateHandle* handle) {
  return static_cast<AscendDelegate*>(handle)->device_id();
}

TEST_F(BackendInit, MissingNamedDataMap) {
  EXPECT_EQ(
      error_of(init(add_blob(), {}, nullptr, nullptr, /*use_data=*/false)),
      Error::NotFound);
}

TEST_F(BackendInit, MissingKey) {
  BlobSpec spec = add_blob();
  spec.om_key = "ascend/om/not-there";
  EXPECT_EQ(error_of(init(spec)), Error::NotFound);
}

TEST_F(BackendInit, MalformedBlob) {
  BlobSpec spec = add_blob();
  spec.version = 9;
  EXPECT_EQ(error_of(init(spec)), Error::DelegateInvalidCompatibility);
  spec = add_blob();
  spec.om_key = "";
  EXPECT_EQ(error_of(init(spec)), Error::InvalidProgram);
  spec = add_blob();
  spec.device_id = "-1";
  EXPECT_EQ(error_of(init(spec)), Error::InvalidProgram);
  spec.device_id = "one";
  EXPECT_EQ(error_of(init(spec)), Error::InvalidProgram);
}

TEST_F(BackendInit, NullProcessed) {
  executorch::runtime::BackendInitContext context(arena_.get(), nullptr,
                                                  "forward", &data_);
  auto handle = backend_->init(context, nullptr, {});
  EXPECT_EQ(error_of(handle), Error::InvalidArgument);
}

// The I/O slots come from the .om's own description: the right shapes are
// accepted at execute (BackendExecute), and each model gets its own.
TEST_F(BackendInit, SlotsComeFromTheModelDescription) {
  auto add = init(add_blob());
  ASSERT_TRUE(add.ok());
  auto matmul = init(matmul_blob());
  ASSERT_TRUE(matmul.ok());
  HostTensor x(ScalarType::Float, {2, 4});
  HostTensor y(ScalarType::Float, {2, 3});
  EXPECT_EQ(execute(*matmul, {x.evalue(), y.evalue()}), Error::Ok);
  // The add model takes x, y [2, 3] -> z: the matmul model's args do not fit.
  EXPECT_EQ(execute(*add, {x.evalue(), y.evalue()}), Error::InvalidArgument);
  HostTensor a(ScalarType::Float, {2, 3});
  EXPECT_EQ(execute(*add, {y.evalue(), a.evalue(), x.evalue()}),
            Error::InvalidArgument);  // the output must take [2, 3]: x cannot
  EXPECT_EQ(execute(*add, {y.evalue(), a.evalue(), a.evalue()}), Error::Ok);
}

// The SoC each .om was compiled for (the blob's targets) against the
// device's (aclrtGetSocName; the emulator reports Ascend910B1).
TEST_F(BackendInit, SocIsCheckedAgainstTheDevice) {
  BlobSpec spec = add_blob();
  spec.soc_version = "Ascend310P3";
  EXPECT_EQ(error_of(init(spec)), Error::DelegateInvalidCompatibility);
  spec.soc_version = "Ascend910";
  EXPECT_EQ(error_of(init(spec)), Error::DelegateInvalidCompatibility);
  spec.soc_version = "Ascend910B3";  // same family: runs, with a log line
  EXPECT_EQ(error_of(init(spec)), Error::Ok);
}

// Of several targets, the device's own is loaded: here the others' .om
// keys name no named data, so choosing any of them would fail the load.
TEST_F(BackendInit, TheDevicesTargetIsChosen) {
  BlobSpec spec = add_blob();
  const std::string add_key = spec.om_key;
  spec.soc_version = "Ascend310P3";
  spec.om_key = "ascend/om/not-there";
  spec.more_targets = {OmTarget{"Ascend910B3", "ascend/om/not-there-2", {}},
                       OmTarget{"Ascend910B1", add_key, {}},
                       OmTarget{"Ascend310B1", "ascend/om/not-there-3", {}}};
  EXPECT_EQ(error_of(init(spec)), Error::Ok);
  // Without an exact match, the first of the device's family.
  spec.more_targets = {OmTarget{"Ascend910B4", add_key, {}},
                       OmTarget{"Ascend910B3", "ascend/om/not-there-2", {}}};
  EXPECT_EQ(error_of(init(spec)), Error::Ok);
  // None of the device's family: refused, naming what the program has.
  spec.more_targets = {OmTarget{"Ascend310B1", add_key, {}}};
  EXPECT_EQ(error_of(init(spec)), Error::DelegateInvalidCompatibility);
}

TEST_F(BackendInit, CannBuiltOmIsRefusedByTheEmulator) {
  BlobSpec spec = add_blob();
  spec.om_key = "ascend/om/cann";  // no emulator magic: built by CANN's atc
  data_.add(spec.om_key, std::vector<uint8_t>(128, 0x42));
  EXPECT_EQ(error_of(init(spec)), Error::DelegateInvalidCompatibility);
}

TEST_F(BackendInit, CorruptOmFailsToLoad) {
  BlobSpec spec = add_blob();
  spec.om_key = "ascend/om/corrupt";
  std::vector<uint8_t> om(add_om_->begin(),
                          add_om_->begin() + add_om_->size() / 2);
  data_.add(spec.om_key, om);
  const Error error = error_of(init(spec));
  EXPECT_NE(error, Error::Ok);
  EXPECT_TRUE(error == Error::InvalidProgram || error == Error::InvalidState)
      << static_cast<int>(error);
}

TEST_F(BackendInit, RuntimeAllocatorTooSmall) {
  Arena tiny(8);
  EXPECT_EQ(error_of(init(add_blob(), {}, tiny.get())),
            Error::MemoryAllocationFailed);
}

TEST_F(BackendInit, DeviceAllocationFailure) {
  // The add model needs three device buffers; fail the first, second, third.
  for (int after = 0; after < 3; ++after) {
    hooks_.inject("aclrtMalloc", after, ACL_ERROR_RT_MEMORY_ALLOCATION);
    EXPECT_EQ(error_of(init(add_blob())), Error::DelegateMemoryAllocationFailed)
        << "after " << after;
    hooks_.clear();
    expect_nothing_alive(hooks_.stats());
  }
  hooks_.inject("aclrtMalloc", 3, ACL_ERROR_RT_MEMORY_ALLOCATION);
  EXPECT_EQ(error_of(init(add_blob())), Error::Ok);
}

TEST_F(BackendInit, EveryAclFailureInInitIsCleanedUp) {
  struct Case {
    const char* function;
    int after;
  };
  const Case cases[] = {
      {"aclrtSetDevice", 0},         {"aclrtCreateContext", 0},
      {"aclrtSetCurrentContext", 0}, {"aclmdlLoadFromMem", 0},
      {"aclmdlCreateDesc", 0},       {"aclmdlGetDesc", 0},
      {"aclmdlGetInputDims", 0},     {"aclmdlGetInputDims", 1},
      {"aclmdlGetOutputDims", 0},    {"aclmdlCreateDataset", 0},
      {"aclmdlCreateDataset", 1},    {"aclCreateDataBuffer", 0},
      {"aclCreateDataBuffer", 2},    {"aclmdlAddDatasetBuffer", 0},
      {"aclmdlAddDatasetBuffer", 2},
  };
  for (const Case& c : cases) {
    hooks_.inject(c.function, c.after, ACL_ERROR_RT_FAILURE);
    EXPECT_NE(error_of(init(add_blob())), Error::Ok)
        << c.function << " after " << c.after;
    hooks_.clear();
    expect_nothing_alive(hooks_.stats());
    EXPECT_EQ(data_.outstanding(), 0) << c.function;
  }
}

TEST_F(BackendInit, DeviceFromCompileSpec) {
  BlobSpec spec = add_blob();
  spec.device_id =
      "1";  // the test runs with EXECUTORCH_ASCEND_EMU_DEVICE_COUNT=2
  auto handle = init(spec);
  ASSERT_TRUE(handle.ok());
  EXPECT_EQ(device_of(*handle), 1);
  spec.device_id = "2";
  EXPECT_EQ(error_of(init(spec)), Error::InvalidArgument);
}

TEST_F(BackendInit, DeviceFromLoadTimeOption) {
  BackendOptions<2> options;
  ASSERT_EQ(options.set_option("device_id", 1), Error::Ok);
  auto view = options.view();
  auto handle =
      init(add_blob(), Span<const BackendOption>(view.data(), view.size()));
  ASSERT_TRUE(handle.ok());
  EXPECT_EQ(device_of(*handle), 1);

  ASSERT_EQ(options.set_option("device_id", 5), Error::Ok);
  view = options.view();
  EXPECT_EQ(error_of(init(add_blob(),
                          Span<const BackendOption>(view.data(), view.size()))),
            Error::InvalidArgument);

  BackendOptions<1> wrong_type;
  ASSERT_EQ(wrong_type.set_option("device_id", true), Error::Ok);
  view = wrong_type.view();
  EXPECT_EQ(error_of(init(add_blob(),
                          Span<const BackendOption>(view.data(), view.size()))),
            Error::InvalidArgument);
}

TEST_F(BackendInit, DeviceFromSetOption) {
  BackendOptions<1> options;
  ASSERT_EQ(options.set_option("device_id", 1), Error::Ok);
  ASSERT_EQ(executorch::runtime::set_option(kAscendBackendName, options.view()),
            Error::Ok);

  BackendOptions<1> query;
  ASSERT_EQ(query.set_option("device_id", 0), Error::Ok);
  ASSERT_EQ(executorch::runtime::get_option(kAscendBackendName, query.view()),
            Error::Ok);
  int value = -2;
  ASSERT_EQ(query.get_option("device_id", value), Error::Ok);
  EXPECT_EQ(value, 1);

  auto handle = init(add_blob());  // the compile spec says device 0
  ASSERT_TRUE(handle.ok());
  EXPECT_EQ(device_of(*handle), 1);

  // A load-time option beats set_option.
  BackendOptions<1> load_time;
  ASSERT_EQ(load_time.set_option("device_id", 0), Error::Ok);
  auto view = load_time.view();
  auto handle0 =
      init(add_blob(), Span<const BackendOption>(view.data(), view.size()));
  ASSERT_TRUE(handle0.ok());
  EXPECT_EQ(device_of(*handle0), 0);

  // -1 goes back to each program's own device.
  ASSERT_EQ(options.set_option("device_id", -1), Error::Ok);
  ASSERT_EQ(executorch::runtime::set_option(kAscendBackendName, options.view()),
            Error::Ok);
  auto handle_blob = init(add_blob());
  ASSERT_TRUE(handle_blob.ok());
  EXPECT_EQ(device_of(*handle_blob), 0);
}

TEST_F(BackendInit, BadOptionsAreRejected) {
  BackendOptions<1> unknown;
  ASSERT_EQ(unknown.set_option("threads", 4), Error::Ok);
  EXPECT_EQ(executorch::runtime::set_option(kAscendBackendName, unknown.view()),
            Error::InvalidArgument);
  BackendOptions<1> negative;
  ASSERT_EQ(negative.set_option("device_id", -7), Error::Ok);
  EXPECT_EQ(
      executorch::runtime::set_option(kAscendBackendName, negative.view()),
      Error::InvalidArgument);
  BackendOptions<1> not_int;
  ASSERT_EQ(not_int.set_option("device_id", "one"), Error::Ok);
  EXPECT_EQ(executorch::runtime::set_option(kAscendBackendName, not_int.view()),
            Error::InvalidArgument);
}

}  // namespace
}  // namespace executorch::backends::ascend::testing
