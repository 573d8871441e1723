// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Command-line parsing for the emulator's atc. Option names, value spellings
// and defaults follow CANN's atc; what the emulator cannot honour is refused
// by name rather than silently ignored.
#include "atc_options.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "ascend_emu/om_format.h"
#include "ascend_emu/soc_versions.h"
#include "atc_command_line.h"
#include "precision_mode.h"

namespace ascend_emu {
namespace atc {
namespace {

const char* const kOptionNames[] = {
    "framework",
    "model",
    "output",
    "soc_version",
    "input_shape",
    "input_format",
    "output_type",
    "precision_mode",
    "mode",
    "log",
    "external_weight",
    "dynamic_batch_size",
    "dynamic_dims",
    "om",
    "precision_mode_v2",
};

// Options of CANN's atc the emulator accepts and checks but that change
// nothing it computes: they tune kernel selection, fusion, memory, scheduling,
// caches and debug output of the real compiler, and the emulator's CPU
// kernels give the same results either way. Names and value lists: CANN's atc
// (hicann/ge api/atc atc_flags.cc and cmd_flag_info.cc). `values`:
// "a|b|c" one of those; "" any non-empty text; kFileValue an existing file;
// kAsRead: the values kValuesAsRead lists, checked when the option is read.
// `e10006`: CANN refuses another value with E10006 after reading the command
// line (compiler/api/aclgrph/option_utils.cc) and takes "" as not given.
constexpr const char* kFileValue = "<file>";
constexpr const char* kAsRead = "<as read>";
struct NoEffectOption {
  const char* name;
  const char* values;
  bool e10006 = false;
};
constexpr NoEffectOption kNoEffectOptions[] = {
    {"op_select_implmode",
     "high_precision|high_performance|high_precision_for_all|"
     "high_performance_for_all"},
    {"optypelist_for_implmode", ""},
    {"keep_dtype", kFileValue},
    {"fusion_switch_file", kFileValue},
    {"enable_small_channel", "0|1"},
    {"buffer_optimize", "l1_optimize|l2_optimize|off_optimize"},
    {"disable_reuse_memory", kAsRead},
    {"enable_single_stream", "true|false"},
    {"ac_parallel_enable", "0|1", true},
    {"tiling_schedule_optimize", "0|1", true},
    {"oo_level", "O1|O3"},
    {"jit_compile", kAsRead},
    {"deterministic", kAsRead},
    {"deterministic_level", kAsRead},
    {"atomic_clean_policy", kAsRead},
    {"enable_attr_compression", "true|false"},
    {"virtual_type", kAsRead},
    {"core_type", "AiCore|VectorCore"},
    {"aicore_num", ""},
    {"host_env_os", ""},
    {"host_env_cpu", ""},
    {"op_debug_level", kAsRead},
    {"debug_dir", ""},
    {"status_check", kAsRead},
    {"op_compiler_cache_dir", ""},
    {"op_compiler_cache_mode", "enable|disable|force"},
    {"display_model_info", kAsRead},
};

// The other options of CANN's atc: the emulator refuses each by name, since
// it cannot do what they ask (docs/atc.md says why for each).
const char* const kNotEmulatedOptions[] = {
    "weight",
    "input_hint_shape",
    "input_shape_range",
    "dynamic_image_size",
    "cal_conf",
    "insert_op_conf",
    "op_name_map",
    "target",
    "json",
    "out_nodes",
    "op_precision_mode",
    "allow_hf32",
    "modify_mixlist",
    "customize_dtypes",
    "check_report",
    "input_fp16_nodes",
    "is_input_adjust_hw_layout",
    "is_output_adjust_hw_layout",
    "singleop",
    "auto_tune_mode",
    "optimization_switch",
    "static_model_ops_lower_limit",
    "h2d_overlapped_with_compute",
    "raw_ge_options",
    "raw_ge_options_ignore_unsupported",
    "compression_optimize_conf",
    "op_debug_config",
    "save_original_model",
    "enable_compress_weight",
    "compress_weight_conf",
    "sparsity",
    "dump_mode",
    "enable_scope_fusion_passes",
    "mdl_bank_path",
    "op_bank_path",
    "device_id",
    "shape_generalized_build_mode",
    "cluster_config",
    "hccl_sub_comm_config",
    "quant_dumpable",
    "is_weight_clip",
    "build_config",
};

const NoEffectOption* FindNoEffect(const std::string& name) {
  for (const NoEffectOption& option : kNoEffectOptions) {
    if (name == option.name) return &option;
  }
  return nullptr;
}

bool IsNotEmulated(const std::string& name) {
  for (const char* option : kNotEmulatedOptions) {
    if (name == option) return true;
  }
  return false;
}

// CANN's bool options (getopt's optional argument) besides --help.
const char* const kBoolOptions[] = {"raw_ge_options_ignore_unsupported"};

// Whether `value` is one of "a|b|c".
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

// The values CANN's atc checks as it reads each option, before any other
// check and in the order given (cmd_flag_info.cc: kStrValueRange, checked by
// CmdFlagInfo::SetFlagValue): its options whose values are numbers (its
// int32 flags and the string flags holding 0/1/2...) and --log, with the
// error CANN reports for a value outside them. Every int32 flag of CANN's
// has such a range, which is checked before the type, so its E10003 "The
// value type must be [int32]" cannot happen; a non-numeric value gets the
// range's error. (CANN's string choices, e.g. --precision_mode and
// --buffer_optimize, are in kStrValueRange too; the emulator checks them
// later, with its own wording.) --mode's values are kAtcModes'.
enum class RangeError { kE10001, kE10006, kE10007, kE10010 };
struct ValuesAsRead {
  const char* name;
  const char* values;
  RangeError error;
};
constexpr ValuesAsRead kValuesAsRead[] = {
    {"framework", "0|1|3|5", RangeError::kE10007},
    {"mode", nullptr, RangeError::kE10001},
    {"external_weight", "0|1|2", RangeError::kE10006},
    {"log", "debug|info|warning|error|null", RangeError::kE10010},
    {"disable_reuse_memory", "0|1", RangeError::kE10006},
    {"status_check", "0|1", RangeError::kE10006},
    {"deterministic", "0|1", RangeError::kE10006},
    {"display_model_info", "0|1", RangeError::kE10006},
    {"atomic_clean_policy", "0|1", RangeError::kE10006},
    {"sparsity", "0|1", RangeError::kE10006},
    {"dump_mode", "0|1", RangeError::kE10006},
    {"virtual_type", "0|1", RangeError::kE10001},
    {"deterministic_level", "0|1|2|3", RangeError::kE10001},
    {"op_debug_level", "0|1|2|3|4", RangeError::kE10001},
    {"jit_compile", "0|1|2", RangeError::kE10001},
};

std::string ModeValues();

// CANN's E10006 (value, option): its text names 0 and 1 only.
std::string E10006(const std::string& name, const std::string& value) {
  std::string err = "Value " + value + " for parameter --" + name +
                    " is invalid. The value must be either 1 or 0.";
  if (name == "external_weight") err += " (--external_weight takes 0, 1 or 2)";
  return err;
}

// "" or CANN's refusal of a value it checks as it reads the option (the
// command line's AtcFlags::check_as_read).
std::string CheckAsRead(const std::string& name, const std::string& value) {
  for (const char* option : kBoolOptions) {
    bool on = false;
    if (name == option && !ParseAtcBool(value, &on)) {
      return AtcBoolValueError(name, value);
    }
  }
  const ValuesAsRead* range = nullptr;
  for (const ValuesAsRead& r : kValuesAsRead) {
    if (name == r.name) range = &r;
  }
  if (range == nullptr) return "";
  const std::string values = range->values ? range->values : ModeValues();
  if (OneOf(values, value)) return "";
  switch (range->error) {
    case RangeError::kE10006:
      return E10006(name, value);
    case RangeError::kE10007:
      return "--framework is required. The value must be 0(Caffe) or "
             "1(MindSpore) or 3(TensorFlow) or 5(Onnx). (got --framework=" +
             value + ")";
    case RangeError::kE10010:
      // CANN's E10010, then the values it takes.
      return "Value " + value +
             " for parameter --log is invalid. (--log=" + value +
             " is not one of debug, info, warning, error, null)";
    case RangeError::kE10001:
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

// "" or why `value` is not one CANN's atc takes for a no-effect option.
std::string CheckNoEffect(const NoEffectOption& option,
                          const std::string& value) {
  const std::string flag = std::string("--") + option.name;
  if (option.values == kAsRead) return "";  // CheckAsRead took it
  if (option.e10006) {
    if (value.empty() || OneOf(option.values, value)) return "";
    return E10006(option.name, value);
  }
  if (value.empty()) return flag + " is empty";
  if (option.values == kFileValue) {
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

// CANN's precision_mode_v2 values (precision_mode.cc maps them onto the v1
// modes the emulator emulates).
std::string CheckPrecisionModeV2(const std::string& value, AtcOptions* o) {
  PrecisionMode mode;
  std::string err = PrecisionModeFromV2(value, &mode);
  if (err.empty()) o->precision_mode_v2 = value;
  return err;
}

bool ParseInt(const std::string& text, int64_t* value) {
  if (text.empty() || text.size() > 19) return false;
  size_t i = text[0] == '-' ? 1 : 0;
  if (i == text.size()) return false;
  for (size_t k = i; k < text.size(); ++k) {
    if (text[k] < '0' || text[k] > '9') return false;
  }
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (errno != 0 || end != text.c_str() + text.size()) return false;
  *value = v;
  return true;
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

// CANN's atc modes (ge inc/framework/omg/omg_inner_types.h RunMode; the
// values its command line takes: cmd_flag_info.cc kStrValueRange) and what
// each does (main_impl.cc kModeSupport).
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

// "0|1|3|..." of kAtcModes: the values CANN's atc takes for --mode.
std::string ModeValues() {
  std::string values;
  for (const AtcMode& mode : kAtcModes) {
    values += (values.empty() ? "" : "|") + std::string(mode.value);
  }
  return values;
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
  if (IsNotEmulated(name)) {
    return "--" + name +
           " is an option of CANN's atc that the emulator does not emulate "
           "(docs/atc.md lists what the emulator does with each atc option)";
  }
  if (const NoEffectOption* option = FindNoEffect(name)) {
    std::string err = CheckNoEffect(*option, value);
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

AtcFlags CannAtcFlags() {
  AtcFlags flags;
  flags.names.assign(std::begin(kOptionNames), std::end(kOptionNames));
  for (const NoEffectOption& option : kNoEffectOptions) {
    flags.names.emplace_back(option.name);
  }
  for (const char* option : kNotEmulatedOptions) {
    bool is_bool = false;
    for (const char* b : kBoolOptions)
      is_bool = is_bool || std::string(b) == option;
    (is_bool ? flags.bool_names : flags.names).emplace_back(option);
  }
  flags.check_as_read = CheckAsRead;
  return flags;
}

size_t MaxGearsFor(const std::string& soc_version) {
  return MaxGears(soc_version);  // soc_versions.json's gear_limits
}

namespace {

constexpr const char* kExclusive =
    "--dynamic_batch_size, --dynamic_image_size, --input_shape_range, and "
    "--dynamic_dims are mutually exclusive.";

// One gear value: digits only, > 0 (CANN's "Dimension size %s is invalid.
// The value must be greater than 0.").
std::string ParseGearValue(const std::string& option, const std::string& text,
                           int64_t* value) {
  if (text.empty() || text.size() > 13 ||
      text.find_first_not_of("0123456789") != std::string::npos) {
    return option + ": '" + text +
           "' is not a gear value (Dynamic dims must be a positive integer.)";
  }
  *value = std::strtoll(text.c_str(), nullptr, 10);
  if (*value <= 0) {
    return option + ": Dimension size " + text +
           " is invalid. The value must be greater than 0.";
  }
  if (*value > OmLimits::kMaxGearValue) {
    return option + ": gear value " + text + " is too large (at most 2^40)";
  }
  return "";
}

std::vector<std::string> Split(const std::string& text, char sep) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t end = text.find(sep, start);
    parts.push_back(text.substr(start, end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return parts;
}

std::string CheckGearCount(const AtcOptions& o) {
  const size_t max = MaxGearsFor(o.soc_version);
  if (o.gears.size() < MinGears()) {
    return "--dynamic_batch_size, --dynamic_image_size, or --dynamic_dims "
           "has " +
           std::to_string(o.gears.size()) +
           " profiles, which is less than the minimum " +
           std::to_string(MinGears()) + ".";
  }
  if (o.gears.size() > max) {
    return "--dynamic_batch_size, --dynamic_image_size, or --dynamic_dims "
           "has " +
           std::to_string(o.gears.size()) +
           " profiles, which is greater than the maximum " +
           std::to_string(max) + " (for --soc_version=" + o.soc_version + ").";
  }
  std::set<std::vector<int64_t>> distinct(o.gears.begin(), o.gears.end());
  if (distinct.size() != o.gears.size()) {
    return "The --dynamic_batch_size, --dynamic_image_size, or --dynamic_dims "
           "argument has duplicate profiles.";
  }
  return "";
}

std::string ParseBatchGears(AtcOptions* o) {
  bool any = false;
  for (const auto& [name, dims] : o->input_shapes) {
    if (dims.empty()) {
      return "--dynamic_batch_size is included, but the dimension count of "
             "the dynamic-shape input configured in --input_shape is less "
             "than 1 ('" +
             name + "' is a scalar).";
    }
    for (size_t k = 1; k < dims.size(); ++k) {
      if (dims[k] == -1) {
        return "Value -1 for shape '" + name + "' index " + std::to_string(k) +
               " is invalid. When --dynamic_batch_size is included, only "
               "batch size N can be -1 in --input_shape (use --dynamic_dims "
               "for other dims).";
      }
    }
    any = any || dims[0] == -1;
  }
  if (!any) {
    return "--dynamic_batch_size is included, but none of the nodes "
           "specified in --input_shape has a batch size equaling -1.";
  }
  std::string text = o->dynamic_batch_size;
  if (text.find_first_not_of("0123456789,") != std::string::npos) {
    return "--dynamic_batch_size='" + text +
           "' is invalid: It can only contain digits and \",\".";
  }
  if (!text.empty() && text.back() == ',') text.pop_back();
  for (const std::string& item : Split(text, ',')) {
    int64_t v = 0;
    std::string err = ParseGearValue("--dynamic_batch_size", item, &v);
    if (!err.empty()) return err;
    o->gears.push_back({v});
  }
  o->gear_type = DynamicType::kDynamicBatch;
  return CheckGearCount(*o);
}

std::string ParseDimsGears(AtcOptions* o) {
  if (o->input_format != "ND") {
    return "--dynamic_dims sets dynamic dims of ND inputs: it needs "
           "--input_format=ND (got " +
           o->input_format + ")";
  }
  size_t dynamic = 0;
  for (const auto& entry : o->input_shapes) {
    for (int64_t d : entry.second) dynamic += d == -1 ? 1 : 0;
  }
  if (dynamic == 0) {
    return "--input_shape has no dynamic dim: At least one dim should be -1 "
           "when dynamic_dims is set.";
  }
  if (dynamic > OmLimits::kMaxGearPositions) {
    return "--input_shape has " + std::to_string(dynamic) +
           " dynamic dims; the emulator takes at most " +
           std::to_string(OmLimits::kMaxGearPositions) + " (ACL_MAX_DIM_CNT)";
  }
  std::string text = o->dynamic_dims;
  while (!text.empty() && text.back() == ';') text.pop_back();
  if (text.empty()) {
    return "Parameter --dynamic_dims is not configured or is empty.";
  }
  for (const std::string& gear : Split(text, ';')) {
    const std::vector<std::string> items = Split(gear, ',');
    if (items.size() != dynamic) {
      return "--dynamic_dims='" + o->dynamic_dims + "' is invalid: gear '" +
             gear + "' has " + std::to_string(items.size()) +
             " values, but --input_shape has " + std::to_string(dynamic) +
             " -1 (Each setting needs to be consistent with the number of -1 "
             "in the input shape.)";
    }
    std::vector<int64_t> values;
    for (const std::string& item : items) {
      int64_t v = 0;
      std::string err = ParseGearValue("--dynamic_dims", item, &v);
      if (!err.empty()) return err;
      values.push_back(v);
    }
    o->gears.push_back(std::move(values));
  }
  o->gear_type = DynamicType::kDynamicDims;
  return CheckGearCount(*o);
}

}  // namespace

std::string ParseGears(AtcOptions* o) {
  o->gears.clear();
  o->gear_type = DynamicType::kStatic;
  const bool batch = !o->dynamic_batch_size.empty();
  const bool dims = !o->dynamic_dims.empty();
  if (batch && dims) return kExclusive;
  std::string dynamic_item;
  for (const auto& [name, dims_of] : o->input_shapes) {
    for (int64_t d : dims_of) {
      if (d == -1 && dynamic_item.empty()) dynamic_item = name;
    }
  }
  if (!batch && !dims) {
    if (dynamic_item.empty()) return "";
    return "--input_shape gives input '" + dynamic_item +
           "' a dynamic dim (-1) but neither --dynamic_batch_size nor "
           "--dynamic_dims is set: CANN would compile a dynamic-shape model "
           "(a shape range), which the emulator does not support; list the "
           "shapes to compile with --dynamic_batch_size or --dynamic_dims";
  }
  const char* option = batch ? "--dynamic_batch_size" : "--dynamic_dims";
  if (o->input_shapes.empty()) {
    return std::string(option) +
           " needs --input_shape with -1 in the dynamic dims (The "
           "input_shape cannot be empty in dynamic input size scenario.)";
  }
  return batch ? ParseBatchGears(o) : ParseDimsGears(o);
}

// One dim of an --input_shape entry, as CANN's atc reads it
// (compiler/api/aclgrph/option_utils.cc): a positive integer; -1, a dynamic
// dim (shape gears here); "lo~hi", a shape range, which makes CANN compile a
// dynamic-shape model the emulator does not emulate; 0 or another negative
// number, E10011; anything else (1.5, a), E10002.
static std::string CheckInputShapeDim(const std::string& item,
                                      const std::string& dim, int64_t* v) {
  const size_t tilde = dim.find('~');
  if (tilde != std::string::npos) {
    int64_t lo = 0;
    int64_t hi = 0;
    const bool range = ParseInt(dim.substr(0, tilde), &lo) &&
                       ParseInt(dim.substr(tilde + 1), &hi) && lo > 0 &&
                       (hi == -1 || hi >= lo);
    if (!range) {
      return "--input_shape: '" + dim + "' in '" + item +
             "' is not a dimension or a range lo~hi";
    }
    return "--input_shape '" + item + "' gives a shape range (" + dim +
           "): CANN's atc compiles a dynamic-shape model from it, which the "
           "emulator does not emulate; put -1 in the dynamic dims and list "
           "the shapes to compile with --dynamic_batch_size or --dynamic_dims";
  }
  if (!ParseInt(dim, v)) {
    // CANN's E10002 (option_utils.cc: a dim with a character other than a
    // digit, e.g. 1.5).
    return "Value " + item +
           " for parameter --input_shape is invalid. Reason: It is not a "
           "digit. The value must be formatted as \"input_name1:1,3,224,224\"."
           " ('" +
           dim + "' is not a dimension)";
  }
  if (*v <= 0 && *v != -1) {
    return "Value " + item +
           " for parameter --input_shape is invalid. Shape values must be "
           "positive integers. The error value in the shape is " +
           dim + ".";
  }
  return "";
}

std::string ParseInputShapes(
    const std::string& text,
    std::vector<std::pair<std::string, std::vector<int64_t>>>* shapes) {
  shapes->clear();
  std::set<std::string> seen;
  const std::vector<std::string> items = Split(text, ';');
  for (size_t k = 0; k < items.size(); ++k) {
    const std::string& item = items[k];
    // An empty entry (";;", a trailing ';', or no value at all) is a typo or
    // a generator bug: refused rather than silently dropped, so a shape the
    // user meant to give cannot go missing.
    if (item.empty()) {
      return "--input_shape '" + text + "' has an empty entry (entry " +
             std::to_string(k + 1) + " of " + std::to_string(items.size()) +
             "): every ';'-separated entry must be name:dims";
    }
    // Names may contain ':' (e.g. "x:0"); the dims follow the last one.
    const size_t colon = item.rfind(':');
    if (colon == std::string::npos || colon == 0) {
      return "--input_shape item '" + item + "' is not name:dims";
    }
    std::string name = item.substr(0, colon);
    const std::string dims_text = item.substr(colon + 1);
    std::vector<int64_t> dims;
    size_t d = 0;
    while (!dims_text.empty() && d <= dims_text.size()) {
      size_t comma = dims_text.find(',', d);
      if (comma == std::string::npos) comma = dims_text.size();
      int64_t v = 0;
      const std::string dim = dims_text.substr(d, comma - d);
      std::string err = CheckInputShapeDim(item, dim, &v);
      if (!err.empty()) return err;
      dims.push_back(v);
      d = comma + 1;
    }
    if (!seen.insert(name).second) {
      return "--input_shape names input '" + name + "' twice";
    }
    shapes->emplace_back(std::move(name), std::move(dims));
  }
  return "";
}

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

std::string AtcUsage() {
  return R"(usage: atc --framework=5 --model=<model.onnx> --output=<path without .om>
           --soc_version=<chip> [--precision_mode=<mode>] [options]

The executorch-ascend CANN emulator's atc: compiles an ONNX model (ai.onnx
opset 11 to 18, static shapes or shape gears) into an emulator .om that the emulator's
libascendcl.so runs on the CPU. Same command line as CANN's atc for the
options below; anything else is refused.

  --framework=5              ONNX (the only framework the emulator reads)
  --model=<file>             the .onnx file
  --output=<path>            writes <path>.om
  --soc_version=<chip>       target chip, e.g. Ascend910B1, Ascend310P3
  --precision_mode=<mode>    one of CANN's nine modes, emulated numerically
                             (docs/atc.md): force_fp16 (CANN's default),
                             force_fp32, cube_fp16in_fp32out,
                             allow_fp32_to_fp16, must_keep_origin_dtype
                             (fp32 as written), allow_mix_precision,
                             allow_mix_precision_fp16, allow_mix_precision_bf16,
                             allow_fp32_to_bf16
  --input_shape="x:1,3,224,224;y:2,8"
                             fixes or checks input dims; -1 marks a dynamic
                             dim, which needs one of the two options below
  --dynamic_batch_size="1,2,4"
                             shape gears of the batch: -1 only in dim 0 of
                             the dynamic inputs; 2 to 100 gears
  --dynamic_dims="1,16;8,32" shape gears of any dims (--input_format=ND):
                             each gear gives one value per -1 of
                             --input_shape, in order; 2 to 100 gears
  --input_format=NCHW|ND|NCDHW
                             format reported for 4-D (NCHW) or 5-D (NCDHW)
                             inputs and outputs; default NCHW
  --output_type=FP32         only FP32: every output must be float32
  --mode=0|3|6               0 build (default), 3 pre-check only (no file),
                             6 show the model info of --om=<file.om>; CANN's
                             modes 1, 5, 7 and 30 are not emulated
  --external_weight=0|1|2    where initializers stored as ONNX external data
                             go: 0 into the .om (default); 1 one file per
                             constant, <output dir>/weight/weight_<sha256>;
                             2 one file, weight/weight_combined_<sha256>.
                             The .om then refers to them (FileConstants)
  --precision_mode_v2=<mode>  instead of --precision_mode: fp16, origin,
                             cube_fp16in_fp32out, mixed_float16,
                             mixed_bfloat16 (cube_hif8, mixed_hif8: not
                             emulated)
  --log=debug|info|warning|error|null
  --op_select_implmode, --optypelist_for_implmode, --keep_dtype,
  --fusion_switch_file, --enable_small_channel, --buffer_optimize and other
                             tuning options of CANN's atc: checked as CANN
                             checks them, no effect on what the emulator
                             computes (docs/atc.md); CANN's other options are
                             refused as not emulated
  --help, -h                 this text

Options take the form --name=value or --name value, as CANN's atc reads them:
-name=value works too, dashes in a name are underscores (--input-format), an
unambiguous prefix names its option (--soc), and the last of a repeated
option wins.
)";
}

}  // namespace atc
}  // namespace ascend_emu
