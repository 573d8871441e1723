// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Compiles a loaded ONNX model (onnx_loader.h) into an emulator Program:
// initializers and Constant nodes become weights (or, with
// --external_weight=1|2, FileConstants for initializers stored as ONNX
// external data), each node becomes a kernel step whose output shapes come
// from the kernel's own Infer, and activations share a planned arena.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ascend_emu/program.h"
#include "atc_options.h"
#include "onnx/onnx_pb.h"
#include "onnx_external_data.h"
#include "weight_files.h"

namespace ascend_emu {
namespace atc {

// Returns "" and fills *program, or the reason the model cannot be compiled.
// The FileConstants (tensors of location kExternal, in the order they were
// emitted) come back in *file_constants, their file and offset still to be
// laid out by WeightFiles::Place; their bytes are views into `external`.
// FileConstants need neither arena nor weight-section space.
std::string CompileGraph(const onnx::ModelProto& model, int64_t opset,
                         const AtcOptions& options,
                         const ExternalData& external, Program* program,
                         std::vector<PendingFileConstant>* file_constants,
                         uint64_t* shared_weight_bytes = nullptr);

}  // namespace atc
}  // namespace ascend_emu
