// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// aclInit / aclFinalize: the process lifetime of the emulator.
#include <cstdio>
#include <string>

#include "acl_api.h"
#include "api_call.h"
#include "ascend_emu/kernel.h"
#include "ascend_emu/om_format.h"
#include "errors.h"
#include "export.h"
#include "state.h"

using ascend_emu::acl::ApiCall;
using ascend_emu::acl::Config;
using ascend_emu::acl::Fail;
using ascend_emu::acl::State;

extern "C" {

ACL_EMU_EXPORT aclError aclInit(const char* configPath) {
  ApiCall call(__func__);
  if (aclError rc = call.EnterAnyTime()) return rc;
  State& state = call.state();
  if (state.initialized) {
    return Fail(ACL_ERROR_REPEAT_INITIALIZE,
                "ACL is already initialized in this process (aclInit may be "
                "called again only after aclFinalize)");
  }
  // Real CANN reads a JSON file of options here; the emulator has none to
  // read but still insists that a named file exists.
  if (configPath != nullptr && configPath[0] != '\0') {
    FILE* file = std::fopen(configPath, "rb");
    if (file == nullptr) {
      // CANN: ACL_ERROR_INVALID_FILE for a config it cannot read
      // (hicann/runtime src/acl/aclrt_impl/acl.cpp).
      return Fail(ACL_ERROR_INVALID_FILE, "cannot open config file '%s'",
                  configPath);
    }
    std::fclose(file);
  }
  Config config;
  std::string error;
  if (!ascend_emu::acl::LoadConfigFromEnv(&config, &error)) {
    return Fail(ACL_ERROR_INVALID_PARAM, "bad emulator configuration: %s",
                error.c_str());
  }
  for (const auto& fault : config.faults) {
    state.faults.Set(fault.function, fault.after, fault.error);
  }
  ascend_emu::acl::SetVerbose(config.verbose);
  ascend_emu::SetKernelThreads(config.num_threads);
  state.devices.assign(static_cast<size_t>(config.device_count),
                       ascend_emu::acl::DeviceRec{});
  state.config = std::move(config);
  state.next_model_id = 1;
  ascend_emu::acl::g_lane.bytes[ascend_emu::acl::SharedLane::kHostToDevice] = 0;
  ascend_emu::acl::g_lane.bytes[ascend_emu::acl::SharedLane::kDeviceToHost] = 0;
  ascend_emu::acl::g_lane.executes = 0;
  ascend_emu::acl::ResetFastWayCounts();
  state.weight_bytes_base = ascend_emu::OmWeightBytesCopied();
  state.weight_file_bytes_read = 0;
  state.initialized = true;
  state.finalized = false;
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclError aclFinalize(void) {
  ApiCall call(__func__);
  // CANN's aclFinalizeImpl checks its "finalized" flag first and returns
  // ACL_ERROR_REPEAT_FINALIZE (hicann/runtime src/acl/aclrt_impl/acl.cpp).
  if (!call.state().initialized && call.state().finalized) {
    return Fail(ACL_ERROR_REPEAT_FINALIZE,
                "ACL is already finalized (aclFinalize was called before, "
                "with no aclInit since)");
  }
  if (aclError rc = call.Enter()) return rc;
  State& state = call.state();
  std::string leaks = ascend_emu::acl::ReleaseAllAndReportLeaks(state);
  state.initialized = false;
  state.finalized = true;
  state.faults.Clear();
  // Verbose logging belongs to the session (it is read again at aclInit).
  ascend_emu::acl::SetVerbose(false);
  if (leaks.empty()) return ACL_SUCCESS;
  if (state.config.strict) {
    return Fail(ACL_ERROR_FAILURE,
                "released leaked objects: %s (details on stderr; failing "
                "because EXECUTORCH_ASCEND_EMU_STRICT=1)",
                leaks.c_str());
  }
  ascend_emu::acl::SetLastErrorMessage(
      "aclFinalize: released leaked objects: " + leaks +
      " (details on stderr)");
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT const char* aclGetRecentErrMsg(void) {
  return ascend_emu::acl::LastErrorMessage();
}

ACL_EMU_EXPORT const char* aclrtGetSocName(void) {
  ApiCall call(__func__);
  if (call.Enter() != ACL_SUCCESS) return nullptr;
  return call.state().config.soc_name.c_str();
}

}  // extern "C"
