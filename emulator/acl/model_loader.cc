// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "model_loader.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "ascend_emu/om_format.h"
#include "ascend_emu/program_check.h"
#include "errors.h"
#include "model_registry.h"

namespace ascend_emu::acl {
namespace {

// Caller memory for work or weights: NULL leaves it to the emulator (as in
// real CANN); otherwise it must be device memory of the model's device that
// holds `needed` bytes, and the size the caller states must cover it too.
// A checked allocation is pinned while the model is loaded.
aclError CheckCallerMemory(const State& state, const ContextRec* context,
                           const char* what, void* ptr, size_t size,
                           size_t needed, std::vector<uintptr_t>* pinned) {
  if (ptr == nullptr) return ACL_SUCCESS;
  auto device = ClassifyPointer(state, ptr);
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
  pinned->push_back(device.base);
  return ACL_SUCCESS;
}

// Emulator-managed memory for a model, charged to the device like a real
// load would.
aclError CheckDeviceHasRoom(const State& state, const ContextRec* context,
                            size_t bytes) {
  const auto& device = state.devices[context->device];
  size_t free_bytes = state.config.device_memory - device.used_bytes;
  if (bytes > free_bytes) {
    return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION,
                "the model needs %zu bytes of device memory for work, "
                "weights and external weight files but device %d has %zu "
                "bytes free",
                bytes, context->device, free_bytes);
  }
  return ACL_SUCCESS;
}

// a + b, or false on overflow.
bool Add(size_t a, size_t b, size_t* sum) {
  *sum = a + b;
  return *sum >= a;
}

}  // namespace

aclError LoadModel(State& state, const LoadRequest& request,
                   uint32_t* model_id) {
  ContextRec* context = nullptr;
  if (aclError rc = RequireCurrentContext(state, &context)) return rc;
  std::vector<ascend_emu::ExternalWeightDesc> files;
  if (aclError rc = ReadModelWeightFiles(request.data, request.size, &files)) {
    return rc;
  }
  ResolvedWeights weights;
  if (aclError rc = ResolveExternalWeights(state, context, files, request.bound,
                                           request.folder, &weights)) {
    return rc;
  }
  auto record = std::make_unique<ModelRec>();
  if (aclError rc = ParseModelImage(state, request.data, request.size,
                                    weights.bindings, &record->model)) {
    return rc;
  }
  const ascend_emu::Model& model = *record->model;
  if (aclError rc = CheckCallerMemory(state, context, "work", request.work,
                                      request.work_size, model.work_size(),
                                      &record->pinned)) {
    return rc;
  }
  if (aclError rc = CheckCallerMemory(state, context, "weight", request.weight,
                                      request.weight_size, model.weight_size(),
                                      &record->pinned)) {
    return rc;
  }
  // The engine keeps inline weights in its own (host) memory: a caller
  // weight buffer is validated and reserved, not written.
  size_t charge = 0;
  if (!Add(request.work == nullptr ? model.work_size() : 0,
           request.weight == nullptr ? model.weight_size() : 0, &charge) ||
      !Add(charge, weights.file_bytes, &charge)) {
    return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION,
                "the model's work, weight and external weight sizes overflow "
                "size_t");
  }
  if (aclError rc = CheckDeviceHasRoom(state, context, charge)) return rc;
  record->work = request.work;
  record->charged_bytes = charge;
  record->weight_files = std::move(weights.files);
  record->pinned.insert(record->pinned.end(), weights.pinned.begin(),
                        weights.pinned.end());
  *model_id = RegisterModel(state, context, std::move(record));
  return ACL_SUCCESS;
}

aclError QueryModelSizes(const State& state, const void* data, size_t size,
                         size_t* work_size, size_t* weight_size) {
  std::vector<ascend_emu::ExternalWeightDesc> files;
  if (aclError rc = ReadModelWeightFiles(data, size, &files)) return rc;
  if (files.empty()) {
    std::unique_ptr<ascend_emu::Model> model;
    if (aclError rc = ParseModelImage(state, data, size, {}, &model)) {
      return rc;
    }
    *work_size = model->work_size();
    *weight_size = model->weight_size();
    return ACL_SUCCESS;
  }
  // The ops of a model with external weights are validated against those
  // bytes (a Reshape may read its shape from a weight file), which a size
  // query does not have: read the sizes from the parsed program, as CANN
  // reads them from the .om's header.
  ascend_emu::Program program;
  std::string error;
  if (!ascend_emu::ReadOm(data, size, &program, &error)) {
    return Fail(ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID,
                "invalid emulator .om: %s", error.c_str());
  }
  error = ascend_emu::CheckExternalWeightFiles(program);
  if (!error.empty()) {
    return Fail(ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID,
                "invalid emulator .om: %s", error.c_str());
  }
  if (program.soc_version != state.config.soc_name) {
    return Fail(ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID,
                "the model was built for SoC '%s' (atc --soc_version) but the "
                "emulated SoC is '%s' (EXECUTORCH_ASCEND_EMU_SOC_NAME)",
                program.soc_version.c_str(), state.config.soc_name.c_str());
  }
  // The same sizes as Model::work_size() and weight_size(): the arena (a
  // gear model's largest gear's) plus the slack that aligns caller memory
  // inside it, and the weight section.
  uint64_t arena = program.arena_size;
  for (const ascend_emu::Program& gear : program.gears) {
    arena = std::max(arena, gear.arena_size);
  }
  *work_size =
      arena == 0 ? 0 : static_cast<size_t>(arena) + ascend_emu::kOmAlignment;
  *weight_size = program.weights.size();
  return ACL_SUCCESS;
}

aclError ReadModelFile(const char* path, std::vector<unsigned char>* bytes) {
  FILE* file = std::fopen(path, "rb");
  if (file == nullptr) {
    return Fail(ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID,
                "cannot read model file '%s': %s", path, std::strerror(errno));
  }
  unsigned char chunk[1 << 16];
  size_t read = 0;
  while ((read = std::fread(chunk, 1, sizeof(chunk), file)) > 0) {
    bytes->insert(bytes->end(), chunk, chunk + read);
  }
  const bool failed = std::ferror(file) != 0;
  std::fclose(file);
  if (failed) {
    return Fail(ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID,
                "cannot read model file '%s': read error", path);
  }
  if (bytes->empty()) {
    return Fail(ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID,
                "model file '%s' is empty", path);
  }
  return ACL_SUCCESS;
}

std::string WeightFolderBeside(const std::string& om_path) {
  const size_t slash = om_path.rfind('/');
  return slash == std::string::npos ? std::string("weight")
                                    : om_path.substr(0, slash + 1) + "weight";
}

}  // namespace ascend_emu::acl
