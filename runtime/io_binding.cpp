// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "io_binding.h"

#include <executorch/runtime/core/exec_aten/util/dim_order_util.h>
#include <executorch/runtime/core/exec_aten/util/scalar_type_util.h>
#include <executorch/runtime/core/exec_aten/util/tensor_shape_to_c_string.h>

#include <limits>

#include "acl_dtype.h"
#include "log.h"

namespace executorch::backends::ascend {

using executorch::aten::ScalarType;
using executorch::aten::SizesType;
using executorch::aten::Tensor;
using executorch::runtime::ArrayRef;
using executorch::runtime::Error;
using executorch::runtime::EValue;
using executorch::runtime::kTensorDimensionLimit;
using executorch::runtime::Span;

namespace {

const char* role_name(bool input) { return input ? "input" : "output"; }

// ExecuTorch tensors without a dim order array are in the default order.
bool has_default_dim_order(const Tensor& tensor) {
  const auto dim_order = tensor.dim_order();
  return dim_order.data() == nullptr ||
         executorch::runtime::is_contiguous_dim_order(dim_order.data(),
                                                      dim_order.size());
}

}  // namespace

Error IoBinding::bind(const AclModel& model) {
  model_ = &model;
  Error error = read_slots(Role::kInput, inputs_);
  if (error == Error::Ok) error = read_slots(Role::kOutput, outputs_);
  if (error == Error::Ok)
    error = allocate(Role::kInput, inputs_, input_dataset_);
  if (error == Error::Ok) {
    error = allocate(Role::kOutput, outputs_, output_dataset_);
  }
  return error;
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
        "reading the dims of %s %zu failed with %d: %s", what, i, dims_error,
        model_->library().recent_error());
    ASCEND_CHECK_OR_RETURN_ERROR(
        dims.dimCount <= kTensorDimensionLimit, NotSupported,
        "%s %zu ('%s') has rank %zu; ExecuTorch tensors have at most %zu", what,
        i, slot.name.c_str(), dims.dimCount, kTensorDimensionLimit);
    slot.rank = dims.dimCount;
    size_t numel = 1;
    for (size_t d = 0; d < slot.rank; ++d) {
      const int64_t dim = dims.dims[d];
      ASCEND_CHECK_OR_RETURN_ERROR(
          dim >= 0, NotSupported,
          "%s %zu ('%s') has a dynamic dim %zu in the .om; only static "
          "shapes are supported",
          what, i, slot.name.c_str(), d);
      ASCEND_CHECK_OR_RETURN_ERROR(
          dim <= std::numeric_limits<SizesType>::max() &&
              (dim == 0 || numel <= std::numeric_limits<size_t>::max() /
                                        static_cast<size_t>(dim)),
          NotSupported, "%s %zu ('%s') is too large (dim %zu = %lld)", what, i,
          slot.name.c_str(), d, static_cast<long long>(dim));
      slot.sizes[d] = static_cast<SizesType>(dim);
      numel *= static_cast<size_t>(dim);
    }
    const size_t element = executorch::runtime::elementSize(slot.scalar_type);
    ASCEND_CHECK_OR_RETURN_ERROR(
        numel <= std::numeric_limits<size_t>::max() / element, NotSupported,
        "%s %zu ('%s') size overflows", what, i, slot.name.c_str());
    slot.nbytes = numel * element;
    const size_t om_bytes = input ? api.aclmdlGetInputSizeByIndex(desc, i)
                                  : api.aclmdlGetOutputSizeByIndex(desc, i);
    ASCEND_CHECK_OR_RETURN_ERROR(
        om_bytes == slot.nbytes, InvalidProgram,
        "%s %zu ('%s'): the .om says %zu bytes, its dtype and shape give %zu",
        what, i, slot.name.c_str(), om_bytes, slot.nbytes);
    slots.push_back(std::move(slot));
  }
  return Error::Ok;
}

Error IoBinding::allocate(Role role, std::vector<Slot>& slots,
                          Dataset& dataset) {
  const AclApi& api = model_->api();
  if (!dataset.create(&api)) {
    return Error::InvalidState;
  }
  dataset.reserve(slots.size());
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
    if (!dataset.add(memory, slot.nbytes)) {
      return Error::InvalidState;
    }
  }
  return Error::Ok;
}

Error IoBinding::check_tensor(Role role, size_t index, EValue& value) const {
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
    // Outputs take the model's shape; inputs must already have it.
    ASCEND_CHECK_OR_RETURN_ERROR(
        executorch::runtime::resize_tensor(
            tensor, ArrayRef<SizesType>(slot.sizes.data(), slot.rank)) ==
            Error::Ok,
        InvalidArgument,
        "output %zu ('%s') cannot be resized to the model's rank %zu shape",
        index, slot.name.c_str(), slot.rank);
  }
  bool same_shape = static_cast<size_t>(tensor.dim()) == slot.rank;
  for (size_t d = 0; same_shape && d < slot.rank; ++d) {
    same_shape = tensor.size(d) == slot.sizes[d];
  }
  if (!same_shape) {
    const auto got = executorch::runtime::tensor_shape_to_c_string(
        Span<const SizesType>(tensor.sizes().data(), tensor.sizes().size()));
    const auto want = executorch::runtime::tensor_shape_to_c_string(
        Span<const SizesType>(slot.sizes.data(), slot.rank));
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
  const void* data =
      input ? tensor.const_data_ptr() : tensor.mutable_data_ptr();
  ASCEND_CHECK_OR_RETURN_ERROR(
      tensor.nbytes() == slot.nbytes && (slot.nbytes == 0 || data != nullptr),
      InvalidArgument, "%s %zu ('%s') has no storage of %zu bytes", what, index,
      slot.name.c_str(), slot.nbytes);
  return Error::Ok;
}

Error IoBinding::check_args(Span<EValue*> args) const {
  const size_t expected = inputs_.size() + outputs_.size();
  ASCEND_CHECK_OR_RETURN_ERROR(
      args.size() == expected, InvalidArgument,
      "got %zu arguments, the delegate takes %zu inputs and %zu outputs",
      args.size(), inputs_.size(), outputs_.size());
  for (size_t i = 0; i < expected; ++i) {
    ASCEND_CHECK_OR_RETURN_ERROR(args[i] != nullptr, InvalidArgument,
                                 "argument %zu is null", i);
  }
  for (size_t i = 0; i < inputs_.size(); ++i) {
    const Error error = check_tensor(Role::kInput, i, *args[i]);
    if (error != Error::Ok) return error;
  }
  for (size_t i = 0; i < outputs_.size(); ++i) {
    const Error error =
        check_tensor(Role::kOutput, i, *args[inputs_.size() + i]);
    if (error != Error::Ok) return error;
  }
  return Error::Ok;
}

Error IoBinding::copy_inputs(Span<EValue*> args) const {
  const AclApi& api = model_->api();
  for (size_t i = 0; i < inputs_.size(); ++i) {
    const Slot& slot = inputs_[i];
    if (slot.nbytes == 0) continue;
    const aclError error = api.aclrtMemcpy(
        slot.device.get(), slot.nbytes, args[i]->toTensor().const_data_ptr(),
        slot.nbytes, ACL_MEMCPY_HOST_TO_DEVICE);
    ASCEND_CHECK_OR_RETURN_ERROR(
        error == ACL_SUCCESS, InvalidState,
        "copying input %zu ('%s', %zu bytes) to device %d failed with %d: %s",
        i, slot.name.c_str(), slot.nbytes, model_->device_id(), error,
        model_->library().recent_error());
  }
  return Error::Ok;
}

Error IoBinding::copy_outputs(Span<EValue*> args) const {
  const AclApi& api = model_->api();
  for (size_t i = 0; i < outputs_.size(); ++i) {
    const Slot& slot = outputs_[i];
    if (slot.nbytes == 0) continue;
    Tensor& tensor = args[inputs_.size() + i]->toTensor();
    const aclError error = api.aclrtMemcpy(
        tensor.mutable_data_ptr(), slot.nbytes, slot.device.get(), slot.nbytes,
        ACL_MEMCPY_DEVICE_TO_HOST);
    ASCEND_CHECK_OR_RETURN_ERROR(
        error == ACL_SUCCESS, InvalidState,
        "copying output %zu ('%s', %zu bytes) from device %d failed with %d: "
        "%s",
        i, slot.name.c_str(), slot.nbytes, model_->device_id(), error,
        model_->library().recent_error());
  }
  return Error::Ok;
}

}  // namespace executorch::backends::ascend
