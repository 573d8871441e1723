// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// atc's command-line parsing (no files involved).
#include "atc_options.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "ascend_emu/soc_versions.h"
#include "atc_command_line.h"
#include "precision_mode.h"

namespace ascend_emu {
namespace atc {
namespace {

const std::vector<std::string> kBase = {
    "--framework=5", "--model=m.onnx", "--output=out",
    "--soc_version=Ascend310P3", "--precision_mode=must_keep_origin_dtype"};

ParseStatus Parse(std::vector<std::string> extra, AtcOptions* o,
                  std::string* err, std::vector<std::string> base = kBase) {
  // An extra option replaces the base one of the same name.
  for (const std::string& e : extra) {
    const std::string name = e.substr(0, e.find('='));
    base.erase(std::remove_if(base.begin(), base.end(),
                              [&](const std::string& b) {
                                return b.substr(0, b.find('=')) == name;
                              }),
               base.end());
  }
  base.insert(base.end(), extra.begin(), extra.end());
  return ParseAtcOptions(base, o, err);
}

TEST(AtcOptions, ParsesTheUsualCommandLine) {
  AtcOptions o;
  std::string err;
  ASSERT_EQ(Parse({"--input_shape=x:1,3,224,224;y:2", "--input_format=ND",
                   "--output_type=FP32", "--log=info", "--mode=0"},
                  &o, &err),
            ParseStatus::kOk)
      << err;
  EXPECT_EQ(o.framework, 5);
  EXPECT_EQ(o.model, "m.onnx");
  EXPECT_EQ(o.output, "out");
  EXPECT_EQ(o.soc_version, "Ascend310P3");
  EXPECT_EQ(o.precision_mode, "must_keep_origin_dtype");
  EXPECT_EQ(o.input_format, "ND");
  EXPECT_EQ(o.output_type, "FP32");
  EXPECT_EQ(o.log, "info");
  ASSERT_EQ(o.input_shapes.size(), 2u);
  EXPECT_EQ(o.input_shapes[0].first, "x");
  EXPECT_EQ(o.input_shapes[0].second, (std::vector<int64_t>{1, 3, 224, 224}));
  EXPECT_EQ(o.input_shapes[1].first, "y");
  EXPECT_EQ(o.input_shapes[1].second, (std::vector<int64_t>{2}));
}

TEST(AtcOptions, AcceptsSpaceSeparatedValuesAndDefaults) {
  AtcOptions o;
  std::string err;
  ASSERT_EQ(ParseAtcOptions({"--framework", "5", "--model", "a.onnx",
                             "--output", "a", "--soc_version", "Ascend910B1",
                             "--precision_mode", "force_fp32"},
                            &o, &err),
            ParseStatus::kOk)
      << err;
  EXPECT_EQ(o.precision_mode, "force_fp32");
  EXPECT_EQ(o.input_format, "NCHW");
  EXPECT_EQ(o.mode, 0);
  EXPECT_TRUE(o.output_type.empty());
}

TEST(AtcOptions, NoEffectOptionsAreAcceptedAndRecorded) {
  AtcOptions o;
  std::string err;
  ASSERT_EQ(Parse({"--op_select_implmode=high_precision",
                   "--optypelist_for_implmode=Add,MatMul",
                   "--enable_small_channel=1", "--buffer_optimize=off_optimize",
                   "--fusion_switch_file=/proc/self/status"},
                  &o, &err),
            ParseStatus::kOk)
      << err;
  ASSERT_EQ(o.no_effect.size(), 5u);
  EXPECT_EQ(o.no_effect[0].first, "op_select_implmode");
  EXPECT_EQ(o.no_effect[4].second, "/proc/self/status");
}

TEST(AtcOptions, PrecisionModeV2OriginReplacesPrecisionMode) {
  AtcOptions o;
  std::string err;
  const std::vector<std::string> base = {"--framework=5", "--model=m.onnx",
                                         "--output=out",
                                         "--soc_version=Ascend910B1"};
  ASSERT_EQ(Parse({"--precision_mode_v2=origin"}, &o, &err, base),
            ParseStatus::kOk)
      << err;
  EXPECT_EQ(o.precision_mode_v2, "origin");
  EXPECT_TRUE(o.precision_mode.empty());
  EXPECT_EQ(EffectivePrecisionMode(o), PrecisionMode::kMustKeepOriginDtype);
  // Neither: CANN's default.
  ASSERT_EQ(Parse({}, &o, &err, base), ParseStatus::kOk) << err;
  EXPECT_EQ(EffectivePrecisionMode(o), PrecisionMode::kForceFp16);
}

TEST(AtcOptions, Help) {
  AtcOptions o;
  std::string err;
  EXPECT_EQ(ParseAtcOptions({"--help"}, &o, &err), ParseStatus::kHelp);
  EXPECT_EQ(ParseAtcOptions({"-h"}, &o, &err), ParseStatus::kHelp);
  // CANN's atc also registers --h, and getopt takes prefixes of --help.
  EXPECT_EQ(ParseAtcOptions({"--h"}, &o, &err), ParseStatus::kHelp);
  EXPECT_EQ(ParseAtcOptions({"--hel"}, &o, &err), ParseStatus::kHelp);
  EXPECT_EQ(ParseAtcOptions({"-help"}, &o, &err), ParseStatus::kHelp);
  EXPECT_NE(AtcUsage().find("--precision_mode"), std::string::npos);
}

struct Refusal {
  std::vector<std::string> args;
  const char* expected;
};

// Each command line is refused with a message containing `expected`.
template <size_t N>
void ExpectRefusals(const Refusal (&cases)[N]) {
  for (const Refusal& c : cases) {
    AtcOptions o;
    std::string err;
    EXPECT_EQ(Parse(c.args, &o, &err), ParseStatus::kError) << c.expected;
    EXPECT_NE(err.find(c.expected), std::string::npos)
        << "expected '" << c.expected << "', got '" << err << "'";
  }
}

TEST(AtcOptions, Refusals) {
  const Refusal cases[] = {
      {{"--unknown=1"}, "unknown command line flag 'unknown'"},
      {{"--framework=1"},
       "--framework=1 (MindSpore) is a framework of CANN's atc that the "
       "emulator does not emulate: only --framework=5 (ONNX)"},
      {{"--framework=abc"},
       "--framework is required. The value must be 0(Caffe) or 1(MindSpore) "
       "or 3(TensorFlow) or 5(Onnx)."},
      {{"--mode=1"},
       "--mode=1 (framework model to json) is a mode of CANN's atc that the "
       "emulator does not emulate"},
      {{"--mode=2"},
       "Value 2 for parameter --mode is invalid. Reason: The value is not "
       "within the range of values. The valid range is [0] [1] [3] [30] [5] "
       "[6] [7] ."},
      {{"--precision_mode=fast"}, "is not a CANN precision mode"},
      {{"--input_format=NHWC"}, "--input_format=NHWC is not supported"},
      {{"--output_type=FP16"}, "only FP32"},
      {{"--log=loud"},
       "Value loud for parameter --log is invalid. (--log=loud is not one of "
       "debug, info, warning, error, null)"},
      {{"--input_shape=x:1,-1"}, "dynamic dim (-1)"},
      {{"--input_shape=x:1,a"}, "is not a dimension"},
      {{"--input_shape=x:1.5,3"},
       "Value x:1.5,3 for parameter --input_shape is invalid. Reason: It is "
       "not a digit. The value must be formatted as "
       "\"input_name1:1,3,224,224\"."},
      {{"--input_shape=x:0,3"},
       "Value x:0,3 for parameter --input_shape is invalid. Shape values must "
       "be positive integers. The error value in the shape is 0."},
      {{"--input_shape=x:1,-2"}, "The error value in the shape is -2."},
      {{"--input_shape=x:1~8,3"},
       "--input_shape 'x:1~8,3' gives a shape range (1~8): CANN's atc "
       "compiles a dynamic-shape model from it, which the emulator does not "
       "emulate; put -1 in the dynamic dims and list the shapes to compile "
       "with --dynamic_batch_size or --dynamic_dims"},
      {{"--input_shape=x:1~8,3", "--dynamic_batch_size=1,2"},
       "gives a shape range (1~8)"},
      {{"--input_shape=x:8~1,3"}, "is not a dimension or a range lo~hi"},
      {{"--input_shape=x"}, "is not name:dims"},
      {{"--input_shape=x:1;x:2"}, "twice"},
      // Empty entries used to be dropped silently (issue 11).
      {{"--input_shape=;;;;"}, "has an empty entry (entry 1 of 5)"},
      {{"--input_shape=x:1,3;;y:2"}, "has an empty entry (entry 2 of 3)"},
      {{"--input_shape=x:1,3;"}, "has an empty entry (entry 2 of 2)"},
      {{"stray"}, "Non-option parameter: stray"},
      {{"--external_weight=3"},
       "Value 3 for parameter --external_weight is invalid. The value must "
       "be either 1 or 0. (--external_weight takes 0, 1 or 2)"},
      {{"--external_weight=-1"},
       "Value -1 for parameter --external_weight is invalid."},
      {{"--external_weight=yes"},
       "Value yes for parameter --external_weight is invalid."},
      {{"--external_weight="},
       "Value  for parameter --external_weight is invalid."},
      // CANN compares the text: 01 and +1 are not 1.
      {{"--external_weight=01"},
       "Value 01 for parameter --external_weight is invalid."},
      // CANN's atc options the emulator cannot do: refused by name.
      {{"--modify_mixlist=mix.json"},
       "--modify_mixlist is an option of CANN's atc that the emulator does "
       "not emulate"},
      {{"--allow_hf32=true"}, "--allow_hf32 is an option of CANN's atc"},
      {{"--dynamic_image_size=1,1;2,2"},
       "--dynamic_image_size is an option of CANN's atc"},
      // No-effect options are still checked as CANN checks them.
      {{"--buffer_optimize=l3_optimize"},
       "--buffer_optimize='l3_optimize' is invalid: CANN's atc takes one of "
       "l1_optimize,l2_optimize,off_optimize"},
      {{"--op_select_implmode=fast"}, "--op_select_implmode='fast' is invalid"},
      {{"--enable_small_channel=2"}, "--enable_small_channel='2' is invalid"},
      {{"--keep_dtype=/nonexistent/keep.cfg"},
       "--keep_dtype='/nonexistent/keep.cfg': the file is not found"},
      {{"--optypelist_for_implmode=Add"},
       "--optypelist_for_implmode needs --op_select_implmode"},
      {{"--debug_dir="}, "--debug_dir is empty"},
      // precision_mode_v2: the HiFloat8 modes are not emulated.
      {{"--precision_mode_v2=mixed_hif8"},
       "--precision_mode_v2=mixed_hif8 is not emulated"},
      {{"--precision_mode_v2=fast"}, "is not a CANN precision_mode_v2"},
      {{"--precision_mode_v2=origin"},
       "--precision_mode and --precision_mode_v2 are both set"},
  };
  ExpectRefusals(cases);
}

TEST(AtcOptions, ExternalWeight) {
  AtcOptions o;
  std::string err;
  ASSERT_EQ(Parse({}, &o, &err), ParseStatus::kOk) << err;
  EXPECT_EQ(o.external_weight, 0);  // CANN's default: weights in the .om
  for (int mode : {0, 1, 2}) {
    ASSERT_EQ(Parse({"--external_weight=" + std::to_string(mode)}, &o, &err),
              ParseStatus::kOk)
        << err;
    EXPECT_EQ(o.external_weight, mode);
  }
  std::vector<std::string> spaced = kBase;
  spaced.push_back("--external_weight");
  spaced.push_back("2");
  ASSERT_EQ(ParseAtcOptions(spaced, &o, &err), ParseStatus::kOk) << err;
  EXPECT_EQ(o.external_weight, 2);
  EXPECT_NE(AtcUsage().find("--external_weight=0|1|2"), std::string::npos);
}

TEST(AtcOptions, TheLastOfARepeatedOptionWins) {
  // CANN's atc sets its flags one by one: the last value given wins.
  AtcOptions o;
  std::string err;
  std::vector<std::string> args = kBase;
  args.push_back("--soc_version=Ascend910B1");
  args.push_back("--buffer_optimize=l1_optimize");
  args.push_back("--input_shape=x:1");
  args.push_back("--buffer_optimize=l2_optimize");
  args.push_back("--input_shape=y:2,3");
  ASSERT_EQ(ParseAtcOptions(args, &o, &err), ParseStatus::kOk) << err;
  EXPECT_EQ(o.soc_version, "Ascend910B1");
  ASSERT_EQ(o.no_effect.size(), 1u);
  EXPECT_EQ(o.no_effect[0].second, "l2_optimize");
  ASSERT_EQ(o.input_shapes.size(), 1u);
  EXPECT_EQ(o.input_shapes[0].first, "y");
  // Each value is still checked when it is given, as CANN checks it.
  args.push_back("--mode=2");
  args.push_back("--mode=0");
  EXPECT_EQ(ParseAtcOptions(args, &o, &err), ParseStatus::kError);
  EXPECT_NE(err.find("for parameter --mode is invalid"), std::string::npos)
      << err;
}

TEST(AtcOptions, RewritesArgumentsAsCannDoes) {
  EXPECT_EQ(RewriteAtcArgument("-framework=5"), "--framework=5");
  EXPECT_EQ(RewriteAtcArgument("--input-format=ND"), "--input_format=ND");
  EXPECT_EQ(RewriteAtcArgument("-input-shape=x-y:1"), "--input_shape=x-y:1");
  EXPECT_EQ(RewriteAtcArgument("--model=a-b.onnx"), "--model=a-b.onnx");
  EXPECT_EQ(RewriteAtcArgument("-h"), "-h");  // one letter: a short option
  EXPECT_EQ(RewriteAtcArgument("-1,2"), "-1,2");
  EXPECT_EQ(RewriteAtcArgument("x:-1,3"), "x:-1,3");
}

TEST(AtcOptions, AcceptsTheFormsCannsGetoptTakes) {
  AtcOptions o;
  std::string err;
  ASSERT_EQ(ParseAtcOptions(
                {"-fram=5", "--mode", "3", "-model=m.onnx", "--soc=Ascend910B1",
                 "--input-format=ND", "--precision_mode", "force_fp32",
                 "--input-shape", "x:2,3", "--log=info"},
                &o, &err),
            ParseStatus::kOk)
      << err;
  EXPECT_EQ(o.framework, 5);
  EXPECT_EQ(o.mode, 3);
  EXPECT_EQ(o.model, "m.onnx");
  EXPECT_EQ(o.soc_version, "Ascend910B1");
  EXPECT_EQ(o.input_format, "ND");
  EXPECT_EQ(o.precision_mode, "force_fp32");  // exact, not precision_mode_v2
  ASSERT_EQ(o.input_shapes.size(), 1u);
  EXPECT_EQ(o.input_shapes[0].second, (std::vector<int64_t>{2, 3}));
  // A value may start with '-': it is the next argument, whatever it is.
  ASSERT_EQ(Parse({"--input_shape", "x:-1,3", "--dynamic_batch_size", "1,2"},
                  &o, &err),
            ParseStatus::kOk)
      << err;
  EXPECT_EQ(o.gears.size(), 2u);
  // CANN rewrites every argument before reading any, a value given apart
  // too: "-my-net.onnx" is read as "--my_net.onnx" (and one given with '='
  // is left alone).
  ASSERT_EQ(Parse({"--model", "-my-net.onnx"}, &o, &err), ParseStatus::kOk)
      << err;
  EXPECT_EQ(o.model, "--my_net.onnx");
  ASSERT_EQ(Parse({"--model=-my-net.onnx"}, &o, &err), ParseStatus::kOk) << err;
  EXPECT_EQ(o.model, "-my-net.onnx");
}

TEST(AtcOptions, RefusesWhatCannsGetoptRefuses) {
  const Refusal cases[] = {
      // "--prec" abbreviates precision_mode and precision_mode_v2.
      {{"--prec=force_fp32"},
       "unknown command line flag 'prec' (ambiguous: it abbreviates "
       "--precision_mode --precision_mode_v2)"},
      {{"--o=x"}, "unknown command line flag 'o' (ambiguous"},
      {{"--mod=0"}, "(ambiguous: it abbreviates --mode --model"},
      {{"--wieght=x"}, "unknown command line flag 'wieght' (not an option"},
      {{"-x"}, "unknown command line flag 'x'"},
      {{"--model"}, "flag '--model' is missing its argument"},
      {{"--", "--mode=0"}, "Non-option parameter: --mode=0"},
      // Printed as getopt saw it, rewritten.
      {{"--", "-mode-x"}, "Non-option parameter: --mode_x"},
  };
  ExpectRefusals(cases);
}

TEST(AtcOptions, ModesAsCannTakesThem) {
  AtcOptions o;
  std::string err;
  for (const char* mode : {"0", "3"}) {
    EXPECT_EQ(Parse({std::string("--mode=") + mode}, &o, &err),
              ParseStatus::kOk)
        << err;
  }
  EXPECT_EQ(ParseAtcOptions({"--mode=6", "--om=m.om"}, &o, &err),
            ParseStatus::kOk)
      << err;
  // CANN's other modes are refused by name; values it does not take with
  // its E10001 wording.
  for (const char* mode : {"1", "5", "7", "30"}) {
    EXPECT_EQ(Parse({std::string("--mode=") + mode}, &o, &err),
              ParseStatus::kError);
    EXPECT_NE(err.find("is a mode of CANN's atc that the emulator does not "
                       "emulate"),
              std::string::npos)
        << mode << ": " << err;
  }
  for (const char* mode : {"2", "10", "00", "-1", "abc", ""}) {
    EXPECT_EQ(Parse({std::string("--mode=") + mode}, &o, &err),
              ParseStatus::kError);
    EXPECT_NE(err.find("for parameter --mode is invalid"), std::string::npos)
        << mode << ": " << err;
  }
}

TEST(AtcOptions, FrameworksAsCannTakesThem) {
  AtcOptions o;
  std::string err;
  for (const char* f : {"0", "1", "3"}) {
    EXPECT_EQ(Parse({std::string("--framework=") + f}, &o, &err),
              ParseStatus::kError);
    EXPECT_NE(err.find("is a framework of CANN's atc that the emulator does "
                       "not emulate"),
              std::string::npos)
        << f << ": " << err;
  }
  for (const char* f : {"2", "4", "6", "05", ""}) {
    EXPECT_EQ(Parse({std::string("--framework=") + f}, &o, &err),
              ParseStatus::kError);
    EXPECT_NE(err.find("--framework is required. The value must be"),
              std::string::npos)
        << f << ": " << err;
  }
}

TEST(AtcOptions, IntegerValuesAreCheckedAsCannReadsThem) {
  // CANN's atc checks its numeric options' values as it reads each option
  // (cmd_flag_info.cc kStrValueRange): a value outside the range, numeric or
  // not, is refused with E10006 (the 0/1 options it names), E10007
  // (--framework) or E10001 (the others, listing the range sorted as text).
  const char* const e10006 = " is invalid. The value must be either 1 or 0.";
  const char* const e10001 =
      " is invalid. Reason: The value is not within the range of values. "
      "The valid range is ";
  const struct {
    const char* option;
    const char* tail;
  } options[] = {
      {"external_weight", e10006},    {"disable_reuse_memory", e10006},
      {"status_check", e10006},       {"deterministic", e10006},
      {"display_model_info", e10006}, {"atomic_clean_policy", e10006},
      {"sparsity", e10006},  // not emulated, but its value is read first
      {"dump_mode", e10006},          {"mode", e10001},
      {"virtual_type", e10001},       {"deterministic_level", e10001},
      {"op_debug_level", e10001},     {"jit_compile", e10001},
  };
  for (const auto& option : options) {
    for (const char* value : {"abc", "", "9", "-1", "1.0", "01", "+1", " 1",
                              "0x1", "99999999999999999999", "1e3"}) {
      AtcOptions o;
      std::string err;
      const std::string given = std::string("--") + option.option + "=" + value;
      EXPECT_EQ(Parse({given}, &o, &err), ParseStatus::kError) << given;
      const std::string expected = std::string("Value ") + value +
                                   " for parameter --" + option.option +
                                   option.tail;
      EXPECT_EQ(err.compare(0, expected.size(), expected), 0)
          << given << ": " << err;
    }
  }
  AtcOptions o;
  std::string err;
  ASSERT_EQ(Parse({"--op_debug_level=x"}, &o, &err), ParseStatus::kError);
  EXPECT_EQ(err,
            "Value x for parameter --op_debug_level is invalid. Reason: The "
            "value is not within the range of values. The valid range is [0] "
            "[1] [2] [3] [4] .");
  for (const char* value : {"abc", "-5", "5.0", "05", ""}) {
    ASSERT_EQ(Parse({std::string("--framework=") + value}, &o, &err),
              ParseStatus::kError);
    EXPECT_EQ(err,
              "--framework is required. The value must be 0(Caffe) or "
              "1(MindSpore) or 3(TensorFlow) or 5(Onnx). (got --framework=" +
                  std::string(value) + ")");
  }
  // The values in range are taken.
  ASSERT_EQ(Parse({"--disable_reuse_memory=1", "--deterministic_level=3",
                   "--op_debug_level=4", "--jit_compile=2", "--virtual_type=0",
                   "--external_weight=2"},
                  &o, &err),
            ParseStatus::kOk)
      << err;
  EXPECT_EQ(o.external_weight, 2);
  EXPECT_EQ(o.no_effect.size(), 5u);
  // Two 0/1 options CANN checks after reading the command line, with E10006
  // too; "" is CANN's "not given" for them.
  ASSERT_EQ(Parse({"--ac_parallel_enable=2"}, &o, &err), ParseStatus::kError);
  EXPECT_EQ(err,
            "Value 2 for parameter --ac_parallel_enable is invalid. The value "
            "must be either 1 or 0.");
  ASSERT_EQ(Parse({"--tiling_schedule_optimize=on"}, &o, &err),
            ParseStatus::kError);
  EXPECT_NE(err.find("Value on for parameter --tiling_schedule_optimize is "
                     "invalid. The value must be either 1 or 0."),
            std::string::npos)
      << err;
  EXPECT_EQ(Parse({"--ac_parallel_enable="}, &o, &err), ParseStatus::kOk)
      << err;
}

TEST(AtcOptions, ValuesAreCheckedInTheOrderCannReadsThem) {
  AtcOptions o;
  std::string err;
  // The first problem on the command line is the one reported, as CANN's
  // getopt loop checks each value when it reads the option.
  ASSERT_EQ(Parse({"--mode=x", "--wieght=1"}, &o, &err), ParseStatus::kError);
  EXPECT_NE(err.find("Value x for parameter --mode is invalid"),
            std::string::npos)
      << err;
  ASSERT_EQ(Parse({"--wieght=1", "--mode=x"}, &o, &err), ParseStatus::kError);
  EXPECT_NE(err.find("unknown command line flag 'wieght'"), std::string::npos)
      << err;
  ASSERT_EQ(Parse({"--external_weight=x", "stray"}, &o, &err),
            ParseStatus::kError);
  EXPECT_NE(err.find("Value x for parameter --external_weight"),
            std::string::npos)
      << err;
  // --help after a bad value: the value is refused; before it: help.
  EXPECT_EQ(ParseAtcOptions({"--mode=x", "--help"}, &o, &err),
            ParseStatus::kError);
  EXPECT_EQ(ParseAtcOptions({"--help", "--mode=x"}, &o, &err),
            ParseStatus::kHelp);
  // Checks CANN makes later (the SoC name, --input_shape) do not stop help.
  EXPECT_EQ(
      ParseAtcOptions({"--soc_version=x", "--input_shape=x:0", "-h"}, &o, &err),
      ParseStatus::kHelp);
}

TEST(AtcOptions, BoolOptionsAsCannReadsThem) {
  AtcOptions o;
  std::string err;
  // --help is a bool: false is taken and ignored, and a short -h cluster
  // stops at the h.
  EXPECT_EQ(Parse({"--help=false"}, &o, &err), ParseStatus::kOk) << err;
  EXPECT_EQ(Parse({"--help=No"}, &o, &err), ParseStatus::kOk) << err;
  EXPECT_EQ(ParseAtcOptions({"--help=YES"}, &o, &err), ParseStatus::kHelp);
  EXPECT_EQ(ParseAtcOptions({"--h=1"}, &o, &err), ParseStatus::kHelp);
  EXPECT_EQ(ParseAtcOptions({"-h=1"}, &o, &err), ParseStatus::kHelp);
  ASSERT_EQ(ParseAtcOptions({"--help=maybe"}, &o, &err), ParseStatus::kError);
  EXPECT_EQ(err,
            "Value maybe for parameter --help is invalid. Reason: The value "
            "type must be [bool].");
  ASSERT_EQ(ParseAtcOptions({"--h=2"}, &o, &err), ParseStatus::kError);
  EXPECT_EQ(err,
            "Value 2 for parameter --help is invalid. Reason: The value type "
            "must be [bool].");
  // CANN's other bool option takes no separate value: the next argument is
  // not its value (here a stray one), and a bad value is E10003.
  ASSERT_EQ(Parse({"--raw_ge_options_ignore_unsupported=perhaps"}, &o, &err),
            ParseStatus::kError);
  EXPECT_EQ(err,
            "Value perhaps for parameter --raw_ge_options_ignore_unsupported "
            "is invalid. Reason: The value type must be [bool].");
  ASSERT_EQ(Parse({"--raw_ge_options_ignore_unsupported", "true"}, &o, &err),
            ParseStatus::kError);
  EXPECT_NE(err.find("Non-option parameter: true"), std::string::npos) << err;
  ASSERT_EQ(Parse({"--raw_ge_options_ignore_unsupported"}, &o, &err),
            ParseStatus::kError);
  EXPECT_NE(err.find("--raw_ge_options_ignore_unsupported is an option of "
                     "CANN's atc that the emulator does not emulate"),
            std::string::npos)
      << err;
  bool on = false;
  for (const char* t : {"", "1", "t", "TRUE", "y", "Yes"}) {
    EXPECT_TRUE(ParseAtcBool(t, &on) && on) << t;
  }
  for (const char* f : {"0", "F", "false", "n", "NO"}) {
    EXPECT_TRUE(ParseAtcBool(f, &on) && !on) << f;
  }
  for (const char* bad : {"2", "on", "off", " true", "yes!"}) {
    EXPECT_FALSE(ParseAtcBool(bad, &on)) << bad;
  }
}

TEST(AtcOptions, EveryCannOptionIsKnownByName) {
  // Never "unknown" for a real option: each is accepted or refused by name.
  AtcOptions o;
  std::string err;
  for (const char* name :
       {"weight", "input_hint_shape", "cal_conf", "target", "json", "out_nodes",
        "sparsity", "dump_mode", "device_id", "build_config", "quant_dumpable",
        "is_weight_clip", "shape_generalized_build_mode"}) {
    EXPECT_EQ(Parse({std::string("--") + name + "=1"}, &o, &err),
              ParseStatus::kError);
    EXPECT_NE(err.find(std::string("--") + name +
                       " is an option of CANN's atc that the emulator does "
                       "not emulate"),
              std::string::npos)
        << name << ": " << err;
  }
}

TEST(AtcOptions, FuzzDictionaryNamesEveryOption) {
  // fuzz_atc_command_line's dictionary has "--name=" for every option the
  // command line knows, so the fuzzer reaches each one's checks.
  std::ifstream in(ATC_FUZZ_DICT);
  ASSERT_TRUE(in.good()) << ATC_FUZZ_DICT;
  std::set<std::string> entries;
  for (std::string line; std::getline(in, line);) entries.insert(line);
  const AtcFlags flags = CannAtcFlags();
  std::vector<std::string> names = flags.names;
  names.insert(names.end(), flags.bool_names.begin(), flags.bool_names.end());
  EXPECT_EQ(names.size(), 84u);  // CANN's 85 options but --help
  for (const std::string& name : names) {
    EXPECT_EQ(entries.count("\"--" + name + "=\""), 1u) << name;
  }
}

TEST(AtcOptions, RequiredOptions) {
  AtcOptions o;
  std::string err;
  EXPECT_EQ(ParseAtcOptions({}, &o, &err), ParseStatus::kError);
  EXPECT_NE(err.find("--framework is required"), std::string::npos) << err;
  EXPECT_EQ(ParseAtcOptions({"--framework=5", "--model=m.onnx", "--output=o",
                             "--precision_mode=force_fp32"},
                            &o, &err),
            ParseStatus::kError);
  EXPECT_NE(err.find("--soc_version is required"), std::string::npos) << err;
  // No --precision_mode: CANN's default, force_fp16 (precision_mode.h).
  EXPECT_EQ(ParseAtcOptions({"--framework=5", "--model=m.onnx", "--output=o",
                             "--soc_version=Ascend910B1"},
                            &o, &err),
            ParseStatus::kOk)
      << err;
  EXPECT_EQ(atc::EffectivePrecisionMode(o), atc::PrecisionMode::kForceFp16);
  EXPECT_EQ(ParseAtcOptions(
                {"--framework=5", "--model=m.onnx", "--output=o",
                 "--soc_version=Ascend 910", "--precision_mode=force_fp32"},
                &o, &err),
            ParseStatus::kError);
  EXPECT_NE(err.find("--soc_version='Ascend 910' is not a SoC name CANN knows"),
            std::string::npos)
      << err;
  // --mode=3 needs no --output.
  EXPECT_EQ(ParseAtcOptions(
                {"--framework=5", "--model=m.onnx", "--mode=3",
                 "--soc_version=Ascend910B1", "--precision_mode=force_fp32"},
                &o, &err),
            ParseStatus::kOk)
      << err;
}

TEST(AtcOptions, SocVersionsAreCannsList) {
  // hicann/runtime platform_config: 73 names, not all "Ascend...".
  EXPECT_EQ(SocVersions().size(), 73u);
  AtcOptions o;
  std::string err;
  for (const char* soc : {"Ascend910_9391", "Ascend910B4-1", "Ascend950PR_9579",
                          "Ascend350_354f", "Kirin9030", "KirinX90",
                          "Ascend031", "Ascend950DT_95A2", "Ascend310P7"}) {
    EXPECT_EQ(Parse({std::string("--soc_version=") + soc}, &o, &err),
              ParseStatus::kOk)
        << soc << ": " << err;
    EXPECT_EQ(o.soc_version, soc);
  }
  for (const SocVersion& soc : SocVersions()) {
    EXPECT_EQ(Parse({std::string("--soc_version=") + soc.name}, &o, &err),
              ParseStatus::kOk)
        << soc.name << ": " << err;
  }
  EXPECT_EQ(SocFamily("Ascend310P3"), "Ascend310P");
  EXPECT_EQ(SocFamily("Ascend910_9391"), "Ascend910_93");
  EXPECT_EQ(SocFamily("Ascend910B9"), "");
}

TEST(AtcOptions, UnknownSocVersionIsRefusedWithTheNearest) {
  AtcOptions o;
  std::string err;
  ASSERT_EQ(Parse({"--soc_version=Ascend910B9"}, &o, &err),
            ParseStatus::kError);
  EXPECT_NE(err.find("--soc_version='Ascend910B9' is not a SoC name CANN "
                     "knows (its platform_config lists 73"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("did you mean Ascend910B, Ascend910B1, Ascend910B2?"),
            std::string::npos)
      << err;
  ASSERT_EQ(Parse({"--soc_version=Kirin9000"}, &o, &err), ParseStatus::kError);
  EXPECT_NE(err.find("did you mean Kirin9030"), std::string::npos) << err;
  // Far from every name: no suggestion.
  ASSERT_EQ(Parse({"--soc_version=x"}, &o, &err), ParseStatus::kError);
  EXPECT_EQ(err.find("did you mean"), std::string::npos) << err;
  EXPECT_EQ(NearestSocVersions("Ascend310P2").front(), "Ascend310P1");
  EXPECT_TRUE(NearestSocVersions(std::string(1000, 'A')).empty());
}

}  // namespace
}  // namespace atc
}  // namespace ascend_emu
