// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The command line both runners share (tools/common/program_options.h):
// argv's reading, the shared options and their checks, the value parsers.
#include "program_options.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_argv.h"

namespace executorch::backends::ascend::tools {
namespace {

struct Parsed {
  bool ok;
  ProgramOptions program;
  std::vector<std::string> own;  // "arg=value" the runner's own options got
  std::string error;
};

// A runner with one option of its own, --count, which needs digits.
Parsed parse(std::vector<std::string> args) {
  test_util::Argv argv("runner", std::move(args));
  Parsed p{};
  const std::vector<OwnOption> own = {
      {"--count", [&p](const std::string& value) {
         p.own.push_back("--count=" + value);
         return value.find_first_not_of("0123456789") == std::string::npos
                    ? std::string()
                    : std::string("--count needs digits");
       }}};
  p.ok = parse_arguments(argv.argc(), argv.argv(), &p.program, own, &p.error);
  return p;
}

TEST(ProgramOptions, SharedOptionsAndOwnOnes) {
  const Parsed p = parse({"--model", "m.pte", "--data=m.ptd", "--count=3",
                          "--method", "decode", "--verification", "minimal"});
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_EQ(p.program.model, "m.pte");
  EXPECT_EQ(p.program.data, "m.ptd");
  EXPECT_EQ(p.program.method, "decode");
  EXPECT_EQ(p.program.verification, Verification::kMinimal);
  EXPECT_EQ(p.own, (std::vector<std::string>{"--count=3"}));
  std::string error;
  EXPECT_TRUE(check_program_options(p.program, &error)) << error;
}

TEST(ProgramOptions, Defaults) {
  const Parsed p = parse({"--model=m.pte"});
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_EQ(p.program.data, "");
  EXPECT_EQ(p.program.method, "forward");
  EXPECT_EQ(p.program.verification, Verification::kInternalConsistency);
}

TEST(ProgramOptions, HelpStopsTheReading) {
  const Parsed p = parse({"--data", "m.ptd", "-h", "--bogus"});
  EXPECT_TRUE(p.ok) << p.error;  // no --model: help needs none
  EXPECT_TRUE(p.program.help);
  EXPECT_EQ(p.program.data, "m.ptd");
  EXPECT_TRUE(parse({"--help"}).program.help);
  EXPECT_FALSE(parse({"--model=m.pte"}).program.help);
}

TEST(ProgramOptions, Errors) {
  const struct {
    std::vector<std::string> args;
    const char* error;
  } cases[] = {
      {{"--bogus", "1"}, "unknown argument '--bogus'"},
      {{"--model"}, "missing value for --model"},
      {{"--verification=none"},
       "--verification needs 'minimal' or 'internal', got 'none'"},
      {{"--count=x"}, "--count needs digits"},
      {{"--count=3"}, "--model is required"},
      {{"--model=m.pte", "--method="}, "--method must not be empty"},
  };
  for (const auto& c : cases) {
    const Parsed p = parse(c.args);
    EXPECT_FALSE(p.ok) << c.error;
    EXPECT_EQ(p.error, c.error);
  }
}

TEST(ProgramOptions, Checks) {
  std::string error;
  ProgramOptions program;
  EXPECT_FALSE(check_program_options(program, &error));
  EXPECT_EQ(error, "--model is required");
  program.model = "m.pte";
  program.method = "";
  EXPECT_FALSE(check_program_options(program, &error));
  EXPECT_EQ(error, "--method must not be empty");
}

TEST(ProgramOptions, ValueParsers) {
  long long v = 0;
  EXPECT_TRUE(parse_integer("42", 0, 100, &v));
  EXPECT_EQ(v, 42);
  for (const char* bad : {"", "x", "4x", "101", "-1", "99999999999999999999"}) {
    EXPECT_FALSE(parse_integer(bad, 0, 100, &v)) << bad;
  }
  int n = 0;
  EXPECT_EQ(int_option("--n", "7", 1, &n), "");
  EXPECT_EQ(n, 7);
  EXPECT_EQ(int_option("--n", "0", 1, &n),
            "--n needs an integer >= 1, got '0'");
  EXPECT_EQ(int_option("--n", "x", 0, &n),
            "--n needs an integer >= 0, got 'x'");
  EXPECT_EQ(n, 7);
  EXPECT_EQ(split_commas("a,,b"), (std::vector<std::string>{"a", "", "b"}));
  EXPECT_EQ(split_commas(""), (std::vector<std::string>{""}));
  Verification verification = Verification::kMinimal;
  EXPECT_TRUE(parse_verification("internal", &verification));
  EXPECT_EQ(verification, Verification::kInternalConsistency);
  EXPECT_FALSE(parse_verification("full", &verification));
}

}  // namespace
}  // namespace executorch::backends::ascend::tools
