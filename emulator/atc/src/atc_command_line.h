// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// atc's command line split into (option, value) pairs the way CANN's atc
// splits it: its argv is rewritten and then read by getopt_long (hicann/ge
// api/atc/cmd_flag_info.cc, ParseCommandLine and FormatArgv, commit
// ffdcbc9f). Only the splitting, and the value checks CANN's atc makes as it
// reads each option, live here; atc_options.cc checks the values.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace ascend_emu {
namespace atc {

enum class CommandLineStatus { kOk, kHelp, kError };

// The options a command line is read against.
struct AtcFlags {
  // Options that take a value ("--name=value" or "--name value").
  std::vector<std::string> names;
  // CANN's bool options (getopt's optional argument): "--name" alone, or
  // "--name=value" with a value ParseAtcBool takes; never the next argument.
  std::vector<std::string> bool_names;
  // CANN's atc checks some values as it reads each option, in the order
  // given (cmd_flag_info.cc, SetFlagValue): "" or the refusal. May be empty.
  std::function<std::string(const std::string& name, const std::string& value)>
      check_as_read;
};

// The rewriting CANN's atc applies to each argument before getopt_long sees
// it: "-name..." (one dash, then at least two letters) becomes "--name...",
// and in "--name..." every '-' after the first two letters of the name and
// before '=' becomes '_' ("--input-format=ND" -> "--input_format=ND").
std::string RewriteAtcArgument(const std::string& arg);

// The option `given` names among `names`, as getopt_long resolves a long
// option: the name itself, else the one name it is a prefix of. "" when none
// or several match; *candidates then holds the names it is a prefix of.
std::string ResolveAtcOption(const std::string& given,
                             const std::vector<std::string>& names,
                             std::vector<std::string>* candidates);

// A bool option's value as CANN's atc reads it: "" or (any case) 1, t, true,
// y, yes are true; 0, f, false, n, no are false; false for anything else.
bool ParseAtcBool(const std::string& value, bool* out);

// CANN's E10003 for a bool option's value ParseAtcBool does not take.
std::string AtcBoolValueError(const std::string& name,
                              const std::string& value);

// Splits `args` (argv[1..]) into (option, value) pairs, in order, with every
// option name resolved against flags.names and flags.bool_names (CANN's atc
// options, without "help"). Values are "--name=value" or "--name value" (the
// next argument, whatever it is); a bool option's value is "" unless given
// with '='. A value given apart is rewritten as every argument is (CANN
// rewrites argv before getopt_long reads it). Each value goes through
// flags.check_as_read as it is read.
// "--help", "-h", "--h" and prefixes of "help" give kHelp ("--help=false"
// is ignored, as CANN's atc ignores it). An unknown or ambiguous name, a
// missing value, a value check_as_read refuses and an argument that is not
// an option give kError with CANN's wording in *error. On kHelp and kError
// *options holds the options read before. A repeated option appears twice:
// the caller lets the last one win, as CANN's atc does.
CommandLineStatus SplitAtcCommandLine(
    const std::vector<std::string>& args, const AtcFlags& flags,
    std::vector<std::pair<std::string, std::string>>* options,
    std::string* error);

}  // namespace atc
}  // namespace ascend_emu
