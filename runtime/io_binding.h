// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The I/O half of a delegate: one slot per model input and output, built from
// the loaded model's own description (aclmdlDesc), with the device memory and
// the ACL datasets behind them. bind() allocates everything once; a run
// checks the ExecuTorch tensors against the slots and copies, allocating
// nothing.
//
// Device state (a KV cache the partition owns, DeviceStateEntry) is an input
// and an output of the .om that ExecuTorch never sees: its two slots' buffers
// hold the value before and after a call, and the next call swaps them (a
// second pair of datasets with those buffers exchanged), so the state stays
// on the device. Two buffers, because CANN does not promise that an output
// may alias an input.
//
// A model with shape gears (ShapeGears) takes, per call, the gear whose
// input shapes the arguments have; its slots are sized for the largest gear
// and each call copies only the chosen gear's bytes.
//
// A model with dynamic AIPP (dynamic_aipp.h) takes, right after each such
// frame, its parameter tensor: that argument is no copy but the ACL calls
// that fill the frame's ACL_DYNAMIC_AIPP_NAME input; the frame may be
// smaller than its slot (max_src_image_size) and is always copied.
#pragma once

#include <executorch/runtime/core/evalue.h>
#include <executorch/runtime/core/exec_aten/util/tensor_util.h>
#include <executorch/runtime/core/span.h>

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "acl_model.h"
#include "delegate_blob.h"
#include "dynamic_aipp.h"
#include "shape_gears.h"

namespace executorch::backends::ascend {

class IoBinding {
 public:
  // Reads every input and output of `model`'s description (name, dtype,
  // static shape, byte size), allocates device memory for each and builds
  // the datasets. The model must outlive the binding.
  // `states` pairs .om inputs and outputs as device state; the other slots
  // are the delegate's arguments, in .om order.
  executorch::runtime::Error bind(const AclModel& model,
                                  const std::vector<DeviceStateEntry>& states);
  // Sets every state to its initial value: zeros, or the named data the
  // blob names (which must have the state's size; with `verify`, also the
  // bytes its key names: content_digest.h). Called once at load.
  executorch::runtime::Error reset_states(
      const executorch::runtime::NamedDataMap* named_data, bool verify);

  // args: the delegate's inputs then outputs (device state excluded).
  // Checks the count, finds the shape gear of the inputs (*gear), checks
  // each input against its slot at that gear and each output (resized to
  // the gear's shape).
  executorch::runtime::Error check_args(
      executorch::runtime::Span<executorch::runtime::EValue*> args,
      size_t* gear) const;
  // Makes `gear` (from check_args) the one the next execute runs, with the
  // documented ACL call, when it is not already.
  executorch::runtime::Error use_gear(size_t gear);
  // Host to device for every input, then (after the execute) device to host
  // for every output, queued on the model's stream with aclrtMemcpyAsync:
  // the caller synchronises the stream once after all of them. Only after
  // check_args succeeded for the same args. With zero_copy(), nothing is
  // copied: the tensors' own memory is bound into the datasets
  // (aclUpdateDataBuffer, only when a tensor's address changed).
  executorch::runtime::Error copy_inputs(
      executorch::runtime::Span<executorch::runtime::EValue*> args);
  executorch::runtime::Error copy_outputs(
      executorch::runtime::Span<executorch::runtime::EValue*> args);
  // RC mode (aclrtGetRunMode == ACL_DEVICE: the NPU shares the host's
  // memory) and a model without shape gears: the model reads the input
  // tensors and writes the output tensors where they are.
  bool zero_copy() const { return zero_copy_; }
  // Undoes advance_states() (a run that failed at synchronisation).
  void retreat_states() { advance_states(); }

  aclmdlDataset* input_dataset() const {
    return datasets_[current_].input.get();
  }
  aclmdlDataset* output_dataset() const {
    return datasets_[current_].output.get();
  }
  // After a successful execute: the outputs just written hold the state the
  // next call reads.
  void advance_states() {
    if (!states_.empty()) current_ ^= 1;
  }

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
  // What a delegate input argument is: a tensor for its slot, a dynamic
  // AIPP frame, or a dynamic AIPP parameter tensor (aipp_[arg_aipp_[a]]).
  enum class ArgKind { kTensor, kAippFrame, kAippParams };
  struct Datasets {
    Dataset input;
    Dataset output;
  };

  executorch::runtime::Error read_slots(Role role, std::vector<Slot>& slots);
  // slot->rank, sizes and nbytes from `dims` (-1: a gear dim, *dynamic).
  executorch::runtime::Error size_slot(const aclmdlIODims& dims,
                                       const char* what, size_t i, Slot* slot,
                                       bool* dynamic);
  executorch::runtime::Error check_states();
  executorch::runtime::Error allocate(Role role, std::vector<Slot>& slots);
  // swapped: the state slots take each other's buffers.
  executorch::runtime::Error build_datasets(Datasets& datasets, bool swapped);
  // Points slot `slot`'s data buffer (in both dataset pairs) at `data`.
  executorch::runtime::Error bind_memory(Role role, size_t slot, void* data);
  // A dynamic AIPP argument (arg_kind_[a] not kTensor); `frame` the argument
  // before it (a parameter tensor's frame).
  executorch::runtime::Error check_aipp_arg(
      size_t a, executorch::runtime::EValue& value,
      const executorch::runtime::EValue* frame) const;
  executorch::runtime::Error check_tensor(Role role, size_t index,
                                          executorch::runtime::EValue& value,
                                          const TensorShape& shape) const;

  const AclModel* model_ = nullptr;
  ShapeGears gears_;
  size_t selected_gear_ = SIZE_MAX;
  std::vector<DeviceStateEntry> states_;
  // Slot indices of the delegate's arguments: the slots that are no state,
  // a dynamic AIPP data slot right after its frame's.
  std::vector<size_t> arg_inputs_;
  std::vector<ArgKind> arg_kind_;
  std::vector<size_t> arg_aipp_;
  // The model's dynamic AIPP inputs, each with its aclmdlAIPP.
  std::vector<DynamicAippInput> aipp_;
  std::vector<size_t> arg_outputs_;
  // Declaration order is release order reversed: datasets, then buffers.
  std::vector<Slot> inputs_;
  std::vector<Slot> outputs_;
  // [0]: state read from the input slots' buffers; [1]: swapped.
  std::array<Datasets, 2> datasets_;
  size_t current_ = 0;
  bool zero_copy_ = false;
  // With zero_copy_: the address each slot's data buffer points at.
  std::vector<void*> bound_inputs_;
  std::vector<void*> bound_outputs_;
};

}  // namespace executorch::backends::ascend
