// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The external weight files of a model being loaded (atc --external_weight):
// each one bound to caller device memory (aclmdlSetExternalWeightAddress),
// or else read from a weight folder into memory the emulator manages and
// charges to the device, as real CANN loads them to device memory. Either
// way the model reads the bytes in place at every run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "acl_api.h"
#include "ascend_emu/model.h"
#include "handles.h"
#include "state.h"

namespace ascend_emu::acl {

// Where the files the caller did not bind come from.
struct WeightFolder {
  std::string path;  // "" when there is none
  // For messages: how the caller could have given the files, e.g.
  // "ACL_MDL_WEIGHT_PATH_PTR" or "the weight/ folder beside the .om".
  const char* source = "";
};

struct ResolvedWeights {
  ascend_emu::WeightBindings bindings;  // what Model::Load is given
  std::vector<uintptr_t> pinned;        // bases of the bound allocations
  std::vector<AlignedBytes> files;      // read from the folder
  size_t file_bytes = 0;                // their size, charged to the device
};

// Binds every file of `wanted` (what the .om names) for a model loaded in
// `context`: from `bound` (may be nullptr) first, then from `folder`.
// ACL_ERROR_INVALID_PARAM, naming the file, when one is neither bound nor in
// the folder, when bound memory is too small, freed or on another device,
// when a file in the folder has another size, or when `bound` names a file
// the .om does not read (real CANN ignores such a binding; here it is the
// caller's bug, caught).
aclError ResolveExternalWeights(
    const State& state, const ContextRec* context,
    const std::vector<ascend_emu::ExternalWeightDesc>& wanted,
    const std::map<std::string, ExternalWeightAddress>* bound,
    const WeightFolder& folder, ResolvedWeights* resolved);

}  // namespace ascend_emu::acl
