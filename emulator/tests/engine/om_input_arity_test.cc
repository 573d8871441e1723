// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The .om loader's input-arity rule (kernels.def's required/max/kind per
// kernel): an op whose required or variadic input is absent is refused at
// load, naming the op and the input, before any kernel runs. Issue 11: a Max
// with input 1 absent (-1) passed Infer and crashed Run on a null pointer.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "ascend_emu/kernel.h"
#include "ascend_emu/model.h"
#include "ascend_emu/om_format.h"
#include "ascend_emu/program_check.h"
#include "program_builder.h"

namespace ascend_emu {
namespace {

using testing::Dims;
using testing::MakeIo;
using testing::MakeOp;
using testing::MakeTensor;

// One op of `type` reading `inputs` (indices of `num_graph_inputs` float
// [2, 3] graph inputs, or kAbsentTensor) and writing the float [2, 3] output.
Program OneOpProgram(const std::string& type, size_t num_graph_inputs,
                     std::vector<int32_t> inputs) {
  Program p;
  p.soc_version = "Ascend910B1";
  p.producer = "om_input_arity_test";
  for (size_t i = 0; i < num_graph_inputs; ++i) {
    const std::string name = "x" + std::to_string(i);
    p.tensors.push_back(MakeTensor(name, DType::kFloat32, Dims({2, 3}),
                                   TensorLocation::kInput, i));
    p.inputs.push_back(
        MakeIo(name, DType::kFloat32, Dims({2, 3}), static_cast<uint32_t>(i)));
  }
  const uint32_t y = static_cast<uint32_t>(p.tensors.size());
  p.tensors.push_back(MakeTensor("y", DType::kFloat32, Dims({2, 3}),
                                 TensorLocation::kOutput, 0));
  p.outputs.push_back(MakeIo("y", DType::kFloat32, Dims({2, 3}), y));
  p.ops.push_back(
      MakeOp(type, "node", std::move(inputs), {static_cast<int32_t>(y)}));
  return p;
}

std::unique_ptr<Model> Load(const Program& p, std::string* error) {
  std::vector<uint8_t> image;
  if (!WriteOm(p, &image, error)) return nullptr;
  return Model::Load(image.data(), image.size(), error);
}

TEST(OmInputArity, MaxWithAbsentSecondInputIsRefusedAtLoad) {
  for (const char* type : {"Max", "Min"}) {
    std::string error;
    auto model = Load(OneOpProgram(type, 1, {0, kAbsentTensor}), &error);
    EXPECT_EQ(model, nullptr) << type << " loaded; running it would crash";
    EXPECT_NE(
        error.find("invalid .om: op 0 'node' (" + std::string(type) + ")"),
        std::string::npos)
        << error;
    EXPECT_NE(error.find("input 1 is absent"), std::string::npos) << error;
  }
}

TEST(OmInputArity, MaxWithBothInputsStillLoadsAndRuns) {
  std::string error;
  auto model = Load(OneOpProgram("Max", 2, {0, 1}), &error);
  ASSERT_NE(model, nullptr) << error;
  const float a[6] = {1, -2, 3, -4, 5, -6};
  const float b[6] = {0, 0, 0, 0, 0, 0};
  float y[6] = {};
  const void* in[] = {a, b};
  void* out[] = {y};
  ASSERT_TRUE(model->Run(in, out, nullptr, &error)) << error;
  for (int i = 0; i < 6; ++i) EXPECT_EQ(y[i], a[i] > 0 ? a[i] : 0.0f);
}

TEST(OmInputArity, AbsentRequiredInputOfAFixedOpIsRefused) {
  std::string error;
  auto model = Load(OneOpProgram("Add", 1, {kAbsentTensor, 0}), &error);
  EXPECT_EQ(model, nullptr);
  EXPECT_NE(error.find("(Add): Add: input 0 is absent, but Add requires"),
            std::string::npos)
      << error;
}

// Every row of the table, through the validator the loader runs.
TEST(OmInputArity, EveryKernelsRowIsEnforced) {
  for (const std::string& type : KernelOpTypes()) {
    const InputArity a = FindKernel(type)->arity;
    SCOPED_TRACE(type);
    const size_t n = a.max + 1u;  // graph inputs to pick from
    auto validate = [&](std::vector<int32_t> inputs) {
      return ValidateProgram(OneOpProgram(type, n, std::move(inputs)), nullptr);
    };
    std::vector<int32_t> present;
    for (size_t i = 0; i < a.required; ++i) {
      present.push_back(static_cast<int32_t>(i));
    }
    // The last required input absent.
    if (a.required > 0) {
      std::vector<int32_t> in = present;
      in.back() = kAbsentTensor;
      const std::string err = validate(in);
      EXPECT_NE(err.find("input " + std::to_string(a.required - 1) +
                         " is absent, but " + type + " requires"),
                std::string::npos)
          << err;
    }
    // One input more than the row allows.
    std::vector<int32_t> too_many;
    for (size_t i = 0; i <= a.max; ++i) {
      too_many.push_back(static_cast<int32_t>(i));
    }
    const std::string err = validate(too_many);
    EXPECT_NE(err.find(type + ": expects "), std::string::npos) << err;
    if (a.kind == InputKind::kFixed) continue;
    // An input after the required ones absent: refused only when variadic.
    std::vector<int32_t> tail = present;
    tail.push_back(kAbsentTensor);
    const std::string tail_err = validate(tail);
    if (a.kind == InputKind::kVariadic) {
      EXPECT_NE(tail_err.find("input " + std::to_string(a.required) +
                              " is absent, but every input of " + type),
                std::string::npos)
          << tail_err;
    } else {
      // Infer may refuse it for other reasons; the arity rule must not.
      EXPECT_EQ(tail_err.find("is absent, but"), std::string::npos) << tail_err;
    }
  }
}

// The fuzz regression input (tests/fuzz/regressions/fuzz_om_resealed/): a
// Max reading tensor -1 as its second input, found by fuzz_om_resealed.
TEST(OmInputArity, RegressionImageIsRefused) {
  const std::string path = std::string(EXECUTORCH_ASCEND_SOURCE_DIR) +
                           "/tests/fuzz/regressions/fuzz_om_resealed/"
                           "crash-max-absent-second-input";
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in) << path;
  const std::vector<uint8_t> image(std::istreambuf_iterator<char>(in), {});
  std::string error;
  auto model = Model::Load(image.data(), image.size(), &error);
  EXPECT_EQ(model, nullptr);
  EXPECT_NE(error.find("(Max): Max: input 1 is absent"), std::string::npos)
      << error;
}

}  // namespace
}  // namespace ascend_emu
