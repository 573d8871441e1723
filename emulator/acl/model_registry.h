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
#include "state.h"

namespace ascend_emu::acl {

// Checks the emulator .om magic, parses the image with its external weight
// files bound to `weights` and checks that it was built for the emulated
// SoC. ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID on any problem.
aclError ParseModelImage(const State& state, const void* data, size_t size,
                         const ascend_emu::WeightBindings& weights,
                         std::unique_ptr<ascend_emu::Model>* model);

// The external weight files an image names (checking the magic first), so a
// loader can bind or read them before parsing.
// ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID on a bad image.
aclError ReadModelWeightFiles(
    const void* data, size_t size,
    std::vector<ascend_emu::ExternalWeightDesc>* files);

// Model bytes may be host memory (PCIe cards) or device memory (SoC boards);
// device memory is bounds-checked against its allocation.
aclError CheckModelBytes(const State& state, const void* data, size_t size);

// The model `model_id`, which must have been loaded in `context`:
// ACL_ERROR_GE_EXEC_MODEL_ID_INVALID for an unknown id,
// ACL_ERROR_RT_MODEL_CONTEXT for a model of another context.
aclError FindModelInContext(State& state, uint32_t model_id,
                            const ContextRec* context, ModelRec** model);

// Registers a loaded model (its model, work, pinned, weight_files and
// charged_bytes filled in) in `context`, charging charged_bytes to its
// device, and returns its new id.
uint32_t RegisterModel(State& state, ContextRec* context,
                       std::unique_ptr<ModelRec> record);

}  // namespace ascend_emu::acl
