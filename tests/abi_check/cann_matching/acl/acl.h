/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 the executorch-ascend authors. */
/* A fake CANN include folder for tests/python/test_abi_check.py, hand-written from the
 * documented AscendCL API (not from CANN's headers): it agrees with acl/acl_api.h, in the forms
 * CANN uses (static const int and #define error codes, uint32_t graph-executor codes, tagged
 * enums, parameter names left out), split across the headers CANN's acl/acl.h pulls in. */
#ifndef FAKE_CANN_ACL_H_
#define FAKE_CANN_ACL_H_

#include "acl_rt.h"
#include "acl_mdl.h"

#endif
