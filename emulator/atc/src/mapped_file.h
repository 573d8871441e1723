// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// A file mapped read-only, so atc can read gigabytes of ONNX external data
// (or of the weight files it wrote) without copying them into its own memory:
// the pages are the kernel's page cache, faulted in when read and dropped
// again with Release().
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace ascend_emu {
namespace atc {

class MappedFile {
 public:
  // Maps the regular file open on `fd` (which it closes). `name` is for
  // messages. Returns nullptr and sets *error when it cannot.
  static std::unique_ptr<MappedFile> FromFd(int fd, const std::string& name,
                                            std::string* error);
  // Opens and maps `path`.
  static std::unique_ptr<MappedFile> Open(const std::string& path,
                                          std::string* error);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  const uint8_t* data() const { return data_; }
  uint64_t size() const { return size_; }

  // Gives back the pages behind [p, p + n) (a range inside this mapping)
  // once they have been read: reading them again faults them in from the
  // file, so this only bounds how much of the file is resident at once.
  void Release(const uint8_t* p, uint64_t n) const;

 private:
  MappedFile(const uint8_t* data, uint64_t size) : data_(data), size_(size) {}
  const uint8_t* data_;  // never null (an empty file points at a static byte)
  uint64_t size_;
};

// Bytes of a constant: in a MappedFile (`file` set, so they can be released
// after use) or in memory atc owns.
struct ByteView {
  const uint8_t* data = nullptr;
  uint64_t size = 0;
  const MappedFile* file = nullptr;

  void Release() const {
    if (file != nullptr) file->Release(data, size);
  }
};

}  // namespace atc
}  // namespace ascend_emu
