// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// CANN's ONNX parser looks nodes up by "<domain>::<model opset>::<op type>"
// exactly, so an op must be registered for the model's very opset; this
// table is that registration list for the standard ai.onnx ops.
#include "cann_onnx_ops.h"

#include <algorithm>
#include <cstring>
#include <iterator>

namespace ascend_emu {
namespace atc {
namespace {

// Sorted by op type (the generator sorts).
const CannOnnxOp kOps[] = {
#include "cann_onnx_ops.inc"
};

}  // namespace

const CannOnnxOp* FindCannOnnxOp(const std::string& op_type) {
  const CannOnnxOp* end = std::end(kOps);
  const CannOnnxOp* it =
      std::lower_bound(std::begin(kOps), end, op_type,
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

size_t CannOnnxOpCount() { return std::size(kOps); }

}  // namespace atc
}  // namespace ascend_emu
