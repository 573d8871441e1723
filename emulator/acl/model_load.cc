// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Loading and unloading models. A model belongs to the context that was
// current when it was loaded; its work and weight memory is either managed
// by the emulator (charged to the device's memory) or given by the caller
// (aclmdlLoadFromMemWithMem).
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

#include "acl_api.h"
#include "api_call.h"
#include "errors.h"
#include "export.h"
#include "model_registry.h"
#include "state.h"

using ascend_emu::acl::ApiCall;
using ascend_emu::acl::ContextRec;
using ascend_emu::acl::Fail;
using ascend_emu::acl::ModelRec;
using ascend_emu::acl::State;

namespace {

bool ReadFile(const char* path, std::vector<unsigned char>* bytes,
              std::string* error) {
  FILE* file = std::fopen(path, "rb");
  if (file == nullptr) {
    *error = std::strerror(errno);
    return false;
  }
  unsigned char chunk[1 << 16];
  size_t read = 0;
  while ((read = std::fread(chunk, 1, sizeof(chunk), file)) > 0) {
    bytes->insert(bytes->end(), chunk, chunk + read);
  }
  bool failed = std::ferror(file) != 0;
  std::fclose(file);
  if (failed) *error = "read error";
  return !failed;
}

// Emulator-managed memory for a model: work plus weights, charged to the
// device like a real load would.
aclError ChargeModelMemory(State& state, const ContextRec* context,
                           size_t bytes) {
  const auto& device = state.devices[context->device];
  size_t free_bytes = state.config.device_memory - device.used_bytes;
  if (bytes > free_bytes) {
    return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION,
                "the model needs %zu bytes of device memory for work and "
                "weights but device %d has %zu bytes free",
                bytes, context->device, free_bytes);
  }
  return ACL_SUCCESS;
}

// Load from an image already validated by CheckModelBytes.
aclError LoadImage(State& state, const void* data, size_t size,
                   uint32_t* model_id) {
  ContextRec* context = nullptr;
  if (aclError rc = ascend_emu::acl::RequireCurrentContext(state, &context)) {
    return rc;
  }
  std::unique_ptr<ascend_emu::Model> model;
  if (aclError rc =
          ascend_emu::acl::ParseModelImage(state, data, size, &model)) {
    return rc;
  }
  size_t charge = model->work_size() + model->weight_size();
  if (charge < model->work_size()) {
    return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION,
                "the model's work and weight sizes overflow size_t");
  }
  if (aclError rc = ChargeModelMemory(state, context, charge)) return rc;
  *model_id = ascend_emu::acl::RegisterModel(state, context, std::move(model),
                                             nullptr, charge);
  return ACL_SUCCESS;
}

// Caller memory for work or weights: NULL leaves it to the emulator (as in
// real CANN); otherwise it must be device memory of the model's device that
// holds `needed` bytes, and the size the caller states must cover it too.
aclError CheckCallerMemory(const State& state, const ContextRec* context,
                           const char* what, void* ptr, size_t size,
                           size_t needed) {
  if (ptr == nullptr) return ACL_SUCCESS;
  auto device = ascend_emu::acl::ClassifyPointer(state, ptr);
  if (device.alloc == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "%sPtr %p is host memory: model %s memory must be device "
                "memory from aclrtMalloc",
                what, ptr, what);
  }
  if (device.alloc->device != context->device) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "%sPtr %p is memory of device %d but the current context is "
                "on device %d",
                what, ptr, device.alloc->device, context->device);
  }
  if (size < needed || device.remaining < needed) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "the model needs %zu bytes of %s memory but %sSize is %zu and "
                "the allocation holds %zu bytes from %sPtr",
                needed, what, what, size, device.remaining, what);
  }
  return ACL_SUCCESS;
}

}  // namespace

extern "C" {

ACL_EMU_EXPORT aclError aclmdlLoadFromFile(const char* modelPath,
                                           uint32_t* modelId) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  if (modelPath == nullptr || modelId == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM, "%s is NULL",
                modelPath == nullptr ? "modelPath" : "modelId");
  }
  std::vector<unsigned char> bytes;
  std::string error;
  if (!ReadFile(modelPath, &bytes, &error)) {
    return Fail(ACL_ERROR_INVALID_PARAM, "cannot read model file '%s': %s",
                modelPath, error.c_str());
  }
  if (bytes.empty()) {
    return Fail(ACL_ERROR_DESERIALIZE_MODEL, "model file '%s' is empty",
                modelPath);
  }
  return LoadImage(call.state(), bytes.data(), bytes.size(), modelId);
}

ACL_EMU_EXPORT aclError aclmdlLoadFromMem(const void* model, size_t modelSize,
                                          uint32_t* modelId) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  State& state = call.state();
  if (modelId == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM, "modelId is NULL");
  }
  if (aclError rc = ascend_emu::acl::CheckModelBytes(state, model, modelSize)) {
    return rc;
  }
  return LoadImage(state, model, modelSize, modelId);
}

ACL_EMU_EXPORT aclError aclmdlQuerySizeFromMem(const void* model,
                                               size_t modelSize,
                                               size_t* workSize,
                                               size_t* weightSize) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  State& state = call.state();
  if (workSize == nullptr || weightSize == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM, "%s is NULL",
                workSize == nullptr ? "workSize" : "weightSize");
  }
  if (aclError rc = ascend_emu::acl::CheckModelBytes(state, model, modelSize)) {
    return rc;
  }
  std::unique_ptr<ascend_emu::Model> parsed;
  if (aclError rc =
          ascend_emu::acl::ParseModelImage(state, model, modelSize, &parsed)) {
    return rc;
  }
  *workSize = parsed->work_size();
  *weightSize = parsed->weight_size();
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclError aclmdlLoadFromMemWithMem(
    const void* model, size_t modelSize, uint32_t* modelId, void* workPtr,
    size_t workSize, void* weightPtr, size_t weightSize) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  State& state = call.state();
  if (modelId == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM, "modelId is NULL");
  }
  if (aclError rc = ascend_emu::acl::CheckModelBytes(state, model, modelSize)) {
    return rc;
  }
  ContextRec* context = nullptr;
  if (aclError rc = ascend_emu::acl::RequireCurrentContext(state, &context)) {
    return rc;
  }
  std::unique_ptr<ascend_emu::Model> parsed;
  if (aclError rc =
          ascend_emu::acl::ParseModelImage(state, model, modelSize, &parsed)) {
    return rc;
  }
  if (aclError rc = CheckCallerMemory(state, context, "work", workPtr, workSize,
                                      parsed->work_size())) {
    return rc;
  }
  if (aclError rc = CheckCallerMemory(state, context, "weight", weightPtr,
                                      weightSize, parsed->weight_size())) {
    return rc;
  }
  // The engine keeps its weights in its own (host) memory; a caller weight
  // buffer is validated and reserved, not written.
  size_t charge = (workPtr == nullptr ? parsed->work_size() : 0) +
                  (weightPtr == nullptr ? parsed->weight_size() : 0);
  if (aclError rc = ChargeModelMemory(state, context, charge)) return rc;
  *modelId = ascend_emu::acl::RegisterModel(state, context, std::move(parsed),
                                            workPtr, charge);
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclError aclmdlUnload(uint32_t modelId) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  State& state = call.state();
  ContextRec* context = nullptr;
  if (aclError rc = ascend_emu::acl::RequireCurrentContext(state, &context)) {
    return rc;
  }
  ModelRec* model = nullptr;
  if (aclError rc = ascend_emu::acl::FindModelInContext(state, modelId, context,
                                                        &model)) {
    return rc;
  }
  state.devices[model->device].used_bytes -= model->charged_bytes;
  state.models.erase(modelId);
  return ACL_SUCCESS;
}

}  // extern "C"
