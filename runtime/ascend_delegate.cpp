#include "ascend_delegate.h"

#include <executorch/runtime/core/exec_aten/util/dim_order_util.h>
#include <executorch/runtime/core/exec_aten/util/scalar_type_util.h>
#include <executorch/runtime/core/exec_aten/util/tensor_shape_to_c_string.h>
#include <executorch/runtime/core/exec_aten/util/tensor_util.h>
#include <executorch/runtime/platform/log.h>

#include <limits>

#include "acl_dtype.h"

namespace executorch::backends::ascend {

using executorch::aten::ScalarType;
using executorch::aten::SizesType;
using executorch::aten::Tensor;
using executorch::runtime::ArrayRef;
using executorch::runtime::Error;
using executorch::runtime::EValue;
using executorch::runtime::Span;

namespace {

// numel * element size, or false on overflow.
bool byte_size(ScalarType type, const std::vector<int64_t>& dims, size_t* out) {
  size_t total = executorch::runtime::elementSize(type);
  for (int64_t dim : dims) {
    const auto d = static_cast<size_t>(dim);
    if (d != 0 && total > std::numeric_limits<size_t>::max() / d) {
      return false;
    }
    total *= d;
  }
  *out = total;
  return true;
}

// ExecuTorch tensors without a dim order array are in the default order.
bool has_default_dim_order(const Tensor& tensor) {
  const auto dim_order = tensor.dim_order();
  return dim_order.data() == nullptr ||
         executorch::runtime::is_contiguous_dim_order(dim_order.data(),
                                                      dim_order.size());
}

}  // namespace

AscendDelegate::AscendDelegate(const AclLibrary& library)
    : library_(library), api_(&library.api()) {}

AscendDelegate::~AscendDelegate() {
  // ACL objects must be released in the context that created them, whichever
  // thread destroys the delegate.
  if (context_) {
    (void)make_current();
  }
}

Error AscendDelegate::make_current() const {
  const aclError error = api_->aclrtSetCurrentContext(context_.get());
  if (error != ACL_SUCCESS) {
    ET_LOG(Error,
           "AscendBackend: aclrtSetCurrentContext(device %d) failed with %d: "
           "%s",
           device_id_, error, library_.recent_error());
    return Error::DelegateInvalidHandle;
  }
  return Error::Ok;
}

Error AscendDelegate::load(const DelegateBlob& blob, const void* om,
                           size_t om_size, int32_t device_id) {
  Error error = create_context(device_id);
  if (error == Error::Ok) {
    error = load_model(om, om_size);
  }
  if (error == Error::Ok) {
    error = check_signature(blob);
  }
  if (error == Error::Ok) {
    error = allocate_io();
  }
  return error;
}

Error AscendDelegate::create_context(int32_t device_id) {
  aclError error = api_->aclrtSetDevice(device_id);
  if (error != ACL_SUCCESS) {
    ET_LOG(Error, "AscendBackend: aclrtSetDevice(%d) failed with %d: %s",
           device_id, error, library_.recent_error());
    return Error::InvalidState;
  }
  device_.emplace(api_, device_id);
  device_id_ = device_id;

  aclrtContext context = nullptr;
  error = api_->aclrtCreateContext(&context, device_id);
  if (error != ACL_SUCCESS || context == nullptr) {
    ET_LOG(Error, "AscendBackend: aclrtCreateContext(%d) failed with %d: %s",
           device_id, error, library_.recent_error());
    return Error::InvalidState;
  }
  context_ = Context(api_, context);
  // aclrtCreateContext makes the new context current on this thread already;
  // set it explicitly so the rest of load() does not rely on that.
  return make_current();
}

Error AscendDelegate::load_model(const void* om, size_t om_size) {
  uint32_t model_id = 0;
  const aclError error = api_->aclmdlLoadFromMem(om, om_size, &model_id);
  if (error != ACL_SUCCESS) {
    ET_LOG(Error,
           "AscendBackend: aclmdlLoadFromMem (%zu bytes) failed with %d: %s",
           om_size, error, library_.recent_error());
    return error == ACL_ERROR_DESERIALIZE_MODEL ? Error::InvalidProgram
                                                : Error::InvalidState;
  }
  model_.emplace(api_, model_id);

  desc_ = ModelDesc(api_, api_->aclmdlCreateDesc());
  if (!desc_) {
    ET_LOG(Error, "AscendBackend: aclmdlCreateDesc failed: %s",
           library_.recent_error());
    return Error::InvalidState;
  }
  const aclError desc_error = api_->aclmdlGetDesc(desc_.get(), model_id);
  if (desc_error != ACL_SUCCESS) {
    ET_LOG(Error, "AscendBackend: aclmdlGetDesc failed with %d: %s", desc_error,
           library_.recent_error());
    return Error::InvalidState;
  }
  return Error::Ok;
}

Error AscendDelegate::check_signature(const DelegateBlob& blob) {
  struct Side {
    const char* role;
    const std::vector<BlobTensor>& spec;
    std::vector<IoSlot>& slots;
    size_t (*count)(aclmdlDesc*);
    size_t (*size)(aclmdlDesc*, size_t);
    aclError (*dims)(const aclmdlDesc*, size_t, aclmdlIODims*);
    aclDataType (*dtype)(const aclmdlDesc*, size_t);
  };
  const Side sides[] = {
      {"input", blob.inputs, inputs_, api_->aclmdlGetNumInputs,
       api_->aclmdlGetInputSizeByIndex, api_->aclmdlGetInputDims,
       api_->aclmdlGetInputDataType},
      {"output", blob.outputs, outputs_, api_->aclmdlGetNumOutputs,
       api_->aclmdlGetOutputSizeByIndex, api_->aclmdlGetOutputDims,
       api_->aclmdlGetOutputDataType},
  };
  for (const Side& side : sides) {
    const size_t om_count = side.count(desc_.get());
    if (om_count != side.spec.size()) {
      ET_LOG(Error,
             "AscendBackend: the .om has %zu %ss but the delegate blob "
             "declares %zu; the .pte and its .om do not belong together",
             om_count, side.role, side.spec.size());
      return Error::InvalidProgram;
    }
    side.slots.clear();
    side.slots.reserve(om_count);
    for (size_t i = 0; i < om_count; ++i) {
      const BlobTensor& spec = side.spec[i];
      const char* name = spec.name.c_str();

      const aclDataType expected_dtype = to_acl_dtype(spec.scalar_type);
      if (expected_dtype == ACL_DT_UNDEFINED) {
        ET_LOG(Error,
               "AscendBackend: %s %zu ('%s') has dtype %s, which ACL cannot "
               "hold",
               side.role, i, name,
               executorch::runtime::toString(spec.scalar_type));
        return Error::DelegateInvalidCompatibility;
      }
      const aclDataType om_dtype = side.dtype(desc_.get(), i);
      if (om_dtype != expected_dtype) {
        ET_LOG(Error,
               "AscendBackend: %s %zu ('%s'): the .om has %s (%d), the "
               "delegate blob expects %s (%s)",
               side.role, i, name, acl_dtype_name(om_dtype),
               static_cast<int>(om_dtype), acl_dtype_name(expected_dtype),
               executorch::runtime::toString(spec.scalar_type));
        return Error::InvalidProgram;
      }

      aclmdlIODims om_dims{};
      const aclError dims_error = side.dims(desc_.get(), i, &om_dims);
      if (dims_error != ACL_SUCCESS) {
        ET_LOG(Error, "AscendBackend: reading %s %zu dims failed with %d: %s",
               side.role, i, dims_error, library_.recent_error());
        return Error::InvalidState;
      }
      bool same = om_dims.dimCount == spec.dims.size();
      for (size_t d = 0; same && d < spec.dims.size(); ++d) {
        if (om_dims.dims[d] < 0) {
          ET_LOG(Error,
                 "AscendBackend: %s %zu ('%s') has a dynamic dim %zu in the "
                 ".om; only static shapes are supported",
                 side.role, i, name, d);
          return Error::NotSupported;
        }
        same = om_dims.dims[d] == spec.dims[d];
      }
      if (!same) {
        const size_t om_rank = om_dims.dimCount < ACL_MAX_DIM_CNT
                                   ? om_dims.dimCount
                                   : ACL_MAX_DIM_CNT;
        const auto om_shape =
            executorch::runtime::tensor_shape_to_c_string(Span<const int64_t>(
                om_dims.dims, om_rank < kBlobMaxRank ? om_rank : kBlobMaxRank));
        const auto blob_shape = executorch::runtime::tensor_shape_to_c_string(
            Span<const int64_t>(spec.dims.data(), spec.dims.size()));
        ET_LOG(Error,
               "AscendBackend: %s %zu ('%s'): the .om has shape %s (rank %zu), "
               "the delegate blob expects %s",
               side.role, i, name, om_shape.data(), om_dims.dimCount,
               blob_shape.data());
        return Error::InvalidProgram;
      }

      IoSlot slot;
      slot.name = spec.name;
      slot.scalar_type = spec.scalar_type;
      slot.rank = spec.dims.size();
      for (size_t d = 0; d < slot.rank; ++d) {
        if (spec.dims[d] > std::numeric_limits<SizesType>::max()) {
          ET_LOG(Error, "AscendBackend: %s %zu ('%s') dim %zu is too large",
                 side.role, i, name, d);
          return Error::NotSupported;
        }
        slot.sizes[d] = static_cast<SizesType>(spec.dims[d]);
      }
      if (!byte_size(spec.scalar_type, spec.dims, &slot.nbytes)) {
        ET_LOG(Error, "AscendBackend: %s %zu ('%s') size overflows", side.role,
               i, name);
        return Error::InvalidProgram;
      }
      const size_t om_bytes = side.size(desc_.get(), i);
      if (om_bytes != slot.nbytes) {
        ET_LOG(Error,
               "AscendBackend: %s %zu ('%s'): the .om needs %zu bytes, the "
               "delegate blob's dtype and shape give %zu",
               side.role, i, name, om_bytes, slot.nbytes);
        return Error::InvalidProgram;
      }
      side.slots.push_back(std::move(slot));
    }
  }
  return Error::Ok;
}

Error AscendDelegate::allocate_io() {
  struct Side {
    const char* role;
    std::vector<IoSlot>& slots;
    Dataset& dataset;
  };
  const Side sides[] = {{"input", inputs_, input_dataset_},
                        {"output", outputs_, output_dataset_}};
  for (const Side& side : sides) {
    if (!side.dataset.create(api_)) {
      return Error::InvalidState;
    }
    side.dataset.reserve(side.slots.size());
    for (size_t i = 0; i < side.slots.size(); ++i) {
      IoSlot& slot = side.slots[i];
      // ACL rejects zero-byte allocations; an empty tensor still needs a
      // distinct buffer in the dataset.
      const size_t alloc_bytes = slot.nbytes == 0 ? 1 : slot.nbytes;
      void* memory = nullptr;
      const aclError error =
          api_->aclrtMalloc(&memory, alloc_bytes, ACL_MEM_MALLOC_HUGE_FIRST);
      if (error != ACL_SUCCESS || memory == nullptr) {
        ET_LOG(Error,
               "AscendBackend: aclrtMalloc(%zu bytes) for %s %zu ('%s') on "
               "device %d failed with %d: %s",
               alloc_bytes, side.role, i, slot.name.c_str(), device_id_, error,
               library_.recent_error());
        return Error::DelegateMemoryAllocationFailed;
      }
      slot.device = DeviceMemory(api_, memory);
      if (!side.dataset.add(memory, slot.nbytes)) {
        return Error::InvalidState;
      }
    }
  }
  return Error::Ok;
}

Error AscendDelegate::check_input(const EValue& value, size_t index) const {
  const IoSlot& slot = inputs_[index];
  if (!value.isTensor()) {
    ET_LOG(Error, "AscendBackend: input %zu ('%s') is not a tensor (tag %d)",
           index, slot.name.c_str(), static_cast<int>(value.tag));
    return Error::InvalidArgument;
  }
  const Tensor& tensor = value.toTensor();
  if (tensor.scalar_type() != slot.scalar_type) {
    ET_LOG(Error, "AscendBackend: input %zu ('%s') has dtype %s, expected %s",
           index, slot.name.c_str(),
           executorch::runtime::toString(tensor.scalar_type()),
           executorch::runtime::toString(slot.scalar_type));
    return Error::InvalidArgument;
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
    ET_LOG(Error,
           "AscendBackend: input %zu ('%s') has shape %s; the compiled model "
           "needs the static shape %s",
           index, slot.name.c_str(), got.data(), want.data());
    return Error::InvalidArgument;
  }
  if (!has_default_dim_order(tensor)) {
    ET_LOG(Error,
           "AscendBackend: input %zu ('%s') is not in the contiguous default "
           "dim order",
           index, slot.name.c_str());
    return Error::InvalidArgument;
  }
  if (tensor.nbytes() != slot.nbytes ||
      (slot.nbytes != 0 && tensor.const_data_ptr() == nullptr)) {
    ET_LOG(Error, "AscendBackend: input %zu ('%s') has no data of %zu bytes",
           index, slot.name.c_str(), slot.nbytes);
    return Error::InvalidArgument;
  }
  return Error::Ok;
}

Error AscendDelegate::prepare_output(EValue& value, size_t index) const {
  const IoSlot& slot = outputs_[index];
  if (!value.isTensor()) {
    ET_LOG(Error, "AscendBackend: output %zu ('%s') is not a tensor (tag %d)",
           index, slot.name.c_str(), static_cast<int>(value.tag));
    return Error::InvalidArgument;
  }
  Tensor& tensor = value.toTensor();
  if (tensor.scalar_type() != slot.scalar_type) {
    ET_LOG(Error, "AscendBackend: output %zu ('%s') has dtype %s, expected %s",
           index, slot.name.c_str(),
           executorch::runtime::toString(tensor.scalar_type()),
           executorch::runtime::toString(slot.scalar_type));
    return Error::InvalidArgument;
  }
  const Error resized = executorch::runtime::resize_tensor(
      tensor, ArrayRef<SizesType>(slot.sizes.data(), slot.rank));
  if (resized != Error::Ok) {
    ET_LOG(Error,
           "AscendBackend: output %zu ('%s') cannot be resized to the "
           "model's rank %zu shape",
           index, slot.name.c_str(), slot.rank);
    return Error::InvalidArgument;
  }
  if (!has_default_dim_order(tensor)) {
    ET_LOG(Error,
           "AscendBackend: output %zu ('%s') is not in the contiguous default "
           "dim order",
           index, slot.name.c_str());
    return Error::InvalidArgument;
  }
  if (tensor.nbytes() != slot.nbytes ||
      (slot.nbytes != 0 && tensor.mutable_data_ptr() == nullptr)) {
    ET_LOG(Error,
           "AscendBackend: output %zu ('%s') has no storage of %zu "
           "bytes",
           index, slot.name.c_str(), slot.nbytes);
    return Error::InvalidArgument;
  }
  return Error::Ok;
}

Error AscendDelegate::run(Span<EValue*> args) {
  const size_t expected = inputs_.size() + outputs_.size();
  if (args.size() != expected) {
    ET_LOG(Error,
           "AscendBackend: got %zu arguments, the delegate takes %zu inputs "
           "and %zu outputs",
           args.size(), inputs_.size(), outputs_.size());
    return Error::InvalidArgument;
  }
  for (size_t i = 0; i < expected; ++i) {
    if (args[i] == nullptr) {
      ET_LOG(Error, "AscendBackend: argument %zu is null", i);
      return Error::InvalidArgument;
    }
  }
  for (size_t i = 0; i < inputs_.size(); ++i) {
    const Error error = check_input(*args[i], i);
    if (error != Error::Ok) {
      return error;
    }
  }
  for (size_t i = 0; i < outputs_.size(); ++i) {
    const Error error = prepare_output(*args[inputs_.size() + i], i);
    if (error != Error::Ok) {
      return error;
    }
  }

  std::lock_guard<std::mutex> lock(mutex_);
  const Error current = make_current();
  if (current != Error::Ok) {
    return current;
  }
  for (size_t i = 0; i < inputs_.size(); ++i) {
    const IoSlot& slot = inputs_[i];
    if (slot.nbytes == 0) {
      continue;
    }
    const aclError error = api_->aclrtMemcpy(
        slot.device.get(), slot.nbytes, args[i]->toTensor().const_data_ptr(),
        slot.nbytes, ACL_MEMCPY_HOST_TO_DEVICE);
    if (error != ACL_SUCCESS) {
      ET_LOG(Error,
             "AscendBackend: copying input %zu ('%s', %zu bytes) to device "
             "%d failed with %d: %s",
             i, slot.name.c_str(), slot.nbytes, device_id_, error,
             library_.recent_error());
      return Error::InvalidState;
    }
  }
  const aclError exec_error = api_->aclmdlExecute(
      model_->get(), input_dataset_.get(), output_dataset_.get());
  if (exec_error != ACL_SUCCESS) {
    ET_LOG(Error,
           "AscendBackend: aclmdlExecute on device %d failed with %d: %s",
           device_id_, exec_error, library_.recent_error());
    return Error::InvalidState;
  }
  for (size_t i = 0; i < outputs_.size(); ++i) {
    const IoSlot& slot = outputs_[i];
    if (slot.nbytes == 0) {
      continue;
    }
    Tensor& tensor = args[inputs_.size() + i]->toTensor();
    const aclError error = api_->aclrtMemcpy(
        tensor.mutable_data_ptr(), slot.nbytes, slot.device.get(), slot.nbytes,
        ACL_MEMCPY_DEVICE_TO_HOST);
    if (error != ACL_SUCCESS) {
      ET_LOG(Error,
             "AscendBackend: copying output %zu ('%s', %zu bytes) from "
             "device %d failed with %d: %s",
             i, slot.name.c_str(), slot.nbytes, device_id_, error,
             library_.recent_error());
      return Error::InvalidState;
    }
  }
  return Error::Ok;
}

}  // namespace executorch::backends::ascend
