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
    if (std::strcmp(spec.key, kCompileSpecDeviceId) == 0) {
      const std::string text = value_text(spec);
      ASCEND_CHECK_OR_RETURN_ERROR(
          parse_device(text, &result.device_id), InvalidProgram,
          "compile spec '%s' must be a decimal int >= 0, got '%.32s'", spec.key,
          text.c_str());
    }
  }
  return result;
}

}  // namespace executorch::backends::ascend
