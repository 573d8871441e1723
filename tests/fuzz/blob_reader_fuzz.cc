// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// libFuzzer harness for the delegate blob codec (runtime/delegate_blob.cpp):
// any byte string must give a blob or an error, and a blob that parses must
// satisfy the invariants the backend relies on in init() and write back to
// the same bytes.
#include <executorch/runtime/platform/runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "delegate_blob.h"

using executorch::backends::ascend::DelegateBlob;
using executorch::backends::ascend::kBlobMaxKeyBytes;
using executorch::backends::ascend::read_delegate_blob;
using executorch::backends::ascend::write_delegate_blob;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // ET_LOG needs the platform layer initialised.
  executorch::runtime::runtime_init();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto result = read_delegate_blob(data, size);
  if (!result.ok()) return 0;
  const DelegateBlob& blob = result.get();
  // The reader documents these as rejected; a blob that slips through would
  // look up an empty or truncated named-data key.
  if (blob.om_key.empty() || blob.om_key.size() > kBlobMaxKeyBytes ||
      blob.om_key.find('\0') != std::string::npos) {
    std::abort();
  }
  const auto again = write_delegate_blob(blob);
  if (again.size() != size || std::memcmp(again.data(), data, size) != 0) {
    std::abort();
  }
  return 0;
}
