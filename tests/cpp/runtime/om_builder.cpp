// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "om_builder.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>

#include "onnx_builder.h"

namespace executorch::backends::ascend::testing {
namespace {

using ascend_emu::testing::OnnxBuilder;

std::string make_temp_dir() {
  const char* base = std::getenv("TMPDIR");
  std::string pattern =
      std::string(base != nullptr ? base : "/tmp") + "/ascend_om_XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr) {
    return "";
  }
  return pattern;
}

}  // namespace

std::string add_model_onnx() {
  OnnxBuilder b;
  b.Input("x", {2, 3}).Input("y", {2, 3}).Output("z", {2, 3});
  b.Node("Add", {"x", "y"}, {"z"});
  return b.Serialize();
}

std::string accumulate_model_onnx() {
  OnnxBuilder b;
  b.Input("x", {2, 3}).Input("s", {2, 3});
  b.Output("y", {2, 3}).Output("s_out", {2, 3});
  b.InitF32("two", {1}, {2.0f});
  b.Node("Add", {"s", "x"}, {"s_out"});
  b.Node("Mul", {"s_out", "two"}, {"y"});
  return b.Serialize();
}

std::string batch_scale_model_onnx() {
  OnnxBuilder b;
  b.Input("x", {-1, 3}).OutputNoShape("y", 2);
  b.InitF32("three", {1}, {3.0f});
  b.Node("Mul", {"x", "three"}, {"y"});
  return b.Serialize();
}

std::string matmul_relu_model_onnx() {
  std::vector<float> weight;
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 3; ++j) {
      weight.push_back(static_cast<float>(i - j));
    }
  }
  OnnxBuilder b;
  b.Input("x", {2, 4}).Output("y", {2, 3}).InitF32("W", {4, 3}, weight);
  b.Node("MatMul", {"x", "W"}, {"h"});
  b.Node("Relu", {"h"}, {"y"});
  return b.Serialize();
}

std::vector<uint8_t> compile_with_atc(const std::string& onnx_bytes,
                                      const std::string& name,
                                      std::string* error,
                                      const std::string& extra_options) {
  const char* atc = std::getenv("EXECUTORCH_ASCEND_ATC");
  if (atc == nullptr || atc[0] == '\0') {
    *error = "EXECUTORCH_ASCEND_ATC is not set";
    return {};
  }
  const std::string dir = make_temp_dir();
  if (dir.empty()) {
    *error = "mkdtemp failed";
    return {};
  }
  const std::string onnx_path = dir + "/" + name + ".onnx";
  const std::string out_base = dir + "/" + name;
  {
    std::ofstream out(onnx_path, std::ios::binary);
    out.write(onnx_bytes.data(),
              static_cast<std::streamsize>(onnx_bytes.size()));
    if (!out) {
      *error = "cannot write " + onnx_path;
      return {};
    }
  }
  const std::string command =
      std::string("'") + atc + "' --framework=5 --model='" + onnx_path +
      "' --output='" + out_base +
      "' --soc_version=Ascend910B1 --precision_mode=must_keep_origin_dtype " +
      extra_options + " > '" + dir + "/atc.log' 2>&1";
  const int status = std::system(command.c_str());
  if (status != 0) {
    std::ifstream log(dir + "/atc.log");
    std::stringstream text;
    text << log.rdbuf();
    *error = "atc failed (" + std::to_string(status) + "): " + text.str();
    return {};
  }
  std::ifstream om(out_base + ".om", std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(om)),
                             std::istreambuf_iterator<char>());
  if (bytes.empty()) {
    *error = "atc wrote no " + out_base + ".om";
  }
  std::remove(onnx_path.c_str());
  std::remove((out_base + ".om").c_str());
  std::remove((dir + "/atc.log").c_str());
  rmdir(dir.c_str());
  return bytes;
}

std::vector<uint8_t> dynamic_aipp_om(std::string* error) {
  OnnxBuilder b;
  b.Input("x", {1, 3, 4, 4}).Output("y", {1, 3, 4, 4});
  b.Node("Identity", {"x"}, {"y"});
  const std::string dir = make_temp_dir();
  if (dir.empty()) {
    *error = "mkdtemp failed";
    return {};
  }
  const std::string config = dir + "/aipp.cfg";
  {
    std::ofstream out(config);
    out << "aipp_op {\n  aipp_mode: dynamic\n  max_src_image_size: 48\n}\n";
  }
  std::vector<uint8_t> om =
      compile_with_atc(b.Serialize(), "dynamic_aipp", error,
                       "--insert_op_conf='" + config + "'");
  std::remove(config.c_str());
  rmdir(dir.c_str());
  return om;
}

}  // namespace executorch::backends::ascend::testing
