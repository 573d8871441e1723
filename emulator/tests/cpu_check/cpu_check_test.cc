// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The emulator's load-time CPU check (emulator/cpu_check): feature detection
// against the compiler's own CPU probe, the x86-64 levels, the cap, and the
// message. That libascendcl.so and atc end with it on a smaller CPU is
// shown by the ctest entries beside this file (the cap standing in for one).
#include "cpu_check.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace ascend_emu {
namespace cpu {
namespace {

TEST(CpuCheck, MissingNamesEachAbsentFeatureInTableOrder) {
  EXPECT_EQ(Missing(Bit(kFmaIndex) | Bit(kAvx2Index), Bit(kAvxIndex)),
            "AVX2, FMA");
  EXPECT_EQ(Missing(Bit(kAvx2Index), Bit(kAvx2Index) | Bit(kAvxIndex)), "");
  EXPECT_EQ(Missing(0, 0), "");
}

TEST(CpuCheck, LevelsNestAndNameTheirFeatures) {
  FeatureSet v1 = 1, v2 = 0, v3 = 0, v4 = 0;
  ASSERT_TRUE(LevelFeatures("x86-64", &v1));
  ASSERT_TRUE(LevelFeatures("x86-64-v2", &v2));
  ASSERT_TRUE(LevelFeatures("x86-64-v3", &v3));
  ASSERT_TRUE(LevelFeatures("x86-64-v4", &v4));
  EXPECT_EQ(v1, 0u);
  EXPECT_EQ(Missing(v3, v2), "AVX, AVX2, FMA, F16C, BMI1, BMI2, LZCNT, MOVBE");
  EXPECT_EQ(Missing(v4, v3), "AVX512F, AVX512DQ, AVX512CD, AVX512BW, AVX512VL");
  EXPECT_EQ(Missing(v2, v1), "SSE3, SSSE3, SSE4.1, SSE4.2, POPCNT");
  FeatureSet untouched = 7;
  EXPECT_FALSE(LevelFeatures("haswell", &untouched));
  EXPECT_EQ(untouched, 7u);
}

#if defined(__x86_64__)
// The compiler's runtime probe (libgcc / compiler-rt) as the oracle.
TEST(CpuCheck, DetectAgreesWithTheCompilersProbe) {
  __builtin_cpu_init();
  const FeatureSet got = Detect();
  EXPECT_EQ((got & Bit(kSse42Index)) != 0,
            __builtin_cpu_supports("sse4.2") != 0);
  EXPECT_EQ((got & Bit(kPopcntIndex)) != 0,
            __builtin_cpu_supports("popcnt") != 0);
  EXPECT_EQ((got & Bit(kAvxIndex)) != 0, __builtin_cpu_supports("avx") != 0);
  EXPECT_EQ((got & Bit(kAvx2Index)) != 0, __builtin_cpu_supports("avx2") != 0);
  EXPECT_EQ((got & Bit(kFmaIndex)) != 0, __builtin_cpu_supports("fma") != 0);
  EXPECT_EQ((got & Bit(kBmi2Index)) != 0, __builtin_cpu_supports("bmi2") != 0);
  EXPECT_EQ((got & Bit(kAvx512fIndex)) != 0,
            __builtin_cpu_supports("avx512f") != 0);
  EXPECT_EQ((got & Bit(kAvx512bwIndex)) != 0,
            __builtin_cpu_supports("avx512bw") != 0);
}
#endif

TEST(CpuCheck, ThisMachineRunsWhatThisBuildUses) {
  // Else this very binary would have ended at load.
  EXPECT_EQ(Missing(kBuiltFor, Detect()), "") << "built for " << kBuiltForArch;
}

TEST(CpuCheck, TheCapTakesAwayWhatALevelLacks) {
  ASSERT_EQ(setenv("EXECUTORCH_ASCEND_EMU_MAX_CPU_ISA", "x86-64-v2", 1), 0);
  const FeatureSet capped = DetectCapped();
  FeatureSet v2 = 0;
  ASSERT_TRUE(LevelFeatures("x86-64-v2", &v2));
  EXPECT_EQ(capped & ~v2, 0u);
  EXPECT_EQ(capped, Detect() & v2);
  // A name that is no level caps nothing.
  ASSERT_EQ(setenv("EXECUTORCH_ASCEND_EMU_MAX_CPU_ISA", "avx2", 1), 0);
  EXPECT_EQ(DetectCapped(), Detect());
  unsetenv("EXECUTORCH_ASCEND_EMU_MAX_CPU_ISA");
  EXPECT_EQ(DetectCapped(), Detect());
}

TEST(CpuCheck, MessageSaysWhatIsMissingAndHowToBuildForThisCpu) {
  FeatureSet v2 = 0, v3 = 0;
  ASSERT_TRUE(LevelFeatures("x86-64-v2", &v2));
  ASSERT_TRUE(LevelFeatures("x86-64-v3", &v3));
  EXPECT_EQ(CheckMessage("atc", v3, "x86-64-v3", v3), "");
  const std::string m = CheckMessage("libascendcl.so", v3, "x86-64-v3", v2);
  EXPECT_NE(m.find("libascendcl.so"), std::string::npos) << m;
  EXPECT_NE(m.find("EXECUTORCH_ASCEND_EMULATOR_ARCH=x86-64-v3"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("uses AVX, AVX2, FMA"), std::string::npos) << m;
  EXPECT_NE(m.find("EXECUTORCH_ASCEND_EMULATOR_ARCH=native"), std::string::npos)
      << m;
  EXPECT_NE(m.find("docs/installing.md"), std::string::npos) << m;
}

}  // namespace
}  // namespace cpu
}  // namespace ascend_emu
