// Reader of the delegate blob (`processed_bytes`), docs/blob-format.md.
// Every read is bounds-checked: a malformed blob is an error, never an
// out-of-bounds read.
#pragma once

#include <executorch/runtime/core/exec_aten/exec_aten.h>
#include <executorch/runtime/core/result.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace executorch::backends::ascend {

inline constexpr char kBlobMagic[4] = {'A', 'S', 'C', 'B'};
inline constexpr uint32_t kBlobVersion = 1;
inline constexpr uint32_t kBlobFlagEmulatorOm = 1u << 0;
inline constexpr uint32_t kBlobMaxStringBytes = 4096;
inline constexpr uint32_t kBlobMaxTensors = 1024;
inline constexpr uint32_t kBlobMaxRank = 16;

// One delegate input or output as the AOT side saw it.
struct BlobTensor {
  std::string name;
  executorch::aten::ScalarType scalar_type =
      executorch::aten::ScalarType::Float;
  std::vector<int64_t> dims;
};

struct DelegateBlob {
  uint32_t version = 0;
  uint32_t flags = 0;
  int32_t device_id = 0;
  std::string om_key;
  std::string soc_version;
  std::string atc;
  std::string precision_mode;
  std::vector<BlobTensor> inputs;
  std::vector<BlobTensor> outputs;

  bool om_built_by_emulator() const {
    return (flags & kBlobFlagEmulatorOm) != 0;
  }
};

// Parses a version-1 blob. Errors:
//   DelegateInvalidCompatibility  a version other than kBlobVersion;
//   InvalidProgram                anything else malformed (logged).
executorch::runtime::Result<DelegateBlob> read_delegate_blob(const void* data,
                                                             size_t size);

}  // namespace executorch::backends::ascend
