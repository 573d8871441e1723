// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// CANN's atc options from atc_options.json (the generated
// atc_options_data.h), and the checks CANN's atc makes of their values as it
// reads its command line (hicann/ge api/atc/cmd_flag_info.cc) and just after
// (compiler/api/aclgrph/option_utils.cc).
#include "atc_option_table.h"

#include <sys/stat.h>

#include <algorithm>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "atc_options.h"
#include "atc_options_data.h"

namespace ascend_emu {
namespace atc {
namespace {

bool AllDigits(const std::string& values) {
  return values.find_first_not_of("0123456789|") == std::string::npos;
}

// Whether the emulator refuses a value outside the option's range as the
// option is read, with CANN's error: CANN's atc does so for every option of
// kStrValueRange (cmd_flag_info.cc, CmdFlagInfo::SetFlagValue). Its options
// whose values are numbers (its int32 flags and the string flags holding
// 0/1/2...), --framework and --log are checked then; every int32 flag of
// CANN's has such a range, which is checked before the type, so its E10003
// "The value type must be [int32]" cannot happen, and a non-numeric value
// gets the range's error. CANN's string choices (--precision_mode,
// --buffer_optimize, ...) are in kStrValueRange too; the emulator checks
// them later, with its own wording.
bool CheckedAsRead(const AtcOptionFact& option) {
  if (option.range_error == AtcValueError::kNone) return false;
  return option.range_error != AtcValueError::kE10001 ||
         AllDigits(option.values);
}

}  // namespace

const std::vector<AtcOptionFact>& AtcOptionFacts() {
  static const std::vector<AtcOptionFact> facts(std::begin(kAtcOptionFacts),
                                                std::end(kAtcOptionFacts));
  return facts;
}

const AtcOptionFact* FindAtcOption(const std::string& name) {
  for (const AtcOptionFact& option : AtcOptionFacts()) {
    if (name == option.name) return &option;
  }
  return nullptr;
}

const std::vector<std::string>& PrecisionModeNameList() {
  static const std::vector<std::string> names(std::begin(kPrecisionModeNames),
                                              std::end(kPrecisionModeNames));
  return names;
}

const std::vector<PrecisionModeV2Fact>& PrecisionModeV2Facts() {
  static const std::vector<PrecisionModeV2Fact> facts(
      std::begin(kPrecisionModeV2Facts), std::end(kPrecisionModeV2Facts));
  return facts;
}

bool OneOf(const std::string& values, const std::string& value) {
  size_t start = 0;
  while (true) {
    const size_t end = values.find('|', start);
    const size_t len = (end == std::string::npos ? values.size() : end) - start;
    if (len == value.size() && values.compare(start, len, value) == 0) {
      return true;
    }
    if (end == std::string::npos) return false;
    start = end + 1;
  }
}

std::string E10006(const std::string& name, const std::string& value) {
  std::string err = "Value " + value + " for parameter --" + name +
                    " is invalid. The value must be either 1 or 0.";
  if (name == "external_weight") err += " (--external_weight takes 0, 1 or 2)";
  return err;
}

std::string CheckAsRead(const std::string& name, const std::string& value) {
  const AtcOptionFact* option = FindAtcOption(name);
  if (option == nullptr) return "";
  if (option->kind == AtcOptionKind::kBool &&
      option->emulator != EmulatorRole::kHelp) {
    bool on = false;
    if (!ParseAtcBool(value, &on)) return AtcBoolValueError(name, value);
  }
  if (!CheckedAsRead(*option)) return "";
  const std::string values = option->values;
  if (OneOf(values, value)) return "";
  switch (option->range_error) {
    case AtcValueError::kE10006:
      return E10006(name, value);
    case AtcValueError::kE10007:
      return "--framework is required. The value must be 0(Caffe) or "
             "1(MindSpore) or 3(TensorFlow) or 5(Onnx). (got --framework=" +
             value + ")";
    case AtcValueError::kE10010:
      // CANN's E10010, then the values it takes.
      return "Value " + value +
             " for parameter --log is invalid. (--log=" + value +
             " is not one of debug, info, warning, error, null)";
    case AtcValueError::kE10001:
    case AtcValueError::kNone:
      break;
  }
  // E10001 with the range as CANN prints it: its values sorted as text, each
  // as "[v] ", then ".".
  std::set<std::string> sorted;
  size_t start = 0;
  while (true) {
    const size_t end = values.find('|', start);
    sorted.insert(values.substr(start, end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  std::string listed;
  for (const std::string& v : sorted) listed += "[" + v + "] ";
  return "Value " + value + " for parameter --" + name +
         " is invalid. Reason: The value is not within the range of values. "
         "The valid range is " +
         listed + ".";
}

std::string CheckNoEffect(const AtcOptionFact& option,
                          const std::string& value) {
  const std::string flag = std::string("--") + option.name;
  if (CheckedAsRead(option)) return "";  // CheckAsRead took it
  if (option.after_read_error == AtcValueError::kE10006) {
    if (value.empty() || OneOf(option.values, value)) return "";
    return E10006(option.name, value);
  }
  if (value.empty()) return flag + " is empty";
  if (option.kind == AtcOptionKind::kFile) {
    struct stat info {};
    if (stat(value.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) {
      return flag + "='" + value + "': the file is not found (" + option.name +
             " names a configuration file)";
    }
    return "";
  }
  const std::string values = option.values;
  if (values.empty() || OneOf(values, value)) return "";
  std::string listed = values;
  std::replace(listed.begin(), listed.end(), '|', ',');
  return flag + "='" + value + "' is invalid: CANN's atc takes one of " +
         listed;
}

AtcFlags CannAtcFlags() {
  AtcFlags flags;
  for (const AtcOptionFact& option : AtcOptionFacts()) {
    if (option.emulator == EmulatorRole::kHelp) continue;
    (option.kind == AtcOptionKind::kBool ? flags.bool_names : flags.names)
        .emplace_back(option.name);
  }
  flags.check_as_read = CheckAsRead;
  return flags;
}

}  // namespace atc
}  // namespace ascend_emu
