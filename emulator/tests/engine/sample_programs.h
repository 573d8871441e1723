// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Hand-built Programs for the engine tests, plus a harness that runs a
// loaded Model on buffers sized from its own descriptions (used by the
// corruption tests here and in emulator/tests/atc).
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "ascend_emu/model.h"
#include "ascend_emu/program.h"
#include "program_builder.h"

namespace ascend_emu {
namespace testing {

// y = Reshape(Relu(x + b), [3, 2]); also returns x and b unchanged as
// outputs 1 and 2 (a graph output that is a graph input or a constant).
//   tensors: 0 x (input 0), 1 b (weight), 2 shape (weight, int64),
//            3 t0 (arena 0), 4 t1 (arena 64), 5 y (output 0)
inline Program AddReluReshapeProgram() {
  Program p;
  p.soc_version = "Ascend910B1";
  p.producer = "sample_programs.h";
  const float b[6] = {0.5f, -1.0f, 2.0f, -3.0f, 0.0f, 1.0f};
  const int64_t shape[2] = {3, 2};
  uint64_t b_off = 0, shape_off = 0;
  AppendWeights(&p, b, sizeof(b), &b_off);
  AppendWeights(&p, shape, sizeof(shape), &shape_off);

  auto tensor = [&](const char* name, DType dtype, Shape s, TensorLocation loc,
                    uint64_t offset) {
    p.tensors.push_back(MakeTensor(name, dtype, s, loc, offset));
  };
  tensor("x", DType::kFloat32, Dims({2, 3}), TensorLocation::kInput, 0);
  tensor("b", DType::kFloat32, Dims({2, 3}), TensorLocation::kWeight, b_off);
  tensor("shape", DType::kInt64, Dims({2}), TensorLocation::kWeight, shape_off);
  tensor("t0", DType::kFloat32, Dims({2, 3}), TensorLocation::kArena, 0);
  tensor("t1", DType::kFloat32, Dims({2, 3}), TensorLocation::kArena, 64);
  tensor("y", DType::kFloat32, Dims({3, 2}), TensorLocation::kOutput, 0);
  p.arena_size = 128;

  const auto io = MakeIo;
  p.inputs.push_back(io("x", DType::kFloat32, Dims({2, 3}), 0));
  p.outputs.push_back(io("y", DType::kFloat32, Dims({3, 2}), 5));
  p.outputs.push_back(io("x_again", DType::kFloat32, Dims({2, 3}), 0));
  p.outputs.push_back(io("b_out", DType::kFloat32, Dims({2, 3}), 1));

  OpInfo add = MakeOp("Add", "add", {0, 1}, {3});
  OpInfo relu = MakeOp("Relu", "relu", {3}, {4});
  OpInfo reshape = MakeOp("Reshape", "reshape", {4, 2}, {5});
  Attribute allowzero;
  allowzero.kind = Attribute::Kind::kInt;
  allowzero.i = 0;
  reshape.attrs.map()["allowzero"] = allowzero;
  p.ops = {add, relu, reshape};
  return p;
}

// AddReluReshapeProgram with both constants in external weight files (as
// atc --external_weight=1 writes them): "weight_b" holds b, "weight_shape"
// the int64 shape; kExternalB / kExternalShape are their bytes.
inline const float kExternalB[6] = {0.5f, -1.0f, 2.0f, -3.0f, 0.0f, 1.0f};
inline const int64_t kExternalShape[2] = {3, 2};

inline Program ExternalAddReluReshapeProgram() {
  Program p = AddReluReshapeProgram();
  p.weights.clear();
  p.external_weights = {{"weight_b", sizeof(kExternalB)},
                        {"weight_shape", sizeof(kExternalShape)}};
  p.tensors[1].location = TensorLocation::kExternal;
  p.tensors[1].file = 0;
  p.tensors[1].offset = 0;
  p.tensors[2].location = TensorLocation::kExternal;
  p.tensors[2].file = 1;
  p.tensors[2].offset = 0;
  return p;
}

// A gear model (atc --input_shape=x:-1,2 --dynamic_batch_size=1,3):
// y = Relu(x + b), x float32 [n, 2], b [1, 2] a weight, n in {1, 3}; each
// gear's last input is the gear input, int32 [1].
//   per gear: 0 x (input 0), 1 b (weight), 2 t0 (arena 0), 3 y (output 0),
//             4 ascend_mbatch_shape_data (input 1)
inline const float kGearBias[2] = {0.5f, -1.0f};
inline Program GearAddReluProgram() {
  Program p;
  p.soc_version = "Ascend910B1";
  p.producer = "sample_programs.h";
  uint64_t b_off = 0;
  AppendWeights(&p, kGearBias, sizeof(kGearBias), &b_off);
  p.gear_table.type = DynamicType::kDynamicBatch;
  p.gear_table.shape_order = {0};
  p.gear_table.positions = {{0, 0}};
  p.gear_table.values = {{1}, {3}};
  for (int64_t n : {1, 3}) {
    Program g;
    auto tensor = [&](const char* name, DType dtype, Shape s,
                      TensorLocation loc, uint64_t offset) {
      g.tensors.push_back(MakeTensor(name, dtype, s, loc, offset));
    };
    tensor("x", DType::kFloat32, Dims({n, 2}), TensorLocation::kInput, 0);
    tensor("b", DType::kFloat32, Dims({1, 2}), TensorLocation::kWeight, b_off);
    tensor("t0", DType::kFloat32, Dims({n, 2}), TensorLocation::kArena, 0);
    tensor("y", DType::kFloat32, Dims({n, 2}), TensorLocation::kOutput, 0);
    tensor(kGearInputName, DType::kInt32, Dims({1}), TensorLocation::kInput, 1);
    g.arena_size = 64;
    g.inputs.push_back(MakeIo("x", DType::kFloat32, Dims({n, 2}), 0));
    g.inputs.push_back(MakeIo(kGearInputName, DType::kInt32, Dims({1}), 4));
    g.outputs.push_back(MakeIo("y", DType::kFloat32, Dims({n, 2}), 3));
    g.ops = {MakeOp("Add", "add", {0, 1}, {2}),
             MakeOp("Relu", "relu", {2}, {3})};
    p.gears.push_back(std::move(g));
  }
  return p;
}

// Runs `model` on zero-filled inputs except for a ramp in float inputs
// (every gear of a gear model). Returns Run's result; the point is that it
// returns at all.
inline bool RunWithOwnBuffers(Model& model, std::string* error) {
  std::vector<std::vector<uint8_t>> in(model.inputs().size());
  std::vector<std::vector<uint8_t>> out(model.outputs().size());
  std::vector<const void*> in_ptrs;
  std::vector<void*> out_ptrs;
  for (size_t i = 0; i < in.size(); ++i) {
    in[i].assign(model.inputs()[i].size_bytes + 1, 0);
    if (model.inputs()[i].dtype == DType::kFloat32) {
      for (size_t k = 0; k + 4 <= model.inputs()[i].size_bytes; k += 4) {
        const float v = static_cast<float>(k % 17) * 0.25f - 1.0f;
        std::memcpy(&in[i][k], &v, 4);
      }
    }
    in_ptrs.push_back(in[i].data());
  }
  for (size_t i = 0; i < out.size(); ++i) {
    out[i].assign(model.outputs()[i].size_bytes + 1, 0);
    out_ptrs.push_back(out[i].data());
  }
  bool ok = model.Run(in_ptrs.data(), out_ptrs.data(), nullptr, error);
  for (size_t g = 1; g < model.num_gears(); ++g) {
    ok =
        model.RunGear(g, in_ptrs.data(), out_ptrs.data(), nullptr, error) && ok;
  }
  return ok;
}

}  // namespace testing
}  // namespace ascend_emu
