// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Read-only mmap with page release (madvise MADV_DONTNEED: for a read-only
// file mapping it drops our reference to the pages, never any data).
#include "mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <string>

namespace ascend_emu {
namespace atc {
namespace {

const uint8_t kEmpty = 0;

uint64_t PageSize() {
  static const uint64_t page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  return page;
}

}  // namespace

std::unique_ptr<MappedFile> MappedFile::FromFd(int fd, const std::string& name,
                                               std::string* error) {
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    *error = "cannot stat '" + name + "': " + std::strerror(errno);
    ::close(fd);
    return nullptr;
  }
  if (!S_ISREG(st.st_mode)) {
    *error = "'" + name + "' is not a regular file";
    ::close(fd);
    return nullptr;
  }
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  if (size == 0) {
    ::close(fd);
    return std::unique_ptr<MappedFile>(new MappedFile(&kEmpty, 0));
  }
  if (size > std::numeric_limits<size_t>::max()) {
    *error = "'" + name + "' is too large to map";
    ::close(fd);
    return nullptr;
  }
  void* p =
      ::mmap(nullptr, static_cast<size_t>(size), PROT_READ, MAP_PRIVATE, fd, 0);
  const int saved = errno;
  ::close(fd);  // the mapping keeps the file
  if (p == MAP_FAILED) {
    *error = "cannot map '" + name + "': " + std::strerror(saved);
    return nullptr;
  }
  return std::unique_ptr<MappedFile>(
      new MappedFile(static_cast<const uint8_t*>(p), size));
}

std::unique_ptr<MappedFile> MappedFile::Open(const std::string& path,
                                             std::string* error) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    *error = "cannot open '" + path + "': " + std::strerror(errno);
    return nullptr;
  }
  return FromFd(fd, path, error);
}

MappedFile::~MappedFile() {
  if (size_ != 0) ::munmap(const_cast<uint8_t*>(data_), size_);
}

void MappedFile::Release(const uint8_t* p, uint64_t n) const {
  if (size_ == 0 || n == 0 || p < data_ || p >= data_ + size_) return;
  const uint64_t page = PageSize();
  const uint64_t begin = static_cast<uint64_t>(p - data_) / page * page;
  const uint64_t end =
      std::min<uint64_t>(size_, static_cast<uint64_t>(p - data_) + n);
  // Every page the range touches, the partial last one included (the
  // mapping's own length is rounded up to pages by the kernel).
  ::madvise(const_cast<uint8_t*>(data_) + begin, end - begin, MADV_DONTNEED);
}

}  // namespace atc
}  // namespace ascend_emu
