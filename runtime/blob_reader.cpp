#include "blob_reader.h"

#include <executorch/runtime/core/exec_aten/util/scalar_type_util.h>
#include <executorch/runtime/platform/log.h>

#include <cstring>

namespace executorch::backends::ascend {

using executorch::aten::ScalarType;
using executorch::runtime::Error;
using executorch::runtime::Result;

namespace {

// A cursor over the blob. Each read checks the remaining length first and
// names the field in the log line, so a bad blob says where it went wrong.
class Cursor {
 public:
  Cursor(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  size_t remaining() const { return size_ - offset_; }
  size_t offset() const { return offset_; }

  bool bytes(void* out, size_t n, const char* field) {
    if (n > remaining()) {
      ET_LOG(Error,
             "AscendBackend blob: truncated at offset %zu reading %s (%zu "
             "bytes needed, %zu left)",
             offset_, field, n, remaining());
      return false;
    }
    if (n > 0) {
      std::memcpy(out, data_ + offset_, n);
    }
    offset_ += n;
    return true;
  }

  // Fixed-width little-endian integers, assembled byte by byte so the reader
  // is independent of host byte order and alignment.
  template <typename T>
  bool integer(T* out, const char* field) {
    uint8_t raw[sizeof(T)];
    if (!bytes(raw, sizeof(T), field)) {
      return false;
    }
    uint64_t value = 0;
    for (size_t i = 0; i < sizeof(T); ++i) {
      value |= static_cast<uint64_t>(raw[i]) << (8 * i);
    }
    *out = static_cast<T>(value);
    return true;
  }

  bool string(std::string* out, const char* field) {
    uint32_t length = 0;
    if (!integer(&length, field)) {
      return false;
    }
    if (length > kBlobMaxStringBytes) {
      ET_LOG(Error,
             "AscendBackend blob: %s is %u bytes long, more than the limit "
             "%u",
             field, length, kBlobMaxStringBytes);
      return false;
    }
    if (length > remaining()) {
      ET_LOG(Error,
             "AscendBackend blob: truncated at offset %zu reading %s (%u "
             "bytes needed, %zu left)",
             offset_, field, length, remaining());
      return false;
    }
    out->assign(reinterpret_cast<const char*>(data_ + offset_), length);
    offset_ += length;
    return true;
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t offset_ = 0;
};

bool read_tensor(Cursor& cursor, const char* role, uint32_t index,
                 BlobTensor* tensor) {
  if (!cursor.string(&tensor->name, role)) {
    return false;
  }
  int32_t scalar_type = 0;
  if (!cursor.integer(&scalar_type, "scalar_type")) {
    return false;
  }
  if (scalar_type < 0 ||
      scalar_type >= static_cast<int32_t>(ScalarType::NumOptions) ||
      !executorch::runtime::isValid(static_cast<ScalarType>(scalar_type))) {
    ET_LOG(Error, "AscendBackend blob: %s %u has unknown scalar_type %d", role,
           index, scalar_type);
    return false;
  }
  tensor->scalar_type = static_cast<ScalarType>(scalar_type);
  uint32_t rank = 0;
  if (!cursor.integer(&rank, "rank")) {
    return false;
  }
  if (rank > kBlobMaxRank) {
    ET_LOG(Error, "AscendBackend blob: %s %u has rank %u, more than %u", role,
           index, rank, kBlobMaxRank);
    return false;
  }
  tensor->dims.resize(rank);
  for (uint32_t d = 0; d < rank; ++d) {
    if (!cursor.integer(&tensor->dims[d], "dim")) {
      return false;
    }
    if (tensor->dims[d] < 0) {
      ET_LOG(Error, "AscendBackend blob: %s %u dim %u is negative (%lld)", role,
             index, d, static_cast<long long>(tensor->dims[d]));
      return false;
    }
  }
  return true;
}

bool read_tensors(Cursor& cursor, const char* role,
                  std::vector<BlobTensor>* tensors) {
  uint32_t count = 0;
  if (!cursor.integer(&count, role)) {
    return false;
  }
  if (count > kBlobMaxTensors) {
    ET_LOG(Error, "AscendBackend blob: %u %ss, more than the limit %u", count,
           role, kBlobMaxTensors);
    return false;
  }
  tensors->resize(count);
  for (uint32_t i = 0; i < count; ++i) {
    if (!read_tensor(cursor, role, i, &(*tensors)[i])) {
      return false;
    }
  }
  return true;
}

}  // namespace

Result<DelegateBlob> read_delegate_blob(const void* data, size_t size) {
  if (data == nullptr && size != 0) {
    ET_LOG(Error, "AscendBackend blob: null data");
    return Error::InvalidProgram;
  }
  Cursor cursor(static_cast<const uint8_t*>(data), size);
  DelegateBlob blob;

  char magic[sizeof(kBlobMagic)];
  if (!cursor.bytes(magic, sizeof(magic), "magic")) {
    return Error::InvalidProgram;
  }
  if (std::memcmp(magic, kBlobMagic, sizeof(kBlobMagic)) != 0) {
    ET_LOG(Error,
           "AscendBackend blob: bad magic (expected 'ASCB'); this is not an "
           "AscendBackend delegate blob");
    return Error::InvalidProgram;
  }
  if (!cursor.integer(&blob.version, "version")) {
    return Error::InvalidProgram;
  }
  if (blob.version != kBlobVersion) {
    ET_LOG(Error,
           "AscendBackend blob: version %u is not supported by this runtime "
           "(it reads version %u); re-export the model with a matching "
           "executorch-ascend",
           blob.version, kBlobVersion);
    return Error::DelegateInvalidCompatibility;
  }
  if (!cursor.integer(&blob.flags, "flags") ||
      !cursor.integer(&blob.device_id, "device_id") ||
      !cursor.string(&blob.om_key, "om_key") ||
      !cursor.string(&blob.soc_version, "soc_version") ||
      !cursor.string(&blob.atc, "atc") ||
      !cursor.string(&blob.precision_mode, "precision_mode") ||
      !read_tensors(cursor, "input", &blob.inputs) ||
      !read_tensors(cursor, "output", &blob.outputs)) {
    return Error::InvalidProgram;
  }
  if ((blob.flags & ~kBlobFlagEmulatorOm) != 0) {
    ET_LOG(Error, "AscendBackend blob: unknown flag bits 0x%x",
           blob.flags & ~kBlobFlagEmulatorOm);
    return Error::InvalidProgram;
  }
  if (blob.device_id < 0) {
    ET_LOG(Error, "AscendBackend blob: negative device_id %d", blob.device_id);
    return Error::InvalidProgram;
  }
  if (blob.om_key.empty()) {
    ET_LOG(Error, "AscendBackend blob: empty om_key");
    return Error::InvalidProgram;
  }
  if (cursor.remaining() != 0) {
    ET_LOG(Error, "AscendBackend blob: %zu trailing bytes after offset %zu",
           cursor.remaining(), cursor.offset());
    return Error::InvalidProgram;
  }
  return blob;
}

}  // namespace executorch::backends::ascend
