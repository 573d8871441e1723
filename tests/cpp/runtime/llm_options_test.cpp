// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// llm_runner's command line parsing.
#include "llm_options.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_argv.h"

namespace executorch::backends::ascend::llm {
namespace {

std::optional<LlmOptions> parse(std::vector<std::string> args,
                                std::string* error) {
  test_util::Argv argv("llm_runner", std::move(args));
  return parse_llm_options(argv.argc(), argv.argv(), error);
}

TEST(LlmOptions, AllOptions) {
  std::string error;
  auto o = parse({"--model", "m.pte", "--data=m.ptd", "--method", "decode",
                  "--prompt", "1,5,9", "--tokens=7"},
                 &error);
  ASSERT_TRUE(o.has_value()) << error;
  EXPECT_EQ(o->model, "m.pte");
  EXPECT_EQ(o->data, "m.ptd");
  EXPECT_EQ(o->method, "decode");
  EXPECT_EQ(o->prompt, (std::vector<int64_t>{1, 5, 9}));
  EXPECT_EQ(o->tokens, 7);
}

TEST(LlmOptions, Defaults) {
  std::string error;
  auto o = parse({"--model", "m.pte", "--prompt", "0"}, &error);
  ASSERT_TRUE(o.has_value()) << error;
  EXPECT_EQ(o->method, "forward");
  EXPECT_EQ(o->tokens, 32);
  EXPECT_EQ(o->prompt, (std::vector<int64_t>{0}));
  EXPECT_FALSE(o->minimal_verification);
}

TEST(LlmOptions, Verification) {
  std::string error;
  auto o =
      parse({"--model", "m.pte", "--prompt", "0", "--verification", "minimal"},
            &error);
  ASSERT_TRUE(o.has_value()) << error;
  EXPECT_TRUE(o->minimal_verification);
  o = parse({"--model", "m.pte", "--prompt", "0", "--verification=internal"},
            &error);
  ASSERT_TRUE(o.has_value()) << error;
  EXPECT_FALSE(o->minimal_verification);
  EXPECT_FALSE(
      parse({"--model", "m.pte", "--prompt", "0", "--verification", "none"},
            &error)
          .has_value());
  EXPECT_NE(error.find("--verification needs"), std::string::npos) << error;
}

TEST(LlmOptions, Errors) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--prompt", "1"}, "--model is required"},
      {{"--model", "m.pte"}, "--prompt is required"},
      {{"--model", "m.pte", "--prompt", ""}, "--prompt needs"},
      {{"--model", "m.pte", "--prompt", "1,,2"}, "--prompt needs"},
      {{"--model", "m.pte", "--prompt", "1,-2"}, "--prompt needs"},
      {{"--model", "m.pte", "--prompt", "1,x"}, "--prompt needs"},
      {{"--model", "m.pte", "--prompt", "1", "--tokens", "0"},
       "--tokens needs"},
      {{"--model", "m.pte", "--prompt", "1", "--tokens", "3x"},
       "--tokens needs"},
      {{"--model", "m.pte", "--prompt", "1", "--method", ""},
       "--method must not be empty"},
      {{"--model", "m.pte", "--bogus", "1"}, "unknown argument '--bogus'"},
      {{"--model"}, "missing value for --model"},
  };
  for (const auto& [args, message] : cases) {
    std::string error;
    EXPECT_FALSE(parse(args, &error).has_value()) << message;
    EXPECT_NE(error.find(message), std::string::npos)
        << "got '" << error << "', want '" << message << "'";
  }
}

TEST(LlmOptions, Help) {
  std::string error;
  auto o = parse({"--help"}, &error);
  ASSERT_TRUE(o.has_value());
  EXPECT_TRUE(o->help);
}

}  // namespace
}  // namespace executorch::backends::ascend::llm
