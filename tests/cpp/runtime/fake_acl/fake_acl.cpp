// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Test doubles for the ACL library *as a whole*, to exercise how the backend
// reacts to libraries other than the emulator (the backend's real code path
// is unchanged: it dlopens these like any libascendcl.so):
//  - FAKE_ACL_STUB: a CANN link-only stub library; every aclError function
//    returns ACL_ERROR_COMPILING_STUB_MODE and handle makers return null.
//  - otherwise: a library that, like real CANN, lacks the emulator's
//    aclEmuVersion and reports one device; every call succeeds. Used to check
//    that an emulator-built .om is refused before anything is loaded, and
//    counts SetDevice/CreateContext so the test can see nothing was created.
//  - FAKE_ACL_NO_CONFIG_LOAD (with the above): an older CANN without the
//    config-handle calls (aclmdlCreateConfigHandle .. aclmdlLoadWithConfig).
#include <acl_api.h>

#include <atomic>

#ifdef FAKE_ACL_STUB
#define FAKE_RESULT ACL_ERROR_COMPILING_STUB_MODE
#define FAKE_HANDLE(T) static_cast<T>(nullptr)
#else
#define FAKE_RESULT ACL_SUCCESS
#define FAKE_HANDLE(T) reinterpret_cast<T>(&fake_object)
#endif

namespace {
[[maybe_unused]] int fake_object = 0;
std::atomic<int> resources_created{0};
}  // namespace

extern "C" {

#define EXPORT __attribute__((visibility("default")))

// Test hook: how many device/context/model objects were created.
EXPORT int fakeAclResourcesCreated(void) { return resources_created.load(); }

EXPORT aclError aclInit(const char*) { return FAKE_RESULT; }
EXPORT aclError aclFinalize(void) { return FAKE_RESULT; }
EXPORT const char* aclGetRecentErrMsg(void) { return "fake ACL"; }
EXPORT const char* aclrtGetSocName(void) { return "Ascend910B1"; }
EXPORT aclError aclrtSetDevice(int32_t) {
  ++resources_created;
  return FAKE_RESULT;
}
EXPORT aclError aclrtResetDevice(int32_t) { return FAKE_RESULT; }
EXPORT aclError aclrtGetDevice(int32_t* d) {
  *d = 0;
  return FAKE_RESULT;
}
EXPORT aclError aclrtGetDeviceCount(uint32_t* count) {
#ifdef FAKE_ACL_STUB
  *count = 0;
#else
  *count = 1;
#endif
  return FAKE_RESULT;
}
EXPORT aclError aclrtCreateContext(aclrtContext* c, int32_t) {
  ++resources_created;
  *c = FAKE_HANDLE(aclrtContext);
  return FAKE_RESULT;
}
EXPORT aclError aclrtDestroyContext(aclrtContext) { return FAKE_RESULT; }
EXPORT aclError aclrtSetCurrentContext(aclrtContext) { return FAKE_RESULT; }
EXPORT aclError aclrtGetCurrentContext(aclrtContext* c) {
  *c = FAKE_HANDLE(aclrtContext);
  return FAKE_RESULT;
}
EXPORT aclError aclrtCreateStream(aclrtStream* s) {
  *s = FAKE_HANDLE(aclrtStream);
  return FAKE_RESULT;
}
EXPORT aclError aclrtDestroyStream(aclrtStream) { return FAKE_RESULT; }
EXPORT aclError aclrtSynchronizeStream(aclrtStream) { return FAKE_RESULT; }
EXPORT aclError aclrtGetRunMode(aclrtRunMode* mode) {
  *mode = ACL_HOST;
  return FAKE_RESULT;
}
EXPORT aclError aclrtMalloc(void** p, size_t, aclrtMemMallocPolicy) {
  ++resources_created;
  *p = FAKE_HANDLE(void*);
  return FAKE_RESULT;
}
EXPORT aclError aclrtFree(void*) { return FAKE_RESULT; }
EXPORT aclError aclrtMallocHost(void** p, size_t) {
  *p = FAKE_HANDLE(void*);
  return FAKE_RESULT;
}
EXPORT aclError aclrtFreeHost(void*) { return FAKE_RESULT; }
EXPORT aclError aclrtMemcpy(void*, size_t, const void*, size_t,
                            aclrtMemcpyKind) {
  return FAKE_RESULT;
}
EXPORT aclError aclrtMemset(void*, size_t, int32_t, size_t) {
  return FAKE_RESULT;
}
EXPORT aclError aclrtMemcpyAsync(void*, size_t, const void*, size_t,
                                 aclrtMemcpyKind, aclrtStream) {
  return FAKE_RESULT;
}
EXPORT aclError aclrtGetMemInfo(aclrtMemAttr, size_t* f, size_t* t) {
  *f = *t = 0;
  return FAKE_RESULT;
}
EXPORT aclDataBuffer* aclCreateDataBuffer(void*, size_t) {
  return FAKE_HANDLE(aclDataBuffer*);
}
EXPORT aclError aclUpdateDataBuffer(aclDataBuffer*, void*, size_t) {
  return FAKE_RESULT;
}
EXPORT aclError aclDestroyDataBuffer(const aclDataBuffer*) {
  return FAKE_RESULT;
}
EXPORT void* aclGetDataBufferAddr(const aclDataBuffer*) { return nullptr; }
EXPORT size_t aclGetDataBufferSizeV2(const aclDataBuffer*) { return 0; }
EXPORT aclmdlDataset* aclmdlCreateDataset(void) {
  return FAKE_HANDLE(aclmdlDataset*);
}
EXPORT aclError aclmdlDestroyDataset(const aclmdlDataset*) {
  return FAKE_RESULT;
}
EXPORT aclError aclmdlAddDatasetBuffer(aclmdlDataset*, aclDataBuffer*) {
  return FAKE_RESULT;
}
EXPORT aclDataBuffer* aclmdlGetDatasetBuffer(const aclmdlDataset*, size_t) {
  return nullptr;
}
EXPORT size_t aclmdlGetDatasetNumBuffers(const aclmdlDataset*) { return 0; }
EXPORT aclError aclmdlLoadFromFile(const char*, uint32_t* id) {
  *id = 1;
  return FAKE_RESULT;
}
EXPORT aclError aclmdlLoadFromMem(const void*, size_t, uint32_t* id) {
  ++resources_created;
  *id = 1;
  return FAKE_RESULT;
}
EXPORT aclError aclmdlQuerySizeFromMem(const void*, size_t, size_t* w,
                                       size_t* s) {
  *w = *s = 0;
  return FAKE_RESULT;
}
EXPORT aclError aclmdlLoadFromMemWithMem(const void*, size_t, uint32_t* id,
                                         void*, size_t, void*, size_t) {
  ++resources_created;
  *id = 1;
  return FAKE_RESULT;
}
#ifndef FAKE_ACL_NO_CONFIG_LOAD
EXPORT aclmdlConfigHandle* aclmdlCreateConfigHandle(void) {
  return FAKE_HANDLE(aclmdlConfigHandle*);
}
EXPORT aclError aclmdlDestroyConfigHandle(aclmdlConfigHandle*) {
  return FAKE_RESULT;
}
EXPORT aclError aclmdlSetConfigOpt(aclmdlConfigHandle*, aclmdlConfigAttr,
                                   const void*, size_t) {
  return FAKE_RESULT;
}
EXPORT aclError aclmdlSetExternalWeightAddress(aclmdlConfigHandle*, const char*,
                                               void*, size_t) {
  return FAKE_RESULT;
}
EXPORT aclError aclmdlLoadWithConfig(const aclmdlConfigHandle*, uint32_t* id) {
  ++resources_created;
  *id = 1;
  return FAKE_RESULT;
}
#endif  // FAKE_ACL_NO_CONFIG_LOAD
EXPORT aclError aclmdlUnload(uint32_t) { return FAKE_RESULT; }
EXPORT aclmdlDesc* aclmdlCreateDesc(void) { return FAKE_HANDLE(aclmdlDesc*); }
EXPORT aclError aclmdlDestroyDesc(aclmdlDesc*) { return FAKE_RESULT; }
EXPORT aclError aclmdlGetDesc(aclmdlDesc*, uint32_t) { return FAKE_RESULT; }
EXPORT size_t aclmdlGetNumInputs(aclmdlDesc*) { return 0; }
EXPORT size_t aclmdlGetNumOutputs(aclmdlDesc*) { return 0; }
EXPORT size_t aclmdlGetInputSizeByIndex(aclmdlDesc*, size_t) { return 0; }
EXPORT size_t aclmdlGetOutputSizeByIndex(aclmdlDesc*, size_t) { return 0; }
EXPORT aclError aclmdlGetInputDims(const aclmdlDesc*, size_t, aclmdlIODims*) {
  return FAKE_RESULT;
}
EXPORT aclError aclmdlGetInputDimsV2(const aclmdlDesc*, size_t, aclmdlIODims*) {
  return FAKE_RESULT;
}
EXPORT aclError aclmdlGetOutputDims(const aclmdlDesc*, size_t, aclmdlIODims*) {
  return FAKE_RESULT;
}
EXPORT aclDataType aclmdlGetInputDataType(const aclmdlDesc*, size_t) {
  return ACL_DT_UNDEFINED;
}
EXPORT aclDataType aclmdlGetOutputDataType(const aclmdlDesc*, size_t) {
  return ACL_DT_UNDEFINED;
}
EXPORT aclFormat aclmdlGetInputFormat(const aclmdlDesc*, size_t) {
  return ACL_FORMAT_ND;
}
EXPORT aclFormat aclmdlGetOutputFormat(const aclmdlDesc*, size_t) {
  return ACL_FORMAT_ND;
}
EXPORT const char* aclmdlGetInputNameByIndex(const aclmdlDesc*, size_t) {
  return "";
}
EXPORT const char* aclmdlGetOutputNameByIndex(const aclmdlDesc*, size_t) {
  return "";
}
EXPORT aclError aclmdlExecute(uint32_t, const aclmdlDataset*, aclmdlDataset*) {
  return FAKE_RESULT;
}
EXPORT aclError aclmdlExecuteAsync(uint32_t, const aclmdlDataset*,
                                   aclmdlDataset*, aclrtStream) {
  return FAKE_RESULT;
}

}  // extern "C"
