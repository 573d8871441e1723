// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "acl_traffic.h"

#include <acl_emu_extras.h>
#include <dlfcn.h>

#include <cstdlib>
#include <vector>

#include "acl_library_data.h"

namespace executorch::backends::ascend::llm {
namespace {

// The names the backend may have loaded ACL under, in its own order
// (docs/runtime.md, "How the backend finds ACL"; the names from
// src/executorch_ascend/acl_library.json, as the backend reads them).
// RTLD_NOLOAD returns a handle only for a library already in the process, so
// whichever matches is the very copy serving the delegates; a bare
// "libascendcl.so" also matches a library loaded by path through its SONAME.
std::vector<std::string> candidate_names() {
  std::vector<std::string> names;
  auto env = [](const char* name) {
    const char* value = std::getenv(name);
    return value != nullptr ? std::string(value) : std::string();
  };
  if (!env(acl_names::kExplicitVariable).empty()) {
    names.push_back(env(acl_names::kExplicitVariable));
  }
  for (const char* home : acl_names::kHomeVariables) {
    if (!env(home).empty()) {
      names.push_back(env(home) + "/" + acl_names::kLibraryFolder + "/" +
                      acl_names::kSingleLibrary);
    }
  }
  names.push_back(acl_names::kSingleLibrary);
  return names;
}

}  // namespace

TrafficReader::TrafficReader() {
  for (const std::string& name : candidate_names()) {
    void* handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
    if (handle == nullptr) {
      continue;
    }
    // The extra reference is kept: the backend never unloads ACL either.
    void* symbol = dlsym(handle, "aclEmuGetStats");
    if (symbol == nullptr) {
      reason_ = "the ACL library has no aclEmuGetStats: not the CANN emulator";
      return;
    }
    get_stats_ = reinterpret_cast<aclEmuGetStatsFn>(symbol);
    get_call_count_ = reinterpret_cast<aclEmuGetCallCountFn>(
        dlsym(handle, "aclEmuGetCallCount"));
    return;
  }
  reason_ =
      "no ACL library is loaded: the program has no AscendBackend delegate";
}

std::optional<Traffic> TrafficReader::read() const {
  if (get_stats_ == nullptr) {
    return std::nullopt;
  }
  aclEmuStats stats{};
  if (get_stats_(&stats) != 0) {
    return std::nullopt;
  }
  uint64_t waits = 0;
  if (get_call_count_ != nullptr &&
      get_call_count_("aclrtSynchronizeStream", &waits) != 0) {
    waits = 0;
  }
  return Traffic{stats.bytes_host_to_device, stats.bytes_device_to_host,
                 stats.executes, waits};
}

}  // namespace executorch::backends::ascend::llm
