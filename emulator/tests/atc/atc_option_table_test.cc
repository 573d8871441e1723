// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// atc's option table, generated from src/executorch_ascend/atc_options.json:
// the command line takes what the data says CANN's atc takes, option by
// option (tests/python/test_atc_options_data.py checks the Python side).
#include "atc_option_table.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "atc_options.h"
#include "precision_mode.h"

namespace ascend_emu {
namespace atc {
namespace {

const std::vector<std::string> kBase = {"--framework=5", "--model=m.onnx",
                                        "--output=out",
                                        "--soc_version=Ascend910B1"};

std::vector<std::string> Values(const AtcOptionFact& option) {
  std::vector<std::string> values;
  const std::string text = option.values;
  size_t start = 0;
  while (!text.empty()) {
    const size_t end = text.find('|', start);
    values.push_back(text.substr(start, end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return values;
}

ParseStatus ParseWith(const std::string& option, const std::string& value,
                      std::string* err) {
  std::vector<std::string> args;
  for (const std::string& b : kBase) {
    if (b.rfind("--" + option + "=", 0) != 0) args.push_back(b);
  }
  args.push_back("--" + option + "=" + value);
  if (option == "optypelist_for_implmode") {
    args.push_back("--op_select_implmode=high_precision");
  }
  AtcOptions o;
  return ParseAtcOptions(args, &o, err);
}

TEST(AtcOptionTable, NamesEveryOptionOfCannsAtcOnce) {
  // hicann/ge api/atc/atc_flags.cc defines 85 options (help included).
  const std::vector<AtcOptionFact>& facts = AtcOptionFacts();
  EXPECT_EQ(facts.size(), 85u);
  std::vector<std::string> names;
  for (const AtcOptionFact& f : facts) names.emplace_back(f.name);
  std::sort(names.begin(), names.end());
  EXPECT_EQ(std::adjacent_find(names.begin(), names.end()), names.end());
  // The command line reads each one but help (which it handles itself).
  const AtcFlags flags = CannAtcFlags();
  EXPECT_EQ(flags.names.size() + flags.bool_names.size(), 84u);
  for (const AtcOptionFact& f : facts) {
    EXPECT_EQ(FindAtcOption(f.name), &f);
    EXPECT_EQ(f.kind == AtcOptionKind::kChoice, std::string(f.values) != "")
        << f.name;
  }
  EXPECT_EQ(FindAtcOption("no_such_option"), nullptr);
}

TEST(AtcOptionTable, NoEffectOptionsTakeTheValuesInTheData) {
  for (const AtcOptionFact& f : AtcOptionFacts()) {
    if (f.emulator != EmulatorRole::kNoEffect) continue;
    std::string err;
    if (f.kind == AtcOptionKind::kChoice) {
      for (const std::string& v : Values(f)) {
        EXPECT_EQ(ParseWith(f.name, v, &err), ParseStatus::kOk)
            << f.name << "=" << v << ": " << err;
      }
      EXPECT_EQ(ParseWith(f.name, "not_a_value", &err), ParseStatus::kError)
          << f.name;
    } else if (f.kind == AtcOptionKind::kFile) {
      EXPECT_EQ(ParseWith(f.name, "/no/such/file.cfg", &err),
                ParseStatus::kError)
          << f.name;
      EXPECT_NE(err.find("the file is not found"), std::string::npos) << err;
    } else {
      EXPECT_EQ(ParseWith(f.name, "some text", &err), ParseStatus::kOk)
          << f.name << ": " << err;
    }
  }
}

TEST(AtcOptionTable, NotEmulatedOptionsAreRefusedByName) {
  for (const AtcOptionFact& f : AtcOptionFacts()) {
    if (f.emulator != EmulatorRole::kNotEmulated) continue;
    std::string err;
    std::vector<std::string> args = kBase;
    if (f.kind == AtcOptionKind::kBool) {
      args.push_back(std::string("--") + f.name);
    } else {
      const std::vector<std::string> values = Values(f);
      args.push_back(std::string("--") + f.name + "=" +
                     (values.empty() ? "1" : values[0]));
    }
    AtcOptions o;
    EXPECT_EQ(ParseAtcOptions(args, &o, &err), ParseStatus::kError) << f.name;
    EXPECT_NE(err.find("the emulator does not emulate"), std::string::npos)
        << f.name << ": " << err;
  }
}

TEST(AtcOptionTable, ValuesCheckedAsReadGetCannsError) {
  // A value outside a range CANN's atc checks as it reads the option is
  // refused with the error the data names, never as "not emulated".
  for (const AtcOptionFact& f : AtcOptionFacts()) {
    if (f.range_error == AtcValueError::kNone) continue;
    const std::string err = CheckAsRead(f.name, "99");
    const bool numeric = std::string(f.values).find_first_not_of(
                             "0123456789|") == std::string::npos;
    if (f.range_error == AtcValueError::kE10001 && !numeric) {
      EXPECT_EQ(err, "") << f.name;  // a string choice: checked later
      continue;
    }
    EXPECT_NE(err, "") << f.name;
    for (const std::string& v : Values(f)) {
      EXPECT_EQ(CheckAsRead(f.name, v), "") << f.name << "=" << v;
    }
  }
}

TEST(AtcOptionTable, EveryModeInTheDataIsBuiltOrRefusedByName) {
  const AtcOptionFact* mode = FindAtcOption("mode");
  ASSERT_NE(mode, nullptr);
  for (const std::string& v : Values(*mode)) {
    std::string err;
    AtcOptions o;
    // Mode 6 shows the .om --om names and needs nothing else; the others
    // build from --model.
    std::vector<std::string> args = {"--mode=" + v, "--om=m.om"};
    if (v != "6") {
      args = {"--mode=" + v, "--framework=5", "--model=m.onnx", "--output=out",
              "--soc_version=Ascend910B1"};
    }
    const ParseStatus status = ParseAtcOptions(args, &o, &err);
    if (status == ParseStatus::kOk) {
      EXPECT_TRUE(v == "0" || v == "3" || v == "6") << v;
      continue;
    }
    EXPECT_NE(err.find("is a mode of CANN's atc that the emulator does not "
                       "emulate"),
              std::string::npos)
        << v << ": " << err;
  }
}

TEST(AtcOptionTable, PrecisionModesFollowTheData) {
  // PrecisionMode's enumerators are in the data's order.
  const std::vector<std::string>& names = PrecisionModeNameList();
  ASSERT_EQ(names.size(), 9u);
  EXPECT_EQ(names.front(), "force_fp16");
  EXPECT_EQ(names.back(), "allow_fp32_to_bf16");
  const AtcOptionFact* option = FindAtcOption("precision_mode");
  ASSERT_NE(option, nullptr);
  EXPECT_EQ(Values(*option), names);
  for (size_t i = 0; i < names.size(); ++i) {
    PrecisionMode mode;
    ASSERT_TRUE(ParsePrecisionMode(names[i], &mode)) << names[i];
    EXPECT_EQ(static_cast<size_t>(mode), i) << names[i];
  }
  PrecisionMode mode;
  ASSERT_TRUE(ParsePrecisionMode("must_keep_origin_dtype", &mode));
  EXPECT_EQ(mode, PrecisionMode::kMustKeepOriginDtype);
  ASSERT_TRUE(ParsePrecisionMode("allow_fp32_to_fp16", &mode));
  EXPECT_EQ(mode, PrecisionMode::kAllowFp32ToFp16);
  // Each v2 value of the data maps onto its v1 mode, or is not emulated.
  const AtcOptionFact* v2 = FindAtcOption("precision_mode_v2");
  ASSERT_NE(v2, nullptr);
  std::vector<std::string> v2_names;
  for (const PrecisionModeV2Fact& fact : PrecisionModeV2Facts()) {
    v2_names.emplace_back(fact.name);
    PrecisionMode from_v2;
    const std::string err = PrecisionModeFromV2(fact.name, &from_v2);
    if (fact.as_precision_mode == nullptr) {
      EXPECT_NE(err.find("is not emulated"), std::string::npos) << err;
      continue;
    }
    ASSERT_EQ(err, "") << fact.name;
    PrecisionMode v1;
    ASSERT_TRUE(ParsePrecisionMode(fact.as_precision_mode, &v1));
    EXPECT_EQ(from_v2, v1) << fact.name;
  }
  EXPECT_EQ(Values(*v2), v2_names);
  ASSERT_EQ(PrecisionModeFromV2("origin", &mode), "");
  EXPECT_EQ(mode, PrecisionMode::kMustKeepOriginDtype);
}

}  // namespace
}  // namespace atc
}  // namespace ascend_emu
