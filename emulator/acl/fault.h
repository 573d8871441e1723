// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Fault injection: make a named ACL function fail with a chosen code after a
// number of successful calls, so callers' error paths can be tested
// (aclEmuInjectFault, EXECUTORCH_ASCEND_EMU_FAULT).
#pragma once

#include <map>
#include <string>

namespace ascend_emu::acl {

// True for the FAULTS rows of acl/acl_functions.def: every exported function
// returning aclError, plus aclCreateDataBuffer, aclmdlCreateDataset and
// aclmdlCreateDesc (which fail by returning NULL).
bool IsFaultInjectable(const char* function);

class FaultTable {
 public:
  // `function` succeeds `after` more times, then fails with `error` on every
  // call until Clear(). A second Set for the same function replaces the first.
  void Set(const std::string& function, int after, int error);
  void Clear() { faults_.clear(); }
  // Called at the entry of `function`: 0 to proceed, else the injected error.
  int Check(const char* function);

 private:
  struct Fault {
    int remaining;
    int error;
  };
  std::map<std::string, Fault> faults_;
};

}  // namespace ascend_emu::acl
