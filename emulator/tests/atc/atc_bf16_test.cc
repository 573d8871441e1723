// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// bfloat16 through atc: BFLOAT16 inputs, outputs and initializers (raw_data
// and the int32_data form ONNX also allows) compile with
// --precision_mode=must_keep_origin_dtype and keep bf16 in the .om; a SoC
// CANN documents without bf16 (Ascend310P*) is refused with a clear message.
#include <gtest/gtest.h>

#include <Eigen/Core>
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "atc_test_util.h"

namespace ascend_emu {
namespace {

using testing::AtcResult;
using testing::AtcTest;
using testing::OnnxBuilder;
using BF16 = Eigen::bfloat16;

constexpr int32_t kBf16 = onnx::TensorProto::BFLOAT16;

std::vector<uint16_t> Bits(const std::vector<float>& v) {
  std::vector<uint16_t> out(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    BF16 b(v[i]);
    std::memcpy(&out[i], &b, 2);
  }
  return out;
}

float FromBits(uint16_t bits) {
  BF16 b;
  std::memcpy(&b, &bits, 2);
  return static_cast<float>(b);
}

// y = relu(x + b) + c, b as raw_data, c in int32_data (both ONNX forms).
OnnxBuilder AddReluBf16(const std::vector<float>& b,
                        const std::vector<float>& c) {
  OnnxBuilder g;
  g.Input("x", {2, 3}, kBf16).Output("y", {2, 3}, kBf16);
  onnx::GraphProto* graph = g.model().mutable_graph();
  onnx::TensorProto* tb = graph->add_initializer();
  tb->set_name("b");
  tb->set_data_type(kBf16);
  tb->add_dims(2);
  tb->add_dims(3);
  const std::vector<uint16_t> bb = Bits(b);
  tb->set_raw_data(
      std::string(reinterpret_cast<const char*>(bb.data()), bb.size() * 2));
  onnx::TensorProto* tc = graph->add_initializer();
  tc->set_name("c");
  tc->set_data_type(kBf16);
  tc->add_dims(3);
  for (uint16_t v : Bits(c)) tc->add_int32_data(v);
  g.Node("Add", {"x", "b"}, {"t"});
  g.Node("Relu", {"t"}, {"r"});
  g.Node("Add", {"r", "c"}, {"y"});
  return g;
}

TEST_F(AtcTest, Bf16InitializersInputsAndOutputsStayBf16) {
  const std::vector<float> b = {0.5f, -1.0f, 2.0f, -3.0f, 0.0f, 1.0f};
  const std::vector<float> c = {0.25f, 0.5f, 1.0f};
  auto model = CompileAndLoad(AddReluBf16(b, c), "bf16");
  ASSERT_NE(model, nullptr);
  EXPECT_EQ(model->inputs()[0].dtype, DType::kBFloat16);
  EXPECT_EQ(model->outputs()[0].dtype, DType::kBFloat16);
  EXPECT_EQ(model->inputs()[0].size_bytes, 6u * 2u);
  const std::vector<float> x = {1, 2, -3, 4, -5, 6};
  const std::vector<uint16_t> xb = Bits(x);
  std::vector<uint16_t> y(6, 0);
  const void* in[] = {xb.data()};
  void* out[] = {y.data()};
  std::string error;
  ASSERT_TRUE(model->Run(in, out, nullptr, &error)) << error;
  for (size_t i = 0; i < x.size(); ++i) {
    const float want = std::max(0.0f, x[i] + b[i]) + c[i % 3];
    EXPECT_EQ(FromBits(y[i]), static_cast<float>(BF16(want))) << i;
  }
}

// AtcTest::Compile with another --soc_version (atc refuses a repeated one).
AtcResult CompileFor(const OnnxBuilder& g, const std::string& path,
                     const std::string& soc) {
  g.Save(path + ".onnx");
  return testing::RunAtcArgs({"--framework=5", "--model=" + path + ".onnx",
                              "--output=" + path, "--soc_version=" + soc,
                              "--precision_mode=must_keep_origin_dtype"});
}

TEST_F(AtcTest, Bf16IsRefusedForAscend310P) {
  AtcResult r = CompileFor(AddReluBf16(std::vector<float>(6, 1.0f), {1, 2, 3}),
                           Path("bf16_310p"), "Ascend310P3");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("is bfloat16, which --soc_version=Ascend310P3 does not "
                       "support"),
            std::string::npos)
      << r.err;
  // The reason in cann_op_facts.json's words, as the Python side gives it.
  EXPECT_NE(r.err.find("(CANN's operator specifications list bfloat16 for "
                       "Ascend910B and later"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(testing::FileExists(Path("bf16_310p.om")));
}

TEST_F(AtcTest, Float16StaysAcceptedForAscend310PAndBf16ForOthers) {
  OnnxBuilder g;
  g.Input("x", {4}, onnx::TensorProto::FLOAT16)
      .Output("y", {4}, onnx::TensorProto::FLOAT16);
  g.Node("Relu", {"x"}, {"y"});
  AtcResult r = CompileFor(g, Path("fp16_310p"), "Ascend310P3");
  EXPECT_EQ(r.code, 0) << r.err;
  // And bf16 for the 910B family and for Ascend310B (not refused: docs/atc.md).
  for (const char* soc : {"Ascend910B3", "Ascend310B1"}) {
    r = CompileFor(AddReluBf16(std::vector<float>(6, 1.0f), {1, 2, 3}),
                   Path(std::string("bf16_") + soc), soc);
    EXPECT_EQ(r.code, 0) << soc << ": " << r.err;
  }
}

}  // namespace
}  // namespace ascend_emu
