// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Host<->device traffic of the ACL library the AscendBackend loaded, read
// from the CANN emulator's counters (aclEmuGetStats). Real CANN has no such
// counters: then the reader says why traffic is not available.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

struct aclEmuStats;  // acl_emu_extras.h

namespace executorch::backends::ascend::llm {

struct Traffic {
  uint64_t host_to_device = 0;  // bytes
  uint64_t device_to_host = 0;  // bytes
  uint64_t executes = 0;        // aclmdlExecute calls
  uint64_t waits = 0;           // aclrtSynchronizeStream calls (host waits)

  Traffic operator-(const Traffic& other) const {
    return {host_to_device - other.host_to_device,
            device_to_host - other.device_to_host, executes - other.executes,
            waits - other.waits};
  }
};

class TrafficReader {
 public:
  // Looks up the counters in the ACL library already loaded in the process
  // (call it after the method is loaded: the backend loads ACL then).
  TrafficReader();

  bool available() const { return get_stats_ != nullptr; }
  // Why not, when !available().
  const std::string& reason() const { return reason_; }
  // nullopt when not available or the call fails.
  std::optional<Traffic> read() const;

 private:
  using GetStats = int (*)(::aclEmuStats*);              // aclEmuGetStatsFn
  using GetCallCount = int (*)(const char*, uint64_t*);  // aclEmuGetCallCountFn
  GetStats get_stats_ = nullptr;
  GetCallCount get_call_count_ = nullptr;
  std::string reason_;
};

}  // namespace executorch::backends::ascend::llm
