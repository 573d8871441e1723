// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "model_loader.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

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

// What Model::work_size() will be: the arena (a gear model's largest
// gear's) plus the slack that aligns caller memory inside it.
size_t WorkSizeOf(const ascend_emu::Program& program) {
  uint64_t arena = program.arena_size;
  for (const ascend_emu::Program& gear : program.gears) {
    arena = std::max(arena, gear.arena_size);
  }
  return arena == 0 ? 0 : static_cast<size_t>(arena) + ascend_emu::kOmAlignment;
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
  // Parsed once: the tables say which weight files to bind and how much
  // memory the model needs, all checked before a weight byte is copied.
  ascend_emu::Program program;
  ascend_emu::OmWeightSection section;
  if (aclError rc = ReadModelTables(state, request.data, request.size, &program,
                                    &section)) {
    return rc;
  }
  ResolvedWeights weights;
  if (aclError rc =
          ResolveExternalWeights(state, context, program.external_weights,
                                 request.bound, request.folder, &weights)) {
    return rc;
  }
  auto record = std::make_unique<ModelRec>();
  const size_t work_size = WorkSizeOf(program);
  const size_t weight_size = static_cast<size_t>(section.size);
  if (aclError rc =
          CheckCallerMemory(state, context, "work", request.work,
                            request.work_size, work_size, &record->pinned)) {
    return rc;
  }
  if (aclError rc = CheckCallerMemory(state, context, "weight", request.weight,
                                      request.weight_size, weight_size,
                                      &record->pinned)) {
    return rc;
  }
  size_t charge = 0;
  if (!Add(request.work == nullptr ? work_size : 0,
           request.weight == nullptr ? weight_size : 0, &charge) ||
      !Add(charge, weights.file_bytes, &charge)) {
    return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION,
                "the model's work, weight and external weight sizes overflow "
                "size_t");
  }
  if (aclError rc = CheckDeviceHasRoom(state, context, charge)) return rc;
  // The inline weights go from the image straight to device memory, once:
  // into the caller's weight memory when given, else into the model's own.
  const ascend_emu::WeightMemory memory{request.weight, request.weight_size};
  if (aclError rc = LoadParsedModel(std::move(program), section,
                                    weights.bindings, memory, &record->model)) {
    return rc;
  }
  record->work = request.work;
  record->charged_bytes = charge;
  state.weight_file_bytes_read += weights.file_bytes;
  record->weight_files = std::move(weights.files);
  record->pinned.insert(record->pinned.end(), weights.pinned.begin(),
                        weights.pinned.end());
  *model_id = RegisterModel(state, context, std::move(record));
  return ACL_SUCCESS;
}

aclError QueryModelSizes(const State& state, const void* data, size_t size,
                         size_t* work_size, size_t* weight_size) {
  // As CANN, the sizes come from the model's tables: nothing is loaded, no
  // weight byte copied (the ops are validated when the model is loaded).
  ascend_emu::Program program;
  ascend_emu::OmWeightSection section;
  if (aclError rc = ReadModelTables(state, data, size, &program, &section)) {
    return rc;
  }
  const std::string error = ascend_emu::CheckExternalWeightFiles(program);
  if (!error.empty()) {
    return Fail(ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID,
                "invalid emulator .om: %s", error.c_str());
  }
  *work_size = WorkSizeOf(program);
  *weight_size = static_cast<size_t>(section.size);
  return ACL_SUCCESS;
}

MappedModelFile::~MappedModelFile() {
  if (data_ != nullptr) munmap(data_, size_);
}

aclError MapModelFile(const char* path, MappedModelFile* file) {
  const int fd = open(path, O_RDONLY | O_CLOEXEC);
  struct stat info {};
  if (fd < 0 || fstat(fd, &info) != 0) {
    const int error = errno;
    if (fd >= 0) close(fd);
    return Fail(ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID,
                "cannot read model file '%s': %s", path, std::strerror(error));
  }
  if (!S_ISREG(info.st_mode)) {
    close(fd);
    return Fail(ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID,
                "cannot read model file '%s': not a regular file", path);
  }
  if (info.st_size == 0) {
    close(fd);
    return Fail(ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID,
                "model file '%s' is empty", path);
  }
  const size_t size = static_cast<size_t>(info.st_size);
  void* data = mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  const int error = errno;
  close(fd);  // the mapping keeps the file
  if (data == MAP_FAILED) {
    return Fail(ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID,
                "cannot map model file '%s': %s", path, std::strerror(error));
  }
  file->data_ = data;
  file->size_ = size;
  return ACL_SUCCESS;
}

std::string WeightFolderBeside(const std::string& om_path) {
  const size_t slash = om_path.rfind('/');
  return slash == std::string::npos ? std::string("weight")
                                    : om_path.substr(0, slash + 1) + "weight";
}

}  // namespace ascend_emu::acl
