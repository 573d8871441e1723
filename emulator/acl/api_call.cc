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

void ApiCall::EnterExclusive() {
  state_.mutex.lock();
  g_lane.gate.store(State::kGateClosed, std::memory_order_seq_cst);
  state_.writer.store(true, std::memory_order_seq_cst);
  // Shared calls already running finish first (a model run may take a
  // while); new ones see `writer` and queue on the mutex.
  for (int spins = 0; g_lane.readers.load(std::memory_order_seq_cst) != 0;
       ++spins) {
    if (spins < 64) {
      std::this_thread::yield();
    } else {
      std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
  }
  // Queued stream tasks read what they were checked against (a model, its
  // buffers): they finish before anything changes. The workers take no
  // lock of the registry, so they finish while it is held.
  DrainStreams(state_);
  // Whatever this call changes, no cache filled before it is trusted after.
  state_.epoch.fetch_add(1, std::memory_order_relaxed);
  thread_.api_name = name_;
  thread_.Revalidate(state_.epoch.load(std::memory_order_relaxed));
  if (Verbose()) std::fprintf(stderr, "[ascend-emu] %s\n", name_);
}

void ApiCall::OpenGate(uint64_t epoch) {
  const bool fast = state_.initialized.load(std::memory_order_relaxed) &&
                    !state_.faults.Armed() && !Verbose();
  g_lane.gate.store(fast ? epoch : State::kGateClosed,
                    std::memory_order_release);
}

aclError ApiCall::FailUninitialized() {
  return Fail(ACL_ERROR_UNINITIALIZE,
              "ACL is not initialized: call aclInit first (or aclInit again "
              "after aclFinalize)");
}

aclError ApiCall::CheckFault() {
  if (int error = state_.faults.Check(name_); error != 0) {
    return Fail(error,
                "injected fault (aclEmuInjectFault or "
                "EXECUTORCH_ASCEND_EMU_FAULT): failing with %d",
                error);
  }
  return ACL_SUCCESS;
}

}  // namespace ascend_emu::acl
