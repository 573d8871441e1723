// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "runner_options.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace executorch::backends::ascend::runner {
namespace {

bool parse_int(const std::string& text, int min, int* out) {
  if (text.empty()) {
    return false;
  }
  char* end = nullptr;
  errno = 0;
  const long value = std::strtol(text.c_str(), &end, 10);
  if (errno != 0 || *end != '\0' || value < min ||
      value > std::numeric_limits<int>::max()) {
    return false;
  }
  *out = static_cast<int>(value);
  return true;
}

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t comma = text.find(',', start);
    parts.push_back(text.substr(start, comma - start));
    if (comma == std::string::npos) {
      break;
    }
    start = comma + 1;
  }
  return parts;
}

}  // namespace

bool parse_verification(const std::string& text, Verification* out) {
  if (text == "minimal") {
    *out = Verification::kMinimal;
    return true;
  }
  if (text == "internal") {
    *out = Verification::kInternalConsistency;
    return true;
  }
  return false;
}

const char* usage() {
  return "usage: ascend_runner --model MODEL.pte [--data MODEL.ptd]\n"
         "                     [--method NAME] [--inputs A.bin,B.bin,...]\n"
         "                     [--output-dir DIR] [--iterations N] "
         "[--warmup N]\n"
         "                     [--device-id N] [--verification "
         "minimal|internal]\n"
         "\n"
         "Runs one method of an ExecuTorch program (with the AscendBackend\n"
         "delegate and ExecuTorch's CPU kernels) and prints its outputs and\n"
         "latency.\n"
         "  --model       the .pte file (required)\n"
         "  --data        a .ptd file with the program's external data\n"
         "  --method      method to run (default: forward)\n"
         "  --inputs      raw little-endian files, one per input, each "
         "exactly\n"
         "                the input's dtype and static shape; without it "
         "inputs\n"
         "                are filled deterministically (see docs/runtime.md)\n"
         "  --output-dir  write each output as raw bytes to DIR/outN.bin\n"
         "  --iterations  timed runs (default 1)\n"
         "  --warmup      untimed runs before them (default 0)\n"
         "  --device-id   Ascend device for every AscendBackend delegate\n"
         "  --verification  how ExecuTorch checks the program before it runs:\n"
         "                internal (default) checks the whole file, so a\n"
         "                corrupted one is refused; minimal checks only its\n"
         "                header (faster load, trusted files only)\n";
}

std::optional<RunnerOptions> parse_options(int argc, char** argv,
                                           std::string* error) {
  RunnerOptions options;
  bool have_inputs = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "-h" || arg == "--help") {
      options.help = true;
      return options;
    }
    std::string value;
    const size_t equals = arg.find('=');
    if (arg.rfind("--", 0) == 0 && equals != std::string::npos) {
      value = arg.substr(equals + 1);
      arg = arg.substr(0, equals);
    } else if (i + 1 < argc) {
      value = argv[++i];
    } else {
      *error = "missing value for " + arg;
      return std::nullopt;
    }
    if (arg == "--model") {
      options.model = value;
    } else if (arg == "--data") {
      options.data = value;
    } else if (arg == "--method") {
      options.method = value;
    } else if (arg == "--inputs") {
      options.inputs = split_commas(value);
      have_inputs = true;
    } else if (arg == "--output-dir") {
      options.output_dir = value;
    } else if (arg == "--iterations") {
      if (!parse_int(value, 1, &options.iterations)) {
        *error = "--iterations needs an integer >= 1, got '" + value + "'";
        return std::nullopt;
      }
    } else if (arg == "--warmup") {
      if (!parse_int(value, 0, &options.warmup)) {
        *error = "--warmup needs an integer >= 0, got '" + value + "'";
        return std::nullopt;
      }
    } else if (arg == "--device-id") {
      int device = 0;
      if (!parse_int(value, 0, &device)) {
        *error = "--device-id needs an integer >= 0, got '" + value + "'";
        return std::nullopt;
      }
      options.device_id = device;
    } else if (arg == "--verification") {
      if (!parse_verification(value, &options.verification)) {
        *error =
            "--verification needs 'minimal' or 'internal', got '" + value + "'";
        return std::nullopt;
      }
    } else {
      *error = "unknown argument '" + arg + "'";
      return std::nullopt;
    }
  }
  if (options.model.empty()) {
    *error = "--model is required";
    return std::nullopt;
  }
  if (options.method.empty()) {
    *error = "--method must not be empty";
    return std::nullopt;
  }
  if (have_inputs) {
    for (const std::string& path : options.inputs) {
      if (path.empty()) {
        *error = "--inputs has an empty file name";
        return std::nullopt;
      }
    }
  }
  return options;
}

}  // namespace executorch::backends::ascend::runner
