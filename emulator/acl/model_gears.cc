// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Shape gears: the acl_mdl.h calls of a model compiled with atc
// --dynamic_batch_size or --dynamic_dims. Set* checks the value is a gear and
// writes it into the dataset's buffer of the gear input
// (ACL_DYNAMIC_TENSOR_NAME, the model's last input), as CANN does; execute
// reads that buffer to choose the gear (model_execute.cc). Codes as CANN's
// (ge_executor, acl model.cpp): 145012 for a buffer or dims count that does
// not fit, 145013 for a value that is not a gear.
#include "model_gears.h"

#include <cstring>
#include <string>
#include <vector>

#include "acl_api.h"
#include "api_call.h"
#include "errors.h"
#include "export.h"
#include "model_registry.h"
#include "state.h"

using ascend_emu::DynamicType;
using ascend_emu::GearTable;
using ascend_emu::IoDesc;
using ascend_emu::acl::ApiCall;
using ascend_emu::acl::ContextRec;
using ascend_emu::acl::DevicePointer;
using ascend_emu::acl::Fail;
using ascend_emu::acl::ModelRec;
using ascend_emu::acl::State;

namespace ascend_emu::acl {

std::string GearList(const GearTable& table) {
  std::string s;
  for (const std::vector<int64_t>& gear : table.values) {
    std::string one;
    for (int64_t v : gear) one += (one.empty() ? "" : ",") + std::to_string(v);
    if (gear.size() != 1) one = "[" + one + "]";
    s += (s.empty() ? "" : ", ") + one;
  }
  return s;
}

int64_t FindGear(const GearTable& table, const std::vector<uint64_t>& values) {
  for (size_t g = 0; g < table.values.size(); ++g) {
    const std::vector<int64_t>& gear = table.values[g];
    bool same = gear.size() == values.size();
    for (size_t k = 0; same && k < gear.size(); ++k) {
      same = static_cast<uint64_t>(gear[k]) == values[k];
    }
    if (same) return static_cast<int64_t>(g);
  }
  return -1;
}

size_t GearElementSize(size_t size, size_t count) {
  return size / 8 >= count ? 8 : 4;
}

aclError SelectGear(uint32_t model_id, const ascend_emu::Model& model,
                    const void* data, size_t size, size_t* gear) {
  const GearTable& table = model.gear_table();
  const size_t count = table.values_per_gear();
  const size_t element = GearElementSize(size, count);
  std::vector<uint64_t> values(count);
  std::string text;
  for (size_t k = 0; k < count; ++k) {
    const uint8_t* p = static_cast<const uint8_t*>(data) + k * element;
    uint64_t v = 0;
    for (size_t b = 0; b < element; ++b) v |= uint64_t{p[b]} << (8 * b);
    values[k] = v;
    text += (text.empty() ? "" : ",") + std::to_string(v);
  }
  const int64_t found = FindGear(table, values);
  if (found < 0) {
    const size_t index = model.inputs().size() - 1;
    return Fail(ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID,
                "model %u: the gear input '%s' (input %zu) holds %s, which is "
                "not a gear of the model (gears: %s); set it with %s before "
                "aclmdlExecute",
                model_id, ACL_DYNAMIC_TENSOR_NAME, index, text.c_str(),
                GearList(table).c_str(),
                table.type == DynamicType::kDynamicBatch
                    ? "aclmdlSetDynamicBatchSize"
                    : "aclmdlSetInputDynamicDims");
  }
  *gear = static_cast<size_t>(found);
  return ACL_SUCCESS;
}

}  // namespace ascend_emu::acl

namespace {

const char* TypeOption(DynamicType type) {
  switch (type) {
    case DynamicType::kDynamicBatch:
      return "--dynamic_batch_size";
    case DynamicType::kDynamicDims:
      return "--dynamic_dims";
    default:
      return "no gears (static shapes)";
  }
}

// The checks every Set* call makes before it looks at the value: a live
// dataset with a buffer at `index` that is the model's gear input, a model
// of the wanted gear type loaded in the current context.
aclError FindGearBuffer(State& state, const char* function, uint32_t model_id,
                        const aclmdlDataset* dataset, size_t index,
                        DynamicType want, ModelRec** record,
                        aclDataBuffer** buffer) {
  if (dataset == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM, "dataset is NULL");
  }
  ContextRec* context = nullptr;
  if (aclError rc = ascend_emu::acl::RequireCurrentContext(state, &context)) {
    return rc;
  }
  if (aclError rc = ascend_emu::acl::FindModelInContext(state, model_id,
                                                        context, record)) {
    return rc;
  }
  if (aclError rc =
          ascend_emu::acl::FindDatasetBuffer(state, dataset, index, buffer))
    return rc;
  const ascend_emu::Model& model = *(*record)->model;
  const GearTable& table = model.gear_table();
  if (table.type != want) {
    return Fail(ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID,
                "model %u was compiled with %s, not %s: %s does not apply "
                "to it",
                model_id, TypeOption(table.type), TypeOption(want), function);
  }
  const size_t gear_input = model.inputs().size() - 1;
  if (index != gear_input) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "index %zu is input '%s', not the gear input '%s' (index %zu: "
                "aclmdlGetInputIndexByName(desc, ACL_DYNAMIC_TENSOR_NAME, "
                "&index))",
                index, model.inputs()[index].name.c_str(),
                ACL_DYNAMIC_TENSOR_NAME, gear_input);
  }
  return ACL_SUCCESS;
}

// Writes the gear's values into the gear input buffer (uint64 each when it
// has room, else uint32, as CANN does) and makes it the current gear.
aclError WriteGear(State& state, ModelRec* record, aclDataBuffer* buffer,
                   const std::vector<uint64_t>& values, size_t gear) {
  const size_t element =
      ascend_emu::acl::GearElementSize(buffer->size, values.size());
  DevicePointer device = ascend_emu::acl::ClassifyPointer(state, buffer->data);
  if (device.alloc == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "the gear input buffer %p is host memory: model inputs are "
                "device memory (aclrtMalloc)",
                buffer->data);
  }
  if (device.remaining < element * values.size()) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "the gear input buffer claims %zu bytes but its device "
                "allocation holds only %zu from %p",
                buffer->size, device.remaining, buffer->data);
  }
  uint8_t* p = static_cast<uint8_t*>(buffer->data);
  for (uint64_t v : values) {
    for (size_t b = 0; b < element; ++b)
      *p++ = static_cast<uint8_t>(v >> (8 * b));
  }
  record->current_gear = static_cast<int64_t>(gear);
  return ACL_SUCCESS;
}

const aclmdlDesc* FindDesc(State& state, const aclmdlDesc* desc) {
  if (desc == nullptr) {
    Fail(ACL_ERROR_INVALID_PARAM, "modelDesc is NULL");
    return nullptr;
  }
  auto it = state.descs.find(desc);
  if (it == state.descs.end()) {
    Fail(ACL_ERROR_INVALID_PARAM,
         "model description %p is not a live description (never created, or "
         "destroyed)",
         static_cast<const void*>(desc));
    return nullptr;
  }
  return it->second.get();
}

void CopyDims(const IoDesc& io, aclmdlIODims* dims) {
  std::memset(dims, 0, sizeof(*dims));
  std::strncpy(dims->name, io.name.c_str(), ACL_MAX_TENSOR_NAME_LEN - 1);
  dims->dimCount = static_cast<size_t>(io.shape.rank);
  for (int32_t i = 0; i < io.shape.rank && i < ACL_MAX_DIM_CNT; ++i) {
    dims->dims[i] = io.shape.dims[i];
  }
}

// The dims of the shape-order inputs, concatenated (-1 where dynamic).
std::vector<int64_t> AllShapeDims(const aclmdlDesc& desc) {
  std::vector<int64_t> all;
  for (uint32_t i : desc.gears.shape_order) {
    const IoDesc& io = desc.inputs[i];
    all.insert(all.end(), io.shape.dims, io.shape.dims + io.shape.rank);
  }
  return all;
}

constexpr size_t kUnusedIndex = static_cast<size_t>(-1);

}  // namespace

extern "C" {

ACL_EMU_EXPORT aclError aclmdlSetDynamicBatchSize(uint32_t modelId,
                                                  aclmdlDataset* dataset,
                                                  size_t index,
                                                  uint64_t batchSize) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  if (dataset == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM, "dataset is NULL");
  }
  if (batchSize == 0) {
    return Fail(ACL_ERROR_INVALID_PARAM, "batchSize can't be zero");
  }
  State& state = call.state();
  ModelRec* record = nullptr;
  aclDataBuffer* buffer = nullptr;
  if (aclError rc =
          FindGearBuffer(state, __func__, modelId, dataset, index,
                         DynamicType::kDynamicBatch, &record, &buffer)) {
    return rc;
  }
  if (buffer->size < sizeof(uint32_t)) {
    return Fail(ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID,
                "Dynamic input size [%zu] is less than [4] (the gear input "
                "buffer)",
                buffer->size);
  }
  const GearTable& table = record->model->gear_table();
  const int64_t gear = ascend_emu::acl::FindGear(table, {batchSize});
  if (gear < 0) {
    return Fail(ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID,
                "batch size %llu is not a gear of model %u (--dynamic_batch_"
                "size gears: %s)",
                static_cast<unsigned long long>(batchSize), modelId,
                ascend_emu::acl::GearList(table).c_str());
  }
  return WriteGear(state, record, buffer, {batchSize},
                   static_cast<size_t>(gear));
}

ACL_EMU_EXPORT aclError aclmdlSetInputDynamicDims(uint32_t modelId,
                                                  aclmdlDataset* dataset,
                                                  size_t index,
                                                  const aclmdlIODims* dims) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  if (dataset == nullptr || dims == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM, "%s is NULL",
                dataset == nullptr ? "dataset" : "dims");
  }
  if (dims->dimCount == 0 || dims->dimCount > ACL_MAX_DIM_CNT) {
    return Fail(ACL_ERROR_INVALID_PARAM, "dimCount[%zu] is invalid (1 to %d)",
                dims->dimCount, ACL_MAX_DIM_CNT);
  }
  State& state = call.state();
  ModelRec* record = nullptr;
  aclDataBuffer* buffer = nullptr;
  if (aclError rc =
          FindGearBuffer(state, __func__, modelId, dataset, index,
                         DynamicType::kDynamicDims, &record, &buffer)) {
    return rc;
  }
  const ascend_emu::Model& model = *record->model;
  const GearTable& table = model.gear_table();
  // The dims of every --input_shape input, in its order; the -1s are the
  // gear's values.
  std::vector<int64_t> all;
  std::string names;
  for (uint32_t i : table.shape_order) {
    const IoDesc& io = model.inputs()[i];
    all.insert(all.end(), io.shape.dims, io.shape.dims + io.shape.rank);
    names += (names.empty() ? "" : ", ") + io.name;
  }
  if (dims->dimCount != all.size()) {
    return Fail(ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID,
                "Dynamic input size [%zu] is not equal with all data dims "
                "size [%zu] (the dims of %s, concatenated in --input_shape "
                "order)",
                dims->dimCount, all.size(), names.c_str());
  }
  std::vector<uint64_t> values;
  for (size_t k = 0; k < all.size(); ++k) {
    if (all[k] < 0) {
      values.push_back(static_cast<uint64_t>(dims->dims[k]));
    } else if (dims->dims[k] != all[k]) {
      return Fail(ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID,
                  "Static dims should be same, index:%zu value:%lld should "
                  "be %lld",
                  k, static_cast<long long>(dims->dims[k]),
                  static_cast<long long>(all[k]));
    }
  }
  const int64_t gear = ascend_emu::acl::FindGear(table, values);
  if (gear < 0) {
    std::string text;
    for (uint64_t v : values) {
      text += (text.empty() ? "" : ",") + std::to_string(v);
    }
    return Fail(ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID,
                "dynamic dims [%s] are not a gear of model %u (--dynamic_dims "
                "gears: %s)",
                text.c_str(), modelId,
                ascend_emu::acl::GearList(table).c_str());
  }
  if (buffer->size < values.size() * sizeof(uint32_t)) {
    return Fail(ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID,
                "input dynamic size [%zu] is less than [%zu] (the gear input "
                "buffer)",
                buffer->size, values.size() * sizeof(uint32_t));
  }
  return WriteGear(state, record, buffer, values, static_cast<size_t>(gear));
}

ACL_EMU_EXPORT aclError aclmdlGetCurOutputDims(const aclmdlDesc* modelDesc,
                                               size_t index,
                                               aclmdlIODims* dims) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  State& state = call.state();
  const aclmdlDesc* desc = FindDesc(state, modelDesc);
  if (desc == nullptr) return ACL_ERROR_INVALID_PARAM;
  if (dims == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "dims is NULL");
  if (index >= desc->outputs.size()) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "aclmdlGetCurOutputDims failed, index[%zu] should be smaller "
                "than tensor size[%zu], modelId[%u]",
                index, desc->outputs.size(), desc->model_id);
  }
  auto model = state.models.find(desc->model_id);
  if (model == state.models.end()) {
    return Fail(ACL_ERROR_GE_EXEC_MODEL_ID_INVALID,
                "model id %u of this description is not loaded (the current "
                "shape is the loaded model's)",
                desc->model_id);
  }
  const int64_t gear = model->second->current_gear;
  if (desc->gear_outputs.empty() || gear < 0 ||
      static_cast<size_t>(gear) >= desc->gear_outputs.size()) {
    // Static, or no gear chosen yet: the model's (largest) output dims.
    CopyDims(desc->outputs[index], dims);
    return ACL_SUCCESS;
  }
  CopyDims(desc->gear_outputs[static_cast<size_t>(gear)][index], dims);
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclError aclmdlGetInputIndexByName(const aclmdlDesc* modelDesc,
                                                  const char* name,
                                                  size_t* index) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  const aclmdlDesc* desc = FindDesc(call.state(), modelDesc);
  if (desc == nullptr) return ACL_ERROR_INVALID_PARAM;
  if (name == nullptr || index == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM, "%s is NULL",
                name == nullptr ? "name" : "index");
  }
  std::string names;
  for (size_t i = 0; i < desc->inputs.size(); ++i) {
    if (desc->inputs[i].name == name) {
      *index = i;
      return ACL_SUCCESS;
    }
    names += (names.empty() ? "" : ", ") + desc->inputs[i].name;
  }
  return Fail(ACL_ERROR_INVALID_PARAM,
              "get index by name failed, cannot find tensor name[%s] (inputs: "
              "%s)",
              name, names.c_str());
}

ACL_EMU_EXPORT aclError aclmdlGetDynamicBatch(const aclmdlDesc* modelDesc,
                                              aclmdlBatch* batch) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  const aclmdlDesc* desc = FindDesc(call.state(), modelDesc);
  if (desc == nullptr) return ACL_ERROR_INVALID_PARAM;
  if (batch == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "batch is NULL");
  const bool is_batch = desc->gears.type == DynamicType::kDynamicBatch;
  const size_t count = is_batch ? desc->gears.values.size() : 0;
  if (count > ACL_MAX_BATCH_NUM) {
    return Fail(ACL_ERROR_STORAGE_OVER_LIMIT,
                "batch count[%zu] is larger than max batch num[%d]", count,
                ACL_MAX_BATCH_NUM);
  }
  batch->batchCount = count;
  for (size_t g = 0; g < count; ++g) {
    batch->batch[g] = static_cast<uint64_t>(desc->gears.values[g][0]);
  }
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclError aclmdlGetInputDynamicGearCount(
    const aclmdlDesc* modelDesc, size_t index, size_t* gearCount) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  const aclmdlDesc* desc = FindDesc(call.state(), modelDesc);
  if (desc == nullptr) return ACL_ERROR_INVALID_PARAM;
  if (gearCount == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM, "gearCount is NULL");
  }
  if (index != kUnusedIndex) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "aclmdlGetInputDynamicGearCount failed, index must be -1 "
                "while input is %zu",
                index);
  }
  const bool is_dims = desc->gears.type == DynamicType::kDynamicDims;
  const size_t count = is_dims ? desc->gears.values.size() : 0;
  if (count > ACL_MAX_DIM_CNT) {
    return Fail(ACL_ERROR_STORAGE_OVER_LIMIT,
                "gear count[%zu] is larger than max[%d]", count,
                ACL_MAX_DIM_CNT);
  }
  *gearCount = count;
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclError aclmdlGetInputDynamicDims(const aclmdlDesc* modelDesc,
                                                  size_t index,
                                                  aclmdlIODims* dims,
                                                  size_t gearCount) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  const aclmdlDesc* desc = FindDesc(call.state(), modelDesc);
  if (desc == nullptr) return ACL_ERROR_INVALID_PARAM;
  if (dims == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "dims is NULL");
  if (index != kUnusedIndex) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "aclmdlGetInputDynamicDims failed, index must be -1 but it "
                "is %zu",
                index);
  }
  const bool is_dims = desc->gears.type == DynamicType::kDynamicDims;
  const size_t count = is_dims ? desc->gears.values.size() : 0;
  if (gearCount < count) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "Gear count[%zu] can not less than model's dynamic gear "
                "count[%zu]",
                gearCount, count);
  }
  const std::vector<int64_t> all = AllShapeDims(*desc);
  if (all.size() > ACL_MAX_DIM_CNT) {
    return Fail(ACL_ERROR_FAILURE,
                "current dynamic dims size %zu can not be larger than %d",
                all.size(), ACL_MAX_DIM_CNT);
  }
  for (size_t g = 0; g < count; ++g) {
    size_t k = 0;
    for (size_t j = 0; j < all.size(); ++j) {
      dims[g].dims[j] = all[j] < 0 ? desc->gears.values[g][k++] : all[j];
    }
    dims[g].dimCount = all.size();
  }
  return ACL_SUCCESS;
}

}  // extern "C"
