// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "compile_options.h"

#include <delegate_blob_format.h>

#include <cctype>
#include <cstring>

#include "log.h"

namespace executorch::backends::ascend {

using executorch::runtime::ArrayRef;
using executorch::runtime::CompileSpec;
using executorch::runtime::Error;
using executorch::runtime::Result;

namespace {

std::string value_text(const CompileSpec& spec) {
  return std::string(static_cast<const char*>(spec.value.buffer),
                     spec.value.nbytes);
}

bool parse_device(const std::string& text, int32_t* out) {
  if (text.empty() || text.size() > 10) {
    return false;
  }
  int64_t value = 0;
  for (char c : text) {
    if (!std::isdigit(static_cast<unsigned char>(c))) {
      return false;
    }
    value = value * 10 + (c - '0');
  }
  if (value > INT32_MAX) {
    return false;
  }
  *out = static_cast<int32_t>(value);
  return true;
}

}  // namespace

Result<RuntimeCompileSpecs> read_compile_specs(ArrayRef<CompileSpec> specs) {
  RuntimeCompileSpecs result;
  for (const CompileSpec& spec : specs) {
    if (spec.key == nullptr) {
      continue;
    }
    ASCEND_CHECK_OR_RETURN_ERROR(
        spec.value.buffer != nullptr || spec.value.nbytes == 0, InvalidProgram,
        "compile spec '%s' has no value", spec.key);
    if (std::strcmp(spec.key, kCompileSpecSocVersion) == 0) {
      result.soc_version = value_text(spec);
      ASCEND_CHECK_OR_RETURN_ERROR(
          result.soc_version.find('\0') == std::string::npos, InvalidProgram,
          "compile spec '%s' contains a NUL byte", spec.key);
    } else if (std::strcmp(spec.key, kCompileSpecDeviceId) == 0) {
      const std::string text = value_text(spec);
      ASCEND_CHECK_OR_RETURN_ERROR(
          parse_device(text, &result.device_id), InvalidProgram,
          "compile spec '%s' must be a decimal int >= 0, got '%.32s'", spec.key,
          text.c_str());
    }
  }
  return result;
}

std::string soc_family(const std::string& soc) {
  std::string family = soc.substr(0, soc.find_first_of("_-"));
  // A variant is a digit run after a letter that itself follows the chip's
  // digits ("910B" + "1"); "Ascend910" alone has no variant to strip.
  size_t end = family.size();
  while (end > 0 && std::isdigit(static_cast<unsigned char>(family[end - 1]))) {
    --end;
  }
  const bool variant =
      end < family.size() && end > 0 &&
      std::isalpha(static_cast<unsigned char>(family[end - 1])) &&
      family.find_first_of("0123456789") < end - 1;
  return variant ? family.substr(0, end) : family;
}

Error check_soc(const std::string& compiled_for, const char* device_soc) {
  if (compiled_for.empty() || device_soc == nullptr || device_soc[0] == '\0') {
    return Error::Ok;
  }
  const std::string device(device_soc);
  if (compiled_for == device) {
    return Error::Ok;
  }
  ASCEND_CHECK_OR_RETURN_ERROR(
      soc_family(compiled_for) == soc_family(device),
      DelegateInvalidCompatibility,
      "this model was compiled for %s (atc --soc_version) but the device is "
      "%s (aclrtGetSocName); an .om runs only on its own chip family: "
      "re-export with AscendCompileSpec(soc_version=\"%s\")",
      compiled_for.c_str(), device.c_str(), device.c_str());
  ASCEND_LOG(Info,
             "the model was compiled for %s and runs on %s, another chip of "
             "the same family",
             compiled_for.c_str(), device.c_str());
  return Error::Ok;
}

}  // namespace executorch::backends::ascend
