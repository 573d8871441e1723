// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The compile specs the runtime reads, and the choice of a SoC's .om: no ACL
// needed.
#include "compile_options.h"

#include <gtest/gtest.h>

#include "om_target.h"
#include "program_spec.h"

namespace executorch::backends::ascend {
namespace {

using executorch::runtime::Error;

TEST(CompileOptions, ReadsDeviceIgnoresTheRest) {
  testing::BlobSpec spec;
  spec.soc_version = "Ascend310P3";
  spec.device_id = "7";
  const testing::CompileSpecs specs(spec);
  auto read = read_compile_specs(specs.get());
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(read->device_id, 7);
}

TEST(CompileOptions, DefaultsWhenAbsent) {
  auto read = read_compile_specs({});
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(read->device_id, 0);
}

TEST(CompileOptions, BadDeviceIsInvalidProgram) {
  for (const char* bad :
       {"-1", "one", "1.5", " 1", "2147483648", "99999999999", "0x1"}) {
    testing::BlobSpec spec;
    spec.device_id = bad;
    const testing::CompileSpecs specs(spec);
    auto read = read_compile_specs(specs.get());
    ASSERT_FALSE(read.ok()) << bad;
    EXPECT_EQ(read.error(), Error::InvalidProgram) << bad;
  }
  testing::BlobSpec spec;
  spec.device_id = "2147483647";
  const testing::CompileSpecs specs(spec);
  EXPECT_EQ(read_compile_specs(specs.get())->device_id, 2147483647);
}

TEST(OmTarget, SocFamily) {
  EXPECT_EQ(soc_family("Ascend910B1"), "Ascend910B");
  EXPECT_EQ(soc_family("Ascend910B4-1"), "Ascend910B");
  EXPECT_EQ(soc_family("Ascend310P3"), "Ascend310P");
  EXPECT_EQ(soc_family("Ascend310B1"), "Ascend310B");
  EXPECT_EQ(soc_family("Ascend910_9391"), "Ascend910");
  EXPECT_EQ(soc_family("Ascend910"), "Ascend910");
  EXPECT_EQ(soc_family("Ascend910A"), "Ascend910A");
  EXPECT_EQ(soc_family("Ascend950PR_9579"), "Ascend950PR");
  EXPECT_EQ(soc_family("Kirin9030"), "Kirin9030");
}

DelegateBlob targets(std::initializer_list<const char*> socs) {
  DelegateBlob blob;
  for (const char* soc : socs) {
    blob.targets.push_back(OmTarget{soc, std::string("om/") + soc, {}});
  }
  return blob;
}

std::string chosen(const DelegateBlob& blob, const char* device) {
  auto target = choose_target(blob, device);
  return target.ok() ? target.get()->soc_version : "error";
}

TEST(OmTarget, ExactSocThenFamilyElseRefused) {
  const DelegateBlob one = targets({"Ascend910B1"});
  EXPECT_EQ(chosen(one, "Ascend910B1"), "Ascend910B1");
  EXPECT_EQ(chosen(one, "Ascend910B3"), "Ascend910B1");  // same family
  EXPECT_EQ(chosen(one, "Ascend310P3"), "error");
  EXPECT_EQ(chosen(targets({"Ascend310B1"}), "Ascend310P1"), "error");
  EXPECT_EQ(choose_target(one, "Ascend310P3").error(),
            Error::DelegateInvalidCompatibility);
  EXPECT_EQ(chosen(one, nullptr), "Ascend910B1");  // SoC unknown
  EXPECT_EQ(chosen(one, ""), "Ascend910B1");

  const DelegateBlob fleet =
      targets({"Ascend310P3", "Ascend910B4", "Ascend910B1", "Ascend310B1"});
  EXPECT_EQ(chosen(fleet, "Ascend910B1"), "Ascend910B1");  // exact first
  EXPECT_EQ(chosen(fleet, "Ascend910B2"), "Ascend910B4");  // first of family
  EXPECT_EQ(chosen(fleet, "Ascend310P1"), "Ascend310P3");
  EXPECT_EQ(chosen(fleet, "Ascend310B1"), "Ascend310B1");
  EXPECT_EQ(chosen(fleet, "Ascend910_9391"), "error");
  EXPECT_EQ(choose_target(DelegateBlob{}, "Ascend910B1").error(),
            Error::InvalidProgram);
}

}  // namespace
}  // namespace executorch::backends::ascend
