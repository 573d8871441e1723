// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Devices and contexts. A device's default context lives from its first
// aclrtSetDevice to the matching aclrtResetDevice (calls are counted, as in
// recent CANN); explicit contexts live from aclrtCreateContext to
// aclrtDestroyContext. The current context is per thread.
#include "acl_api.h"
#include "api_call.h"
#include "errors.h"
#include "export.h"
#include "state.h"

using ascend_emu::acl::ApiCall;
using ascend_emu::acl::ContextRec;
using ascend_emu::acl::DeviceRec;
using ascend_emu::acl::Fail;
using ascend_emu::acl::State;

namespace {

aclError CheckDeviceId(const State& state, int32_t device_id) {
  int32_t count = static_cast<int32_t>(state.devices.size());
  if (count == 0) {
    return Fail(ACL_ERROR_RT_NO_DEVICE,
                "no device: EXECUTORCH_ASCEND_EMU_DEVICE_COUNT is 0");
  }
  // CANN's runtime maps a bad device id to ACL_ERROR_RT_INVALID_DEVICEID
  // (hicann/runtime errcode_manage.cc, RT_ERROR_DEVICE_ID).
  if (device_id < 0 || device_id >= count) {
    return Fail(ACL_ERROR_RT_INVALID_DEVICEID,
                "device id %d is out of range: the emulator has %d device(s) "
                "(EXECUTORCH_ASCEND_EMU_DEVICE_COUNT)",
                device_id, count);
  }
  return ACL_SUCCESS;
}

// Real CANN releases a context's streams and models with it; the emulator
// refuses instead, because a caller that does this has lost track of them.
aclError CheckContextUnused(const State& state, const ContextRec* context,
                            const char* what) {
  size_t streams = ascend_emu::acl::CountStreams(state, context);
  size_t models = ascend_emu::acl::CountModels(state, context);
  if (streams != 0 || models != 0) {
    return Fail(ACL_ERROR_FAILURE,
                "%s %p still owns %zu stream(s) and %zu loaded model(s): "
                "destroy the streams and unload the models first",
                what, static_cast<const void*>(context), streams, models);
  }
  return ACL_SUCCESS;
}

}  // namespace

extern "C" {

ACL_EMU_EXPORT aclError aclrtSetDevice(int32_t deviceId) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  State& state = call.state();
  if (aclError rc = CheckDeviceId(state, deviceId)) return rc;
  DeviceRec& device = state.devices[deviceId];
  if (device.default_context == nullptr) {
    device.default_context =
        ascend_emu::acl::NewContext(state, deviceId, /*is_default=*/true);
  }
  ++device.set_count;
  ascend_emu::acl::SetCurrentContext(device.default_context);
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclError aclrtResetDevice(int32_t deviceId) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  State& state = call.state();
  if (aclError rc = CheckDeviceId(state, deviceId)) return rc;
  DeviceRec& device = state.devices[deviceId];
  if (device.set_count == 0) {
    return Fail(ACL_ERROR_RT_PARAM_INVALID,
                "device %d is not set: aclrtResetDevice without a matching "
                "aclrtSetDevice",
                deviceId);
  }
  if (device.set_count == 1) {
    ContextRec* context = device.default_context;
    if (aclError rc = CheckContextUnused(state, context,
                                         "the device's default context")) {
      return rc;
    }
    if (ascend_emu::acl::CurrentContext(state) == context) {
      ascend_emu::acl::SetCurrentContext(nullptr);
    }
    state.contexts.erase(context);
    device.default_context = nullptr;
  }
  --device.set_count;
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclError aclrtGetDevice(int32_t* deviceId) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  if (deviceId == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM, "deviceId is NULL");
  }
  ContextRec* context = nullptr;
  if (aclError rc =
          ascend_emu::acl::RequireCurrentContext(call.state(), &context))
    return rc;
  *deviceId = context->device;
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclError aclrtGetDeviceCount(uint32_t* count) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  if (count == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "count is NULL");
  *count = static_cast<uint32_t>(call.state().devices.size());
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclError aclrtCreateContext(aclrtContext* context,
                                           int32_t deviceId) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  State& state = call.state();
  if (context == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM, "context is NULL");
  }
  if (aclError rc = CheckDeviceId(state, deviceId)) return rc;
  // As in real CANN, the new context becomes the thread's current context.
  ContextRec* created =
      ascend_emu::acl::NewContext(state, deviceId, /*is_default=*/false);
  ascend_emu::acl::SetCurrentContext(created);
  *context = created;
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclError aclrtDestroyContext(aclrtContext context) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  State& state = call.state();
  auto it = state.contexts.find(context);
  if (it == state.contexts.end()) {
    return Fail(ACL_ERROR_RT_PARAM_INVALID,
                "context %p is not a live context (never created, or "
                "destroyed)",
                context);
  }
  ContextRec* record = it->second.get();
  if (record->is_default) {
    return Fail(ACL_ERROR_RT_PARAM_INVALID,
                "context %p is device %d's default context: release it with "
                "aclrtResetDevice, not aclrtDestroyContext",
                context, record->device);
  }
  if (aclError rc = CheckContextUnused(state, record, "context")) return rc;
  if (ascend_emu::acl::CurrentContext(state) == record) {
    ascend_emu::acl::SetCurrentContext(nullptr);
  }
  state.contexts.erase(it);
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclError aclrtSetCurrentContext(aclrtContext context) {
  // Shared (api_call.h): callers make their context current before every
  // run; it changes only this thread's state.
  static ascend_emu::acl::ApiSite site(__func__);
  ApiCall call(site, ApiCall::kShared);
  if (aclError rc = call.Enter()) return rc;
  ascend_emu::acl::ThreadState& thread = call.thread();
  if (context != nullptr && context == thread.context && thread.context_alive) {
    return ACL_SUCCESS;  // already current and checked live this epoch
  }
  State& state = call.state();
  auto it = state.contexts.find(context);
  if (it == state.contexts.end()) {
    return Fail(ACL_ERROR_RT_PARAM_INVALID,
                "context %p is not a live context (never created, or "
                "destroyed)",
                context);
  }
  ascend_emu::acl::SetCurrentContext(it->second.get());
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclError aclrtGetCurrentContext(aclrtContext* context) {
  static ascend_emu::acl::ApiSite site(__func__);
  ApiCall call(site, ApiCall::kShared);
  if (aclError rc = call.Enter()) return rc;
  if (context == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM, "context is NULL");
  }
  ContextRec* current = nullptr;
  if (aclError rc = ascend_emu::acl::RequireCurrentContext(
          call.state(), call.thread(), &current))
    return rc;
  *context = current;
  return ACL_SUCCESS;
}

}  // extern "C"
