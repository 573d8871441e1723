// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// atc reading ONNX external data (docs/atc.md, "ONNX external data"): the
// bytes it reads, and every location, range and entry it refuses.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "atc_test_util.h"

namespace ascend_emu {
namespace {

using testing::AtcResult;
using testing::OnnxBuilder;
using Entries = std::vector<std::pair<std::string, std::string>>;

const std::vector<float> kW = testing::Ramp(12);             // [3, 4]
const std::vector<float> kB = testing::Ramp(4, 0.5f, 1.0f);  // [4]

std::string Bytes(const std::vector<float>& v) { return testing::AsBytes(v); }

// y = x @ W + B, x [2, 3]; W and B inline, or external with these entries.
OnnxBuilder Linear(const Entries* w, const Entries* b) {
  OnnxBuilder m;
  m.Input("x", {2, 3}).Output("y", {2, 4});
  if (w != nullptr) {
    m.InitExternal("W", onnx::TensorProto::FLOAT, {3, 4}, *w);
  } else {
    m.InitF32("W", {3, 4}, kW);
  }
  if (b != nullptr) {
    m.InitExternal("B", onnx::TensorProto::FLOAT, {4}, *b);
  } else {
    m.InitF32("B", {4}, kB);
  }
  m.Node("MatMul", {"x", "W"}, {"m"});
  m.Node("Add", {"m", "B"}, {"y"});
  return m;
}

class AtcExternalData : public testing::AtcTest {
 protected:
  void MakeDir(const std::string& name) {
    ASSERT_EQ(::mkdir(Path(name).c_str(), 0755), 0);
  }
  void Link(const std::string& target, const std::string& name) {
    ASSERT_EQ(::symlink(target.c_str(), Path(name).c_str()), 0);
  }
  // Compiles `m` and expects atc to refuse it with `reason`, writing nothing.
  void ExpectRefused(const OnnxBuilder& m, const std::string& name,
                     const std::string& reason) {
    const AtcResult r = Compile(m, name);
    EXPECT_EQ(r.code, atc::kAtcFailureExit);
    EXPECT_NE(r.err.find("ATC run failed: " + reason), std::string::npos)
        << r.err;
    EXPECT_FALSE(testing::FileExists(Path(name + ".om")));
  }
};

TEST_F(AtcExternalData, ReadsTheSameBytesAsInlineData) {
  // One file, B at a 64-byte offset after W (48 bytes) and padding.
  WriteFile("weights.bin", Bytes(kW) + std::string(16, '\x7f') + Bytes(kB));
  const Entries w = {
      {"location", "weights.bin"}, {"offset", "0"}, {"length", "48"}};
  const Entries b = {
      {"location", "weights.bin"}, {"offset", "64"}, {"length", "16"}};
  auto external = CompileAndLoad(Linear(&w, &b), "external");
  auto inline_model = CompileAndLoad(Linear(nullptr, nullptr), "inline");
  ASSERT_NE(external, nullptr);
  ASSERT_NE(inline_model, nullptr);
  // --external_weight=0 (the default) puts the bytes into the .om: the
  // same .om as from the inline model, byte for byte.
  EXPECT_EQ(testing::ReadBytes(Path("external.om")),
            testing::ReadBytes(Path("inline.om")));
  const std::vector<float> x = testing::Ramp(6, 0.25f, -0.5f);
  EXPECT_EQ(testing::RunFloat(*external, {x}),
            testing::RunFloat(*inline_model, {x}));
}

TEST_F(AtcExternalData, OffsetDefaultsToZeroAndLengthToTheEndOfTheFile) {
  WriteFile("w.bin", Bytes(kW));
  WriteFile("b.bin", std::string(32, '\0') + Bytes(kB));
  const Entries w = {{"location", "w.bin"}};
  const Entries b = {{"offset", "32"}, {"location", "b.bin"}};
  auto model = CompileAndLoad(Linear(&w, &b), "m");
  ASSERT_NE(model, nullptr);
  auto inline_model = CompileAndLoad(Linear(nullptr, nullptr), "inline");
  const std::vector<float> x = testing::Ramp(6);
  EXPECT_EQ(testing::RunFloat(*model, {x}),
            testing::RunFloat(*inline_model, {x}));
}

TEST_F(AtcExternalData, IgnoresChecksumAndUnknownKeys) {
  WriteFile("w.bin", Bytes(kW));
  // ONNX's checksum is a SHA-1 of the whole file that ONNX's own loader
  // never verifies; atc does not either.
  const Entries w = {{"location", "w.bin"},
                     {"checksum", "not-a-sha1"},
                     {"basepath", "/elsewhere"},
                     {"future_key", "x"}};
  EXPECT_NE(CompileAndLoad(Linear(&w, nullptr), "m"), nullptr);
}

TEST_F(AtcExternalData, FollowsSymlinksThatStayInsideTheModelsFolder) {
  MakeDir("data");
  WriteFile("data/real.bin", Bytes(kW));
  Link("data/real.bin", "alias.bin");
  const Entries w = {{"location", "alias.bin"}};
  const Entries nested = {{"location", "data/real.bin"}};
  EXPECT_NE(CompileAndLoad(Linear(&w, nullptr), "alias"), nullptr);
  EXPECT_NE(CompileAndLoad(Linear(&nested, nullptr), "nested"), nullptr);
}

// A constant Infer reads at compile time (Reshape's shape), stored as
// external data at an offset that leaves it misaligned in the mapping.
TEST_F(AtcExternalData, ShapeTensorsWorkFromExternalData) {
  const std::vector<int64_t> shape = {4, 3};
  WriteFile("s.bin", std::string(3, '\0') + testing::AsBytes(shape));
  OnnxBuilder m;
  m.Input("x", {2, 6}).Output("y", {4, 3});
  m.InitExternal("S", onnx::TensorProto::INT64, {2},
                 {{"location", "s.bin"}, {"offset", "3"}, {"length", "16"}});
  m.Node("Reshape", {"x", "S"}, {"y"});
  auto model = CompileAndLoad(m, "reshape");
  ASSERT_NE(model, nullptr);
  EXPECT_EQ(model->outputs()[0].shape.rank, 2);
  EXPECT_EQ(model->outputs()[0].shape.dims[0], 4);
  const std::vector<float> x = testing::Ramp(12);
  EXPECT_EQ(testing::RunFloat(*model, {x})[0], x);
}

TEST_F(AtcExternalData, RefusesAnAbsoluteLocation) {
  WriteFile("w.bin", Bytes(kW));
  const Entries w = {{"location", Path("w.bin")}};
  ExpectRefused(Linear(&w, nullptr), "m",
                "initializer 'W' has external data location '" + Path("w.bin") +
                    "', an absolute path (ONNX external data must be relative "
                    "to the model's folder)");
}

TEST_F(AtcExternalData, RefusesDotDotComponents) {
  MakeDir("sub");
  WriteFile("w.bin", Bytes(kW));
  for (const std::string location :
       {"../w.bin", "sub/../../w.bin", "..", "sub/../w.bin"}) {
    const Entries w = {{"location", location}};
    ExpectRefused(Linear(&w, nullptr), "sub/m",
                  "initializer 'W' has external data location '" + location +
                      "' with a '..' component (it must stay inside the "
                      "model's folder)");
  }
}

TEST_F(AtcExternalData, RefusesASymlinkLeadingOutOfTheModelsFolder) {
  MakeDir("model");
  WriteFile("outside.bin", Bytes(kW));
  Link("../outside.bin", "model/link.bin");
  const Entries w = {{"location", "link.bin"}};
  char* real = ::realpath(Path("outside.bin").c_str(), nullptr);
  ASSERT_NE(real, nullptr);
  const std::string outside = real;
  std::free(real);
  const AtcResult r = Compile(Linear(&w, nullptr), "model/m");
  EXPECT_EQ(r.code, atc::kAtcFailureExit);
  EXPECT_NE(r.err.find("initializer 'W' has external data location "
                       "'link.bin', which resolves to '" +
                       outside + "', outside the model's folder"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("(a symlink must not lead out of it)"),
            std::string::npos)
      << r.err;
}

TEST_F(AtcExternalData, RefusesAMissingFile) {
  const Entries w = {{"location", "nothere.bin"}};
  ExpectRefused(Linear(&w, nullptr), "m",
                "initializer 'W' cannot open its external data file '");
  const AtcResult r = Compile(Linear(&w, nullptr), "m");
  EXPECT_NE(r.err.find("/nothere.bin': No such file or directory"),
            std::string::npos)
      << r.err;
}

TEST_F(AtcExternalData, RefusesAFolderAsTheFile) {
  MakeDir("data");
  const Entries w = {{"location", "data"}};
  const AtcResult r = Compile(Linear(&w, nullptr), "m");
  EXPECT_EQ(r.code, atc::kAtcFailureExit);
  EXPECT_NE(r.err.find("initializer 'W' cannot read its external data: '"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("/data' is not a regular file"), std::string::npos)
      << r.err;
}

TEST_F(AtcExternalData, RefusesRangesOutsideTheFile) {
  WriteFile("w.bin", Bytes(kW) + Bytes(kB));  // 64 bytes
  const Entries past = {
      {"location", "w.bin"}, {"offset", "32"}, {"length", "48"}};
  ExpectRefused(Linear(&past, nullptr), "past",
                "initializer 'W' has external data offset 32 + length 48, "
                "which runs past the end of 'w.bin' (64 bytes)");
  const Entries beyond = {{"location", "w.bin"}, {"offset", "65"}};
  ExpectRefused(Linear(&beyond, nullptr), "beyond",
                "initializer 'W' has external data offset 65 beyond the end "
                "of 'w.bin' (64 bytes)");
  // An offset + length that would wrap around 2^64.
  const Entries wrap = {{"location", "w.bin"},
                        {"offset", "16"},
                        {"length", "18446744073709551600"}};
  ExpectRefused(Linear(&wrap, nullptr), "wrap",
                "initializer 'W' has external data offset 16 + length "
                "18446744073709551600, which runs past the end");
}

TEST_F(AtcExternalData, RefusesALengthOtherThanDtypeTimesElements) {
  WriteFile("w.bin", Bytes(kW) + Bytes(kB));  // 64 bytes
  const Entries short_length = {{"location", "w.bin"}, {"length", "44"}};
  ExpectRefused(Linear(&short_length, nullptr), "short",
                "initializer 'W' has external data length 44, but float32 "
                "[3, 4] needs 48 bytes");
  // Without a length the range runs to the end of the file: 64 bytes here.
  const Entries to_end = {{"location", "w.bin"}};
  ExpectRefused(Linear(&to_end, nullptr), "to_end",
                "initializer 'W' has no external data length, and its file "
                "'w.bin' (64 bytes) holds 64 bytes from offset 0, but float32 "
                "[3, 4] needs 48 bytes");
}

TEST_F(AtcExternalData, RefusesMalformedEntries) {
  WriteFile("w.bin", Bytes(kW));
  const Entries none = {{"offset", "0"}};
  ExpectRefused(Linear(&none, nullptr), "none",
                "initializer 'W' uses ONNX external data without a "
                "'location'");
  const Entries empty = {{"location", ""}};
  ExpectRefused(Linear(&empty, nullptr), "empty",
                "initializer 'W' has an empty external data location");
  const Entries twice = {{"location", "w.bin"}, {"location", "w.bin"}};
  ExpectRefused(Linear(&twice, nullptr), "twice",
                "initializer 'W' gives external data key 'location' twice");
  for (const std::string bad :
       {"-1", "0x10", "", " 1", "1e3", "99999999999999999999"}) {
    const Entries w = {{"location", "w.bin"}, {"offset", bad}};
    ExpectRefused(Linear(&w, nullptr), "bad",
                  "initializer 'W' has external data offset '" + bad +
                      "', which is not a non-negative decimal integer");
  }
  const Entries length = {{"location", "w.bin"}, {"length", "abc"}};
  ExpectRefused(Linear(&length, nullptr), "length",
                "initializer 'W' has external data length 'abc', which is not "
                "a non-negative decimal integer");
}

TEST_F(AtcExternalData, RefusesExternalDataBesideInlineData) {
  WriteFile("w.bin", Bytes(kW));
  OnnxBuilder m = Linear(nullptr, nullptr);
  onnx::TensorProto* w = m.model().mutable_graph()->mutable_initializer(0);
  w->set_data_location(onnx::TensorProto::EXTERNAL);
  auto* e = w->add_external_data();
  e->set_key("location");
  e->set_value("w.bin");
  ExpectRefused(m, "m",
                "initializer 'W' is stored as ONNX external data but also "
                "holds data in the model");
}

TEST_F(AtcExternalData, RefusesAnUnsupportedDtypeBeforeOpeningTheFile) {
  OnnxBuilder m;
  m.Input("x", {2}).Output("y", {2});
  m.InitExternal("D", onnx::TensorProto::DOUBLE, {2},
                 {{"location", "nothere.bin"}});
  m.Node("Identity", {"x"}, {"y"});
  ExpectRefused(m, "m",
                "initializer tensor 'D' has dtype DOUBLE, which the emulator "
                "does not support");
}

TEST_F(AtcExternalData, RefusesExternalDataInAConstantNode) {
  WriteFile("w.bin", Bytes(kB));
  OnnxBuilder m;
  m.Input("x", {4}).Output("y", {4});
  onnx::NodeProto& c = m.Node("Constant", {}, {"c"}, "const");
  onnx::AttributeProto* a = c.add_attribute();
  a->set_name("value");
  a->set_type(onnx::AttributeProto::TENSOR);
  onnx::TensorProto* t = a->mutable_t();
  t->set_data_type(onnx::TensorProto::FLOAT);
  t->add_dims(4);
  t->set_data_location(onnx::TensorProto::EXTERNAL);
  auto* e = t->add_external_data();
  e->set_key("location");
  e->set_value("w.bin");
  m.Node("Add", {"x", "c"}, {"y"});
  const AtcResult r = Compile(m, "m");
  EXPECT_EQ(r.code, atc::kAtcFailureExit);
  EXPECT_NE(r.err.find("ATC run failed: node 'const' op 'Constant' has "
                       "attribute 'value' stored as ONNX external data, which "
                       "the emulator's atc reads only for graph initializers"),
            std::string::npos)
      << r.err;
}

TEST_F(AtcExternalData, RefusesAModelFileOver2GBPointingAtExternalData) {
  // A sparse file: atc refuses it by its size before reading a byte.
  const std::string path = Path("huge.onnx");
  { std::ofstream out(path, std::ios::binary); }
  ASSERT_EQ(::truncate(path.c_str(), (int64_t{1} << 31) + 1), 0);
  const AtcResult r = testing::RunAtcArgs(
      {"--framework=5", "--model=" + path, "--output=" + Path("huge"),
       "--soc_version=Ascend910B1", "--precision_mode=must_keep_origin_dtype"});
  EXPECT_EQ(r.code, atc::kAtcFailureExit);
  EXPECT_NE(r.err.find("is larger than 2 GB, protobuf's limit: save the model "
                       "with its weights as ONNX external data"),
            std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace ascend_emu
