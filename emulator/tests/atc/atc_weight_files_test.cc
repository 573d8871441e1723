// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// --external_weight=1|2 at the level of the compiled Program: which constants
// become FileConstants, how WeightFiles lays them out and names them, what it
// writes and what it removes again (docs/atc.md, "--external_weight").
#include <dirent.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "atc_test_util.h"
#include "graph_compiler.h"
#include "onnx_loader.h"
#include "sha256.h"
#include "weight_files.h"

namespace ascend_emu {
namespace {

using testing::OnnxBuilder;

const std::vector<float> kW = testing::Ramp(12);             // [3, 4]
const std::vector<float> kB = testing::Ramp(4, 0.5f, 1.0f);  // [4]
const std::vector<float> kC = testing::Ramp(4, 0.3f, 2.0f);  // [4], inline

std::string Sha256Hex(const std::string& bytes) {
  atc::Sha256 hash;
  hash.Update(bytes.data(), bytes.size());
  return hash.HexDigest();
}

std::string ReadString(const std::string& path) {
  const std::vector<uint8_t> b = testing::ReadBytes(path);
  return std::string(b.begin(), b.end());
}

std::vector<std::string> List(const std::string& dir) {
  std::vector<std::string> names;
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return names;
  while (const dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name != "." && name != "..") names.push_back(name);
  }
  ::closedir(d);
  std::sort(names.begin(), names.end());
  return names;
}

TEST(AtcSha256, MatchesTheStandardTestVectorStreamedOrNot) {
  const std::string abc_hex =
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
  EXPECT_EQ(Sha256Hex("abc"), abc_hex);
  atc::Sha256 pieces;
  pieces.Update("a", 1);
  pieces.Update("", 0);
  pieces.Update("bc", 2);
  EXPECT_EQ(pieces.HexDigest(), abc_hex);
  EXPECT_EQ(Sha256Hex(""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

// y = (x @ W + B) + B2 + C: W, B and B2 external (B2 holds B's bytes at
// another offset of the file), C inline.
class AtcWeightFiles : public testing::AtcTest {
 protected:
  void SetUp() override {
    testing::AtcTest::SetUp();
    WriteFile("m.data", testing::AsBytes(kW) + std::string(16, '\0') +
                            testing::AsBytes(kB) + testing::AsBytes(kB));
    model_.Input("x", {2, 3}).Output("y", {2, 4});
    model_.InitExternal("W", onnx::TensorProto::FLOAT, {3, 4},
                        {{"location", "m.data"}, {"length", "48"}});
    model_.InitExternal(
        "B", onnx::TensorProto::FLOAT, {4},
        {{"location", "m.data"}, {"offset", "64"}, {"length", "16"}});
    model_.InitExternal(
        "B2", onnx::TensorProto::FLOAT, {4},
        {{"location", "m.data"}, {"offset", "80"}, {"length", "16"}});
    model_.InitF32("C", {4}, kC);
    model_.Node("MatMul", {"x", "W"}, {"m"});
    model_.Node("Add", {"m", "B"}, {"a"});
    model_.Node("Add", {"a", "B2"}, {"b"});
    model_.Node("Add", {"b", "C"}, {"y"});
    model_.Save(Path("m.onnx"));
  }

  // Compiles m.onnx with --external_weight=mode and places its weight files
  // into weight/ (write) or only names them.
  void Build(int mode, bool write, atc::WeightFiles* files) {
    atc::AtcOptions options;
    options.framework = 5;
    options.model = Path("m.onnx");
    options.output = Path("net");
    options.soc_version = "Ascend910B1";
    options.precision_mode = "must_keep_origin_dtype";
    options.external_weight = mode;
    onnx::ModelProto model;
    int64_t opset = 0;
    ASSERT_EQ(atc::LoadOnnxModel(options, &model, &opset, &external_), "");
    std::vector<atc::PendingFileConstant> pending;
    ASSERT_EQ(atc::CompileGraph(model, opset, options, external_, &program_,
                                &pending),
              "");
    num_file_constants_ = pending.size();
    EXPECT_EQ(atc::WeightDirFor(atc::OmPathFor(options.output)),
              Path("weight"));
    ASSERT_EQ(files->Place(mode, pending, Path("weight"), write, &program_),
              "");
  }

  const TensorInfo& Tensor(const std::string& name) const {
    for (const TensorInfo& t : program_.tensors) {
      if (t.name == name) return t;
    }
    ADD_FAILURE() << "no tensor " << name;
    return program_.tensors.at(0);
  }

  OnnxBuilder model_;
  atc::ExternalData external_;
  Program program_;
  size_t num_file_constants_ = 0;
};

TEST_F(AtcWeightFiles, Mode0InlinesEverything) {
  atc::WeightFiles files;
  ASSERT_NO_FATAL_FAILURE(Build(0, true, &files));
  EXPECT_EQ(num_file_constants_, 0u);
  EXPECT_TRUE(program_.external_weights.empty());
  for (const char* name : {"W", "B", "B2", "C"}) {
    EXPECT_EQ(Tensor(name).location, TensorLocation::kWeight) << name;
  }
  // 48 -> 64, 16 -> 64, 16 -> 64, 16.
  EXPECT_EQ(program_.weights.size(), 64u * 3 + 16);
  EXPECT_FALSE(testing::FileExists(Path("weight")));
}

TEST_F(AtcWeightFiles, Mode1WritesOneFilePerDistinctContentNamedByIt) {
  atc::WeightFiles files;
  ASSERT_NO_FATAL_FAILURE(Build(1, true, &files));
  files.Commit();
  EXPECT_EQ(num_file_constants_, 3u);
  const std::string w_name = "weight_" + Sha256Hex(testing::AsBytes(kW));
  const std::string b_name = "weight_" + Sha256Hex(testing::AsBytes(kB));
  // B and B2 hold the same bytes: one file.
  EXPECT_EQ(List(Path("weight")),
            (std::vector<std::string>{std::min(w_name, b_name),
                                      std::max(w_name, b_name)}));
  EXPECT_EQ(ReadString(Path("weight/" + w_name)), testing::AsBytes(kW));
  EXPECT_EQ(ReadString(Path("weight/" + b_name)), testing::AsBytes(kB));

  ASSERT_EQ(program_.external_weights.size(), 2u);
  EXPECT_EQ(program_.external_weights[0].name, w_name);
  EXPECT_EQ(program_.external_weights[0].size_bytes, 48u);
  EXPECT_EQ(program_.external_weights[1].name, b_name);
  EXPECT_EQ(program_.external_weights[1].size_bytes, 16u);
  EXPECT_EQ(files.paths(),
            (std::vector<std::string>{Path("weight/" + w_name),
                                      Path("weight/" + b_name)}));

  EXPECT_EQ(Tensor("W").location, TensorLocation::kExternal);
  EXPECT_EQ(Tensor("W").file, 0u);
  EXPECT_EQ(Tensor("W").offset, 0u);
  for (const char* name : {"B", "B2"}) {
    EXPECT_EQ(Tensor(name).location, TensorLocation::kExternal) << name;
    EXPECT_EQ(Tensor(name).file, 1u) << name;
    EXPECT_EQ(Tensor(name).offset, 0u) << name;
  }
  // The inline initializer stays in the .om, and only it.
  EXPECT_EQ(Tensor("C").location, TensorLocation::kWeight);
  EXPECT_EQ(program_.weights.size(), 16u);
  EXPECT_EQ(ReadString(Path("m.data")).size(), 96u);  // the input untouched
}

TEST_F(AtcWeightFiles, Mode2WritesOneCombinedFileAtAlignedOffsets) {
  atc::WeightFiles files;
  ASSERT_NO_FATAL_FAILURE(Build(2, true, &files));
  files.Commit();
  // W at 0, B at 64, B2 at 128: every constant, 64-byte aligned, zeros
  // between them.
  const std::string expected = testing::AsBytes(kW) + std::string(16, '\0') +
                               testing::AsBytes(kB) + std::string(48, '\0') +
                               testing::AsBytes(kB);
  const std::string name = "weight_combined_" + Sha256Hex(expected);
  EXPECT_EQ(List(Path("weight")), (std::vector<std::string>{name}));
  EXPECT_EQ(ReadString(Path("weight/" + name)), expected);
  ASSERT_EQ(program_.external_weights.size(), 1u);
  EXPECT_EQ(program_.external_weights[0].name, name);
  EXPECT_EQ(program_.external_weights[0].size_bytes, expected.size());
  const std::pair<const char*, uint64_t> offsets[] = {
      {"W", 0}, {"B", 64}, {"B2", 128}};
  for (const auto& [tensor, offset] : offsets) {
    EXPECT_EQ(Tensor(tensor).location, TensorLocation::kExternal) << tensor;
    EXPECT_EQ(Tensor(tensor).file, 0u) << tensor;
    EXPECT_EQ(Tensor(tensor).offset, offset) << tensor;
  }
  EXPECT_EQ(Tensor("C").location, TensorLocation::kWeight);
  EXPECT_EQ(program_.weights.size(), 16u);
}

TEST_F(AtcWeightFiles, PreCheckNamesTheFilesButWritesNothing) {
  for (int mode : {1, 2}) {
    std::vector<ExternalWeightDesc> written;
    {
      atc::WeightFiles files;
      ASSERT_NO_FATAL_FAILURE(Build(mode, true, &files));
      written = program_.external_weights;
    }  // not committed: removed again
    atc::WeightFiles files;
    ASSERT_NO_FATAL_FAILURE(Build(mode, false, &files));
    EXPECT_FALSE(testing::FileExists(Path("weight"))) << mode;
    ASSERT_EQ(program_.external_weights.size(), written.size()) << mode;
    for (size_t i = 0; i < written.size(); ++i) {
      EXPECT_EQ(program_.external_weights[i].name, written[i].name);
      EXPECT_EQ(program_.external_weights[i].size_bytes, written[i].size_bytes);
    }
  }
}

TEST_F(AtcWeightFiles, AnUncommittedRunRemovesWhatItCreatedOnly) {
  // A file another .om in the same folder uses: same name, so same bytes.
  ASSERT_EQ(::mkdir(Path("weight").c_str(), 0755), 0);
  const std::string b_name = "weight_" + Sha256Hex(testing::AsBytes(kB));
  WriteFile("weight/" + b_name, testing::AsBytes(kB));
  WriteFile("weight/other", "x");
  {
    atc::WeightFiles files;
    ASSERT_NO_FATAL_FAILURE(Build(1, true, &files));
    EXPECT_EQ(List(Path("weight")).size(), 3u);
  }
  EXPECT_EQ(List(Path("weight")), (std::vector<std::string>{"other", b_name}));

  // A folder the run created goes too.
  ASSERT_EQ(std::system(("rm -rf '" + Path("weight") + "'").c_str()), 0);
  {
    atc::WeightFiles files;
    ASSERT_NO_FATAL_FAILURE(Build(2, true, &files));
    EXPECT_EQ(List(Path("weight")).size(), 1u);
  }
  EXPECT_FALSE(testing::FileExists(Path("weight")));
}

TEST_F(AtcWeightFiles, RefusesAWeightPathThatIsNotAFolder) {
  WriteFile("weight", "not a folder");
  atc::WeightFiles files;
  Program program;
  const uint8_t byte = 1;
  program.tensors.resize(1);
  const std::string err = files.Place(1, {{0, {&byte, 1, nullptr}}},
                                      Path("weight"), true, &program);
  EXPECT_EQ(err, "cannot create the weight folder '" + Path("weight") +
                     "': it exists and is not a folder");
}

}  // namespace
}  // namespace ascend_emu
