// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "test_models.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "ascend_emu/kernel.h"
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

namespace ascend_emu::acl_test {
namespace {

// Scratch the kernel asks of Infer for op `op` of `p` (the .om must reserve
// at least that much).
size_t InferScratch(const Program& p, const OpInfo& op) {
  std::vector<TensorRef> inputs;
  for (int32_t t : op.inputs) {
    TensorRef r;
    r.dtype = p.tensors[t].dtype;
    r.shape = p.tensors[t].shape;
    inputs.push_back(r);
  }
  std::vector<TensorRef> outputs;
  InferContext ctx{op.attrs, inputs, outputs};
  const KernelDef* kernel = FindKernel(op.op_type);
  EXPECT_NE(kernel, nullptr);
  if (kernel == nullptr) return 0;
  EXPECT_EQ(kernel->infer(ctx), "");
  return ctx.scratch_bytes;
}

uint64_t Align(uint64_t v) {
  return (v + kOmAlignment - 1) / kOmAlignment * kOmAlignment;
}

}  // namespace

std::vector<float> ConvMatMulWeight(size_t n, int salt) {
  std::vector<float> w(n);
  for (size_t i = 0; i < n; ++i) {
    w[i] = static_cast<float>(static_cast<int>((i * 7 + salt * 13) % 17) - 8) /
           16.0f;
  }
  return w;
}

std::vector<uint8_t> BuildConvMatMulOm(const std::string& soc_version) {
  Program p;
  p.soc_version = soc_version;
  p.producer = "acl emulator tests";
  const Shape xs = Dims({1, kConvC, kConvH, kConvH});
  const Shape ws = Dims({kConvC, kConvC, 3, 3});
  const Shape as = Dims({kMatM, kMatK});
  const Shape bs = Dims({kMatK, kMatN});
  const Shape zs = Dims({kMatM, kMatN});
  uint64_t w_off = 0, b_off = 0, mat_off = 0;
  const std::vector<float> w = ConvMatMulWeight(ws.numel(), 0);
  const std::vector<float> bias = ConvMatMulWeight(kConvC, 1);
  const std::vector<float> mat = ConvMatMulWeight(bs.numel(), 2);
  testing::AppendWeights(&p, w.data(), w.size() * sizeof(float), &w_off);
  testing::AppendWeights(&p, bias.data(), bias.size() * sizeof(float), &b_off);
  testing::AppendWeights(&p, mat.data(), mat.size() * sizeof(float), &mat_off);
  p.tensors = {
      MakeTensor("x", DType::kFloat32, xs, TensorLocation::kInput, 0),
      MakeTensor("a", DType::kFloat32, as, TensorLocation::kInput, 1),
      MakeTensor("W", DType::kFloat32, ws, TensorLocation::kWeight, w_off),
      MakeTensor("b", DType::kFloat32, Dims({kConvC}), TensorLocation::kWeight,
                 b_off),
      MakeTensor("B", DType::kFloat32, bs, TensorLocation::kWeight, mat_off),
      MakeTensor("y", DType::kFloat32, xs, TensorLocation::kOutput, 0),
      MakeTensor("z", DType::kFloat32, zs, TensorLocation::kOutput, 1),
  };
  p.inputs = {MakeIo("x", DType::kFloat32, xs, 0),
              MakeIo("a", DType::kFloat32, as, 1)};
  p.outputs = {MakeIo("y", DType::kFloat32, xs, 5),
               MakeIo("z", DType::kFloat32, zs, 6)};
  OpInfo conv = MakeOp("FusedConv", "conv_0+relu_1", {0, 2, 3}, {5});
  conv.attrs.map()["kernel_shape"] = testing::IntsAttr({3, 3});
  conv.attrs.map()["pads"] = testing::IntsAttr({1, 1, 1, 1});
  conv.attrs.map()["strides"] = testing::IntsAttr({1, 1});
  conv.attrs.map()["dilations"] = testing::IntsAttr({1, 1});
  Attribute group;
  group.i = 1;
  conv.attrs.map()["group"] = group;
  Attribute relu;
  relu.kind = Attribute::Kind::kString;
  relu.s = "Relu";
  conv.attrs.map()["activation"] = relu;
  OpInfo matmul = MakeOp("MatMul", "matmul_2", {1, 4}, {6});
  uint64_t arena = 0;
  for (OpInfo* op : {&conv, &matmul}) {
    op->scratch_size = Align(InferScratch(p, *op));
    op->scratch_offset = arena;
    arena += op->scratch_size;
  }
  p.ops = {conv, matmul};
  p.arena_size = arena;
  return Write(p);
}

std::vector<float> ExpectedConvRelu(const std::vector<float>& x) {
  const std::vector<float> w = ConvMatMulWeight(kConvC * kConvC * 9, 0);
  const std::vector<float> bias = ConvMatMulWeight(kConvC, 1);
  std::vector<float> y(kConvC * kConvH * kConvH);
  for (int64_t m = 0; m < kConvC; ++m) {
    for (int64_t i = 0; i < kConvH; ++i) {
      for (int64_t j = 0; j < kConvH; ++j) {
        double s = bias[m];
        for (int64_t c = 0; c < kConvC; ++c) {
          for (int64_t u = 0; u < 3; ++u) {
            for (int64_t v = 0; v < 3; ++v) {
              const int64_t r = i + u - 1, q = j + v - 1;
              if (r < 0 || q < 0 || r >= kConvH || q >= kConvH) continue;
              s += double{w[((m * kConvC + c) * 3 + u) * 3 + v]} *
                   x[(c * kConvH + r) * kConvH + q];
            }
          }
        }
        y[(m * kConvH + i) * kConvH + j] = static_cast<float>(s > 0 ? s : 0);
      }
    }
  }
  return y;
}

std::vector<float> ExpectedMatMul(const std::vector<float>& a) {
  const std::vector<float> b = ConvMatMulWeight(kMatK * kMatN, 2);
  std::vector<float> z(kMatM * kMatN);
  for (int64_t i = 0; i < kMatM; ++i) {
    for (int64_t j = 0; j < kMatN; ++j) {
      double s = 0;
      for (int64_t k = 0; k < kMatK; ++k)
        s += double{a[i * kMatK + k]} * b[k * kMatN + j];
      z[i * kMatN + j] = static_cast<float>(s);
    }
  }
  return z;
}

}  // namespace ascend_emu::acl_test

namespace ascend_emu::acl_test {

std::vector<uint8_t> BuildTinyMlpOm(const std::string& soc_version) {
  Program p;
  p.soc_version = soc_version;
  p.producer = "acl emulator tests";
  uint64_t w1_off = 0, b1_off = 0, w2_off = 0, b2_off = 0;
  const std::vector<float> w1 = ConvMatMulWeight(kMlpHidden * kMlpIn, 5);
  const std::vector<float> b1 = ConvMatMulWeight(kMlpHidden, 6);
  const std::vector<float> w2 = ConvMatMulWeight(kMlpHidden * kMlpOut, 7);
  const std::vector<float> b2 = ConvMatMulWeight(kMlpOut, 8);
  testing::AppendWeights(&p, w1.data(), w1.size() * sizeof(float), &w1_off);
  testing::AppendWeights(&p, b1.data(), b1.size() * sizeof(float), &b1_off);
  testing::AppendWeights(&p, w2.data(), w2.size() * sizeof(float), &w2_off);
  testing::AppendWeights(&p, b2.data(), b2.size() * sizeof(float), &b2_off);
  const Shape xs = Dims({1, kMlpIn});
  const Shape hs = Dims({1, kMlpHidden});
  const Shape zs = Dims({1, kMlpOut});
  p.tensors = {
      MakeTensor("x", DType::kFloat32, xs, TensorLocation::kInput, 0),
      MakeTensor("W1", DType::kFloat32, Dims({kMlpHidden, kMlpIn}),
                 TensorLocation::kWeight, w1_off),
      MakeTensor("b1", DType::kFloat32, Dims({kMlpHidden}),
                 TensorLocation::kWeight, b1_off),
      MakeTensor("W2", DType::kFloat32, Dims({kMlpHidden, kMlpOut}),
                 TensorLocation::kWeight, w2_off),
      MakeTensor("b2", DType::kFloat32, Dims({kMlpOut}),
                 TensorLocation::kWeight, b2_off),
      MakeTensor("h", DType::kFloat32, hs, TensorLocation::kArena, 0),
      MakeTensor("r", DType::kFloat32, hs, TensorLocation::kArena,
                 Align(kMlpHidden * sizeof(float))),
      MakeTensor("z", DType::kFloat32, zs, TensorLocation::kOutput, 0),
  };
  p.inputs = {MakeIo("x", DType::kFloat32, xs, 0)};
  p.outputs = {MakeIo("z", DType::kFloat32, zs, 7)};
  OpInfo fc1 = MakeOp("Gemm", "gemm_0", {0, 1, 2}, {5});
  Attribute one;
  one.i = 1;
  fc1.attrs.map()["transB"] = one;
  OpInfo relu = MakeOp("Relu", "relu_1", {5}, {6});
  OpInfo fc2 = MakeOp("Gemm", "gemm_2", {6, 3, 4}, {7});
  Attribute alpha;
  alpha.kind = Attribute::Kind::kFloat;
  alpha.f = kMlpAlpha2;
  Attribute beta = alpha;
  beta.f = kMlpBeta2;
  fc2.attrs.map()["alpha"] = alpha;
  fc2.attrs.map()["beta"] = beta;
  p.ops = {fc1, relu, fc2};
  p.arena_size = 2 * Align(kMlpHidden * sizeof(float));
  return Write(p);
}

std::vector<float> ExpectedTinyMlp(const std::vector<float>& x) {
  const std::vector<float> w1 = ConvMatMulWeight(kMlpHidden * kMlpIn, 5);
  const std::vector<float> b1 = ConvMatMulWeight(kMlpHidden, 6);
  const std::vector<float> w2 = ConvMatMulWeight(kMlpHidden * kMlpOut, 7);
  const std::vector<float> b2 = ConvMatMulWeight(kMlpOut, 8);
  std::vector<double> r(kMlpHidden);
  for (int64_t j = 0; j < kMlpHidden; ++j) {
    double acc = b1[j];
    for (int64_t i = 0; i < kMlpIn; ++i) acc += x[i] * w1[j * kMlpIn + i];
    r[j] = std::max(0.0, acc);
  }
  std::vector<float> z(kMlpOut);
  for (int64_t j = 0; j < kMlpOut; ++j) {
    double acc = 0;
    for (int64_t i = 0; i < kMlpHidden; ++i) acc += r[i] * w2[i * kMlpOut + j];
    z[j] = static_cast<float>(kMlpAlpha2 * acc + kMlpBeta2 * b2[j]);
  }
  return z;
}

}  // namespace ascend_emu::acl_test
