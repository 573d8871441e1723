// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// atc's command line split into (option, value) pairs the way CANN's atc
// splits it: its argv is rewritten and then read by getopt_long (hicann/ge
// api/atc/cmd_flag_info.cc, ParseCommandLine and FormatArgv, commit
// ffdcbc9f). Only the splitting lives here; atc_options.cc checks the values.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace ascend_emu {
namespace atc {

enum class CommandLineStatus { kOk, kHelp, kError };

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

// Splits `args` (argv[1..]) into (option, value) pairs, in order, with every
// option name resolved against `names` (CANN's atc options, without "help").
// Values are "--name=value" or "--name value" (the next argument, whatever it
// is). "--help", "-h", "--h" and prefixes of "help" give kHelp. An unknown or
// ambiguous name, a missing value, and an argument that is not an option
// give kError with CANN's wording in *error. A repeated option appears twice:
// the caller lets the last one win, as CANN's atc does.
CommandLineStatus SplitAtcCommandLine(
    const std::vector<std::string>& args, const std::vector<std::string>& names,
    std::vector<std::pair<std::string, std::string>>* options,
    std::string* error);

}  // namespace atc
}  // namespace ascend_emu
