// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Command line of ascend_runner (docs/runtime.md, "The runner").
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace executorch::backends::ascend::runner {

struct RunnerOptions {
  std::string model;
  std::string data;  // optional .ptd
  std::string method = "forward";
  std::vector<std::string> inputs;  // one raw file per method input
  std::string output_dir;           // optional
  int iterations = 1;
  int warmup = 0;
  std::optional<int> device_id;  // load-time "device_id" for AscendBackend
  bool help = false;
};

// Parses argv; on error returns nullopt and sets `error`.
std::optional<RunnerOptions> parse_options(int argc, char** argv,
                                           std::string* error);

const char* usage();

}  // namespace executorch::backends::ascend::runner
