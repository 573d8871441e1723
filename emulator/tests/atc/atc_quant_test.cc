// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// atc and CANN's quantization ops: an AMCT-style graph (AscendQuant -> int8
// Conv -> AscendDequant -> Cast) compiled and run against numbers computed
// here, offset_x taken from the AscendQuant, the precision modes leaving the
// integer tensors alone, and the per-chip refusals of cann_op_facts.json.
#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "atc_test_util.h"

namespace ascend_emu {
namespace testing {
namespace {

float H(float v) { return static_cast<float>(Eigen::half(v)); }

template <typename T>
void AddInit(OnnxBuilder& b, const std::string& name, int32_t elem,
             std::vector<int64_t> dims, const std::vector<T>& v) {
  onnx::TensorProto* t = b.model().mutable_graph()->add_initializer();
  t->set_name(name);
  t->set_data_type(elem);
  for (int64_t d : dims) t->add_dims(d);
  t->set_raw_data(std::string(reinterpret_cast<const char*>(v.data()),
                              v.size() * sizeof(T)));
}

class AtcQuantTest : public AtcTest {
 protected:
  // x [1, 2, 5, 5] -> AscendQuant(scale 20, offset 3) -> Conv int8 (3x3,
  // pads 1, int32 bias) -> AscendDequant(uint64 [3]) -> Cast(FLOAT).
  OnnxBuilder QuantConvGraph() {
    OnnxBuilder b;
    b.Input("x", {1, 2, 5, 5});
    b.Output("y", {1, 3, 5, 5});
    AddInit(b, "w", onnx::TensorProto::INT8, {3, 2, 3, 3}, w_);
    AddInit(b, "bias", onnx::TensorProto::INT32, {3}, bias_);
    // deq_scale through uint64_data (the ONNX field), garbage in 63:40.
    onnx::TensorProto* d = b.model().mutable_graph()->add_initializer();
    d->set_name("deq");
    d->set_data_type(onnx::TensorProto::UINT64);
    d->add_dims(3);
    for (float s : deq_) {
      uint32_t bits;
      std::memcpy(&bits, &s, 4);
      d->add_uint64_data((uint64_t{0xABCDEF} << 40) | bits);
    }
    onnx::NodeProto& q = b.Node("AscendQuant", {"x"}, {"xq"}, "quant");
    OnnxBuilder::AttrFloat(q, "scale", 20.0f);
    OnnxBuilder::AttrFloat(q, "offset", 3.0f);
    onnx::NodeProto& c = b.Node("Conv", {"xq", "w", "bias"}, {"acc"}, "conv");
    OnnxBuilder::AttrInts(c, "pads", {1, 1, 1, 1});
    b.Node("AscendDequant", {"acc", "deq"}, {"yh"}, "dequant");
    onnx::NodeProto& cast = b.Node("Cast", {"yh"}, {"y"}, "cast");
    OnnxBuilder::AttrInt(cast, "to", onnx::TensorProto::FLOAT);
    return b;
  }

  // The same in the test: float16 quantization, the int8 convolution of
  // (q - 3) with zero padding, one rounding of acc * deq to float16.
  std::vector<float> Expected(const std::vector<float>& x) const {
    std::vector<int> q(x.size());
    for (size_t i = 0; i < x.size(); ++i) {
      const float v = H(H(H(x[i]) * 20.0f) + 3.0f);
      q[i] = static_cast<int>(
          std::min(127.0f, std::max(-128.0f, std::nearbyint(v))));
    }
    std::vector<float> y(75);
    for (int m = 0; m < 3; ++m)
      for (int i = 0; i < 5; ++i)
        for (int j = 0; j < 5; ++j) {
          int64_t acc = bias_[m];
          for (int c = 0; c < 2; ++c)
            for (int p = 0; p < 3; ++p)
              for (int r = 0; r < 3; ++r) {
                const int ih = i - 1 + p, iw = j - 1 + r;
                if (ih < 0 || ih >= 5 || iw < 0 || iw >= 5) continue;
                acc += (q[(c * 5 + ih) * 5 + iw] - 3) *
                       int64_t{w_[((m * 2 + c) * 3 + p) * 3 + r]};
              }
          // |acc| < 2^24 and deq has 24 bits: exact in double.
          const double exact = static_cast<double>(acc) * deq_[m];
          y[(m * 5 + i) * 5 + j] = NearestHalf(exact);
        }
    return y;
  }

  static float NearestHalf(double p) {
    const Eigen::half g(static_cast<float>(p));
    const uint16_t bits = Eigen::numext::bit_cast<uint16_t>(g);
    float best = static_cast<float>(g);
    for (int dlt : {-1, 1}) {
      const float c = static_cast<float>(Eigen::numext::bit_cast<Eigen::half>(
          static_cast<uint16_t>(bits + dlt)));
      const double dc = std::fabs(p - c), db = std::fabs(p - best);
      if (dc < db ||
          (dc == db &&
           (Eigen::numext::bit_cast<uint16_t>(Eigen::half(c)) & 1) == 0))
        best = c;
    }
    return best;
  }

  std::vector<int8_t> w_ = [] {
    std::vector<int8_t> v(54);
    for (size_t i = 0; i < v.size(); ++i)
      v[i] = static_cast<int8_t>(static_cast<int>((i * 37) % 255) - 127);
    return v;
  }();
  std::vector<int32_t> bias_ = {1000, -250, 7};
  std::vector<float> deq_ = {0.0123f, -0.0007f, 0.25f};
};

TEST_F(AtcQuantTest, QuantConvDequantCastEndToEnd) {
  std::vector<float> x(50);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = -7.0f + 0.2937f * static_cast<float>((i * 13) % 50);
  x[0] = 100.0f;  // saturates at 127
  x[1] = -100.0f;
  const std::vector<float> want = Expected(x);
  for (const char* mode : {"must_keep_origin_dtype", "allow_fp32_to_fp16",
                           "force_fp16", "allow_mix_precision"}) {
    std::unique_ptr<Model> model =
        CompileAndLoad(QuantConvGraph(), std::string("q_") + mode,
                       {std::string("--precision_mode=") + mode});
    ASSERT_NE(model, nullptr) << mode;
    const std::vector<std::vector<float>> y = RunFloat(*model, {x});
    ASSERT_EQ(y[0].size(), want.size());
    for (size_t i = 0; i < want.size(); ++i)
      ASSERT_EQ(y[0][i], want[i]) << mode << " at " << i;
  }
}

// The chain with a ReLU6 after it compiles to one FusedConvDequant (the
// Cast and the Clip merged) whose numbers are the chain's, in every
// precision mode that leaves the Clip in float32; fusion switched off, the
// four ops run apart, with the same numbers.
TEST_F(AtcQuantTest, DequantCastClipFuseIntoTheInt8Conv) {
  OnnxBuilder b = QuantConvGraph();
  onnx::GraphProto* g = b.model().mutable_graph();
  g->mutable_node(g->node_size() - 1)->set_output(0, "yf");
  AddInit(b, "lo", onnx::TensorProto::FLOAT, {}, std::vector<float>{0.0f});
  AddInit(b, "hi", onnx::TensorProto::FLOAT, {}, std::vector<float>{6.0f});
  b.Node("Clip", {"yf", "lo", "hi"}, {"y"}, "relu6");
  WriteFile("fusion_off.cfg", R"({"Switch": {"GraphFusion": {"ALL": "off"}, )"
                              R"("UBFusion": {"ALL": "off"}}})");
  std::vector<float> x(50);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = -7.0f + 0.2937f * static_cast<float>((i * 13) % 50);
  std::vector<float> want = Expected(x);
  for (float& v : want) v = std::min(std::max(v, 0.0f), 6.0f);
  for (bool fuse : {true, false}) {
    std::vector<std::string> args;
    if (!fuse) args.push_back("--fusion_switch_file=" + Path("fusion_off.cfg"));
    const std::string name = fuse ? "relu6" : "relu6_plain";
    std::unique_ptr<Model> model = CompileAndLoad(b, name, args);
    ASSERT_NE(model, nullptr);
    const std::vector<std::string> ops = OpNames(Path(name + ".om"));
    if (fuse) {
      EXPECT_NE(std::find(ops.begin(), ops.end(),
                          "FusedConvDequant:conv+dequant+cast+relu6"),
                ops.end());
      EXPECT_EQ(ops.size(), 2u);  // AscendQuant, FusedConvDequant
    } else {
      EXPECT_EQ(ops.size(), 5u);
    }
    const std::vector<std::vector<float>> y = RunFloat(*model, {x});
    ASSERT_EQ(y[0].size(), want.size());
    for (size_t i = 0; i < want.size(); ++i)
      ASSERT_EQ(y[0][i], want[i]) << (fuse ? "fused" : "apart") << " at " << i;
  }
}

// The next layer's AscendQuant merges too (int8 out of the first Conv's
// FusedConvDequant), and the second int8 Conv takes its offset_x from the
// merged AscendQuant: the same numbers as the ops apart.
TEST_F(AtcQuantTest, NextLayersQuantFusesAndKeepsItsOffset) {
  OnnxBuilder b = QuantConvGraph();
  onnx::GraphProto* g = b.model().mutable_graph();
  g->mutable_node(g->node_size() - 1)->set_output(0, "yf");
  g->mutable_output(0)->set_name("z");
  g->mutable_output(0)
      ->mutable_type()
      ->mutable_tensor_type()
      ->mutable_shape()
      ->mutable_dim(1)
      ->set_dim_value(2);
  AddInit(b, "lo", onnx::TensorProto::FLOAT, {}, std::vector<float>{0.0f});
  AddInit(b, "hi", onnx::TensorProto::FLOAT, {}, std::vector<float>{6.0f});
  b.Node("Clip", {"yf", "lo", "hi"}, {"r"}, "relu6");
  onnx::NodeProto& q = b.Node("AscendQuant", {"r"}, {"rq"}, "quant2");
  OnnxBuilder::AttrFloat(q, "scale", 21.0f);
  OnnxBuilder::AttrFloat(q, "offset", -9.0f);
  AddInit(b, "w2", onnx::TensorProto::INT8, {2, 3, 1, 1},
          std::vector<int8_t>{5, -7, 3, -2, 11, 1});
  b.Node("Conv", {"rq", "w2"}, {"acc2"}, "conv2");
  AddInit(b, "deq2", onnx::TensorProto::UINT64, {1},
          std::vector<uint64_t>{0x3C000000u});  // 2^-7
  b.Node("AscendDequant", {"acc2", "deq2"}, {"zh"}, "dequant2");
  onnx::NodeProto& cast = b.Node("Cast", {"zh"}, {"z"}, "cast2");
  OnnxBuilder::AttrInt(cast, "to", onnx::TensorProto::FLOAT);
  WriteFile("fusion_off.cfg", R"({"Switch": {"GraphFusion": {"ALL": "off"}, )"
                              R"("UBFusion": {"ALL": "off"}}})");
  std::vector<float> x(50);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = -7.0f + 0.2937f * static_cast<float>((i * 13) % 50);
  std::vector<std::vector<float>> outs;
  for (bool fuse : {true, false}) {
    std::vector<std::string> args;
    if (!fuse) args.push_back("--fusion_switch_file=" + Path("fusion_off.cfg"));
    const std::string name = fuse ? "requant" : "requant_plain";
    std::unique_ptr<Model> model = CompileAndLoad(b, name, args);
    ASSERT_NE(model, nullptr);
    const std::vector<std::string> ops = OpNames(Path(name + ".om"));
    if (fuse) {
      EXPECT_NE(std::find(ops.begin(), ops.end(),
                          "FusedConvDequant:conv+dequant+cast+relu6+quant2"),
                ops.end());
      EXPECT_EQ(ops.size(), 3u);
    } else {
      EXPECT_EQ(ops.size(), 9u);
    }
    outs.push_back(RunFloat(*model, {x})[0]);
  }
  ASSERT_EQ(outs[0].size(), 50u);
  EXPECT_EQ(outs[0], outs[1]);
  // Not all zero: the offset and the saturation matter to these numbers.
  EXPECT_NE(*std::max_element(outs[0].begin(), outs[0].end()),
            *std::min_element(outs[0].begin(), outs[0].end()));
}

// A quantized Linear as the lowering emits it (AscendQuant -> int8 MatMul
// -> Add of the int32 bias -> AscendDequant -> Cast) compiles to
// AscendQuant and one FusedMatMulInt8 whose numbers are the test's own and
// the ops' apart (fusion off: five ops).
TEST_F(AtcQuantTest, QuantizedLinearFusesIntoOneInt8MatMul) {
  OnnxBuilder b;
  b.Input("x", {3, 4});
  b.Output("y", {3, 2});
  const std::vector<int8_t> w = {7, -3, 127, -128, -5, 9, 2, 64};  // [4, 2]
  // Column 0's sums wrap past 2^31 where positive; column 1's are small.
  const std::vector<int32_t> bias = {2147483000, -77};
  AddInit(b, "w", onnx::TensorProto::INT8, {4, 2}, w);
  AddInit(b, "bias", onnx::TensorProto::INT32, {2}, bias);
  const double deq[2] = {std::ldexp(1.0, -21), std::ldexp(1.0, -7)};
  AddInit(b, "deq", onnx::TensorProto::UINT64, {2},
          std::vector<uint64_t>{0x35000000u, 0x3C000000u});  // one a column
  onnx::NodeProto& q = b.Node("AscendQuant", {"x"}, {"xq"}, "quant");
  OnnxBuilder::AttrFloat(q, "scale", 20.0f);
  OnnxBuilder::AttrFloat(q, "offset", 3.0f);
  b.Node("MatMul", {"xq", "w"}, {"acc"}, "matmul");
  b.Node("Add", {"acc", "bias"}, {"biased"}, "bias");
  b.Node("AscendDequant", {"biased", "deq"}, {"yh"}, "dequant");
  onnx::NodeProto& cast = b.Node("Cast", {"yh"}, {"y"}, "cast");
  OnnxBuilder::AttrInt(cast, "to", onnx::TensorProto::FLOAT);
  WriteFile("fusion_off.cfg", R"({"Switch": {"GraphFusion": {"ALL": "off"}, )"
                              R"("UBFusion": {"ALL": "off"}}})");
  std::vector<float> x(12);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = -6.0f + 1.037f * static_cast<float>((i * 5) % 12);
  // The test's own: float16 quantization, int32 sums of (q - 3) * w plus the
  // bias, wrapping, one rounding of acc * deq[column] to float16.
  std::vector<float> want(6);
  for (int r = 0; r < 3; ++r) {
    for (int j = 0; j < 2; ++j) {
      uint32_t acc = static_cast<uint32_t>(bias[j]);
      for (int t = 0; t < 4; ++t) {
        const float v = H(H(H(x[r * 4 + t]) * 20.0f) + 3.0f);
        const int qv = static_cast<int>(
            std::min(127.0f, std::max(-128.0f, std::nearbyint(v))));
        acc += static_cast<uint32_t>((qv - 3) * int{w[t * 2 + j]});
      }
      want[r * 2 + j] =
          NearestHalf(static_cast<double>(static_cast<int32_t>(acc)) * deq[j]);
    }
  }
  for (bool fuse : {true, false}) {
    std::vector<std::string> args;
    if (!fuse) args.push_back("--fusion_switch_file=" + Path("fusion_off.cfg"));
    const std::string name = fuse ? "linear" : "linear_plain";
    std::unique_ptr<Model> model = CompileAndLoad(b, name, args);
    ASSERT_NE(model, nullptr);
    const std::vector<std::string> ops = OpNames(Path(name + ".om"));
    if (fuse) {
      EXPECT_NE(std::find(ops.begin(), ops.end(),
                          "FusedMatMulInt8:matmul+bias+dequant+cast"),
                ops.end());
      EXPECT_EQ(ops.size(), 2u);  // AscendQuant, FusedMatMulInt8
    } else {
      EXPECT_EQ(ops.size(), 5u);
    }
    EXPECT_EQ(RunFloat(*model, {x})[0], want) << (fuse ? "fused" : "apart");
  }
  // The numbers test what they should: a wrapped sum and a plain one.
  EXPECT_LT(*std::min_element(want.begin(), want.end()), -1000.0f);
  EXPECT_GT(*std::max_element(want.begin(), want.end()), 1000.0f);
}

TEST_F(AtcQuantTest, Int8ConvWithoutAQuantGetsOffsetZero) {
  // The int8 input is a graph input: offset_x 0.
  OnnxBuilder b;
  b.Input("xq", {1, 1, 3, 3}, onnx::TensorProto::INT8);
  b.Output("y", {1, 1, 3, 3}, onnx::TensorProto::INT32);
  AddInit(b, "w", onnx::TensorProto::INT8, {1, 1, 1, 1},
          std::vector<int8_t>{2});
  b.Node("Conv", {"xq", "w"}, {"y"}, "conv");
  std::unique_ptr<Model> model = CompileAndLoad(b, "plain");
  ASSERT_NE(model, nullptr);
  std::vector<int8_t> x = {1, -2, 3, -4, 5, -6, 7, -8, 127};
  std::vector<int32_t> y(9);
  const void* in[] = {x.data()};
  void* out[] = {y.data()};
  std::string error;
  ASSERT_TRUE(model->Run(in, out, nullptr, &error)) << error;
  EXPECT_EQ(y, (std::vector<int32_t>{2, -4, 6, -8, 10, -12, 14, -16, 254}));
}

TEST_F(AtcQuantTest, RefusesWhatTheChipLacks) {
  // int8 Conv on Ascend950.
  AtcResult r =
      Compile(QuantConvGraph(), "on950", {"--soc_version=Ascend950DT_950x"});
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("CANN has no int8 Conv on Ascend950DT_950x (family "
                       "Ascend950)"),
            std::string::npos)
      << r.err;
  // The same graph compiles for Ascend310P3 (with its default mode).
  r = Compile(
      QuantConvGraph(), "on310p",
      {"--soc_version=Ascend310P3", "--precision_mode=allow_fp32_to_fp16"});
  EXPECT_EQ(r.code, 0) << r.err;

  // NPUWeightQuantBatchMatmulV2: not on Ascend310B; int4 not on Ascend310P.
  auto wq = [&](bool int4) {
    OnnxBuilder b;
    b.Input("x", {1, 64}, onnx::TensorProto::FLOAT16);
    b.Output("y", {1, 16}, onnx::TensorProto::FLOAT16);
    if (int4) {
      AddInit(b, "w", onnx::TensorProto::INT32, {64, 2},
              std::vector<int32_t>(128, 0x12345678));
    } else {
      AddInit(b, "w", onnx::TensorProto::INT8, {64, 16},
              std::vector<int8_t>(1024, 3));
    }
    AddInit(b, "s", onnx::TensorProto::FLOAT16, {16},
            std::vector<Eigen::half>(16, Eigen::half(0.5f)));
    b.Node("NPUWeightQuantBatchMatmulV2", {"x", "w", "s"}, {"y"}, "wq");
    return b;
  };
  r = Compile(wq(false), "wq310b", {"--soc_version=Ascend310B1"});
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("CANN has no NPUWeightQuantBatchMatmulV2 on "
                       "Ascend310B1 (family Ascend310B)"),
            std::string::npos)
      << r.err;
  r = Compile(wq(true), "wq310p", {"--soc_version=Ascend310P3"});
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("CANN has no int4 (int32-packed) weights for "
                       "NPUWeightQuantBatchMatmulV2 on Ascend310P3"),
            std::string::npos)
      << r.err;
  r = Compile(wq(false), "wq310p8", {"--soc_version=Ascend310P3"});
  EXPECT_EQ(r.code, 0) << r.err;
  r = Compile(wq(true), "wq910b", {});
  EXPECT_EQ(r.code, 0) << r.err;
}

// NPUDynamicQuant (registered for ai.onnx 11-18): compiles and runs on
// Ascend910B1 (the kernel it emulates), refused on Ascend310B (CANN has
// none) and on Ascend310P3 (its kernel rounds otherwise: not emulated).
TEST_F(AtcQuantTest, DynamicQuantPerChip) {
  auto graph = [](int64_t opset) {
    OnnxBuilder b(opset);
    b.Input("x", {2, 4}, onnx::TensorProto::FLOAT16);
    b.Output("y", {2, 4}, onnx::TensorProto::INT8);
    b.Output("scale", {2}, onnx::TensorProto::FLOAT);
    b.Node("NPUDynamicQuant", {"x"}, {"y", "scale"}, "dq");
    return b;
  };
  std::unique_ptr<Model> model = CompileAndLoad(graph(17), "dq910b");
  ASSERT_NE(model, nullptr);
  const std::vector<Eigen::half> x = {Eigen::half(1.0f), Eigen::half(-2.0f),
                                      Eigen::half(0.5f), Eigen::half(4.0f),
                                      Eigen::half(0.0f), Eigen::half(0.0f),
                                      Eigen::half(0.0f), Eigen::half(-0.25f)};
  std::vector<int8_t> y(8);
  std::vector<float> scale(2);
  const void* in[] = {x.data()};
  void* out[] = {y.data(), scale.data()};
  std::string error;
  ASSERT_TRUE(model->Run(in, out, nullptr, &error)) << error;
  // Row 0: s = 127 / 4; row 1: s = 127 / 0.25 = 508.
  EXPECT_EQ(y, (std::vector<int8_t>{32, -64, 16, 127, 0, 0, 0, -127}));
  EXPECT_EQ(scale, (std::vector<float>{1.0f / (127.0f / 4.0f),
                                       1.0f / (127.0f / 0.25f)}));

  AtcResult r = Compile(graph(17), "dq310b", {"--soc_version=Ascend310B1"});
  EXPECT_NE(r.err.find("CANN has no NPUDynamicQuant on Ascend310B1"),
            std::string::npos)
      << r.err;
  r = Compile(graph(17), "dq310p", {"--soc_version=Ascend310P3"});
  EXPECT_NE(r.err.find("NPUDynamicQuant on Ascend310P3 (family Ascend310P) is "
                       "not emulated"),
            std::string::npos)
      << r.err;
}

// QuantBatchMatMul (registered for ai.onnx 8-16 only): an int8 x1, a
// constant transposed int8 weight, a uint64 scale with offsets in bits
// 45:37 and an int32 bias, int8 out; compiled at opset 16 and run on
// Ascend910B1 against values computed by hand. Refused at opset 17 (no
// registration), where CANN has none (Ascend310B, Ascend910) and where its
// kernel computes otherwise (Ascend310P, Ascend950: not emulated).
TEST_F(AtcQuantTest, QuantBatchMatMulPerChipAndOpset) {
  auto graph = [](int64_t opset) {
    OnnxBuilder b(opset);
    b.Input("x1", {2, 4}, onnx::TensorProto::INT8);
    b.Output("y", {2, 3}, onnx::TensorProto::INT8);
    AddInit(b, "w", onnx::TensorProto::INT8, {3, 4},
            std::vector<int8_t>{1, 1, 1, 1, 1, -1, 1, -1, 10, 20, 30, 40});
    // TransQuantParamV2's packing: fp32 bits, int9 offset << 37, bit 46.
    auto pack = [](float s, int offset) {
      uint32_t bits;
      std::memcpy(&bits, &s, 4);
      return uint64_t{bits} | (uint64_t{1} << 46) |
             (static_cast<uint64_t>(offset & 0x1FF) << 37);
    };
    AddInit(
        b, "scale", onnx::TensorProto::UINT64, {3},
        std::vector<uint64_t>{pack(0.5f, 0), pack(1.25f, 3), pack(0.5f, -10)});
    AddInit(b, "bias", onnx::TensorProto::INT32, {3},
            std::vector<int32_t>{5, 0, -1});
    onnx::NodeProto& n = b.Node(
        "QuantBatchMatMul", {"x1", "w", "scale", "", "bias"}, {"y"}, "qbmm");
    OnnxBuilder::AttrInt(n, "dtype", 2);
    OnnxBuilder::AttrInt(n, "transpose_x2", 1);
    return b;
  };
  std::unique_ptr<Model> model = CompileAndLoad(graph(16), "qbmm910b");
  ASSERT_NE(model, nullptr);
  const std::vector<int8_t> x1 = {1, 2, 3, 4, -4, -3, -2, -1};
  std::vector<int8_t> y(6);
  const void* in[] = {x1.data()};
  void* out[] = {y.data()};
  std::string error;
  ASSERT_TRUE(model->Run(in, out, nullptr, &error)) << error;
  // acc + bias: [15, -2, 299; -5, -2, -201]; * scale (0.5, 1.25, 0.5):
  // [7.5, -2.5, 149.5; -2.5, -2.5, -100.5], rounded to even, clamped to
  // [-256, 255], + offset (0, 3, -10), clamped to int8.
  EXPECT_EQ(y, (std::vector<int8_t>{8, 1, 127, -2, 1, -110}));

  AtcResult r = Compile(graph(17), "qbmm17");
  EXPECT_NE(r.err.find("op 'QuantBatchMatMul' is not registered by CANN's "
                       "ONNX parser for ai.onnx opset 17 (registered for "
                       "opsets 8-16)"),
            std::string::npos)
      << r.err;
  for (const char* soc : {"Ascend310B1", "Ascend910A"}) {
    r = Compile(graph(16), std::string("qbmm_") + soc,
                {std::string("--soc_version=") + soc});
    EXPECT_NE(r.err.find(std::string("CANN has no QuantBatchMatMul on ") + soc),
              std::string::npos)
        << r.err;
  }
  for (const char* soc : {"Ascend310P3", "Ascend950DT_9571"}) {
    r = Compile(graph(16), std::string("qbmm_") + soc,
                {std::string("--soc_version=") + soc});
    EXPECT_NE(r.err.find(std::string("QuantBatchMatMul on ") + soc),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("is not emulated"), std::string::npos) << r.err;
  }
  r = Compile(graph(16), "qbmm910_93", {"--soc_version=Ascend910_9391"});
  EXPECT_EQ(r.code, 0) << r.err;
}

// W8A8 dynamic as CANN runs it: NPUDynamicQuant's int8 rows and per-row
// scales straight into QuantBatchMatMul's x1 and pertoken_scale (float32
// scale per channel, float16 out), an opset-16 graph on Ascend910B1; under
// atc's default force_fp16 too, which leaves DynamicQuant's float32 scale
// output and QuantBatchMatMul's float32 inputs alone (float32 only in their
// op definitions).
TEST_F(AtcQuantTest, DynamicQuantIntoQuantBatchMatMul) {
  OnnxBuilder b(16);
  b.Input("x", {2, 4}, onnx::TensorProto::FLOAT16);
  b.Output("y", {2, 3}, onnx::TensorProto::FLOAT16);
  AddInit(b, "w", onnx::TensorProto::INT8, {4, 3},
          std::vector<int8_t>{1, 2, 3, 4, 5, 6, 7, 8, 9, -1, -2, -3});
  const std::vector<float> scale = {0.5f, 0.25f, 2.0f};
  AddInit(b, "scale", onnx::TensorProto::FLOAT, {3}, scale);
  b.Node("NPUDynamicQuant", {"x"}, {"xq", "tok"}, "dq");
  onnx::NodeProto& n = b.Node(
      "QuantBatchMatMul", {"xq", "w", "scale", "", "", "tok"}, {"y"}, "qbmm");
  OnnxBuilder::AttrInt(n, "dtype", 1);
  const std::vector<Eigen::half> x = {
      Eigen::half(1.0f),         Eigen::half(-2.0f), Eigen::half(0.5f),
      Eigen::half(2.009765625f), Eigen::half(0.0f),  Eigen::half(0.0f),
      Eigen::half(0.0f),         Eigen::half(-0.25f)};
  // DynamicQuant: row 0 s = 127 / 2.009765625, q = [63, -126, 32, 127];
  // row 1 s = 508, q = [0, 0, 0, -127]. acc = q @ w. Row 0's scale rounded
  // to float16 would change two of its outputs.
  const int acc[2][3] = {{-344, -502, -660}, {127, 254, 381}};
  const float tok[2] = {1.0f / (127.0f / 2.009765625f),
                        1.0f / (127.0f / 0.25f)};
  for (const char* mode : {"must_keep_origin_dtype", "force_fp16"}) {
    std::unique_ptr<Model> model =
        CompileAndLoad(b, std::string("w8a8_") + mode,
                       {std::string("--precision_mode=") + mode});
    ASSERT_NE(model, nullptr);
    std::vector<Eigen::half> y(6);
    const void* in[] = {x.data()};
    void* out[] = {y.data()};
    std::string error;
    ASSERT_TRUE(model->Run(in, out, nullptr, &error)) << error;
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j) {
        // float(acc) * scale is exact here; then * pertoken in float32,
        // then one rounding to float16.
        const float v = static_cast<float>(acc[i][j]) * scale[j];
        const float want = static_cast<float>(Eigen::half(v * tok[i]));
        EXPECT_EQ(static_cast<float>(y[i * 3 + j]), want)
            << mode << ": " << i << ", " << j;
      }
  }
}

// The precision modes leave QuantBatchMatMul's float32 pertoken_scale and
// scale alone (its op definition has no float16 form of them): force_fp16
// and allow_mix_precision give must_keep_origin_dtype's bits.
TEST_F(AtcQuantTest, PrecisionModesKeepQuantBatchMatMulScales) {
  OnnxBuilder b(16);
  b.Input("x1", {2, 3}, onnx::TensorProto::INT8);
  b.Input("tok", {2}, onnx::TensorProto::FLOAT);
  b.Output("y", {2, 2}, onnx::TensorProto::FLOAT16);
  AddInit(b, "w", onnx::TensorProto::INT8, {3, 2},
          std::vector<int8_t>{100, -7, 90, 33, -128, 127});
  AddInit(b, "scale", onnx::TensorProto::FLOAT, {2},
          std::vector<float>{0.0123456f, 0.000987654f});
  onnx::NodeProto& n = b.Node(
      "QuantBatchMatMul", {"x1", "w", "scale", "", "", "tok"}, {"y"}, "qbmm");
  OnnxBuilder::AttrInt(n, "dtype", 1);
  const std::vector<int8_t> x1 = {127, 101, -3, -128, 77, 55};
  const std::vector<float> tok = {1.00048828125f + 0x1p-20f, 0.3333333f};
  std::vector<std::vector<Eigen::half>> ys;
  for (const char* mode :
       {"must_keep_origin_dtype", "force_fp16", "allow_mix_precision"}) {
    std::unique_ptr<Model> model =
        CompileAndLoad(b, std::string("qbmm_") + mode,
                       {std::string("--precision_mode=") + mode});
    ASSERT_NE(model, nullptr) << mode;
    std::vector<Eigen::half> y(4);
    const void* in[] = {x1.data(), tok.data()};
    void* out[] = {y.data()};
    std::string error;
    ASSERT_TRUE(model->Run(in, out, nullptr, &error)) << error;
    ys.push_back(y);
  }
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(static_cast<float>(ys[1][i]), static_cast<float>(ys[0][i]))
        << "force_fp16, element " << i;
    EXPECT_EQ(static_cast<float>(ys[2][i]), static_cast<float>(ys[0][i]))
        << "allow_mix_precision, element " << i;
  }
}

TEST_F(AtcQuantTest, RefusesMixedDtypesAndUnemulatedQuantTypes) {
  OnnxBuilder b;
  b.Input("xq", {1, 1, 3, 3}, onnx::TensorProto::INT8);
  b.Output("y", {1, 1, 3, 3});
  b.InitF32("w", {1, 1, 1, 1}, {1.0f});
  b.Node("Conv", {"xq", "w"}, {"y"}, "conv");
  AtcResult r = Compile(b, "mixed");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("int8 Conv needs int8 x and weight"), std::string::npos)
      << r.err;

  OnnxBuilder q;
  q.Input("x", {4});
  q.Output("y", {4}, onnx::TensorProto::INT8);
  onnx::NodeProto& n = q.Node("AscendQuant", {"x"}, {"y"}, "q");
  onnx::AttributeProto* a = n.add_attribute();
  a->set_name("dst_type");
  a->set_type(onnx::AttributeProto::STRING);
  a->set_s("INT4");
  r = Compile(q, "int4");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("dst_type 'INT4' is not emulated"), std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace testing
}  // namespace ascend_emu
