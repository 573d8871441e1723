// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "external_om.h"

#include <gtest/gtest.h>

#include <cstring>

#include "ascend_emu/om_format.h"
#include "ascend_emu/program.h"
#include "program_builder.h"

namespace executorch::backends::ascend::testing {
namespace {

using ascend_emu::DType;
using ascend_emu::kOmAlignment;
using ascend_emu::Program;
using ascend_emu::Shape;
using ascend_emu::TensorLocation;
using ascend_emu::testing::Dims;
using ascend_emu::testing::MakeIo;
using ascend_emu::testing::MakeOp;
using ascend_emu::testing::MakeTensor;

std::vector<uint8_t> write(const Program& program) {
  std::vector<uint8_t> image;
  std::string error;
  EXPECT_TRUE(ascend_emu::WriteOm(program, &image, &error)) << error;
  return image;
}

// x (input), w, t = op(x, w) (arena), y = Relu(t) (output).
Program two_step_program(const char* op, Shape shape, TensorLocation weight,
                         uint64_t arena_bytes) {
  Program p;
  p.soc_version = "Ascend910B1";
  p.producer = "runtime tests";
  p.tensors = {
      MakeTensor("x", DType::kFloat32, shape, TensorLocation::kInput, 0),
      MakeTensor("w", DType::kFloat32, shape, weight, 0),
      MakeTensor("t", DType::kFloat32, shape, TensorLocation::kArena, 0),
      MakeTensor("y", DType::kFloat32, shape, TensorLocation::kOutput, 0),
  };
  p.inputs = {MakeIo("x", DType::kFloat32, shape, 0)};
  p.outputs = {MakeIo("y", DType::kFloat32, shape, 3)};
  p.ops = {MakeOp(op, std::string(op) + "_0", {0, 1}, {2}),
           MakeOp("Relu", "Relu_0", {2}, {3})};
  p.arena_size = (arena_bytes + kOmAlignment - 1) / kOmAlignment * kOmAlignment;
  return p;
}

Program external_program(const char* op) {
  Program p = two_step_program(op, Dims({kRows, kCols}),
                               TensorLocation::kExternal, kTensorBytes);
  p.tensors[1].file = 0;
  p.external_weights = {{kWeightName, kTensorBytes}};
  return p;
}

}  // namespace

std::vector<uint8_t> scale_relu_om() { return write(external_program("Mul")); }

std::vector<uint8_t> shift_relu_om() { return write(external_program("Add")); }

std::vector<uint8_t> small_inline_om() {
  Program p = two_step_program("Mul", Dims({2, 3}), TensorLocation::kWeight,
                               6 * sizeof(float));
  std::vector<float> w(6);
  for (size_t i = 0; i < w.size(); ++i) w[i] = weight_at(i);
  uint64_t offset = 0;
  ascend_emu::testing::AppendWeights(&p, w.data(), w.size() * sizeof(float),
                                     &offset);
  p.tensors[1].offset = offset;
  return write(p);
}

std::vector<uint8_t> weight_bytes() {
  std::vector<uint8_t> bytes(kTensorBytes);
  for (size_t i = 0; i < kElements; ++i) {
    const float value = weight_at(i);
    std::memcpy(bytes.data() + i * sizeof(float), &value, sizeof(float));
  }
  return bytes;
}

BlobSpec external_blob(const std::string& om_key) {
  BlobSpec spec;
  spec.om_key = om_key;
  spec.weights = {{kWeightName, kWeightKey, kTensorBytes}};
  return spec;
}

}  // namespace executorch::backends::ascend::testing
