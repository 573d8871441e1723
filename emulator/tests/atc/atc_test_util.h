// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Running atc in-process on models built with OnnxBuilder, and running the
// .om it writes through the engine.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "ascend_emu/model.h"
#include "ascend_emu/om_format.h"
#include "atc_driver.h"
#include "onnx_builder.h"

namespace ascend_emu {
namespace testing {

struct AtcResult {
  int code = -1;
  std::string out;
  std::string err;
};

inline AtcResult RunAtcArgs(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  AtcResult r;
  r.code = atc::RunAtc(args, out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

inline std::vector<uint8_t> ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

// The ops of a compiled .om, "op_type:name" each.
inline std::vector<std::string> OpNames(const std::string& om_path) {
  const std::vector<uint8_t> om = ReadBytes(om_path);
  Program program;
  std::string error;
  EXPECT_TRUE(ReadOm(om.data(), om.size(), &program, &error)) << error;
  std::vector<std::string> names;
  for (const OpInfo& op : program.ops)
    names.push_back(op.op_type + ":" + op.name);
  return names;
}

inline bool FileExists(const std::string& path) {
  return ::access(path.c_str(), F_OK) == 0;
}

// A fresh directory per test, removed with its files afterwards.
class AtcTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = ::testing::TempDir() + "atc_test_XXXXXX";
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    ASSERT_NE(::mkdtemp(buf.data()), nullptr);
    dir_ = buf.data();
  }
  void TearDown() override {
    const std::string cmd = "rm -rf '" + dir_ + "'";
    (void)std::system(cmd.c_str());
  }

  std::string Path(const std::string& name) const { return dir_ + "/" + name; }

  // Writes `bytes` into Path(name) (e.g. a model's external data file).
  void WriteFile(const std::string& name, const std::string& bytes) const {
    std::ofstream out(Path(name), std::ios::binary);
    out << bytes;
  }

  // Saves `b` as <name>.onnx and runs atc with the usual options plus
  // `extra`; returns the result (the .om is Path(name + ".om")).
  AtcResult Compile(const OnnxBuilder& b, const std::string& name,
                    std::vector<std::string> extra = {}) {
    b.Save(Path(name + ".onnx"));
    std::vector<std::string> args = {
        "--framework=5", "--model=" + Path(name + ".onnx"),
        "--output=" + Path(name), "--soc_version=Ascend910B1",
        "--precision_mode=must_keep_origin_dtype"};
    args.insert(args.end(), extra.begin(), extra.end());
    return RunAtcArgs(args);
  }

  // Compiles and loads; fails the test when either step fails.
  std::unique_ptr<Model> CompileAndLoad(const OnnxBuilder& b,
                                        const std::string& name,
                                        std::vector<std::string> extra = {}) {
    AtcResult r = Compile(b, name, std::move(extra));
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("ATC run success"), std::string::npos) << r.out;
    if (r.code != 0) return nullptr;
    const std::vector<uint8_t> om = ReadBytes(Path(name + ".om"));
    std::string error;
    std::unique_ptr<Model> model = Model::Load(om.data(), om.size(), &error);
    EXPECT_NE(model, nullptr) << error;
    return model;
  }

  std::string dir_;
};

// Runs a float model on `inputs`; returns its outputs as floats.
inline std::vector<std::vector<float>> RunFloat(
    Model& model, const std::vector<std::vector<float>>& inputs) {
  std::vector<const void*> in;
  for (size_t i = 0; i < inputs.size(); ++i) {
    EXPECT_EQ(inputs[i].size() * sizeof(float), model.inputs()[i].size_bytes);
    in.push_back(inputs[i].data());
  }
  std::vector<std::vector<float>> outputs(model.outputs().size());
  std::vector<void*> out;
  for (size_t i = 0; i < outputs.size(); ++i) {
    outputs[i].assign(model.outputs()[i].size_bytes / sizeof(float), -999.0f);
    out.push_back(outputs[i].data());
  }
  std::string error;
  EXPECT_TRUE(model.Run(in.data(), out.data(), nullptr, &error)) << error;
  return outputs;
}

// The bytes of a vector, as a file would hold them.
template <typename T>
std::string AsBytes(const std::vector<T>& v) {
  return std::string(reinterpret_cast<const char*>(v.data()),
                     v.size() * sizeof(T));
}

inline std::vector<float> Ramp(size_t n, float scale = 0.1f,
                               float offset = -1.0f) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) {
    v[i] = offset + scale * static_cast<float>((i * 7) % 23);
  }
  return v;
}

}  // namespace testing
}  // namespace ascend_emu
