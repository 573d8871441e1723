// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The ACL function table: every ACL function the backend calls, resolved
// once per process with dlopen/dlsym. The backend never links libascendcl.so,
// so the same binary runs with real CANN, with the project's CANN emulator,
// or (reporting "not available") with neither.
#pragma once

#include <acl_api.h>

#include <string>

namespace executorch::backends::ascend {

// The RUNTIME and RUNTIME_OPTIONAL rows of acl/acl_functions.def, one member
// each, typed from our own prototype in acl/acl_api.h, so a signature
// mismatch is a compile error rather than a silent ABI bug. Optional members
// are null when the library lacks them.
struct AclApi {
#define EXECUTORCH_ASCEND_ACL_MEMBER_RUNTIME(name) \
  decltype(&::name) name = nullptr;
#define EXECUTORCH_ASCEND_ACL_MEMBER_RUNTIME_OPTIONAL(name) \
  EXECUTORCH_ASCEND_ACL_MEMBER_RUNTIME(name)
#define EXECUTORCH_ASCEND_ACL_MEMBER_EMULATED(name)
#define ACL_FUNCTION(ret, name, params, user, faults) \
  EXECUTORCH_ASCEND_ACL_MEMBER_##user(name)
#include <acl_functions.def>
#undef ACL_FUNCTION
#undef EXECUTORCH_ASCEND_ACL_MEMBER_EMULATED
#undef EXECUTORCH_ASCEND_ACL_MEMBER_RUNTIME_OPTIONAL
#undef EXECUTORCH_ASCEND_ACL_MEMBER_RUNTIME

  // The config-handle calls (aclmdlCreateConfigHandle .. aclmdlLoadWithConfig)
  // that binding external weights needs are all present.
  bool has_config_load() const {
    return aclmdlCreateConfigHandle != nullptr &&
           aclmdlDestroyConfigHandle != nullptr &&
           aclmdlSetConfigOpt != nullptr &&
           aclmdlSetExternalWeightAddress != nullptr &&
           aclmdlLoadWithConfig != nullptr;
  }
};

// The process-wide ACL library. Resolved on first use, never unloaded: ACL is
// initialised once per process (aclInit) and other components may share it,
// so the backend never calls aclFinalize either.
class AclLibrary {
 public:
  // The loaded library. The first call resolves it (thread-safe); later calls
  // return the same object, so the environment is read only once.
  static const AclLibrary& get();

  // The table is complete, aclInit succeeded and at least one device exists.
  bool available() const { return available_; }
  // Why available() is false ("" when available).
  const std::string& unavailable_reason() const { return reason_; }
  // The library exports EXECUTORCH_ASCEND_EMULATOR_SYMBOL (our emulator).
  bool is_emulator() const { return is_emulator_; }
  // The path given to dlopen.
  const std::string& path() const { return path_; }
  uint32_t device_count() const { return device_count_; }
  // Only meaningful when available().
  const AclApi& api() const { return api_; }

  // aclGetRecentErrMsg, never null (for log lines).
  const char* recent_error() const;

  // Where the library is looked for: EXECUTORCH_ASCEND_ACL_LIB, else
  // $ASCEND_HOME_PATH (else $ASCEND_TOOLKIT_HOME)/lib64/libascendcl.so, else
  // "libascendcl.so" on the loader path.
  static std::string resolve_path();

 private:
  AclLibrary() = default;
  void load();
  void fail(std::string reason);

  AclApi api_;
  void* handle_ = nullptr;
  bool available_ = false;
  bool is_emulator_ = false;
  uint32_t device_count_ = 0;
  std::string path_;
  std::string reason_;
};

}  // namespace executorch::backends::ascend
