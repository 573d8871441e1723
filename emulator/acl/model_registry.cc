// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "model_registry.h"

#include <cstring>
#include <string>
#include <utility>

#include "emulator_ids.h"
#include "errors.h"

namespace ascend_emu::acl {

aclError CheckModelBytes(const State& state, const void* data, size_t size) {
  if (data == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "model is NULL");
  if (size == 0) return Fail(ACL_ERROR_INVALID_PARAM, "modelSize is 0");
  DevicePointer device = ClassifyPointer(state, data);
  if (device.alloc != nullptr && size > device.remaining) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "modelSize %zu runs past the end of the device allocation "
                "holding the model (%zu bytes from %p)",
                size, device.remaining, data);
  }
  return ACL_SUCCESS;
}

namespace {

aclError CheckMagic(const void* data, size_t size) {
  if (size < EXECUTORCH_ASCEND_EMU_OM_MAGIC_SIZE ||
      std::memcmp(data, EXECUTORCH_ASCEND_EMU_OM_MAGIC,
                  EXECUTORCH_ASCEND_EMU_OM_MAGIC_SIZE) != 0) {
    return Fail(ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID,
                "not an emulator .om (no AEMU.OM magic): models built by "
                "CANN's atc need a real Ascend device and real CANN");
  }
  return ACL_SUCCESS;
}

}  // namespace

aclError ReadModelTables(const State& state, const void* data, size_t size,
                         ascend_emu::Program* program,
                         ascend_emu::OmWeightSection* weights) {
  if (aclError rc = CheckMagic(data, size)) return rc;
  std::string error;
  if (!ascend_emu::ReadOmTables(data, size, program, weights, &error)) {
    return Fail(ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID,
                "invalid emulator .om: %s", error.c_str());
  }
  if (program->soc_version != state.config.soc_name) {
    return Fail(ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID,
                "the model was built for SoC '%s' (atc --soc_version) but the "
                "emulated SoC is '%s' (EXECUTORCH_ASCEND_EMU_SOC_NAME)",
                program->soc_version.c_str(), state.config.soc_name.c_str());
  }
  return ACL_SUCCESS;
}

aclError LoadParsedModel(ascend_emu::Program program,
                         const ascend_emu::OmWeightSection& weights,
                         const ascend_emu::WeightBindings& bindings,
                         const ascend_emu::WeightMemory& memory,
                         std::unique_ptr<ascend_emu::Model>* model) {
  std::string error;
  std::unique_ptr<ascend_emu::Model> parsed = ascend_emu::Model::LoadParsed(
      std::move(program), weights, bindings, memory, &error);
  if (parsed == nullptr) {
    return Fail(ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID,
                "invalid emulator .om: %s", error.c_str());
  }
  *model = std::move(parsed);
  return ACL_SUCCESS;
}

aclError FindDatasetBuffer(State& state, const aclmdlDataset* dataset,
                           size_t index, aclDataBuffer** buffer) {
  auto found = state.datasets.find(dataset);
  if (found == state.datasets.end()) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "dataset %p is not a live dataset (never created, or "
                "destroyed)",
                static_cast<const void*>(dataset));
  }
  const auto& buffers = found->second->buffers;
  if (index >= buffers.size()) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "failed to get data buffer by index %zu: the dataset holds "
                "%zu buffer(s)",
                index, buffers.size());
  }
  auto live = state.buffers.find(buffers[index]);
  if (live == state.buffers.end()) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "data buffer %zu of the dataset was destroyed", index);
  }
  *buffer = live->second.get();
  if ((*buffer)->data == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM, "data buffer %zu has a NULL address",
                index);
  }
  return ACL_SUCCESS;
}

aclError FindModelInContext(State& state, uint32_t model_id,
                            const ContextRec* context, ModelRec** model) {
  auto it = state.models.find(model_id);
  if (it == state.models.end()) {
    return Fail(ACL_ERROR_GE_EXEC_MODEL_ID_INVALID,
                "model id %u is not a loaded model (never loaded, or "
                "unloaded)",
                model_id);
  }
  if (it->second->context != context) {
    return Fail(ACL_ERROR_RT_MODEL_CONTEXT,
                "model %u was loaded in context %p (device %d) but the "
                "current context is %p (device %d): load, execute and unload "
                "of a model must happen in the same context",
                model_id, static_cast<void*>(it->second->context),
                it->second->device, static_cast<const void*>(context),
                context->device);
  }
  *model = it->second.get();
  return ACL_SUCCESS;
}

uint32_t RegisterModel(State& state, ContextRec* context,
                       std::unique_ptr<ModelRec> record) {
  record->id = state.next_model_id++;
  record->context = context;
  record->device = context->device;
  state.devices[context->device].used_bytes += record->charged_bytes;
  uint32_t id = record->id;
  state.models.emplace(id, std::move(record));
  return id;
}

}  // namespace ascend_emu::acl
