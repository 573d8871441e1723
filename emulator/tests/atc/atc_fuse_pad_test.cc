// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// atc's Pad fusions (fuse_pad.cc, docs/atc.md "Conv fusions"): a constant
// Pad by zero of the spatial dims merges into the Conv reading it, also
// through the AscendQuant before an int8 Conv; it stays where it is not
// the Conv's padding.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "atc_fusion_fixture.h"

namespace ascend_emu {
namespace testing {
namespace {

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

}  // namespace
}  // namespace testing
}  // namespace ascend_emu
