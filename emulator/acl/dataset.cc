// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Data buffers (pointer + size, borrowed) and datasets (ordered lists of
// borrowed data buffers). Both are registry handles, so a destroyed or
// forged handle is reported instead of dereferenced.
#include <memory>

#include "acl_api.h"
#include "api_call.h"
#include "errors.h"
#include "export.h"
#include "state.h"

using ascend_emu::acl::ApiCall;
using ascend_emu::acl::Fail;
using ascend_emu::acl::State;

namespace {

aclDataBuffer* FindBuffer(State& state, const aclDataBuffer* handle) {
  auto it = state.buffers.find(handle);
  return it == state.buffers.end() ? nullptr : it->second.get();
}

aclmdlDataset* FindDataset(State& state, const aclmdlDataset* handle) {
  auto it = state.datasets.find(handle);
  return it == state.datasets.end() ? nullptr : it->second.get();
}

}  // namespace

extern "C" {

ACL_EMU_EXPORT aclDataBuffer* aclCreateDataBuffer(void* data, size_t size) {
  ApiCall call(__func__);
  if (call.Enter() != ACL_SUCCESS) return nullptr;
  if (data == nullptr && size != 0) {
    Fail(ACL_ERROR_INVALID_PARAM, "data is NULL but size is %zu", size);
    return nullptr;
  }
  auto buffer = std::make_unique<aclDataBuffer>();
  buffer->data = data;
  buffer->size = size;
  aclDataBuffer* raw = buffer.get();
  call.state().buffers.emplace(raw, std::move(buffer));
  return raw;
}

ACL_EMU_EXPORT aclError aclDestroyDataBuffer(const aclDataBuffer* dataBuffer) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  State& state = call.state();
  if (FindBuffer(state, dataBuffer) == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "data buffer %p is not a live data buffer (never created, or "
                "destroyed)",
                static_cast<const void*>(dataBuffer));
  }
  state.buffers.erase(dataBuffer);
  return ACL_SUCCESS;
}

// Exclusive, like every change to a buffer: the execute checks cached for
// datasets holding it are dropped (the epoch moves) and made again.
ACL_EMU_EXPORT aclError aclUpdateDataBuffer(aclDataBuffer* dataBuffer,
                                            void* data, size_t size) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  aclDataBuffer* buffer = FindBuffer(call.state(), dataBuffer);
  if (buffer == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "data buffer %p is not a live data buffer (never created, or "
                "destroyed)",
                static_cast<const void*>(dataBuffer));
  }
  if (data == nullptr && size != 0) {
    return Fail(ACL_ERROR_INVALID_PARAM, "data is NULL but size is %zu", size);
  }
  buffer->data = data;
  buffer->size = size;
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT void* aclGetDataBufferAddr(const aclDataBuffer* dataBuffer) {
  ApiCall call(__func__);
  if (call.Enter() != ACL_SUCCESS || dataBuffer == nullptr) return nullptr;
  aclDataBuffer* buffer = FindBuffer(call.state(), dataBuffer);
  if (buffer == nullptr) {
    Fail(ACL_ERROR_INVALID_PARAM, "data buffer %p is not a live data buffer",
         static_cast<const void*>(dataBuffer));
    return nullptr;
  }
  return buffer->data;
}

ACL_EMU_EXPORT size_t aclGetDataBufferSizeV2(const aclDataBuffer* dataBuffer) {
  ApiCall call(__func__);
  if (call.Enter() != ACL_SUCCESS || dataBuffer == nullptr) return 0;
  aclDataBuffer* buffer = FindBuffer(call.state(), dataBuffer);
  if (buffer == nullptr) {
    Fail(ACL_ERROR_INVALID_PARAM, "data buffer %p is not a live data buffer",
         static_cast<const void*>(dataBuffer));
    return 0;
  }
  return buffer->size;
}

ACL_EMU_EXPORT aclmdlDataset* aclmdlCreateDataset(void) {
  ApiCall call(__func__);
  if (call.Enter() != ACL_SUCCESS) return nullptr;
  auto dataset = std::make_unique<aclmdlDataset>();
  aclmdlDataset* raw = dataset.get();
  call.state().datasets.emplace(raw, std::move(dataset));
  return raw;
}

ACL_EMU_EXPORT aclError aclmdlDestroyDataset(const aclmdlDataset* dataset) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  State& state = call.state();
  if (FindDataset(state, dataset) == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "dataset %p is not a live dataset (never created, or "
                "destroyed)",
                static_cast<const void*>(dataset));
  }
  // The buffers are the caller's: real CANN does not destroy them either.
  state.datasets.erase(dataset);
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclError aclmdlAddDatasetBuffer(aclmdlDataset* dataset,
                                               aclDataBuffer* dataBuffer) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  State& state = call.state();
  aclmdlDataset* target = FindDataset(state, dataset);
  if (target == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM, "dataset %p is not a live dataset",
                static_cast<const void*>(dataset));
  }
  if (FindBuffer(state, dataBuffer) == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "data buffer %p is not a live data buffer",
                static_cast<const void*>(dataBuffer));
  }
  target->buffers.push_back(dataBuffer);
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclDataBuffer* aclmdlGetDatasetBuffer(
    const aclmdlDataset* dataset, size_t index) {
  ApiCall call(__func__);
  if (call.Enter() != ACL_SUCCESS) return nullptr;
  aclmdlDataset* source = FindDataset(call.state(), dataset);
  if (source == nullptr) {
    Fail(ACL_ERROR_INVALID_PARAM, "dataset %p is not a live dataset",
         static_cast<const void*>(dataset));
    return nullptr;
  }
  if (index >= source->buffers.size()) {
    Fail(ACL_ERROR_INVALID_PARAM,
         "index %zu is out of range: the dataset "
         "holds %zu buffer(s)",
         index, source->buffers.size());
    return nullptr;
  }
  return source->buffers[index];
}

ACL_EMU_EXPORT size_t aclmdlGetDatasetNumBuffers(const aclmdlDataset* dataset) {
  ApiCall call(__func__);
  if (call.Enter() != ACL_SUCCESS || dataset == nullptr) return 0;
  aclmdlDataset* source = FindDataset(call.state(), dataset);
  if (source == nullptr) {
    Fail(ACL_ERROR_INVALID_PARAM, "dataset %p is not a live dataset",
         static_cast<const void*>(dataset));
    return 0;
  }
  return source->buffers.size();
}

}  // extern "C"
