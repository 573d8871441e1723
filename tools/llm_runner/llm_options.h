// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Command line of llm_runner (docs/llm.md). The options it shares with
// ascend_runner are read by tools/common/program_options.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "program_options.h"

namespace executorch::backends::ascend::llm {

// --model, --data, --method and --verification (ProgramOptions), then the
// runner's own.
struct LlmOptions : tools::ProgramOptions {
  std::vector<int64_t> prompt;  // token ids, at least one
  int tokens = 32;  // new tokens to generate (the first from prefill)
  // verification is kMinimal: Program::Verification::Minimal instead of
  // InternalConsistency (the default, so a corrupted file is refused rather
  // than crashing the runner).
  bool minimal_verification = false;
};

// Parses argv; on error returns nullopt and sets `error`.
std::optional<LlmOptions> parse_llm_options(int argc, char** argv,
                                            std::string* error);

const char* llm_usage();

}  // namespace executorch::backends::ascend::llm
