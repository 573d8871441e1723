// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The prologue of every exported function: enter the registry, name the call
// for messages and logs, refuse calls outside aclInit..aclFinalize, and apply
// an injected fault (to the FAULTS rows of acl/acl_functions.def).
//
// Two ways in (docs/emulator.md, "Threads"):
//  - exclusive (ApiCall(__func__), every call that creates, changes or
//    destroys something): takes the registry mutex, waits until no shared
//    call is running, and moves the registry epoch (State::epoch) at its
//    start and its end, which drops every cached validation;
//  - shared (ApiCall(site, ApiCall::kShared), the per-inference calls:
//    execute, memcpy, synchronize, set/get current context): one atomic
//    increment of State::readers, no lock, no allocation; shared calls run in
//    parallel with each other. Like CANN's runtime (its GlobalStateManager
//    makes an API call wait only while the process state is locked), a
//    shared call waits only while an exclusive call is changing the registry
//    (it then goes the exclusive way), or while faults are armed. A call
//    its thread has already checked takes the fast way instead (below): a
//    copy with one atomic load and no count at all.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstdio>

#include "acl_api.h"
#include "errors.h"
#include "state.h"
#include "thread_state.h"

namespace ascend_emu::acl {

// What a shared call knows of its function, computed once: the name, whether
// a fault can hit it, and its call count (aclEmuGetCallCount) as an atomic,
// so counting a call takes no lock. One per exported function:
//   static ApiSite site(__func__);
class ApiSite {
 public:
  explicit ApiSite(const char* name);
  const char* name() const { return name_; }
  bool faultable() const { return faultable_; }
  void Count() { calls_.fetch_add(1, std::memory_order_relaxed); }

  // Calls of `function` counted by the shared sites of that name.
  static uint64_t Calls(const char* function);

 private:
  const char* name_;
  bool faultable_;
  std::atomic<uint64_t> calls_{0};
  ApiSite* next_ = nullptr;  // the list of all sites, for Calls()
};

class ApiCall {
 public:
  enum SharedTag { kShared };

  // Exclusive: holds the registry for the lifetime of the call. `name` is the
  // exported function's name (__func__); whether a fault can hit it comes
  // from the ACL list, so no call site can disagree with it.
  explicit ApiCall(const char* name);
  // Shared: see the file comment. Falls back to exclusive while an exclusive
  // call is running or faults are armed.
  ApiCall(ApiSite& site, SharedTag);
  ~ApiCall();
  ApiCall(const ApiCall&) = delete;
  ApiCall& operator=(const ApiCall&) = delete;

  // ACL_SUCCESS to proceed; else the error the call must return (its message
  // is already recorded): ACL_ERROR_UNINITIALIZE outside aclInit..aclFinalize,
  // or an injected fault's code.
  aclError Enter() {
    if (!state_.initialized.load(std::memory_order_relaxed)) {
      return FailUninitialized();
    }
    return EnterAnyTime();
  }

  // Like Enter, for aclInit and the emulator extras that work at any time:
  // only the fault check.
  aclError EnterAnyTime() {
    if (!faultable_) return ACL_SUCCESS;
    if (site_ != nullptr) {
      // Shared: no fault is armed (else this call would be exclusive).
      site_->Count();
      return ACL_SUCCESS;
    }
    return CheckFault();
  }

  State& state() { return state_; }
  // This thread's state, its caches valid for the current epoch.
  ThreadState& thread() { return thread_; }

 private:
  void EnterExclusive();
  // At the end of an exclusive call: opens State::gate on `epoch` if the
  // shared calls may take the fast way.
  void OpenGate(uint64_t epoch);
  aclError FailUninitialized();
  aclError CheckFault();

  State& state_;
  ThreadState& thread_;
  const char* name_;
  ApiSite* site_;  // shared calls only
  bool faultable_;
  bool exclusive_;
};

// Inline, like Enter: these run on every per-inference call.
inline ApiCall::ApiCall(ApiSite& site, SharedTag)
    : state_(GetState()),
      thread_(ThisThread()),
      name_(site.name()),
      site_(&site),
      faultable_(site.faultable()),
      exclusive_(false) {
  // Announce the reader, then look at the gate (both seq_cst): either the
  // writer, which closes the gate before waiting for readers, sees this
  // reader and waits for it, or this reader sees the gate closed (Dekker's
  // handshake).
  g_lane.readers.fetch_add(1, std::memory_order_seq_cst);
  thread_.api_name = name_;
  // The fast way, one compare: open gate, and this thread's caches filled in
  // its epoch. Then initialized, no writer, no fault armed, not verbose.
  if (g_lane.gate.load(std::memory_order_seq_cst) == thread_.epoch) return;
  if (state_.writer.load(std::memory_order_seq_cst) || state_.faults.Armed()) {
    g_lane.readers.fetch_sub(1, std::memory_order_release);
    exclusive_ = true;
    site_ = nullptr;  // counted by FaultTable::Check on the exclusive way
    EnterExclusive();
    return;
  }
  thread_.Revalidate(state_.epoch.load(std::memory_order_relaxed));
  if (Verbose()) std::fprintf(stderr, "[ascend-emu] %s\n", name_);
}

inline ApiCall::~ApiCall() {
  if (exclusive_) {
    // Also at the end: what this call cached before changing the registry
    // (a current context it then destroyed, say) is not trusted either.
    const uint64_t epoch =
        state_.epoch.fetch_add(1, std::memory_order_relaxed) + 1;
    OpenGate(epoch);
    state_.writer.store(false, std::memory_order_release);
    state_.mutex.unlock();
  } else {
    g_lane.readers.fetch_sub(1, std::memory_order_release);
  }
}

// The fast way of a per-inference call (aclrtMemcpy, aclmdlExecute), in
// front of ApiCall: a call that finds itself in its thread's caches (a
// copy or a run that passed every check in this epoch and context) enters
// the fast lane and does its work with nothing else checked. The lane is
// open when the gate equals the thread's epoch (initialized, no exclusive
// call running, no fault armed, not verbose, the thread's caches current);
// a thread before its first call (kNoThread, epoch 0) never finds it open.
// A call on the fast way counts itself in its cache slot (CopyHit::hits,
// ExecHit::hits: both are fault-injectable functions, whose calls
// aclEmuGetCallCount reports).
//
// A copy enters with one atomic load, as CANN's own API entry does (its
// runtime's GlobalStateManager::WaitIfLocked reads the process state and
// goes on): it reads nothing of the registry, only its thread's caches and
// the caller's memory, so it does not announce itself, and an exclusive
// call does not wait for a copy in flight: freeing memory that another
// thread is copying is the caller's race, on CANN as here.
inline bool FastLaneOpen(const ThreadState& thread) {
  return g_lane.gate.load(std::memory_order_acquire) == thread.epoch;
}

// A run reads its model's record, which an exclusive call (an unload) may
// free: it enters as a reader, ApiCall's half of the handshake (same
// orders), so an exclusive call waits for the run to end.
inline bool EnterFastLane(const ThreadState& thread) {
  g_lane.readers.fetch_add(1, std::memory_order_seq_cst);
  if (g_lane.gate.load(std::memory_order_seq_cst) == thread.epoch) return true;
  g_lane.readers.fetch_sub(1, std::memory_order_release);
  return false;
}
inline void LeaveFastLane() {
  g_lane.readers.fetch_sub(1, std::memory_order_release);
}

}  // namespace ascend_emu::acl
