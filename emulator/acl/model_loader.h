// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The one model loader behind every load call (aclmdlLoadFromFile,
// aclmdlLoadFromMem, aclmdlLoadFromMemWithMem, aclmdlLoadWithConfig): each
// turns its arguments into a LoadRequest.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "acl_api.h"
#include "external_weights.h"
#include "handles.h"
#include "state.h"

namespace ascend_emu::acl {

struct LoadRequest {
  // The .om image, already checked by CheckModelBytes (host memory, or
  // device memory on SoC boards).
  const void* data = nullptr;
  size_t size = 0;
  // Caller device memory for work and inline weights; nullptr leaves that
  // memory to the emulator (charged to the device), as CANN allows.
  void* work = nullptr;
  size_t work_size = 0;
  void* weight = nullptr;
  size_t weight_size = 0;
  // Memory bound to external weight files (aclmdlSetExternalWeightAddress);
  // nullptr when the call has no config handle.
  const std::map<std::string, ExternalWeightAddress>* bound = nullptr;
  // Where unbound external weight files are read from.
  WeightFolder folder;
};

// Loads the model in the current context: parses its tables once, binds
// its external weight files, checks caller memory and the device's room,
// copies the inline weights once from the image to device memory (the
// caller's weight memory when given, else memory charged to the device),
// validates every op, and registers it with the caller allocations it uses
// pinned. Sets *model_id on success; on failure nothing is left behind.
aclError LoadModel(State& state, const LoadRequest& request,
                   uint32_t* model_id);

// aclmdlQuerySizeFromMem's answer: the work and inline weight memory the
// model needs (external weight files not included), read from the parsed
// tables without loading anything (the ops are validated at load).
// ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID on a bad image.
aclError QueryModelSizes(const State& state, const void* data, size_t size,
                         size_t* work_size, size_t* weight_size);

// An .om file mapped read-only: the loader reads it in place (its weights
// go from the page cache straight to device memory), never into a buffer.
class MappedModelFile {
 public:
  MappedModelFile() = default;
  ~MappedModelFile();
  MappedModelFile(const MappedModelFile&) = delete;
  MappedModelFile& operator=(const MappedModelFile&) = delete;

  const void* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  friend aclError MapModelFile(const char* path, MappedModelFile* file);
  void* data_ = nullptr;
  size_t size_ = 0;
};

// Maps a whole .om file: ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID if unreadable
// or not a regular file, ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID if empty.
aclError MapModelFile(const char* path, MappedModelFile* file);

// The folder real CANN reads the external weights of a model loaded from
// `om_path` from: "weight" beside the file.
std::string WeightFolderBeside(const std::string& om_path);

}  // namespace ascend_emu::acl
