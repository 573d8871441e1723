// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// FileConstant tensors (atc --external_weight): the .om names its weight
// files, Model::Load binds each to caller memory and every run reads that
// memory in place; every binding mistake is refused with a message naming
// the file.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "ascend_emu/model.h"
#include "ascend_emu/om_format.h"
#include "sample_programs.h"

namespace ascend_emu {
namespace {

using testing::ExternalAddReluReshapeProgram;
using testing::kExternalB;
using testing::kExternalShape;

std::vector<uint8_t> Image(const Program& p) {
  std::vector<uint8_t> image;
  std::string error;
  EXPECT_TRUE(WriteOm(p, &image, &error)) << error;
  return image;
}

// Bound "device" memory: the weight bytes, 64-byte aligned like aclrtMalloc.
struct BoundWeights {
  alignas(64) float b[8];
  alignas(64) int64_t shape[4];
  BoundWeights() {
    std::memcpy(b, kExternalB, sizeof(kExternalB));
    std::memcpy(shape, kExternalShape, sizeof(kExternalShape));
  }
  WeightBindings Bindings() const {
    return {{"weight_b", {b, sizeof(kExternalB)}},
            {"weight_shape", {shape, sizeof(kExternalShape)}}};
  }
};

std::unique_ptr<Model> Load(const Program& p, const WeightBindings& bindings,
                            std::string* error) {
  const std::vector<uint8_t> image = Image(p);
  return Model::Load(image.data(), image.size(), bindings, error);
}

const float kX[6] = {1.0f, 2.0f, -3.0f, 4.0f, -5.0f, 6.0f};

TEST(ExternalWeights, OmRoundTripKeepsTheFileList) {
  const Program p = ExternalAddReluReshapeProgram();
  const std::vector<uint8_t> image = Image(p);
  Program back;
  std::string error;
  ASSERT_TRUE(ReadOm(image.data(), image.size(), &back, &error)) << error;
  ASSERT_EQ(back.external_weights.size(), 2u);
  EXPECT_EQ(back.external_weights[1].name, "weight_shape");
  EXPECT_EQ(back.external_weights[1].size_bytes, sizeof(kExternalShape));
  EXPECT_EQ(back.tensors[2].location, TensorLocation::kExternal);
  EXPECT_EQ(back.tensors[2].file, 1u);
  EXPECT_TRUE(back.weights.empty());

  std::vector<ExternalWeightDesc> listed;
  ASSERT_TRUE(
      Model::ReadExternalWeights(image.data(), image.size(), &listed, &error))
      << error;
  ASSERT_EQ(listed.size(), 2u);
  EXPECT_EQ(listed[0].name, "weight_b");
  EXPECT_EQ(listed[0].size_bytes, sizeof(kExternalB));
}

TEST(ExternalWeights, RunReadsTheBoundMemoryInPlace) {
  BoundWeights bound;
  std::string error;
  auto model = Load(ExternalAddReluReshapeProgram(), bound.Bindings(), &error);
  ASSERT_NE(model, nullptr) << error;
  EXPECT_EQ(model->weight_size(), 0u) << "external weights are not the .om's";
  ASSERT_EQ(model->external_weights().size(), 2u);

  float y[6] = {}, x_again[6] = {}, b_out[6] = {};
  const void* inputs[] = {kX};
  void* outputs[] = {y, x_again, b_out};
  ASSERT_TRUE(model->Run(inputs, outputs, nullptr, &error)) << error;
  for (int i = 0; i < 6; ++i) {
    EXPECT_FLOAT_EQ(y[i], std::max(0.0f, kX[i] + kExternalB[i]));
    EXPECT_EQ(b_out[i], kExternalB[i]);
  }
  // Not a copy: the next run sees what the bound memory holds now.
  std::fill(bound.b, bound.b + 6, 100.0f);
  ASSERT_TRUE(model->Run(inputs, outputs, nullptr, &error)) << error;
  for (int i = 0; i < 6; ++i) EXPECT_FLOAT_EQ(y[i], kX[i] + 100.0f);
}

TEST(ExternalWeights, AnUnboundFileIsRefusedByName) {
  BoundWeights bound;
  WeightBindings bindings = bound.Bindings();
  bindings.erase("weight_shape");
  std::string error;
  EXPECT_EQ(Load(ExternalAddReluReshapeProgram(), bindings, &error), nullptr);
  EXPECT_NE(error.find("'weight_shape' (16 bytes) is not bound"),
            std::string::npos)
      << error;
  EXPECT_EQ(Load(ExternalAddReluReshapeProgram(), {}, &error), nullptr);
  EXPECT_NE(error.find("is not bound"), std::string::npos) << error;
}

TEST(ExternalWeights, ASmallerBindingIsRefused) {
  BoundWeights bound;
  WeightBindings bindings = bound.Bindings();
  bindings["weight_b"].size = 20;
  std::string error;
  EXPECT_EQ(Load(ExternalAddReluReshapeProgram(), bindings, &error), nullptr);
  EXPECT_NE(error.find("'weight_b' is 24 bytes but only 20 bytes are bound"),
            std::string::npos)
      << error;
}

TEST(ExternalWeights, ABindingOfAFileTheOmDoesNotReadIsRefused) {
  BoundWeights bound;
  WeightBindings bindings = bound.Bindings();
  bindings["weight_other"] = {bound.b, 32};
  std::string error;
  EXPECT_EQ(Load(ExternalAddReluReshapeProgram(), bindings, &error), nullptr);
  EXPECT_NE(error.find("'weight_other', a file this .om does not read"),
            std::string::npos)
      << error;
}

TEST(ExternalWeights, BindingsToAnOmWithoutExternalWeightsAreRefused) {
  BoundWeights bound;
  std::string error;
  EXPECT_EQ(Load(testing::AddReluReshapeProgram(), bound.Bindings(), &error),
            nullptr);
  EXPECT_NE(error.find("does not read"), std::string::npos) << error;
}

struct BadExternalCase {
  const char* name;
  void (*edit)(Program*);
  const char* expected;
};

const BadExternalCase kBadExternal[] = {
    {"tensor past its file", [](Program* p) { p->tensors[1].offset = 64; },
     "outside weight file 'weight_b'"},
    {"misaligned tensor",
     [](Program* p) {
       p->external_weights[0].size_bytes = 64;
       p->tensors[1].offset = 8;
     },
     "misaligned"},
    {"file index out of range", [](Program* p) { p->tensors[1].file = 7; },
     "names external weight file 7 of 2"},
    {"name listed twice",
     [](Program* p) { p->external_weights[1].name = "weight_b"; },
     "listed twice"},
    {"empty name", [](Program* p) { p->external_weights[0].name = ""; },
     "has no name"},
    {"path instead of a name",
     [](Program* p) { p->external_weights[0].name = "../weight_b"; },
     "not a plain file name"},
    {"zero size", [](Program* p) { p->external_weights[0].size_bytes = 0; },
     "has size 0"},
    {"op writes an external weight",
     [](Program* p) { p->ops[0].outputs = {1}; }, "graph input or a weight"},
};

TEST(ExternalWeights, ValidationRefusesBadFileConstants) {
  for (const BadExternalCase& c : kBadExternal) {
    SCOPED_TRACE(c.name);
    Program p = ExternalAddReluReshapeProgram();
    c.edit(&p);
    BoundWeights bound;
    WeightBindings bindings;
    for (const ExternalWeightDesc& file : p.external_weights) {
      // Bind enough memory for whatever the edit claims.
      bindings[file.name] = {file.name == "weight_shape"
                                 ? static_cast<const void*>(bound.shape)
                                 : bound.b,
                             file.size_bytes};
    }
    std::string error;
    EXPECT_EQ(Load(p, bindings, &error), nullptr);
    EXPECT_NE(error.find(c.expected), std::string::npos) << error;
  }
}

}  // namespace
}  // namespace ascend_emu
