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
//    (it then goes the exclusive way), or while faults are armed.
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
  state_.readers.fetch_add(1, std::memory_order_seq_cst);
  thread_.api_name = name_;
  // The fast way, one compare: open gate, and this thread's caches filled in
  // its epoch. Then initialized, no writer, no fault armed, not verbose.
  if (state_.gate.load(std::memory_order_seq_cst) == thread_.epoch) return;
  if (state_.writer.load(std::memory_order_seq_cst) || state_.faults.Armed()) {
    state_.readers.fetch_sub(1, std::memory_order_release);
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
    state_.readers.fetch_sub(1, std::memory_order_release);
  }
}

// The fast way of a per-inference call, in front of ApiCall: when the gate
// is open on this thread's epoch (initialized, no exclusive call running, no
// fault armed, not verbose, the thread's caches current), a call that finds
// everything it needs in the caches does its work with this object alive
// and nothing else. Not entered (false): the call builds its ApiCall, which
// checks everything. Entering counts nothing: Commit() does, once the call
// knows it stays on the fast way (a call falling back is counted by its
// ApiCall). No object escapes, so the whole thing stays in registers.
class FastSharedCall {
 public:
  FastSharedCall(State& state, ThreadState& thread) : state_(state) {
    // The reader's half of ApiCall's handshake (same orders).
    state.readers.fetch_add(1, std::memory_order_seq_cst);
    entered_ = state.gate.load(std::memory_order_seq_cst) == thread.epoch;
    if (!entered_) state.readers.fetch_sub(1, std::memory_order_release);
  }
  ~FastSharedCall() {
    if (entered_) state_.readers.fetch_sub(1, std::memory_order_release);
  }
  FastSharedCall(const FastSharedCall&) = delete;
  FastSharedCall& operator=(const FastSharedCall&) = delete;

  explicit operator bool() const { return entered_; }
  // The call stays on the fast way: count it. It is not named
  // (ThreadState::api_name, the prefix of error messages): a fast way that
  // can fail names itself before it fails (Name).
  static void Commit(ApiSite& site) {
    if (site.faultable()) site.Count();
  }
  static void Name(ThreadState& thread, const ApiSite& site) {
    thread.api_name = site.name();
  }

 private:
  State& state_;
  bool entered_;
};

}  // namespace ascend_emu::acl
