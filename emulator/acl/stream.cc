// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Streams. The emulator runs every "async" operation to completion before it
// returns, so a stream is only a validated handle and synchronizing it has
// nothing to wait for.
#include <memory>

#include "acl_api.h"
#include "api_call.h"
#include "errors.h"
#include "export.h"
#include "state.h"

using ascend_emu::acl::ApiCall;
using ascend_emu::acl::ContextRec;
using ascend_emu::acl::Fail;
using ascend_emu::acl::State;
using ascend_emu::acl::StreamRec;

extern "C" {

ACL_EMU_EXPORT aclError aclrtCreateStream(aclrtStream* stream) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  State& state = call.state();
  if (stream == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "stream is NULL");
  ContextRec* context = nullptr;
  if (aclError rc = ascend_emu::acl::RequireCurrentContext(state, &context)) {
    return rc;
  }
  auto record = std::make_unique<StreamRec>();
  record->serial = state.next_serial++;
  record->context = context;
  StreamRec* raw = record.get();
  state.streams.emplace(raw, std::move(record));
  *stream = raw;
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclError aclrtDestroyStream(aclrtStream stream) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  State& state = call.state();
  auto it = state.streams.find(stream);
  if (it == state.streams.end()) {
    return Fail(ACL_ERROR_RT_PARAM_INVALID,
                "stream %p is not a live stream (never created, or destroyed)",
                stream);
  }
  state.streams.erase(it);
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclError aclrtSynchronizeStream(aclrtStream stream) {
  // Shared (api_call.h): called after every asynchronous run.
  static ascend_emu::acl::ApiSite site(__func__);
  ApiCall call(site, ApiCall::kShared);
  if (aclError rc = call.Enter()) return rc;
  State& state = call.state();
  if (stream == nullptr) {
    // The default stream of the current context.
    ContextRec* context = nullptr;
    return ascend_emu::acl::RequireCurrentContext(state, call.thread(),
                                                  &context);
  }
  if (state.streams.find(stream) == state.streams.end()) {
    return Fail(ACL_ERROR_RT_PARAM_INVALID,
                "stream %p is not a live stream (never created, or destroyed)",
                stream);
  }
  return ACL_SUCCESS;
}

}  // extern "C"
