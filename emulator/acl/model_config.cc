// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Loading with a config handle (aclmdlCreateConfigHandle ..
// aclmdlLoadWithConfig). PLACEHOLDER: every call fails until implemented.
#include "acl_api.h"
#include "api_call.h"
#include "errors.h"
#include "export.h"

using ascend_emu::acl::ApiCall;
using ascend_emu::acl::Fail;

extern "C" {

ACL_EMU_EXPORT aclmdlConfigHandle* aclmdlCreateConfigHandle() {
  ApiCall call(__func__);
  if (call.Enter() != ACL_SUCCESS) return nullptr;
  Fail(ACL_ERROR_FAILURE, "not implemented yet");
  return nullptr;
}

ACL_EMU_EXPORT aclError aclmdlDestroyConfigHandle(aclmdlConfigHandle*) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  return Fail(ACL_ERROR_FAILURE, "not implemented yet");
}

ACL_EMU_EXPORT aclError aclmdlSetConfigOpt(aclmdlConfigHandle*,
                                           aclmdlConfigAttr, const void*,
                                           size_t) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  return Fail(ACL_ERROR_FAILURE, "not implemented yet");
}

ACL_EMU_EXPORT aclError aclmdlSetExternalWeightAddress(aclmdlConfigHandle*,
                                                       const char*, void*,
                                                       size_t) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  return Fail(ACL_ERROR_FAILURE, "not implemented yet");
}

ACL_EMU_EXPORT aclError aclmdlLoadWithConfig(const aclmdlConfigHandle*,
                                             uint32_t*) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  return Fail(ACL_ERROR_FAILURE, "not implemented yet");
}

}  // extern "C"
