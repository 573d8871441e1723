// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// ascend_runner: runs one method of an ExecuTorch program (.pte, optional
// .ptd) through executorch::extension::Module, with the AscendBackend and
// XnnpackBackend delegates and ExecuTorch's optimized CPU kernels linked in.
// Prints each output and the latency; see docs/runtime.md.
#include <ascend_backend.h>
#include <executorch/extension/module/module.h>
#include <executorch/extension/tensor/tensor_ptr.h>
#include <executorch/runtime/backend/options.h>
#include <executorch/runtime/platform/runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "ptd_check.h"
#include "runner_options.h"
#include "tensor_files.h"

namespace {

using executorch::extension::Module;
using executorch::runtime::Error;
using executorch::runtime::EValue;
using executorch::runtime::Tag;
namespace runner = executorch::backends::ascend::runner;

constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;
constexpr size_t kValuesShown = 8;

int fail(const std::string& message) {
  std::cerr << "ascend_runner: " << message << "\n";
  return kExitFailure;
}

std::string error_text(Error error) {
  char hex[16];
  std::snprintf(hex, sizeof(hex), "0x%x", static_cast<unsigned>(error));
  return std::string("ExecuTorch error ") + hex;
}

bool is_regular_file(const std::string& path) {
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec);
}

int run(const runner::RunnerOptions& options) {
  if (!is_regular_file(options.model)) {
    return fail("model file '" + options.model + "' does not exist");
  }
  if (!options.data.empty() && !is_regular_file(options.data)) {
    return fail("data file '" + options.data + "' does not exist");
  }
  // ExecuTorch does not verify a .ptd's flatbuffer (ptd_check.h).
  if (!options.data.empty()) {
    const std::string refusal =
        executorch::backends::ascend::tools::ptd_refusal(options.data);
    if (!refusal.empty()) return fail(refusal);
  }
  std::unique_ptr<Module> module =
      options.data.empty()
          ? std::make_unique<Module>(options.model, Module::LoadMode::Mmap)
          : std::make_unique<Module>(options.model, options.data,
                                     Module::LoadMode::Mmap);

  // A load-time option for every AscendBackend delegate; the storage must
  // outlive the loaded method.
  executorch::runtime::BackendOptions<1> ascend_options;
  executorch::runtime::LoadBackendOptionsMap backend_options;
  if (options.device_id.has_value()) {
    (void)ascend_options.set_option(
        executorch::backends::ascend::kDeviceIdOption, *options.device_id);
    (void)backend_options.set_options(
        executorch::backends::ascend::kAscendBackendName,
        ascend_options.view());
  }

  const auto load_start = std::chrono::steady_clock::now();
  // InternalConsistency unless --verification minimal: with Minimal,
  // ExecuTorch trusts the flatbuffer's offsets and a corrupted file can crash
  // the runner instead of being refused.
  const auto verification =
      options.verification == runner::Verification::kMinimal
          ? executorch::runtime::Program::Verification::Minimal
          : executorch::runtime::Program::Verification::InternalConsistency;
  Error error = module->load(backend_options, verification);
  if (error != Error::Ok) {
    return fail("cannot load program '" + options.model + "' (" +
                error_text(error) + ")");
  }
  auto meta = module->method_meta(options.method);
  if (!meta.ok()) {
    std::string names;
    if (auto all = module->method_names(); all.ok()) {
      for (const auto& name : *all) {
        names += (names.empty() ? "" : ", ") + name;
      }
    }
    return fail("no method '" + options.method +
                "' in the program (has: " + names + ")");
  }
  error =
      module->load_method(options.method, nullptr, nullptr, &backend_options);
  if (error != Error::Ok) {
    return fail("cannot load method '" + options.method + "' (" +
                error_text(error) + "); see the log above");
  }
  const double load_ms = std::chrono::duration<double, std::milli>(
                             std::chrono::steady_clock::now() - load_start)
                             .count();

  const size_t num_inputs = meta->num_inputs();
  if (!options.inputs.empty() && options.inputs.size() != num_inputs) {
    return fail("--inputs names " + std::to_string(options.inputs.size()) +
                " files but method '" + options.method + "' takes " +
                std::to_string(num_inputs) + " inputs");
  }
  std::vector<runner::InputBuffer> buffers;
  std::vector<executorch::extension::TensorPtr> tensors;
  std::vector<EValue> inputs;
  buffers.reserve(num_inputs);
  for (size_t i = 0; i < num_inputs; ++i) {
    auto tag = meta->input_tag(i);
    if (!tag.ok() || *tag != Tag::Tensor) {
      return fail("input " + std::to_string(i) +
                  " is not a tensor; ascend_runner feeds tensor inputs only");
    }
    auto info = meta->input_tensor_meta(i);
    if (!info.ok()) {
      return fail("cannot read the meta of input " + std::to_string(i));
    }
    buffers.push_back(runner::make_input(*info));
    runner::InputBuffer& buffer = buffers.back();
    if (options.inputs.empty()) {
      runner::fill_deterministic(i, &buffer);
    } else {
      std::string message;
      if (!runner::read_input_file(options.inputs[i], &buffer, &message)) {
        return fail(message);
      }
    }
    tensors.push_back(executorch::extension::make_tensor_ptr(
        buffer.sizes, buffer.bytes.data(), buffer.dim_order, {}, buffer.type));
    inputs.emplace_back(*tensors.back());
  }

  for (int i = 0; i < options.warmup; ++i) {
    auto outputs = module->execute(options.method, inputs);
    if (!outputs.ok()) {
      return fail("warm-up run failed (" + error_text(outputs.error()) + ")");
    }
  }
  double min_ms = 0;
  double total_ms = 0;
  std::vector<EValue> outputs;
  for (int i = 0; i < options.iterations; ++i) {
    const auto start = std::chrono::steady_clock::now();
    auto result = module->execute(options.method, inputs);
    const double ms = std::chrono::duration<double, std::milli>(
                          std::chrono::steady_clock::now() - start)
                          .count();
    if (!result.ok()) {
      return fail("run failed (" + error_text(result.error()) +
                  "); see the log above");
    }
    min_ms = i == 0 ? ms : std::min(min_ms, ms);
    total_ms += ms;
    outputs = std::move(*result);
  }

  if (!options.output_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(options.output_dir, ec);
    if (ec) {
      return fail("cannot create output directory '" + options.output_dir +
                  "': " + ec.message());
    }
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (!outputs[i].isTensor()) {
      std::cout << "output " << i << ": (not a tensor, tag "
                << static_cast<int>(outputs[i].tag) << ")\n";
      continue;
    }
    const auto& tensor = outputs[i].toTensor();
    std::cout << "output " << i << ": "
              << runner::describe(tensor, kValuesShown) << "\n";
    if (!options.output_dir.empty()) {
      const std::string path = (std::filesystem::path(options.output_dir) /
                                ("out" + std::to_string(i) + ".bin"))
                                   .string();
      std::string message;
      if (!runner::write_raw(tensor, path, &message)) {
        return fail(message);
      }
    }
  }
  std::printf("load: %.3f ms\n", load_ms);
  std::printf("latency over %d iteration(s): min %.3f ms, mean %.3f ms\n",
              options.iterations, min_ms, total_ms / options.iterations);
  return kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  executorch::runtime::runtime_init();
  std::string error;
  const auto options = runner::parse_options(argc, argv, &error);
  if (!options.has_value()) {
    std::cerr << "ascend_runner: " << error << "\n\n" << runner::usage();
    return kExitUsage;
  }
  if (options->help) {
    std::cout << runner::usage();
    return kExitOk;
  }
  return run(*options);
}
