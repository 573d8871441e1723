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

bool ParseAtcBool(const std::string& value, bool* out) {
  std::string v = value;
  for (char& c : v) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  if (v.empty() || v == "1" || v == "t" || v == "true" || v == "y" ||
      v == "yes") {
    *out = true;
    return true;
  }
  if (v == "0" || v == "f" || v == "false" || v == "n" || v == "no") {
    *out = false;
    return true;
  }
  return false;
}

std::string AtcBoolValueError(const std::string& name,
                              const std::string& value) {
  return "Value " + value + " for parameter --" + name +
         " is invalid. Reason: The value type must be [bool].";
}

CommandLineStatus SplitAtcCommandLine(
    const std::vector<std::string>& args, const AtcFlags& flags,
    std::vector<std::pair<std::string, std::string>>* options,
    std::string* error) {
  options->clear();
  std::vector<std::string> all = flags.names;
  all.insert(all.end(), flags.bool_names.begin(), flags.bool_names.end());
  all.push_back("help");
  all.push_back("h");  // CANN registers "h" as a long option too
  const auto is_bool = [&flags](const std::string& name) {
    return name == "help" || name == "h" ||
           std::find(flags.bool_names.begin(), flags.bool_names.end(), name) !=
               flags.bool_names.end();
  };
  std::vector<std::string> non_options;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string arg = RewriteAtcArgument(args[i]);
    if (arg == "--") {  // getopt: everything after it is not an option
      for (size_t k = i + 1; k < args.size(); ++k) {
        non_options.push_back(RewriteAtcArgument(args[k]));
      }
      break;
    }
    if (arg.size() < 2 || arg[0] != '-') {
      non_options.push_back(arg);  // getopt moves these to the end
      continue;
    }
    if (arg[1] != '-') {
      // Short options: atc has only -h, which takes no value; getopt reads
      // a cluster ("-h1") letter by letter, and atc stops at the h.
      if (arg[1] == 'h') return CommandLineStatus::kHelp;
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
    const std::string name = ResolveAtcOption(given, all, &candidates);
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
    if (is_bool(name)) {
      // getopt's optional argument: only "--name=value" gives one.
      bool on = false;
      if (!ParseAtcBool(value, &on)) {
        *error = AtcBoolValueError(name == "h" ? "help" : name, value);
        return CommandLineStatus::kError;
      }
      if (name == "help" || name == "h") {
        if (on) return CommandLineStatus::kHelp;
        continue;  // --help=false: atc goes on without help
      }
    } else if (!has_value) {
      if (i + 1 >= args.size()) {
        *error = "flag '--" + given + "' is missing its argument";
        return CommandLineStatus::kError;
      }
      // CANN rewrites every argument before getopt reads any: a value
      // given apart is rewritten too ("--model -my-net" gives "--my_net").
      value = RewriteAtcArgument(args[++i]);
    }
    if (flags.check_as_read) {
      *error = flags.check_as_read(name, value);
      if (!error->empty()) return CommandLineStatus::kError;
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
