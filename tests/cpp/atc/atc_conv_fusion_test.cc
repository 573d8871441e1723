// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// atc's Conv fusions (docs/atc.md "Fusions"): the lowering's
// Conv -> Mul -> Add (BatchNormalization) -> [Add residual] -> Relu chains
// become one op named by the merged nodes joined with '+', with the same
// results as the unfused program (--fusion_switch_file switching them off),
// and nothing merges where the intermediate value has another reader or the
// constant is not per channel; Clip (ReLU6) with constant bounds fuses as
// the activation.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "atc_test_util.h"

namespace ascend_emu {
namespace testing {
namespace {

class AtcConvFusionTest : public AtcTest {
 protected:
  // Writes the switch file that turns every fusion off.
  std::string FusionOff() {
    WriteFile("fusion_off.cfg", R"({"Switch": {"GraphFusion": {"ALL": "off"}, )"
                                R"("UBFusion": {"ALL": "off"}}})");
    return "--fusion_switch_file=" + Path("fusion_off.cfg");
  }

  // Compiles `b` fused and unfused, runs both on `inputs`, expects the same
  // outputs (to float rounding: folded weights round differently).
  void ExpectSameAsUnfused(const OnnxBuilder& b, const std::string& name,
                           const std::vector<std::vector<float>>& inputs) {
    auto fused = CompileAndLoad(b, name);
    auto plain = CompileAndLoad(b, name + "_plain", {FusionOff()});
    ASSERT_NE(fused, nullptr);
    ASSERT_NE(plain, nullptr);
    const auto want = RunFloat(*plain, inputs);
    const auto got = RunFloat(*fused, inputs);
    ASSERT_EQ(got.size(), want.size());
    for (size_t o = 0; o < got.size(); ++o) {
      ASSERT_EQ(got[o].size(), want[o].size());
      for (size_t i = 0; i < got[o].size(); ++i) {
        EXPECT_NEAR(got[o][i], want[o][i], 1e-4f * (1 + std::abs(want[o][i])))
            << name << " output " << o << " at " << i;
      }
    }
  }
};

// Two ResNet blocks as the lowering emits them: BN as Mul/Add by [C,1,1]
// and [1,C,1,1] constants, a residual Add whose other operand is computed
// earlier, Relu; odd sizes, stride, groups and dilations.
TEST_F(AtcConvFusionTest, ResNetBlockFusesAndMatchesUnfused) {
  const int64_t C = 4, H = 7, W = 6;
  OnnxBuilder b;
  b.Input("x", {1, C, H, W})
      .InitF32("w1", {C, C, 3, 3}, Ramp(C * C * 9, 0.03f, -0.3f))
      .InitF32("s1", {C, 1, 1}, {0.5f, 1.5f, -2.0f, 0.75f})
      .InitF32("t1", {1, C, 1, 1}, {0.1f, -0.2f, 0.3f, -0.4f})
      .InitF32("w2", {C, 2, 3, 3}, Ramp(C * 2 * 9, 0.05f, -0.4f))
      .InitF32("b2", {C}, {0.05f, 0.0f, -0.05f, 0.2f})
      .InitF32("s2", {C, 1, 1}, {1.0f, -1.0f, 2.0f, 0.25f})
      .InitF32("t2", {C, 1, 1}, {0.0f, 0.5f, -0.5f, 1.0f})
      .Output("y", {1, C, H, W});
  onnx::NodeProto& c1 = b.Node("Conv", {"x", "w1"}, {"c1"}, "Conv_0");
  OnnxBuilder::AttrInts(c1, "pads", {1, 1, 1, 1});
  b.Node("Mul", {"c1", "s1"}, {"m1"}, "Mul_0");
  b.Node("Add", {"t1", "m1"}, {"a1"}, "Add_0");  // constant first
  b.Node("Relu", {"a1"}, {"r1"}, "Relu_0");
  onnx::NodeProto& c2 = b.Node("Conv", {"r1", "w2", "b2"}, {"c2"}, "Conv_1");
  OnnxBuilder::AttrInts(c2, "pads", {2, 1, 2, 1});
  OnnxBuilder::AttrInts(c2, "dilations", {2, 1});
  OnnxBuilder::AttrInt(c2, "group", 2);
  b.Node("Mul", {"c2", "s2"}, {"m2"}, "Mul_1");
  b.Node("Add", {"m2", "t2"}, {"a2"}, "Add_1");
  b.Node("Add", {"a2", "x"}, {"a3"}, "Add_2");  // the residual
  b.Node("Relu", {"a3"}, {"y"}, "Relu_1");
  ExpectSameAsUnfused(b, "block", {Ramp(C * H * W)});
  EXPECT_EQ(
      OpNames(Path("block.om")),
      (std::vector<std::string>{"FusedConv:Conv_0+Mul_0+Add_0+Relu_0",
                                "FusedConv:Conv_1+Mul_1+Add_1+Add_2+Relu_1"}));
  EXPECT_EQ(OpNames(Path("block_plain.om")).size(), 9u);
}

// Weights held as ONNX external data (what the backend writes for a real
// model's Convs) are not scaled into a second copy: BN's scale becomes
// FusedConv's weight scale S (input 4), a later Mul multiplies into it, and
// the results match the unfused program's.
TEST_F(AtcConvFusionTest, BatchNormScaleOfExternalWeightsBecomesWeightScale) {
  const int64_t C = 4, M = 6, H = 5, W = 5;
  const std::vector<float> w = Ramp(M * C * 9, 0.03f, -0.3f);
  WriteFile("w.data", AsBytes(w));
  OnnxBuilder b;
  b.Input("x", {1, C, H, W})
      .Input("z", {1, M, H, W})
      .InitExternal(
          "w", onnx::TensorProto::FLOAT, {M, C, 3, 3},
          {{"location", "w.data"}, {"length", std::to_string(w.size() * 4)}})
      .InitF32("b", {M}, {0.1f, 0.2f, -0.3f, 0.4f, 0.0f, -0.5f})
      .InitF32("s", {M, 1, 1}, {0.5f, 1.5f, -2.0f, 0.75f, 3.0f, -0.25f})
      .InitF32("t", {1, M, 1, 1}, {0.1f, -0.2f, 0.3f, -0.4f, 0.5f, 0.6f})
      .InitF32("s2", {1, M, 1, 1}, {2.0f, 1.0f, 0.5f, -1.0f, 1.0f, 4.0f})
      .Output("y", {1, M, H, W});
  onnx::NodeProto& c = b.Node("Conv", {"x", "w", "b"}, {"c"}, "conv");
  OnnxBuilder::AttrInts(c, "pads", {1, 1, 1, 1});
  b.Node("Mul", {"c", "s"}, {"m"}, "mul");
  b.Node("Add", {"m", "t"}, {"a"}, "add");
  b.Node("Mul", {"s2", "a"}, {"m2"}, "mul2");  // a second scale multiplies in
  b.Node("Add", {"m2", "z"}, {"r"}, "residual");
  b.Node("Relu", {"r"}, {"y"}, "relu");
  ExpectSameAsUnfused(b, "ext", {Ramp(C * H * W), Ramp(M * H * W, 0.2f)});
  EXPECT_EQ(
      OpNames(Path("ext.om")),
      (std::vector<std::string>{"FusedConv:conv+mul+add+mul2+residual+relu"}));
  // The .om holds the weights once (as the unfused one does), not a scaled
  // second copy beside them.
  const auto om_size = [&](const std::string& name) {
    return ReadBytes(Path(name + ".om")).size();
  };
  EXPECT_LT(om_size("ext"), om_size("ext_plain") + w.size() * 4 / 2);
}

// Conv + BN alone stays a Conv (with the folded bias); a 1-D Conv folds too.
TEST_F(AtcConvFusionTest, BatchNormFoldsIntoPlainConv) {
  OnnxBuilder b;
  b.Input("x", {2, 3, 9})
      .InitF32("w", {5, 3, 3}, Ramp(45, 0.04f, -0.5f))
      .InitF32("s", {5, 1}, {1.0f, 2.0f, -1.0f, 0.5f, 3.0f})
      .InitF32("t", {5, 1}, {0.5f, 0.0f, -0.5f, 1.0f, 2.0f})
      .Output("y", {2, 5, 4});
  onnx::NodeProto& c = b.Node("Conv", {"x", "w"}, {"c"}, "conv");
  OnnxBuilder::AttrInts(c, "strides", {2});
  b.Node("Mul", {"c", "s"}, {"m"}, "mul");
  b.Node("Add", {"m", "t"}, {"y"}, "add");
  ExpectSameAsUnfused(b, "bn1d", {Ramp(54)});
  EXPECT_EQ(OpNames(Path("bn1d.om")),
            (std::vector<std::string>{"Conv:conv+mul+add"}));
}

// No merge when the Conv's output has a second reader (or is a graph
// output), when the constant is not per channel, or for a Mul after Relu.
TEST_F(AtcConvFusionTest, NothingMergesWhereItWouldChangeTheGraph) {
  OnnxBuilder b;
  b.Input("x", {1, 2, 4, 4})
      .InitF32("w", {2, 2, 1, 1}, {1.0f, 0.5f, -0.5f, 2.0f})
      .InitF32("row", {1, 1, 1, 4}, {1.0f, 2.0f, 3.0f, 4.0f})
      .InitF32("s", {2, 1, 1}, {2.0f, 3.0f})
      .Output("y", {1, 2, 4, 4})
      .Output("z", {1, 2, 4, 4})
      .Output("v", {1, 2, 4, 4});
  b.Node("Conv", {"x", "w"}, {"c"}, "conv_a");
  b.Node("Relu", {"c"}, {"y"}, "relu_a");       // c is read twice:
  b.Node("Mul", {"c", "row"}, {"z"}, "mul_a");  // no merge
  b.Node("Conv", {"x", "w"}, {"d"}, "conv_b");
  b.Node("Mul", {"d", "row"}, {"e"}, "mul_b");  // not per channel
  b.Node("Relu", {"e"}, {"f"}, "relu_b");
  b.Node("Conv", {"f", "w"}, {"g"}, "conv_c");
  b.Node("Relu", {"g"}, {"h"}, "relu_c");
  b.Node("Mul", {"h", "s"}, {"v"}, "mul_c");  // after the activation
  ExpectSameAsUnfused(b, "none", {Ramp(32)});
  EXPECT_EQ(OpNames(Path("none.om")),
            (std::vector<std::string>{"Conv:conv_a", "Relu:relu_a", "Mul:mul_a",
                                      "Conv:conv_b", "Mul:mul_b", "Relu:relu_b",
                                      "FusedConv:conv_c+relu_c", "Mul:mul_c"}));
}

// A Pad by zero of the spatial dims only (MobileNetV2's TF "SAME" padding:
// by one at the end before a strided depthwise Conv, by nothing before a
// 1x1 one, the fill given or absent) merges into the Conv that reads it: its
// pads add to the Conv's (here to its own symmetric 1), the results match.
TEST_F(AtcConvFusionTest, PadMergesIntoTheConvReadingIt) {
  const int64_t C = 4, H = 7, W = 6;
  OnnxBuilder b;
  b.Input("x", {1, C, H, W})
      .InitI64("p_end", {8}, {0, 0, 0, 0, 0, 0, 1, 2})
      .InitI64("p_zero", {8}, {0, 0, 0, 0, 0, 0, 0, 0})
      .InitI64("p_both", {8}, {0, 0, 2, 0, 0, 0, 1, 1})
      .InitF32("zero", {}, {0.0f})
      .InitF32("dw", {C, 1, 3, 3}, Ramp(C * 9, 0.07f, -0.4f))
      .InitF32("s", {C, 1, 1}, {0.5f, 1.5f, -2.0f, 0.75f})
      .InitF32("pw", {C, C, 1, 1}, Ramp(C * C, 0.1f, -0.6f))
      .InitF32("w3", {C, C, 3, 3}, Ramp(C * C * 9, 0.02f, -0.3f))
      .Output("y", {1, C, 6, 4});
  b.Node("Pad", {"x", "p_end", "zero"}, {"a"}, "pad_0");
  onnx::NodeProto& dw = b.Node("Conv", {"a", "dw"}, {"b"}, "conv_0");
  OnnxBuilder::AttrInts(dw, "strides", {2, 2});
  OnnxBuilder::AttrInt(dw, "group", C);
  b.Node("Mul", {"b", "s"}, {"c"}, "mul_0");
  b.Node("Pad", {"c", "p_zero"}, {"d"}, "pad_1");
  b.Node("Conv", {"d", "pw"}, {"e"}, "conv_1");
  b.Node("Pad", {"e", "p_both"}, {"f"}, "pad_2");
  onnx::NodeProto& c3 = b.Node("Conv", {"f", "w3"}, {"y"}, "conv_2");
  OnnxBuilder::AttrInts(c3, "pads", {1, 1, 1, 1});
  ExpectSameAsUnfused(b, "pads", {Ramp(C * H * W)});
  EXPECT_EQ(
      OpNames(Path("pads.om")),
      (std::vector<std::string>{"Conv:pad_0+conv_0+mul_0", "Conv:pad_1+conv_1",
                                "Conv:pad_2+conv_2"}));
}

// A Pad stays where merging would change the result or the graph: a fill
// other than zero, padded channels, a crop, reflect mode, a second reader.
TEST_F(AtcConvFusionTest, PadStaysWhereItIsNotTheConvsPadding) {
  OnnxBuilder b;
  b.Input("x", {1, 2, 5, 5})
      .InitI64("p", {8}, {0, 0, 1, 1, 0, 0, 1, 1})
      .InitI64("p_chan", {8}, {0, 1, 0, 0, 0, 0, 0, 0})
      .InitI64("p_crop", {8}, {0, 0, -1, 0, 0, 0, 1, 0})
      .InitF32("one", {}, {1.0f})
      .InitF32("w", {2, 2, 1, 1}, {1.0f, 0.5f, -0.5f, 2.0f})
      .InitF32("w3", {2, 3, 1, 1}, {1.0f, 0.5f, -0.5f, 2.0f, 0.25f, 1.5f})
      .Output("y1", {1, 2, 7, 7})
      .Output("y2", {1, 2, 5, 5})
      .Output("y3", {1, 2, 5, 5})
      .Output("y4", {1, 2, 7, 7})
      .Output("y5", {1, 2, 7, 7})
      .Output("p5", {1, 2, 7, 7});
  b.Node("Pad", {"x", "p", "one"}, {"p1"}, "pad_value");
  b.Node("Conv", {"p1", "w"}, {"y1"}, "conv_value");
  b.Node("Pad", {"x", "p_chan"}, {"p2"}, "pad_chan");
  b.Node("Conv", {"p2", "w3"}, {"y2"}, "conv_chan");
  b.Node("Pad", {"x", "p_crop"}, {"p3"}, "pad_crop");
  b.Node("Conv", {"p3", "w"}, {"y3"}, "conv_crop");
  onnx::NodeProto& reflect = b.Node("Pad", {"x", "p"}, {"p4"}, "pad_reflect");
  onnx::AttributeProto* mode = reflect.add_attribute();
  mode->set_name("mode");
  mode->set_type(onnx::AttributeProto::STRING);
  mode->set_s("reflect");
  b.Node("Conv", {"p4", "w"}, {"y4"}, "conv_reflect");
  b.Node("Pad", {"x", "p"}, {"p5"}, "pad_shared");  // also a graph output
  b.Node("Conv", {"p5", "w"}, {"y5"}, "conv_shared");
  ExpectSameAsUnfused(b, "kept", {Ramp(50)});
  const std::vector<std::string> names = OpNames(Path("kept.om"));
  ASSERT_EQ(names.size(), 10u);
  for (const std::string& name : names) {
    EXPECT_EQ(name.find('+'), std::string::npos) << name;
  }
}

template <typename T>
void AddRawInit(OnnxBuilder& b, const std::string& name, int32_t elem,
                const std::vector<int64_t>& dims, const std::vector<T>& v) {
  onnx::TensorProto* t = b.model().mutable_graph()->add_initializer();
  t->set_name(name);
  t->set_data_type(elem);
  for (int64_t d : dims) t->add_dims(d);
  t->set_raw_data(std::string(reinterpret_cast<const char*>(v.data()),
                              v.size() * sizeof(T)));
}

// AMCT's int8 MobileNetV2: Pad -> AscendQuant -> int8 Conv -> AscendDequant
// -> Cast. Where the AscendQuant makes of the Pad's zero exactly the Conv's
// offset_x, the Pad merges into the Convs reading the AscendQuant (pads
// added to theirs, a depthwise strided one and a padded one sharing it) and
// the results are the unfused program's bit for bit. The Pad stays where
// AscendQuant(0) is not offset_x (offset 2.5, round_mode Ceil: 3 against
// 2), where the AscendQuant has a reader that is not a Conv, and where
// channels are padded.
TEST_F(AtcConvFusionTest, PadMergesThroughAscendQuantIntoInt8Convs) {
  const int64_t C = 3, H = 7, W = 6;
  auto graph = [&](float offset, const char* round_mode, bool other_reader,
                   bool pad_channels) {
    OnnxBuilder b;
    b.Input("x", {1, C, H, W})
        .InitI64("p", {8},
                 {0, 0, 0, 1, 0, pad_channels ? 1 : 0, 1, 1})  // TF "SAME"
        .InitF32("zero", {}, {0.0f});  // xp: [1, C (+1), 8, 8]
    if (!pad_channels) b.Output("y1", {1, C, 3, 3});
    b.Output("y2", {1, C, pad_channels ? 8 : 7, pad_channels ? 8 : 7});
    std::vector<int8_t> wd(C * 9), wf(C * (pad_channels ? C + 1 : C) * 9);
    for (size_t i = 0; i < wd.size(); ++i)
      wd[i] = static_cast<int8_t>(static_cast<int>((i * 37) % 255) - 127);
    for (size_t i = 0; i < wf.size(); ++i)
      wf[i] = static_cast<int8_t>(static_cast<int>((i * 53) % 251) - 125);
    const int64_t cin = pad_channels ? C + 1 : C;
    AddRawInit(b, "wd", onnx::TensorProto::INT8, {C, 1, 3, 3}, wd);
    AddRawInit(b, "wf", onnx::TensorProto::INT8, {C, cin, 3, 3}, wf);
    AddRawInit(b, "bias", onnx::TensorProto::INT32, {C},
               std::vector<int32_t>{100, -250, 7});
    std::vector<uint64_t> deq;
    for (float s : {0.0123f, -0.0007f, 0.25f}) {
      uint32_t bits;
      std::memcpy(&bits, &s, 4);
      deq.push_back(bits);
    }
    AddRawInit(b, "deq", onnx::TensorProto::UINT64, {C}, deq);
    b.Node("Pad", {"x", "p", "zero"}, {"xp"}, "pad");
    onnx::NodeProto& q = b.Node("AscendQuant", {"xp"}, {"xq"}, "quant");
    OnnxBuilder::AttrFloat(q, "scale", 20.0f);
    OnnxBuilder::AttrFloat(q, "offset", offset);
    onnx::AttributeProto* mode = q.add_attribute();
    mode->set_name("round_mode");
    mode->set_type(onnx::AttributeProto::STRING);
    mode->set_s(round_mode);
    if (pad_channels) {
      // One Conv over the padded channels.
      onnx::NodeProto& f = b.Node("Conv", {"xq", "wf", "bias"}, {"a2"}, "c2");
      OnnxBuilder::AttrInts(f, "pads", {1, 1, 1, 1});
    } else {
      onnx::NodeProto& dw = b.Node("Conv", {"xq", "wd", "bias"}, {"a1"}, "c1");
      OnnxBuilder::AttrInts(dw, "strides", {2, 2});
      OnnxBuilder::AttrInt(dw, "group", C);
      onnx::NodeProto& f = b.Node("Conv", {"xq", "wf"}, {"a2"}, "c2");
      OnnxBuilder::AttrInts(f, "pads", {1, 0, 0, 1});
      b.Node("AscendDequant", {"a1", "deq"}, {"h1"}, "dq1");
      onnx::NodeProto& c1 = b.Node("Cast", {"h1"}, {"y1"}, "cast1");
      OnnxBuilder::AttrInt(c1, "to", onnx::TensorProto::FLOAT);
    }
    b.Node("AscendDequant", {"a2", "deq"}, {"h2"}, "dq2");
    onnx::NodeProto& c2 = b.Node("Cast", {"h2"}, {"y2"}, "cast2");
    OnnxBuilder::AttrInt(c2, "to", onnx::TensorProto::FLOAT);
    if (other_reader) b.Output("xq", {1, C, 8, 8}, onnx::TensorProto::INT8);
    return b;
  };
  std::vector<float> x(C * H * W);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = -7.0f + 0.2937f * static_cast<float>((i * 13) % 61);
  x[0] = 100.0f;  // saturates
  x[1] = -100.0f;
  struct Case {
    const char* name;
    float offset;
    const char* round_mode;
    bool other_reader, pad_channels, merges;
  };
  const Case cases[] = {
      {"qpad", 3.0f, "Round", false, false, true},
      {"qpad_neg", -5.0f, "Floor", false, false, true},
      {"qpad_half", 2.5f, "Round", false, false, true},  // 2 both ways
      {"qpad_ceil", 2.5f, "Ceil", false, false, false},
      {"qpad_shared", 3.0f, "Round", true, false, false},
      {"qpad_chan", 3.0f, "Round", false, true, false},
  };
  for (const Case& k : cases) {
    const OnnxBuilder b =
        graph(k.offset, k.round_mode, k.other_reader, k.pad_channels);
    auto fused = CompileAndLoad(b, k.name);
    auto plain =
        CompileAndLoad(b, std::string(k.name) + "_plain", {FusionOff()});
    ASSERT_NE(fused, nullptr) << k.name;
    ASSERT_NE(plain, nullptr) << k.name;
    const std::vector<std::string> names =
        OpNames(Path(std::string(k.name) + ".om"));
    const bool has_pad =
        std::find(names.begin(), names.end(), "Pad:pad") != names.end();
    EXPECT_EQ(has_pad, !k.merges) << k.name;
    if (k.merges) {
      EXPECT_NE(std::find(names.begin(), names.end(), "AscendQuant:pad+quant"),
                names.end())
          << k.name;
    }
    const std::vector<std::string> plain_names =
        OpNames(Path(std::string(k.name) + "_plain.om"));
    EXPECT_NE(std::find(plain_names.begin(), plain_names.end(), "Pad:pad"),
              plain_names.end());
    if (k.other_reader) continue;  // an int8 output: RunFloat reads floats
    const auto want = RunFloat(*plain, {x});
    const auto got = RunFloat(*fused, {x});
    ASSERT_EQ(got.size(), want.size()) << k.name;
    for (size_t o = 0; o < got.size(); ++o) {
      ASSERT_EQ(got[o].size(), want[o].size());
      for (size_t i = 0; i < got[o].size(); ++i)
        ASSERT_EQ(got[o][i], want[o][i])
            << k.name << " output " << o << " at " << i;
    }
  }
}

// MobileNetV2's inverted residual block as the lowering emits it: ReLU6 is
// Clip(0, 6) with constant bounds and fuses as the activation, so the three
// Convs are neighbours (the loader then keeps their activations NHWC and
// runs the depthwise one on oneDNN); results as unfused, values on both
// sides of both bounds. A Clip with only a max (min absent) fuses too.
TEST_F(AtcConvFusionTest, Relu6ClipFusesIntoTheConvBeforeIt) {
  const int64_t C = 16, E = 32, H = 6, W = 5;
  OnnxBuilder b;
  b.Input("x", {1, C, H, W})
      .InitF32("we", {E, C, 1, 1}, Ramp(E * C, 0.09f, -0.9f))
      .InitF32("se", {E, 1, 1}, Ramp(E, 0.3f, -1.0f))
      .InitF32("te", {E, 1, 1}, Ramp(E, 0.5f, -2.0f))
      .InitF32("wd", {E, 1, 3, 3}, Ramp(E * 9, 0.2f, -1.5f))
      .InitF32("bd", {E}, Ramp(E, 0.4f, -3.0f))
      .InitF32("wp", {C, E, 1, 1}, Ramp(C * E, 0.05f, -0.5f))
      .InitF32("lo", {}, {0.0f})
      .InitF32("hi", {}, {6.0f})
      .InitF32("cap", {1}, {2.5f})
      .Output("y", {1, C, H, W});
  b.Node("Conv", {"x", "we"}, {"e"}, "conv_e");
  b.Node("Mul", {"e", "se"}, {"em"}, "mul_e");
  b.Node("Add", {"em", "te"}, {"ea"}, "add_e");
  b.Node("Clip", {"ea", "lo", "hi"}, {"ec"}, "clip_e");
  onnx::NodeProto& dw = b.Node("Conv", {"ec", "wd", "bd"}, {"d"}, "conv_d");
  OnnxBuilder::AttrInt(dw, "group", E);
  OnnxBuilder::AttrInts(dw, "pads", {1, 1, 1, 1});
  b.Node("Clip", {"d", "", "cap"}, {"dc"}, "clip_d");
  b.Node("Conv", {"dc", "wp"}, {"p"}, "conv_p");
  b.Node("Add", {"p", "x"}, {"y"}, "add_r");
  ExpectSameAsUnfused(b, "relu6", {Ramp(C * H * W, 0.4f, -4.0f)});
  EXPECT_EQ(OpNames(Path("relu6.om")),
            (std::vector<std::string>{"FusedConv:conv_e+mul_e+add_e+clip_e",
                                      "FusedConv:conv_d+clip_d",
                                      "FusedConv:conv_p+add_r"}));
}

// A Clip stays apart where its bounds are not constants known to atc, or
// after a Conv that already has its activation.
TEST_F(AtcConvFusionTest, ClipWithComputedBoundStaysApart) {
  OnnxBuilder b;
  b.Input("x", {1, 2, 4, 4})
      .Input("lo", {})
      .InitF32("w", {2, 2, 1, 1}, {1.0f, 0.5f, -0.5f, 2.0f})
      .InitF32("hi", {}, {0.5f})
      .Output("y", {1, 2, 4, 4})
      .Output("v", {1, 2, 4, 4});
  b.Node("Conv", {"x", "w"}, {"c"}, "conv_a");
  b.Node("Clip", {"c", "lo", "hi"}, {"y"}, "clip_a");  // min is an input
  b.Node("Conv", {"x", "w"}, {"d"}, "conv_b");
  b.Node("Relu", {"d"}, {"e"}, "relu_b");
  b.Node("Clip", {"e", "", "hi"}, {"v"}, "clip_b");  // after the activation
  auto fused = CompileAndLoad(b, "computed");
  ASSERT_NE(fused, nullptr);
  EXPECT_EQ(
      OpNames(Path("computed.om")),
      (std::vector<std::string>{"Conv:conv_a", "Clip:clip_a",
                                "FusedConv:conv_b+relu_b", "Clip:clip_b"}));
}

// SiLU as the lowering emits it, Mul(x, Sigmoid(x)) in either operand
// order, becomes one Swish op with the unfused program's results bit for bit
// (infinities, NaN and the Sigmoid's tiny tail among the inputs); the
// squeeze-and-excitation gate Mul(z, Sigmoid(x)), a Sigmoid with a second
// reader and a Sigmoid that is a graph output stay apart; a Conv's output
// can feed the Swish (EfficientNet: Conv, BatchNormalization, SiLU).
TEST_F(AtcConvFusionTest, SigmoidTimesItsInputFusesIntoSwish) {
  const int64_t C = 3, H = 5, W = 7, N = C * H * W;
  OnnxBuilder b;
  b.Input("x", {1, C, H, W})
      .Input("z", {1, C, H, W})
      .InitF32("w", {C, C, 1, 1}, Ramp(C * C, 0.4f, -1.5f))
      .Output("y1", {1, C, H, W})
      .Output("y2", {1, C, H, W})
      .Output("y3", {1, C, H, W})
      .Output("y4", {1, C, H, W})
      .Output("s4", {1, C, H, W});
  b.Node("Sigmoid", {"x"}, {"s1"}, "sig1");
  b.Node("Mul", {"x", "s1"}, {"y1"}, "mul1");
  b.Node("Conv", {"x", "w"}, {"c"}, "conv");
  b.Node("Sigmoid", {"c"}, {"s2"}, "sig2");
  b.Node("Mul", {"s2", "c"}, {"m2"}, "mul2");  // Sigmoid's output first
  b.Node("Sigmoid", {"m2"}, {"s3"}, "sig3");
  b.Node("Mul", {"z", "s3"}, {"y3"}, "gate");  // not its own input: apart
  b.Node("Add", {"m2", "z"}, {"y2"}, "add");
  b.Node("Sigmoid", {"z"}, {"s4"}, "sig4");  // a graph output: apart
  b.Node("Mul", {"z", "s4"}, {"y4"}, "mul4");
  std::vector<float> x = Ramp(N, 0.9f, -30.0f);
  const float inf = std::numeric_limits<float>::infinity();
  x[0] = inf;
  x[1] = -inf;
  x[2] = std::nanf("");
  x[3] = -100.0f;
  x[4] = -0.0f;
  const std::vector<float> z = Ramp(N, -0.2f, 6.0f);
  auto fused = CompileAndLoad(b, "silu");
  auto plain = CompileAndLoad(b, "silu_plain", {FusionOff()});
  ASSERT_NE(fused, nullptr);
  ASSERT_NE(plain, nullptr);
  EXPECT_EQ(
      OpNames(Path("silu.om")),
      (std::vector<std::string>{"Swish:sig1+mul1", "Conv:conv",
                                "Swish:sig2+mul2", "Sigmoid:sig3", "Mul:gate",
                                "Add:add", "Sigmoid:sig4", "Mul:mul4"}));
  const auto want = RunFloat(*plain, {x, z});
  const auto got = RunFloat(*fused, {x, z});
  ASSERT_EQ(got.size(), want.size());
  for (size_t o = 0; o < got.size(); ++o) {
    ASSERT_EQ(got[o].size(), want[o].size());
    for (size_t i = 0; i < got[o].size(); ++i) {
      if (std::isnan(want[o][i])) {
        EXPECT_TRUE(std::isnan(got[o][i])) << "output " << o << " at " << i;
      } else {
        EXPECT_EQ(std::memcmp(&got[o][i], &want[o][i], sizeof(float)), 0)
            << "output " << o << " at " << i << ": " << got[o][i] << " vs "
            << want[o][i];
      }
    }
  }
}

// A precision mode that rounds each op's output keeps every op apart (the
// rounding between them is part of the result).
TEST_F(AtcConvFusionTest, RoundingPrecisionModeKeepsOpsApart) {
  OnnxBuilder b;
  b.Input("x", {1, 2, 3, 3})
      .InitF32("w", {2, 2, 1, 1}, {1.0f, 0.5f, -0.5f, 2.0f})
      .Output("y", {1, 2, 3, 3});
  b.Node("Conv", {"x", "w"}, {"c"}, "conv");
  b.Node("Relu", {"c"}, {"y"}, "relu");
  AtcResult r = Compile(b, "fp16", {"--precision_mode=force_fp16"});
  ASSERT_EQ(r.code, 0) << r.err;
  for (const std::string& name : OpNames(Path("fp16.om"))) {
    EXPECT_EQ(name.find('+'), std::string::npos) << name;
  }
}

}  // namespace
}  // namespace testing
}  // namespace ascend_emu
