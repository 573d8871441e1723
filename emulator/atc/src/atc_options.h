// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// atc's command line: the subset of CANN's atc options the emulator supports
// (docs/atc.md), parsed and checked before any file is read.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "aipp_config.h"
#include "ascend_emu/program.h"
#include "atc_command_line.h"

namespace ascend_emu {
namespace atc {

struct AtcOptions {
  int framework = -1;
  std::string model;
  std::string output;  // path without the .om suffix
  std::string soc_version;
  // --input_shape, parsed: (input name, dims) in the order given.
  std::vector<std::pair<std::string, std::vector<int64_t>>> input_shapes;
  std::string input_format = "NCHW";
  std::string output_type;  // empty: outputs keep their ONNX dtype
  std::string precision_mode;
  std::string precision_mode_v2;  // only "origin" (= must_keep_origin_dtype)
  int mode = 0;    // 0 build, 3 pre-check only, 6 show an .om's info
  std::string om;  // --om: the .om --mode=6 shows
  // Shape gears: --dynamic_batch_size="1,2,4" (one value per gear, dim 0 of
  // every input with -1) or --dynamic_dims="1,1;8,8" (per gear one value
  // per -1 of --input_shape, in order), parsed into `gears`.
  std::string dynamic_batch_size;
  std::string dynamic_dims;
  DynamicType gear_type = DynamicType::kStatic;
  std::vector<std::vector<int64_t>> gears;
  // 0: every constant in the .om; 1: each constant stored as ONNX external
  // data becomes a FileConstant in its own file weight/weight_<sha256> beside
  // the .om; 2: all of them in one file weight/weight_combined_<sha256>.
  int external_weight = 0;
  // --insert_op_conf: CANN's AIPP config file (aipp_config.h), read when the
  // model is compiled, and what it holds then.
  std::string insert_op_conf;
  std::vector<AippOp> aipp;
  std::string log = "null";
  // Options of CANN's atc given that change nothing the emulator computes
  // (name, value), in the order given; --log=info lists them.
  std::vector<std::pair<std::string, std::string>> no_effect;
};

enum class ParseStatus { kOk, kHelp, kError };

// Parses argv[1..] ("--name=value" or "--name value"; --help / -h) and checks
// every value. On kError, *error says what is wrong in one sentence.
ParseStatus ParseAtcOptions(const std::vector<std::string>& args,
                            AtcOptions* options, std::string* error);

// CANN's atc options as its command line reads them (SplitAtcCommandLine):
// every name but "help", its bool options, and the value checks CANN makes
// as it reads each option (CANN's E10001, E10003, E10006, E10007, E10010).
AtcFlags CannAtcFlags();

// Checks and parses --dynamic_batch_size / --dynamic_dims against
// --input_shape, --input_format and --soc_version (CANN's rules and limits);
// fills options->gear_type and options->gears. "" or an error.
std::string ParseGears(AtcOptions* options);

// The most gears CANN's atc takes for a chip (soc_versions.json's
// gear_limits: 100, 256 for Ascend950).
size_t MaxGearsFor(const std::string& soc_version);

// Parses an --input_shape value ("x:1,3,224,224;y:2"); "" or an error.
std::string ParseInputShapes(
    const std::string& text,
    std::vector<std::pair<std::string, std::vector<int64_t>>>* shapes);

// The text `atc --help` prints.
std::string AtcUsage();

}  // namespace atc
}  // namespace ascend_emu
