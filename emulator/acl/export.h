// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Marks the definition of an exported ACL function. The library is built
// with -fvisibility=hidden (and exports.map), so only definitions carrying
// this attribute are visible to dlsym.
#pragma once

#define ACL_EMU_EXPORT __attribute__((visibility("default")))
// The library's own globals, declared with it in the headers: without it
// GCC assumes an extern object may live in another module and reaches it
// through the GOT (an extra load on the per-inference calls).
#define ACL_EMU_INTERNAL __attribute__((visibility("hidden")))
