// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// atc --external_weight end to end: compile, bind the weight files the .om
// names (mapped from weight/ beside it), run, and compare with the
// --external_weight=0 build of the same model.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <memory>
#include <string>
#include <vector>

#include "ascend_emu/model.h"
#include "atc_test_util.h"
#include "mapped_file.h"
#include "weight_files.h"

namespace ascend_emu {
namespace {

using testing::AtcResult;
using testing::OnnxBuilder;

const std::vector<float> kW = testing::Ramp(12);             // [3, 4]
const std::vector<float> kB = testing::Ramp(4, 0.5f, 1.0f);  // [4]
const std::vector<float> kC = testing::Ramp(4, 0.3f, 2.0f);  // [4], inline
const std::vector<int64_t> kShape = {4, 2};

// y = Reshape(((x @ W + B) + B2) + C, S): W, B, B2 (B's bytes again) and the
// shape S stored as external data in `data` (written by the fixture), C
// inline. S is a FileConstant whose value Infer needs at compile and at load.
OnnxBuilder ExternalModel(const std::string& data) {
  OnnxBuilder m;
  m.Input("x", {2, 3}).Output("y", {4, 2});
  m.InitExternal("W", onnx::TensorProto::FLOAT, {3, 4},
                 {{"location", data}, {"length", "48"}});
  m.InitExternal("B", onnx::TensorProto::FLOAT, {4},
                 {{"location", data}, {"offset", "64"}, {"length", "16"}});
  m.InitExternal("B2", onnx::TensorProto::FLOAT, {4},
                 {{"location", data}, {"offset", "80"}, {"length", "16"}});
  m.InitExternal("S", onnx::TensorProto::INT64, {2},
                 {{"location", data}, {"offset", "96"}, {"length", "16"}});
  m.InitF32("C", {4}, kC);
  m.Node("MatMul", {"x", "W"}, {"m"});
  m.Node("Add", {"m", "B"}, {"a"});
  m.Node("Add", {"a", "B2"}, {"b"});
  m.Node("Add", {"b", "C"}, {"c"});
  m.Node("Reshape", {"c", "S"}, {"y"});
  return m;
}

std::string DataFile() {
  return testing::AsBytes(kW) + std::string(16, '\0') + testing::AsBytes(kB) +
         testing::AsBytes(kB) + testing::AsBytes(kShape);
}

class AtcExternalWeight : public testing::AtcTest {
 protected:
  void SetUp() override {
    testing::AtcTest::SetUp();
    WriteFile("m.data", DataFile());
  }

  // Loads Path(name + ".om"), binding every weight file it names to that
  // file in weight/ beside it, mapped read-only (as a loader given
  // ACL_MDL_WEIGHT_PATH_PTR would).
  std::unique_ptr<Model> Load(const std::string& name) {
    const std::string om_path = Path(name + ".om");
    const std::vector<uint8_t> om = testing::ReadBytes(om_path);
    std::vector<ExternalWeightDesc> files;
    std::string error;
    EXPECT_TRUE(
        Model::ReadExternalWeights(om.data(), om.size(), &files, &error))
        << error;
    WeightBindings bindings;
    for (const ExternalWeightDesc& f : files) {
      const std::string path = atc::WeightDirFor(om_path) + "/" + f.name;
      mapped_.push_back(atc::MappedFile::Open(path, &error));
      EXPECT_NE(mapped_.back(), nullptr) << error;
      if (mapped_.back() == nullptr) return nullptr;
      EXPECT_EQ(mapped_.back()->size(), f.size_bytes) << f.name;
      bindings[f.name] = {mapped_.back()->data(), mapped_.back()->size()};
    }
    auto model = Model::Load(om.data(), om.size(), bindings, &error);
    EXPECT_NE(model, nullptr) << error;
    return model;
  }

  std::unique_ptr<Model> Build(const std::string& name, int mode) {
    const AtcResult r = Compile(ExternalModel("m.data"), name,
                                {"--external_weight=" + std::to_string(mode)});
    EXPECT_EQ(r.code, 0) << r.err;
    return r.code == 0 ? Load(name) : nullptr;
  }

  std::vector<std::unique_ptr<atc::MappedFile>> mapped_;  // outlive models
};

TEST_F(AtcExternalWeight, Modes1And2RunExactlyLikeMode0) {
  auto inline_model = Build("m0", 0);
  ASSERT_NE(inline_model, nullptr);
  EXPECT_TRUE(inline_model->external_weights().empty());
  const std::vector<float> x = testing::Ramp(6, 0.25f, -0.5f);
  const auto expected = testing::RunFloat(*inline_model, {x});
  for (int mode : {1, 2}) {
    auto model = Build("m" + std::to_string(mode), mode);
    ASSERT_NE(model, nullptr) << mode;
    EXPECT_EQ(model->outputs()[0].shape.dims[0], 4);
    EXPECT_EQ(testing::RunFloat(*model, {x}), expected) << mode;
  }
}

TEST_F(AtcExternalWeight, TheOmHoldsNoBytesOfExternalConstants) {
  auto m0 = Build("m0", 0);
  auto m1 = Build("m1", 1);
  auto m2 = Build("m2", 2);
  ASSERT_TRUE(m0 && m1 && m2);
  // Mode 0: W (48 -> 64), B, B2, S (16 -> 64 each), C (16). Modes 1 and 2:
  // only C, the initializer the ONNX model holds inline.
  EXPECT_EQ(m0->weight_size(), 64u * 4 + 16);
  EXPECT_EQ(m1->weight_size(), 16u);
  EXPECT_EQ(m2->weight_size(), 16u);
  // Mode 1: W, B (= B2) and S in three files; mode 2: one.
  EXPECT_EQ(m1->external_weights().size(), 3u);
  EXPECT_EQ(m2->external_weights().size(), 1u);
  const std::string w = testing::AsBytes(kW);
  for (const char* om : {"m1.om", "m2.om"}) {
    const std::vector<uint8_t> image = testing::ReadBytes(Path(om));
    EXPECT_EQ(std::string(image.begin(), image.end()).find(w),
              std::string::npos)
        << om;
  }
  const std::vector<uint8_t> image0 = testing::ReadBytes(Path("m0.om"));
  EXPECT_NE(std::string(image0.begin(), image0.end()).find(w),
            std::string::npos);
}

TEST_F(AtcExternalWeight, WithoutExternalDataEverythingStaysInTheOm) {
  OnnxBuilder m;
  m.Input("x", {4}).Output("y", {4});
  m.InitF32("C", {4}, kC);
  m.Node("Add", {"x", "C"}, {"y"});
  ASSERT_EQ(Compile(m, "plain0").code, 0);
  const AtcResult r = Compile(m, "plain1", {"--external_weight=1"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_FALSE(testing::FileExists(Path("weight")));
  EXPECT_EQ(testing::ReadBytes(Path("plain1.om")),
            testing::ReadBytes(Path("plain0.om")));
}

TEST_F(AtcExternalWeight, PartitionsShareTheWeightFolder) {
  ASSERT_NE(Build("part0", 1), nullptr);
  ASSERT_NE(Build("part1", 1), nullptr);  // same weights: same files
  struct stat st;
  ASSERT_EQ(::stat(Path("weight").c_str(), &st), 0);
  auto part0 = Load("part0");
  ASSERT_NE(part0, nullptr);
  EXPECT_EQ(part0->external_weights().size(), 3u);
}

TEST_F(AtcExternalWeight, AGraphOutputThatIsAFileConstantIsCopiedFromItsFile) {
  OnnxBuilder m;
  m.Input("x", {4}).Output("y", {4}).Output("b", {4});
  m.InitExternal("b", onnx::TensorProto::FLOAT, {4},
                 {{"location", "m.data"}, {"offset", "64"}, {"length", "16"}});
  m.Node("Add", {"x", "b"}, {"y"});
  ASSERT_EQ(Compile(m, "out", {"--external_weight=2"}).code, 0);
  auto model = Load("out");
  ASSERT_NE(model, nullptr);
  const auto outputs = testing::RunFloat(*model, {{0, 0, 0, 0}});
  EXPECT_EQ(outputs[0], kB);
  EXPECT_EQ(outputs[1], kB);
}

TEST_F(AtcExternalWeight, PreCheckWritesNothing) {
  const AtcResult r = Compile(ExternalModel("m.data"), "m",
                              {"--external_weight=2", "--mode=3"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_FALSE(testing::FileExists(Path("m.om")));
  EXPECT_FALSE(testing::FileExists(Path("weight")));
}

TEST_F(AtcExternalWeight, AFailedRunRemovesTheWeightFilesItWrote) {
  // The .om cannot be renamed into place: a folder holds its name.
  ASSERT_EQ(::mkdir(Path("m.om").c_str(), 0755), 0);
  for (int mode : {1, 2}) {
    const AtcResult r = Compile(ExternalModel("m.data"), "m",
                                {"--external_weight=" + std::to_string(mode)});
    EXPECT_EQ(r.code, atc::kAtcFailureExit) << mode;
    EXPECT_NE(r.err.find("ATC run failed: cannot write '" + Path("m.om")),
              std::string::npos)
        << r.err;
    EXPECT_FALSE(testing::FileExists(Path("weight"))) << mode;
  }
}

TEST_F(AtcExternalWeight, RefusesAnUnknownMode) {
  const AtcResult r =
      Compile(ExternalModel("m.data"), "m", {"--external_weight=3"});
  EXPECT_EQ(r.code, atc::kAtcFailureExit);
  // CANN's E10006 (its text names 0 and 1 only; the emulator adds 2).
  EXPECT_NE(r.err.find("ATC run failed: Value 3 for parameter "
                       "--external_weight is invalid. The value must be "
                       "either 1 or 0. (--external_weight takes 0, 1 or 2)"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(testing::FileExists(Path("m.om")));
}

}  // namespace
}  // namespace ascend_emu

namespace ascend_emu {
namespace {

// A precision mode rounds external constants too: the weight files then hold
// atc's rounded bytes, which must outlive the graph compiler that made them
// (until this test, they were read after being freed).
TEST_F(AtcExternalWeight, PrecisionModeRoundsWeightFilesLikeInlineWeights) {
  auto build = [&](const std::string& name, int mode) {
    ExternalModel("m.data").Save(Path(name + ".onnx"));
    const AtcResult r = testing::RunAtcArgs(
        {"--framework=5", "--model=" + Path(name + ".onnx"),
         "--output=" + Path(name), "--soc_version=Ascend910B1",
         "--precision_mode=force_fp16",
         "--external_weight=" + std::to_string(mode)});
    EXPECT_EQ(r.code, 0) << r.err;
    return r.code == 0 ? Load(name) : nullptr;
  };
  auto inline_model = build("p0", 0);
  ASSERT_NE(inline_model, nullptr);
  const std::vector<float> x = testing::Ramp(6, 0.25f, -0.5f);
  const auto expected = testing::RunFloat(*inline_model, {x});
  auto model = build("p1", 1);
  ASSERT_NE(model, nullptr);
  EXPECT_FALSE(model->external_weights().empty());
  EXPECT_EQ(testing::RunFloat(*model, {x}), expected);
}

}  // namespace
}  // namespace ascend_emu
