// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// atc on hostile input (issue 11): clean refusals that name the op and the
// input, never a crash, undefined behaviour or a misleading message.
#include <gtest/gtest.h>

#include <string>

#include "atc_test_util.h"

namespace ascend_emu {
namespace {

using testing::AtcResult;
using testing::AtcTest;
using testing::OnnxBuilder;

void ExpectRefused(const AtcResult& r, const std::string& reason) {
  EXPECT_EQ(r.code, atc::kAtcFailureExit);
  EXPECT_NE(r.err.find("ATC run failed"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(reason), std::string::npos) << r.err;
}

// The ONNX form of the crashing .om: atc must not write what the loader
// refuses, and it must refuse by the same kernels.def rule.
TEST_F(AtcTest, RefusesMaxWithAbsentSecondInput) {
  OnnxBuilder b;
  b.Input("x", {2, 3}).Output("y", {2, 3});
  b.Node("Max", {"x", ""}, {"y"}, "max_absent");
  ExpectRefused(Compile(b, "max"), "Max: input 1 is absent");
  EXPECT_FALSE(testing::FileExists(Path("max.om")));
}

// Each dim of the output (1e12) fits; their product overflows int64. The
// refusal must come from a checked product, naming Resize.
TEST_F(AtcTest, RefusesResizeWithHugeScalesNamingTheOp) {
  OnnxBuilder b;
  b.Input("x", {1, 1, 1000, 1000}).OutputNoShape("y", 4);
  b.InitF32("scales", {4}, {1.0f, 1.0f, 1e9f, 1e9f});
  b.Node("Resize", {"x", "", "scales"}, {"y"}, "resize_huge");  // nearest
  ExpectRefused(Compile(b, "resize"), "Resize: output shape");
  AtcResult r = Compile(b, "resize");
  EXPECT_NE(r.err.find("resize_huge"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("is too large"), std::string::npos) << r.err;
}

// A directory passed as --model used to be reported as "larger than 2 GB".
TEST_F(AtcTest, DirectoryAsModelSaysItIsADirectory) {
  AtcResult r = testing::RunAtcArgs(
      {"--framework=5", "--model=" + dir_, "--output=" + Path("out"),
       "--soc_version=Ascend910B1", "--precision_mode=must_keep_origin_dtype"});
  ExpectRefused(r, "is a directory, not an ONNX file");
  EXPECT_EQ(r.err.find("2 GB"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace ascend_emu
