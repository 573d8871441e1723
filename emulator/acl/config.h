// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Emulator configuration from EXECUTORCH_ASCEND_EMU_* environment variables,
// read once per aclInit (docs/emulator.md, "Configuration").
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ascend_emu::acl {

struct FaultSpec {
  std::string function;
  int after = 0;
  int error = 0;
};

struct Config {
  int32_t device_count = 1;
  size_t device_memory = size_t{8} << 30;  // bytes per device
  int32_t num_threads = 1;  // kernel threads (ascend_emu::SetKernelThreads)
  std::string soc_name = "Ascend910B1";
  // aclrtGetRunMode: ACL_HOST (an accelerator card in a host, EP mode) or
  // ACL_DEVICE (the program runs on the board's own cores, RC mode, e.g. an
  // Atlas 200I DK A2: device and host share one DDR), from
  // EXECUTORCH_ASCEND_EMU_RUN_MODE=host|device. CANN asks the driver, not
  // the SoC (hicann/runtime ApiImpl::GetRunMode): an Ascend310B may be
  // either, so the emulator takes it from its own variable.
  bool device_run_mode = false;
  bool strict = false;
  bool verbose = false;
  std::vector<FaultSpec> faults;
};

// Reads the environment. On a malformed value returns false and sets *error
// to a message naming the variable and the value.
bool LoadConfigFromEnv(Config* config, std::string* error);

// Parsers, exposed for their tests and for the env reader above.
// "8589934592", "512M", "8G", "8GiB", "64k": binary multiples, > 0.
bool ParseByteSize(const std::string& text, size_t* bytes);
// "fn:after:error[,fn:after:error...]"; names must be fault-injectable.
bool ParseFaultSpecs(const std::string& text, std::vector<FaultSpec>* faults,
                     std::string* error);

}  // namespace ascend_emu::acl
