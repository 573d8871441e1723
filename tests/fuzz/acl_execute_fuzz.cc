// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// libFuzzer harness for load + execute through the emulator's libascendcl.so:
// the .om bytes are resealed (size field + CRC), loaded with
// aclmdlLoadFromMem, and a model that loads runs once with device buffers of
// exactly the sizes its description gives (inputs filled from a fixed
// pattern), through the dataset calls the backend uses. Execute may refuse
// (a gear model without its gear set, a crafted program), but must not read
// or write outside the buffers, and every object must be released: the
// emulator's live counters are back to zero after each input.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "acl_api.h"
#include "acl_emu_extras.h"
#include "ascend_emu/om_format.h"

namespace {

// Larger I/O is skipped rather than allocated (the fuzzer's memory limit).
constexpr size_t kMaxBytes = 1u << 24;

void Require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "%s failed\n", what);
    std::abort();
  }
}

struct Buffers {
  aclmdlDataset* dataset = nullptr;
  std::vector<void*> memory;
  std::vector<aclDataBuffer*> wrappers;

  // One device buffer per size; false when a size is 0 or too large.
  bool Create(const std::vector<size_t>& sizes, bool fill) {
    dataset = aclmdlCreateDataset();
    Require(dataset != nullptr, "aclmdlCreateDataset");
    for (size_t size : sizes) {
      if (size == 0 || size > kMaxBytes) return false;
      void* device = nullptr;
      Require(
          aclrtMalloc(&device, size, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS,
          "aclrtMalloc");
      memory.push_back(device);
      if (fill) {
        std::vector<uint8_t> pattern(size);
        for (size_t i = 0; i < size; ++i) {
          pattern[i] = static_cast<uint8_t>(i * 37 % 251);
        }
        Require(aclrtMemcpy(device, size, pattern.data(), size,
                            ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS,
                "aclrtMemcpy");
      }
      aclDataBuffer* wrapper = aclCreateDataBuffer(device, size);
      Require(wrapper != nullptr, "aclCreateDataBuffer");
      wrappers.push_back(wrapper);
      Require(aclmdlAddDatasetBuffer(dataset, wrapper) == ACL_SUCCESS,
              "aclmdlAddDatasetBuffer");
    }
    return true;
  }
  ~Buffers() {
    for (aclDataBuffer* wrapper : wrappers) {
      Require(aclDestroyDataBuffer(wrapper) == ACL_SUCCESS,
              "aclDestroyDataBuffer");
    }
    for (void* device : memory) {
      Require(aclrtFree(device) == ACL_SUCCESS, "aclrtFree");
    }
    if (dataset != nullptr) {
      Require(aclmdlDestroyDataset(dataset) == ACL_SUCCESS,
              "aclmdlDestroyDataset");
    }
  }
};

void Run(uint32_t model_id, aclmdlDesc* desc) {
  std::vector<size_t> in_sizes;
  std::vector<size_t> out_sizes;
  for (size_t i = 0; i < aclmdlGetNumInputs(desc); ++i) {
    in_sizes.push_back(aclmdlGetInputSizeByIndex(desc, i));
  }
  for (size_t i = 0; i < aclmdlGetNumOutputs(desc); ++i) {
    out_sizes.push_back(aclmdlGetOutputSizeByIndex(desc, i));
  }
  Buffers inputs;
  Buffers outputs;
  if (!inputs.Create(in_sizes, /*fill=*/true) ||
      !outputs.Create(out_sizes, /*fill=*/false)) {
    return;
  }
  // A refusal is fine; a crash, an out-of-bounds access or a hang is not.
  (void)aclmdlExecute(model_id, inputs.dataset, outputs.dataset);
}

void RequireNothingAlive() {
  aclEmuStats stats{};
  Require(aclEmuGetStats(&stats) == ACL_SUCCESS, "aclEmuGetStats");
  Require(stats.live_models + stats.live_descs + stats.live_datasets +
                  stats.live_data_buffers + stats.live_device_allocs ==
              0,
          "nothing alive after the input");
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  Require(aclInit(nullptr) == ACL_SUCCESS, "aclInit");
  Require(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<uint8_t> image(data, data + size);
  ascend_emu::ResealOm(&image);
  uint32_t model_id = 0;
  if (aclmdlLoadFromMem(image.data(), image.size(), &model_id) == ACL_SUCCESS) {
    aclmdlDesc* desc = aclmdlCreateDesc();
    Require(desc != nullptr, "aclmdlCreateDesc");
    Require(aclmdlGetDesc(desc, model_id) == ACL_SUCCESS, "aclmdlGetDesc");
    Run(model_id, desc);
    Require(aclmdlDestroyDesc(desc) == ACL_SUCCESS, "aclmdlDestroyDesc");
    Require(aclmdlUnload(model_id) == ACL_SUCCESS, "aclmdlUnload");
  }
  RequireNothingAlive();
  return 0;
}
