// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "llm_options.h"

#include <limits>

namespace executorch::backends::ascend::llm {
namespace {

using tools::parse_integer;

// "1,5,9" -> {1, 5, 9}; token ids are >= 0 (the model checks the upper bound).
bool parse_tokens(const std::string& text, std::vector<int64_t>* out) {
  out->clear();
  for (const std::string& item : tools::split_commas(text)) {
    long long id = 0;
    if (!parse_integer(item, 0, std::numeric_limits<int64_t>::max(), &id)) {
      return false;
    }
    out->push_back(id);
  }
  return true;
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
  LlmOptions o;
  // llm_runner's own options; the shared ones are tools::ProgramOptions'.
  const auto prompt = [&o](const std::string& v) {
    if (parse_tokens(v, &o.prompt)) return std::string();
    return "--prompt needs token ids >= 0 separated by commas, got '" + v + "'";
  };
  const auto tokens = [&o](const std::string& v) {
    return tools::int_option("--tokens", v, 1, &o.tokens);
  };
  if (!tools::parse_arguments(argc, argv, &o,
                              {{"--prompt", prompt}, {"--tokens", tokens}},
                              error)) {
    return std::nullopt;
  }
  // (A --prompt that parsed holds at least one token.)
  if (!o.help && o.prompt.empty()) {
    *error = "--prompt is required (e.g. --prompt 1,5,9)";
    return std::nullopt;
  }
  o.minimal_verification = o.verification == tools::Verification::kMinimal;
  return o;
}

}  // namespace executorch::backends::ascend::llm
