// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Fault injection: make a named ACL function fail with a chosen code after a
// number of successful calls, so callers' error paths can be tested
// (aclEmuInjectFault, EXECUTORCH_ASCEND_EMU_FAULT); and a count of the calls
// of each fault-injectable function (aclEmuGetCallCount), so a test can
// inject a fault into each call a code path makes.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>

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
  void Clear() {
    faults_.clear();
    armed_.store(false, std::memory_order_release);
  }
  // Some fault is set: the shared calls (api_call.h) then take the exclusive
  // way, where Check runs; while none is, they only count their calls.
  bool Armed() const { return armed_.load(std::memory_order_acquire); }
  // Called at the entry of `function` (its __func__, so the pointer names
  // it): counts the call; 0 to proceed, else the injected error.
  int Check(const char* function);
  // Calls of `function` that reached Check since the library was loaded
  // (shared calls count theirs in their ApiSite; aclEmuGetCallCount adds
  // both).
  uint64_t Calls(const char* function) const;

 private:
  // Keyed by the __func__ pointer: one hash of a pointer per call.
  std::unordered_map<const char*, uint64_t> calls_;
  struct Fault {
    int remaining;
    int error;
  };
  std::map<std::string, Fault> faults_;
  std::atomic<bool> armed_{false};
};

}  // namespace ascend_emu::acl
