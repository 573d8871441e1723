// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Loading with a config handle: aclmdlCreateConfigHandle,
// aclmdlSetConfigOpt, aclmdlSetExternalWeightAddress, aclmdlLoadWithConfig,
// aclmdlDestroyConfigHandle. The handle only records what was set (checking
// each value as real CANN does); aclmdlLoadWithConfig checks that the
// attributes the load type needs were set and hands a LoadRequest to the one
// loader (model_loader.h).
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "acl_api.h"
#include "api_call.h"
#include "errors.h"
#include "export.h"
#include "model_loader.h"
#include "model_registry.h"
#include "state.h"

using ascend_emu::acl::ApiCall;
using ascend_emu::acl::Fail;
using ascend_emu::acl::LoadRequest;
using ascend_emu::acl::State;

namespace {

// CANN's documented priority range (0 is the highest).
constexpr int32_t kHighestPriority = 0;
constexpr int32_t kLowestPriority = 7;

enum class ValueKind { kInt32, kSizeT, kPointer, kUnsupported };

struct AttrInfo {
  const char* name;
  ValueKind kind;
};

// aclmdlConfigAttr 0..15, in order; the emulator supports loading from file
// or memory with its own or caller memory, not the queue or exeom options.
constexpr AttrInfo kAttrs[] = {
    {"ACL_MDL_PRIORITY_INT32", ValueKind::kInt32},
    {"ACL_MDL_LOAD_TYPE_SIZET", ValueKind::kSizeT},
    {"ACL_MDL_PATH_PTR", ValueKind::kPointer},
    {"ACL_MDL_MEM_ADDR_PTR", ValueKind::kPointer},
    {"ACL_MDL_MEM_SIZET", ValueKind::kSizeT},
    {"ACL_MDL_WEIGHT_ADDR_PTR", ValueKind::kPointer},
    {"ACL_MDL_WEIGHT_SIZET", ValueKind::kSizeT},
    {"ACL_MDL_WORKSPACE_ADDR_PTR", ValueKind::kPointer},
    {"ACL_MDL_WORKSPACE_SIZET", ValueKind::kSizeT},
    {"ACL_MDL_INPUTQ_NUM_SIZET", ValueKind::kUnsupported},
    {"ACL_MDL_INPUTQ_ADDR_PTR", ValueKind::kUnsupported},
    {"ACL_MDL_OUTPUTQ_NUM_SIZET", ValueKind::kUnsupported},
    {"ACL_MDL_OUTPUTQ_ADDR_PTR", ValueKind::kUnsupported},
    {"ACL_MDL_WORKSPACE_MEM_OPTIMIZE", ValueKind::kUnsupported},
    {"ACL_MDL_WEIGHT_PATH_PTR", ValueKind::kPointer},
    {"ACL_MDL_MODEL_DESC_PTR", ValueKind::kUnsupported},
};

const AttrInfo* FindAttr(int attr) {
  if (attr < 0 || attr >= static_cast<int>(std::size(kAttrs))) return nullptr;
  return &kAttrs[attr];
}

const char* AttrName(int attr) {
  if (attr == ACL_MDL_RESERVED) return "ACL_MDL_RESERVED";
  const AttrInfo* info = FindAttr(attr);
  return info == nullptr ? "not an aclmdlConfigAttr" : info->name;
}

size_t ValueSize(ValueKind kind) {
  switch (kind) {
    case ValueKind::kInt32:
      return sizeof(int32_t);
    case ValueKind::kSizeT:
      return sizeof(size_t);
    default:
      return sizeof(void*);
  }
}

aclmdlConfigHandle* FindHandle(State& state, const aclmdlConfigHandle* handle) {
  auto it = state.config_handles.find(handle);
  return it == state.config_handles.end() ? nullptr : it->second.get();
}

aclError UnknownHandle(const aclmdlConfigHandle* handle) {
  if (handle == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "handle is NULL");
  return Fail(ACL_ERROR_INVALID_PARAM,
              "handle %p is not a live model config handle (never created, "
              "or destroyed)",
              static_cast<const void*>(handle));
}

// A path attribute: the value is the address of a non-NULL, non-empty C
// string, copied (as CANN copies it).
aclError SetPath(int attr, const void* value, std::string* path) {
  const char* text = *static_cast<const char* const*>(value);
  if (text == nullptr || text[0] == '\0') {
    return Fail(ACL_ERROR_INVALID_PARAM, "%s (%d): the path is %s",
                AttrName(attr), attr, text == nullptr ? "NULL" : "empty");
  }
  *path = text;
  return ACL_SUCCESS;
}

aclError SetLoadType(size_t type, aclmdlConfigHandle* config) {
  if (type == ACL_MDL_LOAD_FROM_FILE_WITH_Q ||
      type == ACL_MDL_LOAD_FROM_MEM_WITH_Q) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "ACL_MDL_LOAD_TYPE_SIZET (1): load type %zu (with queues) is "
                "not supported by the emulator; use ACL_MDL_LOAD_FROM_FILE "
                "(1), _FROM_FILE_WITH_MEM (2), _FROM_MEM (3) or "
                "_FROM_MEM_WITH_MEM (4)",
                type);
  }
  if (type < ACL_MDL_LOAD_FROM_FILE || type > ACL_MDL_LOAD_FROM_MEM_WITH_Q) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "ACL_MDL_LOAD_TYPE_SIZET (1): %zu is not a load type (it "
                "should be in [%d, %d])",
                type, ACL_MDL_LOAD_FROM_FILE, ACL_MDL_LOAD_FROM_MEM_WITH_Q);
  }
  config->load_type = type;
  return ACL_SUCCESS;
}

// Stores one checked value; the value's size was checked against its kind.
aclError Store(int attr, const void* value, aclmdlConfigHandle* config) {
  switch (attr) {
    case ACL_MDL_PRIORITY_INT32: {
      const int32_t priority = *static_cast<const int32_t*>(value);
      if (priority < kHighestPriority || priority > kLowestPriority) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "ACL_MDL_PRIORITY_INT32 (0): priority %d is outside "
                    "[%d, %d]",
                    priority, kHighestPriority, kLowestPriority);
      }
      config->priority = priority;  // one stream per model: nothing to order
      return ACL_SUCCESS;
    }
    case ACL_MDL_LOAD_TYPE_SIZET:
      return SetLoadType(*static_cast<const size_t*>(value), config);
    case ACL_MDL_PATH_PTR:
      return SetPath(attr, value, &config->path);
    case ACL_MDL_WEIGHT_PATH_PTR:
      return SetPath(attr, value, &config->weight_path);
    case ACL_MDL_MEM_ADDR_PTR:
      config->mem_addr = *static_cast<const void* const*>(value);
      if (config->mem_addr == nullptr) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "ACL_MDL_MEM_ADDR_PTR (3): the model address is NULL");
      }
      return ACL_SUCCESS;
    case ACL_MDL_MEM_SIZET:
      config->mem_size = *static_cast<const size_t*>(value);
      return ACL_SUCCESS;
    case ACL_MDL_WEIGHT_ADDR_PTR:  // NULL: the emulator's memory, as in CANN
      config->weight_addr = *static_cast<void* const*>(value);
      return ACL_SUCCESS;
    case ACL_MDL_WEIGHT_SIZET:
      config->weight_size = *static_cast<const size_t*>(value);
      return ACL_SUCCESS;
    case ACL_MDL_WORKSPACE_ADDR_PTR:
      config->work_addr = *static_cast<void* const*>(value);
      return ACL_SUCCESS;
    case ACL_MDL_WORKSPACE_SIZET:
      config->work_size = *static_cast<const size_t*>(value);
      return ACL_SUCCESS;
  }
  return Fail(ACL_ERROR_INVALID_PARAM, "%s (%d) is not supported",
              AttrName(attr), attr);
}

// The attributes load type `type` needs, and refuses those it cannot use.
aclError CheckForLoadType(const aclmdlConfigHandle& config) {
  const size_t type = config.load_type;
  const bool from_file =
      type == ACL_MDL_LOAD_FROM_FILE || type == ACL_MDL_LOAD_FROM_FILE_WITH_MEM;
  const bool with_mem = type == ACL_MDL_LOAD_FROM_FILE_WITH_MEM ||
                        type == ACL_MDL_LOAD_FROM_MEM_WITH_MEM;
  if (from_file && !config.has(ACL_MDL_PATH_PTR)) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "load type %zu loads from a file but ACL_MDL_PATH_PTR (2) is "
                "not set",
                type);
  }
  if (from_file && config.has(ACL_MDL_WEIGHT_PATH_PTR)) {
    // As CANN: a model loaded from a file finds its weight files in the
    // weight/ folder beside it.
    return Fail(ACL_ERROR_INVALID_PARAM,
                "ACL_MDL_WEIGHT_PATH_PTR (14) must not be set when loading "
                "from a file (load type %zu): the external weights are read "
                "from the weight/ folder beside the .om",
                type);
  }
  if (!from_file) {
    for (int attr : {ACL_MDL_MEM_ADDR_PTR, ACL_MDL_MEM_SIZET}) {
      if (!config.has(attr)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "load type %zu loads from memory but %s (%d) is not set",
                    type, AttrName(attr), attr);
      }
    }
  }
  if (!with_mem) {
    // CANN ignores these without a _WITH_MEM type; a caller that sets them
    // believes it owns memory the model does not use, which is a bug.
    for (int attr : {ACL_MDL_WEIGHT_ADDR_PTR, ACL_MDL_WEIGHT_SIZET,
                     ACL_MDL_WORKSPACE_ADDR_PTR, ACL_MDL_WORKSPACE_SIZET}) {
      if (config.has(attr)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "%s (%d) is set but load type %zu does not use caller "
                    "memory (use ACL_MDL_LOAD_FROM_FILE_WITH_MEM or "
                    "_FROM_MEM_WITH_MEM)",
                    AttrName(attr), attr, type);
      }
    }
  }
  return ACL_SUCCESS;
}

}  // namespace

extern "C" {

ACL_EMU_EXPORT aclmdlConfigHandle* aclmdlCreateConfigHandle() {
  ApiCall call(__func__);
  if (call.Enter() != ACL_SUCCESS) return nullptr;
  auto config = std::make_unique<aclmdlConfigHandle>();
  aclmdlConfigHandle* handle = config.get();
  call.state().config_handles.emplace(handle, std::move(config));
  return handle;
}

ACL_EMU_EXPORT aclError aclmdlDestroyConfigHandle(aclmdlConfigHandle* handle) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  if (call.state().config_handles.erase(handle) == 0) {
    return UnknownHandle(handle);
  }
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclError aclmdlSetConfigOpt(aclmdlConfigHandle* handle,
                                           aclmdlConfigAttr attr,
                                           const void* attrValue,
                                           size_t valueSize) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  aclmdlConfigHandle* config = FindHandle(call.state(), handle);
  if (config == nullptr) return UnknownHandle(handle);
  const int a = ascend_emu::acl::EnumValue(attr);
  const AttrInfo* info = FindAttr(a);
  if (info == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "attr %d (%s) is not an aclmdlConfigAttr the emulator knows "
                "(0..%zu)",
                a, AttrName(a), std::size(kAttrs) - 1);
  }
  if (info->kind == ValueKind::kUnsupported) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "attr %s (%d) is not supported by the emulator (it loads "
                "without queues, exeom descriptions or workspace "
                "optimisation)",
                info->name, a);
  }
  if (attrValue == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM, "%s (%d): attrValue is NULL",
                info->name, a);
  }
  if (valueSize != ValueSize(info->kind)) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "%s (%d): valueSize is %zu but it should be %zu%s", info->name,
                a, valueSize, ValueSize(info->kind),
                info->kind == ValueKind::kPointer
                    ? " (a pointer value is passed by the pointer's address)"
                    : "");
  }
  if (aclError rc = Store(a, attrValue, config)) return rc;
  config->set.insert(a);
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclError aclmdlSetExternalWeightAddress(
    aclmdlConfigHandle* handle, const char* weightFileName, void* devPtr,
    size_t size) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  State& state = call.state();
  aclmdlConfigHandle* config = FindHandle(state, handle);
  if (config == nullptr) return UnknownHandle(handle);
  if (weightFileName == nullptr || weightFileName[0] == '\0') {
    return Fail(ACL_ERROR_INVALID_PARAM, "weightFileName is %s",
                weightFileName == nullptr ? "NULL" : "empty");
  }
  if (std::strchr(weightFileName, '/') != nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "weightFileName '%s' is a path: give the file name alone",
                weightFileName);
  }
  if (devPtr == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM, "devPtr is NULL (weight file '%s')",
                weightFileName);
  }
  if (size == 0 || size % ACL_EXTERNAL_WEIGHT_SIZE_ALIGNMENT != 0) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "size %zu for weight file '%s' must be > 0 and a multiple of "
                "%d bytes",
                size, weightFileName, ACL_EXTERNAL_WEIGHT_SIZE_ALIGNMENT);
  }
  const auto device = ascend_emu::acl::ClassifyPointer(state, devPtr);
  if (device.alloc == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "devPtr %p for weight file '%s' is host memory: external "
                "weights must be in device memory from aclrtMalloc",
                devPtr, weightFileName);
  }
  if (device.remaining < size) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "size %zu for weight file '%s' runs past the end of its device "
                "allocation (%zu bytes from devPtr %p)",
                size, weightFileName, device.remaining, devPtr);
  }
  // Binding a name again replaces the first binding: CANN keeps a list and
  // turns it into a map by name at load, so the last one wins there too.
  config->weights[weightFileName] = {devPtr, size};
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclError aclmdlLoadWithConfig(const aclmdlConfigHandle* handle,
                                             uint32_t* modelId) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  State& state = call.state();
  const aclmdlConfigHandle* config = FindHandle(state, handle);
  if (config == nullptr) return UnknownHandle(handle);
  if (modelId == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM, "modelId is NULL");
  }
  if (!config->has(ACL_MDL_LOAD_TYPE_SIZET)) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "ACL_MDL_LOAD_TYPE_SIZET (1) is not set in the config handle");
  }
  if (aclError rc = CheckForLoadType(*config)) return rc;
  const bool from_file = config->load_type == ACL_MDL_LOAD_FROM_FILE ||
                         config->load_type == ACL_MDL_LOAD_FROM_FILE_WITH_MEM;
  ascend_emu::acl::MappedModelFile file;
  LoadRequest request;
  if (from_file) {
    if (aclError rc =
            ascend_emu::acl::MapModelFile(config->path.c_str(), &file)) {
      return rc;
    }
    request.data = file.data();
    request.size = file.size();
    request.folder = {ascend_emu::acl::WeightFolderBeside(config->path),
                      "the weight/ folder beside the .om"};
  } else {
    if (aclError rc = ascend_emu::acl::CheckModelBytes(state, config->mem_addr,
                                                       config->mem_size)) {
      return rc;
    }
    request.data = config->mem_addr;
    request.size = config->mem_size;
    request.folder = {config->weight_path, "ACL_MDL_WEIGHT_PATH_PTR"};
  }
  request.work = config->work_addr;
  request.work_size = config->work_size;
  request.weight = config->weight_addr;
  request.weight_size = config->weight_size;
  request.bound = &config->weights;
  return ascend_emu::acl::LoadModel(state, request, modelId);
}

}  // extern "C"
