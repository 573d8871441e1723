// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "test_models.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "ascend_emu/om_format.h"
#include "ascend_emu/program.h"
#include "program_builder.h"

namespace ascend_emu::acl_test {
namespace {

using testing::Dims;
using testing::MakeIo;
using testing::MakeOp;
using testing::MakeTensor;

TensorInfo Tensor(const std::string& name, TensorLocation location,
                  uint64_t offset) {
  return MakeTensor(name, DType::kFloat32, Dims({2, 3}), location, offset);
}

IoInfo Io(const std::string& name, uint32_t tensor) {
  return MakeIo(name, DType::kFloat32, Dims({2, 3}), tensor);
}

OpInfo Op(const std::string& type, std::vector<int32_t> inputs,
          int32_t output) {
  return MakeOp(type, type + "_0", std::move(inputs), {output});
}

}  // namespace

namespace {

// z = Relu((x + y) * w), w inline in the .om.
// 0 x, 1 y (inputs), 2 w (weight), 3 t = x + y, 4 u = t * w (arena),
// 5 z = Relu(u) (output).
Program AddMulReluProgram(const std::string& soc_version) {
  Program program;
  program.soc_version = soc_version;
  program.producer = "acl emulator tests";
  program.tensors = {
      Tensor("x", TensorLocation::kInput, 0),
      Tensor("y", TensorLocation::kInput, 1),
      Tensor("w", TensorLocation::kWeight, 0),
      Tensor("t", TensorLocation::kArena, 0),
      Tensor("u", TensorLocation::kArena, kOmAlignment),
      Tensor("z", TensorLocation::kOutput, 0),
  };
  program.inputs = {Io("x", 0), Io("y", 1)};
  program.outputs = {Io("z", 5)};
  program.ops = {Op("Add", {0, 1}, 3), Op("Mul", {3, 2}, 4),
                 Op("Relu", {4}, 5)};
  program.arena_size = 2 * kOmAlignment;
  program.weights.resize(kOmAlignment, 0);
  std::memcpy(program.weights.data(), kWeights, sizeof(kWeights));
  return program;
}

std::vector<uint8_t> Write(const Program& program) {
  std::vector<uint8_t> image;
  std::string error;
  EXPECT_TRUE(WriteOm(program, &image, &error)) << error;
  return image;
}

}  // namespace

std::vector<uint8_t> BuildAddMulReluOm(const std::string& soc_version) {
  return Write(AddMulReluProgram(soc_version));
}

std::vector<uint8_t> BuildAddMulReluExternalOm(const std::string& soc_version) {
  // The same program with w a FileConstant in the one weight file.
  Program program = AddMulReluProgram(soc_version);
  program.weights.clear();
  program.tensors[2].location = TensorLocation::kExternal;
  program.tensors[2].offset = kExternalWeightOffset;
  program.tensors[2].file = 0;
  program.external_weights = {{kExternalName, kExternalFileBytes}};
  return Write(program);
}

std::vector<uint8_t> ExternalWeightFile(const float* weights) {
  std::vector<uint8_t> file(kExternalFileBytes, 0xEE);  // padding: never read
  std::memcpy(file.data() + kExternalWeightOffset, weights, kTensorBytes);
  return file;
}

std::vector<float> ExpectedAddMulRelu(const std::vector<float>& x,
                                      const std::vector<float>& y,
                                      const float* weights) {
  std::vector<float> z(6);
  for (size_t i = 0; i < 6; ++i) {
    z[i] = std::max(0.0f, (x[i] + y[i]) * weights[i]);
  }
  return z;
}

}  // namespace ascend_emu::acl_test
