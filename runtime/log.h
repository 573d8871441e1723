// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The backend's log and check macros: ExecuTorch's own, with one prefix, so
// every line the backend writes starts with "AscendBackend: ".
#pragma once

#include <executorch/runtime/core/error.h>
#include <executorch/runtime/platform/log.h>

#define ASCEND_LOG(level, format, ...) \
  ET_LOG(level, "AscendBackend: " format, ##__VA_ARGS__)

// Returns Error::error (an executorch::runtime::Error enumerator name) after
// logging the message when cond is false.
#define ASCEND_CHECK_OR_RETURN_ERROR(cond, error, format, ...) \
  ET_CHECK_OR_RETURN_ERROR(cond, error, "AscendBackend: " format, ##__VA_ARGS__)
