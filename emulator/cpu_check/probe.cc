// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// ascend_emu_cpu_check_probe (aarch64 only, CMakeLists.txt): the load-time
// check alone, recorded as built for more than armv8-a, so that a smaller
// CPU (QEMU's cortex-a53, or EXECUTORCH_ASCEND_EMU_MAX_CPU_ISA=armv8-a)
// shows the refusal libascendcl.so and atc would give (scripts/aarch64.sh).
#include <cstdio>

int main() {
  std::puts("cpu check passed");
  return 0;
}
