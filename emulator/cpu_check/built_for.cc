// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// What this build of the emulator was compiled to use: this file alone of
// cpu_check's is compiled with the kernels' -march flags
// (EXECUTORCH_ASCEND_EMULATOR_ARCH_FLAGS), so the compiler's own macros say
// which extensions the rest of the build may contain. Constants only: nothing
// here runs an instruction the baseline lacks.
#include "cpu_check.h"

#ifndef ASCEND_EMU_ARCH
#define ASCEND_EMU_ARCH "unknown"
#endif

namespace ascend_emu {
namespace cpu {

// One row per feature of cpu_features.def that the compiler defines a macro
// for; the macro is set when -march includes the feature.
extern const FeatureSet kBuiltFor = 0
#ifdef __SSE3__
                                    | Bit(kSse3Index)
#endif
#ifdef __SSSE3__
                                    | Bit(kSsse3Index)
#endif
#ifdef __SSE4_1__
                                    | Bit(kSse41Index)
#endif
#ifdef __SSE4_2__
                                    | Bit(kSse42Index)
#endif
#ifdef __POPCNT__
                                    | Bit(kPopcntIndex)
#endif
#ifdef __AVX__
                                    | Bit(kAvxIndex)
#endif
#ifdef __AVX2__
                                    | Bit(kAvx2Index)
#endif
#ifdef __FMA__
                                    | Bit(kFmaIndex)
#endif
#ifdef __F16C__
                                    | Bit(kF16cIndex)
#endif
#ifdef __BMI__
                                    | Bit(kBmi1Index)
#endif
#ifdef __BMI2__
                                    | Bit(kBmi2Index)
#endif
#ifdef __LZCNT__
                                    | Bit(kLzcntIndex)
#endif
#ifdef __MOVBE__
                                    | Bit(kMovbeIndex)
#endif
#ifdef __AVX512F__
                                    | Bit(kAvx512fIndex)
#endif
#ifdef __AVX512DQ__
                                    | Bit(kAvx512dqIndex)
#endif
#ifdef __AVX512CD__
                                    | Bit(kAvx512cdIndex)
#endif
#ifdef __AVX512BW__
                                    | Bit(kAvx512bwIndex)
#endif
#ifdef __AVX512VL__
                                    | Bit(kAvx512vlIndex)
#endif
#ifdef __AVX512IFMA__
                                    | Bit(kAvx512ifmaIndex)
#endif
#ifdef __AVX512VBMI__
                                    | Bit(kAvx512vbmiIndex)
#endif
#ifdef __AVX512VBMI2__
                                    | Bit(kAvx512vbmi2Index)
#endif
#ifdef __AVX512VNNI__
                                    | Bit(kAvx512vnniIndex)
#endif
#ifdef __AVX512BITALG__
                                    | Bit(kAvx512bitalgIndex)
#endif
#ifdef __AVX512VPOPCNTDQ__
                                    | Bit(kAvx512vpopcntdqIndex)
#endif
#ifdef __AVX512BF16__
                                    | Bit(kAvx512bf16Index)
#endif
#ifdef __AVX512FP16__
                                    | Bit(kAvx512fp16Index)
#endif
#ifdef __AVXVNNI__
                                    | Bit(kAvxvnniIndex)
#endif
#ifdef __GFNI__
                                    | Bit(kGfniIndex)
#endif
#ifdef __VAES__
                                    | Bit(kVaesIndex)
#endif
#ifdef __VPCLMULQDQ__
                                    | Bit(kVpclmulqdqIndex)
#endif
// aarch64 (cpu_features_aarch64.def).
#ifdef __ARM_FEATURE_CRC32
                                    | Bit(kCrc32Index)
#endif
#ifdef __ARM_FEATURE_ATOMICS
                                    | Bit(kAtomicsIndex)
#endif
#ifdef __ARM_FEATURE_FP16_SCALAR_ARITHMETIC
                                    | Bit(kFphpIndex)
#endif
#ifdef __ARM_FEATURE_FP16_VECTOR_ARITHMETIC
                                    | Bit(kAsimdhpIndex)
#endif
#ifdef __ARM_FEATURE_QRDMX
                                    | Bit(kAsimdrdmIndex)
#endif
#ifdef __ARM_FEATURE_JCVT
                                    | Bit(kJscvtIndex)
#endif
#ifdef __ARM_FEATURE_COMPLEX
                                    | Bit(kFcmaIndex)
#endif
#ifdef __ARM_FEATURE_RCPC
                                    | Bit(kLrcpcIndex)
#endif
#ifdef __ARM_FEATURE_DOTPROD
                                    | Bit(kAsimddpIndex)
#endif
#ifdef __ARM_FEATURE_SVE
                                    | Bit(kSveIndex)
#endif
#ifdef __ARM_FEATURE_FP16_FML
                                    | Bit(kAsimdfhmIndex)
#endif
#ifdef __ARM_FEATURE_SVE2
                                    | Bit(kSve2Index)
#endif
#ifdef __ARM_FEATURE_MATMUL_INT8
                                    | Bit(kI8mmIndex)
#endif
#ifdef __ARM_FEATURE_BF16_VECTOR_ARITHMETIC
                                    | Bit(kBf16Index)
#endif
    ;

extern const char kBuiltForArch[] = ASCEND_EMU_ARCH;

}  // namespace cpu
}  // namespace ascend_emu
