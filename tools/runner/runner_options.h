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
  // A stream of frames (0: off): frame f's inputs are the deterministic
  // inputs of index k + f * num_inputs (or the --inputs files, every frame).
  int frames = 0;
  // Method instances in flight over the frames, one thread each (1: one
  // after another). With 2, frame f+1 is uploaded while frame f computes.
  int pipeline = 1;
};

// Parses argv; on error returns nullopt and sets `error`.
std::optional<RunnerOptions> parse_options(int argc, char** argv,
                                           std::string* error);

const char* usage();

}  // namespace executorch::backends::ascend::runner
