// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Owned, kOmAlignment-aligned bytes that report allocation failure instead
// of throwing (sizes come from untrusted files).
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>

#include "ascend_emu/program.h"

namespace ascend_emu {

class AlignedBuffer {
 public:
  AlignedBuffer() = default;
  ~AlignedBuffer() { Reset(); }
  AlignedBuffer(const AlignedBuffer&) = delete;
  AlignedBuffer& operator=(const AlignedBuffer&) = delete;

  // Zero-filled; false when the memory is not available. Size 0 succeeds
  // with data() == nullptr.
  bool Allocate(size_t size) {
    Reset();
    if (size == 0) return true;
    void* p =
        ::operator new (size, std::align_val_t{kOmAlignment}, std::nothrow);
    if (p == nullptr) return false;
    data_ = static_cast<uint8_t*>(p);
    size_ = size;
    for (size_t i = 0; i < size; ++i) data_[i] = 0;
    return true;
  }
  uint8_t* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  void Reset() {
    if (data_ != nullptr) {
      ::operator delete (data_, std::align_val_t{kOmAlignment});
    }
    data_ = nullptr;
    size_ = 0;
  }
  uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace ascend_emu
