// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Model descriptions: a snapshot of a loaded model's inputs and outputs.
// Bad handles or indexes give what real CANN gives (0, ACL_DT_UNDEFINED,
// ACL_FORMAT_UNDEFINED, NULL or an error code) plus a message.
#include <cstring>
#include <memory>
#include <vector>

#include "acl_api.h"
#include "api_call.h"
#include "errors.h"
#include "export.h"
#include "state.h"

using ascend_emu::IoDesc;
using ascend_emu::acl::ApiCall;
using ascend_emu::acl::Fail;
using ascend_emu::acl::State;

namespace {

const aclmdlDesc* FindDesc(State& state, const aclmdlDesc* handle) {
  auto it = state.descs.find(handle);
  if (it == state.descs.end()) {
    Fail(ACL_ERROR_INVALID_PARAM,
         "model description %p is not a live description (never created, or "
         "destroyed)",
         static_cast<const void*>(handle));
    return nullptr;
  }
  return it->second.get();
}

// The input or output `index` of a description, or nullptr (message set).
const IoDesc* FindIo(State& state, const aclmdlDesc* handle, bool input,
                     size_t index) {
  const aclmdlDesc* desc = FindDesc(state, handle);
  if (desc == nullptr) return nullptr;
  const std::vector<IoDesc>& ios = input ? desc->inputs : desc->outputs;
  if (index >= ios.size()) {
    Fail(ACL_ERROR_INVALID_PARAM,
         "%s index %zu is out of range: the model has "
         "%zu %s(s)",
         input ? "input" : "output", index, ios.size(),
         input ? "input" : "output");
    return nullptr;
  }
  return &ios[index];
}

// Non-faultable prologue for the getters; false when the call must stop.
bool EnterGetter(ApiCall& call) { return call.Enter() == ACL_SUCCESS; }

size_t IoSize(const char* name, const aclmdlDesc* desc, bool input,
              size_t index) {
  ApiCall call(name);
  if (!EnterGetter(call)) return 0;
  const IoDesc* io = FindIo(call.state(), desc, input, index);
  return io == nullptr ? 0 : io->size_bytes;
}

// `described`: the dims aclmdlGetInputDims reports (IoDesc::described
// where set); else those of the buffer (aclmdlGetInputDimsV2, outputs).
aclError IoDims(const char* name, const aclmdlDesc* desc, bool input,
                size_t index, aclmdlIODims* dims, bool described = false) {
  ApiCall call(name);
  if (aclError rc = call.Enter()) return rc;
  if (dims == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "dims is NULL");
  const IoDesc* io = FindIo(call.state(), desc, input, index);
  if (io == nullptr) return ACL_ERROR_INVALID_PARAM;
  const ascend_emu::Shape& shape =
      described && io->described.rank > 0 ? io->described : io->shape;
  std::memset(dims, 0, sizeof(*dims));
  std::strncpy(dims->name, io->name.c_str(), ACL_MAX_TENSOR_NAME_LEN - 1);
  dims->dimCount = static_cast<size_t>(shape.rank);
  for (int32_t i = 0; i < shape.rank && i < ACL_MAX_DIM_CNT; ++i) {
    dims->dims[i] = shape.dims[i];
  }
  return ACL_SUCCESS;
}

aclDataType IoType(const char* name, const aclmdlDesc* desc, bool input,
                   size_t index) {
  ApiCall call(name);
  if (!EnterGetter(call)) return ACL_DT_UNDEFINED;
  const IoDesc* io = FindIo(call.state(), desc, input, index);
  return io == nullptr ? ACL_DT_UNDEFINED : static_cast<aclDataType>(io->dtype);
}

aclFormat IoFormat(const char* name, const aclmdlDesc* desc, bool input,
                   size_t index) {
  ApiCall call(name);
  if (!EnterGetter(call)) return ACL_FORMAT_UNDEFINED;
  const IoDesc* io = FindIo(call.state(), desc, input, index);
  return io == nullptr ? ACL_FORMAT_UNDEFINED : io->format;
}

}  // namespace

extern "C" {

ACL_EMU_EXPORT aclmdlDesc* aclmdlCreateDesc(void) {
  ApiCall call(__func__);
  if (call.Enter() != ACL_SUCCESS) return nullptr;
  auto desc = std::make_unique<aclmdlDesc>();
  aclmdlDesc* raw = desc.get();
  call.state().descs.emplace(raw, std::move(desc));
  return raw;
}

ACL_EMU_EXPORT aclError aclmdlDestroyDesc(aclmdlDesc* modelDesc) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  State& state = call.state();
  if (FindDesc(state, modelDesc) == nullptr) return ACL_ERROR_INVALID_PARAM;
  state.descs.erase(modelDesc);
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclError aclmdlGetDesc(aclmdlDesc* modelDesc, uint32_t modelId) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  State& state = call.state();
  auto desc = state.descs.find(modelDesc);
  if (desc == state.descs.end()) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "model description %p is not a live description",
                static_cast<const void*>(modelDesc));
  }
  auto model = state.models.find(modelId);
  if (model == state.models.end()) {
    return Fail(ACL_ERROR_GE_EXEC_MODEL_ID_INVALID,
                "model id %u is not a loaded model (never loaded, or "
                "unloaded)",
                modelId);
  }
  const ascend_emu::Model& m = *model->second->model;
  desc->second->inputs = m.inputs();
  desc->second->outputs = m.outputs();
  desc->second->model_id = modelId;
  desc->second->gears = m.gear_table();
  desc->second->gear_outputs.clear();
  for (size_t g = 0; g < m.num_gears(); ++g) {
    desc->second->gear_outputs.push_back(m.gear_outputs(g));
  }
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT size_t aclmdlGetNumInputs(aclmdlDesc* modelDesc) {
  ApiCall call(__func__);
  if (!EnterGetter(call)) return 0;
  const aclmdlDesc* desc = FindDesc(call.state(), modelDesc);
  return desc == nullptr ? 0 : desc->inputs.size();
}

ACL_EMU_EXPORT size_t aclmdlGetNumOutputs(aclmdlDesc* modelDesc) {
  ApiCall call(__func__);
  if (!EnterGetter(call)) return 0;
  const aclmdlDesc* desc = FindDesc(call.state(), modelDesc);
  return desc == nullptr ? 0 : desc->outputs.size();
}

ACL_EMU_EXPORT size_t aclmdlGetInputSizeByIndex(aclmdlDesc* modelDesc,
                                                size_t index) {
  return IoSize(__func__, modelDesc, true, index);
}

ACL_EMU_EXPORT size_t aclmdlGetOutputSizeByIndex(aclmdlDesc* modelDesc,
                                                 size_t index) {
  return IoSize(__func__, modelDesc, false, index);
}

ACL_EMU_EXPORT aclError aclmdlGetInputDims(const aclmdlDesc* modelDesc,
                                           size_t index, aclmdlIODims* dims) {
  return IoDims(__func__, modelDesc, true, index, dims, /*described=*/true);
}

ACL_EMU_EXPORT aclError aclmdlGetInputDimsV2(const aclmdlDesc* modelDesc,
                                             size_t index, aclmdlIODims* dims) {
  return IoDims(__func__, modelDesc, true, index, dims);
}

ACL_EMU_EXPORT aclError aclmdlGetOutputDims(const aclmdlDesc* modelDesc,
                                            size_t index, aclmdlIODims* dims) {
  return IoDims(__func__, modelDesc, false, index, dims);
}

ACL_EMU_EXPORT aclDataType aclmdlGetInputDataType(const aclmdlDesc* modelDesc,
                                                  size_t index) {
  return IoType(__func__, modelDesc, true, index);
}

ACL_EMU_EXPORT aclDataType aclmdlGetOutputDataType(const aclmdlDesc* modelDesc,
                                                   size_t index) {
  return IoType(__func__, modelDesc, false, index);
}

ACL_EMU_EXPORT aclFormat aclmdlGetInputFormat(const aclmdlDesc* modelDesc,
                                              size_t index) {
  return IoFormat(__func__, modelDesc, true, index);
}

ACL_EMU_EXPORT aclFormat aclmdlGetOutputFormat(const aclmdlDesc* modelDesc,
                                               size_t index) {
  return IoFormat(__func__, modelDesc, false, index);
}

ACL_EMU_EXPORT const char* aclmdlGetInputNameByIndex(
    const aclmdlDesc* modelDesc, size_t index) {
  ApiCall call(__func__);
  if (!EnterGetter(call)) return nullptr;
  const IoDesc* io = FindIo(call.state(), modelDesc, true, index);
  return io == nullptr ? nullptr : io->name.c_str();
}

ACL_EMU_EXPORT const char* aclmdlGetOutputNameByIndex(
    const aclmdlDesc* modelDesc, size_t index) {
  ApiCall call(__func__);
  if (!EnterGetter(call)) return nullptr;
  const IoDesc* io = FindIo(call.state(), modelDesc, false, index);
  return io == nullptr ? nullptr : io->name.c_str();
}

}  // extern "C"
