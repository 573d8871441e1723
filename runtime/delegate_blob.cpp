// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "delegate_blob.h"

#include <cstring>

#include "log.h"

namespace executorch::backends::ascend {

using executorch::runtime::Error;
using executorch::runtime::Result;

namespace {

constexpr size_t kMagicSize = sizeof(kBlobMagic) - 1;  // without the NUL
constexpr size_t kHeaderSize = kMagicSize + 4 + 4;     // magic, version, length

uint32_t read_u32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) |
         (static_cast<uint32_t>(p[2]) << 16) |
         (static_cast<uint32_t>(p[3]) << 24);
}

void write_u32(std::vector<uint8_t>& out, uint32_t value) {
  for (int i = 0; i < 4; ++i) {
    out.push_back(static_cast<uint8_t>(value >> (8 * i)));
  }
}

}  // namespace

Result<DelegateBlob> read_delegate_blob(const void* data, size_t size) {
  const auto* bytes = static_cast<const uint8_t*>(data);
  ASCEND_CHECK_OR_RETURN_ERROR(data != nullptr || size == 0, InvalidProgram,
                               "delegate blob: null data");
  ASCEND_CHECK_OR_RETURN_ERROR(
      size >= kMagicSize && std::memcmp(bytes, kBlobMagic, kMagicSize) == 0,
      InvalidProgram,
      "delegate blob: no '%s' magic; this is not an AscendBackend delegate "
      "blob",
      kBlobMagic);
  ASCEND_CHECK_OR_RETURN_ERROR(size >= kMagicSize + 4, InvalidProgram,
                               "delegate blob: %zu bytes, truncated inside "
                               "the version",
                               size);
  const uint32_t version = read_u32(bytes + kMagicSize);
  ASCEND_CHECK_OR_RETURN_ERROR(
      version == kBlobVersion, DelegateInvalidCompatibility,
      "delegate blob version %u is not supported by this runtime (it reads "
      "version %u); re-export the model with a matching executorch-ascend",
      version, kBlobVersion);
  ASCEND_CHECK_OR_RETURN_ERROR(size >= kHeaderSize, InvalidProgram,
                               "delegate blob: %zu bytes, truncated inside "
                               "the om_key length",
                               size);
  const uint32_t length = read_u32(bytes + kMagicSize + 4);
  ASCEND_CHECK_OR_RETURN_ERROR(
      length > 0 && length <= kBlobMaxKeyBytes, InvalidProgram,
      "delegate blob: om_key length %u is outside 1..%u", length,
      kBlobMaxKeyBytes);
  ASCEND_CHECK_OR_RETURN_ERROR(
      size - kHeaderSize == length, InvalidProgram,
      "delegate blob: om_key needs %u bytes, %zu follow the header", length,
      size - kHeaderSize);
  DelegateBlob blob;
  blob.om_key.assign(reinterpret_cast<const char*>(bytes + kHeaderSize),
                     length);
  ASCEND_CHECK_OR_RETURN_ERROR(blob.om_key.find('\0') == std::string::npos,
                               InvalidProgram,
                               "delegate blob: om_key contains a NUL byte");
  return blob;
}

std::vector<uint8_t> write_delegate_blob(const DelegateBlob& blob) {
  std::vector<uint8_t> out(kBlobMagic, kBlobMagic + kMagicSize);
  write_u32(out, kBlobVersion);
  write_u32(out, static_cast<uint32_t>(blob.om_key.size()));
  out.insert(out.end(), blob.om_key.begin(), blob.om_key.end());
  return out;
}

}  // namespace executorch::backends::ascend
