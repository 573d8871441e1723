// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The load-time "workspace" option: who owns a model's work memory (its
// activations and scratch) and inline-weight memory.
#pragma once

#include <executorch/runtime/core/result.h>

namespace executorch::backends::ascend {

enum class WorkspaceMode {
  // ACL allocates each model's memory at load (aclmdlLoadFromMem).
  kAcl,
  // The backend allocates each model's work and inline-weight memory
  // (aclmdlQuerySizeFromMem, then aclmdlLoadFromMemWithMem or a config
  // handle's WORKSPACE/WEIGHT attributes).
  kDelegate,
  // As kDelegate, but the delegates of one method share one work buffer:
  // a method runs its delegates one after another.
  kShared,
};

// "acl", "delegate" or "shared". Anything else is InvalidArgument, logged
// with the accepted values and where the value came from (`source`).
executorch::runtime::Result<WorkspaceMode> parse_workspace_mode(
    const char* value, const char* source);

const char* workspace_mode_name(WorkspaceMode mode);

}  // namespace executorch::backends::ascend
