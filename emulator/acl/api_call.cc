// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "api_call.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>

#include "errors.h"
#include "fault.h"

namespace ascend_emu::acl {
namespace {

// Every ApiSite ever made (a handful, one per shared function), pushed once
// at its first call and never removed: read without a lock by Calls().
std::atomic<ApiSite*> g_sites{nullptr};

}  // namespace

ApiSite::ApiSite(const char* name)
    : name_(name), faultable_(IsFaultInjectable(name)) {
  ApiSite* head = g_sites.load(std::memory_order_acquire);
  do {
    next_ = head;
  } while (!g_sites.compare_exchange_weak(head, this, std::memory_order_release,
                                          std::memory_order_acquire));
}

uint64_t ApiSite::Calls(const char* function) {
  if (function == nullptr) return 0;
  uint64_t total = 0;
  for (ApiSite* site = g_sites.load(std::memory_order_acquire); site != nullptr;
       site = site->next_) {
    if (std::strcmp(site->name_, function) == 0) {
      total += site->calls_.load(std::memory_order_relaxed);
    }
  }
  return total;
}

ApiCall::ApiCall(const char* name)
    : state_(GetState()),
      thread_(ThisThread()),
      name_(name),
      site_(nullptr),
      faultable_(IsFaultInjectable(name)),
      exclusive_(true) {
  EnterExclusive();
}

ApiCall::ApiCall(ApiSite& site, SharedTag)
    : state_(GetState()),
      thread_(ThisThread()),
      name_(site.name()),
      site_(&site),
      faultable_(site.faultable()),
      exclusive_(false) {
  // Announce the reader, then look for a writer (both seq_cst): either the
  // writer sees this reader and waits for it, or this reader sees the writer
  // and backs off to the exclusive way (Dekker's handshake).
  state_.readers.fetch_add(1, std::memory_order_seq_cst);
  if (state_.writer.load(std::memory_order_seq_cst) || state_.faults.Armed()) {
    state_.readers.fetch_sub(1, std::memory_order_release);
    exclusive_ = true;
    site_ = nullptr;  // counted by FaultTable::Check on the exclusive way
    EnterExclusive();
    return;
  }
  thread_.api_name = name_;
  thread_.Revalidate(state_.epoch.load(std::memory_order_relaxed));
  if (Verbose()) std::fprintf(stderr, "[ascend-emu] %s\n", name_);
}

void ApiCall::EnterExclusive() {
  state_.mutex.lock();
  state_.writer.store(true, std::memory_order_seq_cst);
  // Shared calls already running finish first (a model run may take a
  // while); new ones see `writer` and queue on the mutex.
  for (int spins = 0; state_.readers.load(std::memory_order_seq_cst) != 0;
       ++spins) {
    if (spins < 64) {
      std::this_thread::yield();
    } else {
      std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
  }
  // Whatever this call changes, no cache filled before it is trusted after.
  state_.epoch.fetch_add(1, std::memory_order_relaxed);
  thread_.api_name = name_;
  thread_.Revalidate(state_.epoch.load(std::memory_order_relaxed));
  if (Verbose()) std::fprintf(stderr, "[ascend-emu] %s\n", name_);
}

ApiCall::~ApiCall() {
  if (exclusive_) {
    state_.writer.store(false, std::memory_order_release);
    state_.mutex.unlock();
  } else {
    state_.readers.fetch_sub(1, std::memory_order_release);
  }
}

aclError ApiCall::Enter() {
  if (!state_.initialized.load(std::memory_order_relaxed)) {
    return Fail(ACL_ERROR_UNINITIALIZE,
                "ACL is not initialized: call aclInit first (or aclInit again "
                "after aclFinalize)");
  }
  return EnterAnyTime();
}

aclError ApiCall::EnterAnyTime() {
  if (!faultable_) return ACL_SUCCESS;
  if (site_ != nullptr) {
    // Shared: no fault is armed (else this call would be exclusive).
    site_->Count();
    return ACL_SUCCESS;
  }
  if (int error = state_.faults.Check(name_); error != 0) {
    return Fail(error,
                "injected fault (aclEmuInjectFault or "
                "EXECUTORCH_ASCEND_EMU_FAULT): failing with %d",
                error);
  }
  return ACL_SUCCESS;
}

}  // namespace ascend_emu::acl
