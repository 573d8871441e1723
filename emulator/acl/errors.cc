// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "errors.h"

#include <atomic>
#include <cstdarg>
#include <cstdio>

#include "thread_state.h"

namespace ascend_emu::acl {
namespace {

thread_local std::string t_last_error;
}  // namespace

std::atomic<bool> g_verbose{false};

aclError Fail(aclError code, const char* format, ...) {
  char body[1024];
  va_list args;
  va_start(args, format);
  std::vsnprintf(body, sizeof(body), format, args);
  va_end(args);
  const char* api_name = CurrentApiName();
  t_last_error = std::string(api_name) + ": " + body;
  if (Verbose()) {
    std::fprintf(stderr, "[ascend-emu] %s failed with %d: %s\n", api_name, code,
                 body);
  }
  return code;
}

void SetLastErrorMessage(const std::string& message) {
  t_last_error = message;
  if (Verbose()) {
    std::fprintf(stderr, "[ascend-emu] %s\n", message.c_str());
  }
}

const char* LastErrorMessage() {
  return t_last_error.empty() ? nullptr : t_last_error.c_str();
}

void SetCurrentApiName(const char* name) { ThisThread().api_name = name; }
const char* CurrentApiName() { return ThisThread().api_name; }

void SetVerbose(bool verbose) { g_verbose.store(verbose); }

}  // namespace ascend_emu::acl
