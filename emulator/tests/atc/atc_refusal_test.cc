// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// What atc refuses, and the messages it refuses with (docs/atc.md).
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "atc_test_util.h"

namespace ascend_emu {
namespace {

using testing::AtcResult;
using testing::AtcTest;
using testing::OnnxBuilder;

void ExpectRefused(const AtcResult& r, const std::string& reason) {
  EXPECT_EQ(r.code, atc::kAtcFailureExit);
  EXPECT_NE(r.err.find("ATC run failed"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(reason), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("ATC run success"), std::string::npos) << r.out;
}

// x -> Relu (n0) -> Add (n1) -> Mul (n2) -> <op> (n3) -> y
OnnxBuilder ModelWithOp(const std::string& op, int64_t opset) {
  OnnxBuilder b(opset);
  b.Input("x", {1, 2, 4, 4}).OutputNoShape("y", 4);
  b.Node("Relu", {"x"}, {"a"});
  b.Node("Add", {"a", "a"}, {"b"});
  b.Node("Mul", {"b", "b"}, {"c"});
  b.Node(op, {"c"}, {"y"});
  return b;
}

TEST_F(AtcTest, RefusesGeluAtOpset17WithCannsReason) {
  auto r = Compile(ModelWithOp("Gelu", 17), "gelu");
  ExpectRefused(
      r,
      "node 'n3' op 'Gelu' is not registered by CANN's ONNX parser for "
      "ai.onnx opset 17");
  EXPECT_FALSE(testing::FileExists(Path("gelu.om")));
}

TEST_F(AtcTest, RefusesAffineGridAtOpset17) {
  auto r = Compile(ModelWithOp("AffineGrid", 17), "affine");
  ExpectRefused(r,
                "node 'n3' op 'AffineGrid' is not registered by CANN's ONNX "
                "parser for ai.onnx opset 17 (registered for opsets 8-16)");
}

TEST_F(AtcTest, RefusesOpsetsOutsideCannsRange) {
  ExpectRefused(Compile(ModelWithOp("Relu", 10), "o10"),
                "ai.onnx opset 10 is not supported: CANN's ONNX parser accepts "
                "opset 11 to 18");
  ExpectRefused(Compile(ModelWithOp("Relu", 19), "o19"), "ai.onnx opset 19");
}

TEST_F(AtcTest, RefusesRegisteredOpWithoutKernel) {
  // Det is registered (8-18) but the emulator has no kernel for it.
  OnnxBuilder b;
  b.Input("x", {3, 3}).OutputNoShape("y", 0);
  b.Node("Det", {"x"}, {"y"}, "det");
  ExpectRefused(Compile(b, "det"),
                "node 'det' op 'Det' is accepted by CANN's parser but has no "
                "emulator kernel");
}

TEST_F(AtcTest, RefusesDynamicShape) {
  OnnxBuilder b;
  b.Input("x", {-1, 4}).OutputNoShape("y");
  b.Node("Relu", {"x"}, {"y"});
  ExpectRefused(Compile(b, "dyn"), "static shapes only");
}

TEST_F(AtcTest, RefusesWhatCannsParserRefuses) {
  {
    OnnxBuilder b;
    b.Input("x", {1, 1, 4, 4})
        .OutputNoShape("y", 4)
        .OutputNoShape("idx", 4, onnx::TensorProto::INT64);
    onnx::NodeProto& n = b.Node("MaxPool", {"x"}, {"y", "idx"}, "pool");
    OnnxBuilder::AttrInts(n, "kernel_shape", {2, 2});
    ExpectRefused(Compile(b, "maxpool"),
                  "node 'pool' op 'MaxPool' uses the Indices output");
  }
  {
    OnnxBuilder b;
    b.Input("x", {2, 3}).OutputNoShape("y");
    b.Node("Transpose", {"x"}, {"y"}, "tr");
    ExpectRefused(Compile(b, "transpose"),
                  "node 'tr' op 'Transpose' needs the 'perm'");
  }
  {
    // Concat without axis: the ONNX checker would refuse it too, but CANN's
    // parser reason comes first.
    OnnxBuilder b;
    b.Input("x", {2, 3}).OutputNoShape("y");
    b.Node("Concat", {"x", "x"}, {"y"}, "cat");
    ExpectRefused(Compile(b, "concat"), "needs the 'axis' attribute");
  }
  {
    // ScatterND's reduction="mul" is refused in CANN's parser code; "add"
    // with the same graph compiles (the kernel exists).
    for (const std::string reduction : {"mul", "add"}) {
      OnnxBuilder b;
      b.Input("x", {3, 2}).Input("u", {2, 2}).OutputNoShape("y");
      b.InitI64("i", {2, 1}, {0, 2});
      onnx::NodeProto& n = b.Node("ScatterND", {"x", "i", "u"}, {"y"}, "sc");
      onnx::AttributeProto* a = n.add_attribute();
      a->set_name("reduction");
      a->set_type(onnx::AttributeProto::STRING);
      a->set_s(reduction);
      const AtcResult r = Compile(b, "scatter_" + reduction);
      if (reduction == "mul") {
        ExpectRefused(r,
                      "node 'sc' op 'ScatterND' has reduction=\"mul\", which "
                      "CANN's ScatterND parser refuses");
      } else {
        EXPECT_EQ(r.code, 0) << r.err;
      }
    }
  }
  {
    // From cann_op_facts.json's constant operands: Expand's shape must be a
    // constant (an initializer, here; a Shape output is refused).
    for (const bool computed : {true, false}) {
      OnnxBuilder b;
      b.Input("x", {2, 1}).OutputNoShape("y");
      b.InitI64("target", {2}, {2, 3});
      if (computed) {
        b.Node("Shape", {"x"}, {"s"}, "sh");
        b.Node("Expand", {"x", "s"}, {"y"}, "ex");
      } else {
        b.Node("Expand", {"x", "target"}, {"y"}, "ex");
      }
      const AtcResult r = Compile(b, computed ? "expand_computed" : "expand");
      if (computed) {
        ExpectRefused(r,
                      "node 'ex' op 'Expand' input 1 ('s') is computed, where "
                      "CANN's ONNX parser needs a constant");
      } else {
        EXPECT_EQ(r.code, 0) << r.err;
      }
    }
  }
  {
    // From cann_op_facts.json's attribute facts: ArgMax's plugin refuses
    // select_last_index=1 (0 compiles).
    for (const int64_t last : {1, 0}) {
      OnnxBuilder b;
      b.Input("x", {3, 4}).OutputNoShape("y", 2, onnx::TensorProto::INT64);
      onnx::NodeProto& n = b.Node("ArgMax", {"x"}, {"y"}, "am");
      OnnxBuilder::AttrInt(n, "axis", 1);
      OnnxBuilder::AttrInt(n, "select_last_index", last);
      const AtcResult r = Compile(b, "argmax_" + std::to_string(last));
      if (last == 1) {
        ExpectRefused(r,
                      "node 'am' op 'ArgMax' has select_last_index=1, which "
                      "CANN's ArgMax parser refuses (it handles 0;");
      } else {
        EXPECT_EQ(r.code, 0) << r.err;
      }
    }
  }
}

TEST_F(AtcTest, RefusesNonDefaultDomains) {
  OnnxBuilder b;
  b.Input("x", {2}).OutputNoShape("y", 1);
  b.Node("Gelu", {"x"}, {"y"}, "g").set_domain("com.microsoft");
  ExpectRefused(Compile(b, "domain"), "domain 'com.microsoft'");
}

TEST_F(AtcTest, RefusesMissingFile) {
  auto r = testing::RunAtcArgs({"--framework=5", "--model=" + Path("nope.onnx"),
                                "--output=" + Path("nope"),
                                "--soc_version=Ascend910B1",
                                "--precision_mode=must_keep_origin_dtype"});
  ExpectRefused(r, "cannot read --model");
  EXPECT_NE(r.err.find("No such file"), std::string::npos) << r.err;
}

TEST_F(AtcTest, RefusesMalformedProtobuf) {
  {
    std::ofstream f(Path("junk.onnx"), std::ios::binary);
    f << "\xff\xff\xff\xff this is not a protobuf";
  }
  auto r = testing::RunAtcArgs({"--framework=5", "--model=" + Path("junk.onnx"),
                                "--output=" + Path("junk"),
                                "--soc_version=Ascend910B1",
                                "--precision_mode=must_keep_origin_dtype"});
  ExpectRefused(r, "is not an ONNX model");
  // A truncated real model.
  OnnxBuilder b;
  b.Input("x", {2}).InitF32("w", {2}, {1, 2}).Output("y", {2});
  b.Node("Add", {"x", "w"}, {"y"});
  std::string bytes;
  b.model().SerializeToString(&bytes);
  {
    std::ofstream f(Path("cut.onnx"), std::ios::binary);
    f << bytes.substr(0, bytes.size() / 2);
  }
  r = testing::RunAtcArgs({"--framework=5", "--model=" + Path("cut.onnx"),
                           "--output=" + Path("cut"),
                           "--soc_version=Ascend910B1",
                           "--precision_mode=must_keep_origin_dtype"});
  EXPECT_EQ(r.code, atc::kAtcFailureExit) << r.out;
}

TEST_F(AtcTest, RefusesOnnxCheckerFailures) {
  OnnxBuilder b;
  b.Input("x", {2}).Output("y", {2});
  b.Node("Relu", {"nowhere"}, {"y"});
  ExpectRefused(Compile(b, "checker"), "ONNX checker");
}

TEST_F(AtcTest, RefusesBadInitializer) {
  OnnxBuilder b;
  b.Input("x", {4})
      .InitF32("w", {4}, {1, 2})
      .Output("y", {4});  // 2 values for 4
  b.Node("Add", {"x", "w"}, {"y"});
  auto r = Compile(b, "badinit");
  EXPECT_EQ(r.code, atc::kAtcFailureExit);
  EXPECT_NE(r.err.find("'w'"), std::string::npos) << r.err;
}

TEST_F(AtcTest, RefusesCommandLineProblems) {
  OnnxBuilder b;
  b.Input("x", {2}).Output("y", {2});
  b.Node("Relu", {"x"}, {"y"});
  ExpectRefused(Compile(b, "m", {"--bogus=1"}),
                "unknown command line flag 'bogus'");
  ExpectRefused(Compile(b, "m", {"--mode=9"}),
                "Value 9 for parameter --mode is invalid");
  ExpectRefused(testing::RunAtcArgs({"--framework=3", "--model=m.pb"}),
                "--framework=3 (TensorFlow) is a framework of CANN's atc that "
                "the emulator does not emulate");
  ExpectRefused(
      testing::RunAtcArgs({"--framework=5", "--model=" + Path("m.onnx"),
                           "--output=" + Path("m"), "--soc_version=Ascend910B1",
                           "--precision_mode=allow_mix_precisions"}),
      "is not a CANN precision mode");
  EXPECT_FALSE(testing::FileExists(Path("m.om")));
}

TEST_F(AtcTest, OutputTypeFp32RequiresFloatOutputs) {
  OnnxBuilder b;
  b.Input("x", {2})
      .InitI64("s", {1}, {2})
      .Output("y", {2})
      .Output("s", {1}, onnx::TensorProto::INT64);
  b.Node("Relu", {"x"}, {"y"});
  ExpectRefused(Compile(b, "otype", {"--output_type=FP32"}),
                "output 's' is int64");
  EXPECT_EQ(Compile(b, "otype").code, 0);
}

}  // namespace
}  // namespace ascend_emu
