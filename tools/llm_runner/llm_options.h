// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Command line of llm_runner (docs/llm.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace executorch::backends::ascend::llm {

struct LlmOptions {
  std::string model;
  std::string data;  // optional .ptd
  std::string method = "forward";
  std::vector<int64_t> prompt;  // token ids, at least one
  int tokens = 32;  // new tokens to generate (the first from prefill)
  // Program::Verification::Minimal instead of InternalConsistency (the
  // default, so a corrupted file is refused rather than crashing the runner).
  bool minimal_verification = false;
  bool help = false;
};

// Parses argv; on error returns nullopt and sets `error`.
std::optional<LlmOptions> parse_llm_options(int argc, char** argv,
                                            std::string* error);

const char* llm_usage();

}  // namespace executorch::backends::ascend::llm
