// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Helpers shared by the model calls: turning bytes into an engine Model with
// the checks real CANN makes at load, and finding a loaded model for a call
// made in a given context.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "acl_api.h"
#include "ascend_emu/model.h"
#include "ascend_emu/om_format.h"
#include "state.h"

namespace ascend_emu::acl {

// Checks the emulator .om magic, parses the image's header and tables
// (ascend_emu::ReadOmTables: checksum, every field; the weight section left
// in the image at *weights) and checks that it was built for the emulated
// SoC. ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID on any problem.
aclError ReadModelTables(const State& state, const void* data, size_t size,
                         ascend_emu::Program* program,
                         ascend_emu::OmWeightSection* weights);

// Turns a program ReadModelTables read into a Model: its inline weights
// copied once from the image to `memory` (or to memory of the model's own),
// its external weight files bound to `bindings`, every op validated.
// ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID on an invalid program.
aclError LoadParsedModel(ascend_emu::Program program,
                         const ascend_emu::OmWeightSection& weights,
                         const ascend_emu::WeightBindings& bindings,
                         const ascend_emu::WeightMemory& memory,
                         std::unique_ptr<ascend_emu::Model>* model);

// Model bytes may be host memory (PCIe cards) or device memory (SoC boards);
// device memory is bounds-checked against its allocation.
aclError CheckModelBytes(const State& state, const void* data, size_t size);

// The model `model_id`, which must have been loaded in `context`:
// ACL_ERROR_GE_EXEC_MODEL_ID_INVALID for an unknown id,
// ACL_ERROR_RT_MODEL_CONTEXT for a model of another context.
aclError FindModelInContext(State& state, uint32_t model_id,
                            const ContextRec* context, ModelRec** model);

// Buffer `index` of a live dataset, which must be live and have an address
// (the dataset checks of the calls that write into an input: the gear
// setters and aclmdlSetInputAIPP).
aclError FindDatasetBuffer(State& state, const aclmdlDataset* dataset,
                           size_t index, aclDataBuffer** buffer);

// Registers a loaded model (its model, work, pinned, weight_files and
// charged_bytes filled in) in `context`, charging charged_bytes to its
// device, and returns its new id.
uint32_t RegisterModel(State& state, ContextRec* context,
                       std::unique_ptr<ModelRec> record);

}  // namespace ascend_emu::acl
