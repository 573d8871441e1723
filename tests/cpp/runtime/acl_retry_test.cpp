// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// A transient failure of ACL's first-use calls (aclInit, aclrtGetDeviceCount)
// must not disable the backend for the process: the load that meets it fails
// cleanly, naming the call and its code, and the next load runs. Its own
// process (ctest runtime_acl_retry): the library is resolved once per
// process, and the faults must be armed before the backend's first aclInit.
// The first test arms them through the emulator's aclEmuInjectFault; gtest
// runs this file's tests in order, so it runs before the fixture's.
#include <acl_emu_extras.h>
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "emulator_fixture.h"

namespace executorch::backends::ascend::testing {
namespace {

using executorch::aten::ScalarType;
using executorch::runtime::BackendInitContext;
using executorch::runtime::Error;

// init of a blob whose .om is never reached (ACL is checked first).
Error init_error(executorch::runtime::BackendInterface* backend) {
  BlobSpec spec = add_blob();
  ProcessedBlob processed(write_blob(spec));
  BytesNamedDataMap data;
  data.add(spec.om_key, {1, 2, 3});
  Arena arena;
  BackendInitContext context(arena.get(), nullptr, "forward", &data);
  auto handle = backend->init(context, processed.get(), {});
  EXPECT_EQ(data.outstanding(), 0);
  if (handle.ok()) {
    backend->destroy(handle.get());
    return Error::Ok;
  }
  return handle.error();
}

TEST(AclRetry, TransientInitFailuresAreReportedThenRetried) {
  // The same file the backend will dlopen: one copy of the emulator, so the
  // fault armed here is the one its aclInit meets.
  void* emulator =
      dlopen(AclLibrary::resolve_path().c_str(), RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(emulator, nullptr) << dlerror();
  auto inject = reinterpret_cast<aclEmuInjectFaultFn>(
      dlsym(emulator, "aclEmuInjectFault"));
  ASSERT_NE(inject, nullptr);
  auto* backend = registered_backend();
  ASSERT_NE(backend, nullptr);

  // 1. aclInit fails: not available, and the reason names the call and code.
  ASSERT_EQ(inject("aclInit", 0, ACL_ERROR_RT_FAILURE), 0);
  EXPECT_FALSE(backend->is_available());
  std::string reason = AclLibrary::get().unavailable_reason();
  EXPECT_NE(reason.find("aclInit failed with error 500003"), std::string::npos)
      << reason;
  // ACL's own message is part of it.
  EXPECT_NE(reason.find("injected fault"), std::string::npos) << reason;
  EXPECT_EQ(init_error(backend), Error::NotFound);
  EXPECT_NE(AclLibrary::get().unavailable_reason().find("aclInit"),
            std::string::npos);

  // 2. aclInit works now, aclrtGetDeviceCount fails.
  ASSERT_EQ(inject(nullptr, 0, 0), 0);
  ASSERT_EQ(inject("aclrtGetDeviceCount", 0, ACL_ERROR_RT_NO_DEVICE), 0);
  EXPECT_EQ(init_error(backend), Error::NotFound);
  reason = AclLibrary::get().unavailable_reason();
  EXPECT_NE(reason.find("aclrtGetDeviceCount failed with error 207004"),
            std::string::npos)
      << reason;
  EXPECT_FALSE(AclLibrary::get().available());

  // 3. The fault is gone: the next attempt (whose aclInit now reports
  // "already initialised", from attempt 2) makes the backend available, from
  // several threads at once.
  ASSERT_EQ(inject(nullptr, 0, 0), 0);
  std::vector<std::thread> threads;
  std::vector<int> available(8, 0);
  for (size_t t = 0; t < available.size(); ++t) {
    threads.emplace_back([&, t] { available[t] = backend->is_available(); });
  }
  for (auto& thread : threads) {
    thread.join();
  }
  for (size_t t = 0; t < available.size(); ++t) {
    EXPECT_TRUE(available[t]) << "thread " << t;
  }
  EXPECT_EQ(AclLibrary::get().unavailable_reason(), "");
  EXPECT_EQ(AclLibrary::get().device_count(), 2u);
  dlclose(emulator);
}

// After the failures above, a real model loads and runs with nothing left
// alive (the fixture's checks).
class AclRetryRun : public AscendEmulatorTest {};

TEST_F(AclRetryRun, TheNextLoadRuns) {
  expect_a_fresh_add_model_runs();
  EXPECT_EQ(executes(), 1u);
}

}  // namespace
}  // namespace executorch::backends::ascend::testing
