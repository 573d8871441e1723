// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The ACL function table: every ACL function the backend calls, resolved
// once per process with dlopen/dlsym. The backend never links libascendcl.so,
// so the same binary runs with real CANN, with the project's CANN emulator,
// or (reporting "not available") with neither.
#pragma once

#include <acl_api.h>

#include <atomic>
#include <cstdint>
#include <mutex>
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
#define EXECUTORCH_ASCEND_ACL_MEMBER_RUNTIME_PROF(name) \
  EXECUTORCH_ASCEND_ACL_MEMBER_RUNTIME(name)
#define EXECUTORCH_ASCEND_ACL_MEMBER_EMULATED(name)
#define ACL_FUNCTION(ret, name, params, user, faults) \
  EXECUTORCH_ASCEND_ACL_MEMBER_##user(name)
#include <acl_functions.def>
#undef ACL_FUNCTION
#undef EXECUTORCH_ASCEND_ACL_MEMBER_EMULATED
#undef EXECUTORCH_ASCEND_ACL_MEMBER_RUNTIME_PROF
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

  // Every RUNTIME_PROF row (the op subscription and its readers) resolved:
  // per-op profiling under an event tracer is possible (op_profiler.h).
  bool has_profiling() const {
    bool all = true;
#define EXECUTORCH_ASCEND_ACL_HAS_RUNTIME_PROF(name) \
  all = all && name != nullptr;
#define EXECUTORCH_ASCEND_ACL_HAS_RUNTIME(name)
#define EXECUTORCH_ASCEND_ACL_HAS_RUNTIME_OPTIONAL(name)
#define EXECUTORCH_ASCEND_ACL_HAS_EMULATED(name)
#define ACL_FUNCTION(ret, name, params, user, faults) \
  EXECUTORCH_ASCEND_ACL_HAS_##user(name)
#include <acl_functions.def>
#undef ACL_FUNCTION
#undef EXECUTORCH_ASCEND_ACL_HAS_EMULATED
#undef EXECUTORCH_ASCEND_ACL_HAS_RUNTIME_OPTIONAL
#undef EXECUTORCH_ASCEND_ACL_HAS_RUNTIME
#undef EXECUTORCH_ASCEND_ACL_HAS_RUNTIME_PROF
    return all;
  }
};

// The process-wide ACL library. Resolved on first use, never unloaded: ACL is
// initialised once per process (aclInit) and other components may share it,
// so the backend never calls aclFinalize either.
//
// Two kinds of failure: the library itself (it cannot be loaded, lacks a
// symbol, or is a CANN stub) is final for the process and reported the same
// way on every call; aclInit or aclrtGetDeviceCount failing (or finding no
// device) may be transient (a device still coming up, a driver restart), so
// every later get() tries them again until they succeed, instead of
// disabling the backend for the life of the process.
class AclLibrary {
 public:
  // The loaded library. The first call resolves it (thread-safe); while ACL
  // is not initialised, each call retries aclInit and aclrtGetDeviceCount
  // (serialised by a mutex). Once available, it stays available and this is
  // one atomic load.
  static const AclLibrary& get();

  // The table is complete, aclInit succeeded and at least one device exists.
  bool available() const { return available_.load(std::memory_order_acquire); }
  // Why available() is false ("" when available). A copy: a retry on another
  // thread may replace it.
  std::string unavailable_reason() const;
  // The library exports EXECUTORCH_ASCEND_EMULATOR_SYMBOL (our emulator).
  bool is_emulator() const { return is_emulator_; }
  // What was opened: the single library's path, or "<libacl_rt.so path> +
  // <libacl_mdl.so path>".
  const std::string& path() const { return path_; }
  uint32_t device_count() const {
    return device_count_.load(std::memory_order_acquire);
  }
  // Only meaningful when available().
  const AclApi& api() const { return api_; }

  // aclGetRecentErrMsg, never null (for log lines; ASCEND_LOG escapes it).
  const char* recent_error() const;

  // The libraries to open (docs/runtime.md, "Which ACL library"). Current
  // CANN splits ACL in two: the model functions (aclmdl*) in libacl_mdl.so,
  // everything else in libacl_rt.so; libascendcl.so, with every function,
  // stays as a compatibility library.
  struct Layout {
    std::string runtime;  // libacl_rt.so, or the single libascendcl.so
    std::string model;    // libacl_mdl.so; "" for a single library
    // The single library to open instead when the split pair does not load
    // (the loader-path step only); "" otherwise.
    std::string fallback;
    bool split() const { return !model.empty(); }
    // "<runtime> + <model>" or the single path.
    std::string describe() const;
  };

  // Where ACL is looked for, in order:
  // 1. EXECUTORCH_ASCEND_ACL_LIB: that file; when its name is libacl_rt.so
  //    or libacl_mdl.so, the pair in its folder;
  // 2. $ASCEND_HOME_PATH (else $ASCEND_TOOLKIT_HOME)/lib64: libacl_rt.so +
  //    libacl_mdl.so when both are there, else libascendcl.so;
  // 3. the loader path: libacl_rt.so + libacl_mdl.so when both load, else
  //    libascendcl.so.
  static Layout resolve();
  // resolve().runtime: the library holding aclInit (the emulator's extras
  // are reached through it too).
  static std::string resolve_path();
  // The layout load() opened ("" parts before load).
  const Layout& layout() const { return layout_; }
  // Where the profiling functions came from: the ACL library, CANN's
  // libmsprofiler.so (its path), or "" when they are absent.
  const std::string& profiling_path() const { return profiling_path_; }

 private:
  AclLibrary() = default;
  // dlopen and dlsym, once per process.
  void load();
  // aclInit and aclrtGetDeviceCount; a no-op once available or when the
  // library itself is unusable. Serialised by mutex_.
  void initialize();
  // Records why the library is not available (mutex_ held) and logs it.
  void fail(std::string reason);

  // dlopen()s layout_ (the pair, or the single library); "" or why not.
  std::string open_libraries();

  AclApi api_;
  void* handle_ = nullptr;        // libacl_rt.so or the single library
  void* model_handle_ = nullptr;  // libacl_mdl.so; == handle_ when single
  // The profiling functions (RUNTIME_PROF rows) when the ACL library lacks
  // them: CANN keeps them in libmsprofiler.so. Optional.
  void* profiler_handle_ = nullptr;
  std::string profiling_path_;
  // dlsym of a RUNTIME_PROF row: the ACL library, else libmsprofiler.so
  // (opened on first need, beside the ACL library, else from the loader
  // path).
  void* resolve_profiling(const char* name);
  Layout layout_;
  // The table is complete and the library is not a stub: initialize() may
  // try (written once under the call_once in get(), then only read).
  bool usable_ = false;
  // What load()'s aclInit returned, for initialize() to use instead of a
  // second call; kNoInitAttempt once used.
  static constexpr aclError kNoInitAttempt = -1;
  aclError first_init_error_ = kNoInitAttempt;
  std::atomic<bool> available_{false};
  bool is_emulator_ = false;
  std::atomic<uint32_t> device_count_{0};
  std::string path_;
  mutable std::mutex mutex_;  // guards reason_ and initialisation attempts
  std::string reason_;
};

}  // namespace executorch::backends::ascend
