// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The I/O half of a delegate: one slot per model input and output, built from
// the loaded model's own description (aclmdlDesc), with the device memory and
// the two ACL datasets behind them. bind() allocates everything once; a run
// checks the ExecuTorch tensors against the slots and copies, allocating
// nothing.
#pragma once

#include <executorch/runtime/core/evalue.h>
#include <executorch/runtime/core/exec_aten/util/tensor_util.h>
#include <executorch/runtime/core/span.h>

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "acl_model.h"

namespace executorch::backends::ascend {

class IoBinding {
 public:
  // Reads every input and output of `model`'s description (name, dtype,
  // static shape, byte size), allocates device memory for each and builds
  // the datasets. The model must outlive the binding.
  executorch::runtime::Error bind(const AclModel& model);

  // args: the delegate's inputs then outputs. Checks the count, each input
  // against its slot and each output (resized to its slot's shape).
  executorch::runtime::Error check_args(
      executorch::runtime::Span<executorch::runtime::EValue*> args) const;
  // Host to device for every input; device to host for every output. Only
  // after check_args succeeded for the same args.
  executorch::runtime::Error copy_inputs(
      executorch::runtime::Span<executorch::runtime::EValue*> args) const;
  executorch::runtime::Error copy_outputs(
      executorch::runtime::Span<executorch::runtime::EValue*> args) const;

  aclmdlDataset* input_dataset() const { return input_dataset_.get(); }
  aclmdlDataset* output_dataset() const { return output_dataset_.get(); }

 private:
  struct Slot {
    std::string name;
    executorch::aten::ScalarType scalar_type;
    size_t rank = 0;
    std::array<executorch::aten::SizesType,
               executorch::runtime::kTensorDimensionLimit>
        sizes{};
    size_t nbytes = 0;
    DeviceMemory device;
  };
  enum class Role { kInput, kOutput };

  executorch::runtime::Error read_slots(Role role, std::vector<Slot>& slots);
  executorch::runtime::Error allocate(Role role, std::vector<Slot>& slots,
                                      Dataset& dataset);
  executorch::runtime::Error check_tensor(
      Role role, size_t index, executorch::runtime::EValue& value) const;

  const AclModel* model_ = nullptr;
  // Declaration order is release order reversed: datasets, then buffers.
  std::vector<Slot> inputs_;
  std::vector<Slot> outputs_;
  Dataset input_dataset_;
  Dataset output_dataset_;
};

}  // namespace executorch::backends::ascend
