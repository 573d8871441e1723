// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The fixture of atc's fusion tests (atc_fuse_*_test.cc): a program compiled
// with every fusion and with none (--fusion_switch_file), compared.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "atc_test_util.h"

namespace ascend_emu {
namespace testing {

class AtcConvFusionTest : public AtcTest {
 protected:
  // Writes the switch file that turns every fusion off.
  std::string FusionOff() {
    WriteFile("fusion_off.cfg", R"({"Switch": {"GraphFusion": {"ALL": "off"}, )"
                                R"("UBFusion": {"ALL": "off"}}})");
    return "--fusion_switch_file=" + Path("fusion_off.cfg");
  }

  // Compiles `b` fused and unfused, runs both on `inputs`, expects the same
  // outputs (to float rounding: folded weights round differently).
  void ExpectSameAsUnfused(const OnnxBuilder& b, const std::string& name,
                           const std::vector<std::vector<float>>& inputs) {
    auto fused = CompileAndLoad(b, name);
    auto plain = CompileAndLoad(b, name + "_plain", {FusionOff()});
    ASSERT_NE(fused, nullptr);
    ASSERT_NE(plain, nullptr);
    const auto want = RunFloat(*plain, inputs);
    const auto got = RunFloat(*fused, inputs);
    ASSERT_EQ(got.size(), want.size());
    for (size_t o = 0; o < got.size(); ++o) {
      ASSERT_EQ(got[o].size(), want[o].size());
      for (size_t i = 0; i < got[o].size(); ++i) {
        EXPECT_NEAR(got[o][i], want[o][i], 1e-4f * (1 + std::abs(want[o][i])))
            << name << " output " << o << " at " << i;
      }
    }
  }
};

// Two ResNet blocks as the lowering emits them: BN as Mul/Add by [C,1,1]

}  // namespace testing
}  // namespace ascend_emu
