// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// A model's weights at load (model.cc): the inline weight section copied to
// device memory once (the model's own, or the caller's), and the external
// weight files bound to the memory the caller gave for each.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "aligned_buffer.h"
#include "ascend_emu/model.h"
#include "ascend_emu/om_format.h"
#include "ascend_emu/program.h"

namespace ascend_emu {

// The inline weights in device memory: the model's own, or the caller's
// (aclmdlLoadFromMemWithMem's weight memory); shared by a gear model's gears.
struct WeightStore {
  AlignedBuffer own;  // empty when the caller gave the memory
  uint8_t* data = nullptr;
  size_t size = 0;
};

// Checks the weight file list, binds it and copies the weight section from
// the image to device memory (the caller's, or the model's own): the one
// copy of the inline weights a load makes, done before validation so that
// what is validated is what runs.
bool PrepareWeights(const Program& program, const OmWeightSection& section,
                    const WeightBindings& bindings, const WeightMemory& memory,
                    std::shared_ptr<WeightStore>* weights,
                    std::vector<const uint8_t*>* external, std::string* error);

}  // namespace ascend_emu
