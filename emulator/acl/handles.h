// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// What the opaque ACL handles point to. Every handle a caller passes in is
// looked up in the registry (state.h) before it is dereferenced, so a stale
// or forged handle is an error, never a wild read.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "acl_api.h"
#include "ascend_emu/model.h"

// The ACL object types are declared (incomplete) at global scope by
// acl_api.h; the emulator completes them here.
struct aclDataBuffer {
  void* data = nullptr;
  size_t size = 0;
};

struct aclmdlDataset {
  // Borrowed: the caller keeps ownership of each buffer (as in real CANN).
  std::vector<aclDataBuffer*> buffers;
};

struct aclmdlDesc {
  // A copy, so a description stays readable after its model is unloaded.
  std::vector<ascend_emu::IoDesc> inputs;
  std::vector<ascend_emu::IoDesc> outputs;
};

namespace ascend_emu::acl {

// aclrtContext points to one of these.
struct ContextRec {
  uint64_t serial = 0;  // unique for the process, never reused
  int32_t device = 0;
  bool is_default = false;  // the device's default context (aclrtSetDevice)
};

// aclrtStream points to one of these.
struct StreamRec {
  uint64_t serial = 0;
  ContextRec* context = nullptr;
};

struct DeviceAlloc {
  size_t size = 0;  // bytes the caller asked for: the checked bound
  int32_t device = 0;
  uint64_t context_serial = 0;
};

struct HostAlloc {
  size_t size = 0;
};

struct ModelRec {
  uint32_t id = 0;
  ContextRec* context = nullptr;
  int32_t device = 0;
  std::unique_ptr<ascend_emu::Model> model;
  // Caller device memory the model runs in (aclmdlLoadFromMemWithMem), or
  // nullptr when the model uses memory it allocated at load.
  void* work = nullptr;
  // Device memory charged to the device for emulator-managed work/weights.
  size_t charged_bytes = 0;
};

struct DeviceRec {
  int32_t set_count = 0;  // aclrtSetDevice minus aclrtResetDevice calls
  ContextRec* default_context = nullptr;
  size_t used_bytes = 0;  // live allocations plus model-managed memory
};

}  // namespace ascend_emu::acl
