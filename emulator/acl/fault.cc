#include "fault.h"

#include <cstring>

namespace ascend_emu::acl {
namespace {

// Kept beside the exports (exports.map) so a typo in a fault spec is an error
// rather than a fault that never fires.
constexpr const char* kFaultInjectable[] = {
    "aclInit",
    "aclFinalize",
    "aclrtSetDevice",
    "aclrtResetDevice",
    "aclrtGetDevice",
    "aclrtGetDeviceCount",
    "aclrtCreateContext",
    "aclrtDestroyContext",
    "aclrtSetCurrentContext",
    "aclrtGetCurrentContext",
    "aclrtCreateStream",
    "aclrtDestroyStream",
    "aclrtSynchronizeStream",
    "aclrtMalloc",
    "aclrtFree",
    "aclrtMallocHost",
    "aclrtFreeHost",
    "aclrtMemcpy",
    "aclrtMemcpyAsync",
    "aclrtGetMemInfo",
    "aclCreateDataBuffer",
    "aclDestroyDataBuffer",
    "aclmdlCreateDataset",
    "aclmdlDestroyDataset",
    "aclmdlAddDatasetBuffer",
    "aclmdlLoadFromFile",
    "aclmdlLoadFromMem",
    "aclmdlQuerySizeFromMem",
    "aclmdlLoadFromMemWithMem",
    "aclmdlUnload",
    "aclmdlCreateDesc",
    "aclmdlDestroyDesc",
    "aclmdlGetDesc",
    "aclmdlGetInputDims",
    "aclmdlGetOutputDims",
    "aclmdlExecute",
    "aclmdlExecuteAsync",
};

}  // namespace

bool IsFaultInjectable(const std::string& function) {
  for (const char* name : kFaultInjectable) {
    if (function == name) return true;
  }
  return false;
}

void FaultTable::Set(const std::string& function, int after, int error) {
  faults_[function] = Fault{after, error};
}

int FaultTable::Check(const char* function) {
  if (faults_.empty()) return 0;
  auto it = faults_.find(function);
  if (it == faults_.end()) return 0;
  if (it->second.remaining > 0) {
    --it->second.remaining;
    return 0;
  }
  return it->second.error;
}

}  // namespace ascend_emu::acl
