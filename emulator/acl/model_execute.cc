// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Running a model. Before the engine touches anything, every buffer is
// checked the way a real NPU would need it: device memory of the model's
// device, large enough for its tensor. "Async" execution runs to completion
// before returning (the stream only has to be valid).
#include <vector>

#include "acl_api.h"
#include "api_call.h"
#include "errors.h"
#include "export.h"
#include "model_gears.h"
#include "model_registry.h"
#include "profiling.h"
#include "state.h"

using ascend_emu::IoDesc;
using ascend_emu::acl::ApiCall;
using ascend_emu::acl::ContextRec;
using ascend_emu::acl::DevicePointer;
using ascend_emu::acl::Fail;
using ascend_emu::acl::ModelRec;
using ascend_emu::acl::State;

namespace {

// Collects the data pointers of `dataset`, checking each buffer against the
// description of the model's inputs or outputs.
aclError CollectBuffers(State& state, const ContextRec* context,
                        const aclmdlDataset* handle,
                        const std::vector<IoDesc>& ios, const char* role,
                        std::vector<void*>* pointers) {
  auto dataset = state.datasets.find(handle);
  if (dataset == state.datasets.end()) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "%s dataset %p is not a live dataset (never created, or "
                "destroyed)",
                role, static_cast<const void*>(handle));
  }
  const auto& buffers = dataset->second->buffers;
  if (buffers.size() != ios.size()) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "the %s dataset holds %zu buffer(s) but the model has %zu "
                "%s(s)",
                role, buffers.size(), ios.size(), role);
  }
  for (size_t i = 0; i < buffers.size(); ++i) {
    auto found = state.buffers.find(buffers[i]);
    if (found == state.buffers.end()) {
      return Fail(ACL_ERROR_INVALID_PARAM,
                  "%s %zu: data buffer %p was destroyed after it was added to "
                  "the dataset",
                  role, i, static_cast<const void*>(buffers[i]));
    }
    const aclDataBuffer& buffer = *found->second;
    const IoDesc& io = ios[i];
    if (buffer.size < io.size_bytes) {
      return Fail(ACL_ERROR_INVALID_PARAM,
                  "%s %zu ('%s'): the data buffer holds %zu bytes but the "
                  "model needs %zu",
                  role, i, io.name.c_str(), buffer.size, io.size_bytes);
    }
    DevicePointer device = ascend_emu::acl::ClassifyPointer(state, buffer.data);
    if (device.alloc == nullptr) {
      return Fail(ACL_ERROR_INVALID_PARAM,
                  "%s %zu ('%s'): buffer %p is host memory: model inputs and "
                  "outputs must be device memory (aclrtMalloc), copied with "
                  "aclrtMemcpy",
                  role, i, io.name.c_str(), buffer.data);
    }
    if (device.alloc->device != context->device) {
      return Fail(ACL_ERROR_INVALID_PARAM,
                  "%s %zu ('%s'): buffer %p is memory of device %d but the "
                  "model runs on device %d",
                  role, i, io.name.c_str(), buffer.data, device.alloc->device,
                  context->device);
    }
    if (device.remaining < buffer.size) {
      return Fail(ACL_ERROR_INVALID_PARAM,
                  "%s %zu ('%s'): the data buffer claims %zu bytes but its "
                  "device allocation holds only %zu bytes from %p",
                  role, i, io.name.c_str(), buffer.size, device.remaining,
                  buffer.data);
    }
    pointers->push_back(buffer.data);
  }
  return ACL_SUCCESS;
}

aclError Execute(State& state, uint32_t model_id, const aclmdlDataset* input,
                 const aclmdlDataset* output, aclrtStream stream,
                 bool with_stream) {
  ContextRec* context = nullptr;
  if (aclError rc = ascend_emu::acl::RequireCurrentContext(state, &context)) {
    return rc;
  }
  ModelRec* record = nullptr;
  if (aclError rc = ascend_emu::acl::FindModelInContext(state, model_id,
                                                        context, &record)) {
    return rc;
  }
  if (with_stream) {
    if (aclError rc = ascend_emu::acl::ResolveStream(state, stream, context)) {
      return rc;
    }
  }
  ascend_emu::Model& model = *record->model;
  std::vector<void*> inputs;
  std::vector<void*> outputs;
  size_t gear = 0;
  if (model.num_gears() != 0) {
    // A gear model: the gear input's buffer chooses the gear; every buffer
    // must then hold that gear's bytes (the largest gear's always fit).
    std::vector<IoDesc> loose = model.inputs();
    for (size_t i = 0; i + 1 < loose.size(); ++i) loose[i].size_bytes = 0;
    if (aclError rc =
            CollectBuffers(state, context, input, loose, "input", &inputs)) {
      return rc;
    }
    const aclDataBuffer& shape =
        *state.buffers.at(state.datasets.at(input)->buffers.back());
    if (aclError rc = ascend_emu::acl::SelectGear(model_id, model, shape.data,
                                                  shape.size, &gear)) {
      return rc;
    }
    inputs.clear();
  }
  if (aclError rc = CollectBuffers(state, context, input,
                                   model.gear_inputs(gear), "input", &inputs)) {
    return rc;
  }
  if (aclError rc =
          CollectBuffers(state, context, output, model.gear_outputs(gear),
                         "output", &outputs)) {
    return rc;
  }
  if (record->work != nullptr) {
    // The caller's work memory must still be allocated: running in freed
    // memory is what a real device would silently corrupt.
    DevicePointer work = ascend_emu::acl::ClassifyPointer(state, record->work);
    if (work.alloc == nullptr || work.remaining < model.work_size()) {
      return Fail(ACL_ERROR_INVALID_PARAM,
                  "model %u's work memory %p (aclmdlLoadFromMemWithMem) is no "
                  "longer allocated",
                  model_id, record->work);
    }
  }
  std::string error;
  if (model.num_gears() != 0) record->current_gear = static_cast<int64_t>(gear);
  // Profiling hook (profiling.h): null unless the model is subscribed.
  ascend_emu::OpTiming* timings = ascend_emu::acl::OpTimingsFor(*record, gear);
  if (!model.RunGearTimed(gear, inputs.data(), outputs.data(), record->work,
                          timings, &error)) {
    return Fail(ACL_ERROR_GE_FAILURE, "model %u failed to run: %s", model_id,
                error.c_str());
  }
  if (timings != nullptr) ascend_emu::acl::WriteOpRecords(*record, gear);
  ++state.executes;
  return ACL_SUCCESS;
}

}  // namespace

extern "C" {

ACL_EMU_EXPORT aclError aclmdlExecute(uint32_t modelId,
                                      const aclmdlDataset* input,
                                      aclmdlDataset* output) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  return Execute(call.state(), modelId, input, output, nullptr, false);
}

ACL_EMU_EXPORT aclError aclmdlExecuteAsync(uint32_t modelId,
                                           const aclmdlDataset* input,
                                           aclmdlDataset* output,
                                           aclrtStream stream) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  return Execute(call.state(), modelId, input, output, stream, true);
}

}  // extern "C"
