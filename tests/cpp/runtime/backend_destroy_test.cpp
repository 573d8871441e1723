// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// destroy under faults: whatever failed before, every object that can be
// released is released, and what cannot be is logged.
#include <thread>

#include "emulator_fixture.h"

namespace executorch::backends::ascend::testing {
namespace {

using executorch::aten::ScalarType;
using executorch::runtime::Error;

class BackendDestroy : public AscendEmulatorTest {};

// destroy on a thread with no current context (the common case: a worker
// thread frees a method) while aclrtSetCurrentContext fails. Everything
// that needs only some context of the device (I/O buffers, datasets, the
// description, device memory) is released in the device's default context
// instead of failing one by one; the model and its context cannot be (ACL
// unloads a model only in the context that loaded it) and are logged.
TEST_F(BackendDestroy, ReleasesWhatItCanWhenItsContextCannotBeMadeCurrent) {
  for (const bool add : {true, false}) {
    auto handle = init(add ? add_blob() : matmul_blob());
    ASSERT_TRUE(handle.ok());
    const aclEmuStats loaded = hooks_.stats();
    ASSERT_EQ(loaded.live_models, 1u);
    ASSERT_GT(loaded.live_device_allocs, 0u);
    ASSERT_GT(loaded.live_data_buffers, 0u);
    hooks_.inject("aclrtSetCurrentContext", 0, ACL_ERROR_RT_FAILURE);
    std::thread worker([&] { destroy(*handle); });
    worker.join();
    hooks_.clear();
    const aclEmuStats s = hooks_.stats();
    EXPECT_EQ(s.live_device_allocs, 0u);
    EXPECT_EQ(s.live_device_bytes, 0u);
    EXPECT_EQ(s.live_descs, 0u);
    EXPECT_EQ(s.live_datasets, 0u);
    EXPECT_EQ(s.live_data_buffers, 0u);
    EXPECT_EQ(s.live_models, 1u);
    EXPECT_EQ(s.live_contexts, 1u);
    // What a process exit would do: the strict aclFinalize releases the two
    // and reports them as leaks; nothing else is left for it.
    EXPECT_NE(hooks_.finalize_and_reinit(), 0);
    expect_nothing_alive(hooks_.stats());
  }
  expect_a_fresh_add_model_runs();
}

// A release call that fails (every time) leaves only its own objects, and
// those that need them gone first (a context still holding its model), not
// everything released after it. The add model holds 3 device buffers (x, y,
// z), 3 data buffers, 2 datasets, a description, a model and a context.
TEST_F(BackendDestroy, AFailedReleaseLeavesOnlyItsOwnObjects) {
  struct Case {
    const char* function;
    uint64_t allocs, buffers, datasets, descs, models, contexts;
  };
  const Case cases[] = {
      {"aclDestroyDataBuffer", 0, 3, 0, 0, 0, 0},
      {"aclmdlDestroyDataset", 0, 0, 2, 0, 0, 0},
      {"aclrtFree", 3, 0, 0, 0, 0, 0},
      {"aclmdlDestroyDesc", 0, 0, 0, 1, 0, 0},
      // The context cannot be destroyed while the model is loaded in it.
      {"aclmdlUnload", 0, 0, 0, 0, 1, 1},
      {"aclrtDestroyContext", 0, 0, 0, 0, 0, 1},
      // The device's default context stays with the last reference.
      {"aclrtResetDevice", 0, 0, 0, 0, 0, 1},
  };
  for (const Case& c : cases) {
    auto handle = init(add_blob());
    ASSERT_TRUE(handle.ok()) << c.function;
    hooks_.inject(c.function, 0, ACL_ERROR_RT_FAILURE);
    destroy(*handle);
    hooks_.clear();
    const aclEmuStats s = hooks_.stats();
    EXPECT_EQ(s.live_device_allocs, c.allocs) << c.function;
    EXPECT_EQ(s.live_data_buffers, c.buffers) << c.function;
    EXPECT_EQ(s.live_datasets, c.datasets) << c.function;
    EXPECT_EQ(s.live_descs, c.descs) << c.function;
    EXPECT_EQ(s.live_models, c.models) << c.function;
    EXPECT_EQ(s.live_contexts, c.contexts) << c.function;
    // The strict aclFinalize reports (and releases) exactly those.
    EXPECT_NE(hooks_.finalize_and_reinit(), 0) << c.function;
    expect_nothing_alive(hooks_.stats());
  }
}

}  // namespace
}  // namespace executorch::backends::ascend::testing
