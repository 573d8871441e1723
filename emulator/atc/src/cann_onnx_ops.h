// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Which ai.onnx op types CANN's ONNX parser registers, per opset (the
// "registrations" of src/executorch_ascend/cann_op_facts.json).
#pragma once

#include <cstdint>
#include <string>

namespace ascend_emu {
namespace atc {

struct CannOnnxOp {
  const char* op_type;
  const char* opsets;  // as the reference writes them, e.g. "8, 12-18"
  uint32_t mask;       // bit N set: registered for opset N
};

// The entry for `op_type`, or nullptr when CANN registers it for no opset.
const CannOnnxOp* FindCannOnnxOp(const std::string& op_type);

// True when CANN's parser accepts `op_type` in an ai.onnx model of `opset`.
// Constant is built into the parser, so it is accepted for every opset.
bool CannRegisters(const std::string& op_type, int64_t opset);

// Number of entries, and entry `i` (for tests).
size_t CannOnnxOpCount();
const CannOnnxOp& CannOnnxOpAt(size_t i);

}  // namespace atc
}  // namespace ascend_emu
