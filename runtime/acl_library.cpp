// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "acl_library.h"

#include <dlfcn.h>
#include <emulator_ids.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <utility>

#include "acl_library_data.h"
#include "log.h"

namespace executorch::backends::ascend {

namespace {

// The names of the rule: src/executorch_ascend/acl_library.json, which
// toolchain/cann.py reads too (the generated acl_library_data.h).
using acl_names::kExplicitVariable;
using acl_names::kHomeVariables;
using acl_names::kLibraryFolder;
constexpr const char* kSingle = acl_names::kSingleLibrary;
constexpr const char* kRuntime = acl_names::kRuntimeLibrary;
constexpr const char* kModel = acl_names::kModelLibrary;
constexpr const char* kProfiler = acl_names::kProfilerLibrary;

bool exists(const std::string& path) { return access(path.c_str(), F_OK) == 0; }

// The folder part of a path with its trailing '/', or "" for a bare name.
std::string folder_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
}

// The model functions live in libacl_mdl.so: hicann/ge builds it from
// api/acl/acl_model, which defines the aclmdl* calls the backend uses (the
// dataset ones included). hicann/runtime's libacl_rt.so (src/acl/aclrt) holds
// aclInit, aclrt*, the data buffer calls and aclGetRecentErrMsg.
bool is_model_function(const char* name) {
  return std::strncmp(name, "aclmdl", 6) == 0;
}

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
  const std::string single = kSingle;
  if (env_or_null(kExplicitVariable) != nullptr) {
    return std::string("; ") + kExplicitVariable +
           " names this file: point it at an existing " + single + " (or " +
           kRuntime + ", with " + kModel + " beside it), or unset it";
  }
  for (const char* home_variable : kHomeVariables) {
    if (env_or_null(home_variable) != nullptr) {
      return std::string("; ") + home_variable + " holds no loadable " +
             kLibraryFolder + "/" + single + " (nor both of " + kRuntime +
             " and " + kModel +
             "): source the set_env.sh of a complete CANN installation, or "
             "set " +
             kExplicitVariable + " to a " + single;
    }
  }
  return std::string("; no CANN found: source CANN's set_env.sh (it sets ") +
         kHomeVariables[0] + "), or set " + kExplicitVariable + " to a " +
         single +
         "; without an NPU, the CANN emulator "
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

std::string AclLibrary::Layout::describe() const {
  return split() ? runtime + " + " + model : runtime;
}

AclLibrary::Layout AclLibrary::resolve() {
  // The same rule as src/executorch_ascend/toolchain/cann.py (docs/runtime.md).
  Layout layout;
  if (const char* explicit_path = env_or_null(kExplicitVariable)) {
    const std::string path = explicit_path;
    const std::string folder = folder_of(path);
    const std::string name = path.substr(folder.size());
    if (name == kRuntime || name == kModel) {
      layout.runtime = folder + kRuntime;
      layout.model = folder + kModel;
    } else {
      layout.runtime = path;
    }
    return layout;
  }
  for (const char* home_variable : kHomeVariables) {
    if (const char* home = env_or_null(home_variable)) {
      const std::string lib64 = std::string(home) + "/" + kLibraryFolder + "/";
      if (exists(lib64 + kRuntime) && exists(lib64 + kModel)) {
        layout.runtime = lib64 + kRuntime;
        layout.model = lib64 + kModel;
      } else {
        // Older CANN, or half of the pair: the compatibility library.
        layout.runtime = lib64 + kSingle;
      }
      return layout;
    }
  }
  layout.runtime = kRuntime;
  layout.model = kModel;
  layout.fallback = kSingle;
  return layout;
}

std::string AclLibrary::resolve_path() { return resolve().runtime; }

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

std::string AclLibrary::open_libraries() {
  path_ = layout_.describe();
  // RTLD_LOCAL: ACL's symbols must not leak into the global namespace where
  // they could clash with another copy loaded by a different component.
  handle_ = dlopen(layout_.runtime.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle_ == nullptr) {
    const char* why = dlerror();
    return "cannot load ACL library '" + layout_.runtime +
           "': " + (why ? why : "?");
  }
  if (!layout_.split()) {
    model_handle_ = handle_;
    return "";
  }
  model_handle_ = dlopen(layout_.model.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (model_handle_ == nullptr) {
    // Copied first: dlerror()'s text lives in a buffer dlclose() may free.
    const char* error = dlerror();
    const std::string why = error != nullptr ? error : "?";
    dlclose(handle_);
    handle_ = nullptr;
    return "cannot load ACL library '" + layout_.model +
           "' (the model half of " + path_ + "): " + why;
  }
  return "";
}

void* AclLibrary::resolve_profiling(const char* name) {
  if (void* symbol = dlsym(handle_, name)) {
    if (profiling_path_.empty()) profiling_path_ = layout_.runtime;
    return symbol;
  }
  if (profiler_handle_ == nullptr && profiling_path_.empty()) {
    // CANN builds the profiling API into libmsprofiler.so (hicann/runtime
    // src/dfx/msprof/collector/dvvp/msprofiler), beside libascendcl.so.
    const std::string folder = folder_of(layout_.runtime);
    const std::string beside = folder + kProfiler;
    profiler_handle_ = dlopen(beside.c_str(), RTLD_NOW | RTLD_LOCAL);
    profiling_path_ = beside;
    if (profiler_handle_ == nullptr && !folder.empty()) {
      profiler_handle_ = dlopen(kProfiler, RTLD_NOW | RTLD_LOCAL);
      profiling_path_ = kProfiler;
    }
    if (profiler_handle_ == nullptr) {
      profiling_path_ = "-";  // tried: absent (has_profiling() clears it)
    }
  }
  return profiler_handle_ != nullptr ? dlsym(profiler_handle_, name) : nullptr;
}

void AclLibrary::load() {
  layout_ = resolve();
  std::string error = open_libraries();
  if (!error.empty() && !layout_.fallback.empty()) {
    // The loader path without the split pair: the single library.
    layout_ = Layout{layout_.fallback, "", ""};
    error = open_libraries();
  }
  if (!error.empty()) {
    std::lock_guard<std::mutex> lock(mutex_);
    fail(error + load_hint());
    return;
  }

  // Each function from the library CANN puts it in (the same handle twice
  // for a single library).
  const auto library_of = [this](const char* name) {
    return is_model_function(name) ? model_handle_ : handle_;
  };
  const auto file_of = [this](const char* name) {
    return is_model_function(name) ? layout_.model : layout_.runtime;
  };
#define EXECUTORCH_ASCEND_ACL_RESOLVE_RUNTIME(name)                           \
  api_.name =                                                                 \
      reinterpret_cast<decltype(api_.name)>(dlsym(library_of(#name), #name)); \
  if (api_.name == nullptr) {                                                 \
    std::lock_guard<std::mutex> lock(mutex_);                                 \
    fail("ACL library '" + (layout_.split() ? file_of(#name) : path_) +       \
         "' has no symbol '" #name "'");                                      \
    return;                                                                   \
  }
#define EXECUTORCH_ASCEND_ACL_RESOLVE_RUNTIME_OPTIONAL(name) \
  api_.name =                                                \
      reinterpret_cast<decltype(api_.name)>(dlsym(library_of(#name), #name));
#define EXECUTORCH_ASCEND_ACL_RESOLVE_RUNTIME_PROF(name) \
  api_.name = reinterpret_cast<decltype(api_.name)>(resolve_profiling(#name));
#define EXECUTORCH_ASCEND_ACL_RESOLVE_EMULATED(name)
#define ACL_FUNCTION(ret, name, params, user, faults) \
  EXECUTORCH_ASCEND_ACL_RESOLVE_##user(name)
#include <acl_functions.def>
#undef ACL_FUNCTION
#undef EXECUTORCH_ASCEND_ACL_RESOLVE_EMULATED
#undef EXECUTORCH_ASCEND_ACL_RESOLVE_RUNTIME_PROF
#undef EXECUTORCH_ASCEND_ACL_RESOLVE_RUNTIME_OPTIONAL
#undef EXECUTORCH_ASCEND_ACL_RESOLVE_RUNTIME

  if (!api_.has_profiling()) {
    // All or nothing: a partial set is no profiling at all.
#define EXECUTORCH_ASCEND_ACL_CLEAR_RUNTIME_PROF(name) api_.name = nullptr;
#define EXECUTORCH_ASCEND_ACL_CLEAR_RUNTIME(name)
#define EXECUTORCH_ASCEND_ACL_CLEAR_RUNTIME_OPTIONAL(name)
#define EXECUTORCH_ASCEND_ACL_CLEAR_EMULATED(name)
#define ACL_FUNCTION(ret, name, params, user, faults) \
  EXECUTORCH_ASCEND_ACL_CLEAR_##user(name)
#include <acl_functions.def>
#undef ACL_FUNCTION
#undef EXECUTORCH_ASCEND_ACL_CLEAR_EMULATED
#undef EXECUTORCH_ASCEND_ACL_CLEAR_RUNTIME_OPTIONAL
#undef EXECUTORCH_ASCEND_ACL_CLEAR_RUNTIME
#undef EXECUTORCH_ASCEND_ACL_CLEAR_RUNTIME_PROF
    profiling_path_.clear();
  }
  is_emulator_ = dlsym(handle_, EXECUTORCH_ASCEND_EMULATOR_SYMBOL) != nullptr;

  const aclError init_error = api_.aclInit(nullptr);
  if (init_error == ACL_ERROR_COMPILING_STUB_MODE) {
    // A stub stays a stub: final, not retried.
    std::lock_guard<std::mutex> lock(mutex_);
    fail("ACL library '" + path_ +
         "' is a CANN stub library (aclInit returned 100039); point " +
         kExplicitVariable + " or " + kHomeVariables[0] +
         " at a runtime library");
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
