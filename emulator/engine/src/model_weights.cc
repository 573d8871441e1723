// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// A model's weights at load (model_weights.h).
#include "model_weights.h"

#include <utility>

#include "ascend_emu/program_check.h"

namespace ascend_emu {
namespace {

// Points (*external)[i] at the memory bound to external weight file i.
bool BindExternal(const std::vector<ExternalWeightDesc>& files,
                  const WeightBindings& bindings,
                  std::vector<const uint8_t*>* external, std::string* error) {
  for (const auto& [name, binding] : bindings) {
    bool named = false;
    for (const ExternalWeightDesc& file : files) {
      named = named || file.name == name;
    }
    if (!named) {
      *error = "memory is bound to external weight '" + name +
               "', a file this .om does not read";
      return false;
    }
  }
  for (const ExternalWeightDesc& file : files) {
    auto it = bindings.find(file.name);
    if (it == bindings.end() || it->second.data == nullptr) {
      *error = "external weight '" + file.name + "' (" +
               std::to_string(file.size_bytes) +
               " bytes) is not bound to memory";
      return false;
    }
    if (it->second.size < file.size_bytes) {
      *error = "external weight '" + file.name + "' is " +
               std::to_string(file.size_bytes) + " bytes but only " +
               std::to_string(it->second.size) + " bytes are bound";
      return false;
    }
    external->push_back(static_cast<const uint8_t*>(it->second.data));
  }
  return true;
}

}  // namespace

// Checks the weight file list, binds it and copies the weight section from
// the image to device memory (the caller's, or the model's own): the one
// copy of the inline weights a load makes, done before validation so that
// what is validated is what runs.
bool PrepareWeights(const Program& program, const OmWeightSection& section,
                    const WeightBindings& bindings, const WeightMemory& memory,
                    std::shared_ptr<WeightStore>* weights,
                    std::vector<const uint8_t*>* external, std::string* error) {
  if (std::string err = CheckExternalWeightFiles(program); !err.empty()) {
    *error = "invalid .om: " + err;
    return false;
  }
  if (!BindExternal(program.external_weights, bindings, external, error)) {
    return false;
  }
  auto store = std::make_shared<WeightStore>();
  const size_t size = static_cast<size_t>(section.size);
  if (memory.data != nullptr) {
    if (memory.size < size) {
      *error = "the weight memory holds " + std::to_string(memory.size) +
               " bytes but the model's weights need " + std::to_string(size);
      return false;
    }
    store->data = static_cast<uint8_t*>(memory.data);
  } else {
    // Not zero-filled: the copy below writes every byte.
    if (!store->own.Allocate(size, AlignedBuffer::Fill::kNone)) {
      *error =
          "out of memory for " + std::to_string(size) + " bytes of weights";
      return false;
    }
    store->data = store->own.data();
  }
  store->size = size;
  CopyOmWeights(store->data, section.data, size);
  *weights = std::move(store);
  return true;
}

}  // namespace ascend_emu
