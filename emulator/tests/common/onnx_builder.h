// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Small ONNX models built in C++ with the onnx protobuf API, for every C++
// test that needs one (atc, the emulator's ACL, the runtime): no Python at
// test time, and one builder.
#pragma once

#include <cstdint>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "onnx/onnx_pb.h"

namespace ascend_emu {
namespace testing {

class OnnxBuilder {
 public:
  explicit OnnxBuilder(int64_t opset = 17, int64_t ir_version = 8) {
    model_.set_ir_version(ir_version);
    model_.set_producer_name("atc-test");
    auto* imp = model_.add_opset_import();
    imp->set_domain("");
    imp->set_version(opset);
    model_.mutable_graph()->set_name("g");
  }

  // dims < 0 become symbolic ("d0", "d1", ...).
  OnnxBuilder& Input(const std::string& name, std::vector<int64_t> dims,
                     int32_t elem = onnx::TensorProto::FLOAT) {
    SetType(model_.mutable_graph()->add_input(), name, dims, elem);
    return *this;
  }
  OnnxBuilder& Output(const std::string& name, std::vector<int64_t> dims,
                      int32_t elem = onnx::TensorProto::FLOAT) {
    SetType(model_.mutable_graph()->add_output(), name, dims, elem);
    return *this;
  }
  // An output of known rank whose dims are all symbolic (ONNX 1.12's
  // checker wants a shape on graph outputs; the compiler infers the dims).
  OnnxBuilder& OutputNoShape(const std::string& name, int rank = 2,
                             int32_t elem = onnx::TensorProto::FLOAT) {
    return Output(name, std::vector<int64_t>(static_cast<size_t>(rank), -1),
                  elem);
  }

  OnnxBuilder& InitF32(const std::string& name, std::vector<int64_t> dims,
                       const std::vector<float>& values) {
    onnx::TensorProto* t = model_.mutable_graph()->add_initializer();
    FillF32(t, name, dims, values);
    return *this;
  }
  OnnxBuilder& InitI64(const std::string& name, std::vector<int64_t> dims,
                       const std::vector<int64_t>& values) {
    onnx::TensorProto* t = model_.mutable_graph()->add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::INT64);
    for (int64_t d : dims) t->add_dims(d);
    for (int64_t v : values) t->add_int64_data(v);
    return *this;
  }

  // An initializer stored as ONNX external data: its external_data entries
  // are `entries` as given (location, offset, length, ...; any order, any
  // key), and writing the bytes into the file is the caller's job.
  OnnxBuilder& InitExternal(
      const std::string& name, int32_t elem, std::vector<int64_t> dims,
      const std::vector<std::pair<std::string, std::string>>& entries) {
    onnx::TensorProto* t = model_.mutable_graph()->add_initializer();
    t->set_name(name);
    t->set_data_type(elem);
    for (int64_t d : dims) t->add_dims(d);
    t->set_data_location(onnx::TensorProto::EXTERNAL);
    for (const auto& [key, value] : entries) {
      onnx::StringStringEntryProto* e = t->add_external_data();
      e->set_key(key);
      e->set_value(value);
    }
    return *this;
  }

  onnx::NodeProto& Node(const std::string& op, std::vector<std::string> inputs,
                        std::vector<std::string> outputs,
                        const std::string& name = "") {
    onnx::NodeProto* n = model_.mutable_graph()->add_node();
    n->set_op_type(op);
    n->set_name(name.empty()
                    ? "n" + std::to_string(model_.graph().node_size() - 1)
                    : name);
    for (auto& i : inputs) n->add_input(i);
    for (auto& o : outputs) n->add_output(o);
    return *n;
  }

  // A Constant node holding an int64 vector (e.g. a Reshape target).
  OnnxBuilder& ConstI64(const std::string& output,
                        const std::vector<int64_t>& values) {
    onnx::NodeProto& n = Node("Constant", {}, {output});
    onnx::AttributeProto* a = n.add_attribute();
    a->set_name("value");
    a->set_type(onnx::AttributeProto::TENSOR);
    onnx::TensorProto* t = a->mutable_t();
    t->set_data_type(onnx::TensorProto::INT64);
    t->add_dims(static_cast<int64_t>(values.size()));
    for (int64_t v : values) t->add_int64_data(v);
    return *this;
  }

  static void AttrInt(onnx::NodeProto& n, const std::string& name, int64_t v) {
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INT);
    a->set_i(v);
  }
  static void AttrFloat(onnx::NodeProto& n, const std::string& name, float v) {
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::FLOAT);
    a->set_f(v);
  }
  static void AttrInts(onnx::NodeProto& n, const std::string& name,
                       const std::vector<int64_t>& v) {
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INTS);
    for (int64_t x : v) a->add_ints(x);
  }

  onnx::ModelProto& model() { return model_; }

  std::string Serialize() const {
    std::string bytes;
    model_.SerializeToString(&bytes);
    return bytes;
  }

  void Save(const std::string& path) const {
    std::ofstream out(path, std::ios::binary);
    model_.SerializeToOstream(&out);
  }

 private:
  static void SetType(onnx::ValueInfoProto* vi, const std::string& name,
                      const std::vector<int64_t>& dims, int32_t elem) {
    vi->set_name(name);
    auto* tt = vi->mutable_type()->mutable_tensor_type();
    tt->set_elem_type(elem);
    auto* shape = tt->mutable_shape();
    for (size_t i = 0; i < dims.size(); ++i) {
      auto* d = shape->add_dim();
      if (dims[i] >= 0) {
        d->set_dim_value(dims[i]);
      } else {
        d->set_dim_param("d" + std::to_string(i));
      }
    }
  }
  static void FillF32(onnx::TensorProto* t, const std::string& name,
                      const std::vector<int64_t>& dims,
                      const std::vector<float>& values) {
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::FLOAT);
    for (int64_t d : dims) t->add_dims(d);
    // raw_data, the layout exporters use.
    t->set_raw_data(std::string(reinterpret_cast<const char*>(values.data()),
                                values.size() * sizeof(float)));
  }

  onnx::ModelProto model_;
};

}  // namespace testing
}  // namespace ascend_emu
