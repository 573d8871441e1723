// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// libFuzzer harness for AscendBackend::init end to end: a delegate blob and
// the .om it names go through the registered backend (blob reader, compile
// specs, named-data lookups, the weights cache, ACL load through the
// emulator's libascendcl.so, the I/O binding), as ExecuTorch's Method::init
// calls it; a handle that loads is destroyed. Afterwards nothing may be
// alive in the emulator and no named-data buffer may be held.
//
// Input: [u16 little-endian blob length L][L blob bytes][.om bytes]. The .om
// is resealed (size + CRC) so mutations get past the checksum. The named
// data answers every "ascend/om/..." key with the .om, every other key with
// 16380 bytes of weights (the size the seeds' external weight has), so
// blobs naming weights reach the upload and the size checks.
#include <executorch/runtime/backend/interface.h>
#include <executorch/runtime/core/memory_allocator.h>
#include <executorch/runtime/core/named_data_map.h>
#include <executorch/runtime/platform/runtime.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

#include "acl_emu_extras.h"
#include "ascend_emu/om_format.h"

namespace {

using executorch::runtime::Error;
using executorch::runtime::FreeableBuffer;
using executorch::runtime::Result;

constexpr size_t kWeightBytes = 16380;

class FuzzDataMap final : public executorch::runtime::NamedDataMap {
 public:
  FuzzDataMap(const std::vector<uint8_t>& om, const std::vector<uint8_t>& w)
      : om_(om), weights_(w) {}
  int outstanding() const { return outstanding_; }

  Result<const executorch::runtime::TensorLayout> get_tensor_layout(
      std::string_view) const override {
    return Error::NotImplemented;
  }
  Result<FreeableBuffer> get_data(std::string_view key) const override {
    if (key.empty()) return Error::NotFound;
    const std::vector<uint8_t>& bytes =
        key.substr(0, 10) == "ascend/om/" ? om_ : weights_;
    ++outstanding_;
    return FreeableBuffer(
        bytes.data(), bytes.size(),
        [](void* self, void*, size_t) {
          --static_cast<FuzzDataMap*>(self)->outstanding_;
        },
        const_cast<FuzzDataMap*>(this));
  }
  Error load_data_into(std::string_view, void*, size_t) const override {
    return Error::NotImplemented;
  }
  Result<uint32_t> get_num_keys() const override { return 0; }
  Result<const char*> get_key(uint32_t) const override {
    return Error::InvalidArgument;
  }

 private:
  const std::vector<uint8_t>& om_;
  const std::vector<uint8_t>& weights_;
  mutable std::atomic<int> outstanding_{0};
};

void Require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "%s\n", what);
    std::abort();
  }
}

executorch::runtime::BackendInterface* backend = nullptr;

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // The emulator next to this harness, not whatever the environment names.
  setenv("EXECUTORCH_ASCEND_ACL_LIB", EXECUTORCH_ASCEND_FUZZ_ACL_LIB, 1);
  executorch::runtime::runtime_init();
  backend = executorch::runtime::get_backend_class("AscendBackend");
  Require(backend != nullptr && backend->is_available(),
          "AscendBackend is not registered or not available");
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const size_t blob_size = std::min<size_t>(data[0] | (data[1] << 8), size - 2);
  std::vector<uint8_t> blob(data + 2, data + 2 + blob_size);
  std::vector<uint8_t> om(data + 2 + blob_size, data + size);
  ascend_emu::ResealOm(&om);
  std::vector<uint8_t> weights(kWeightBytes);
  for (size_t i = 0; i < weights.size(); ++i) {
    weights[i] = static_cast<uint8_t>(i % 7);
  }
  FuzzDataMap named_data(om, weights);
  std::vector<uint8_t> arena(64 * 1024);
  executorch::runtime::MemoryAllocator allocator(
      static_cast<uint32_t>(arena.size()), arena.data());
  bool blob_freed = false;
  FreeableBuffer processed(
      blob.data(), blob.size(),
      [](void* flag, void*, size_t) { *static_cast<bool*>(flag) = true; },
      &blob_freed);
  executorch::runtime::BackendInitContext context(&allocator, nullptr,
                                                  "forward", &named_data);
  auto handle = backend->init(context, &processed, {});
  if (handle.ok()) backend->destroy(*handle);
  // (FreeableBuffer::Free calls nobody for an empty buffer.)
  Require(blob_freed || blob.empty(), "init did not free the processed blob");
  Require(named_data.outstanding() == 0, "a named-data buffer is still held");
  aclEmuStats stats{};
  Require(aclEmuGetStats(&stats) == 0, "aclEmuGetStats");
  Require(aclEmuLiveObjects(&stats) == 0,
          "ACL objects alive after init + destroy");
  return 0;
}
