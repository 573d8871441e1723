// The prologue of every exported function: take the registry lock, name the
// call for messages and logs, refuse calls outside aclInit..aclFinalize, and
// apply an injected fault.
#pragma once

#include <mutex>

#include "acl_api.h"
#include "state.h"

namespace ascend_emu::acl {

class ApiCall {
 public:
  enum Faults { kFaultable, kNotFaultable };

  // Locks the registry for the lifetime of the call.
  explicit ApiCall(const char* name, Faults faults = kFaultable);

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
  Faults faults_;
};

}  // namespace ascend_emu::acl
