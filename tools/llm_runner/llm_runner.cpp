// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// llm_runner: greedy generation with a decoder exported by
// examples/llm/export_llm.py, through executorch::extension::Module with the
// AscendBackend and XnnpackBackend delegates and ExecuTorch's optimized CPU
// kernels linked in (as ascend_runner). The method takes (input_ids [1, S],
// cache_position [S]) and returns logits [1, S, vocab]; the KV cache stays in
// the program. Prints the tokens, decode tokens/s and, on the CANN emulator,
// host<->device bytes per decode token. See docs/llm.md.
#include <executorch/extension/module/module.h>
#include <executorch/extension/tensor/tensor_ptr.h>
#include <executorch/runtime/platform/runtime.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "acl_traffic.h"
#include "llm_options.h"
#include "ptd_check.h"

namespace {

using executorch::aten::ScalarType;
using executorch::extension::Module;
using executorch::extension::TensorPtr;
using executorch::runtime::Error;
using executorch::runtime::EValue;
namespace llm = executorch::backends::ascend::llm;
using Clock = std::chrono::steady_clock;

constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;

int fail(const std::string& message) {
  std::cerr << "llm_runner: " << message << "\n";
  return kExitFailure;
}

std::string error_text(Error error) {
  char hex[16];
  std::snprintf(hex, sizeof(hex), "0x%x", static_cast<unsigned>(error));
  return std::string("ExecuTorch error ") + hex;
}

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start)
      .count();
}

// An int constant method export_llm.py stored (ExecuTorch's LLM metadata
// names); nullopt when the program has none.
std::optional<int64_t> metadata_int(Module& module, const std::string& name) {
  auto value = module.get(name);
  if (!value.ok()) {
    return std::nullopt;
  }
  if (value->isInt()) {
    return value->toInt();
  }
  if (value->isBool()) {
    return value->toBool() ? 1 : 0;
  }
  return std::nullopt;
}

template <typename T>
int64_t argmax_as(const void* data, int64_t count) {
  const auto* values = static_cast<const T*>(data);
  int64_t best = 0;
  float best_value = static_cast<float>(values[0]);
  for (int64_t i = 1; i < count; ++i) {
    const float v = static_cast<float>(values[i]);  // Half/BFloat16 -> float
    if (v > best_value) {
      best_value = v;
      best = i;
    }
  }
  return best;
}

// Greedy choice from the logits of the last position of [1, S, vocab].
std::optional<int64_t> last_argmax(const executorch::aten::Tensor& logits) {
  if (logits.dim() != 3 || logits.size(2) < 1) {
    return std::nullopt;
  }
  const int64_t vocab = logits.size(2);
  const int64_t offset = (logits.size(1) - 1) * vocab;
  switch (logits.scalar_type()) {
    case ScalarType::Float:
      return argmax_as<float>(logits.const_data_ptr<float>() + offset, vocab);
    case ScalarType::Half:
      return argmax_as<executorch::aten::Half>(
          logits.const_data_ptr<executorch::aten::Half>() + offset, vocab);
    case ScalarType::BFloat16:
      return argmax_as<executorch::aten::BFloat16>(
          logits.const_data_ptr<executorch::aten::BFloat16>() + offset, vocab);
    default:
      return std::nullopt;
  }
}

// The two inputs of one call of S tokens. Their storage is allocated once per
// S: the decode loop then only writes the token and the position.
struct StepInputs {
  std::vector<int64_t> ids;
  std::vector<int64_t> positions;
  TensorPtr ids_tensor;
  TensorPtr positions_tensor;

  explicit StepInputs(int64_t s) : ids(s), positions(s) {
    const auto n = static_cast<executorch::aten::SizesType>(s);
    ids_tensor = executorch::extension::make_tensor_ptr({1, n}, ids.data(),
                                                        ScalarType::Long);
    positions_tensor = executorch::extension::make_tensor_ptr(
        {n}, positions.data(), ScalarType::Long);
  }
};

class Generator {
 public:
  Generator(Module& module, std::string method)
      : module_(module), method_(std::move(method)) {}

  // Runs tokens[0..n) at positions [start, start + n); returns the greedy
  // next token.
  std::optional<int64_t> step(StepInputs& in, const int64_t* tokens,
                              int64_t start, std::string* error) {
    for (size_t i = 0; i < in.ids.size(); ++i) {
      in.ids[i] = tokens[i];
      in.positions[i] = start + static_cast<int64_t>(i);
    }
    auto outputs = module_.execute(
        method_, {EValue(*in.ids_tensor), EValue(*in.positions_tensor)});
    if (!outputs.ok()) {
      *error = "method '" + method_ + "' failed at position " +
               std::to_string(start) + " (" + error_text(outputs.error()) +
               "); see the log above";
      return std::nullopt;
    }
    if (outputs->empty() || !(*outputs)[0].isTensor()) {
      *error = "method '" + method_ + "' returned no logits tensor";
      return std::nullopt;
    }
    auto token = last_argmax((*outputs)[0].toTensor());
    if (!token.has_value()) {
      *error =
          "the logits are not a [1, S, vocab] float, half or bfloat16 "
          "tensor";
    }
    return token;
  }

 private:
  Module& module_;
  std::string method_;
};

void print_traffic(const char* what, const std::optional<llm::Traffic>& delta,
                   int64_t tokens) {
  if (!delta.has_value() || tokens <= 0) {
    return;
  }
  const double n = static_cast<double>(tokens);
  std::printf(
      "traffic per %s token: host->device %.0f B, device->host %.0f B, "
      "aclmdlExecute %.2f\n",
      what, delta->host_to_device / n, delta->device_to_host / n,
      delta->executes / n);
}

int run(const llm::LlmOptions& options) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(options.model, ec)) {
    return fail("model file '" + options.model + "' does not exist");
  }
  if (!options.data.empty() &&
      !std::filesystem::is_regular_file(options.data, ec)) {
    return fail("data file '" + options.data + "' does not exist");
  }
  // ExecuTorch does not verify a .ptd's flatbuffer (ptd_check.h).
  if (!options.data.empty()) {
    const std::string refusal =
        executorch::backends::ascend::tools::ptd_refusal(options.data);
    if (!refusal.empty()) return fail(refusal);
  }
  auto module =
      options.data.empty()
          ? std::make_unique<Module>(options.model, Module::LoadMode::Mmap)
          : std::make_unique<Module>(options.model, options.data,
                                     Module::LoadMode::Mmap);
  const auto load_start = Clock::now();
  // Loaded explicitly: load_method alone would load the program with
  // Module's default, Minimal verification, under which a corrupted file can
  // crash the runner.
  const auto verification =
      options.minimal_verification
          ? executorch::runtime::Program::Verification::Minimal
          : executorch::runtime::Program::Verification::InternalConsistency;
  if (Error e = module->load(verification); e != Error::Ok) {
    return fail("cannot load program '" + options.model + "' (" +
                error_text(e) + "); see the log above");
  }
  if (Error e = module->load_method(options.method); e != Error::Ok) {
    return fail("cannot load method '" + options.method + "' of '" +
                options.model + "' (" + error_text(e) + "); see the log above");
  }
  const double load_ms = ms_since(load_start);
  auto meta = module->method_meta(options.method);
  if (!meta.ok() || meta->num_inputs() != 2) {
    return fail("method '" + options.method +
                "' must take (input_ids, cache_position)");
  }
  auto ids_meta = meta->input_tensor_meta(0);
  if (!ids_meta.ok() || ids_meta->sizes().size() != 2) {
    return fail("input_ids must be a [1, S] tensor");
  }
  // The largest S the method takes: the prefill gear (1: decode shape only).
  const int64_t chunk = ids_meta->sizes()[1];
  const auto context = metadata_int(*module, "get_max_context_len");
  const auto vocab = metadata_int(*module, "get_vocab_size");

  const auto prompt_len = static_cast<int64_t>(options.prompt.size());
  // The last decode call writes position prompt_len + tokens - 2.
  const int64_t positions_needed = prompt_len + options.tokens - 1;
  if (context.has_value() && positions_needed > *context) {
    return fail("the prompt (" + std::to_string(prompt_len) + ") and " +
                std::to_string(options.tokens) + " new tokens need " +
                std::to_string(positions_needed) +
                " cache positions; the model has " + std::to_string(*context));
  }
  for (int64_t id : options.prompt) {
    if (vocab.has_value() && id >= *vocab) {
      return fail("prompt token " + std::to_string(id) +
                  " is outside the vocabulary (" + std::to_string(*vocab) +
                  ")");
    }
  }
  std::printf(
      "llm_runner: %s, method %s, vocab %s, context %s, prefill chunk %lld, "
      "load %.3f ms\n",
      options.model.c_str(), options.method.c_str(),
      vocab ? std::to_string(*vocab).c_str() : "?",
      context ? std::to_string(*context).c_str() : "?",
      static_cast<long long>(chunk), load_ms);

  // ACL is loaded by now (the method's delegates initialised it).
  const llm::TrafficReader traffic;
  Generator generator(*module, options.method);
  std::string error;
  StepInputs single(1);
  std::unique_ptr<StepInputs> full;
  if (chunk > 1) {
    full = std::make_unique<StepInputs>(chunk);
  }

  // Prefill: whole chunks of the gear while they fit, then one token per call
  // (shape gears run only the shapes they were compiled for).
  const auto before_prefill = traffic.read();
  const auto prefill_start = Clock::now();
  std::optional<int64_t> next;
  int64_t pos = 0;
  int prefill_calls = 0;
  while (pos < prompt_len) {
    StepInputs& in = (full && prompt_len - pos >= chunk) ? *full : single;
    next = generator.step(in, options.prompt.data() + pos, pos, &error);
    if (!next.has_value()) {
      return fail(error);
    }
    pos += static_cast<int64_t>(in.ids.size());
    ++prefill_calls;
  }
  const double prefill_ms = ms_since(prefill_start);
  const auto after_prefill = traffic.read();

  // Decode: the first new token came from the prefill; each call adds one.
  std::vector<int64_t> generated{*next};
  const auto decode_start = Clock::now();
  while (static_cast<int>(generated.size()) < options.tokens) {
    next = generator.step(single, &generated.back(), pos, &error);
    if (!next.has_value()) {
      return fail(error);
    }
    generated.push_back(*next);
    ++pos;
  }
  const double decode_ms = ms_since(decode_start);
  const auto after_decode = traffic.read();
  const auto decode_tokens = static_cast<int64_t>(generated.size()) - 1;

  std::printf("prompt: %lld token(s)\n", static_cast<long long>(prompt_len));
  std::printf("prefill: %lld token(s) in %d call(s), %.3f ms\n",
              static_cast<long long>(prompt_len), prefill_calls, prefill_ms);
  std::printf("tokens:");
  for (int64_t t : generated) {
    std::printf(" %lld", static_cast<long long>(t));
  }
  std::printf("\n");
  std::printf("decode: %lld token(s) in %.3f ms, %.1f tokens/s\n",
              static_cast<long long>(decode_tokens), decode_ms,
              decode_ms > 0 ? decode_tokens * 1000.0 / decode_ms : 0.0);
  if (!traffic.available()) {
    std::printf("traffic: not available (%s)\n", traffic.reason().c_str());
    return kExitOk;
  }
  if (!before_prefill || !after_prefill || !after_decode) {
    return fail("aclEmuGetStats failed");
  }
  print_traffic("prefill", *after_prefill - *before_prefill, prompt_len);
  print_traffic("decode", *after_decode - *after_prefill, decode_tokens);
  return kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  executorch::runtime::runtime_init();
  std::string error;
  const auto options = llm::parse_llm_options(argc, argv, &error);
  if (!options.has_value()) {
    std::cerr << "llm_runner: " << error << "\n\n" << llm::llm_usage();
    return kExitUsage;
  }
  if (options->help) {
    std::cout << llm::llm_usage();
    return kExitOk;
  }
  return run(*options);
}
