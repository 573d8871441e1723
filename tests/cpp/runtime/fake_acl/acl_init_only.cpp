// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// A broken ACL library for tests: it exports aclInit and nothing else, so
// the backend must report the first missing symbol by name.
#include <acl_api.h>

extern "C" __attribute__((visibility("default"))) aclError aclInit(
    const char*) {
  return ACL_SUCCESS;
}
