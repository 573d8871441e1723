// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// requant_table.h: building the compact table from the full function.
#include "requant_table.h"

#include <cstdint>
#include <vector>

namespace ascend_emu {
namespace kernels {

RequantTable::RequantTable(const std::vector<int8_t>& full) {
  if (static_cast<int64_t>(full.size()) != kFullSize) return;  // empty
  constexpr int32_t kInf = 0x7C00;  // float16 infinity's magnitude
  for (int sign = 0; sign < 2; ++sign) {
    const int8_t* f = full.data() + (sign << 15);
    // NaN past infinity, with one entry when every payload agrees.
    bool nan_agree = true;
    for (int32_t m = kInf + 2; m <= 0x7FFF; ++m)
      nan_agree = nan_agree && f[m] == f[kInf + 1];
    const int32_t top = nan_agree ? kInf : 0x7FFF;
    // The window: from the last magnitude of the first flat run to the first
    // of the last one.
    int32_t lo = 0, hi = top;
    while (lo < top && f[lo + 1] == f[0]) ++lo;
    while (hi > 0 && f[hi - 1] == f[top]) --hi;
    if (lo >= hi) lo = hi = 0;  // flat throughout: one entry
    const int32_t base = static_cast<int32_t>(entries_.size());
    entries_.insert(entries_.end(), f + lo, f + hi + 1);
    lo_[sign] = static_cast<int16_t>(lo);
    hi_[sign] = static_cast<int16_t>(hi);
    top_[sign] = static_cast<int16_t>(top);
    shift_[sign] = static_cast<uint16_t>(base - lo);
    nan_[sign] = static_cast<uint16_t>(entries_.size());
    if (nan_agree) entries_.push_back(f[kInf + 1]);
  }
}

}  // namespace kernels
}  // namespace ascend_emu
