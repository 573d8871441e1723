// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The prologue of every exported function: take the registry lock, name the
// call for messages and logs, refuse calls outside aclInit..aclFinalize, and
// apply an injected fault (to the FAULTS rows of acl/acl_functions.def).
#pragma once

#include <mutex>

#include "acl_api.h"
#include "state.h"

namespace ascend_emu::acl {

class ApiCall {
 public:
  // Locks the registry for the lifetime of the call. `name` is the exported
  // function's name (__func__); whether a fault can hit it comes from the
  // ACL list, so no call site can disagree with it.
  explicit ApiCall(const char* name);

  // ACL_SUCCESS to proceed; else the error the call must return (its message
  // is already recorded): ACL_ERROR_UNINITIALIZE outside aclInit..aclFinalize,
  // or an injected fault's code.
  aclError Enter();

  // Like Enter, for aclInit and the emulator extras that work at any time:
  // only the fault check.
  aclError EnterAnyTime();

  State& state() { return state_; }

 private:
  State& state_;
  std::lock_guard<std::mutex> lock_;
  const char* name_;
  bool faultable_;
};

}  // namespace ascend_emu::acl
