// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// ascend_runner's command line parsing.
#include "runner_options.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_argv.h"

namespace executorch::backends::ascend::runner {
namespace {

std::optional<RunnerOptions> parse(std::vector<std::string> args,
                                   std::string* error) {
  test_util::Argv argv("ascend_runner", std::move(args));
  return parse_options(argv.argc(), argv.argv(), error);
}

TEST(RunnerOptions, AllOptions) {
  std::string error;
  auto o = parse({"--model", "m.pte", "--data=m.ptd", "--method", "decode",
                  "--inputs", "a.bin,b.bin", "--output-dir", "out",
                  "--iterations", "5", "--warmup=2", "--device-id", "1"},
                 &error);
  ASSERT_TRUE(o.has_value()) << error;
  EXPECT_EQ(o->model, "m.pte");
  EXPECT_EQ(o->data, "m.ptd");
  EXPECT_EQ(o->method, "decode");
  EXPECT_EQ(o->inputs, (std::vector<std::string>{"a.bin", "b.bin"}));
  EXPECT_EQ(o->output_dir, "out");
  EXPECT_EQ(o->iterations, 5);
  EXPECT_EQ(o->warmup, 2);
  ASSERT_TRUE(o->device_id.has_value());
  EXPECT_EQ(*o->device_id, 1);
}

TEST(RunnerOptions, FramesAndPipeline) {
  std::string error;
  auto o = parse({"--model", "m.pte"}, &error);
  ASSERT_TRUE(o.has_value()) << error;
  EXPECT_EQ(o->frames, 0);
  EXPECT_EQ(o->pipeline, 1);
  o = parse({"--model", "m.pte", "--frames", "100", "--pipeline=2"}, &error);
  ASSERT_TRUE(o.has_value()) << error;
  EXPECT_EQ(o->frames, 100);
  EXPECT_EQ(o->pipeline, 2);
  // Two instances need frames to overlap; at most 8; at least 1 of each.
  EXPECT_FALSE(parse({"--model", "m.pte", "--pipeline", "2"}, &error));
  EXPECT_NE(error.find("--pipeline needs --frames"), std::string::npos)
      << error;
  EXPECT_FALSE(
      parse({"--model", "m.pte", "--frames", "4", "--pipeline", "9"}, &error));
  EXPECT_NE(error.find("at most 8"), std::string::npos) << error;
  EXPECT_FALSE(parse({"--model", "m.pte", "--frames", "0"}, &error));
  EXPECT_FALSE(
      parse({"--model", "m.pte", "--frames", "4", "--pipeline", "0"}, &error));
}

TEST(RunnerOptions, Defaults) {
  std::string error;
  auto o = parse({"--model", "m.pte"}, &error);
  ASSERT_TRUE(o.has_value()) << error;
  EXPECT_EQ(o->method, "forward");
  EXPECT_TRUE(o->inputs.empty());
  EXPECT_EQ(o->iterations, 1);
  EXPECT_EQ(o->warmup, 0);
  EXPECT_FALSE(o->device_id.has_value());
  // A runner is handed files it did not write: the whole program is checked.
  EXPECT_EQ(o->verification, Verification::kInternalConsistency);
}

TEST(RunnerOptions, Verification) {
  std::string error;
  auto o = parse({"--model", "m.pte", "--verification", "minimal"}, &error);
  ASSERT_TRUE(o.has_value()) << error;
  EXPECT_EQ(o->verification, Verification::kMinimal);
  o = parse({"--model", "m.pte", "--verification=internal"}, &error);
  ASSERT_TRUE(o.has_value()) << error;
  EXPECT_EQ(o->verification, Verification::kInternalConsistency);
  for (const char* bad : {"", "Minimal", "full", "internal2"}) {
    error.clear();
    EXPECT_FALSE(
        parse({"--model", "m.pte", "--verification", bad}, &error).has_value())
        << bad;
    EXPECT_NE(error.find("--verification needs"), std::string::npos) << error;
  }
}

TEST(RunnerOptions, Errors) {
  const std::vector<std::vector<std::string>> bad = {
      {},
      {"--data", "m.ptd"},
      {"--model"},
      {"--model", "m.pte", "--iterations", "0"},
      {"--model", "m.pte", "--iterations", "3x"},
      {"--model", "m.pte", "--warmup", "-1"},
      {"--model", "m.pte", "--device-id", "-2"},
      {"--model", "m.pte", "--inputs", "a.bin,,b.bin"},
      {"--model", "m.pte", "--frobnicate", "1"},
      {"--model", "m.pte", "--method", ""},
  };
  for (const auto& args : bad) {
    std::string error;
    EXPECT_FALSE(parse(args, &error).has_value())
        << "accepted: " << ::testing::PrintToString(args);
    EXPECT_FALSE(error.empty());
  }
}

TEST(RunnerOptions, Help) {
  std::string error;
  auto o = parse({"--help"}, &error);
  ASSERT_TRUE(o.has_value());
  EXPECT_TRUE(o->help);
}

}  // namespace
}  // namespace executorch::backends::ascend::runner
