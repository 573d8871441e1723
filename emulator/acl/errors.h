// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The thread-local "last error" that aclGetRecentErrMsg returns, as in real
// CANN: each thread sees only the failures of its own calls.
#pragma once

#include <atomic>
#include <cstring>
#include <string>
#include <type_traits>

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
// Inline: every call reads it.
extern std::atomic<bool> g_verbose;
void SetVerbose(bool verbose);
inline bool Verbose() { return g_verbose.load(std::memory_order_relaxed); }

// The integer a caller passed for an ACL enum parameter. C lets any int
// through an enum type, but in C++ loading a value outside the enum's range
// is undefined behaviour (UBSan's -fsanitize=enum stops on it): entry points
// read the parameter's bytes, check the value, and only then use the enum.
template <typename Enum>
int EnumValue(const Enum& value) {
  static_assert(std::is_enum_v<Enum> && sizeof(Enum) == sizeof(int));
  int raw = 0;
  std::memcpy(&raw, &value, sizeof raw);
  return raw;
}

}  // namespace ascend_emu::acl
