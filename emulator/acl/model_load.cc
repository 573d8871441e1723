// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Loading and unloading models. A model belongs to the context that was
// current when it was loaded; its work and weight memory is either managed
// by the emulator (charged to the device's memory) or given by the caller
// (aclmdlLoadFromMemWithMem). Every load goes through LoadModel
// (model_loader.h); aclmdlLoadWithConfig is in model_config.cc.
#include "acl_api.h"
#include "api_call.h"
#include "errors.h"
#include "export.h"
#include "model_loader.h"
#include "model_registry.h"
#include "profiling.h"
#include "state.h"

using ascend_emu::acl::ApiCall;
using ascend_emu::acl::ContextRec;
using ascend_emu::acl::Fail;
using ascend_emu::acl::LoadRequest;
using ascend_emu::acl::ModelRec;
using ascend_emu::acl::State;

extern "C" {

ACL_EMU_EXPORT aclError aclmdlLoadFromFile(const char* modelPath,
                                           uint32_t* modelId) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  if (modelPath == nullptr || modelId == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM, "%s is NULL",
                modelPath == nullptr ? "modelPath" : "modelId");
  }
  ascend_emu::acl::MappedModelFile file;
  if (aclError rc = ascend_emu::acl::MapModelFile(modelPath, &file)) {
    return rc;
  }
  LoadRequest request;
  request.data = file.data();
  request.size = file.size();
  request.folder = {ascend_emu::acl::WeightFolderBeside(modelPath),
                    "the weight/ folder beside the .om"};
  return ascend_emu::acl::LoadModel(call.state(), request, modelId);
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
  LoadRequest request;
  request.data = model;
  request.size = modelSize;
  return ascend_emu::acl::LoadModel(state, request, modelId);
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
  size_t work = 0;
  size_t weight = 0;
  if (aclError rc = ascend_emu::acl::QueryModelSizes(state, model, modelSize,
                                                     &work, &weight)) {
    return rc;
  }
  *workSize = work;
  *weightSize = weight;
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
  LoadRequest request;
  request.data = model;
  request.size = modelSize;
  request.work = workPtr;
  request.work_size = workSize;
  request.weight = weightPtr;
  request.weight_size = weightSize;
  return ascend_emu::acl::LoadModel(state, request, modelId);
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
  // Unloading ends a subscription (profiling.h).
  ascend_emu::acl::EndSubscription(state, *model);
  state.devices[model->device].used_bytes -= model->charged_bytes;
  state.models.erase(modelId);
  return ACL_SUCCESS;
}

}  // extern "C"
