// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// ONNX 1.12's shape inference for the window ops (convPoolShapeInference for
// Conv, MaxPool, AveragePool, LpPool; convTransposeShapeInference;
// maxUnpoolShapeInference; roiPoolTypeShapeInference) trusts its inputs: it
// divides by the strides, indexes the dilations and the input dims by the
// weight's rank, and reads the weight's dim 1 unchecked. A malformed model
// therefore crashes atc inside libonnx instead of being refused
// (docs/fuzzing.md, "Findings"). This guard checks what those functions trust
// before the checker and shape inference run.
#pragma once

#include <string>

#include "onnx/onnx_pb.h"

namespace ascend_emu {
namespace atc {

// Checks every Conv, ConvTranspose, MaxPool, AveragePool, LpPool, MaxUnpool
// and MaxRoiPool node of `graph` and of its subgraphs:
//  - kernel_shape, strides, dilations (>= 1), pads (>= 0), pooled_shape:
//    values in range, lengths consistent with each other and with the input
//    rank where the input is a graph input or initializer;
//  - Conv/ConvTranspose weights: rank >= 3 and equal to the input's rank
//    where both are declared. A Conv whose weight is computed by another node
//    needs an explicit kernel_shape; a ConvTranspose's weight (and a
//    two-input MaxUnpool's indices) must be declared, because libonnx reads
//    their dims without checking the rank.
// Adds kernel_shape = weight dims [2:] to a Conv/ConvTranspose that has a
// declared weight and no kernel_shape, so libonnx checks that length against
// the inferred input rank instead of indexing by the weight's rank.
// Returns "" or the reason, starting with the node's label.
std::string GuardConvPoolNodes(onnx::GraphProto* graph);

}  // namespace atc
}  // namespace ascend_emu
