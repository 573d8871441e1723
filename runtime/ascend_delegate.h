// One loaded delegate (the DelegateHandle): an ACL context on one device, the
// loaded .om, its description, device I/O buffers and the two datasets, all
// created once in load() and reused by every run().
#pragma once

#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/evalue.h>
#include <executorch/runtime/core/span.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "acl_library.h"
#include "acl_resources.h"
#include "blob_reader.h"

namespace executorch::backends::ascend {

class AscendDelegate {
 public:
  explicit AscendDelegate(const AclLibrary& library);
  // Makes the delegate's context current, then releases everything in the
  // reverse order of creation.
  ~AscendDelegate();
  AscendDelegate(const AscendDelegate&) = delete;
  AscendDelegate& operator=(const AscendDelegate&) = delete;

  // Sets device `device_id`, creates a context, loads the .om (ACL copies it,
  // so `om` may be freed afterwards), checks the model description against
  // the blob's signature and allocates device buffers and datasets. On error
  // everything created so far is released by the destructor.
  executorch::runtime::Error load(const DelegateBlob& blob, const void* om,
                                  size_t om_size, int32_t device_id);

  // args: the delegate's inputs then outputs. Checks every EValue, copies
  // inputs to the device, executes and copies outputs back. Allocates
  // nothing; serialised per delegate because an ACL model id must not run
  // concurrently.
  executorch::runtime::Error run(
      executorch::runtime::Span<executorch::runtime::EValue*> args);

  int32_t device_id() const { return device_id_; }
  size_t num_inputs() const { return inputs_.size(); }
  size_t num_outputs() const { return outputs_.size(); }

 private:
  // One model input or output: what the blob promised (checked against the
  // .om at load) and the device memory behind it.
  struct IoSlot {
    std::string name;
    executorch::aten::ScalarType scalar_type;
    size_t rank = 0;
    std::array<executorch::aten::SizesType, kBlobMaxRank> sizes{};
    size_t nbytes = 0;
    DeviceMemory device;
  };

  executorch::runtime::Error create_context(int32_t device_id);
  executorch::runtime::Error load_model(const void* om, size_t om_size);
  executorch::runtime::Error check_signature(const DelegateBlob& blob);
  executorch::runtime::Error allocate_io();
  executorch::runtime::Error check_input(
      const executorch::runtime::EValue& value, size_t index) const;
  executorch::runtime::Error prepare_output(executorch::runtime::EValue& value,
                                            size_t index) const;
  executorch::runtime::Error make_current() const;

  const AclLibrary& library_;
  const AclApi* api_;
  int32_t device_id_ = -1;
  std::mutex mutex_;
  // Declaration order is release order reversed: datasets, buffers, desc,
  // model, context, device.
  std::optional<DeviceReference> device_;
  Context context_;
  std::optional<LoadedModelId> model_;
  ModelDesc desc_;
  std::vector<IoSlot> inputs_;
  std::vector<IoSlot> outputs_;
  Dataset input_dataset_;
  Dataset output_dataset_;
};

}  // namespace executorch::backends::ascend
