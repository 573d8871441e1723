// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Owned, kOmAlignment-aligned bytes that report allocation failure instead
// of throwing (sizes come from untrusted files).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "ascend_emu/program.h"

namespace ascend_emu {

class AlignedBuffer {
 public:
  enum class Fill { kZero, kNone };

  AlignedBuffer() = default;
  ~AlignedBuffer() { Reset(); }
  AlignedBuffer(const AlignedBuffer&) = delete;
  AlignedBuffer& operator=(const AlignedBuffer&) = delete;

  // False when the memory is not available. Size 0 succeeds with data() ==
  // nullptr. kZero comes from calloc, which for large blocks maps fresh
  // zero pages instead of writing them, so an arena costs no time and no
  // resident memory until a run touches it; kNone is for memory the caller
  // overwrites whole (the weights, copied in right after).
  bool Allocate(size_t size, Fill fill = Fill::kZero) {
    Reset();
    if (size == 0) return true;
    if (size > SIZE_MAX - kOmAlignment) return false;
    const size_t padded = size + kOmAlignment - 1;
    void* raw =
        fill == Fill::kZero ? std::calloc(1, padded) : std::malloc(padded);
    if (raw == nullptr) return false;
    const uintptr_t aligned =
        (reinterpret_cast<uintptr_t>(raw) + kOmAlignment - 1) &
        ~uintptr_t{kOmAlignment - 1};
    raw_ = raw;
    data_ = reinterpret_cast<uint8_t*>(aligned);
    size_ = size;
    return true;
  }
  uint8_t* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  void Reset() {
    std::free(raw_);
    raw_ = nullptr;
    data_ = nullptr;
    size_ = 0;
  }
  void* raw_ = nullptr;
  uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace ascend_emu
