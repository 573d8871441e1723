// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Arena planning: activations and scratch buffers whose lifetimes do not
// overlap share memory.
#pragma once

#include <cstdint>
#include <vector>

namespace ascend_emu {
namespace atc {

struct PlannedBuffer {
  uint64_t size = 0;
  int first_step = 0;   // op that writes it
  int last_step = 0;    // last op that reads it (inclusive)
  uint64_t offset = 0;  // filled by PlanArena
};

// Greedy by size, first fit: the biggest buffers are placed first, each at
// the lowest `alignment`-aligned offset that does not collide with a placed
// buffer alive at the same time. Returns the arena size (a multiple of
// `alignment`), 0 when nothing needs memory.
uint64_t PlanArena(std::vector<PlannedBuffer>* buffers, uint64_t alignment);

}  // namespace atc
}  // namespace ascend_emu
