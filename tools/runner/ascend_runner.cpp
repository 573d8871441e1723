// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// ascend_runner: runs one method of an ExecuTorch program (.pte, optional
// .ptd) through executorch::extension::Module, with the AscendBackend and
// XnnpackBackend delegates and ExecuTorch's optimized CPU kernels linked in.
// Prints each output and the latency; see docs/runtime.md. With --frames,
// runs a stream of frames, through --pipeline method instances on as many
// threads, and prints frames per second and the host waits per frame.
#include <ascend_backend.h>
#include <executorch/extension/module/module.h>
#include <executorch/extension/tensor/tensor_ptr.h>
#include <executorch/runtime/backend/options.h>
#include <executorch/runtime/platform/runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "acl_traffic.h"
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

// One method instance of the frames mode: its own Module (program, planned
// memory, delegates; the delegates' device weights are shared through the
// weights cache), its input storage and its thread.
struct Instance {
  std::unique_ptr<Module> module;
  std::vector<runner::InputBuffer> buffers;
  std::vector<executorch::extension::TensorPtr> tensors;
  std::vector<EValue> inputs;
  std::string error;
};

// Frame f's inputs into `instance`: the --inputs files (every frame alike)
// or the deterministic inputs of index k + f * num_inputs.
bool fill_frame(const runner::RunnerOptions& options, int frame,
                Instance* instance) {
  const size_t num_inputs = instance->buffers.size();
  for (size_t i = 0; i < num_inputs; ++i) {
    if (options.inputs.empty()) {
      runner::fill_deterministic(i + static_cast<size_t>(frame) * num_inputs,
                                 &instance->buffers[i]);
    } else if (frame == 0 && !runner::read_input_file(options.inputs[i],
                                                      &instance->buffers[i],
                                                      &instance->error)) {
      return false;
    }
  }
  return true;
}

// Frames f = k, k + N, ... on instance k (N = --pipeline), in order.
void run_frames_of(const runner::RunnerOptions& options, int k,
                   Instance* instance) {
  for (int frame = k; frame < options.frames; frame += options.pipeline) {
    if (!fill_frame(options, frame, instance)) return;
    auto result = instance->module->execute(options.method, instance->inputs);
    if (!result.ok()) {
      instance->error = "frame " + std::to_string(frame) + " failed (" +
                        error_text(result.error()) + "); see the log above";
      return;
    }
    if (options.output_dir.empty()) continue;
    const std::filesystem::path dir =
        std::filesystem::path(options.output_dir) /
        ("frame" + std::to_string(frame));
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    for (size_t i = 0; i < result->size(); ++i) {
      if (!(*result)[i].isTensor()) continue;
      const std::string path = (dir / ("out" + std::to_string(i) + ".bin"));
      if (!runner::write_raw((*result)[i].toTensor(), path, &instance->error)) {
        return;
      }
    }
  }
}

int run_frames(const runner::RunnerOptions& options,
               const std::function<int(std::unique_ptr<Module>*)>& load,
               std::unique_ptr<Module> first) {
  std::vector<Instance> instances(static_cast<size_t>(options.pipeline));
  instances[0].module = std::move(first);
  for (size_t k = 1; k < instances.size(); ++k) {
    if (int rc = load(&instances[k].module); rc != kExitOk) return rc;
  }
  for (Instance& instance : instances) {
    auto meta = instance.module->method_meta(options.method);
    if (!meta.ok()) return fail("cannot read the method meta");
    for (size_t i = 0; i < meta->num_inputs(); ++i) {
      auto info = meta->input_tensor_meta(i);
      if (!info.ok()) {
        return fail("input " + std::to_string(i) +
                    " is not a tensor; ascend_runner feeds tensor inputs only");
      }
      instance.buffers.push_back(runner::make_input(*info));
    }
    if (!options.inputs.empty() &&
        options.inputs.size() != instance.buffers.size()) {
      return fail("--inputs names " + std::to_string(options.inputs.size()) +
                  " files but method '" + options.method + "' takes " +
                  std::to_string(instance.buffers.size()) + " inputs");
    }
    // The tensors point into the buffers, which are refilled per frame.
    for (runner::InputBuffer& buffer : instance.buffers) {
      instance.tensors.push_back(executorch::extension::make_tensor_ptr(
          buffer.sizes, buffer.bytes.data(), buffer.dim_order, {},
          buffer.type));
      instance.inputs.emplace_back(*instance.tensors.back());
    }
    if (!fill_frame(options, 0, &instance)) return fail(instance.error);
    for (int i = 0; i < options.warmup; ++i) {
      auto outputs = instance.module->execute(options.method, instance.inputs);
      if (!outputs.ok()) {
        return fail("warm-up run failed (" + error_text(outputs.error()) + ")");
      }
    }
  }
  const executorch::backends::ascend::llm::TrafficReader traffic;
  const auto before = traffic.read();
  const auto start = std::chrono::steady_clock::now();
  if (instances.size() == 1) {
    run_frames_of(options, 0, &instances[0]);
  } else {
    std::vector<std::thread> threads;
    for (size_t k = 0; k < instances.size(); ++k) {
      threads.emplace_back(run_frames_of, std::cref(options),
                           static_cast<int>(k), &instances[k]);
    }
    for (std::thread& thread : threads) thread.join();
  }
  const double ms = std::chrono::duration<double, std::milli>(
                        std::chrono::steady_clock::now() - start)
                        .count();
  for (const Instance& instance : instances) {
    if (!instance.error.empty()) return fail(instance.error);
  }
  std::printf("frames: %d in %.3f ms, %.2f frames/s (pipeline %d)\n",
              options.frames, ms, options.frames * 1000.0 / ms,
              options.pipeline);
  if (const auto after = traffic.read(); before && after) {
    const auto delta = *after - *before;
    std::printf(
        "per frame: %.2f host waits (aclrtSynchronizeStream), %.1f bytes to "
        "the device, %.1f bytes back, %.2f model runs\n",
        static_cast<double>(delta.waits) / options.frames,
        static_cast<double>(delta.host_to_device) / options.frames,
        static_cast<double>(delta.device_to_host) / options.frames,
        static_cast<double>(delta.executes) / options.frames);
  }
  return kExitOk;
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

  // The program and its method: once, and once more per further --pipeline
  // instance.
  const auto load = [&](std::unique_ptr<Module>* out) -> int {
    std::unique_ptr<Module> module =
        options.data.empty()
            ? std::make_unique<Module>(options.model, Module::LoadMode::Mmap)
            : std::make_unique<Module>(options.model, options.data,
                                       Module::LoadMode::Mmap);
    // InternalConsistency unless --verification minimal: with Minimal,
    // ExecuTorch trusts the flatbuffer's offsets and a corrupted file can
    // crash the runner instead of being refused.
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
    *out = std::move(module);
    return kExitOk;
  };

  const auto load_start = std::chrono::steady_clock::now();
  std::unique_ptr<Module> module;
  if (int rc = load(&module); rc != kExitOk) return rc;
  if (options.frames > 0) return run_frames(options, load, std::move(module));
  auto meta = module->method_meta(options.method);
  if (!meta.ok()) return fail("cannot read the method meta");
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
