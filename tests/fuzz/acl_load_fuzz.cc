// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// libFuzzer harness for aclmdlLoadFromMem end to end through the emulator's
// libascendcl.so: the bytes are resealed (size field + CRC, so mutations get
// past the checksum), loaded, and a model that loads is described through
// every aclmdlDesc accessor and unloaded. A load that succeeds must unload;
// nothing may stay loaded between inputs.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "acl_api.h"
#include "ascend_emu/om_format.h"

namespace {

void Require(aclError rc, const char* what) {
  if (rc != ACL_SUCCESS) {
    std::fprintf(stderr, "%s failed: %d\n", what, static_cast<int>(rc));
    std::abort();
  }
}

void Describe(aclmdlDesc* desc) {
  const size_t inputs = aclmdlGetNumInputs(desc);
  const size_t outputs = aclmdlGetNumOutputs(desc);
  aclmdlIODims dims;
  for (size_t i = 0; i < inputs; ++i) {
    (void)aclmdlGetInputSizeByIndex(desc, i);
    Require(aclmdlGetInputDims(desc, i, &dims), "aclmdlGetInputDims");
    (void)aclmdlGetInputDataType(desc, i);
    (void)aclmdlGetInputFormat(desc, i);
    if (aclmdlGetInputNameByIndex(desc, i) == nullptr) std::abort();
  }
  for (size_t i = 0; i < outputs; ++i) {
    (void)aclmdlGetOutputSizeByIndex(desc, i);
    Require(aclmdlGetOutputDims(desc, i, &dims), "aclmdlGetOutputDims");
    (void)aclmdlGetOutputDataType(desc, i);
    (void)aclmdlGetOutputFormat(desc, i);
  }
  // One past the end must be refused, not read.
  if (aclmdlGetInputDims(desc, inputs, &dims) == ACL_SUCCESS) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  Require(aclInit(nullptr), "aclInit");
  Require(aclrtSetDevice(0), "aclrtSetDevice");
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<uint8_t> image(data, data + size);
  ascend_emu::ResealOm(&image);
  uint32_t model_id = 0;
  if (aclmdlLoadFromMem(image.data(), image.size(), &model_id) != ACL_SUCCESS) {
    return 0;
  }
  aclmdlDesc* desc = aclmdlCreateDesc();
  if (desc == nullptr) std::abort();
  Require(aclmdlGetDesc(desc, model_id), "aclmdlGetDesc");
  Describe(desc);
  Require(aclmdlDestroyDesc(desc), "aclmdlDestroyDesc");
  Require(aclmdlUnload(model_id), "aclmdlUnload");
  return 0;
}
