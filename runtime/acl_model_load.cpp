// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// AclModel's load paths (docs/runtime.md, "Loading a model"):
//   no external weights, ACL's memory   aclmdlLoadFromMem (any CANN);
//   no external weights, own memory     aclmdlQuerySizeFromMem +
//                                       aclmdlLoadFromMemWithMem;
//   external weights                    a config handle: LOAD_TYPE
//                                       FROM_MEM(_WITH_MEM), MEM_ADDR_PTR,
//                                       MEM_SIZET (+ WORKSPACE/WEIGHT),
//                                       aclmdlSetExternalWeightAddress per
//                                       file, aclmdlLoadWithConfig.
#include <string_view>
#include <unordered_set>

#include "acl_model.h"
#include "log.h"
#include "shared_workspace.h"

namespace executorch::backends::ascend {

using executorch::runtime::Error;
using executorch::runtime::NamedDataMap;
using executorch::runtime::Result;

namespace {

// What a failed model load means for the program: a model ACL cannot parse,
// or whose external weights the blob does not describe, is the program's
// fault; running out of device memory is the device's. CANN returns 145006
// (ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID) for model bytes it cannot
// parse; 100012 is kept for the older ACL that reported it.
Error load_error(aclError error) {
  switch (error) {
    case ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID:
    case ACL_ERROR_DESERIALIZE_MODEL:
    case ACL_ERROR_INVALID_PARAM:
      return Error::InvalidProgram;
    case ACL_ERROR_RT_MEMORY_ALLOCATION:
      return Error::DelegateMemoryAllocationFailed;
    default:
      return Error::InvalidState;
  }
}

const char* attr_name(aclmdlConfigAttr attr) {
  switch (attr) {
    case ACL_MDL_LOAD_TYPE_SIZET:
      return "ACL_MDL_LOAD_TYPE_SIZET";
    case ACL_MDL_MEM_ADDR_PTR:
      return "ACL_MDL_MEM_ADDR_PTR";
    case ACL_MDL_MEM_SIZET:
      return "ACL_MDL_MEM_SIZET";
    case ACL_MDL_WORKSPACE_ADDR_PTR:
      return "ACL_MDL_WORKSPACE_ADDR_PTR";
    case ACL_MDL_WORKSPACE_SIZET:
      return "ACL_MDL_WORKSPACE_SIZET";
    case ACL_MDL_WEIGHT_ADDR_PTR:
      return "ACL_MDL_WEIGHT_ADDR_PTR";
    case ACL_MDL_WEIGHT_SIZET:
      return "ACL_MDL_WEIGHT_SIZET";
    default:
      return "an aclmdlConfigAttr";
  }
}

// aclmdlSetConfigOpt with a size_t, or a pointer passed by its address.
class ConfigSetter {
 public:
  ConfigSetter(const AclLibrary& library, aclmdlConfigHandle* handle)
      : library_(library), handle_(handle) {}

  Error size(aclmdlConfigAttr attr, size_t value) const {
    return set(attr, &value, sizeof(value));
  }
  Error pointer(aclmdlConfigAttr attr, const void* value) const {
    return set(attr, &value, sizeof(value));
  }

 private:
  Error set(aclmdlConfigAttr attr, const void* value, size_t size) const {
    const aclError error =
        library_.api().aclmdlSetConfigOpt(handle_, attr, value, size);
    ASCEND_CHECK_OR_RETURN_ERROR(error == ACL_SUCCESS, InvalidState,
                                 "aclmdlSetConfigOpt(%s) failed with %d: %s",
                                 attr_name(attr), error,
                                 library_.recent_error());
    return Error::Ok;
  }

  const AclLibrary& library_;
  aclmdlConfigHandle* handle_;
};

// Every weight key must be in this program's own named data, even when the
// weights cache already holds a copy another program uploaded: whether a
// program loads must not depend on what else the process has loaded. A map
// that cannot list its keys is trusted (the cache or the upload still finds
// a missing key).
Error check_weight_keys_present(const NamedDataMap& named_data,
                                const std::vector<ExternalWeight>& weights) {
  const Result<uint32_t> count = named_data.get_num_keys();
  if (!count.ok()) {
    return Error::Ok;
  }
  std::unordered_set<std::string_view> keys;
  for (uint32_t i = 0; i < count.get(); ++i) {
    const Result<const char*> key = named_data.get_key(i);
    if (key.ok() && key.get() != nullptr) {
      keys.insert(key.get());
    }
  }
  for (const ExternalWeight& weight : weights) {
    ASCEND_CHECK_OR_RETURN_ERROR(
        keys.count(weight.key) != 0, NotFound,
        "named data '%s' (external weight '%s' of the compiled model) not "
        "found: load the .ptd file that holds the model's weights with the "
        ".pte",
        weight.key.c_str(), weight.name.c_str());
  }
  return Error::Ok;
}

}  // namespace

Error AclModel::acquire_weights(const ModelSource& source, bool verify) {
  if (source.weights == nullptr || source.weights->empty()) {
    return Error::Ok;
  }
  ASCEND_CHECK_OR_RETURN_ERROR(
      source.named_data != nullptr, NotFound,
      "no named data map, so the model's %zu external weight file(s) cannot "
      "be found: load the .ptd file that holds them with the .pte",
      source.weights->size());
  const Error present =
      check_weight_keys_present(*source.named_data, *source.weights);
  if (present != Error::Ok) {
    return present;
  }
  weights_.reserve(source.weights->size());
  for (const ExternalWeight& weight : *source.weights) {
    auto device_weight = WeightsCache::get().acquire(
        library_, device_id_, *source.named_data, weight, verify);
    if (!device_weight.ok()) {
      return device_weight.error();
    }
    weights_.push_back(std::move(device_weight.get()));
  }
  return Error::Ok;
}

Error AclModel::allocate_memory(const ModelSource& source,
                                const LoadOptions& options) {
  if (options.workspace == WorkspaceMode::kAcl) {
    return Error::Ok;
  }
  size_t work_size = 0;
  size_t weight_size = 0;
  const aclError error = api_->aclmdlQuerySizeFromMem(source.om, source.om_size,
                                                      &work_size, &weight_size);
  if (error != ACL_SUCCESS) {
    ASCEND_LOG(Error, "aclmdlQuerySizeFromMem (%zu bytes) failed with %d: %s",
               source.om_size, error, library_.recent_error());
    return load_error(error);
  }
  if (work_size > 0) {
    if (options.workspace == WorkspaceMode::kShared) {
      auto shared = SharedWorkspaces::get().acquire(
          library_, options.method_allocator, options.method_name, device_id_,
          work_size);
      if (!shared.ok()) {
        return shared.error();
      }
      work_ = std::move(shared.get());
    } else {
      auto own = allocate_device_memory(library_, work_size, device_id_,
                                        "the model's work memory");
      if (!own.ok()) {
        return own.error();
      }
      work_ = std::move(own.get());
    }
  }
  if (weight_size > 0) {
    auto own = allocate_device_memory(library_, weight_size, device_id_,
                                      "the model's inline weights");
    if (!own.ok()) {
      return own.error();
    }
    inline_weights_ = std::move(own.get());
  }
  return Error::Ok;
}

Error AclModel::load_model(const ModelSource& source,
                           const LoadOptions& options) {
  const bool with_memory = options.workspace != WorkspaceMode::kAcl;
  if (!weights_.empty()) {
    return load_with_config(source, with_memory);
  }
  uint32_t model_id = 0;
  const aclError error =
      with_memory
          ? api_->aclmdlLoadFromMemWithMem(
                source.om, source.om_size, &model_id,
                work_ ? work_->get() : nullptr, work_ ? work_->size : 0,
                inline_weights_ ? inline_weights_->get() : nullptr,
                inline_weights_ ? inline_weights_->size : 0)
          : api_->aclmdlLoadFromMem(source.om, source.om_size, &model_id);
  if (error != ACL_SUCCESS) {
    ASCEND_LOG(Error, "%s (%zu bytes) failed with %d: %s",
               with_memory ? "aclmdlLoadFromMemWithMem" : "aclmdlLoadFromMem",
               source.om_size, error, library_.recent_error());
    return load_error(error);
  }
  model_.emplace(api_, model_id);
  return Error::Ok;
}

Error AclModel::load_with_config(const ModelSource& source, bool with_memory) {
  ConfigHandle config(api_, api_->aclmdlCreateConfigHandle());
  ASCEND_CHECK_OR_RETURN_ERROR(static_cast<bool>(config), InvalidState,
                               "aclmdlCreateConfigHandle failed: %s",
                               library_.recent_error());
  const ConfigSetter set(library_, config.get());
  Error error = set.size(
      ACL_MDL_LOAD_TYPE_SIZET,
      with_memory ? ACL_MDL_LOAD_FROM_MEM_WITH_MEM : ACL_MDL_LOAD_FROM_MEM);
  if (error == Error::Ok) error = set.pointer(ACL_MDL_MEM_ADDR_PTR, source.om);
  if (error == Error::Ok) error = set.size(ACL_MDL_MEM_SIZET, source.om_size);
  if (error == Error::Ok && work_) {
    error = set.pointer(ACL_MDL_WORKSPACE_ADDR_PTR, work_->get());
    if (error == Error::Ok) {
      error = set.size(ACL_MDL_WORKSPACE_SIZET, work_->size);
    }
  }
  if (error == Error::Ok && inline_weights_) {
    error = set.pointer(ACL_MDL_WEIGHT_ADDR_PTR, inline_weights_->get());
    if (error == Error::Ok) {
      error = set.size(ACL_MDL_WEIGHT_SIZET, inline_weights_->size);
    }
  }
  if (error != Error::Ok) {
    return error;
  }
  for (size_t i = 0; i < weights_.size(); ++i) {
    const ExternalWeight& weight = (*source.weights)[i];
    const DeviceAllocation& memory = weights_[i]->allocation;
    const aclError bind_error = api_->aclmdlSetExternalWeightAddress(
        config.get(), weight.name.c_str(), memory.get(), memory.size);
    ASCEND_CHECK_OR_RETURN_ERROR(
        bind_error == ACL_SUCCESS, InvalidState,
        "aclmdlSetExternalWeightAddress('%s', %zu bytes) failed with %d: %s",
        weight.name.c_str(), memory.size, bind_error, library_.recent_error());
  }
  uint32_t model_id = 0;
  const aclError load = api_->aclmdlLoadWithConfig(config.get(), &model_id);
  if (load != ACL_SUCCESS) {
    ASCEND_LOG(Error,
               "aclmdlLoadWithConfig (%zu bytes, %zu external weight "
               "file(s)) failed with %d: %s",
               source.om_size, weights_.size(), load, library_.recent_error());
    return load_error(load);
  }
  // Loaded: a failing destroy is reported like any failed ACL call, with
  // the model unloaded again by the caller's cleanup.
  model_.emplace(api_, model_id);
  const aclError destroy = api_->aclmdlDestroyConfigHandle(config.release());
  ASCEND_CHECK_OR_RETURN_ERROR(destroy == ACL_SUCCESS, InvalidState,
                               "aclmdlDestroyConfigHandle failed with %d: %s",
                               destroy, library_.recent_error());
  return Error::Ok;
}

}  // namespace executorch::backends::ascend
