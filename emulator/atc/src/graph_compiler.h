// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Compiles a loaded ONNX model (onnx_loader.h) into an emulator Program:
// initializers and Constant nodes become weights, each node becomes a kernel
// step whose output shapes come from the kernel's own Infer, and activations
// share a planned arena.
#pragma once

#include <cstdint>
#include <string>

#include "ascend_emu/program.h"
#include "atc_options.h"
#include "onnx/onnx_pb.h"

namespace ascend_emu {
namespace atc {

// Returns "" and fills *program, or the reason the model cannot be compiled.
std::string CompileGraph(const onnx::ModelProto& model, int64_t opset,
                         const AtcOptions& options, Program* program);

}  // namespace atc
}  // namespace ascend_emu
