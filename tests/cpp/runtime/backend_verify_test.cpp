// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Named data verified against the SHA-256 its key names (content_digest.h):
// with the "verify_weights" option (load-time, set_option or
// EXECUTORCH_ASCEND_VERIFY_WEIGHTS=1) a flipped byte in the .om, an external
// weight or a state's initial value is a clean InvalidExternalData at init,
// nothing left alive; without it the same bytes load (and compute something
// else: what the check is for). A verifying delegate never reuses a device
// copy another delegate uploaded unchecked.
#include <openssl/sha.h>

#include <cstdlib>
#include <cstring>

#include "content_digest.h"
#include "emulator_fixture.h"
#include "external_om.h"
#include "log_capture.h"

namespace executorch::backends::ascend::testing {
namespace {

using executorch::aten::ScalarType;
using executorch::runtime::BackendOption;
using executorch::runtime::BackendOptions;
using executorch::runtime::DelegateHandle;
using executorch::runtime::Error;
using executorch::runtime::Span;

Error error_of(const executorch::runtime::Result<DelegateHandle*>& r) {
  return r.ok() ? Error::Ok : r.error();
}

// "<prefix><sha256 of bytes>", as the Python side names named data.
std::string key_of(const std::string& prefix,
                   const std::vector<uint8_t>& bytes) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(bytes.data(), bytes.size(), digest);
  std::string key = prefix;
  char hex[3];
  for (unsigned char byte : digest) {
    std::snprintf(hex, sizeof(hex), "%02x", byte);
    key += hex;
  }
  return key;
}

// A load-time "verify_weights" option; the view must outlive the init call.
class VerifySpec {
 public:
  explicit VerifySpec(bool on) {
    EXPECT_EQ(options_.set_option("verify_weights", on), Error::Ok);
  }
  Span<const BackendOption> get() {
    auto view = options_.view();
    return {view.data(), view.size()};
  }

 private:
  BackendOptions<1> options_;
};

// Sets an environment variable for one scope.
class ScopedVariable {
 public:
  ScopedVariable(const char* name, const char* value) : name_(name) {
    EXPECT_EQ(setenv(name, value, 1), 0);
  }
  ~ScopedVariable() { unsetenv(name_); }

 private:
  const char* name_;
};

class BackendVerify : public AscendEmulatorTest {
 protected:
  static void SetUpTestSuite() {
    AscendEmulatorTest::SetUpTestSuite();
    om_ = new std::vector<uint8_t>(scale_relu_om());
    std::string error;
    state_om_ = new std::vector<uint8_t>(
        compile_with_atc(accumulate_model_onnx(), "accumulate", &error));
  }
  static void TearDownTestSuite() {
    delete om_;
    delete state_om_;
    AscendEmulatorTest::TearDownTestSuite();
  }

  void SetUp() override {
    AscendEmulatorTest::SetUp();
    ASSERT_FALSE(om_->empty());
    ASSERT_FALSE(state_om_->empty());
    unsetenv(kVerifyWeightsVariable);
    om_key_ = key_of("ascend/om/", *om_);
    weight_key_ = key_of("ascend/weight/", weight_bytes());
    data_.add(om_key_, *om_);
    data_.add(weight_key_, weight_bytes());
  }

  BlobSpec blob() const {
    BlobSpec spec;
    spec.om_key = om_key_;
    spec.weights.push_back({kWeightName, weight_key_, kTensorBytes});
    return spec;
  }

  // y = Relu(x * w) with the weight the key names; false on any difference.
  bool runs_right(DelegateHandle* handle) {
    HostTensor x(ScalarType::Float, {kRows, kCols});
    HostTensor y(ScalarType::Float, {kRows, kCols});
    for (size_t i = 0; i < kElements; ++i) {
      x.floats()[i] = 0.25f * static_cast<float>(i % 11) - 1.0f;
    }
    EXPECT_EQ(execute(handle, {x.evalue(), y.evalue()}), Error::Ok);
    for (size_t i = 0; i < kElements; ++i) {
      if (y.floats()[i] != std::max(0.0f, x.floats()[i] * weight_at(i))) {
        return false;
      }
    }
    return true;
  }

  // The weight's bytes with one byte flipped: a float's high byte, so the
  // product changes wherever x is positive.
  static std::vector<uint8_t> corrupted_weight() {
    std::vector<uint8_t> bytes = weight_bytes();
    bytes[4 * 100 + 3] ^= 0x40;
    return bytes;
  }

  inline static std::vector<uint8_t>* om_ = nullptr;
  inline static std::vector<uint8_t>* state_om_ = nullptr;
  std::string om_key_;
  std::string weight_key_;
};

TEST_F(BackendVerify, IntactProgramLoadsAndRunsVerified) {
  VerifySpec verify(true);
  auto handle = init(blob(), verify.get());
  ASSERT_TRUE(handle.ok());
  EXPECT_TRUE(runs_right(*handle));
}

TEST_F(BackendVerify, CorruptedWeightIsACleanErrorNamingItsKey) {
  data_.add(weight_key_, corrupted_weight());
  VerifySpec verify(true);
  LogCapture log;
  EXPECT_EQ(error_of(init(blob(), verify.get())), Error::InvalidExternalData);
  const std::string text = log.take();
  EXPECT_NE(text.find(weight_key_ + "' (external weight 'weight_w'"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("is corrupted"), std::string::npos) << text;
  // Unchecked, the same bytes load and give other numbers.
  auto unchecked = init(blob());
  ASSERT_TRUE(unchecked.ok());
  EXPECT_FALSE(runs_right(*unchecked));
}

TEST_F(BackendVerify, CorruptedOmIsACleanError) {
  std::vector<uint8_t> om = *om_;
  om[om.size() / 2] ^= 0x01;
  data_.add(om_key_, om);
  VerifySpec verify(true);
  LogCapture log;
  EXPECT_EQ(error_of(init(blob(), verify.get())), Error::InvalidExternalData);
  const std::string text = log.take();
  EXPECT_NE(text.find("the compiled model for Ascend910B1"), std::string::npos)
      << text;
}

TEST_F(BackendVerify, CorruptedStateInitialValueIsACleanError) {
  const std::vector<uint8_t> initial(6 * sizeof(float), 0x3f);
  const std::string initial_key = key_of("ascend/state/", initial);
  const std::string state_om_key = key_of("ascend/om/", *state_om_);
  data_.add(state_om_key, *state_om_);
  BlobSpec spec;
  spec.om_key = state_om_key;
  spec.states.push_back({"total", 1, 1, initial.size(), initial_key});
  VerifySpec verify(true);
  data_.add(initial_key, initial);
  EXPECT_EQ(error_of(init(spec, verify.get())), Error::Ok);
  std::vector<uint8_t> flipped = initial;
  flipped[5] ^= 0x10;
  data_.add(initial_key, flipped);
  LogCapture log;
  EXPECT_EQ(error_of(init(spec, verify.get())), Error::InvalidExternalData);
  const std::string text = log.take();
  EXPECT_NE(text.find("the initial value of state 'total'"), std::string::npos)
      << text;
}

TEST_F(BackendVerify, KeyThatNamesNoDigestIsInvalidProgramOnlyWhenVerifying) {
  data_.add(kWeightKey, weight_bytes());
  BlobSpec spec = blob();
  spec.weights[0].key = kWeightKey;  // "ascend/weight/w"
  VerifySpec verify(true);
  EXPECT_EQ(error_of(init(spec, verify.get())), Error::InvalidProgram);
  auto unchecked = init(spec);
  ASSERT_TRUE(unchecked.ok());
  EXPECT_TRUE(runs_right(*unchecked));
}

TEST_F(BackendVerify, AnUncheckedDeviceCopyIsNotReusedByAVerifyingDelegate) {
  // Another program's corrupted file, uploaded unchecked under the same key.
  BytesNamedDataMap other;
  other.add(om_key_, *om_);
  other.add(weight_key_, corrupted_weight());
  auto unchecked = init(blob(), {}, nullptr, &other);
  ASSERT_TRUE(unchecked.ok());
  ASSERT_EQ(WeightsCache::get().live(), 1u);
  // This program's intact file: checked and uploaded again, so it runs
  // right beside the other delegate, which keeps its own copy.
  VerifySpec verify(true);
  auto checked = init(blob(), verify.get());
  ASSERT_TRUE(checked.ok());
  EXPECT_TRUE(runs_right(*checked));
  EXPECT_FALSE(runs_right(*unchecked));
  // Later verifying delegates share the checked copy.
  const uint64_t allocations = hooks_.stats().live_device_allocs;
  auto again = init(blob(), verify.get());
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(hooks_.stats().live_device_allocs, allocations + 2)  // x and y
      << "the checked copy should have been reused";
  destroy(*unchecked);
  destroy(*checked);
  destroy(*again);
  EXPECT_EQ(WeightsCache::get().live(), 0u);
}

TEST_F(BackendVerify,
       ACorruptedProgramIsRefusedThoughTheDeviceHasACheckedCopy) {
  VerifySpec verify(true);
  auto intact = init(blob(), verify.get());
  ASSERT_TRUE(intact.ok());
  BytesNamedDataMap corrupted;
  corrupted.add(om_key_, *om_);
  corrupted.add(weight_key_, corrupted_weight());
  EXPECT_EQ(error_of(init(blob(), verify.get(), nullptr, &corrupted)),
            Error::InvalidExternalData);
  EXPECT_EQ(corrupted.outstanding(), 0);
  EXPECT_TRUE(runs_right(*intact));
}

TEST_F(BackendVerify, SetOptionAndTheEnvironmentTurnItOn) {
  data_.add(weight_key_, corrupted_weight());
  {
    ScopedVariable on(kVerifyWeightsVariable, "1");
    EXPECT_EQ(error_of(init(blob())), Error::InvalidExternalData);
    // A load-time option overrides the environment.
    VerifySpec off(false);
    auto handle = init(blob(), off.get());
    ASSERT_TRUE(handle.ok());
    destroy(*handle);
  }
  {
    ScopedVariable bad(kVerifyWeightsVariable, "yes");
    EXPECT_EQ(error_of(init(blob())), Error::InvalidArgument);
  }
  BackendOptions<1> on;
  ASSERT_EQ(on.set_option("verify_weights", true), Error::Ok);
  ASSERT_EQ(executorch::runtime::set_option(kAscendBackendName, on.view()),
            Error::Ok);
  BackendOptions<1> read;
  ASSERT_EQ(read.set_option("verify_weights", false), Error::Ok);
  ASSERT_EQ(executorch::runtime::get_option(kAscendBackendName, read.view()),
            Error::Ok);
  EXPECT_TRUE(std::get<bool>(read.view()[0].value));
  EXPECT_EQ(error_of(init(blob())), Error::InvalidExternalData);
  // -1 goes back to the environment (unset: off).
  BackendOptions<1> clear;
  ASSERT_EQ(clear.set_option("verify_weights", -1), Error::Ok);
  ASSERT_EQ(executorch::runtime::set_option(kAscendBackendName, clear.view()),
            Error::Ok);
  auto unchecked = init(blob());
  ASSERT_TRUE(unchecked.ok());
  EXPECT_FALSE(runs_right(*unchecked));
  // A string, or another int, is refused.
  BackendOptions<1> wrong;
  ASSERT_EQ(wrong.set_option("verify_weights", "yes"), Error::Ok);
  EXPECT_EQ(executorch::runtime::set_option(kAscendBackendName, wrong.view()),
            Error::InvalidArgument);
  BackendOptions<1> one;
  ASSERT_EQ(one.set_option("verify_weights", 1), Error::Ok);
  EXPECT_EQ(executorch::runtime::set_option(kAscendBackendName, one.view()),
            Error::InvalidArgument);
}

}  // namespace
}  // namespace executorch::backends::ascend::testing
