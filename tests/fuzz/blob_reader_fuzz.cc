// libFuzzer harness for the delegate blob reader (runtime/blob_reader.cpp):
// any byte string must give a blob or an error, and a blob that parses must
// satisfy the invariants the backend relies on in init().
#include <executorch/runtime/platform/runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "blob_reader.h"

namespace {

using executorch::backends::ascend::DelegateBlob;
using executorch::backends::ascend::kBlobMaxRank;
using executorch::backends::ascend::kBlobMaxStringBytes;
using executorch::backends::ascend::kBlobMaxTensors;
using executorch::backends::ascend::read_delegate_blob;

void CheckTensors(
    const std::vector<executorch::backends::ascend::BlobTensor>& tensors) {
  if (tensors.size() > kBlobMaxTensors) std::abort();
  for (const auto& t : tensors) {
    if (t.name.size() > kBlobMaxStringBytes || t.dims.size() > kBlobMaxRank) {
      std::abort();
    }
    for (int64_t d : t.dims) {
      if (d < 0) std::abort();
    }
  }
}

}  // namespace

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
  // reach ACL with a bad device or an empty named-data key.
  if (blob.device_id < 0 || blob.om_key.empty() ||
      blob.om_key.size() > kBlobMaxStringBytes) {
    std::abort();
  }
  CheckTensors(blob.inputs);
  CheckTensors(blob.outputs);
  return 0;
}
