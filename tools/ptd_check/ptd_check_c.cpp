// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The .ptd check as a C function, for the Python side (executorch_ascend/
// ptd_check.py loads libexecutorch_ascend_ptd_check.so with ctypes), which
// hands .ptd files to ExecuTorch's Python runtime the same unverified way.
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <string>

#include "ptd_check.h"

// 0 when the file at `path` is a well-formed .ptd; else 1, with the reason in
// `message` (NUL-terminated, cut to `capacity` bytes).
extern "C" __attribute__((visibility("default"))) int
executorch_ascend_check_ptd_file(const char* path, char* message,
                                 size_t capacity) {
  const std::string problem =
      path == nullptr
          ? std::string("no path given")
          : executorch::backends::ascend::tools::check_ptd_file(path);
  if (message != nullptr && capacity > 0) {
    const size_t n = std::min(problem.size(), capacity - 1);
    std::memcpy(message, problem.data(), n);
    message[n] = '\0';
  }
  return problem.empty() ? 0 : 1;
}
