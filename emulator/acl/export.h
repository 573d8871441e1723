// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Marks the definition of an exported ACL function. The library is built
// with -fvisibility=hidden (and exports.map), so only definitions carrying
// this attribute are visible to dlsym.
#pragma once

#define ACL_EMU_EXPORT __attribute__((visibility("default")))
