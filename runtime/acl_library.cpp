// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "acl_library.h"

#include <dlfcn.h>
#include <emulator_ids.h>

#include <cstdlib>
#include <mutex>
#include <utility>

#include "log.h"

namespace executorch::backends::ascend {

namespace {

const char* env_or_null(const char* name) {
  const char* value = std::getenv(name);
  return (value != nullptr && value[0] != '\0') ? value : nullptr;
}

// ": <ACL's message>", or nothing when ACL gave none.
std::string explained(const char* recent) {
  return recent[0] != '\0' ? std::string(": ") + recent : std::string();
}

// What to do when no library loads, for the step of resolve_path()'s rule
// that named it: most users meet this first, on a host where CANN's
// set_env.sh was not sourced, or with no CANN at all (docs/troubleshooting.md).
std::string load_hint() {
  if (env_or_null("EXECUTORCH_ASCEND_ACL_LIB") != nullptr) {
    return "; EXECUTORCH_ASCEND_ACL_LIB names this file: point it at an "
           "existing libascendcl.so, or unset it";
  }
  for (const char* home_variable :
       {"ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME"}) {
    if (env_or_null(home_variable) != nullptr) {
      return std::string("; ") + home_variable +
             " holds no loadable lib64/libascendcl.so: source the set_env.sh "
             "of a complete CANN installation, or set "
             "EXECUTORCH_ASCEND_ACL_LIB to a libascendcl.so";
    }
  }
  return "; no CANN found: source CANN's set_env.sh (it sets "
         "ASCEND_HOME_PATH), or set EXECUTORCH_ASCEND_ACL_LIB to a "
         "libascendcl.so; without an NPU, the CANN emulator "
         "(executorch-ascend-emulator) runs on the CPU: "
         "executorch_ascend.use_emulator() or EXECUTORCH_ASCEND_USE_EMULATOR=1";
}

}  // namespace

const AclLibrary& AclLibrary::get() {
  // Leaked on purpose: the table must outlive every delegate handle, including
  // ones destroyed by other static destructors at process exit.
  static AclLibrary* library = new AclLibrary();
  static std::once_flag once;
  std::call_once(once, [] { library->load(); });
  if (!library->available()) {
    library->initialize();
  }
  return *library;
}

std::string AclLibrary::unavailable_reason() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return reason_;
}

std::string AclLibrary::resolve_path() {
  // The same rule as src/executorch_ascend/cann.py (docs/runtime.md).
  if (const char* explicit_path = env_or_null("EXECUTORCH_ASCEND_ACL_LIB")) {
    return explicit_path;
  }
  for (const char* home_variable :
       {"ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME"}) {
    if (const char* home = env_or_null(home_variable)) {
      return std::string(home) + "/lib64/libascendcl.so";
    }
  }
  return "libascendcl.so";
}

const char* AclLibrary::recent_error() const {
  // usable_: the whole table is resolved, so aclInit's own failure can be
  // explained too.
  if (!usable_ || api_.aclGetRecentErrMsg == nullptr) {
    return "";
  }
  const char* message = api_.aclGetRecentErrMsg();
  return message != nullptr ? message : "";
}

void AclLibrary::fail(std::string reason) {
  reason_ = std::move(reason);
  // One line, so a user without an NPU sees exactly why the delegate is off.
  ASCEND_LOG(Error, "not available: %s", reason_.c_str());
}

void AclLibrary::load() {
  path_ = resolve_path();
  // RTLD_LOCAL: ACL's symbols must not leak into the global namespace where
  // they could clash with another copy loaded by a different component.
  handle_ = dlopen(path_.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle_ == nullptr) {
    const char* why = dlerror();
    std::lock_guard<std::mutex> lock(mutex_);
    fail("cannot load ACL library '" + path_ + "': " + (why ? why : "?") +
         load_hint());
    return;
  }

#define EXECUTORCH_ASCEND_ACL_RESOLVE_RUNTIME(name)                         \
  api_.name = reinterpret_cast<decltype(api_.name)>(dlsym(handle_, #name)); \
  if (api_.name == nullptr) {                                               \
    std::lock_guard<std::mutex> lock(mutex_);                               \
    fail("ACL library '" + path_ + "' has no symbol '" #name "'");          \
    return;                                                                 \
  }
#define EXECUTORCH_ASCEND_ACL_RESOLVE_RUNTIME_OPTIONAL(name) \
  api_.name = reinterpret_cast<decltype(api_.name)>(dlsym(handle_, #name));
#define EXECUTORCH_ASCEND_ACL_RESOLVE_EMULATED(name)
#define ACL_FUNCTION(ret, name, params, user, faults) \
  EXECUTORCH_ASCEND_ACL_RESOLVE_##user(name)
#include <acl_functions.def>
#undef ACL_FUNCTION
#undef EXECUTORCH_ASCEND_ACL_RESOLVE_EMULATED
#undef EXECUTORCH_ASCEND_ACL_RESOLVE_RUNTIME_OPTIONAL
#undef EXECUTORCH_ASCEND_ACL_RESOLVE_RUNTIME

  is_emulator_ = dlsym(handle_, EXECUTORCH_ASCEND_EMULATOR_SYMBOL) != nullptr;

  const aclError init_error = api_.aclInit(nullptr);
  if (init_error == ACL_ERROR_COMPILING_STUB_MODE) {
    // A stub stays a stub: final, not retried.
    std::lock_guard<std::mutex> lock(mutex_);
    fail("ACL library '" + path_ +
         "' is a CANN stub library (aclInit returned 100039); point "
         "EXECUTORCH_ASCEND_ACL_LIB or ASCEND_HOME_PATH at a runtime "
         "library");
    return;
  }
  usable_ = true;
  first_init_error_ = init_error;
}

void AclLibrary::initialize() {
  if (!usable_) {
    return;  // the library itself failed: the reason is already recorded
  }
  std::lock_guard<std::mutex> lock(mutex_);
  if (available()) {
    return;  // another thread got there first
  }
  // load() made the first aclInit call (to tell a stub library apart);
  // every later attempt makes its own.
  aclError init_error = first_init_error_;
  first_init_error_ = kNoInitAttempt;
  if (init_error == kNoInitAttempt) {
    init_error = api_.aclInit(nullptr);
  }
  // Another component of the process may have initialised ACL already, or
  // an earlier attempt of ours did and aclrtGetDeviceCount failed after it.
  if (init_error != ACL_SUCCESS && init_error != ACL_ERROR_REPEAT_INITIALIZE) {
    fail("aclInit failed with error " + std::to_string(init_error) + " (" +
         path_ + ")" + explained(recent_error()) +
         "; retried at the next load");
    return;
  }

  uint32_t count = 0;
  const aclError count_error = api_.aclrtGetDeviceCount(&count);
  if (count_error != ACL_SUCCESS) {
    fail("aclrtGetDeviceCount failed with error " +
         std::to_string(count_error) + ": no Ascend device (" + path_ + ")" +
         explained(recent_error()) + "; retried at the next load");
    return;
  }
  if (count == 0) {
    fail("no Ascend device (aclrtGetDeviceCount returned 0; " + path_ + ")");
    return;
  }
  device_count_.store(count, std::memory_order_release);
  reason_.clear();
  available_.store(true, std::memory_order_release);
  const char* soc = api_.aclrtGetSocName();
  ASCEND_LOG(Info, "%s from %s, %u device(s), SoC %s",
             is_emulator_ ? "CANN emulator" : "CANN", path_.c_str(),
             static_cast<unsigned>(count), soc != nullptr ? soc : "?");
}

}  // namespace executorch::backends::ascend
