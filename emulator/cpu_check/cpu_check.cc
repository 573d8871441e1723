// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The emulator's CPU check (cpu_check.h). This file is compiled for the
// x86-64 baseline (armv8-a on aarch64) whatever EXECUTORCH_ASCEND_EMULATOR_ARCH
// says (cpu_check/CMakeLists.txt), so the check itself runs on any CPU of
// its architecture.
#include "cpu_check.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define ASCEND_EMU_X86 1
#elif defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#define ASCEND_EMU_AARCH64 1
#endif

namespace ascend_emu {
namespace cpu {
namespace {

#if defined(__aarch64__)
// Where Linux reports a feature: bit `bit` of AT_HWCAP (hwcap 1) or
// AT_HWCAP2 (hwcap 2).
struct FeatureRow {
  const char* name;
  unsigned hwcap;
  unsigned bit;
};

constexpr FeatureRow kFeatures[] = {
#define CPU_FEATURE(id, name, hwcap, bit) {name, hwcap, bit},
#include "cpu_features_aarch64.def"
#undef CPU_FEATURE
};
static_assert(sizeof(kFeatures) / sizeof(kFeatures[0]) == kFeatureCount);
#else
enum Register { kEax, kEbx, kEcx, kEdx };
// The register state a feature's instructions need the OS to save (XCR0).
enum State { kStateSse, kStateAvx, kStateAvx512 };

struct FeatureRow {
  const char* name;
  unsigned leaf, subleaf;
  Register reg;
  unsigned bit;
  State state;
};

constexpr FeatureRow kFeatures[] = {
#define CPU_FEATURE(id, name, leaf, subleaf, reg, bit, state) \
  {name, leaf, subleaf, reg, bit, state},
#include "cpu_features.def"
#undef CPU_FEATURE
};
static_assert(sizeof(kFeatures) / sizeof(kFeatures[0]) == kFeatureCount);

constexpr FeatureSet kV2 = Bit(kSse3Index) | Bit(kSsse3Index) |
                           Bit(kSse41Index) | Bit(kSse42Index) |
                           Bit(kPopcntIndex);
constexpr FeatureSet kV3 =
    kV2 | Bit(kAvxIndex) | Bit(kAvx2Index) | Bit(kFmaIndex) | Bit(kF16cIndex) |
    Bit(kBmi1Index) | Bit(kBmi2Index) | Bit(kLzcntIndex) | Bit(kMovbeIndex);
constexpr FeatureSet kV4 = kV3 | Bit(kAvx512fIndex) | Bit(kAvx512dqIndex) |
                           Bit(kAvx512cdIndex) | Bit(kAvx512bwIndex) |
                           Bit(kAvx512vlIndex);
#endif

#ifdef ASCEND_EMU_X86
// The registers' values for (leaf, subleaf); zeros past the highest leaf.
bool Cpuid(unsigned leaf, unsigned subleaf, unsigned out[4]) {
  const unsigned max = __get_cpuid_max(leaf & 0x80000000u, nullptr);
  if (max < leaf) return false;
  __cpuid_count(leaf, subleaf, out[kEax], out[kEbx], out[kEcx], out[kEdx]);
  return true;
}

// Which register states the OS saves on a context switch (XGETBV, XCR0): a
// CPU with AVX-512 under an OS that does not save ZMM cannot use it.
bool StateEnabled(State state) {
  if (state == kStateSse) return true;
  unsigned regs[4] = {};
  if (!Cpuid(1, 0, regs) || (regs[kEcx] & (1u << 27)) == 0) return false;
  unsigned lo = 0, hi = 0;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  const unsigned need = state == kStateAvx ? 0x6u : 0xE6u;  // YMM; +k, ZMM
  return (lo & need) == need;
}
#endif

}  // namespace

FeatureSet Detect() {
  FeatureSet present = 0;
#ifdef ASCEND_EMU_X86
  for (size_t i = 0; i < kFeatureCount; ++i) {
    const FeatureRow& f = kFeatures[i];
    unsigned regs[4] = {};
    if (Cpuid(f.leaf, f.subleaf, regs) && (regs[f.reg] >> f.bit & 1u) != 0 &&
        StateEnabled(f.state)) {
      present |= Bit(static_cast<CpuFeature>(i));
    }
  }
#elif defined(ASCEND_EMU_AARCH64)
  const unsigned long words[2] = {getauxval(AT_HWCAP), getauxval(AT_HWCAP2)};
  for (size_t i = 0; i < kFeatureCount; ++i) {
    const FeatureRow& f = kFeatures[i];
    if ((words[f.hwcap - 1] >> f.bit & 1u) != 0) {
      present |= Bit(static_cast<CpuFeature>(i));
    }
  }
#endif
  return present;
}

bool LevelFeatures(const std::string& level, FeatureSet* features) {
#if defined(__aarch64__)
  if (level != "armv8-a") return false;
  *features = 0;
  return true;
#else
  if (level == "x86-64") {
    *features = 0;
  } else if (level == "x86-64-v2") {
    *features = kV2;
  } else if (level == "x86-64-v3") {
    *features = kV3;
  } else if (level == "x86-64-v4") {
    *features = kV4;
  } else {
    return false;
  }
  return true;
#endif
}

std::string Missing(FeatureSet required, FeatureSet present) {
  std::string out;
  for (size_t i = 0; i < kFeatureCount; ++i) {
    const FeatureSet bit = Bit(static_cast<CpuFeature>(i));
    if ((required & bit) != 0 && (present & bit) == 0) {
      if (!out.empty()) out += ", ";
      out += kFeatures[i].name;
    }
  }
  return out;
}

std::string CheckMessage(const std::string& component, FeatureSet required,
                         const char* arch, FeatureSet present) {
  const std::string missing = Missing(required, present);
  if (missing.empty()) return "";
  return component +
         " (executorch-ascend's CANN emulator) cannot run on this CPU: it was "
         "built with EXECUTORCH_ASCEND_EMULATOR_ARCH=" +
         arch + " and uses " + missing +
         ", which this CPU (or its OS) does not offer. Build the emulator for "
         "this CPU: pip install ./emulator --config-settings="
         "cmake.define.EXECUTORCH_ASCEND_EMULATOR_ARCH=native (or =portable "
#if defined(__aarch64__)
         "for any aarch64 CPU); docs/installing.md, \"aarch64\".";
#else
         "for any x86-64); docs/installing.md, \"Which CPUs\".";
#endif
}

FeatureSet DetectCapped() {
  FeatureSet present = Detect();
  const char* cap = std::getenv("EXECUTORCH_ASCEND_EMU_MAX_CPU_ISA");
  if (cap == nullptr || cap[0] == '\0') return present;
  FeatureSet level = 0;
  if (!LevelFeatures(cap, &level)) {
    std::fprintf(stderr,
                 "warning: EXECUTORCH_ASCEND_EMU_MAX_CPU_ISA='%s' ignored: "
#if defined(__aarch64__)
                 "not armv8-a\n",
#else
                 "not x86-64, x86-64-v2, x86-64-v3 or x86-64-v4\n",
#endif
                 cap);
    return present;
  }
  return present & level;
}

namespace {

// The file this code was loaded from (libascendcl.so, atc), by its base
// name, for the message.
std::string ThisObject() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&ThisObject), &info) == 0 ||
      info.dli_fname == nullptr || info.dli_fname[0] == '\0') {
    return "the emulator";
  }
  const char* slash = std::strrchr(info.dli_fname, '/');
  return slash != nullptr ? slash + 1 : info.dli_fname;
}

// Priority 101, the first a program may use: within this object it runs
// before every other initialiser, all of which are compiled for the build's
// -march.
__attribute__((constructor(101))) void CheckCpuAtLoad() {
  const std::string message =
      CheckMessage(ThisObject(), kBuiltFor, kBuiltForArch, DetectCapped());
  if (message.empty()) return;
  std::fprintf(stderr, "error: %s\n", message.c_str());
  // Not exit(): the process's atexit handlers and destructors may run code
  // compiled for the features it lacks.
  _exit(EXIT_FAILURE);
}

}  // namespace

}  // namespace cpu
}  // namespace ascend_emu
