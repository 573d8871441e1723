// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// libFuzzer harness for whole programs: a .pte and its .ptd go through
// ExecuTorch's own loader (executorch::extension::Module over in-memory data
// loaders, InternalConsistency verification, as ascend_runner loads), so the
// Ascend delegates are reached the way a user's program reaches them: the
// .pte's named-data segments and the .ptd's FlatTensor map, Method::init's
// BackendInitContext, one execute with deterministic inputs, destroy. After
// each input no ACL object may be alive in the emulator.
//
// A .ptd goes through the runners' structural check first (ptd_check.h):
// without it ExecuTorch's FlatTensorDataMap crashed on the fuzzer's first
// minute (a corrupted key offset, read in FlatTensorDataMap::get_key).
//
// Input: [u32 little-endian .pte length P][P .pte bytes][.ptd bytes, may be
// empty]. Mutations are not resealed: an .om whose CRC breaks is refused by
// the emulator (fuzz_om_resealed covers what lies behind the checksum).
//
// Bounds a deployment would set too, so a mutated size cannot stall the run:
// planned memory of at most 64 MiB per method, inputs of at most 16 MiB.
// ExecuTorch's own code is not instrumented (the wheel's libexecutorch.so):
// a crash there is still caught, its coverage does not guide the fuzzer.
#include <executorch/extension/data_loader/buffer_data_loader.h>
#include <executorch/extension/module/module.h>
#include <executorch/extension/tensor/tensor_ptr.h>
#include <executorch/runtime/platform/runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "acl_emu_extras.h"
#include "ptd_check.h"
#include "tensor_files.h"

namespace {

using executorch::extension::BufferDataLoader;
using executorch::extension::Module;
using executorch::runtime::Error;
using executorch::runtime::EValue;
using executorch::runtime::Program;
using executorch::runtime::Tag;
namespace runner = executorch::backends::ascend::runner;

constexpr size_t kMaxPlannedBytes = size_t{64} << 20;
constexpr size_t kMaxInputBytes = size_t{16} << 20;

void Require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "%s\n", what);
    std::abort();
  }
}

// Loads, runs once and drops the program; returns when anything is refused.
void RunProgram(const std::vector<uint8_t>& pte,
                const std::vector<uint8_t>& ptd) {
  auto pte_loader = std::make_unique<BufferDataLoader>(pte.data(), pte.size());
  std::unique_ptr<BufferDataLoader> ptd_loader;
  if (!ptd.empty()) {
    // As the runners do: ExecuTorch runs no verifier on a .ptd (ptd_check.h).
    if (!executorch::backends::ascend::tools::check_ptd(ptd.data(), ptd.size())
             .empty()) {
      return;
    }
    ptd_loader = std::make_unique<BufferDataLoader>(ptd.data(), ptd.size());
  }
  Module module(std::move(pte_loader), nullptr, nullptr, nullptr,
                std::move(ptd_loader));
  if (module.load(Program::Verification::InternalConsistency) != Error::Ok) {
    return;
  }
  auto names = module.method_names();
  if (!names.ok() || names->empty()) return;
  const std::string method = *names->begin();
  auto meta = module.method_meta(method);
  if (!meta.ok()) return;
  size_t planned = 0;
  for (size_t i = 0; i < meta->num_memory_planned_buffers(); ++i) {
    auto bytes = meta->memory_planned_buffer_size(i);
    if (!bytes.ok() || *bytes < 0 ||
        static_cast<size_t>(*bytes) > kMaxPlannedBytes - planned) {
      return;
    }
    planned += static_cast<size_t>(*bytes);
  }
  std::vector<runner::InputBuffer> buffers;
  std::vector<executorch::extension::TensorPtr> tensors;
  std::vector<EValue> inputs;
  buffers.reserve(meta->num_inputs());
  for (size_t i = 0; i < meta->num_inputs(); ++i) {
    auto tag = meta->input_tag(i);
    if (!tag.ok() || *tag != Tag::Tensor) return;
    auto info = meta->input_tensor_meta(i);
    if (!info.ok() || info->nbytes() > kMaxInputBytes) return;
    buffers.push_back(runner::make_input(*info));
    runner::fill_deterministic(i, &buffers.back());
    runner::InputBuffer& b = buffers.back();
    tensors.push_back(executorch::extension::make_tensor_ptr(
        b.sizes, b.bytes.data(), b.dim_order, {}, b.type));
    inputs.emplace_back(*tensors.back());
  }
  if (module.load_method(method) != Error::Ok) return;
  (void)module.execute(method, inputs);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // The emulator next to this harness, not whatever the environment names.
  setenv("EXECUTORCH_ASCEND_ACL_LIB", EXECUTORCH_ASCEND_FUZZ_ACL_LIB, 1);
  executorch::runtime::runtime_init();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 4) return 0;
  uint32_t declared = 0;
  std::memcpy(&declared, data, sizeof(declared));  // x86/arm: little-endian
  const size_t pte_size = std::min<size_t>(declared, size - 4);
  // Copies: the loaders hand out pointers into these, with malloc alignment.
  std::vector<uint8_t> pte(data + 4, data + 4 + pte_size);
  std::vector<uint8_t> ptd(data + 4 + pte_size, data + size);
  RunProgram(pte, ptd);
  aclEmuStats stats{};
  Require(aclEmuGetStats(&stats) == 0, "aclEmuGetStats");
  Require(aclEmuLiveObjects(&stats) == 0,
          "ACL objects alive after the program was dropped");
  return 0;
}
