// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The emulator-only exports of acl_emu_extras.def: a version string that tells
// the backend it is talking to the emulator, live-object stats, and fault
// injection. They work before aclInit and after aclFinalize.
#include <cstring>

#include "acl_api.h"
#include "acl_emu_extras.h"
#include "api_call.h"
#include "emulator_ids.h"
#include "errors.h"
#include "export.h"
#include "fault.h"
#include "state.h"

using ascend_emu::acl::ApiCall;
using ascend_emu::acl::Fail;

extern "C" {

ACL_EMU_EXPORT const char* aclEmuVersion(void) {
  return "executorch-ascend-emulator 1";
}

ACL_EMU_EXPORT int aclEmuGetStats(aclEmuStats* stats) {
  ApiCall call(__func__);
  if (stats == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "stats is NULL");
  ascend_emu::acl::FillStats(call.state(), stats);
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT int aclEmuInjectFault(const char* function, int after,
                                     int error) {
  ApiCall call(__func__);
  if (function == nullptr) {
    call.state().faults.Clear();
    return ACL_SUCCESS;
  }
  if (!ascend_emu::acl::IsFaultInjectable(function)) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "'%s' is not a fault-injectable ACL function", function);
  }
  if (after < 0 || error == ACL_SUCCESS) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "after must be >= 0 and error non-zero (got after=%d, "
                "error=%d)",
                after, error);
  }
  call.state().faults.Set(function, after, error);
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT int aclEmuGetCallCount(const char* function, uint64_t* count) {
  ApiCall call(__func__);
  if (count == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "count is NULL");
  if (!ascend_emu::acl::IsFaultInjectable(function)) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "'%s' is not a fault-injectable ACL function",
                function != nullptr ? function : "(null)");
  }
  *count = call.state().faults.Calls(function) +
           ascend_emu::acl::ApiSite::Calls(function);
  // The fast ways count in their threads' cache slots and the lane.
  if (std::strcmp(function, "aclrtMemcpy") == 0) {
    *count += ascend_emu::acl::g_lane.fast_copies.load() +
              ascend_emu::acl::LiveSlotCounts().copies;
  } else if (std::strcmp(function, "aclmdlExecute") == 0) {
    *count += ascend_emu::acl::g_lane.fast_executes.load() +
              ascend_emu::acl::LiveSlotCounts().executes;
  }
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT int aclEmuFailNextRun(uint32_t modelId) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  auto it = call.state().models.find(modelId);
  if (it == call.state().models.end()) {
    return Fail(ACL_ERROR_INVALID_MODEL_ID, "model %u is not loaded", modelId);
  }
  it->second->fail_next_run.store(true, std::memory_order_relaxed);
  return ACL_SUCCESS;
}

}  // extern "C"
