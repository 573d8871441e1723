// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The atc executable itself: exit codes and output lines, as the Python
// toolchain sees them.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <string>

#include "atc_test_util.h"

#ifndef ATC_BINARY
#error "ATC_BINARY must name the atc executable"
#endif

namespace ascend_emu {
namespace {

struct Exec {
  int code = -1;
  std::string output;  // stdout and stderr
};

Exec RunBinary(const std::string& args) {
  Exec e;
  const std::string cmd = std::string("'") + ATC_BINARY + "' " + args + " 2>&1";
  FILE* p = ::popen(cmd.c_str(), "r");
  if (p == nullptr) return e;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof(buf), p)) > 0) e.output.append(buf, n);
  const int status = ::pclose(p);
  e.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return e;
}

TEST(AtcCli, Help) {
  const Exec e = RunBinary("--help");
  EXPECT_EQ(e.code, 0);
  EXPECT_NE(e.output.find("usage: atc --framework=5"), std::string::npos)
      << e.output;
  EXPECT_EQ(RunBinary("-h").code, 0);
}

TEST(AtcCli, UnknownOptionFails) {
  const Exec e = RunBinary("--framework=5 --wieght=x");
  EXPECT_EQ(e.code, atc::kAtcFailureExit);
  EXPECT_NE(e.output.find("ATC run failed: unknown command line flag 'wieght'"),
            std::string::npos)
      << e.output;
}

TEST(AtcCli, CannOptionsTheEmulatorCannotDoAreRefusedByName) {
  const Exec e = RunBinary("--framework=5 --weight=x");
  EXPECT_EQ(e.code, atc::kAtcFailureExit);
  EXPECT_NE(e.output.find("ATC run failed: --weight is an option of CANN's "
                          "atc that the emulator does not emulate"),
            std::string::npos)
      << e.output;
}

TEST(AtcCli, UnknownExternalWeightModeFails) {
  const Exec e = RunBinary(
      "--framework=5 --model=m.onnx --output=m --soc_version=Ascend910B1 "
      "--precision_mode=must_keep_origin_dtype --external_weight=5");
  EXPECT_EQ(e.code, atc::kAtcFailureExit);
  EXPECT_NE(e.output.find("ATC run failed: Value 5 for parameter "
                          "--external_weight is invalid. The value must be "
                          "either 1 or 0."),
            std::string::npos)
      << e.output;
  EXPECT_NE(RunBinary("--help").output.find("--external_weight=0|1|2"),
            std::string::npos);
}

TEST(AtcCli, NonNumericIntegerValuesFailWithCannsErrors) {
  // CANN's atc checks these as it reads each option, before any file: the
  // refusal (E10001, E10006, E10007), then the usual hint, exit 255.
  const char* const base =
      "--model=/nonexistent/m.onnx --output=m --soc_version=Ascend910B1 ";
  const struct {
    const char* args;
    const char* expected;
  } cases[] = {
      {"--framework=5 --mode=zero",
       "ATC run failed: Value zero for parameter --mode is invalid. Reason: "
       "The value is not within the range of values. The valid range is [0] "
       "[1] [3] [30] [5] [6] [7] ."},
      {"--framework=onnx",
       "ATC run failed: --framework is required. The value must be 0(Caffe) "
       "or 1(MindSpore) or 3(TensorFlow) or 5(Onnx)."},
      {"--framework=5 --external_weight=one",
       "ATC run failed: Value one for parameter --external_weight is invalid. "
       "The value must be either 1 or 0."},
      {"--framework=5 --disable_reuse_memory=yes",
       "ATC run failed: Value yes for parameter --disable_reuse_memory is "
       "invalid. The value must be either 1 or 0."},
      {"--framework=5 --op_debug_level=99999999999",
       "ATC run failed: Value 99999999999 for parameter --op_debug_level is "
       "invalid. Reason: The value is not within the range of values. The "
       "valid range is [0] [1] [2] [3] [4] ."},
  };
  for (const auto& c : cases) {
    const Exec e = RunBinary(std::string(base) + c.args);
    EXPECT_EQ(e.code, atc::kAtcFailureExit) << c.args;
    EXPECT_NE(e.output.find(c.expected), std::string::npos)
        << c.args << ": " << e.output;
    EXPECT_NE(e.output.find("Try 'atc --help' for more information."),
              std::string::npos)
        << c.args << ": " << e.output;
  }
}

class AtcCliCompile : public testing::AtcTest {};

TEST_F(AtcCliCompile, CompilesAModel) {
  testing::OnnxBuilder b;
  b.Input("x", {1, 3, 2, 2}).Output("y", {1, 3, 1, 1});
  b.Node("GlobalAveragePool", {"x"}, {"y"});
  b.Save(Path("gap.onnx"));
  const Exec e = RunBinary(
      "--framework=5 --model=" + Path("gap.onnx") + " --output=" + Path("gap") +
      " --soc_version=Ascend310P3 --precision_mode=force_fp32 "
      "--input_format=NCHW --output_type=FP32 --log=error");
  EXPECT_EQ(e.code, 0) << e.output;
  EXPECT_EQ(e.output, "ATC run success, welcome to the next use.\n");
  const auto om = testing::ReadBytes(Path("gap.om"));
  std::string error;
  auto model = Model::Load(om.data(), om.size(), &error);
  ASSERT_NE(model, nullptr) << error;
  EXPECT_EQ(model->soc_version(), "Ascend310P3");
  EXPECT_EQ(model->outputs()[0].format, ACL_FORMAT_NCHW);
  const auto y =
      testing::RunFloat(*model, {{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}});
  EXPECT_EQ(y[0], (std::vector<float>{2.5f, 6.5f, 10.5f}));
}

}  // namespace
}  // namespace ascend_emu
