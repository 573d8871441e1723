// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Infer and Run of every kernel of kernels.def. Only registry.cc (the table)
// and the kernels' own files include this.
#pragma once

#include <memory>
#include <string>

#include "ascend_emu/kernel.h"

namespace ascend_emu {
namespace kernels {

#define ASCEND_EMU_KERNEL(Name, ...)          \
  std::string Infer##Name(InferContext& ctx); \
  void Run##Name(const RunContext& ctx);
#include "kernels.def"
#undef ASCEND_EMU_KERNEL

// The PrepareFns of registry.cc's kPrepared (kernel.h).
std::unique_ptr<PreparedOp> PrepareConv(const PrepareContext& ctx);

}  // namespace kernels
}  // namespace ascend_emu
