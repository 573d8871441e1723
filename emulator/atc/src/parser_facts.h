// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// What CANN's ONNX parser plugins refuse in a node, beyond registration:
// the "(code)" facts of the reference op list for ops the emulator runs
// (e.g. Concat without axis, Transpose without perm, MaxPool's Indices).
#pragma once

#include <string>

#include "onnx/onnx_pb.h"

namespace ascend_emu {
namespace atc {

// "" when CANN's parser would accept `node`, else why not (without the node
// label, which the caller adds).
std::string CheckParserFacts(const onnx::NodeProto& node);

}  // namespace atc
}  // namespace ascend_emu
