// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "api_call.h"

#include <cstdio>

#include "errors.h"
#include "fault.h"

namespace ascend_emu::acl {

ApiCall::ApiCall(const char* name)
    : state_(GetState()),
      lock_(state_.mutex),
      name_(name),
      faultable_(IsFaultInjectable(name)) {
  SetCurrentApiName(name);
  if (Verbose()) std::fprintf(stderr, "[ascend-emu] %s\n", name);
}

aclError ApiCall::Enter() {
  if (!state_.initialized) {
    return Fail(ACL_ERROR_UNINITIALIZE,
                "ACL is not initialized: call aclInit first (or aclInit again "
                "after aclFinalize)");
  }
  return EnterAnyTime();
}

aclError ApiCall::EnterAnyTime() {
  if (faultable_) {
    if (int error = state_.faults.Check(name_); error != 0) {
      return Fail(error,
                  "injected fault (aclEmuInjectFault or "
                  "EXECUTORCH_ASCEND_EMU_FAULT): failing with %d",
                  error);
    }
  }
  return ACL_SUCCESS;
}

}  // namespace ascend_emu::acl
