// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The compile specs the runtime reads, and the SoC check: no ACL needed.
#include "compile_options.h"

#include <gtest/gtest.h>

#include "program_spec.h"

namespace executorch::backends::ascend {
namespace {

using executorch::runtime::Error;

TEST(CompileOptions, ReadsSocAndDeviceIgnoresTheRest) {
  testing::BlobSpec spec;
  spec.soc_version = "Ascend310P3";
  spec.device_id = "7";
  const testing::CompileSpecs specs(spec);
  auto read = read_compile_specs(specs.get());
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(read->soc_version, "Ascend310P3");
  EXPECT_EQ(read->device_id, 7);
}

TEST(CompileOptions, DefaultsWhenAbsent) {
  auto read = read_compile_specs({});
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(read->soc_version, "");
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

TEST(CompileOptions, SocFamily) {
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

TEST(CompileOptions, SocCheck) {
  EXPECT_EQ(check_soc("Ascend910B1", "Ascend910B1"), Error::Ok);
  EXPECT_EQ(check_soc("Ascend910B1", "Ascend910B3"), Error::Ok);
  EXPECT_EQ(check_soc("Ascend910B1", "Ascend310P3"),
            Error::DelegateInvalidCompatibility);
  EXPECT_EQ(check_soc("Ascend310B1", "Ascend310P1"),
            Error::DelegateInvalidCompatibility);
  EXPECT_EQ(check_soc("", "Ascend310P3"), Error::Ok);
  EXPECT_EQ(check_soc("Ascend910B1", nullptr), Error::Ok);
  EXPECT_EQ(check_soc("Ascend910B1", ""), Error::Ok);  // SoC unknown
}

}  // namespace
}  // namespace executorch::backends::ascend
