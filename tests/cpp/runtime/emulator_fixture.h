// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Fixture for the AscendBackend tests against the CANN emulator: compiles
// real emulator .om files once, reaches the emulator's stats and fault
// injection through dlsym, and checks after every test that nothing ACL
// holds is left alive (the zero-leak check).
#pragma once

#include <acl_emu_extras.h>
#include <dlfcn.h>
#include <emulator_ids.h>
#include <executorch/runtime/backend/interface.h>
#include <executorch/runtime/backend/options.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "acl_library.h"
#include "ascend_backend.h"
#include "backend_test_support.h"
#include "host_tensor.h"
#include "om_builder.h"
#include "program_spec.h"
#include "shared_workspace.h"
#include "weights_cache.h"

namespace executorch::backends::ascend::testing {

inline constexpr char kAddKey[] = "ascend/om/add";
inline constexpr char kMatMulKey[] = "ascend/om/matmul_relu";

// The emulator's extras, looked up in the library the backend loaded.
class EmulatorHooks {
 public:
  EmulatorHooks() {
    handle_ = dlopen(AclLibrary::get().layout().runtime.c_str(),
                     RTLD_NOW | RTLD_NOLOAD);
    if (handle_ != nullptr) {
      stats_ =
          reinterpret_cast<aclEmuGetStatsFn>(dlsym(handle_, "aclEmuGetStats"));
      inject_ = reinterpret_cast<aclEmuInjectFaultFn>(
          dlsym(handle_, "aclEmuInjectFault"));
      init_ = reinterpret_cast<decltype(&aclInit)>(dlsym(handle_, "aclInit"));
      finalize_ = reinterpret_cast<decltype(&aclFinalize)>(
          dlsym(handle_, "aclFinalize"));
      set_device_ = reinterpret_cast<decltype(&aclrtSetDevice)>(
          dlsym(handle_, "aclrtSetDevice"));
      reset_device_ = reinterpret_cast<decltype(&aclrtResetDevice)>(
          dlsym(handle_, "aclrtResetDevice"));
      mem_info_ = reinterpret_cast<decltype(&aclrtGetMemInfo)>(
          dlsym(handle_, "aclrtGetMemInfo"));
      query_ = reinterpret_cast<decltype(&aclmdlQuerySizeFromMem)>(
          dlsym(handle_, "aclmdlQuerySizeFromMem"));
      call_count_ = reinterpret_cast<aclEmuGetCallCountFn>(
          dlsym(handle_, "aclEmuGetCallCount"));
      fail_next_run_ = reinterpret_cast<aclEmuFailNextRunFn>(
          dlsym(handle_, "aclEmuFailNextRun"));
    }
  }
  ~EmulatorHooks() {
    if (handle_ != nullptr) {
      dlclose(handle_);
    }
  }
  bool ok() const {
    return stats_ != nullptr && inject_ != nullptr && init_ != nullptr &&
           finalize_ != nullptr && set_device_ != nullptr &&
           reset_device_ != nullptr && mem_info_ != nullptr &&
           query_ != nullptr && call_count_ != nullptr;
  }
  aclEmuStats stats() const {
    aclEmuStats s{};
    EXPECT_EQ(stats_(&s), 0);
    return s;
  }
  void inject(const char* function, int after, int error) const {
    ASSERT_EQ(inject_(function, after, error), 0) << function;
  }
  void clear() const { inject_(nullptr, 0, 0); }
  // The next run of model `model_id` fails on the (emulated) device
  // (aclEmuFailNextRun): a queued run is reported by the synchronisation.
  void fail_next_run(uint32_t model_id) const {
    ASSERT_NE(fail_next_run_, nullptr);
    ASSERT_EQ(fail_next_run_(model_id), 0);
  }
  // Calls so far of a fault-injectable ACL function (aclEmuGetCallCount).
  uint64_t calls(const char* function) const {
    uint64_t count = 0;
    EXPECT_EQ(call_count_(function, &count), 0) << function;
    return count;
  }

  // Device memory in use on `device` (aclrtGetMemInfo): allocations plus
  // what loaded models hold (work, weights). Uses the device's default
  // context for the query; the backend sets its own before every call.
  size_t device_used(int32_t device) const {
    size_t free_bytes = 0;
    size_t total = 0;
    EXPECT_EQ(set_device_(device), 0);
    EXPECT_EQ(mem_info_(ACL_HBM_MEM, &free_bytes, &total), 0);
    EXPECT_EQ(reset_device_(device), 0);
    return total - free_bytes;
  }

  // aclmdlQuerySizeFromMem: the work and inline-weight memory of `om`.
  void query_sizes(const std::vector<uint8_t>& om, size_t* work,
                   size_t* weight) const {
    EXPECT_EQ(query_(om.data(), om.size(), work, weight), 0);
  }

  // aclFinalize (strict: it fails when anything is left alive, config
  // handles included, and names each leak on stderr), then aclInit again so
  // the backend, which initialised ACL once, can go on.
  aclError finalize_and_reinit() const {
    const aclError finalized = finalize_();
    EXPECT_EQ(init_(nullptr), 0);
    return finalized;
  }

 private:
  void* handle_ = nullptr;
  aclEmuGetStatsFn stats_ = nullptr;
  aclEmuInjectFaultFn inject_ = nullptr;
  decltype(&aclInit) init_ = nullptr;
  decltype(&aclFinalize) finalize_ = nullptr;
  decltype(&aclrtSetDevice) set_device_ = nullptr;
  decltype(&aclrtResetDevice) reset_device_ = nullptr;
  decltype(&aclrtGetMemInfo) mem_info_ = nullptr;
  decltype(&aclmdlQuerySizeFromMem) query_ = nullptr;
  aclEmuGetCallCountFn call_count_ = nullptr;
  aclEmuFailNextRunFn fail_next_run_ = nullptr;
};

inline void expect_nothing_alive(const aclEmuStats& s) {
  EXPECT_EQ(s.live_device_allocs, 0u);
  EXPECT_EQ(s.live_device_bytes, 0u);
  EXPECT_EQ(s.live_models, 0u);
  EXPECT_EQ(s.live_descs, 0u);
  EXPECT_EQ(s.live_datasets, 0u);
  EXPECT_EQ(s.live_data_buffers, 0u);
  EXPECT_EQ(s.live_streams, 0u);
  EXPECT_EQ(s.live_contexts, 0u);
  EXPECT_EQ(WeightsCache::get().live(), 0u);
  EXPECT_EQ(SharedWorkspaces::get().live(), 0u);
}

// The add model: x, y float [2, 3] -> z float [2, 3].
inline BlobSpec add_blob() {
  BlobSpec spec;
  spec.om_key = kAddKey;
  return spec;
}

// The matmul+relu model: x float [2, 4] -> y float [2, 3].
inline BlobSpec matmul_blob() {
  BlobSpec spec;
  spec.om_key = kMatMulKey;
  return spec;
}

class AscendEmulatorTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    std::string error;
    add_om_ = new std::vector<uint8_t>(
        compile_with_atc(add_model_onnx(), "add", &error));
    add_error_ = new std::string(error);
    matmul_om_ = new std::vector<uint8_t>(
        compile_with_atc(matmul_relu_model_onnx(), "matmul_relu", &error));
    matmul_error_ = new std::string(error);
  }
  static void TearDownTestSuite() {
    delete add_om_;
    delete matmul_om_;
    delete add_error_;
    delete matmul_error_;
  }

  void SetUp() override {
    const AclLibrary& library = AclLibrary::get();
    ASSERT_TRUE(library.available()) << library.unavailable_reason();
    ASSERT_TRUE(library.is_emulator());
    ASSERT_TRUE(hooks_.ok()) << "emulator extras not found";
    ASSERT_FALSE(add_om_->empty()) << *add_error_;
    ASSERT_FALSE(matmul_om_->empty()) << *matmul_error_;
    backend_ = registered_backend();
    ASSERT_NE(backend_, nullptr);
    data_.add(kAddKey, *add_om_);
    data_.add(kMatMulKey, *matmul_om_);
    hooks_.clear();
    baseline_ = hooks_.stats();
    expect_nothing_alive(baseline_);
  }

  // aclmdlExecute calls since SetUp (the counter is process-wide).
  uint64_t executes() const {
    return hooks_.stats().executes - baseline_.executes;
  }

  void TearDown() override {
    // SetUp failed (no emulator found): nothing was loaded, nothing to check.
    if (!hooks_.ok() || backend_ == nullptr) return;
    hooks_.clear();
    // set_option state is process-wide: leave no override behind.
    executorch::runtime::BackendOptions<3> reset;
    (void)reset.set_option("device_id", -1);
    (void)reset.set_option("workspace", "acl");
    (void)reset.set_option("verify_weights", -1);
    (void)executorch::runtime::set_option(kAscendBackendName, reset.view());
    for (auto* handle : handles_) {
      backend_->destroy(handle);
    }
    handles_.clear();
    expect_nothing_alive(hooks_.stats());
    EXPECT_EQ(data_.outstanding(), 0) << "a named-data buffer was not freed";
    // The emulator's own leak check covers what the counters do not (model
    // config handles); the suite runs with EXECUTORCH_ASCEND_EMU_STRICT=1.
    EXPECT_EQ(hooks_.finalize_and_reinit(), 0)
        << "aclFinalize found leaks (listed on stderr)";
  }

  // init through the registered backend; a handle is destroyed in TearDown.
  executorch::runtime::Result<executorch::runtime::DelegateHandle*> init(
      const BlobSpec& spec,
      executorch::runtime::Span<const executorch::runtime::BackendOption>
          runtime_specs = {},
      executorch::runtime::MemoryAllocator* allocator = nullptr,
      const executorch::runtime::NamedDataMap* data = nullptr,
      bool use_data = true, const char* method_name = "forward") {
    ProcessedBlob processed(write_blob(spec));
    const CompileSpecs compile_specs(spec);
    executorch::runtime::BackendInitContext context(
        allocator != nullptr ? allocator : arena_.get(), nullptr, method_name,
        use_data ? (data != nullptr ? data : &data_) : nullptr, runtime_specs);
    auto handle = backend_->init(context, processed.get(), compile_specs.get());
    EXPECT_TRUE(processed.freed()) << "processed blob not freed by init";
    if (handle.ok()) {
      handles_.push_back(handle.get());
    }
    return handle;
  }

  void destroy(executorch::runtime::DelegateHandle* handle) {
    for (auto it = handles_.begin(); it != handles_.end(); ++it) {
      if (*it == handle) {
        handles_.erase(it);
        break;
      }
    }
    backend_->destroy(handle);
  }

  executorch::runtime::Error execute(
      executorch::runtime::DelegateHandle* handle,
      std::vector<executorch::runtime::EValue*> args) {
    executorch::runtime::BackendExecutionContext context;
    return backend_->execute(
        context, handle,
        executorch::runtime::Span<executorch::runtime::EValue*>(args.data(),
                                                                args.size()));
  }

  // A fresh add model loads and computes x + y: the device is usable (after a
  // fault, a failed destroy, a retried aclInit ...).
  void expect_a_fresh_add_model_runs() {
    auto handle = init(add_blob());
    ASSERT_TRUE(handle.ok());
    HostTensor x(executorch::aten::ScalarType::Float, {2, 3});
    HostTensor y(executorch::aten::ScalarType::Float, {2, 3});
    HostTensor z(executorch::aten::ScalarType::Float, {2, 3});
    for (int i = 0; i < 6; ++i) {
      x.floats()[i] = 1.5f * static_cast<float>(i);
      y.floats()[i] = 10.0f - static_cast<float>(i);
    }
    ASSERT_EQ(execute(*handle, {x.evalue(), y.evalue(), z.evalue()}),
              executorch::runtime::Error::Ok);
    for (int i = 0; i < 6; ++i) {
      EXPECT_FLOAT_EQ(z.floats()[i], x.floats()[i] + y.floats()[i]) << i;
    }
  }

  // Another method's runtime allocator: it outlives TearDown, which destroys
  // the handles allocated in it.
  Arena& another_arena(size_t size = 64 * 1024) {
    return *extra_arenas_.emplace_back(std::make_unique<Arena>(size));
  }

  inline static std::vector<uint8_t>* add_om_ = nullptr;
  inline static std::vector<uint8_t>* matmul_om_ = nullptr;
  inline static std::string* add_error_ = nullptr;
  inline static std::string* matmul_error_ = nullptr;

  EmulatorHooks hooks_;
  aclEmuStats baseline_{};
  BytesNamedDataMap data_;
  Arena arena_;
  std::vector<std::unique_ptr<Arena>> extra_arenas_;
  executorch::runtime::BackendInterface* backend_ = nullptr;
  std::vector<executorch::runtime::DelegateHandle*> handles_;
};

}  // namespace executorch::backends::ascend::testing
