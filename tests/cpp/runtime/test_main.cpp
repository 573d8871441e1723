// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// GoogleTest main for the runtime tests: ExecuTorch's platform layer (used by
// ET_LOG) must be initialised before anything logs.
#include <executorch/runtime/platform/runtime.h>
#include <gtest/gtest.h>

int main(int argc, char** argv) {
  executorch::runtime::runtime_init();
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
