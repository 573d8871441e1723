// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "fault.h"

#include <cstring>

namespace ascend_emu::acl {
namespace {

// The FAULTS rows of acl/acl_functions.def, so a typo in a fault spec is an
// error rather than a fault that never fires.
constexpr const char* kFaultInjectable[] = {
#define ASCEND_EMU_FAULTABLE_FAULTS(name) #name,
#define ASCEND_EMU_FAULTABLE_NO_FAULTS(name)
#define ACL_FUNCTION(ret, name, params, user, faults) \
  ASCEND_EMU_FAULTABLE_##faults(name)
#include "acl_functions.def"
#undef ACL_FUNCTION
#undef ASCEND_EMU_FAULTABLE_NO_FAULTS
#undef ASCEND_EMU_FAULTABLE_FAULTS
};

}  // namespace

bool IsFaultInjectable(const char* function) {
  if (function == nullptr) return false;
  for (const char* name : kFaultInjectable) {
    if (std::strcmp(function, name) == 0) return true;
  }
  return false;
}

void FaultTable::Set(const std::string& function, int after, int error) {
  faults_[function] = Fault{after, error};
  armed_.store(true, std::memory_order_release);
}

int FaultTable::Check(const char* function) {
  ++calls_[function];
  if (faults_.empty()) return 0;
  auto it = faults_.find(function);
  if (it == faults_.end()) return 0;
  if (it->second.remaining > 0) {
    --it->second.remaining;
    return 0;
  }
  return it->second.error;
}

uint64_t FaultTable::Calls(const char* function) const {
  uint64_t total = 0;
  for (const auto& [name, count] : calls_) {
    if (std::strcmp(name, function) == 0) total += count;
  }
  return total;
}

}  // namespace ascend_emu::acl
