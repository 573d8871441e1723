// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// ascend_app: the smallest application that runs an Ascend-delegated ExecuTorch
// program (docs/cpp-integration.md). It loads a .pte (and the .ptd holding its
// .om and weights, if the program was lowered with an external_tag), runs the
// "forward" method once and prints every output.
//
//   ascend_app MODEL.pte [DATA.ptd] [--input FILE]... [--output-dir DIR]
//
// Inputs: one raw file per method input (the tensor's bytes, row-major, as
// numpy's tofile writes them), or, without --input, every float input filled
// with 1.0 and every other input with zeros. --output-dir writes out<i>.bin.
// Nothing here names Ascend: the backend registered itself when the program
// loaded libexecutorch_backend_ascend.so, and ExecuTorch dispatches to it.
#include <executorch/extension/module/module.h>
#include <executorch/extension/tensor/tensor_ptr.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

namespace {

using executorch::aten::ScalarType;
using executorch::extension::Module;
using executorch::runtime::Error;
using executorch::runtime::EValue;

int fail(const std::string& message) {
  std::cerr << "ascend_app: " << message << "\n";
  return 1;
}

bool read_file(const std::string& path, std::vector<uint8_t>* bytes) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return false;
  const std::streamsize size = in.tellg();
  if (size < 0 || static_cast<size_t>(size) != bytes->size()) return false;
  in.seekg(0);
  return static_cast<bool>(
      in.read(reinterpret_cast<char*>(bytes->data()), size));
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> positional;
  std::vector<std::string> input_files;
  std::string output_dir;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if ((arg == "--input" || arg == "--output-dir") && i + 1 < argc) {
      (arg == "--input" ? input_files.emplace_back(argv[++i])
                        : output_dir = argv[++i]);
    } else if (!arg.empty() && arg[0] != '-') {
      positional.push_back(arg);
    } else {
      positional.clear();
      break;
    }
  }
  if (positional.empty() || positional.size() > 2) {
    std::cerr << "usage: ascend_app MODEL.pte [DATA.ptd] [--input FILE]... "
                 "[--output-dir DIR]\n";
    return 2;
  }

  // Mmap: the .om and weights are not copied into the heap before the
  // backend hands them to ACL.
  auto module =
      positional.size() == 2
          ? std::make_unique<Module>(positional[0], positional[1],
                                     Module::LoadMode::Mmap)
          : std::make_unique<Module>(positional[0], Module::LoadMode::Mmap);
  if (module->load_method("forward") != Error::Ok) {
    return fail("cannot load method 'forward' of " + positional[0] +
                " (the log above says why)");
  }
  auto meta = module->method_meta("forward");
  if (!meta.ok()) return fail("no method 'forward'");
  if (!input_files.empty() && input_files.size() != meta->num_inputs()) {
    return fail("the method takes " + std::to_string(meta->num_inputs()) +
                " inputs, " + std::to_string(input_files.size()) + " given");
  }

  // The buffers outlive the tensors that point into them.
  std::vector<std::vector<uint8_t>> buffers(meta->num_inputs());
  std::vector<executorch::extension::TensorPtr> tensors;
  std::vector<EValue> inputs;
  for (size_t i = 0; i < meta->num_inputs(); ++i) {
    auto info = meta->input_tensor_meta(i);
    if (!info.ok()) return fail("input " + std::to_string(i) + " is no tensor");
    buffers[i].assign(info->nbytes(), 0);
    if (!input_files.empty()) {
      if (!read_file(input_files[i], &buffers[i])) {
        return fail("cannot read " + std::to_string(info->nbytes()) +
                    " bytes from " + input_files[i]);
      }
    } else if (info->scalar_type() == ScalarType::Float) {
      auto* values = reinterpret_cast<float*>(buffers[i].data());
      for (size_t k = 0; k < info->nbytes() / sizeof(float); ++k) {
        values[k] = 1.0f;
      }
    }
    std::vector<executorch::aten::SizesType> sizes(info->sizes().begin(),
                                                   info->sizes().end());
    tensors.push_back(executorch::extension::make_tensor_ptr(
        std::move(sizes), buffers[i].data(), info->scalar_type()));
    inputs.emplace_back(*tensors.back());
  }

  if (!output_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(output_dir, ec);
    if (ec) return fail("cannot create " + output_dir + ": " + ec.message());
  }
  auto outputs = module->execute("forward", inputs);
  if (!outputs.ok()) {
    return fail("forward failed (the log above says why)");
  }
  for (size_t i = 0; i < outputs->size(); ++i) {
    const EValue& value = (*outputs)[i];
    if (!value.isTensor()) {
      std::cout << "output " << i << ": not a tensor\n";
      continue;
    }
    const auto& tensor = value.toTensor();
    std::cout << "output " << i << ": shape [";
    for (ssize_t d = 0; d < tensor.dim(); ++d) {
      std::cout << (d ? ", " : "") << tensor.size(d);
    }
    std::cout << "]";
    if (tensor.scalar_type() == ScalarType::Float) {
      const float* data = tensor.const_data_ptr<float>();
      std::cout << " values";
      for (ssize_t k = 0; k < std::min<ssize_t>(tensor.numel(), 6); ++k) {
        std::cout << " " << data[k];
      }
      std::cout << (tensor.numel() > 6 ? " ..." : "");
    }
    std::cout << "\n";
    if (!output_dir.empty()) {
      const std::string path = output_dir + "/out" + std::to_string(i) + ".bin";
      std::ofstream out(path, std::ios::binary);
      out.write(static_cast<const char*>(tensor.const_data_ptr()),
                static_cast<std::streamsize>(tensor.nbytes()));
      if (!out) return fail("cannot write " + path);
    }
  }
  return 0;
}
