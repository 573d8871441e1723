// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "weights_cache.h"

#include <cinttypes>
#include <optional>

#include "content_digest.h"
#include "log.h"

namespace executorch::backends::ascend {

using executorch::runtime::Error;
using executorch::runtime::FreeableBuffer;
using executorch::runtime::NamedDataMap;
using executorch::runtime::Result;

namespace {

// The named data holding `weight`, of the size the blob says (the buffer
// maps the .ptd without a copy where the data loader can).
Result<FreeableBuffer> weight_bytes(const NamedDataMap& data,
                                    const ExternalWeight& weight) {
  Result<FreeableBuffer> bytes = data.get_data(weight.key.c_str());
  if (!bytes.ok()) {
    ASCEND_LOG(Error,
               "named data '%s' (external weight '%s' of the compiled model) "
               "not found (error 0x%x): load the .ptd file that holds the "
               "model's weights with the .pte",
               weight.key.c_str(), weight.name.c_str(),
               static_cast<unsigned>(bytes.error()));
    return bytes.error() == Error::NotFound ? Error::NotFound : bytes.error();
  }
  const Result<const void*> source = bytes->data_safe();
  ASCEND_CHECK_OR_RETURN_ERROR(
      source.ok() && source.get() != nullptr && bytes->size() == weight.size,
      InvalidProgram,
      "named data '%s' holds %zu bytes, but the delegate blob says external "
      "weight '%s' has %" PRIu64 " bytes; re-export the program",
      weight.key.c_str(), bytes->size(), weight.name.c_str(), weight.size);
  return bytes;
}

// `checked`: the bytes the caller already read and checked against the key
// (verify_weights), uploaded from there; null: read here, unchecked.
Result<std::unique_ptr<DeviceWeight>> upload(const AclLibrary& library,
                                             int32_t device,
                                             const NamedDataMap& data,
                                             const ExternalWeight& weight,
                                             FreeableBuffer* checked) {
  std::optional<FreeableBuffer> read;
  if (checked == nullptr) {
    Result<FreeableBuffer> fetched = weight_bytes(data, weight);
    if (!fetched.ok()) {
      return fetched.error();
    }
    read.emplace(std::move(fetched.get()));
  }
  FreeableBuffer* bytes = checked != nullptr ? checked : &*read;
  const void* source = bytes->data();
  constexpr uint64_t kAlign = ACL_EXTERNAL_WEIGHT_SIZE_ALIGNMENT;
  ASCEND_CHECK_OR_RETURN_ERROR(weight.size <= SIZE_MAX - kAlign, InvalidProgram,
                               "external weight '%s' (%" PRIu64
                               " bytes) does not fit in memory",
                               weight.name.c_str(), weight.size);
  const size_t rounded =
      static_cast<size_t>((weight.size + kAlign - 1) / kAlign * kAlign);
  auto allocation =
      allocate_device_memory(library, rounded, device, weight.name.c_str());
  if (!allocation.ok()) {
    return allocation.error();
  }
  const aclError error =
      library.api().aclrtMemcpy((*allocation)->get(), rounded, source,
                                bytes->size(), ACL_MEMCPY_HOST_TO_DEVICE);
  // The upload is the only reader: unmap now, before the next weight.
  bytes->Free();
  ASCEND_CHECK_OR_RETURN_ERROR(error == ACL_SUCCESS, InvalidState,
                               "aclrtMemcpy of external weight '%s' (%" PRIu64
                               " bytes) to device %d failed with %d: %s",
                               weight.name.c_str(), weight.size, device, error,
                               library.recent_error());
  auto uploaded = std::make_unique<DeviceWeight>();
  uploaded->allocation = std::move(**allocation);
  uploaded->bytes = weight.size;
  uploaded->verified = checked != nullptr;
  return uploaded;
}

}  // namespace

WeightsCache& WeightsCache::get() {
  // Never destroyed: delegates may be destroyed during static destruction.
  static WeightsCache* cache = new WeightsCache();
  return *cache;
}

Result<std::shared_ptr<const DeviceWeight>> WeightsCache::acquire(
    const AclLibrary& library, int32_t device, const NamedDataMap& data,
    const ExternalWeight& weight, bool verify) {
  // Checked whether or not the cache holds a copy: whether a corrupted
  // program loads must not depend on what else the process has loaded. The
  // checked bytes are the ones uploaded, so they are read once.
  std::optional<FreeableBuffer> own;
  if (verify) {
    Result<FreeableBuffer> bytes = weight_bytes(data, weight);
    if (!bytes.ok()) {
      return bytes.error();
    }
    own.emplace(std::move(bytes.get()));
    const Error checked =
        verify_content(own->data(), own->size(), weight.key,
                       "external weight '" + weight.name + "'");
    if (checked != Error::Ok) {
      return checked;  // `own` frees the buffer
    }
  }
  auto entry = entries_.get(
      {device, weight.key},
      [verify](const DeviceWeight& held) { return held.verified || !verify; },
      [&] {
        return upload(library, device, data, weight, own ? &*own : nullptr);
      });
  own.reset();  // a cache hit read it only for the check
  if (!entry.ok()) {
    return entry.error();
  }
  // Keys name content, so one key has one size; a blob that disagrees with
  // the copy another program uploaded is malformed.
  ASCEND_CHECK_OR_RETURN_ERROR(
      (*entry)->bytes == weight.size, InvalidProgram,
      "named data '%s' is on device %d with %" PRIu64
      " bytes, but this delegate blob says external weight '%s' has %" PRIu64
      " bytes",
      weight.key.c_str(), device, (*entry)->bytes, weight.name.c_str(),
      weight.size);
  return std::shared_ptr<const DeviceWeight>(std::move(entry.get()));
}

}  // namespace executorch::backends::ascend
