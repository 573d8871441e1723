// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Command line of ascend_runner (docs/runtime.md, "The runner").
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace executorch::backends::ascend::runner {

// How much of the program ExecuTorch checks before running it
// (Program::Verification). The runner's own enum, so parsing needs no
// ExecuTorch header.
enum class Verification {
  // The flatbuffer header only: a corrupted file can crash the process.
  kMinimal,
  // The whole flatbuffer, offsets and sizes: the default, because a runner is
  // handed files it did not write.
  kInternalConsistency,
};

struct RunnerOptions {
  std::string model;
  std::string data;  // optional .ptd
  std::string method = "forward";
  std::vector<std::string> inputs;  // one raw file per method input
  std::string output_dir;           // optional
  int iterations = 1;
  int warmup = 0;
  std::optional<int> device_id;  // load-time "device_id" for AscendBackend
  Verification verification = Verification::kInternalConsistency;
  bool help = false;
};

// Parses argv; on error returns nullopt and sets `error`.
std::optional<RunnerOptions> parse_options(int argc, char** argv,
                                           std::string* error);

const char* usage();

// "minimal" or "internal" into `out`; false for anything else. Shared with
// llm_runner.
bool parse_verification(const std::string& text, Verification* out);

}  // namespace executorch::backends::ascend::runner
