// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "om_builder.h"

#include <onnx/onnx_pb.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>

namespace executorch::backends::ascend::testing {
namespace {

void set_float_io(onnx::ValueInfoProto* value, const std::string& name,
                  const std::vector<int64_t>& dims) {
  value->set_name(name);
  auto* tensor_type = value->mutable_type()->mutable_tensor_type();
  tensor_type->set_elem_type(onnx::TensorProto::FLOAT);
  for (int64_t d : dims) {
    tensor_type->mutable_shape()->add_dim()->set_dim_value(d);
  }
}

onnx::ModelProto new_model() {
  onnx::ModelProto model;
  model.set_ir_version(8);
  model.set_producer_name("executorch-ascend-tests");
  auto* opset = model.add_opset_import();
  opset->set_domain("");
  opset->set_version(17);
  return model;
}

std::string serialize(const onnx::ModelProto& model) {
  std::string bytes;
  model.SerializeToString(&bytes);
  return bytes;
}

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
  onnx::ModelProto model = new_model();
  auto* graph = model.mutable_graph();
  graph->set_name("add");
  auto* node = graph->add_node();
  node->set_op_type("Add");
  node->add_input("x");
  node->add_input("y");
  node->add_output("z");
  set_float_io(graph->add_input(), "x", {2, 3});
  set_float_io(graph->add_input(), "y", {2, 3});
  set_float_io(graph->add_output(), "z", {2, 3});
  return serialize(model);
}

std::string matmul_relu_model_onnx() {
  onnx::ModelProto model = new_model();
  auto* graph = model.mutable_graph();
  graph->set_name("matmul_relu");
  auto* weight = graph->add_initializer();
  weight->set_name("W");
  weight->set_data_type(onnx::TensorProto::FLOAT);
  weight->add_dims(4);
  weight->add_dims(3);
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 3; ++j) {
      weight->add_float_data(static_cast<float>(i - j));
    }
  }
  auto* matmul = graph->add_node();
  matmul->set_op_type("MatMul");
  matmul->add_input("x");
  matmul->add_input("W");
  matmul->add_output("h");
  auto* relu = graph->add_node();
  relu->set_op_type("Relu");
  relu->add_input("h");
  relu->add_output("y");
  set_float_io(graph->add_input(), "x", {2, 4});
  set_float_io(graph->add_output(), "y", {2, 3});
  return serialize(model);
}

std::vector<uint8_t> compile_with_atc(const std::string& onnx_bytes,
                                      const std::string& name,
                                      std::string* error) {
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
      "' --soc_version=Ascend910B1 --precision_mode=must_keep_origin_dtype "
      "> '" +
      dir + "/atc.log' 2>&1";
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

}  // namespace executorch::backends::ascend::testing
