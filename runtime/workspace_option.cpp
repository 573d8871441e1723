// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "workspace_option.h"

#include <cstring>

#include "log.h"

namespace executorch::backends::ascend {

using executorch::runtime::Error;
using executorch::runtime::Result;

namespace {

struct Named {
  const char* name;
  WorkspaceMode mode;
};
constexpr Named kModes[] = {{"acl", WorkspaceMode::kAcl},
                            {"delegate", WorkspaceMode::kDelegate},
                            {"shared", WorkspaceMode::kShared}};

}  // namespace

Result<WorkspaceMode> parse_workspace_mode(const char* value,
                                           const char* source) {
  if (value != nullptr) {
    for (const Named& named : kModes) {
      if (std::strcmp(value, named.name) == 0) return named.mode;
    }
  }
  ASCEND_LOG(Error,
             "workspace '%s' (from %s) is not one of 'acl' (ACL allocates "
             "each model's work memory), 'delegate' (the backend allocates "
             "it per delegate) or 'shared' (the delegates of a method share "
             "one work buffer)",
             value == nullptr ? "(null)" : value, source);
  return Error::InvalidArgument;
}

const char* workspace_mode_name(WorkspaceMode mode) {
  for (const Named& named : kModes) {
    if (named.mode == mode) return named.name;
  }
  return "?";
}

}  // namespace executorch::backends::ascend
