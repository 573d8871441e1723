// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The thread-local "last error" that aclGetRecentErrMsg returns, as in real
// CANN: each thread sees only the failures of its own calls.
#pragma once

#include <string>

#include "acl_api.h"

namespace ascend_emu::acl {

// Records `message` (prefixed with the ACL function being run on this thread)
// as this thread's last error, logs it when verbose, and returns `code` so a
// call site can write `return Fail(ACL_ERROR_INVALID_PARAM, "...")`.
aclError Fail(aclError code, const char* format, ...)
    __attribute__((format(printf, 2, 3)));

// Sets the last error without a code (used for pointer/size returning calls
// and for the leak summary of a successful aclFinalize).
void SetLastErrorMessage(const std::string& message);

// This thread's last error, or nullptr when no error was recorded.
const char* LastErrorMessage();

// Name of the exported function this thread is running ("aclrtMalloc"); set
// by ApiCall so messages and logs say where they come from.
void SetCurrentApiName(const char* name);
const char* CurrentApiName();

// Verbose logging switch (EXECUTORCH_ASCEND_EMU_VERBOSE), set at aclInit.
void SetVerbose(bool verbose);
bool Verbose();

}  // namespace ascend_emu::acl
