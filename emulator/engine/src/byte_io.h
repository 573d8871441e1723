// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Little-endian encoding for the .om format. The reader is the only code that
// touches untrusted bytes: every read checks the remaining length first and
// the first failure sticks (later reads fail too), so parsing code can read a
// whole record and test ok() once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace ascend_emu {
namespace om {

class ByteWriter {
 public:
  explicit ByteWriter(std::vector<uint8_t>* out) : out_(out) {}

  void U32(uint32_t v) { Le(v, 4); }
  void U64(uint64_t v) { Le(v, 8); }
  void I32(int32_t v) { U32(static_cast<uint32_t>(v)); }
  void I64(int64_t v) { U64(static_cast<uint64_t>(v)); }
  void F32(float v) {
    uint32_t bits;
    std::memcpy(&bits, &v, sizeof(bits));
    U32(bits);
  }
  void Bytes(const void* data, size_t n) {
    const uint8_t* p = static_cast<const uint8_t*>(data);
    out_->insert(out_->end(), p, p + n);
  }
  void Str(const std::string& s) {
    U32(static_cast<uint32_t>(s.size()));
    Bytes(s.data(), s.size());
  }
  size_t size() const { return out_->size(); }

 private:
  void Le(uint64_t v, int n) {
    for (int i = 0; i < n; ++i)
      out_->push_back(static_cast<uint8_t>(v >> (8 * i)));
  }
  std::vector<uint8_t>* out_;
};

class ByteReader {
 public:
  // `base` is where `data` starts in the file, so messages give file offsets.
  ByteReader(const uint8_t* data, size_t size, size_t base = 0)
      : data_(data), size_(size), base_(base) {}

  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  size_t pos() const { return pos_; }
  size_t remaining() const { return size_ - pos_; }

  // Records the first error only; always returns false.
  bool Fail(const std::string& message) {
    if (error_.empty())
      error_ = message + " (at byte " + std::to_string(base_ + pos_) + ")";
    return false;
  }

  bool U32(uint32_t* v, const char* what) {
    uint64_t x = 0;
    if (!Le(&x, 4, what)) return false;
    *v = static_cast<uint32_t>(x);
    return true;
  }
  bool U64(uint64_t* v, const char* what) { return Le(v, 8, what); }
  bool I32(int32_t* v, const char* what) {
    uint32_t x = 0;
    if (!U32(&x, what)) return false;
    *v = static_cast<int32_t>(x);
    return true;
  }
  bool I64(int64_t* v, const char* what) {
    uint64_t x = 0;
    if (!U64(&x, what)) return false;
    *v = static_cast<int64_t>(x);
    return true;
  }
  bool F32(float* v, const char* what) {
    uint32_t bits = 0;
    if (!U32(&bits, what)) return false;
    std::memcpy(v, &bits, sizeof(bits));
    return true;
  }
  // A u32 length (at most max_bytes) and that many bytes.
  bool Str(std::string* s, uint32_t max_bytes, const char* what) {
    uint32_t n = 0;
    if (!U32(&n, what)) return false;
    if (n > max_bytes) {
      return Fail(std::string(what) + ": length " + std::to_string(n) +
                  " exceeds the limit " + std::to_string(max_bytes));
    }
    if (n > remaining()) return Truncated(what);
    s->assign(reinterpret_cast<const char*>(data_ + pos_), n);
    pos_ += n;
    return true;
  }
  // A u32 element count, at most max_count, whose elements (each at least
  // min_elem_bytes long) must fit in what is left: a corrupted count cannot
  // make the caller reserve more than the file could describe.
  bool Count(uint32_t* n, uint32_t max_count, size_t min_elem_bytes,
             const char* what) {
    if (!U32(n, what)) return false;
    if (*n > max_count) {
      return Fail(std::string(what) + ": " + std::to_string(*n) +
                  " exceeds the limit " + std::to_string(max_count));
    }
    if (min_elem_bytes != 0 && *n > remaining() / min_elem_bytes) {
      return Truncated(what);
    }
    return true;
  }
  // Points *p at the next n bytes (no copy).
  bool Span(const uint8_t** p, uint64_t n, const char* what) {
    if (n > remaining()) return Truncated(what);
    *p = data_ + pos_;
    pos_ += static_cast<size_t>(n);
    return true;
  }

 private:
  bool Le(uint64_t* v, int n, const char* what) {
    if (!ok()) return false;
    if (remaining() < static_cast<size_t>(n)) return Truncated(what);
    uint64_t x = 0;
    for (int i = 0; i < n; ++i)
      x |= static_cast<uint64_t>(data_[pos_ + i]) << (8 * i);
    pos_ += n;
    *v = x;
    return true;
  }
  bool Truncated(const char* what) {
    return Fail(std::string("truncated while reading ") + what);
  }

  const uint8_t* data_;
  size_t size_;
  size_t base_;
  size_t pos_ = 0;
  std::string error_;
};

}  // namespace om
}  // namespace ascend_emu
