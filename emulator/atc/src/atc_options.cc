// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Command-line parsing for the emulator's atc: each option's value read into
// AtcOptions, then the rules between options. Option names, value spellings
// and defaults follow CANN's atc (atc_option_table.h, from
// atc_options.json); what the emulator cannot honour is refused by name
// rather than silently ignored. Shapes and gears: atc_shapes.cc.
#include "atc_options.h"

#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "ascend_emu/soc_versions.h"
#include "atc_command_line.h"
#include "atc_option_table.h"
#include "precision_mode.h"

namespace ascend_emu {
namespace atc {
namespace {

// CANN's precision_mode_v2 values (precision_mode.cc maps them onto the v1
// modes the emulator emulates).
std::string CheckPrecisionModeV2(const std::string& value, AtcOptions* o) {
  PrecisionMode mode;
  std::string err = PrecisionModeFromV2(value, &mode);
  if (err.empty()) o->precision_mode_v2 = value;
  return err;
}

const char* FrameworkName(int64_t f) {
  switch (f) {
    case 0:
      return "Caffe";
    case 1:
      return "MindSpore";
    case 3:
      return "TensorFlow";
    case 5:
      return "ONNX";
    default:
      return "unknown";
  }
}

std::string CheckFramework(const std::string& value, AtcOptions* o) {
  // CheckAsRead refused what CANN's atc does not take (E10007).
  std::string err = CheckAsRead("framework", value);
  if (!err.empty()) return err;
  if (value != "5") {
    return "--framework=" + value + " (" +
           FrameworkName(std::strtoll(value.c_str(), nullptr, 10)) +
           ") is a framework of CANN's atc that the emulator does not "
           "emulate: only --framework=5 (ONNX)";
  }
  o->framework = 5;
  return "";
}

// What each of CANN's atc modes does (ge inc/framework/omg/omg_inner_types.h
// RunMode, main_impl.cc kModeSupport); the values its command line takes are
// --mode's in atc_options.json (a test checks they are the same).
struct AtcMode {
  const char* value;
  const char* what;
  bool emulated;
};
constexpr AtcMode kAtcModes[] = {
    {"0", "model to framework model", true},
    {"1", "framework model to json", false},
    {"3", "only pre-check", true},
    {"5", "pbtxt to json", false},
    {"6", "display model info", true},
    {"7", "convert a model to the OM2 format", false},
    {"30", "model to execute-om for nano", false},
};

std::string CheckMode(const std::string& value, AtcOptions* o) {
  for (const AtcMode& mode : kAtcModes) {
    if (value != mode.value) continue;
    if (!mode.emulated) {
      return "--mode=" + value + " (" + mode.what +
             ") is a mode of CANN's atc that the emulator does not emulate "
             "(it emulates 0 build, 3 pre-check and 6 model info)";
    }
    o->mode = std::atoi(mode.value);
    return "";
  }
  return CheckAsRead("mode", value);  // CANN's E10001
}

std::string CheckExternalWeight(const std::string& value, AtcOptions* o) {
  // 0, 1 or 2 (CheckAsRead refused anything else with CANN's E10006).
  std::string err = CheckAsRead("external_weight", value);
  if (!err.empty()) return err;
  o->external_weight = std::atoi(value.c_str());
  return "";
}

// CANN's atc accepts nine modes (ge api/atc, cann-fidelity.md); the emulator
// emulates each (precision_mode.cc, docs/atc.md "Precision modes").
std::string CheckPrecisionMode(const std::string& value, AtcOptions* o) {
  PrecisionMode mode;
  if (ParsePrecisionMode(value, &mode)) {
    o->precision_mode = value;
    return "";
  }
  return "--precision_mode='" + value + "' is not a CANN precision mode (" +
         PrecisionModeNames() + ")";
}

std::string CheckValue(const std::string& name, const std::string& value,
                       AtcOptions* o) {
  if (name == "framework") return CheckFramework(value, o);
  if (name == "mode") return CheckMode(value, o);
  if (name == "precision_mode") return CheckPrecisionMode(value, o);
  if (name == "external_weight") return CheckExternalWeight(value, o);
  if (name == "precision_mode_v2") return CheckPrecisionModeV2(value, o);
  const AtcOptionFact* fact = FindAtcOption(name);
  if (fact != nullptr && fact->emulator == EmulatorRole::kNotEmulated) {
    return "--" + name +
           " is an option of CANN's atc that the emulator does not emulate "
           "(docs/atc.md lists what the emulator does with each atc option)";
  }
  if (fact != nullptr && fact->emulator == EmulatorRole::kNoEffect) {
    std::string err = CheckNoEffect(*fact, value);
    if (!err.empty()) return err;
    // Given again: the last value wins, in its first place.
    for (auto& entry : o->no_effect) {
      if (entry.first == name) {
        entry.second = value;
        return "";
      }
    }
    o->no_effect.emplace_back(name, value);
    return "";
  }
  if (name == "model") {
    if (value.empty()) return "--model is empty";
    o->model = value;
  } else if (name == "output") {
    if (value.empty()) return "--output is empty";
    o->output = value;
  } else if (name == "soc_version") {
    o->soc_version = value;
  } else if (name == "om") {
    if (value.empty()) return "--om is empty";
    o->om = value;
  } else if (name == "dynamic_batch_size") {
    if (value.empty()) return "--dynamic_batch_size is empty";
    o->dynamic_batch_size = value;
  } else if (name == "dynamic_dims") {
    if (value.empty()) {
      return "Parameter --dynamic_dims is not configured or is empty.";
    }
    o->dynamic_dims = value;
  } else if (name == "insert_op_conf") {
    if (value.empty()) return "--insert_op_conf is empty";
    o->insert_op_conf = value;
  } else if (name == "input_shape") {
    return ParseInputShapes(value, &o->input_shapes);
  } else if (name == "input_format") {
    if (value != "NCHW" && value != "ND" && value != "NCDHW") {
      return "--input_format=" + value +
             " is not supported by the emulator (NCHW, ND or NCDHW)";
    }
    o->input_format = value;
  } else if (name == "output_type") {
    if (value != "FP32") {
      return "--output_type=" + value +
             " is not supported by the emulator yet (only FP32)";
    }
    o->output_type = value;
  } else if (name == "log") {
    std::string err = CheckAsRead("log", value);  // CANN's E10010
    if (!err.empty()) return err;
    o->log = value;
  }
  return "";
}

}  // namespace

ParseStatus ParseAtcOptions(const std::vector<std::string>& args,
                            AtcOptions* options, std::string* error) {
  *options = AtcOptions();
  std::set<std::string> given;
  std::vector<std::pair<std::string, std::string>> pairs;
  switch (SplitAtcCommandLine(args, CannAtcFlags(), &pairs, error)) {
    case CommandLineStatus::kHelp:
      return ParseStatus::kHelp;
    case CommandLineStatus::kError:
      return ParseStatus::kError;
    case CommandLineStatus::kOk:
      break;
  }
  // Each value is checked as it is set, and a repeated option's last value
  // wins: CANN's atc sets its flags one by one in the order given.
  for (const auto& [name, value] : pairs) {
    given.insert(name);
    *error = CheckValue(name, value, options);
    if (!error->empty()) return ParseStatus::kError;
  }

  if (options->mode == 6) {
    if (options->om.empty()) {
      *error = "--mode=6 needs --om=<model.om> (the model to show)";
    }
    return error->empty() ? ParseStatus::kOk : ParseStatus::kError;
  }
  if (!options->om.empty()) {
    *error = "--om is read only with --mode=6 (show an .om's model info)";
  } else if (options->framework < 0) {
    *error = "--framework is required (--framework=5 for ONNX)";
  } else if (options->model.empty()) {
    *error = "--model is required";
  } else if (options->output.empty() && options->mode == 0) {
    *error = "--output is required (the path of the .om, without .om)";
  } else if (options->soc_version.empty()) {
    *error = "--soc_version is required (e.g. --soc_version=Ascend910B1)";
  } else if (!IsKnownSocVersion(options->soc_version)) {
    // CANN's list (soc_versions.h), with the nearest names for a typo.
    *error = SocVersionError("--soc_version", options->soc_version);
  } else if (!options->precision_mode.empty() &&
             !options->precision_mode_v2.empty()) {
    *error =
        "--precision_mode and --precision_mode_v2 are both set: CANN's atc "
        "takes one of them";
  } else if (PrecisionModeRefusedForSoc(*options, error)) {
    // *error says why (a bfloat16 mode on a chip without bfloat16)
  } else if (given.count("optypelist_for_implmode") != 0 &&
             given.count("op_select_implmode") == 0) {
    *error =
        "--optypelist_for_implmode needs --op_select_implmode (CANN's atc: "
        "they must be set at the same time)";
  } else {
    *error = ParseGears(options);
  }
  return error->empty() ? ParseStatus::kOk : ParseStatus::kError;
}

}  // namespace atc
}  // namespace ascend_emu
