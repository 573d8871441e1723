// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The static op table, built from kernels.def: the emulator runs exactly the
// ops listed there, and atc refuses every other op type.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "ascend_emu/kernel.h"
#include "ops.h"

namespace ascend_emu {
namespace {

using namespace kernels;  // NOLINT(build/namespaces): the table names them all

#define ASCEND_EMU_KERNEL(Name) {#Name, &Infer##Name, &Run##Name},
constexpr KernelDef kKernels[] = {
#include "kernels.def"
};
#undef ASCEND_EMU_KERNEL

}  // namespace

const KernelDef* FindKernel(const std::string& op_type) {
  for (const KernelDef& k : kKernels) {
    if (op_type == k.op_type) return &k;
  }
  return nullptr;
}

std::vector<std::string> KernelOpTypes() {
  std::vector<std::string> names;
  for (const KernelDef& k : kKernels) names.emplace_back(k.op_type);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace ascend_emu
