// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "io_binding.h"

#include <executorch/runtime/core/exec_aten/util/dim_order_util.h>
#include <executorch/runtime/core/exec_aten/util/scalar_type_util.h>
#include <executorch/runtime/core/exec_aten/util/tensor_shape_to_c_string.h>

#include <algorithm>
#include <limits>

#include "acl_dtype.h"
#include "content_digest.h"
#include "log.h"

namespace executorch::backends::ascend {

using executorch::aten::ScalarType;
using executorch::aten::SizesType;
using executorch::aten::Tensor;
using executorch::runtime::ArrayRef;
using executorch::runtime::Error;
using executorch::runtime::EValue;
using executorch::runtime::kTensorDimensionLimit;
using executorch::runtime::Result;
using executorch::runtime::Span;

namespace {

const char* role_name(bool input) { return input ? "input" : "output"; }

// ExecuTorch tensors without a dim order array are in the default order.
template <typename SlotT>
std::vector<TensorShape> shapes_of(const std::vector<SlotT>& slots) {
  std::vector<TensorShape> shapes(slots.size());
  for (size_t i = 0; i < slots.size(); ++i) {
    shapes[i].rank = slots[i].rank;
    shapes[i].sizes = slots[i].sizes;
  }
  return shapes;
}

size_t numel(const TensorShape& shape) {
  size_t n = 1;
  for (size_t d = 0; d < shape.rank; ++d) {
    n *= static_cast<size_t>(shape.sizes[d]);
  }
  return n;
}

bool has_default_dim_order(const Tensor& tensor) {
  const auto dim_order = tensor.dim_order();
  return dim_order.data() == nullptr ||
         executorch::runtime::is_contiguous_dim_order(dim_order.data(),
                                                      dim_order.size());
}

}  // namespace

Error IoBinding::bind(const AclModel& model,
                      const std::vector<DeviceStateEntry>& states) {
  model_ = &model;
  states_ = states;
  current_ = 0;
  selected_gear_ = SIZE_MAX;
  Error error = read_slots(Role::kInput, inputs_);
  if (error == Error::Ok) error = read_slots(Role::kOutput, outputs_);
  if (error == Error::Ok) {
    error = gears_.read(model, shapes_of(inputs_), shapes_of(outputs_));
  }
  if (error == Error::Ok) {
    std::vector<size_t> sizes(inputs_.size());
    for (size_t i = 0; i < inputs_.size(); ++i) sizes[i] = inputs_[i].nbytes;
    error = find_dynamic_aipp(model, sizes, &aipp_);
  }
  if (error == Error::Ok && !aipp_.empty() && gears_.dynamic()) {
    ASCEND_LOG(Error,
               "a model with both dynamic AIPP and shape gears is not "
               "supported");
    error = Error::NotSupported;
  }
  if (error == Error::Ok) error = check_states();
  if (error == Error::Ok) error = allocate(Role::kInput, inputs_);
  if (error == Error::Ok) error = allocate(Role::kOutput, outputs_);
  if (error == Error::Ok) error = build_datasets(datasets_[0], false);
  if (error == Error::Ok && !states_.empty()) {
    error = build_datasets(datasets_[1], true);
  }
  // Both dataset pairs share the gear input's buffer.
  if (error == Error::Ok) {
    error = gears_.read_output_shapes(model, datasets_[0].input.get());
  }
  if (error == Error::Ok) {
    zero_copy_ = model.device_run_mode() && !gears_.dynamic();
    bound_inputs_.resize(inputs_.size());
    bound_outputs_.resize(outputs_.size());
    for (size_t i = 0; i < inputs_.size(); ++i) {
      bound_inputs_[i] = inputs_[i].device.get();
    }
    for (size_t i = 0; i < outputs_.size(); ++i) {
      bound_outputs_[i] = outputs_[i].device.get();
    }
  }
  return error;
}

Error IoBinding::use_gear(size_t gear) {
  if (!gears_.dynamic() || gear == selected_gear_) return Error::Ok;
  const Error error =
      gears_.select(*model_, datasets_[current_].input.get(), gear);
  selected_gear_ = error == Error::Ok ? gear : SIZE_MAX;
  return error;
}

Error IoBinding::check_states() {
  std::vector<bool> state_input(inputs_.size(), false);
  std::vector<bool> state_output(outputs_.size(), false);
  for (const DeviceStateEntry& state : states_) {
    ASCEND_CHECK_OR_RETURN_ERROR(
        state.input_index < inputs_.size() &&
            state.output_index < outputs_.size(),
        InvalidProgram,
        "state '%s' names input %u and output %u; the .om has %zu inputs and "
        "%zu outputs",
        state.name.c_str(), state.input_index, state.output_index,
        inputs_.size(), outputs_.size());
    const Slot& in = inputs_[state.input_index];
    const Slot& out = outputs_[state.output_index];
    const bool same_shape =
        in.rank == out.rank &&
        std::equal(in.sizes.begin(), in.sizes.begin() + in.rank,
                   out.sizes.begin());
    ASCEND_CHECK_OR_RETURN_ERROR(
        in.scalar_type == out.scalar_type && same_shape &&
            in.nbytes == state.size && out.nbytes == state.size,
        InvalidProgram,
        "state '%s': input %u ('%s', %zu bytes) and output %u ('%s', %zu "
        "bytes) of the .om must have the same dtype and shape and the "
        "state's %llu bytes",
        state.name.c_str(), state.input_index, in.name.c_str(), in.nbytes,
        state.output_index, out.name.c_str(), out.nbytes,
        static_cast<unsigned long long>(state.size));
    state_input[state.input_index] = true;
    state_output[state.output_index] = true;
  }
  arg_inputs_.clear();
  arg_kind_.clear();
  arg_aipp_.clear();
  arg_outputs_.clear();
  std::vector<bool> aipp_data(inputs_.size(), false);
  for (const DynamicAippInput& a : aipp_) {
    ASCEND_CHECK_OR_RETURN_ERROR(
        !state_input[a.frame] && !state_input[a.data], InvalidProgram,
        "dynamic AIPP input %zu (or its data input %zu) is also device state",
        a.frame, a.data);
    aipp_data[a.data] = true;
  }
  for (size_t i = 0; i < inputs_.size(); ++i) {
    const bool gear_input = gears_.dynamic() && i == gears_.gear_input();
    if (state_input[i] || gear_input || aipp_data[i]) continue;
    size_t k = 0;
    while (k < aipp_.size() && aipp_[k].frame != i) ++k;
    arg_inputs_.push_back(i);
    arg_kind_.push_back(k < aipp_.size() ? ArgKind::kAippFrame
                                         : ArgKind::kTensor);
    arg_aipp_.push_back(k);
    if (k < aipp_.size()) {
      // The frame's parameter tensor comes right after it.
      arg_inputs_.push_back(aipp_[k].data);
      arg_kind_.push_back(ArgKind::kAippParams);
      arg_aipp_.push_back(k);
    }
  }
  for (size_t i = 0; i < outputs_.size(); ++i) {
    if (!state_output[i]) arg_outputs_.push_back(i);
  }
  return Error::Ok;
}

Error IoBinding::reset_states(
    const executorch::runtime::NamedDataMap* named_data, bool verify) {
  const AclApi& api = model_->api();
  for (const DeviceStateEntry& state : states_) {
    // The buffer the next call reads.
    void* device = current_ == 0 ? inputs_[state.input_index].device.get()
                                 : outputs_[state.output_index].device.get();
    const size_t size = static_cast<size_t>(state.size);
    if (state.initial_key.empty()) {
      const aclError error = api.aclrtMemset(device, size, 0, size);
      ASCEND_CHECK_OR_RETURN_ERROR(
          error == ACL_SUCCESS, InvalidState,
          "aclrtMemset zeroing state '%s' (%zu bytes) on device %d failed "
          "with %d: %s",
          state.name.c_str(), size, model_->device_id(), error,
          model_->library().recent_error());
      continue;
    }
    ASCEND_CHECK_OR_RETURN_ERROR(
        named_data != nullptr, NotFound,
        "no named data map holds the initial value of state '%s'",
        state.name.c_str());
    Result<executorch::runtime::FreeableBuffer> initial =
        named_data->get_data(state.initial_key.c_str());
    ASCEND_CHECK_OR_RETURN_ERROR(
        initial.ok(), NotFound,
        "named data '%s' (the initial value of state '%s') not found; if the "
        "model was exported with an external data tag, load its .ptd file "
        "with the .pte",
        state.initial_key.c_str(), state.name.c_str());
    ASCEND_CHECK_OR_RETURN_ERROR(
        initial->size() == size && initial->data() != nullptr, InvalidProgram,
        "named data '%s' has %zu bytes; state '%s' needs %zu",
        state.initial_key.c_str(), initial->size(), state.name.c_str(), size);
    if (verify) {
      const Error checked =
          verify_content(initial->data(), size, state.initial_key,
                         "the initial value of state '" + state.name + "'");
      if (checked != Error::Ok) {
        return checked;
      }
    }
    const aclError error = api.aclrtMemcpy(device, size, initial->data(), size,
                                           ACL_MEMCPY_HOST_TO_DEVICE);
    ASCEND_CHECK_OR_RETURN_ERROR(
        error == ACL_SUCCESS, InvalidState,
        "aclrtMemcpy of the initial value of state '%s' (%zu bytes) to device "
        "%d failed with %d: %s",
        state.name.c_str(), size, model_->device_id(), error,
        model_->library().recent_error());
  }
  return Error::Ok;
}

Error IoBinding::size_slot(const aclmdlIODims& dims, const char* what, size_t i,
                           Slot* slot, bool* dynamic) {
  *dynamic = false;
  ASCEND_CHECK_OR_RETURN_ERROR(
      dims.dimCount <= kTensorDimensionLimit, NotSupported,
      "%s %zu ('%s') has rank %zu; ExecuTorch tensors have at most %zu", what,
      i, slot->name.c_str(), dims.dimCount, kTensorDimensionLimit);
  slot->rank = dims.dimCount;
  size_t numel = 1;
  for (size_t d = 0; d < slot->rank; ++d) {
    const int64_t dim = dims.dims[d];
    if (dim == -1) {
      // A shape gear decides (ShapeGears checks the model has them).
      slot->sizes[d] = -1;
      *dynamic = true;
      continue;
    }
    ASCEND_CHECK_OR_RETURN_ERROR(
        dim >= 0, NotSupported, "%s %zu ('%s') has dim %zu = %lld in the .om",
        what, i, slot->name.c_str(), d, static_cast<long long>(dim));
    ASCEND_CHECK_OR_RETURN_ERROR(
        dim <= std::numeric_limits<SizesType>::max() &&
            (dim == 0 || numel <= std::numeric_limits<size_t>::max() /
                                      static_cast<size_t>(dim)),
        NotSupported, "%s %zu ('%s') is too large (dim %zu = %lld)", what, i,
        slot->name.c_str(), d, static_cast<long long>(dim));
    slot->sizes[d] = static_cast<SizesType>(dim);
    numel *= static_cast<size_t>(dim);
  }
  const size_t element = executorch::runtime::elementSize(slot->scalar_type);
  ASCEND_CHECK_OR_RETURN_ERROR(
      numel <= std::numeric_limits<size_t>::max() / element, NotSupported,
      "%s %zu ('%s') size overflows", what, i, slot->name.c_str());
  slot->nbytes = numel * element;
  return Error::Ok;
}

Error IoBinding::read_slots(Role role, std::vector<Slot>& slots) {
  const AclApi& api = model_->api();
  aclmdlDesc* desc = model_->desc();
  const bool input = role == Role::kInput;
  const char* what = role_name(input);
  const size_t count =
      input ? api.aclmdlGetNumInputs(desc) : api.aclmdlGetNumOutputs(desc);
  slots.clear();
  slots.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    Slot slot;
    const char* name = input ? api.aclmdlGetInputNameByIndex(desc, i)
                             : api.aclmdlGetOutputNameByIndex(desc, i);
    slot.name = name != nullptr ? name : "";

    const aclDataType dtype = input ? api.aclmdlGetInputDataType(desc, i)
                                    : api.aclmdlGetOutputDataType(desc, i);
    ASCEND_CHECK_OR_RETURN_ERROR(
        from_acl_dtype(dtype, &slot.scalar_type), DelegateInvalidCompatibility,
        "%s %zu ('%s') of the .om has dtype %s (%d), which no ExecuTorch "
        "tensor holds",
        what, i, slot.name.c_str(), acl_dtype_name(dtype),
        static_cast<int>(dtype));

    aclmdlIODims dims{};
    const aclError dims_error = input ? api.aclmdlGetInputDims(desc, i, &dims)
                                      : api.aclmdlGetOutputDims(desc, i, &dims);
    ASCEND_CHECK_OR_RETURN_ERROR(
        dims_error == ACL_SUCCESS, InvalidState,
        "%s(%s %zu) failed with %d: %s",
        input ? "aclmdlGetInputDims" : "aclmdlGetOutputDims", what, i,
        dims_error, model_->library().recent_error());
    bool dynamic = false;
    Error error = size_slot(dims, what, i, &slot, &dynamic);
    if (error != Error::Ok) return error;
    const size_t om_bytes = input ? api.aclmdlGetInputSizeByIndex(desc, i)
                                  : api.aclmdlGetOutputSizeByIndex(desc, i);
    // An input whose described dims do not give its bytes: a YUV420SP AIPP
    // frame, which CANN describes as the image [N, H, W, 3] though its buffer
    // is [N, H*3/2, W, 1]; aclmdlGetInputDimsV2 gives the buffer's dims
    // (docs/aipp.md).
    if (input && !dynamic && om_bytes != slot.nbytes &&
        api.aclmdlGetInputDimsV2 != nullptr &&
        api.aclmdlGetInputDimsV2(desc, i, &dims) == ACL_SUCCESS) {
      error = size_slot(dims, what, i, &slot, &dynamic);
      if (error != Error::Ok) return error;
    }
    // A slot with gear dims holds the largest gear: the .om's size.
    if (dynamic) slot.nbytes = om_bytes;
    ASCEND_CHECK_OR_RETURN_ERROR(
        om_bytes == slot.nbytes, InvalidProgram,
        "%s %zu ('%s'): the .om says %zu bytes, its dtype and shape give %zu",
        what, i, slot.name.c_str(), om_bytes, slot.nbytes);
    slots.push_back(std::move(slot));
  }
  return Error::Ok;
}

Error IoBinding::allocate(Role role, std::vector<Slot>& slots) {
  const AclApi& api = model_->api();
  for (size_t i = 0; i < slots.size(); ++i) {
    Slot& slot = slots[i];
    // ACL rejects zero-byte allocations; an empty tensor still needs a
    // distinct buffer in the dataset.
    const size_t alloc_bytes = slot.nbytes == 0 ? 1 : slot.nbytes;
    void* memory = nullptr;
    const aclError error =
        api.aclrtMalloc(&memory, alloc_bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    ASCEND_CHECK_OR_RETURN_ERROR(
        error == ACL_SUCCESS && memory != nullptr,
        DelegateMemoryAllocationFailed,
        "aclrtMalloc(%zu bytes) for %s %zu ('%s') on device %d failed with "
        "%d: %s",
        alloc_bytes, role_name(role == Role::kInput), i, slot.name.c_str(),
        model_->device_id(), error, model_->library().recent_error());
    slot.device = DeviceMemory(&api, memory);
  }
  return Error::Ok;
}

Error IoBinding::build_datasets(Datasets& datasets, bool swapped) {
  const AclApi& api = model_->api();
  std::vector<void*> input_memory(inputs_.size());
  std::vector<void*> output_memory(outputs_.size());
  for (size_t i = 0; i < inputs_.size(); ++i) {
    input_memory[i] = inputs_[i].device.get();
  }
  for (size_t i = 0; i < outputs_.size(); ++i) {
    output_memory[i] = outputs_[i].device.get();
  }
  if (swapped) {
    for (const DeviceStateEntry& state : states_) {
      std::swap(input_memory[state.input_index],
                output_memory[state.output_index]);
    }
  }
  if (!datasets.input.create(&api) || !datasets.output.create(&api)) {
    return Error::InvalidState;
  }
  datasets.input.reserve(inputs_.size());
  datasets.output.reserve(outputs_.size());
  for (size_t i = 0; i < inputs_.size(); ++i) {
    if (!datasets.input.add(input_memory[i], inputs_[i].nbytes)) {
      return Error::InvalidState;
    }
  }
  for (size_t i = 0; i < outputs_.size(); ++i) {
    if (!datasets.output.add(output_memory[i], outputs_[i].nbytes)) {
      return Error::InvalidState;
    }
  }
  return Error::Ok;
}

Error IoBinding::check_tensor(Role role, size_t index, EValue& value,
                              const TensorShape& shape) const {
  const bool input = role == Role::kInput;
  const Slot& slot = input ? inputs_[index] : outputs_[index];
  const char* what = role_name(input);
  ASCEND_CHECK_OR_RETURN_ERROR(value.isTensor(), InvalidArgument,
                               "%s %zu ('%s') is not a tensor (tag %d)", what,
                               index, slot.name.c_str(),
                               static_cast<int>(value.tag));
  Tensor& tensor = value.toTensor();
  ASCEND_CHECK_OR_RETURN_ERROR(
      tensor.scalar_type() == slot.scalar_type, InvalidArgument,
      "%s %zu ('%s') has dtype %s; the compiled model has %s", what, index,
      slot.name.c_str(), executorch::runtime::toString(tensor.scalar_type()),
      executorch::runtime::toString(slot.scalar_type));
  if (!input) {
    // Outputs take the model's shape (at the gear); inputs must have it.
    ASCEND_CHECK_OR_RETURN_ERROR(
        executorch::runtime::resize_tensor(
            tensor, ArrayRef<SizesType>(shape.sizes.data(), shape.rank)) ==
            Error::Ok,
        InvalidArgument,
        "output %zu ('%s') cannot be resized to the model's rank %zu shape",
        index, slot.name.c_str(), shape.rank);
  }
  bool same_shape = static_cast<size_t>(tensor.dim()) == shape.rank;
  for (size_t d = 0; same_shape && d < shape.rank; ++d) {
    same_shape = tensor.size(d) == shape.sizes[d];
  }
  if (!same_shape) {
    const auto got = executorch::runtime::tensor_shape_to_c_string(
        Span<const SizesType>(tensor.sizes().data(), tensor.sizes().size()));
    const auto want = executorch::runtime::tensor_shape_to_c_string(
        Span<const SizesType>(shape.sizes.data(), shape.rank));
    ASCEND_LOG(Error,
               "%s %zu ('%s') has shape %s; the compiled model needs the "
               "static shape %s",
               what, index, slot.name.c_str(), got.data(), want.data());
    return Error::InvalidArgument;
  }
  ASCEND_CHECK_OR_RETURN_ERROR(
      has_default_dim_order(tensor), InvalidArgument,
      "%s %zu ('%s') is not in the contiguous default dim order", what, index,
      slot.name.c_str());
  const size_t nbytes =
      numel(shape) * executorch::runtime::elementSize(slot.scalar_type);
  const void* data =
      input ? tensor.const_data_ptr() : tensor.mutable_data_ptr();
  ASCEND_CHECK_OR_RETURN_ERROR(
      tensor.nbytes() == nbytes && nbytes <= slot.nbytes &&
          (nbytes == 0 || data != nullptr),
      InvalidArgument, "%s %zu ('%s') has no storage of %zu bytes", what, index,
      slot.name.c_str(), nbytes);
  return Error::Ok;
}

Error IoBinding::check_aipp_arg(size_t a, EValue& value,
                                const EValue* frame) const {
  const size_t slot = arg_inputs_[a];
  ASCEND_CHECK_OR_RETURN_ERROR(value.isTensor(), InvalidArgument,
                               "input %zu is not a tensor (tag %d)", a,
                               static_cast<int>(value.tag));
  const Tensor& tensor = value.toTensor();
  const DynamicAippInput& aipp = aipp_[arg_aipp_[a]];
  if (arg_kind_[a] == ArgKind::kAippParams) {
    // The frame is argument a - 1 (check_states).
    const size_t frame_bytes =
        frame != nullptr && frame->isTensor() ? frame->toTensor().nbytes() : 0;
    return check_aipp_params(aipp, tensor, a, frame_bytes);
  }
  const Slot& s = inputs_[slot];
  ASCEND_CHECK_OR_RETURN_ERROR(
      tensor.scalar_type() == ScalarType::Byte &&
          has_default_dim_order(tensor) && tensor.nbytes() <= s.nbytes &&
          (tensor.nbytes() == 0 || tensor.const_data_ptr() != nullptr),
      InvalidArgument,
      "input %zu ('%s') is a dynamic AIPP frame: a contiguous uint8 tensor of "
      "at most %zu bytes (max_src_image_size), got dtype %s, %zu bytes",
      a, s.name.c_str(), s.nbytes,
      executorch::runtime::toString(tensor.scalar_type()), tensor.nbytes());
  return Error::Ok;
}

Error IoBinding::check_args(Span<EValue*> args, size_t* gear) const {
  const size_t expected = arg_inputs_.size() + arg_outputs_.size();
  ASCEND_CHECK_OR_RETURN_ERROR(
      args.size() == expected, InvalidArgument,
      "got %zu arguments, the delegate takes %zu inputs and %zu outputs",
      args.size(), arg_inputs_.size(), arg_outputs_.size());
  for (size_t i = 0; i < expected; ++i) {
    ASCEND_CHECK_OR_RETURN_ERROR(args[i] != nullptr, InvalidArgument,
                                 "argument %zu is null", i);
  }
  *gear = 0;
  if (gears_.dynamic()) {
    for (size_t a = 0; a < arg_inputs_.size(); ++a) {
      ASCEND_CHECK_OR_RETURN_ERROR(args[a]->isTensor(), InvalidArgument,
                                   "input %zu is not a tensor", arg_inputs_[a]);
    }
    *gear = gears_.find(arg_inputs_, [&](size_t slot) {
      size_t a = 0;
      while (arg_inputs_[a] != slot) ++a;
      const Tensor& tensor = args[a]->toTensor();
      TensorShape shape;
      shape.rank = std::min<size_t>(tensor.dim(), kTensorDimensionLimit);
      for (size_t d = 0; d < shape.rank; ++d) shape.sizes[d] = tensor.size(d);
      return shape;
    });
    if (*gear == gears_.count()) {
      for (size_t a = 0; a < arg_inputs_.size(); ++a) {
        const Tensor& tensor = args[a]->toTensor();
        const auto got =
            executorch::runtime::tensor_shape_to_c_string(Span<const SizesType>(
                tensor.sizes().data(), tensor.sizes().size()));
        ASCEND_LOG(Error, "input %zu ('%s') has shape %s", arg_inputs_[a],
                   inputs_[arg_inputs_[a]].name.c_str(), got.data());
      }
      ASCEND_LOG(Error,
                 "these input shapes are none of the model's %zu shape gears "
                 "(atc --dynamic_batch_size / --dynamic_dims); they are:",
                 gears_.count());
      gears_.log_gears("AscendBackend");
      return Error::InvalidArgument;
    }
  }
  for (size_t a = 0; a < arg_inputs_.size(); ++a) {
    const size_t slot = arg_inputs_[a];
    if (arg_kind_[a] != ArgKind::kTensor) {
      const Error error =
          check_aipp_arg(a, *args[a], a > 0 ? args[a - 1] : nullptr);
      if (error != Error::Ok) return error;
      continue;
    }
    const Error error =
        check_tensor(Role::kInput, slot, *args[a], gears_.input(*gear, slot));
    if (error != Error::Ok) return error;
  }
  for (size_t a = 0; a < arg_outputs_.size(); ++a) {
    const size_t slot = arg_outputs_[a];
    const Error error =
        check_tensor(Role::kOutput, slot, *args[arg_inputs_.size() + a],
                     gears_.output(*gear, slot));
    if (error != Error::Ok) return error;
  }
  return Error::Ok;
}

Error IoBinding::bind_memory(Role role, size_t slot, void* data) {
  const bool input = role == Role::kInput;
  void*& bound = input ? bound_inputs_[slot] : bound_outputs_[slot];
  if (bound == data) return Error::Ok;
  const Slot& info = input ? inputs_[slot] : outputs_[slot];
  const AclApi& api = model_->api();
  for (size_t pair = 0; pair < (states_.empty() ? 1u : 2u); ++pair) {
    const Dataset& dataset =
        input ? datasets_[pair].input : datasets_[pair].output;
    const aclError error =
        api.aclUpdateDataBuffer(dataset.buffer(slot), data, info.nbytes);
    ASCEND_CHECK_OR_RETURN_ERROR(
        error == ACL_SUCCESS, InvalidState,
        "aclUpdateDataBuffer binding %s %zu ('%s', %zu bytes) in place "
        "failed with %d: %s",
        role_name(input), slot, info.name.c_str(), info.nbytes, error,
        model_->library().recent_error());
  }
  bound = data;
  return Error::Ok;
}

Error IoBinding::copy_inputs(Span<EValue*> args) {
  const AclApi& api = model_->api();
  for (size_t a = 0; a < arg_inputs_.size(); ++a) {
    const size_t i = arg_inputs_[a];
    const Slot& slot = inputs_[i];
    if (arg_kind_[a] == ArgKind::kAippParams) {
      const Error error = apply_aipp_params(
          *model_, aipp_[arg_aipp_[a]], input_dataset(), args[a]->toTensor());
      if (error != Error::Ok) return error;
      continue;
    }
    // The gear's bytes (check_args made them the tensor's size).
    const size_t nbytes = args[a]->toTensor().nbytes();
    if (nbytes == 0) continue;
    // A dynamic AIPP frame may be smaller than its slot: always copied.
    if (zero_copy_ && arg_kind_[a] == ArgKind::kTensor) {
      // The model only reads its inputs.
      const Error error =
          bind_memory(Role::kInput, i,
                      const_cast<void*>(args[a]->toTensor().const_data_ptr()));
      if (error != Error::Ok) return error;
      continue;
    }
    const aclError error = api.aclrtMemcpyAsync(
        slot.device.get(), slot.nbytes, args[a]->toTensor().const_data_ptr(),
        nbytes, ACL_MEMCPY_HOST_TO_DEVICE, model_->stream());
    ASCEND_CHECK_OR_RETURN_ERROR(
        error == ACL_SUCCESS, InvalidState,
        "aclrtMemcpyAsync copying input %zu ('%s', %zu bytes) to device %d "
        "failed with %d: %s",
        i, slot.name.c_str(), nbytes, model_->device_id(), error,
        model_->library().recent_error());
  }
  if (zero_copy_) {
    // Bound before the execute: the outputs are written in place.
    for (size_t a = 0; a < arg_outputs_.size(); ++a) {
      const size_t i = arg_outputs_[a];
      Tensor& tensor = args[arg_inputs_.size() + a]->toTensor();
      if (tensor.nbytes() == 0) continue;
      const Error error =
          bind_memory(Role::kOutput, i, tensor.mutable_data_ptr());
      if (error != Error::Ok) return error;
    }
  }
  return Error::Ok;
}

Error IoBinding::copy_outputs(Span<EValue*> args) {
  if (zero_copy_) return Error::Ok;  // written in place
  const AclApi& api = model_->api();
  for (size_t a = 0; a < arg_outputs_.size(); ++a) {
    const size_t i = arg_outputs_[a];
    const Slot& slot = outputs_[i];
    Tensor& tensor = args[arg_inputs_.size() + a]->toTensor();
    const size_t nbytes = tensor.nbytes();
    if (nbytes == 0) continue;
    const aclError error = api.aclrtMemcpyAsync(
        tensor.mutable_data_ptr(), nbytes, slot.device.get(), nbytes,
        ACL_MEMCPY_DEVICE_TO_HOST, model_->stream());
    ASCEND_CHECK_OR_RETURN_ERROR(
        error == ACL_SUCCESS, InvalidState,
        "aclrtMemcpyAsync copying output %zu ('%s', %zu bytes) from device %d "
        "failed with %d: %s",
        i, slot.name.c_str(), nbytes, model_->device_id(), error,
        model_->library().recent_error());
  }
  return Error::Ok;
}

}  // namespace executorch::backends::ascend
