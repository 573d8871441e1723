// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The backend's log and check macros: ExecuTorch's own, with one prefix, so
// every line the backend writes starts with "AscendBackend: ". The message is
// formatted here and passed through printable() (log_text.h) before ET_LOG
// sees it: lines quote strings from the delegate blob, the named data, the
// .om and ACL, and the sink must never get invalid UTF-8 or control bytes,
// whichever call site forgot to escape its arguments.
#pragma once

#include <executorch/runtime/core/error.h>
#include <executorch/runtime/platform/log.h>

#include "log_text.h"

#define ASCEND_LOG(level, format, ...)                                        \
  ET_LOG(                                                                     \
      level, "AscendBackend: %s",                                             \
      ::executorch::backends::ascend::printable_format(format, ##__VA_ARGS__) \
          .c_str())

// Returns Error::error (an executorch::runtime::Error enumerator name) after
// logging the message when cond is false.
#define ASCEND_CHECK_OR_RETURN_ERROR(cond, error, format, ...) \
  do {                                                         \
    if (!(cond)) {                                             \
      ASCEND_LOG(Error, format, ##__VA_ARGS__);                \
      return ::executorch::runtime::Error::error;              \
    }                                                          \
  } while (0)
