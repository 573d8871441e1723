// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The .om writer and reader: round trip, header checks, and robustness of the
// reader + loader against truncated and corrupted images.
#include "ascend_emu/om_format.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "ascend_emu/model.h"
#include "emulator_ids.h"
#include "om_corruption.h"
#include "sample_programs.h"

namespace ascend_emu {
namespace {

using testing::AddReluReshapeProgram;

std::vector<uint8_t> Write(const Program& p) {
  std::vector<uint8_t> image;
  std::string error;
  EXPECT_TRUE(WriteOm(p, &image, &error)) << error;
  return image;
}

// A program exercising every attribute kind and an absent input, for the
// round trip (it is not meant to validate).
Program EveryFieldProgram() {
  Program p = AddReluReshapeProgram();
  OpInfo& op = p.ops[0];
  Attribute f;
  f.kind = Attribute::Kind::kFloat;
  f.f = -2.5f;
  Attribute s;
  s.kind = Attribute::Kind::kString;
  s.s = "NOTSET";
  Attribute fs;
  fs.kind = Attribute::Kind::kFloats;
  fs.floats = {1.0f, 0.25f};
  op.attrs.map()["f"] = f;
  op.attrs.map()["s"] = s;
  op.attrs.map()["fs"] = fs;
  op.attrs.map()["is"] = testing::IntsAttr({-1, 0, 1LL << 40});
  op.inputs.push_back(kAbsentTensor);
  op.scratch_offset = 64;
  op.scratch_size = 192;
  p.inputs[0].format = ACL_FORMAT_NCHW;
  return p;
}

TEST(OmFormat, RoundTripKeepsEveryField) {
  const Program p = EveryFieldProgram();
  const std::vector<uint8_t> image = Write(p);
  ASSERT_EQ(std::memcmp(image.data(), EXECUTORCH_ASCEND_EMU_OM_MAGIC,
                        EXECUTORCH_ASCEND_EMU_OM_MAGIC_SIZE),
            0);

  Program q;
  std::string error;
  ASSERT_TRUE(ReadOm(image.data(), image.size(), &q, &error)) << error;
  EXPECT_EQ(q.soc_version, p.soc_version);
  EXPECT_EQ(q.producer, p.producer);
  ASSERT_EQ(q.inputs.size(), p.inputs.size());
  ASSERT_EQ(q.outputs.size(), p.outputs.size());
  for (size_t i = 0; i < p.outputs.size(); ++i) {
    EXPECT_EQ(q.outputs[i].name, p.outputs[i].name);
    EXPECT_EQ(q.outputs[i].dtype, p.outputs[i].dtype);
    EXPECT_EQ(q.outputs[i].format, p.outputs[i].format);
    EXPECT_EQ(q.outputs[i].shape, p.outputs[i].shape);
    EXPECT_EQ(q.outputs[i].tensor, p.outputs[i].tensor);
  }
  EXPECT_EQ(q.inputs[0].format, ACL_FORMAT_NCHW);
  ASSERT_EQ(q.tensors.size(), p.tensors.size());
  for (size_t i = 0; i < p.tensors.size(); ++i) {
    EXPECT_EQ(q.tensors[i].name, p.tensors[i].name);
    EXPECT_EQ(q.tensors[i].dtype, p.tensors[i].dtype);
    EXPECT_EQ(q.tensors[i].shape, p.tensors[i].shape);
    EXPECT_EQ(q.tensors[i].location, p.tensors[i].location);
    EXPECT_EQ(q.tensors[i].offset, p.tensors[i].offset);
  }
  ASSERT_EQ(q.ops.size(), p.ops.size());
  for (size_t i = 0; i < p.ops.size(); ++i) {
    EXPECT_EQ(q.ops[i].op_type, p.ops[i].op_type);
    EXPECT_EQ(q.ops[i].name, p.ops[i].name);
    EXPECT_EQ(q.ops[i].inputs, p.ops[i].inputs);
    EXPECT_EQ(q.ops[i].outputs, p.ops[i].outputs);
    EXPECT_EQ(q.ops[i].scratch_offset, p.ops[i].scratch_offset);
    EXPECT_EQ(q.ops[i].scratch_size, p.ops[i].scratch_size);
    ASSERT_EQ(q.ops[i].attrs.map().size(), p.ops[i].attrs.map().size());
  }
  const Attributes& a = q.ops[0].attrs;
  EXPECT_EQ(a.GetFloat("f", 0), -2.5f);
  EXPECT_EQ(a.GetString("s", ""), "NOTSET");
  EXPECT_EQ(a.GetFloats("fs"), (std::vector<float>{1.0f, 0.25f}));
  EXPECT_EQ(a.GetInts("is"), (std::vector<int64_t>{-1, 0, 1LL << 40}));
  EXPECT_EQ(q.ops[2].attrs.GetInt("allowzero", 7), 0);
  EXPECT_EQ(q.arena_size, p.arena_size);
  EXPECT_EQ(q.weights, p.weights);

  // Writing what was read reproduces the bytes exactly.
  EXPECT_EQ(Write(q), image);
}

TEST(OmFormat, RejectsWrongMagic) {
  std::vector<uint8_t> image = Write(AddReluReshapeProgram());
  image[0] = 'X';
  ResealOm(&image);
  std::string error;
  EXPECT_EQ(Model::Load(image.data(), image.size(), &error), nullptr);
  EXPECT_NE(error.find("wrong magic"), std::string::npos) << error;
}

TEST(OmFormat, RejectsOtherVersions) {
  for (uint8_t version : {0, 1, 2, 4, 255}) {
    std::vector<uint8_t> image = Write(AddReluReshapeProgram());
    image[8] = version;
    ResealOm(&image);
    std::string error;
    EXPECT_EQ(Model::Load(image.data(), image.size(), &error), nullptr);
    EXPECT_NE(
        error.find("unsupported .om format version " + std::to_string(version)),
        std::string::npos)
        << error;
  }
}

TEST(OmFormat, RejectsUnknownFlags) {
  std::vector<uint8_t> image = Write(AddReluReshapeProgram());
  image[12] = 1;
  ResealOm(&image);
  std::string error;
  EXPECT_EQ(Model::Load(image.data(), image.size(), &error), nullptr);
  EXPECT_NE(error.find("flags"), std::string::npos) << error;
}

TEST(OmFormat, DetectsDamageByChecksum) {
  std::vector<uint8_t> image = Write(AddReluReshapeProgram());
  image[image.size() / 2] ^= 0x10;
  std::string error;
  EXPECT_EQ(Model::Load(image.data(), image.size(), &error), nullptr);
  EXPECT_NE(error.find("checksum"), std::string::npos) << error;
}

TEST(OmFormat, DetectsTrailingBytes) {
  std::vector<uint8_t> image = Write(AddReluReshapeProgram());
  image.push_back(0);
  std::string error;
  EXPECT_EQ(Model::Load(image.data(), image.size(), &error), nullptr);
  EXPECT_NE(error.find("size mismatch"), std::string::npos) << error;
  // Even with the size and checksum made consistent, the extra byte is refused.
  image.insert(image.end() - 5, 0xAB);
  image.pop_back();
  ResealOm(&image);
  EXPECT_EQ(Model::Load(image.data(), image.size(), &error), nullptr);
  EXPECT_NE(error.find("unexpected bytes"), std::string::npos) << error;
}

// The soc_version string starts at byte 28 (after its u32 length at 24).
TEST(OmFormat, SocVersionIsKeptAndValidated) {
  std::vector<uint8_t> image = Write(AddReluReshapeProgram());
  ASSERT_EQ(std::string(reinterpret_cast<char*>(&image[28]), 11),
            "Ascend910B1");
  std::string error;
  auto model = Model::Load(image.data(), image.size(), &error);
  ASSERT_NE(model, nullptr) << error;
  EXPECT_EQ(model->soc_version(), "Ascend910B1");

  image[28 + 10] = '2';  // another well-formed chip name
  ResealOm(&image);
  model = Model::Load(image.data(), image.size(), &error);
  ASSERT_NE(model, nullptr) << error;
  EXPECT_EQ(model->soc_version(), "Ascend910B2");

  image[28 + 3] = '\x01';  // not a chip name
  ResealOm(&image);
  EXPECT_EQ(Model::Load(image.data(), image.size(), &error), nullptr);
  EXPECT_NE(error.find("soc_version"), std::string::npos) << error;

  image[24] = 200;  // length beyond the soc_version limit
  ResealOm(&image);
  EXPECT_EQ(Model::Load(image.data(), image.size(), &error), nullptr);
  EXPECT_NE(error.find("soc_version"), std::string::npos) << error;
}

TEST(OmFormat, RejectsEmptyAndTinyImages) {
  std::string error;
  EXPECT_EQ(Model::Load(nullptr, 0, &error), nullptr);
  EXPECT_FALSE(error.empty());
  const uint8_t junk[40] = {};
  EXPECT_EQ(Model::Load(junk, sizeof(junk), &error), nullptr);
  EXPECT_NE(error.find("wrong magic"), std::string::npos) << error;
}

TEST(OmFormat, WriterRefusesOutOfLimitFields) {
  Program p = AddReluReshapeProgram();
  p.soc_version = std::string(65, 'A');
  std::vector<uint8_t> image;
  std::string error;
  EXPECT_FALSE(WriteOm(p, &image, &error));
  EXPECT_NE(error.find("soc_version"), std::string::npos);
  p = AddReluReshapeProgram();
  p.tensors[0].shape.rank = kMaxRank + 1;
  EXPECT_FALSE(WriteOm(p, &image, &error));
}

TEST(OmRobustness, EveryTruncationIsRejected) {
  testing::CheckAllTruncations(Write(AddReluReshapeProgram()));
}

TEST(OmRobustness, RandomCorruptionsNeverCrash) {
  const std::vector<uint8_t> image = Write(AddReluReshapeProgram());
  const testing::CorruptionStats stats =
      testing::CheckRandomCorruptions(image, 20000, /*seed=*/1234);
  EXPECT_EQ(stats.attempts, 20000);
  // Most edits must be caught; a few (a name's letter, a weight's value) are
  // harmless and load.
  EXPECT_GT(stats.rejected, stats.attempts / 2);
  EXPECT_GT(stats.loaded, 0);
}

// --- Shape gears (version 3's gear table). ---

using testing::GearAddReluProgram;

std::unique_ptr<Model> LoadProgram(const Program& p, std::string* error) {
  const std::vector<uint8_t> image = Write(p);
  return Model::Load(image.data(), image.size(), error);
}

TEST(OmGears, RoundTripKeepsTheGearTable) {
  const Program p = GearAddReluProgram();
  const std::vector<uint8_t> image = Write(p);
  Program back;
  std::string error;
  ASSERT_TRUE(ReadOm(image.data(), image.size(), &back, &error)) << error;
  EXPECT_EQ(back.gear_table.type, DynamicType::kDynamicBatch);
  EXPECT_EQ(back.gear_table.shape_order, p.gear_table.shape_order);
  EXPECT_EQ(back.gear_table.positions, p.gear_table.positions);
  EXPECT_EQ(back.gear_table.values, p.gear_table.values);
  ASSERT_EQ(back.gears.size(), 2u);
  EXPECT_TRUE(back.inputs.empty());
  EXPECT_EQ(back.gears[1].inputs[0].shape, testing::Dims({3, 2}));
  EXPECT_EQ(back.gears[1].inputs[1].name, kGearInputName);
  EXPECT_EQ(back.weights, p.weights);
}

TEST(OmGears, EachGearRunsItsOwnShapes) {
  std::string error;
  std::unique_ptr<Model> model = LoadProgram(GearAddReluProgram(), &error);
  ASSERT_NE(model, nullptr) << error;
  ASSERT_EQ(model->num_gears(), 2u);
  // The model-level description: -1 in the batch, the largest gear's size.
  ASSERT_EQ(model->inputs().size(), 2u);
  EXPECT_EQ(model->inputs()[0].shape.dims[0], -1);
  EXPECT_EQ(model->inputs()[0].size_bytes, 3 * 2 * sizeof(float));
  EXPECT_EQ(model->inputs()[1].size_bytes, sizeof(int32_t));
  EXPECT_EQ(model->outputs()[0].shape, testing::Dims({3, 2}));
  EXPECT_EQ(model->gear_outputs(0)[0].shape, testing::Dims({1, 2}));
  const float x[6] = {1, 1, -1, 2, 3, -3};
  int32_t gear_value = 0;
  for (size_t g = 0; g < 2; ++g) {
    std::vector<float> y(6, -7.0f);
    const void* in[2] = {x, &gear_value};
    void* out[1] = {y.data()};
    ASSERT_TRUE(model->RunGear(g, in, out, nullptr, &error)) << error;
    const size_t rows = g == 0 ? 1 : 3;
    for (size_t i = 0; i < 6; ++i) {
      const float want = i < rows * 2
                             ? std::max(0.0f, x[i] + testing::kGearBias[i % 2])
                             : -7.0f;  // past the gear's bytes: untouched
      EXPECT_FLOAT_EQ(y[i], want) << "gear " << g << " element " << i;
    }
  }
  EXPECT_FALSE(model->RunGear(2, nullptr, nullptr, nullptr, &error));
}

TEST(OmGears, ValidationRefusesInconsistentTables) {
  struct Case {
    const char* expected;
    void (*edit)(Program*);
  };
  const Case cases[] = {
      {"listed twice", [](Program* p) { p->gear_table.values[1] = {1}; }},
      {"gear table says", [](Program* p) { p->gear_table.values[1] = {4}; }},
      {"does not end with the gear input",
       [](Program* p) {
         for (Program& g : p->gears) g.inputs[1].name = "other";
       }},
      {"only dim 0 can be dynamic",
       [](Program* p) {
         p->gear_table.positions = {{0, 1}};
       }},
      {"no dynamic dims or no shape order",
       [](Program* p) { p->gear_table.shape_order = {}; }},
      {"not a dim of an input in the shape order",
       [](Program* p) {
         p->gear_table.positions = {{0, 2}};
       }},
      {"shape order names input",
       [](Program* p) {
         p->gear_table.shape_order = {0, 0};
       }},
      {"differs from gear 0's",
       [](Program* p) { p->gears[1].outputs[0].name = "z"; }},
  };
  for (const Case& c : cases) {
    Program p = GearAddReluProgram();
    c.edit(&p);
    std::vector<uint8_t> image;
    std::string error;
    std::unique_ptr<Model> model;
    if (WriteOm(p, &image, &error)) {
      model = Model::Load(image.data(), image.size(), &error);
    }
    EXPECT_EQ(model, nullptr) << c.expected;
    EXPECT_NE(error.find(c.expected), std::string::npos)
        << "expected '" << c.expected << "', got '" << error << "'";
  }
}

TEST(OmGears, ReaderRefusesOutOfRangeGearFields) {
  // The gear table starts right after soc_version and producer.
  const Program p = GearAddReluProgram();
  const std::vector<uint8_t> image = Write(p);
  const size_t table = 24 + 4 + p.soc_version.size() + 4 + p.producer.size();
  struct Case {
    size_t offset;  // from the table's start
    uint32_t value;
    const char* expected;
  };
  // type, order count, order[0], position count, input, dim, gears, per gear
  const Case cases[] = {
      {0, 2, "unknown dynamic type 2"},
      {0, 0, "a static model has a gear table"},
      {24, 1, "gear count 1 is outside [2, 256]"},
      {24, 257, "gear count 257"},
      {28, 2, "values per gear 2 does not fit"},
      {12, 129, "gear position count"},
  };
  for (const Case& c : cases) {
    std::vector<uint8_t> bad = image;
    for (int b = 0; b < 4; ++b) {
      bad[table + c.offset + b] = static_cast<uint8_t>(c.value >> (8 * b));
    }
    ASSERT_TRUE(ResealOm(&bad));
    Program out;
    std::string error;
    EXPECT_FALSE(ReadOm(bad.data(), bad.size(), &out, &error)) << c.expected;
    EXPECT_NE(error.find(c.expected), std::string::npos)
        << "expected '" << c.expected << "', got '" << error << "'";
  }
  // A gear value of 0 (values start at table + 32).
  std::vector<uint8_t> bad = image;
  bad[table + 32] = 0;
  ASSERT_TRUE(ResealOm(&bad));
  Program out;
  std::string error;
  EXPECT_FALSE(ReadOm(bad.data(), bad.size(), &out, &error));
  EXPECT_NE(error.find("gear value 0 out of range"), std::string::npos)
      << error;
}

TEST(OmGears, EveryTruncationIsRejected) {
  testing::CheckAllTruncations(Write(GearAddReluProgram()));
}

TEST(OmGears, RandomCorruptionsNeverCrash) {
  const std::vector<uint8_t> image = Write(GearAddReluProgram());
  const testing::CorruptionStats stats =
      testing::CheckRandomCorruptions(image, 20000, /*seed=*/4321);
  EXPECT_EQ(stats.attempts, 20000);
  EXPECT_GT(stats.rejected, stats.attempts / 2);
  EXPECT_GT(stats.loaded, 0);
}

// The checksum is CRC-32 (IEEE 802.3) whichever library computes it (ISA-L or
// zlib, chosen at build time): the standard check value, and a bitwise
// reference over lengths and alignments that exercise every folding path.
uint32_t BitwiseCrc32(const uint8_t* data, size_t size) {
  uint32_t crc = 0xFFFFFFFFu;
  for (size_t i = 0; i < size; ++i) {
    crc ^= data[i];
    for (int k = 0; k < 8; ++k)
      crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

TEST(OmChecksum, IsCrc32) {
  const char check[] = "123456789";
  EXPECT_EQ(OmChecksum(reinterpret_cast<const uint8_t*>(check), 9),
            0xCBF43926u);
  EXPECT_EQ(OmChecksum(nullptr, 0), 0u);
  std::vector<uint8_t> bytes(70000);
  uint32_t state = 12345;
  for (uint8_t& b : bytes) {
    state = state * 1664525u + 1013904223u;
    b = static_cast<uint8_t>(state >> 24);
  }
  for (size_t offset : {0, 1, 3, 7, 13}) {
    for (size_t size : {1, 15, 16, 63, 64, 65, 255, 256, 1023, 4096, 65537}) {
      EXPECT_EQ(OmChecksum(bytes.data() + offset, size),
                BitwiseCrc32(bytes.data() + offset, size))
          << "offset " << offset << ", size " << size;
    }
  }
}

}  // namespace
}  // namespace ascend_emu
