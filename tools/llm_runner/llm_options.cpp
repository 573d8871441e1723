// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "llm_options.h"

#include <cerrno>
#include <cstdlib>
#include <limits>

namespace executorch::backends::ascend::llm {
namespace {

// A whole decimal integer in [min, max], nothing else.
bool parse_integer(const std::string& text, long long min, long long max,
                   long long* out) {
  if (text.empty()) {
    return false;
  }
  char* end = nullptr;
  errno = 0;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  if (errno != 0 || *end != '\0' || value < min || value > max) {
    return false;
  }
  *out = value;
  return true;
}

// "1,5,9" -> {1, 5, 9}; token ids are >= 0 (the model checks the upper bound).
bool parse_tokens(const std::string& text, std::vector<int64_t>* out) {
  out->clear();
  size_t start = 0;
  while (true) {
    const size_t comma = text.find(',', start);
    long long id = 0;
    if (!parse_integer(text.substr(start, comma - start), 0,
                       std::numeric_limits<int64_t>::max(), &id)) {
      return false;
    }
    out->push_back(id);
    if (comma == std::string::npos) {
      return true;
    }
    start = comma + 1;
  }
}

}  // namespace

const char* llm_usage() {
  return "usage: llm_runner --model MODEL.pte [--data MODEL.ptd] "
         "--prompt ID,ID,...\n"
         "                  [--tokens N] [--method NAME]\n"
         "                  [--verification minimal|internal]\n"
         "\n"
         "Greedy generation with a decoder exported by "
         "examples/llm/export_llm.py:\n"
         "prefill of the prompt, then one token per call; prints the tokens,\n"
         "decode tokens/s and the host<->device bytes per decode token (CANN\n"
         "emulator only).\n"
         "  --model    the .pte file (required)\n"
         "  --data     a .ptd file with the program's external data\n"
         "  --prompt   prompt token ids, comma separated (required)\n"
         "  --tokens   new tokens to generate, the first from the prefill "
         "(default 32)\n"
         "  --method   the decoder method (default: forward)\n"
         "  --verification  internal (default: ExecuTorch checks the whole\n"
         "             file) or minimal (its header only; trusted files)\n";
}

std::optional<LlmOptions> parse_llm_options(int argc, char** argv,
                                            std::string* error) {
  LlmOptions options;
  bool have_prompt = false;
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
    } else if (arg == "--prompt") {
      if (!parse_tokens(value, &options.prompt)) {
        *error = "--prompt needs token ids >= 0 separated by commas, got '" +
                 value + "'";
        return std::nullopt;
      }
      have_prompt = true;
    } else if (arg == "--tokens") {
      long long tokens = 0;
      if (!parse_integer(value, 1, std::numeric_limits<int>::max(), &tokens)) {
        *error = "--tokens needs an integer >= 1, got '" + value + "'";
        return std::nullopt;
      }
      options.tokens = static_cast<int>(tokens);
    } else if (arg == "--verification") {
      if (value != "minimal" && value != "internal") {
        *error =
            "--verification needs 'minimal' or 'internal', got '" + value + "'";
        return std::nullopt;
      }
      options.minimal_verification = value == "minimal";
    } else {
      *error = "unknown argument '" + arg + "'";
      return std::nullopt;
    }
  }
  if (options.model.empty()) {
    *error = "--model is required";
    return std::nullopt;
  }
  if (!have_prompt) {
    *error = "--prompt is required (e.g. --prompt 1,5,9)";
    return std::nullopt;
  }
  if (options.method.empty()) {
    *error = "--method must not be empty";
    return std::nullopt;
  }
  return options;
}

}  // namespace executorch::backends::ascend::llm
