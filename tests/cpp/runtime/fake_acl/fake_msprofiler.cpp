// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// A test double of CANN's libmsprofiler.so, where real CANN keeps the
// profiling API (acl_prof.h) apart from the ACL library: it exports the
// RUNTIME_PROF rows of acl_functions.def, each doing nothing. Built beside the
// fake CANN libraries (which lack them), so runtime_fake_cann checks that the
// backend finds the profiling API there (docs/runtime.md, "Profiling").
#include <acl_api.h>

#define FAKE_PROF_RUNTIME(ret, name, params)
#define FAKE_PROF_RUNTIME_OPTIONAL(ret, name, params)
#define FAKE_PROF_EMULATED(ret, name, params)
#define FAKE_PROF_RUNTIME_PROF(ret, name, params)                     \
  extern "C" __attribute__((visibility("default"))) ret name params { \
    return {};                                                        \
  }
#define ACL_FUNCTION(ret, name, params, user, faults) \
  FAKE_PROF_##user(ret, name, params)
#include <acl_functions.def>
#undef ACL_FUNCTION
