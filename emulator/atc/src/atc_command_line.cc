// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// See atc_command_line.h. Behaviour (not code) follows CANN's atc: FormatArgv
// rewrites the arguments, getopt_long with the short options ":h" reads them
// (so an unknown or ambiguous option and a missing value are reported by atc,
// not by getopt), and arguments left over are "Non-option parameter"s.
#include "atc_command_line.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <utility>
#include <vector>

namespace ascend_emu {
namespace atc {
namespace {

bool IsAlpha(char c) { return std::isalpha(static_cast<unsigned char>(c)); }

// At least two letters at `pos` (CANN's lookahead "(?=[[:alpha:]]{2,})").
bool TwoLettersAt(const std::string& s, size_t pos) {
  return s.size() >= pos + 2 && IsAlpha(s[pos]) && IsAlpha(s[pos + 1]);
}

}  // namespace

std::string RewriteAtcArgument(const std::string& arg) {
  std::string s = arg;
  if (s.size() >= 1 && s[0] == '-' && TwoLettersAt(s, 1)) s.insert(0, "-");
  if (s.compare(0, 2, "--") == 0 && TwoLettersAt(s, 2)) {
    for (size_t i = 4; i < s.size() && s[i] != '='; ++i) {
      if (s[i] == '-') s[i] = '_';
    }
  }
  return s;
}

std::string ResolveAtcOption(const std::string& given,
                             const std::vector<std::string>& names,
                             std::vector<std::string>* candidates) {
  candidates->clear();
  for (const std::string& name : names) {
    if (name == given) return name;  // an exact match wins over prefixes
  }
  if (given.empty()) return "";
  for (const std::string& name : names) {
    if (name.compare(0, given.size(), given) == 0) candidates->push_back(name);
  }
  std::sort(candidates->begin(), candidates->end());
  return candidates->size() == 1 ? (*candidates)[0] : "";
}

CommandLineStatus SplitAtcCommandLine(
    const std::vector<std::string>& args, const std::vector<std::string>& names,
    std::vector<std::pair<std::string, std::string>>* options,
    std::string* error) {
  options->clear();
  std::vector<std::string> with_help = names;
  with_help.push_back("help");
  with_help.push_back("h");  // CANN registers "h" as a long option too
  std::vector<std::string> non_options;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string arg = RewriteAtcArgument(args[i]);
    if (arg == "--") {  // getopt: everything after it is not an option
      non_options.insert(non_options.end(), args.begin() + i + 1, args.end());
      break;
    }
    if (arg.size() < 2 || arg[0] != '-') {
      non_options.push_back(args[i]);  // getopt moves these to the end
      continue;
    }
    if (arg[1] != '-') {  // short options: atc has only -h
      if (arg == "-h") return CommandLineStatus::kHelp;
      *error = "unknown command line flag '" + arg.substr(1, 1) + "'";
      return CommandLineStatus::kError;
    }
    std::string given = arg.substr(2);
    std::string value;
    const size_t eq = given.find('=');
    const bool has_value = eq != std::string::npos;
    if (has_value) {
      value = given.substr(eq + 1);
      given.resize(eq);
    }
    std::vector<std::string> candidates;
    const std::string name = ResolveAtcOption(given, with_help, &candidates);
    if (name.empty()) {
      // CANN's atc prints "unknown command line flag" for both; the emulator
      // adds what the prefix could have meant.
      *error = "unknown command line flag '" + given + "'";
      if (candidates.size() > 1) {
        *error += " (ambiguous: it abbreviates";
        for (const std::string& c : candidates) *error += " --" + c;
        *error += ")";
      } else {
        *error += " (not an option of CANN's atc; see atc --help)";
      }
      return CommandLineStatus::kError;
    }
    if (name == "help" || name == "h") return CommandLineStatus::kHelp;
    if (!has_value) {
      if (i + 1 >= args.size()) {
        *error = "flag '--" + given + "' is missing its argument";
        return CommandLineStatus::kError;
      }
      value = args[++i];
    }
    options->emplace_back(name, value);
  }
  if (!non_options.empty()) {
    *error = "Non-option parameter: " + non_options[0] +
             " (atc options look like --name=value)";
    return CommandLineStatus::kError;
  }
  return CommandLineStatus::kOk;
}

}  // namespace atc
}  // namespace ascend_emu
