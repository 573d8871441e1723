// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// CANN's atc options as data: the table generated from
// src/executorch_ascend/atc_options.json (the file the compile spec's
// atc_options reads too), and the value checks CANN's atc makes from it.
// atc_options.cc parses a command line against it.
#pragma once

#include <string>
#include <vector>

#include "atc_command_line.h"

namespace ascend_emu {
namespace atc {

// The kind of value an option takes (atc_options.json's "kind").
enum class AtcOptionKind { kChoice, kFile, kDir, kOutDir, kInt, kText, kBool };

// The error CANN's atc reports for a value it does not take.
enum class AtcValueError { kNone, kE10001, kE10006, kE10007, kE10010 };

// What the emulator's atc does with an option (docs/atc.md).
enum class EmulatorRole {
  kEmulated,     // implemented: atc_options.cc reads it
  kNoEffect,     // checked as CANN checks it; changes nothing computed
  kNotEmulated,  // refused by name
  kHelp,         // --help, which the command line handles
};

struct AtcOptionFact {
  const char* name;
  AtcOptionKind kind;
  const char* values;  // kChoice: "a|b|c"; else ""
  // Refusal of a value outside `values` as CANN's atc reads its command line
  // (cmd_flag_info.cc kStrValueRange), kNone when it checks none then.
  AtcValueError range_error;
  // Refusal after the command line is read (option_utils.cc), for a value
  // other than `values` or "" (not given).
  AtcValueError after_read_error;
  EmulatorRole emulator;
};

struct PrecisionModeV2Fact {
  const char* name;
  const char* as_precision_mode;  // nullptr: none (HiFloat8)
};

// Every option of CANN's atc, "help" included, sorted by name.
const std::vector<AtcOptionFact>& AtcOptionFacts();

// The option called `name`, or nullptr.
const AtcOptionFact* FindAtcOption(const std::string& name);

// --precision_mode's values in CANN's order, and each --precision_mode_v2
// value as a --precision_mode value (atc_options.json).
const std::vector<std::string>& PrecisionModeNameList();
const std::vector<PrecisionModeV2Fact>& PrecisionModeV2Facts();

// Whether `value` is one of "a|b|c".
bool OneOf(const std::string& values, const std::string& value);

// CANN's E10006 (value, option): its text names 0 and 1 only.
std::string E10006(const std::string& name, const std::string& value);

// "" or CANN's refusal of a value it checks as it reads the option (the
// command line's AtcFlags::check_as_read).
std::string CheckAsRead(const std::string& name, const std::string& value);

// "" or why `value` is not one CANN's atc takes for a no-effect option.
std::string CheckNoEffect(const AtcOptionFact& option,
                          const std::string& value);

}  // namespace atc
}  // namespace ascend_emu
