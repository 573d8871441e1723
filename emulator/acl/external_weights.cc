// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "external_weights.h"

#include <sys/stat.h>

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "errors.h"

namespace ascend_emu::acl {
namespace {

constexpr size_t kAlignment = 64;  // as device memory (memory.cc)

// The .om's file names for a message: "'a', 'b'" or "none".
std::string ListNames(
    const std::vector<ascend_emu::ExternalWeightDesc>& files) {
  if (files.empty()) return "none";
  std::string names;
  for (const auto& file : files) {
    if (!names.empty()) names += ", ";
    names += "'" + file.name + "'";
  }
  return names;
}

// A weight file name is a plain name inside the folder: never a path that
// could leave it.
bool IsPlainFileName(const std::string& name) {
  return !name.empty() && name != "." && name != ".." &&
         name.find('/') == std::string::npos;
}

aclError CheckBinding(const State& state, const ContextRec* context,
                      const ascend_emu::ExternalWeightDesc& file,
                      const ExternalWeightAddress& address,
                      ResolvedWeights* resolved) {
  if (address.size < file.size_bytes) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "external weight file '%s' has %" PRIu64
                " bytes but the memory bound to it "
                "(aclmdlSetExternalWeightAddress) holds %zu",
                file.name.c_str(), file.size_bytes, address.size);
  }
  // Checked when it was bound; the allocation may have been freed since.
  DevicePointer device = ClassifyPointer(state, address.data);
  if (device.alloc == nullptr || device.remaining < address.size) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "the memory bound to external weight file '%s' (%p, %zu "
                "bytes) is no longer allocated",
                file.name.c_str(), address.data, address.size);
  }
  if (device.alloc->device != context->device) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "the memory bound to external weight file '%s' (%p) is memory "
                "of device %d but the model is loaded on device %d",
                file.name.c_str(), address.data, device.alloc->device,
                context->device);
  }
  resolved->bindings[file.name] = {address.data, address.size};
  resolved->pinned.push_back(device.base);
  return ACL_SUCCESS;
}

aclError ReadWeightFile(const ascend_emu::ExternalWeightDesc& file,
                        const WeightFolder& folder, ResolvedWeights* resolved) {
  if (!IsPlainFileName(file.name)) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "external weight file name '%s' is not a plain file name",
                file.name.c_str());
  }
  const std::string path = folder.path + "/" + file.name;
  FILE* stream = std::fopen(path.c_str(), "rb");
  struct stat info {};
  if (stream == nullptr || fstat(fileno(stream), &info) != 0) {
    const int error = errno;
    if (stream != nullptr) std::fclose(stream);
    return Fail(ACL_ERROR_INVALID_PARAM,
                "cannot read external weight file '%s' (%s): %s", path.c_str(),
                folder.source, std::strerror(error));
  }
  if (!S_ISREG(info.st_mode) ||
      static_cast<uint64_t>(info.st_size) != file.size_bytes) {
    std::fclose(stream);
    return Fail(ACL_ERROR_INVALID_PARAM,
                "external weight file '%s' has %lld bytes but the model "
                "expects %" PRIu64,
                path.c_str(), static_cast<long long>(info.st_size),
                file.size_bytes);
  }
  const size_t size = static_cast<size_t>(file.size_bytes);
  const size_t rounded = (size + kAlignment - 1) / kAlignment * kAlignment;
  AlignedBytes bytes(
      static_cast<uint8_t*>(std::aligned_alloc(kAlignment, rounded)));
  if (bytes == nullptr) {
    std::fclose(stream);
    return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION,
                "the host ran out of memory emulating %zu bytes of device "
                "memory for external weight file '%s'",
                size, path.c_str());
  }
  size_t done = 0;
  while (done < size) {
    const size_t n = std::fread(bytes.get() + done, 1, size - done, stream);
    if (n == 0) break;
    done += n;
  }
  std::fclose(stream);
  if (done != size) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "read error in external weight file '%s' after %zu of %zu "
                "bytes",
                path.c_str(), done, size);
  }
  resolved->bindings[file.name] = {bytes.get(), size};
  resolved->files.push_back(std::move(bytes));
  resolved->file_bytes += size;
  return ACL_SUCCESS;
}

}  // namespace

aclError ResolveExternalWeights(
    const State& state, const ContextRec* context,
    const std::vector<ascend_emu::ExternalWeightDesc>& wanted,
    const std::map<std::string, ExternalWeightAddress>* bound,
    const WeightFolder& folder, ResolvedWeights* resolved) {
  if (bound != nullptr) {
    for (const auto& [name, address] : *bound) {
      bool read = false;
      for (const auto& file : wanted) read = read || file.name == name;
      if (!read) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "aclmdlSetExternalWeightAddress bound '%s', but the model "
                    "reads no external weight file of that name (it reads: "
                    "%s)",
                    name.c_str(), ListNames(wanted).c_str());
      }
    }
  }
  for (const auto& file : wanted) {
    if (bound != nullptr) {
      auto it = bound->find(file.name);
      if (it != bound->end()) {
        // Bound memory takes priority over a folder, as in real CANN.
        if (aclError rc =
                CheckBinding(state, context, file, it->second, resolved)) {
          return rc;
        }
        continue;
      }
    }
    if (folder.path.empty()) {
      return Fail(
          ACL_ERROR_INVALID_PARAM,
          "external weight file '%s' (%" PRIu64
          " bytes) of the model is not bound: bind device memory "
          "holding it with aclmdlSetExternalWeightAddress, or give "
          "its folder with ACL_MDL_WEIGHT_PATH_PTR (aclmdlLoadWithConfig)",
          file.name.c_str(), file.size_bytes);
    }
    if (aclError rc = ReadWeightFile(file, folder, resolved)) return rc;
  }
  return ACL_SUCCESS;
}

}  // namespace ascend_emu::acl
