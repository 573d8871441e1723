// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Command line of ascend_runner (docs/runtime.md, "The runner"). The options
// it shares with llm_runner are read by tools/common/program_options.h.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "program_options.h"

namespace executorch::backends::ascend::runner {

using tools::parse_verification;
using tools::Verification;

// --model, --data, --method and --verification (ProgramOptions), then the
// runner's own.
struct RunnerOptions : tools::ProgramOptions {
  std::vector<std::string> inputs;  // one raw file per method input
  std::string output_dir;           // optional
  int iterations = 1;
  int warmup = 0;
  std::optional<int> device_id;  // load-time "device_id" for AscendBackend
};

// Parses argv; on error returns nullopt and sets `error`.
std::optional<RunnerOptions> parse_options(int argc, char** argv,
                                           std::string* error);

const char* usage();

}  // namespace executorch::backends::ascend::runner
