// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Counts the heap allocations this thread makes between Start and Stop, in
// any library of the process (libascendcl.so, the backend, ExecuTorch, the
// C++ runtime): alloc_counter.cc replaces malloc and its relatives in the
// binary that links it, so link it into its own test or benchmark binary.
// Under ASan/TSan, whose runtimes own malloc, only operator new is counted.
#pragma once

#include <cstdint>

namespace ascend_test {

void StartCountingAllocations();
// Allocations counted since Start; stops counting.
uint64_t StopCountingAllocations();
// True when malloc itself is counted (false under sanitizers).
bool CountsMalloc();

}  // namespace ascend_test
