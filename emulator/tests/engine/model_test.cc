// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Model::Load + Model::Run on hand-built programs, and ValidateProgram's
// refusals of programs that would make a kernel touch the wrong memory.
#include "ascend_emu/model.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "ascend_emu/om_format.h"
#include "ascend_emu/program_check.h"
#include "sample_programs.h"

namespace ascend_emu {
namespace {

using testing::AddReluReshapeProgram;

std::unique_ptr<Model> LoadProgram(const Program& p, std::string* error) {
  std::vector<uint8_t> image;
  if (!WriteOm(p, &image, error)) return nullptr;
  return Model::Load(image.data(), image.size(), error);
}

const float kX[6] = {1.0f, 2.0f, -3.0f, 4.0f, -5.0f, 6.0f};
const float kB[6] = {0.5f, -1.0f, 2.0f, -3.0f, 0.0f, 1.0f};

void ExpectAddReluReshape(const float y[6], const float x_again[6],
                          const float b_out[6]) {
  for (int i = 0; i < 6; ++i) {
    const float want = std::max(0.0f, kX[i] + kB[i]);
    EXPECT_FLOAT_EQ(y[i], want) << "y[" << i << "]";
    EXPECT_EQ(x_again[i], kX[i]);
    EXPECT_EQ(b_out[i], kB[i]);
  }
}

TEST(Model, DescribesItsIo) {
  std::string error;
  auto model = LoadProgram(AddReluReshapeProgram(), &error);
  ASSERT_NE(model, nullptr) << error;
  ASSERT_EQ(model->inputs().size(), 1u);
  ASSERT_EQ(model->outputs().size(), 3u);
  EXPECT_EQ(model->inputs()[0].name, "x");
  EXPECT_EQ(model->inputs()[0].size_bytes, 24u);
  EXPECT_EQ(model->outputs()[0].shape, testing::Dims({3, 2}));
  EXPECT_EQ(model->outputs()[0].dtype, DType::kFloat32);
  EXPECT_EQ(model->outputs()[2].name, "b_out");
  EXPECT_EQ(model->weight_size(), 64u + 16u);
  EXPECT_GE(model->work_size(), 128u);
}

TEST(Model, RunsAndCopiesInputAndConstantOutputs) {
  std::string error;
  auto model = LoadProgram(AddReluReshapeProgram(), &error);
  ASSERT_NE(model, nullptr) << error;
  float y[6] = {}, x_again[6] = {}, b_out[6] = {};
  const void* inputs[] = {kX};
  void* outputs[] = {y, x_again, b_out};
  ASSERT_TRUE(model->Run(inputs, outputs, nullptr, &error)) << error;
  ExpectAddReluReshape(y, x_again, b_out);

  // Again, into poisoned buffers: nothing is left over from the first run.
  for (float* o : {y, x_again, b_out}) std::fill(o, o + 6, -7.0f);
  ASSERT_TRUE(model->Run(inputs, outputs, nullptr, &error)) << error;
  ExpectAddReluReshape(y, x_again, b_out);
}

TEST(Model, RunsInCallerWorkMemoryOfAnyAlignment) {
  std::string error;
  auto model = LoadProgram(AddReluReshapeProgram(), &error);
  ASSERT_NE(model, nullptr) << error;
  std::vector<uint8_t> work(model->work_size() + 1, 0xCD);
  float y[6] = {}, x_again[6] = {}, b_out[6] = {};
  const void* inputs[] = {kX};
  void* outputs[] = {y, x_again, b_out};
  // Offset by one byte: the model must align inside the work_size() bytes.
  ASSERT_TRUE(model->Run(inputs, outputs, work.data() + 1, &error)) << error;
  ExpectAddReluReshape(y, x_again, b_out);
  EXPECT_EQ(work.back(), 0xCD) << "ran past work_size()";
}

TEST(Model, RefusesNullBuffers) {
  std::string error;
  auto model = LoadProgram(AddReluReshapeProgram(), &error);
  ASSERT_NE(model, nullptr) << error;
  float y[6], x_again[6];
  const void* inputs[] = {kX};
  void* outputs[] = {y, x_again, nullptr};
  EXPECT_FALSE(model->Run(inputs, outputs, nullptr, &error));
  EXPECT_NE(error.find("output 2 is null"), std::string::npos) << error;
  const void* no_inputs[] = {nullptr};
  void* good_outputs[] = {y, x_again, y};
  EXPECT_FALSE(model->Run(no_inputs, good_outputs, nullptr, &error));
  EXPECT_NE(error.find("input 0 is null"), std::string::npos) << error;
  EXPECT_FALSE(model->Run(nullptr, good_outputs, nullptr, &error));
}

// Each edit makes an otherwise valid program unsafe or inconsistent.
struct BadProgramCase {
  const char* name;
  void (*edit)(Program*);
  const char* expected;
};

const BadProgramCase kBadPrograms[] = {
    {"tensor past the arena", [](Program* p) { p->tensors[4].offset = 128; },
     "outside the arena"},
    {"misaligned arena tensor", [](Program* p) { p->tensors[4].offset = 8; },
     "misaligned"},
    {"weight past the section", [](Program* p) { p->tensors[2].offset = 128; },
     "outside the weight section"},
    {"arena larger than the plan", [](Program* p) { p->arena_size = 1 << 20; },
     "exceeds what the plan uses"},
    {"unknown op", [](Program* p) { p->ops[1].op_type = "Gelu"; }, "no kernel"},
    {"read before write", [](Program* p) { std::swap(p->ops[0], p->ops[1]); },
     "before it is written"},
    {"write to a weight", [](Program* p) { p->ops[0].outputs = {1}; },
     "graph input or a weight"},
    {"second write", [](Program* p) { p->ops[1].outputs = {3}; },
     "a second time"},
    {"input index out of range", [](Program* p) { p->ops[0].inputs[1] = 99; },
     "out of range"},
    {"output shape differs from Infer",
     [](Program* p) {
       p->tensors[5].shape = testing::Dims({2, 3});
       p->outputs[0].shape = testing::Dims({2, 3});
     },
     "by its kernel"},
    {"Infer refuses", [](Program* p) { p->tensors[2].dtype = DType::kInt32; },
     "Reshape"},
    {"output overlaps input",
     [](Program* p) {
       p->tensors[4].offset = 0;
       p->arena_size = 64;
     },
     "overlaps"},
    {"scratch overlapping an output",
     [](Program* p) {
       p->ops[0].scratch_offset = 0;
       p->ops[0].scratch_size = 4;
     },
     "overlaps"},
    {"io tensor mismatch",
     [](Program* p) { p->outputs[0].dtype = DType::kInt64; }, "does not match"},
    {"input bound elsewhere", [](Program* p) { p->inputs[0].tensor = 1; },
     "names a graph input"},
    {"output never written", [](Program* p) { p->ops.pop_back(); },
     "never written"},
    {"bad soc", [](Program* p) { p->soc_version = "Ascend 910"; },
     "soc_version"},
};

TEST(ValidateProgram, AcceptsTheSample) {
  const Program p = AddReluReshapeProgram();
  EXPECT_EQ(ValidateProgram(p, p.weights.data()), "");
}

TEST(ValidateProgram, RefusesUnsafePrograms) {
  for (const BadProgramCase& c : kBadPrograms) {
    Program p = AddReluReshapeProgram();
    c.edit(&p);
    const std::string err = ValidateProgram(p, p.weights.data());
    EXPECT_NE(err.find(c.expected), std::string::npos)
        << c.name << ": got '" << err << "'";
    // And Model::Load refuses the same program written to an .om.
    std::string error;
    EXPECT_EQ(LoadProgram(p, &error), nullptr) << c.name;
  }
}

}  // namespace
}  // namespace ascend_emu
