// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Malformed window ops (Conv, ConvTranspose, the pools, MaxUnpool,
// MaxRoiPool) that crashed atc inside libonnx 1.12's shape inference
// (docs/fuzzing.md, "Findings") get a clean refusal naming the node. atc runs
// in-process here, so a crash would take the whole test binary down.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "atc_test_util.h"

namespace ascend_emu {
namespace {

using testing::AtcResult;
using testing::AtcTest;
using testing::OnnxBuilder;
using testing::Ramp;

void ExpectRefused(const AtcResult& r, const std::string& reason) {
  EXPECT_EQ(r.code, atc::kAtcFailureExit) << r.out << r.err;
  EXPECT_NE(r.err.find("ATC run failed"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(reason), std::string::npos) << r.err;
}

// The fuzzer's crash 1: libonnx took kernel_shape from the rank-5 weight and
// indexed the rank-4 input's dims by it.
TEST_F(AtcTest, GuardRefusesConvWeightRankAboveInput) {
  OnnxBuilder b;
  b.Input("x", {1, 1, 6, 6})
      .InitF32("w", {2, 1, 3, 3, 3}, Ramp(54))
      .OutputNoShape("y", 4);
  b.Node("Conv", {"x", "w"}, {"y"}, "conv");
  ExpectRefused(Compile(b, "rank5"),
                "node 'conv' op 'Conv' has weight 'w' of rank 5 for an input "
                "of rank 4");
}

// The same weight through an Identity: its rank is known only to shape
// inference, so kernel_shape must be explicit.
TEST_F(AtcTest, GuardNeedsKernelShapeForComputedConvWeight) {
  OnnxBuilder b;
  b.Input("x", {1, 1, 6, 6})
      .InitF32("w0", {2, 1, 3, 3, 3}, Ramp(54))
      .OutputNoShape("y", 4);
  b.Node("Identity", {"w0"}, {"w"});
  b.Node("Conv", {"x", "w"}, {"y"}, "conv");
  ExpectRefused(Compile(b, "via_identity"),
                "node 'conv' op 'Conv' needs the 'kernel_shape' attribute "
                "when its weight 'w' is computed by another node");

  // With kernel_shape, libonnx checks its length against the input rank
  // itself and refuses cleanly.
  OnnxBuilder::AttrInts(*b.model().mutable_graph()->mutable_node(1),
                        "kernel_shape", {3, 3});
  const AtcResult r = Compile(b, "via_identity_ks");
  EXPECT_EQ(r.code, atc::kAtcFailureExit) << r.out << r.err;
  EXPECT_NE(r.err.find("ATC run failed"), std::string::npos) << r.err;
}

TEST_F(AtcTest, GuardRefusesConvWeightBelowRank3) {
  // libonnx read past the kernel it took from a rank-2 weight when padding
  // with auto_pad.
  OnnxBuilder b;
  b.Input("x", {1, 1, 4, 4}).InitF32("w", {1, 1}, {1.0f}).OutputNoShape("y", 4);
  onnx::NodeProto& conv = b.Node("Conv", {"x", "w"}, {"y"}, "conv");
  auto* pad = conv.add_attribute();
  pad->set_name("auto_pad");
  pad->set_type(onnx::AttributeProto::STRING);
  pad->set_s("SAME_UPPER");
  ExpectRefused(Compile(b, "rank2"),
                "has weight 'w' [1, 1]; a convolution weight is [M, C, k1, "
                "...] (rank >= 3)");
}

TEST_F(AtcTest, GuardRefusesKernelShapeThatDisagreesWithWeight) {
  OnnxBuilder b;
  b.Input("x", {1, 1, 6, 6})
      .InitF32("w", {2, 1, 3, 3}, Ramp(18))
      .OutputNoShape("y", 4);
  onnx::NodeProto& conv = b.Node("Conv", {"x", "w"}, {"y"}, "conv");
  OnnxBuilder::AttrInts(conv, "kernel_shape", {2, 3});
  ExpectRefused(Compile(b, "ks"),
                "has kernel_shape [2, 3], which does not match weight 'w' "
                "[2, 1, 3, 3]");
}

// The guard fills kernel_shape in from an initializer weight; the model
// still compiles and computes the same as with an explicit kernel_shape.
TEST_F(AtcTest, GuardFillsKernelShapeFromInitializerWeight) {
  const std::vector<float> x = Ramp(1 * 2 * 5 * 5);
  const std::vector<float> w = Ramp(3 * 2 * 3 * 3, 0.05f, -0.5f);
  std::vector<std::vector<float>> results;
  for (bool explicit_kernel : {false, true}) {
    OnnxBuilder b;
    b.Input("x", {1, 2, 5, 5}).InitF32("w", {3, 2, 3, 3}, w);
    b.Output("y", {1, 3, 3, 3});
    onnx::NodeProto& conv = b.Node("Conv", {"x", "w"}, {"y"}, "conv");
    if (explicit_kernel) OnnxBuilder::AttrInts(conv, "kernel_shape", {3, 3});
    auto model = CompileAndLoad(b, explicit_kernel ? "explicit" : "filled");
    ASSERT_NE(model, nullptr);
    results.push_back(testing::RunFloat(*model, {x})[0]);
  }
  ASSERT_EQ(results[0].size(), 27u);
  EXPECT_EQ(results[0], results[1]);
}

// ConvTranspose: libonnx reads the weight's dim 1 whatever its rank.
TEST_F(AtcTest, GuardRefusesConvTransposeWeightItCannotSee) {
  {
    OnnxBuilder b;
    b.Input("x", {1, 1, 4, 4})
        .InitF32("w0", {3}, {1, 2, 3})
        .OutputNoShape("y", 4);
    b.Node("Identity", {"w0"}, {"w"});
    onnx::NodeProto& n = b.Node("ConvTranspose", {"x", "w"}, {"y"}, "convt");
    OnnxBuilder::AttrInts(n, "kernel_shape", {2, 2});
    ExpectRefused(Compile(b, "convt_rank1"),
                  "node 'convt' op 'ConvTranspose' needs its weight 'w' as an "
                  "initializer or a graph input with a shape");
  }
  {
    OnnxBuilder b;
    b.Input("x", {1, 1, 4, 4})
        .InitF32("w", {1, 1, 2, 2, 2}, Ramp(8))
        .OutputNoShape("y", 4);
    onnx::NodeProto& n = b.Node("ConvTranspose", {"x", "w"}, {"y"}, "convt");
    OnnxBuilder::AttrInts(n, "kernel_shape", {2, 2});
    ExpectRefused(Compile(b, "convt_rank5"),
                  "has weight 'w' of rank 5 for an input of rank 4");
  }
}

struct PoolCase {
  const char* op;
  std::vector<std::pair<std::string, std::vector<int64_t>>> attrs;
  const char* reason;
};

// The fuzzer's crash 2 (a zero stride: libonnx divides by it) and its
// relatives on every pooling op that shares convPoolShapeInference.
TEST_F(AtcTest, GuardRefusesBadPoolWindows) {
  const std::vector<int64_t> k22 = {2, 2};
  const std::vector<PoolCase> cases = {
      {"MaxPool",
       {{"kernel_shape", k22}, {"strides", {0, 10}}},
       "op 'MaxPool' has strides value 0"},
      {"AveragePool",
       {{"kernel_shape", k22}, {"strides", {1, 0}}, {"ceil_mode", {1}}},
       "op 'AveragePool' has strides value 0"},
      {"LpPool",
       {{"kernel_shape", k22}, {"strides", {0, 1}}},
       "op 'LpPool' has strides value 0"},
      {"MaxPool",
       {{"kernel_shape", k22}, {"strides", {-1, 1}}},
       "has strides value -1"},
      {"MaxPool",
       {{"kernel_shape", k22}, {"dilations", {1, 0}}},
       "has dilations value 0"},
      {"AveragePool", {{"kernel_shape", {0, 2}}}, "has kernel_shape value 0"},
      {"MaxPool",
       {{"kernel_shape", {int64_t{1} << 40, 2}}},
       "has kernel_shape value 1099511627776"},
      {"MaxPool",
       {{"kernel_shape", k22}, {"pads", {0, -1, 0, 0}}},
       "has pads value -1"},
      {"MaxPool",
       {{"kernel_shape", k22}, {"pads", {0, 0, 0}}},
       "has 3 pads (must be two per spatial dim)"},
      {"MaxPool",
       {{"kernel_shape", k22}, {"strides", {1}}},
       "has strides of length 1, which does not match the other window "
       "attributes (2 spatial dims)"},
      {"AveragePool",
       {{"kernel_shape", {2, 2, 2}}},
       "has window attributes for 3 spatial dims, but its input has rank 4"},
  };
  int i = 0;
  for (const PoolCase& c : cases) {
    SCOPED_TRACE(std::string(c.op) + " case " + std::to_string(i));
    OnnxBuilder b;
    b.Input("x", {1, 1, 8, 8}).OutputNoShape("y", 4);
    onnx::NodeProto& n = b.Node(c.op, {"x"}, {"y"}, "pool");
    for (const auto& [name, values] : c.attrs) {
      if (name == "ceil_mode") {
        OnnxBuilder::AttrInt(n, name, values[0]);
      } else {
        OnnxBuilder::AttrInts(n, name, values);
      }
    }
    ExpectRefused(Compile(b, "pool" + std::to_string(i++)), c.reason);
  }
}

// A pool fed by another node: the guard cannot know the input rank, but a
// zero stride is refused whatever the rank.
TEST_F(AtcTest, GuardRefusesZeroStrideAfterAnotherNode) {
  OnnxBuilder b;
  b.Input("x", {1, 1, 8, 8}).OutputNoShape("y", 4);
  b.Node("Relu", {"x"}, {"r"});
  onnx::NodeProto& n = b.Node("MaxPool", {"r"}, {"y"}, "pool");
  OnnxBuilder::AttrInts(n, "kernel_shape", {2, 2});
  OnnxBuilder::AttrInts(n, "strides", {1, 0});
  ExpectRefused(Compile(b, "after_relu"),
                "node 'pool' op 'MaxPool' has strides value 0");
}

TEST_F(AtcTest, GuardRefusesDuplicateWindowAttributes) {
  OnnxBuilder b;
  b.Input("x", {1, 1, 8, 8}).OutputNoShape("y", 4);
  onnx::NodeProto& n = b.Node("MaxPool", {"x"}, {"y"}, "pool");
  OnnxBuilder::AttrInts(n, "kernel_shape", {2, 2});
  OnnxBuilder::AttrInts(n, "strides", {1, 1});
  OnnxBuilder::AttrInts(n, "strides", {0, 0});
  ExpectRefused(Compile(b, "dup"), "gives attribute 'strides' twice");
}

TEST_F(AtcTest, GuardRefusesMaxUnpoolAndMaxRoiPoolShapesLibonnxTrusts) {
  {
    // maxUnpoolShapeInference reads the indices' dim 1.
    OnnxBuilder b;
    b.Input("x", {1, 1, 4, 4})
        .Input("i", {16}, onnx::TensorProto::INT64)
        .OutputNoShape("y", 4);
    onnx::NodeProto& n = b.Node("MaxUnpool", {"x", "i"}, {"y"}, "unpool");
    OnnxBuilder::AttrInts(n, "kernel_shape", {2, 2});
    ExpectRefused(Compile(b, "unpool"),
                  "node 'unpool' op 'MaxUnpool' needs its indices as an "
                  "initializer or a graph input of rank >= 2");
  }
  {
    // roiPoolTypeShapeInference reads pooled_shape[0] and [1] after
    // checking the length only against the input's spatial rank (1 here).
    OnnxBuilder b;
    b.Input("x", {1, 1, 4}).Input("rois", {1, 5}).Output("y", {1, 1, 1, 1});
    onnx::NodeProto& n = b.Node("MaxRoiPool", {"x", "rois"}, {"y"}, "roi");
    OnnxBuilder::AttrInts(n, "pooled_shape", {1});
    ExpectRefused(Compile(b, "roipool"),
                  "node 'roi' op 'MaxRoiPool' needs pooled_shape with 2 "
                  "values, has 1");
  }
}

// Shape inference descends into If branches, so the guard does too.
TEST_F(AtcTest, GuardChecksSubgraphs) {
  OnnxBuilder b;
  b.Input("x", {1, 1, 8, 8})
      .Input("cond", {}, onnx::TensorProto::BOOL)
      .OutputNoShape("y", 4);
  onnx::NodeProto& n = b.Node("If", {"cond"}, {"y"}, "if");
  for (const char* branch : {"then_branch", "else_branch"}) {
    onnx::AttributeProto* a = n.add_attribute();
    a->set_name(branch);
    a->set_type(onnx::AttributeProto::GRAPH);
    onnx::GraphProto* g = a->mutable_g();
    g->set_name(branch);
    onnx::NodeProto* pool = g->add_node();
    pool->set_op_type("MaxPool");
    pool->set_name("inner");
    pool->add_input("x");
    pool->add_output(std::string("y_") + branch);
    OnnxBuilder::AttrInts(*pool, "kernel_shape", {2, 2});
    OnnxBuilder::AttrInts(*pool, "strides", {0, 10});
    onnx::ValueInfoProto* out = g->add_output();
    out->set_name(std::string("y_") + branch);
    out->mutable_type()->mutable_tensor_type()->set_elem_type(
        onnx::TensorProto::FLOAT);
  }
  ExpectRefused(Compile(b, "if"),
                "node 'inner' op 'MaxPool' in subgraph 'then_branch' of node "
                "'if' op 'If' has strides value 0");
}

}  // namespace
}  // namespace ascend_emu
