// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "config.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <limits>

#include "ascend_emu/kernel.h"
#include "ascend_emu/soc_versions.h"
#include "fault.h"

namespace ascend_emu::acl {
namespace {

constexpr int32_t kMaxDeviceCount = 64;
constexpr size_t kMaxSocNameLength = 63;

// Whole-string decimal parse of a non-negative integer; no sign, no spaces.
bool ParseUnsigned(const std::string& text, uint64_t* value) {
  if (text.empty() || text.size() > 20) return false;
  uint64_t result = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    uint64_t digit = static_cast<uint64_t>(c - '0');
    if (result > (std::numeric_limits<uint64_t>::max() - digit) / 10) {
      return false;
    }
    result = result * 10 + digit;
  }
  *value = result;
  return true;
}

// Boolean switches accept only 0/1 (or unset/empty = 0), so a typo such as
// "yes" is reported instead of silently meaning "off".
bool ParseSwitch(const char* name, bool* value, std::string* error) {
  const char* raw = std::getenv(name);
  if (raw == nullptr || raw[0] == '\0') {
    *value = false;
    return true;
  }
  std::string text(raw);
  if (text == "0" || text == "1") {
    *value = text == "1";
    return true;
  }
  *error = std::string(name) + "='" + text + "' is not 0 or 1";
  return false;
}

}  // namespace

bool ParseByteSize(const std::string& text, size_t* bytes) {
  size_t digits = 0;
  while (digits < text.size() &&
         std::isdigit(static_cast<unsigned char>(text[digits]))) {
    ++digits;
  }
  uint64_t number = 0;
  if (!ParseUnsigned(text.substr(0, digits), &number)) return false;
  std::string suffix = text.substr(digits);
  for (char& c : suffix) c = static_cast<char>(std::toupper(c));
  // Binary multiples with an optional "B"/"iB" unit: 512M, 512MB, 512MiB.
  int shift = 0;
  if (!suffix.empty() && suffix != "B") {
    switch (suffix[0]) {
      case 'K':
        shift = 10;
        break;
      case 'M':
        shift = 20;
        break;
      case 'G':
        shift = 30;
        break;
      case 'T':
        shift = 40;
        break;
      default:
        return false;
    }
    std::string unit = suffix.substr(1);
    if (!(unit.empty() || unit == "B" || unit == "IB")) return false;
  }
  if (number == 0) return false;
  if (number > (std::numeric_limits<size_t>::max() >> shift)) return false;
  *bytes = static_cast<size_t>(number) << shift;
  return true;
}

bool ParseFaultSpecs(const std::string& text, std::vector<FaultSpec>* faults,
                     std::string* error) {
  faults->clear();
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    std::string item = text.substr(start, end - start);
    size_t colon1 = item.find(':');
    size_t colon2 =
        colon1 == std::string::npos ? colon1 : item.find(':', colon1 + 1);
    if (colon2 == std::string::npos) {
      *error = "fault '" + item + "' is not function:after:error";
      return false;
    }
    FaultSpec spec;
    spec.function = item.substr(0, colon1);
    std::string after = item.substr(colon1 + 1, colon2 - colon1 - 1);
    std::string code = item.substr(colon2 + 1);
    uint64_t after_value = 0;
    if (!ParseUnsigned(after, &after_value) ||
        after_value > static_cast<uint64_t>(std::numeric_limits<int>::max())) {
      *error = "fault '" + item + "': after '" + after +
               "' is not a non-negative integer";
      return false;
    }
    char* code_end = nullptr;
    errno = 0;
    long code_value = std::strtol(code.c_str(), &code_end, 10);
    if (code.empty() || *code_end != '\0' || errno != 0 || code_value == 0 ||
        code_value < std::numeric_limits<int>::min() ||
        code_value > std::numeric_limits<int>::max()) {
      *error = "fault '" + item + "': error '" + code +
               "' is not a non-zero integer error code";
      return false;
    }
    if (!IsFaultInjectable(spec.function.c_str())) {
      *error = "fault '" + item + "': '" + spec.function +
               "' is not a fault-injectable ACL function";
      return false;
    }
    spec.after = static_cast<int>(after_value);
    spec.error = static_cast<int>(code_value);
    faults->push_back(spec);
    start = end + 1;
  }
  return true;
}

bool LoadConfigFromEnv(Config* config, std::string* error) {
  Config result;
  if (const char* raw = std::getenv("EXECUTORCH_ASCEND_EMU_DEVICE_COUNT");
      raw != nullptr && raw[0] != '\0') {
    uint64_t count = 0;
    if (!ParseUnsigned(raw, &count) ||
        count > static_cast<uint64_t>(kMaxDeviceCount)) {
      *error = std::string("EXECUTORCH_ASCEND_EMU_DEVICE_COUNT='") + raw +
               "' is not an integer in [0, " + std::to_string(kMaxDeviceCount) +
               "]";
      return false;
    }
    result.device_count = static_cast<int32_t>(count);
  }
  if (const char* raw = std::getenv("EXECUTORCH_ASCEND_EMU_NUM_THREADS");
      raw != nullptr && raw[0] != '\0') {
    uint64_t threads = 0;
    if (!ParseUnsigned(raw, &threads) || threads < 1 ||
        threads > static_cast<uint64_t>(kMaxKernelThreads)) {
      *error = std::string("EXECUTORCH_ASCEND_EMU_NUM_THREADS='") + raw +
               "' is not an integer in [1, " +
               std::to_string(kMaxKernelThreads) + "]";
      return false;
    }
    result.num_threads = static_cast<int32_t>(threads);
  }
  if (const char* raw = std::getenv("EXECUTORCH_ASCEND_EMU_DEVICE_MEMORY");
      raw != nullptr && raw[0] != '\0') {
    if (!ParseByteSize(raw, &result.device_memory)) {
      *error = std::string("EXECUTORCH_ASCEND_EMU_DEVICE_MEMORY='") + raw +
               "' is not a positive byte count (e.g. 8589934592, 512M, 8G)";
      return false;
    }
  }
  if (const char* raw = std::getenv("EXECUTORCH_ASCEND_EMU_SOC_NAME");
      raw != nullptr && raw[0] != '\0') {
    std::string name(raw);
    bool printable = name.size() <= kMaxSocNameLength;
    for (char c : name) {
      printable = printable && (std::isalnum(static_cast<unsigned char>(c)) ||
                                c == '_' || c == '-');
    }
    if (!printable) {
      *error = "EXECUTORCH_ASCEND_EMU_SOC_NAME='" + name +
               "' is not a SoC name (letters, digits, '_' and '-', at most " +
               std::to_string(kMaxSocNameLength) + ")";
      return false;
    }
    // aclrtGetSocName returns one of CANN's names (soc_versions.h); a typo
    // is refused with the nearest ones rather than emulating a chip that
    // does not exist.
    std::string unknown =
        ascend_emu::SocVersionError("EXECUTORCH_ASCEND_EMU_SOC_NAME", name);
    if (!unknown.empty()) {
      *error = unknown;
      return false;
    }
    result.soc_name = name;
  }
  if (const char* raw = std::getenv("EXECUTORCH_ASCEND_EMU_RUN_MODE");
      raw != nullptr && raw[0] != '\0') {
    const std::string mode(raw);
    if (mode != "host" && mode != "device") {
      *error = "EXECUTORCH_ASCEND_EMU_RUN_MODE='" + mode +
               "' is not a run mode (host or device)";
      return false;
    }
    result.device_run_mode = mode == "device";
  }
  if (!ParseSwitch("EXECUTORCH_ASCEND_EMU_STRICT", &result.strict, error) ||
      !ParseSwitch("EXECUTORCH_ASCEND_EMU_VERBOSE", &result.verbose, error)) {
    return false;
  }
  if (const char* raw = std::getenv("EXECUTORCH_ASCEND_EMU_FAULT");
      raw != nullptr && raw[0] != '\0') {
    std::string fault_error;
    if (!ParseFaultSpecs(raw, &result.faults, &fault_error)) {
      *error = std::string("EXECUTORCH_ASCEND_EMU_FAULT='") + raw +
               "': " + fault_error;
      return false;
    }
  }
  *config = std::move(result);
  return true;
}

}  // namespace ascend_emu::acl
