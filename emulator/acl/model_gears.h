// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Shape gears (atc --dynamic_batch_size / --dynamic_dims): reading the gear
// input buffer, shared by the Set* calls (model_gears.cc) and execute.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "acl_api.h"
#include "ascend_emu/model.h"

namespace ascend_emu::acl {

// "1, 2, 4" (batch) or "[1,16], [8,32]" (dims): the gears, for messages.
std::string GearList(const ascend_emu::GearTable& table);

// The gear whose values equal `values`, or -1.
int64_t FindGear(const ascend_emu::GearTable& table,
                 const std::vector<uint64_t>& values);

// Bytes per value in a gear input buffer of `size` bytes holding `count`
// values: 8 (uint64) when it has room for them, else 4 (uint32), as CANN
// writes them.
size_t GearElementSize(size_t size, size_t count);

// The gear a gear input buffer (`data`, `size` bytes, already checked as
// holding at least 4 bytes per value) selects: ACL_SUCCESS and *gear, or
// ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID with a message listing the gears.
aclError SelectGear(uint32_t model_id, const ascend_emu::Model& model,
                    const void* data, size_t size, size_t* gear);

}  // namespace ascend_emu::acl
