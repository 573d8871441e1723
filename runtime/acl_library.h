// The ACL function table: every ACL function the backend calls, resolved
// once per process with dlopen/dlsym. The backend never links libascendcl.so,
// so the same binary runs with real CANN, with the project's CANN emulator,
// or (reporting "not available") with neither.
#pragma once

#include <acl_api.h>

#include <string>

namespace executorch::backends::ascend {

// X-macro list of the ACL functions the backend needs. Each becomes a member
// of AclApi typed from our own prototype in acl/acl_api.h, so a signature
// mismatch is a compile error rather than a silent ABI bug.
#define EXECUTORCH_ASCEND_ACL_FUNCTIONS(X) \
  X(aclInit)                               \
  X(aclGetRecentErrMsg)                    \
  X(aclrtGetSocName)                       \
  X(aclrtGetDeviceCount)                   \
  X(aclrtSetDevice)                        \
  X(aclrtResetDevice)                      \
  X(aclrtCreateContext)                    \
  X(aclrtDestroyContext)                   \
  X(aclrtSetCurrentContext)                \
  X(aclrtMalloc)                           \
  X(aclrtFree)                             \
  X(aclrtMemcpy)                           \
  X(aclCreateDataBuffer)                   \
  X(aclDestroyDataBuffer)                  \
  X(aclmdlCreateDataset)                   \
  X(aclmdlDestroyDataset)                  \
  X(aclmdlAddDatasetBuffer)                \
  X(aclmdlLoadFromMem)                     \
  X(aclmdlUnload)                          \
  X(aclmdlCreateDesc)                      \
  X(aclmdlDestroyDesc)                     \
  X(aclmdlGetDesc)                         \
  X(aclmdlGetNumInputs)                    \
  X(aclmdlGetNumOutputs)                   \
  X(aclmdlGetInputSizeByIndex)             \
  X(aclmdlGetOutputSizeByIndex)            \
  X(aclmdlGetInputDims)                    \
  X(aclmdlGetOutputDims)                   \
  X(aclmdlGetInputDataType)                \
  X(aclmdlGetOutputDataType)               \
  X(aclmdlExecute)

struct AclApi {
#define EXECUTORCH_ASCEND_ACL_MEMBER(name) decltype(&::name) name = nullptr;
  EXECUTORCH_ASCEND_ACL_FUNCTIONS(EXECUTORCH_ASCEND_ACL_MEMBER)
#undef EXECUTORCH_ASCEND_ACL_MEMBER
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
  // $ASCEND_HOME_PATH/lib64/libascendcl.so, else "libascendcl.so".
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
