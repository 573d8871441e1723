// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// CANN's ONNX parser looks nodes up by "<domain>::<model opset>::<op type>"
// exactly, so an op must be registered for the model's very opset; the table
// (the "registrations" of src/executorch_ascend/cann_op_facts.json, made a
// header by emulator/atc/CMakeLists.txt) is that list for the standard
// ai.onnx ops and the non-standard names CANN registers in ai.onnx, the same
// one the Python side checks lowered graphs against.
#include "cann_onnx_ops.h"

#include <algorithm>
#include <cstring>
#include <iterator>

#include "cann_onnx_ops_data.h"

namespace ascend_emu {
namespace atc {

// The table is sorted by op type (CMake's JSON reader keeps an object's
// members in key order; cann_onnx_ops_test checks it).
const CannOnnxOp* FindCannOnnxOp(const std::string& op_type) {
  const CannOnnxOp* end = std::end(kCannOnnxOps);
  const CannOnnxOp* it =
      std::lower_bound(std::begin(kCannOnnxOps), end, op_type,
                       [](const CannOnnxOp& e, const std::string& v) {
                         return std::strcmp(e.op_type, v.c_str()) < 0;
                       });
  return it != end && op_type == it->op_type ? it : nullptr;
}

bool CannRegisters(const std::string& op_type, int64_t opset) {
  if (op_type == "Constant") return true;
  const CannOnnxOp* op = FindCannOnnxOp(op_type);
  return op != nullptr && opset >= 0 && opset < 32 &&
         (op->mask & (uint32_t{1} << opset)) != 0;
}

size_t CannOnnxOpCount() { return std::size(kCannOnnxOps); }

const CannOnnxOp& CannOnnxOpAt(size_t i) { return kCannOnnxOps[i]; }

}  // namespace atc
}  // namespace ascend_emu
