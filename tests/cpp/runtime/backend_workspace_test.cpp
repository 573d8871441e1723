// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The load-time "workspace" option: "acl" (ACL allocates each model's work
// memory), "delegate" (the backend does, per delegate) and "shared" (the
// delegates of one method share one work buffer): the numbers, the device
// memory each uses, the growth rule of the shared buffer, the option's
// checks, and the ACL failures of the caller-memory load paths.
#include <executorch/runtime/backend/options.h>

#include <cmath>
#include <cstring>

#include "emulator_fixture.h"
#include "external_om.h"

namespace executorch::backends::ascend::testing {
namespace {

using executorch::aten::ScalarType;
using executorch::runtime::BackendOption;
using executorch::runtime::BackendOptions;
using executorch::runtime::DelegateHandle;
using executorch::runtime::Error;
using executorch::runtime::Span;

constexpr char kScaleKey[] = "ascend/om/scale_relu";  // external weight
constexpr char kSmallKey[] = "ascend/om/small";       // inline weight

Error error_of(const executorch::runtime::Result<DelegateHandle*>& r) {
  return r.ok() ? Error::Ok : r.error();
}

// A load-time "workspace" option; the view must outlive the init call.
class WorkspaceSpec {
 public:
  explicit WorkspaceSpec(const char* mode) {
    EXPECT_EQ(options_.set_option("workspace", mode), Error::Ok);
  }
  Span<const BackendOption> get() {
    auto view = options_.view();
    return {view.data(), view.size()};
  }

 private:
  BackendOptions<1> options_;
};

BlobSpec small_blob() {
  BlobSpec spec;
  spec.om_key = kSmallKey;
  return spec;
}

class BackendWorkspace : public AscendEmulatorTest {
 protected:
  static void SetUpTestSuite() {
    AscendEmulatorTest::SetUpTestSuite();
    scale_om_ = new std::vector<uint8_t>(scale_relu_om());
    small_om_ = new std::vector<uint8_t>(small_inline_om());
  }
  static void TearDownTestSuite() {
    delete scale_om_;
    delete small_om_;
    AscendEmulatorTest::TearDownTestSuite();
  }
  void SetUp() override {
    AscendEmulatorTest::SetUp();
    ASSERT_FALSE(scale_om_->empty());
    ASSERT_FALSE(small_om_->empty());
    data_.add(kScaleKey, *scale_om_);
    data_.add(kSmallKey, *small_om_);
    data_.add(kWeightKey, weight_bytes());
  }

  // Runs a delegate of scale_relu_om ([kRows, kCols]) or small_inline_om
  // ([2, 3]) and checks its numbers.
  void expect_runs_right(DelegateHandle* handle, bool small) {
    const size_t n = small ? 6 : kElements;
    const std::vector<HostTensor::SizesType> sizes =
        small ? std::vector<HostTensor::SizesType>{2, 3}
              : std::vector<HostTensor::SizesType>{kRows, kCols};
    HostTensor x(ScalarType::Float, sizes);
    HostTensor y(ScalarType::Float, sizes);
    for (size_t i = 0; i < n; ++i) {
      x.floats()[i] = 0.5f * static_cast<float>(i % 5) - 1.0f;
    }
    ASSERT_EQ(execute(handle, {x.evalue(), y.evalue()}), Error::Ok);
    for (size_t i = 0; i < n; ++i) {
      ASSERT_EQ(y.floats()[i], std::max(0.0f, x.floats()[i] * weight_at(i)))
          << "element " << i;
    }
  }

  inline static std::vector<uint8_t>* scale_om_ = nullptr;
  inline static std::vector<uint8_t>* small_om_ = nullptr;
};

// Three delegates of the large model and one of the small one in one
// method, initialised largest first, under each mode.
struct MethodFootprint {
  size_t device_used = 0;    // aclrtGetMemInfo: allocations + ACL's own
  uint64_t allocations = 0;  // live aclrtMalloc allocations
};

TEST_F(BackendWorkspace, EveryModeRunsRightAndUsesTheMemoryItSays) {
  MethodFootprint footprint[3];
  const char* modes[3] = {"acl", "delegate", "shared"};
  for (int m = 0; m < 3; ++m) {
    WorkspaceSpec spec(modes[m]);
    std::vector<DelegateHandle*> delegates;
    for (int i = 0; i < 3; ++i) {
      auto handle = init(external_blob(kScaleKey), spec.get());
      ASSERT_TRUE(handle.ok()) << modes[m];
      delegates.push_back(*handle);
    }
    auto small = init(small_blob(), spec.get());
    ASSERT_TRUE(small.ok()) << modes[m];
    for (DelegateHandle* handle : delegates) {
      expect_runs_right(handle, /*small=*/false);
    }
    expect_runs_right(*small, /*small=*/true);
    footprint[m] = {hooks_.device_used(0), hooks_.stats().live_device_allocs};
    for (DelegateHandle* handle : delegates) destroy(handle);
    destroy(*small);
    expect_nothing_alive(hooks_.stats());
  }
  size_t large_work = 0;
  size_t large_weight = 0;
  size_t small_work = 0;
  size_t small_weight = 0;
  hooks_.query_sizes(*scale_om_, &large_work, &large_weight);
  hooks_.query_sizes(*small_om_, &small_work, &small_weight);
  ASSERT_GT(large_work, small_work);
  ASSERT_GT(small_work, 0u);
  ASSERT_GT(small_weight, 0u);
  EXPECT_EQ(large_weight, 0u);  // its weight is the external file
  // I/O buffers (2 per delegate) and the one weight copy in every mode.
  EXPECT_EQ(footprint[0].allocations, 4u * 2u + 1u);
  // "delegate": the backend allocates 4 work buffers and the small model's
  // inline weights: as much memory as ACL took, in the backend's hands.
  EXPECT_EQ(footprint[1].allocations, footprint[0].allocations + 4u + 1u);
  EXPECT_EQ(footprint[1].device_used, footprint[0].device_used);
  // "shared": one work buffer for the method, the largest.
  EXPECT_EQ(footprint[2].allocations, footprint[0].allocations + 1u + 1u);
  EXPECT_EQ(footprint[1].device_used - footprint[2].device_used,
            2 * large_work + small_work);
}

// Issue 14: in every mode, a delegate's init puts each weight byte in device
// memory exactly once. Inline weights: the emulator copies the .om's weight
// section once (into ACL's memory, or the backend's weight buffer), nothing
// goes through aclrtMemcpy. An external weight file: the backend uploads it
// once from the named data, and the emulator reads it in place.
TEST_F(BackendWorkspace, EveryModeLoadsEachWeightByteOnce) {
  size_t small_work = 0;
  size_t small_weight = 0;
  hooks_.query_sizes(*small_om_, &small_work, &small_weight);
  ASSERT_GT(small_weight, 0u);
  for (const char* mode : {"acl", "delegate", "shared"}) {
    WorkspaceSpec spec(mode);
    const aclEmuStats before = hooks_.stats();
    auto small = init(small_blob(), spec.get());
    ASSERT_TRUE(small.ok()) << mode;
    const aclEmuStats inline_loaded = hooks_.stats();
    EXPECT_EQ(inline_loaded.weight_bytes_loaded - before.weight_bytes_loaded,
              small_weight)
        << mode;
    EXPECT_EQ(inline_loaded.bytes_host_to_device, before.bytes_host_to_device)
        << mode;
    auto large = init(external_blob(kScaleKey), spec.get());
    ASSERT_TRUE(large.ok()) << mode;
    const aclEmuStats external_loaded = hooks_.stats();
    EXPECT_EQ(external_loaded.weight_bytes_loaded,
              inline_loaded.weight_bytes_loaded)
        << mode;
    EXPECT_EQ(external_loaded.weight_file_bytes_read,
              inline_loaded.weight_file_bytes_read)
        << mode;
    EXPECT_EQ(external_loaded.bytes_host_to_device -
                  inline_loaded.bytes_host_to_device,
              weight_bytes().size())
        << mode;
    expect_runs_right(*small, /*small=*/true);
    expect_runs_right(*large, /*small=*/false);
    destroy(*small);
    destroy(*large);
    expect_nothing_alive(hooks_.stats());
  }
}

TEST_F(BackendWorkspace, ALargerDelegateGrowsTheSharedBufferForLaterOnes) {
  WorkspaceSpec spec("shared");
  auto small_first = init(small_blob(), spec.get());
  ASSERT_TRUE(small_first.ok());
  const uint64_t allocations = hooks_.stats().live_device_allocs;
  auto large = init(external_blob(kScaleKey), spec.get());
  ASSERT_TRUE(large.ok());
  // I/O, the weight copy, and a larger work buffer.
  EXPECT_EQ(hooks_.stats().live_device_allocs, allocations + 2u + 1u + 1u);
  auto small_after = init(small_blob(), spec.get());
  ASSERT_TRUE(small_after.ok());
  // I/O and inline weights only: it shares the larger buffer.
  EXPECT_EQ(hooks_.stats().live_device_allocs, allocations + 4u + 2u + 1u);
  EXPECT_EQ(SharedWorkspaces::get().live(), 1u);
  // The larger buffer outlives the delegate that made it while another
  // uses it; every delegate still runs right.
  destroy(*large);
  expect_runs_right(*small_first, true);
  expect_runs_right(*small_after, true);
  EXPECT_EQ(SharedWorkspaces::get().live(), 1u);
}

TEST_F(BackendWorkspace, EachMethodHasItsOwnSharedBuffer) {
  WorkspaceSpec spec("shared");
  Arena& decode_arena = another_arena();
  auto forward = init(external_blob(kScaleKey), spec.get());
  ASSERT_TRUE(forward.ok());
  auto forward_again = init(external_blob(kScaleKey), spec.get());
  ASSERT_TRUE(forward_again.ok());
  EXPECT_EQ(SharedWorkspaces::get().live(), 1u);
  auto decode = init(external_blob(kScaleKey), spec.get(), decode_arena.get(),
                     nullptr, true, "decode");
  ASSERT_TRUE(decode.ok());
  EXPECT_EQ(SharedWorkspaces::get().live(), 2u);
  expect_runs_right(*forward, false);
  expect_runs_right(*forward_again, false);
  expect_runs_right(*decode, false);
}

TEST_F(BackendWorkspace, OptionValuesAreChecked) {
  WorkspaceSpec bogus("bogus");
  EXPECT_EQ(error_of(init(small_blob(), bogus.get())), Error::InvalidArgument);
  BackendOptions<1> wrong_type;
  ASSERT_EQ(wrong_type.set_option("workspace", 1), Error::Ok);
  auto view = wrong_type.view();
  EXPECT_EQ(error_of(init(small_blob(),
                          Span<const BackendOption>(view.data(), view.size()))),
            Error::InvalidArgument);
  // set_option: the same values, as a process-wide default.
  EXPECT_EQ(
      executorch::runtime::set_option(kAscendBackendName, wrong_type.view()),
      Error::InvalidArgument);
  BackendOptions<1> bad_name;
  ASSERT_EQ(bad_name.set_option("workspace", "everything"), Error::Ok);
  EXPECT_EQ(
      executorch::runtime::set_option(kAscendBackendName, bad_name.view()),
      Error::InvalidArgument);
  BackendOptions<1> shared;
  ASSERT_EQ(shared.set_option("workspace", "shared"), Error::Ok);
  ASSERT_EQ(executorch::runtime::set_option(kAscendBackendName, shared.view()),
            Error::Ok);
  BackendOptions<1> query;
  ASSERT_EQ(query.set_option("workspace", ""), Error::Ok);
  ASSERT_EQ(executorch::runtime::get_option(kAscendBackendName, query.view()),
            Error::Ok);
  const char* value = nullptr;
  ASSERT_EQ(query.get_option("workspace", value), Error::Ok);
  EXPECT_STREQ(value, "shared");
  // The default applies: two delegates, one work buffer.
  auto first = init(external_blob(kScaleKey));
  ASSERT_TRUE(first.ok());
  auto second = init(external_blob(kScaleKey));
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(SharedWorkspaces::get().live(), 1u);
  // A load-time option beats it.
  WorkspaceSpec acl("acl");
  const uint64_t allocations = hooks_.stats().live_device_allocs;
  auto third = init(external_blob(kScaleKey), acl.get());
  ASSERT_TRUE(third.ok());
  EXPECT_EQ(hooks_.stats().live_device_allocs, allocations + 2u);  // I/O only
}

TEST_F(BackendWorkspace, AclFailuresOfTheCallerMemoryPathsAreCleanedUp) {
  struct Case {
    const char* function;
    int after;
    bool external;
  };
  const Case cases[] = {
      {"aclmdlQuerySizeFromMem", 0, false},
      {"aclrtMalloc", 0, false},  // work memory
      {"aclrtMalloc", 1, false},  // inline weight memory
      {"aclmdlLoadFromMemWithMem", 0, false},
      {"aclmdlQuerySizeFromMem", 0, true},
      {"aclrtMalloc", 1, true},         // work memory (0 is the weight)
      {"aclmdlSetConfigOpt", 3, true},  // WORKSPACE_ADDR
      {"aclmdlSetConfigOpt", 4, true},  // WORKSPACE_SIZE
      {"aclmdlLoadWithConfig", 0, true},
  };
  for (const char* mode : {"delegate", "shared"}) {
    WorkspaceSpec spec(mode);
    for (const Case& c : cases) {
      hooks_.inject(c.function, c.after, ACL_ERROR_RT_FAILURE);
      EXPECT_NE(
          error_of(init(c.external ? external_blob(kScaleKey) : small_blob(),
                        spec.get())),
          Error::Ok)
          << mode << " " << c.function << " after " << c.after;
      hooks_.clear();
      expect_nothing_alive(hooks_.stats());
      EXPECT_EQ(data_.outstanding(), 0) << c.function;
      EXPECT_EQ(hooks_.finalize_and_reinit(), 0) << c.function;
    }
  }
}

}  // namespace
}  // namespace executorch::backends::ascend::testing
