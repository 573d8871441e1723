// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// atc's command-line parsing (no files involved).
#include "atc_options.h"
#include "precision_mode.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

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
  EXPECT_NE(AtcUsage().find("--precision_mode"), std::string::npos);
}

struct Refusal {
  std::vector<std::string> args;
  const char* expected;
};

TEST(AtcOptions, Refusals) {
  const Refusal cases[] = {
      {{"--unknown=1"}, "unknown option --unknown"},
      {{"--framework=1"}, "--framework=1 (MindSpore) is not supported"},
      {{"--framework=abc"}, "is not a number"},
      {{"--mode=1"}, "--mode=1 is not supported by the emulator"},
      {{"--mode=7"}, "not a valid atc mode"},
      {{"--precision_mode=fast"}, "is not a CANN precision mode"},
      {{"--input_format=NHWC"}, "--input_format=NHWC is not supported"},
      {{"--output_type=FP16"}, "only FP32"},
      {{"--log=loud"}, "--log=loud"},
      {{"--input_shape=x:1,-1"}, "dynamic dim (-1)"},
      {{"--input_shape=x:1,a"}, "is not a dimension"},
      {{"--input_shape=x"}, "is not name:dims"},
      {{"--input_shape=x:1;x:2"}, "twice"},
      // Empty entries used to be dropped silently (issue 11).
      {{"--input_shape=;;;;"}, "has an empty entry (entry 1 of 5)"},
      {{"--input_shape=x:1,3;;y:2"}, "has an empty entry (entry 2 of 3)"},
      {{"--input_shape=x:1,3;"}, "has an empty entry (entry 2 of 2)"},
      {{"stray"}, "unexpected argument 'stray'"},
      {{"--external_weight=3"},
       "--external_weight='3' is invalid: the value must be 0 (weights "
       "inside the .om), 1 (one file per constant in weight/ beside the .om) "
       "or 2 (one combined file there)"},
      {{"--external_weight=-1"}, "--external_weight='-1' is invalid"},
      {{"--external_weight=yes"}, "--external_weight='yes' is invalid"},
      {{"--external_weight="}, "--external_weight='' is invalid"},
      // CANN's atc options the emulator cannot do: refused by name.
      {{"--insert_op_conf=aipp.cfg"},
       "--insert_op_conf is an option of CANN's atc that the emulator does "
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
  for (const Refusal& c : cases) {
    AtcOptions o;
    std::string err;
    EXPECT_EQ(Parse(c.args, &o, &err), ParseStatus::kError) << c.expected;
    EXPECT_NE(err.find(c.expected), std::string::npos)
        << "expected '" << c.expected << "', got '" << err << "'";
  }
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

TEST(AtcOptions, RefusesRepeatedOptions) {
  AtcOptions o;
  std::string err;
  std::vector<std::string> args = kBase;
  args.push_back("--soc_version=Ascend910B1");
  EXPECT_EQ(ParseAtcOptions(args, &o, &err), ParseStatus::kError);
  EXPECT_NE(err.find("--soc_version is given twice"), std::string::npos) << err;
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
  EXPECT_NE(err.find("is not a chip name"), std::string::npos) << err;
  // --mode=3 needs no --output.
  EXPECT_EQ(ParseAtcOptions(
                {"--framework=5", "--model=m.onnx", "--mode=3",
                 "--soc_version=Ascend910B1", "--precision_mode=force_fp32"},
                &o, &err),
            ParseStatus::kOk)
      << err;
}

}  // namespace
}  // namespace atc
}  // namespace ascend_emu
