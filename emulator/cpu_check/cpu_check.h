// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The emulator's CPU check: libascendcl.so and atc are compiled for
// EXECUTORCH_ASCEND_EMULATOR_ARCH (x86-64-v3 for a wheel: AVX2, FMA, F16C,
// ...), so on a CPU without those a kernel would stop on an illegal
// instruction somewhere mid-run. Instead, a constructor of each (cpu_check.cc,
// compiled for the x86-64 baseline, run before any other of the object's
// initialisers) compares the features the build was compiled to use with
// what CPUID and the OS report, and on a shortfall prints which are missing
// and how to build for this CPU, then ends the process. docs/installing.md,
// "Which CPUs".
#pragma once

#include <cstdint>
#include <string>

namespace ascend_emu {
namespace cpu {

// x86-64: CPUID's features (cpu_features.def); aarch64: the auxiliary
// vector's (cpu_features_aarch64.def).
enum CpuFeature : uint64_t {
#if defined(__aarch64__)
#define CPU_FEATURE(id, name, hwcap, bit) id##Index,
#include "cpu_features_aarch64.def"
#else
#define CPU_FEATURE(id, name, leaf, subleaf, reg, bit, state) id##Index,
#include "cpu_features.def"
#endif
#undef CPU_FEATURE
  kFeatureCount
};
static_assert(kFeatureCount <= 64, "one bit per feature");

using FeatureSet = uint64_t;

constexpr FeatureSet Bit(CpuFeature index) { return FeatureSet{1} << index; }

// What the build was compiled to use (built_for.cc, compiled with the
// kernels' -march flags), and the EXECUTORCH_ASCEND_EMULATOR_ARCH it came
// from ("x86-64-v3", "native", "portable", ...). Data, not functions: no
// code compiled with those flags runs before the check.
extern const FeatureSet kBuiltFor;
extern const char kBuiltForArch[];

// What this CPU and its OS support (CPUID, and XGETBV for the register
// state the OS saves; on aarch64 the kernel's AT_HWCAP/AT_HWCAP2); 0
// elsewhere.
FeatureSet Detect();

// The features of an x86-64 micro-architecture level ("x86-64",
// "x86-64-v2", "x86-64-v3", "x86-64-v4"; on aarch64 only "armv8-a", the
// baseline: none); false for another name.
bool LevelFeatures(const std::string& level, FeatureSet* features);

// "AVX2, FMA" for the features of `required` not in `present`; "" if none.
std::string Missing(FeatureSet required, FeatureSet present);

// The whole message for `component` ("libascendcl.so", "atc"); "" when
// `present` covers `required`.
std::string CheckMessage(const std::string& component, FeatureSet required,
                         const char* arch, FeatureSet present);

// Detect(), capped by EXECUTORCH_ASCEND_EMU_MAX_CPU_ISA when that names
// a level (so a test, or a user, can see what a smaller CPU would get, as
// oneDNN's ONEDNN_MAX_CPU_ISA does for its kernels); another value is
// ignored with a warning on stderr (read at load, where nothing can fail).
FeatureSet DetectCapped();

}  // namespace cpu
}  // namespace ascend_emu
