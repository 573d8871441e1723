// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Greedy-by-size first-fit arena planning (a textbook heuristic: close to
// optimal on inference graphs, O(n^2) in the number of buffers).
#include "memory_planner.h"

#include <algorithm>
#include <numeric>
#include <vector>

namespace ascend_emu {
namespace atc {
namespace {

uint64_t AlignUp(uint64_t v, uint64_t alignment) {
  return (v + alignment - 1) / alignment * alignment;
}

bool LifetimesOverlap(const PlannedBuffer& a, const PlannedBuffer& b) {
  return a.first_step <= b.last_step && b.first_step <= a.last_step;
}

}  // namespace

uint64_t PlanArena(std::vector<PlannedBuffer>* buffers, uint64_t alignment) {
  std::vector<size_t> order(buffers->size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return (*buffers)[a].size > (*buffers)[b].size;
  });

  std::vector<size_t> placed;
  uint64_t arena = 0;
  for (size_t index : order) {
    PlannedBuffer& buf = (*buffers)[index];
    buf.offset = 0;
    if (buf.size == 0) continue;
    // Regions of placed buffers alive at the same time, by offset.
    std::vector<std::pair<uint64_t, uint64_t>> busy;
    for (size_t other : placed) {
      const PlannedBuffer& o = (*buffers)[other];
      if (LifetimesOverlap(buf, o))
        busy.emplace_back(o.offset, o.offset + o.size);
    }
    std::sort(busy.begin(), busy.end());
    uint64_t candidate = 0;
    for (const auto& [begin, end] : busy) {
      if (candidate + buf.size <= begin) break;
      candidate = std::max(candidate, AlignUp(end, alignment));
    }
    buf.offset = candidate;
    arena = std::max(arena, candidate + buf.size);
    placed.push_back(index);
  }
  return AlignUp(arena, alignment);
}

}  // namespace atc
}  // namespace ascend_emu
