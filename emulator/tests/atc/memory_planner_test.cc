// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The arena planner: buffers alive at the same time never share bytes, and
// buffers that are not do.
#include "memory_planner.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace ascend_emu {
namespace atc {
namespace {

PlannedBuffer Buf(uint64_t size, int first, int last) {
  PlannedBuffer b;
  b.size = size;
  b.first_step = first;
  b.last_step = last;
  return b;
}

TEST(MemoryPlanner, ReusesMemoryOfDeadBuffers) {
  std::vector<PlannedBuffer> bufs = {Buf(100, 0, 1), Buf(100, 1, 2),
                                     Buf(100, 2, 3)};
  EXPECT_EQ(PlanArena(&bufs, 64), 256u);  // two 128-byte slots
  EXPECT_EQ(bufs[0].offset, bufs[2].offset);
  EXPECT_NE(bufs[0].offset, bufs[1].offset);
}

TEST(MemoryPlanner, AlignsEveryOffset) {
  std::vector<PlannedBuffer> bufs = {Buf(1, 0, 5), Buf(3, 0, 5), Buf(70, 0, 5)};
  const uint64_t arena = PlanArena(&bufs, 64);
  for (const auto& b : bufs) EXPECT_EQ(b.offset % 64, 0u);
  EXPECT_EQ(arena % 64, 0u);
  EXPECT_EQ(arena, 128u + 64u + 64u);
}

TEST(MemoryPlanner, EmptyAndZeroSized) {
  std::vector<PlannedBuffer> none;
  EXPECT_EQ(PlanArena(&none, 64), 0u);
  std::vector<PlannedBuffer> zero = {Buf(0, 0, 3)};
  EXPECT_EQ(PlanArena(&zero, 64), 0u);
}

TEST(MemoryPlanner, RandomPlansNeverOverlapLiveBuffers) {
  std::mt19937 gen(7);
  for (int round = 0; round < 200; ++round) {
    std::vector<PlannedBuffer> bufs;
    const int n = 1 + static_cast<int>(gen() % 40);
    for (int i = 0; i < n; ++i) {
      const int first = static_cast<int>(gen() % 30);
      bufs.push_back(
          Buf(gen() % 5000, first, first + static_cast<int>(gen() % 6)));
    }
    const uint64_t arena = PlanArena(&bufs, 64);
    uint64_t total = 0;
    for (size_t a = 0; a < bufs.size(); ++a) {
      total += (bufs[a].size + 63) / 64 * 64;
      EXPECT_LE(bufs[a].offset + bufs[a].size, arena);
      for (size_t b = a + 1; b < bufs.size(); ++b) {
        const bool live_together = bufs[a].first_step <= bufs[b].last_step &&
                                   bufs[b].first_step <= bufs[a].last_step;
        const bool share = bufs[a].size && bufs[b].size &&
                           bufs[a].offset < bufs[b].offset + bufs[b].size &&
                           bufs[b].offset < bufs[a].offset + bufs[a].size;
        EXPECT_FALSE(live_together && share) << "round " << round;
      }
    }
    EXPECT_LE(arena, total);
  }
}

}  // namespace
}  // namespace atc
}  // namespace ascend_emu
