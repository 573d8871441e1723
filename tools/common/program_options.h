// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// What the command lines of ascend_runner and llm_runner share: the reading
// of argv ("--name=value" or "--name value", -h/--help), the options both
// take (--model, --data, --method, --verification) and their checks, and
// the value parsers. Each runner adds its own options (runner_options.cpp,
// llm_options.cpp).
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace executorch::backends::ascend::tools {

// How much of the program ExecuTorch checks before running it
// (Program::Verification). The runners' own enum, so parsing needs no
// ExecuTorch header.
enum class Verification {
  // The flatbuffer header only: a corrupted file can crash the process.
  kMinimal,
  // The whole flatbuffer, offsets and sizes: the default, because a runner is
  // handed files it did not write.
  kInternalConsistency,
};

// The options both runners take.
struct ProgramOptions {
  std::string model;
  std::string data;  // optional .ptd
  std::string method = "forward";
  Verification verification = Verification::kInternalConsistency;
  bool help = false;  // -h or --help: print the usage, run nothing
};

// One of a runner's own options: its name ("--tokens") and what it does
// with a value: "" when it takes it, else why not.
struct OwnOption {
  const char* name;
  std::function<std::string(const std::string& value)> take;
};

// Reads argv[1..]: -h or --help sets program->help and stops; every other
// argument is an option with its value, "--name=value" or "--name value".
// The shared options go into *program, the others to `own`; then the shared
// options are checked (check_program_options). false and *error for an
// unknown option, a missing or bad value, or a failed check.
bool parse_arguments(int argc, char** argv, ProgramOptions* program,
                     const std::vector<OwnOption>& own, std::string* error);

// The shared options' checks once argv is read: --model given, --method not
// empty. false and *error when one fails.
bool check_program_options(const ProgramOptions& program, std::string* error);

// "minimal" or "internal" into `out`; false for anything else.
bool parse_verification(const std::string& text, Verification* out);

// A whole decimal integer in [min, max], nothing else.
bool parse_integer(const std::string& text, long long min, long long max,
                   long long* out);

// An option's integer value >= min into *out: "" or "<name> needs an
// integer >= <min>, got '<value>'".
std::string int_option(const char* name, const std::string& value, int min,
                       int* out);

// "a,b,c" -> {"a", "b", "c"} (empty parts kept).
std::vector<std::string> split_commas(const std::string& text);

}  // namespace executorch::backends::ascend::tools
