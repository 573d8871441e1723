// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// libFuzzer harness for atc's command line: the input's bytes are argv[1..],
// each argument ended by a NUL byte (the bytes after the last NUL are one
// more argument when there are any), read by ParseAtcOptions, the parser
// atc's main calls first (RunAtc), and by the splitter under it. Neither may
// crash, leak or read out of bounds, and what they accept must hold up:
//   - splitting is a fixpoint: the pairs read, written back as
//     "--name=value", split into the same pairs, and written as "--name"
//     "value" (not for bool options) into the same names with each value
//     rewritten as CANN rewrites every argument; RewriteAtcArgument is
//     idempotent;
//   - the parser agrees with the splitter (help where it says help, its
//     error where it fails) and gives the same answer twice;
//   - a command line the parser accepts, written back from the parsed
//     options in a canonical form, parses into equal options (and so does
//     that form again).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "atc_command_line.h"
#include "atc_options.h"

namespace {

using ascend_emu::atc::AtcFlags;
using ascend_emu::atc::AtcOptions;
using ascend_emu::atc::CommandLineStatus;
using ascend_emu::atc::ParseStatus;
using Pairs = std::vector<std::pair<std::string, std::string>>;

void Check(bool ok) {
  if (!ok) std::abort();
}

bool IsBool(const AtcFlags& flags, const std::string& name) {
  for (const std::string& b : flags.bool_names) {
    if (b == name) return true;
  }
  return false;
}

// The canonical command line of parsed options: every field the parser
// sets, as --name=value, in a fixed order.
std::vector<std::string> Render(const AtcOptions& o) {
  std::vector<std::string> args;
  const auto add = [&args](const char* name, const std::string& value) {
    args.push_back(std::string("--") + name + "=" + value);
  };
  if (o.framework >= 0) add("framework", std::to_string(o.framework));
  if (!o.model.empty()) add("model", o.model);
  if (!o.output.empty()) add("output", o.output);
  if (!o.soc_version.empty()) add("soc_version", o.soc_version);
  if (!o.input_shapes.empty()) {
    std::string text;
    for (const auto& [name, dims] : o.input_shapes) {
      if (!text.empty()) text += ";";
      text += name + ":";
      for (size_t k = 0; k < dims.size(); ++k) {
        text += (k ? "," : "") + std::to_string(dims[k]);
      }
    }
    add("input_shape", text);
  }
  add("input_format", o.input_format);
  if (!o.output_type.empty()) add("output_type", o.output_type);
  if (!o.precision_mode.empty()) add("precision_mode", o.precision_mode);
  if (!o.precision_mode_v2.empty()) {
    add("precision_mode_v2", o.precision_mode_v2);
  }
  add("mode", std::to_string(o.mode));
  if (!o.om.empty()) add("om", o.om);
  if (!o.dynamic_batch_size.empty()) {
    add("dynamic_batch_size", o.dynamic_batch_size);
  }
  if (!o.dynamic_dims.empty()) add("dynamic_dims", o.dynamic_dims);
  add("external_weight", std::to_string(o.external_weight));
  add("log", o.log);
  for (const auto& [name, value] : o.no_effect) add(name.c_str(), value);
  return args;
}

bool Equal(const AtcOptions& a, const AtcOptions& b) {
  return a.framework == b.framework && a.model == b.model &&
         a.output == b.output && a.soc_version == b.soc_version &&
         a.input_shapes == b.input_shapes && a.input_format == b.input_format &&
         a.output_type == b.output_type &&
         a.precision_mode == b.precision_mode &&
         a.precision_mode_v2 == b.precision_mode_v2 && a.mode == b.mode &&
         a.om == b.om && a.dynamic_batch_size == b.dynamic_batch_size &&
         a.dynamic_dims == b.dynamic_dims && a.gear_type == b.gear_type &&
         a.gears == b.gears && a.external_weight == b.external_weight &&
         a.log == b.log && a.no_effect == b.no_effect;
}

void CheckSplitFixpoint(const AtcFlags& flags, const Pairs& pairs) {
  std::vector<std::string> joined;
  std::vector<std::string> apart;
  Pairs apart_pairs;  // what `apart` must split into
  for (const auto& [name, value] : pairs) {
    joined.push_back("--" + name + "=" + value);
    if (IsBool(flags, name)) {
      apart.push_back("--" + name + "=" + value);
      apart_pairs.emplace_back(name, value);
    } else {
      apart.push_back("--" + name);
      apart.push_back(value);
      apart_pairs.emplace_back(name,
                               ascend_emu::atc::RewriteAtcArgument(value));
    }
  }
  Pairs again;
  std::string error;
  Check(ascend_emu::atc::SplitAtcCommandLine(joined, flags, &again, &error) ==
        CommandLineStatus::kOk);
  Check(again == pairs);
  // No value a range takes starts with '-', so a rewrite keeps it in range.
  const CommandLineStatus apart_status =
      ascend_emu::atc::SplitAtcCommandLine(apart, flags, &again, &error);
  Check(apart_status == CommandLineStatus::kOk);
  Check(again == apart_pairs);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 1 << 16) return 0;
  std::vector<std::string> args;
  std::string arg;
  for (size_t i = 0; i < size; ++i) {
    if (data[i] == 0) {
      args.push_back(arg);
      arg.clear();
    } else {
      arg.push_back(static_cast<char>(data[i]));
    }
  }
  if (!arg.empty()) args.push_back(arg);
  for (const std::string& a : args) {
    const std::string once = ascend_emu::atc::RewriteAtcArgument(a);
    Check(ascend_emu::atc::RewriteAtcArgument(once) == once);
  }

  static const AtcFlags flags = ascend_emu::atc::CannAtcFlags();
  Pairs pairs;
  std::string split_error;
  const CommandLineStatus split =
      ascend_emu::atc::SplitAtcCommandLine(args, flags, &pairs, &split_error);
  if (split == CommandLineStatus::kOk) CheckSplitFixpoint(flags, pairs);
  if (split == CommandLineStatus::kError) Check(!split_error.empty());

  AtcOptions options;
  std::string error;
  const ParseStatus parsed =
      ascend_emu::atc::ParseAtcOptions(args, &options, &error);
  switch (split) {
    case CommandLineStatus::kHelp:
      Check(parsed == ParseStatus::kHelp);
      break;
    case CommandLineStatus::kError:
      Check(parsed == ParseStatus::kError && error == split_error);
      break;
    case CommandLineStatus::kOk:
      Check(parsed != ParseStatus::kHelp);
      break;
  }
  if (parsed == ParseStatus::kError) Check(!error.empty());

  // The same answer twice (no state kept between calls).
  AtcOptions again;
  std::string again_error;
  Check(ascend_emu::atc::ParseAtcOptions(args, &again, &again_error) == parsed);
  Check(again_error == error);
  if (parsed != ParseStatus::kOk) return 0;
  Check(Equal(options, again));

  // What was accepted, written back canonically, parses into equal options.
  const std::vector<std::string> canonical = Render(options);
  AtcOptions reparsed;
  Check(ascend_emu::atc::ParseAtcOptions(canonical, &reparsed, &error) ==
        ParseStatus::kOk);
  Check(Equal(options, reparsed));
  Check(Render(reparsed) == canonical);
  return 0;
}
