// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The generated registration table against facts of the reference list.
#include "cann_onnx_ops.h"

#include <gtest/gtest.h>

#include <string>

namespace ascend_emu {
namespace atc {
namespace {

// 161 standard ops and the 98 non-standard names CANN registers in the
// ai.onnx domain (the reference list's appendix).
TEST(CannOnnxOps, HasEveryStandardOpAndTheVendorNames) {
  EXPECT_EQ(CannOnnxOpCount(), 161u + 98u);
}

// The quantization ops the emulator runs (ops-nn e5c3fa93's plugins).
TEST(CannOnnxOps, QuantOps) {
  for (const char* op : {"AscendQuant", "AscendDequant", "AscendAntiQuant"}) {
    EXPECT_FALSE(CannRegisters(op, 7)) << op;
    for (int v = 8; v <= 22; ++v) EXPECT_TRUE(CannRegisters(op, v)) << op;
    EXPECT_FALSE(CannRegisters(op, 23)) << op;
  }
  EXPECT_FALSE(CannRegisters("NPUWeightQuantBatchMatmulV2", 10));
  EXPECT_TRUE(CannRegisters("NPUWeightQuantBatchMatmulV2", 11));
  EXPECT_TRUE(CannRegisters("NPUWeightQuantBatchMatmulV2", 17));
  EXPECT_TRUE(CannRegisters("NPUWeightQuantBatchMatmulV2", 19));
  EXPECT_FALSE(CannRegisters("NPUWeightQuantBatchMatmulV2", 20));
  // QuantBatchMatMul has no opset-17 key.
  EXPECT_FALSE(CannRegisters("QuantBatchMatMul", 17));
}

// The lookup is a binary search: the table generated from
// cann_op_facts.json must be sorted, so every entry is found.
TEST(CannOnnxOps, EveryEntryIsFound) {
  for (size_t i = 0; i < CannOnnxOpCount(); ++i) {
    const CannOnnxOp& op = CannOnnxOpAt(i);
    EXPECT_EQ(FindCannOnnxOp(op.op_type), &op) << op.op_type;
    if (i > 0) {
      EXPECT_LT(std::string(CannOnnxOpAt(i - 1).op_type), op.op_type);
    }
  }
}

TEST(CannOnnxOps, RangesFromTheReference) {
  // "8-18"
  for (int v = 8; v <= 18; ++v) EXPECT_TRUE(CannRegisters("Add", v)) << v;
  EXPECT_FALSE(CannRegisters("Add", 7));
  EXPECT_FALSE(CannRegisters("Add", 19));
  // "8-16 (no 17)"
  EXPECT_TRUE(CannRegisters("AffineGrid", 16));
  EXPECT_FALSE(CannRegisters("AffineGrid", 17));
  // "8, 12-18"
  EXPECT_TRUE(CannRegisters("GreaterOrEqual", 8));
  EXPECT_FALSE(CannRegisters("GreaterOrEqual", 11));
  EXPECT_TRUE(CannRegisters("GreaterOrEqual", 12));
  // "1, 6, 8-18"
  EXPECT_TRUE(CannRegisters("HardSigmoid", 1));
  EXPECT_TRUE(CannRegisters("HardSigmoid", 6));
  EXPECT_FALSE(CannRegisters("HardSigmoid", 7));
  // "11, 16-18"
  EXPECT_TRUE(CannRegisters("GridSample", 11));
  EXPECT_FALSE(CannRegisters("GridSample", 13));
  EXPECT_TRUE(CannRegisters("GridSample", 17));
  // "8-9, 11-16 (no 17)", "8-17", "18 (no 17)", "17-18"
  EXPECT_FALSE(CannRegisters("Upsample", 10));
  EXPECT_FALSE(CannRegisters("Upsample", 17));
  EXPECT_TRUE(CannRegisters("ReduceL1", 17));
  EXPECT_FALSE(CannRegisters("ReduceL1", 18));
  EXPECT_FALSE(CannRegisters("Mish", 17));
  EXPECT_TRUE(CannRegisters("Mish", 18));
  EXPECT_FALSE(CannRegisters("LayerNormalization", 16));
  EXPECT_TRUE(CannRegisters("LayerNormalization", 17));
}

TEST(CannOnnxOps, UnregisteredAndBuiltIn) {
  EXPECT_EQ(FindCannOnnxOp("Gelu"), nullptr);
  EXPECT_FALSE(CannRegisters("Gelu", 17));
  EXPECT_FALSE(CannRegisters("Loop", 17));
  EXPECT_FALSE(CannRegisters("QuantizeLinear", 17));
  EXPECT_TRUE(CannRegisters("Constant", 11));  // built into the parser
  EXPECT_TRUE(CannRegisters("Constant", 18));
  ASSERT_NE(FindCannOnnxOp("GreaterOrEqual"), nullptr);
  EXPECT_STREQ(FindCannOnnxOp("GreaterOrEqual")->opsets, "8, 12-18");
}

TEST(CannOnnxOps, TheFirstCutOpsAreRegisteredAt17) {
  for (const char* op :
       {"Add", "Sub", "Mul", "Div", "Relu", "MatMul", "Gemm", "Conv", "MaxPool",
        "AveragePool", "GlobalAveragePool", "Reshape", "Transpose", "Flatten",
        "Softmax", "ReduceMean", "Concat"}) {
    EXPECT_TRUE(CannRegisters(op, 17)) << op;
  }
}

}  // namespace
}  // namespace atc
}  // namespace ascend_emu
