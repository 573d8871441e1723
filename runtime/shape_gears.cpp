// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "shape_gears.h"

#include <algorithm>
#include <limits>

#include "log.h"

namespace executorch::backends::ascend {

using executorch::aten::SizesType;
using executorch::runtime::Error;
using executorch::runtime::kTensorDimensionLimit;

namespace {

bool has_dynamic_dim(const std::vector<TensorShape>& shapes) {
  for (const TensorShape& shape : shapes) {
    for (size_t d = 0; d < shape.rank; ++d) {
      if (shape.sizes[d] < 0) return true;
    }
  }
  return false;
}

bool gear_calls_present(const AclApi& api) {
  return api.aclmdlGetInputIndexByName != nullptr &&
         api.aclmdlGetDynamicBatch != nullptr &&
         api.aclmdlGetInputDynamicGearCount != nullptr &&
         api.aclmdlGetInputDynamicDims != nullptr &&
         api.aclmdlGetCurOutputDims != nullptr &&
         api.aclmdlSetDynamicBatchSize != nullptr &&
         api.aclmdlSetInputDynamicDims != nullptr;
}

bool fits(int64_t value) {
  return value >= 0 && value <= std::numeric_limits<SizesType>::max();
}

}  // namespace

bool TensorShape::operator==(const TensorShape& other) const {
  return rank == other.rank &&
         std::equal(sizes.begin(), sizes.begin() + rank, other.sizes.begin());
}

Error ShapeGears::read(const AclModel& model,
                       const std::vector<TensorShape>& inputs,
                       const std::vector<TensorShape>& outputs) {
  const AclApi& api = model.api();
  kind_ = Kind::kStatic;
  inputs_.clear();
  outputs_.clear();
  size_t index = 0;
  // An older CANN without the call, or the call failing, reads as "no gear
  // input": right for a static model, refused below for a dynamic one.
  const bool callable = api.aclmdlGetInputIndexByName != nullptr;
  const aclError lookup =
      callable ? api.aclmdlGetInputIndexByName(model.desc(),
                                               ACL_DYNAMIC_TENSOR_NAME, &index)
               : ACL_ERROR_FAILURE;
  if (lookup != ACL_SUCCESS) {
    ASCEND_CHECK_OR_RETURN_ERROR(
        !has_dynamic_dim(inputs) && !has_dynamic_dim(outputs), NotSupported,
        "the .om has dynamic dims but no '%s' input (aclmdlGetInputIndexByName "
        "%s %d: %s): only static shapes and atc shape gears "
        "(--dynamic_batch_size, --dynamic_dims) run",
        ACL_DYNAMIC_TENSOR_NAME, callable ? "returned" : "is missing", lookup,
        callable ? model.library().recent_error() : "");
    inputs_.push_back(inputs);
    outputs_.push_back(outputs);
    return Error::Ok;
  }
  ASCEND_CHECK_OR_RETURN_ERROR(
      gear_calls_present(api), DelegateInvalidCompatibility,
      "this model has shape gears, which need aclmdlSetDynamicBatchSize, "
      "aclmdlSetInputDynamicDims and aclmdlGetCurOutputDims; the ACL library "
      "%s lacks some of them (an older CANN): upgrade CANN, or export with "
      "static shapes",
      model.library().path().c_str());
  ASCEND_CHECK_OR_RETURN_ERROR(
      index + 1 == inputs.size(), InvalidProgram,
      "the gear input '%s' is input %zu of %zu; atc puts it last",
      ACL_DYNAMIC_TENSOR_NAME, index, inputs.size());
  gear_input_ = index;

  aclmdlBatch batch{};
  aclError error = api.aclmdlGetDynamicBatch(model.desc(), &batch);
  ASCEND_CHECK_OR_RETURN_ERROR(error == ACL_SUCCESS, InvalidState,
                               "aclmdlGetDynamicBatch failed with %d: %s",
                               error, model.library().recent_error());
  if (batch.batchCount > 0) {
    ASCEND_CHECK_OR_RETURN_ERROR(batch.batchCount <= ACL_MAX_BATCH_NUM,
                                 InvalidProgram, "%zu batch gears",
                                 batch.batchCount);
    kind_ = Kind::kBatch;
    for (size_t g = 0; g < batch.batchCount; ++g) {
      ASCEND_CHECK_OR_RETURN_ERROR(
          fits(static_cast<int64_t>(batch.batch[g])), InvalidProgram,
          "batch gear %llu", static_cast<unsigned long long>(batch.batch[g]));
      batches_.push_back(batch.batch[g]);
      std::vector<TensorShape> shapes = inputs;
      for (size_t i = 0; i + 1 < shapes.size(); ++i) {
        for (size_t d = 0; d < shapes[i].rank; ++d) {
          if (shapes[i].sizes[d] < 0) {
            shapes[i].sizes[d] = static_cast<SizesType>(batch.batch[g]);
          }
        }
      }
      inputs_.push_back(std::move(shapes));
    }
    return Error::Ok;
  }

  size_t gears = 0;
  error = api.aclmdlGetInputDynamicGearCount(model.desc(),
                                             static_cast<size_t>(-1), &gears);
  ASCEND_CHECK_OR_RETURN_ERROR(
      error == ACL_SUCCESS && gears > 0, InvalidProgram,
      "the .om has a gear input but no batch or dims gears "
      "(aclmdlGetInputDynamicGearCount: %d): %s",
      error, model.library().recent_error());
  kind_ = Kind::kDims;
  dims_.resize(gears);
  error = api.aclmdlGetInputDynamicDims(model.desc(), static_cast<size_t>(-1),
                                        dims_.data(), gears);
  ASCEND_CHECK_OR_RETURN_ERROR(error == ACL_SUCCESS, InvalidState,
                               "aclmdlGetInputDynamicDims failed with %d: %s",
                               error, model.library().recent_error());
  for (size_t g = 0; g < gears; ++g) {
    // Every input's dims but the gear input's, in input order.
    const aclmdlIODims& gear = dims_[g];
    std::vector<TensorShape> shapes = inputs;
    size_t at = 0;
    for (size_t i = 0; i + 1 < shapes.size(); ++i) {
      for (size_t d = 0; d < shapes[i].rank; ++d, ++at) {
        ASCEND_CHECK_OR_RETURN_ERROR(
            at < gear.dimCount && at < ACL_MAX_DIM_CNT && fits(gear.dims[at]) &&
                (shapes[i].sizes[d] < 0 || shapes[i].sizes[d] == gear.dims[at]),
            InvalidProgram,
            "dims gear %zu does not fit input %zu of the .om (%zu dims)", g, i,
            gear.dimCount);
        shapes[i].sizes[d] = static_cast<SizesType>(gear.dims[at]);
      }
    }
    ASCEND_CHECK_OR_RETURN_ERROR(at == gear.dimCount, InvalidProgram,
                                 "dims gear %zu has %zu dims; the inputs %zu",
                                 g, gear.dimCount, at);
    inputs_.push_back(std::move(shapes));
  }
  return Error::Ok;
}

Error ShapeGears::read_output_shapes(const AclModel& model,
                                     aclmdlDataset* dataset) {
  if (!dynamic()) return Error::Ok;
  const AclApi& api = model.api();
  const size_t count_outputs = api.aclmdlGetNumOutputs(model.desc());
  outputs_.assign(count(), std::vector<TensorShape>(count_outputs));
  for (size_t g = 0; g < count(); ++g) {
    Error error = select(model, dataset, g);
    if (error != Error::Ok) return error;
    for (size_t o = 0; o < count_outputs; ++o) {
      aclmdlIODims dims{};
      const aclError rc = api.aclmdlGetCurOutputDims(model.desc(), o, &dims);
      ASCEND_CHECK_OR_RETURN_ERROR(
          rc == ACL_SUCCESS, InvalidState,
          "aclmdlGetCurOutputDims(output %zu) at gear %zu failed with %d: %s",
          o, g, rc, model.library().recent_error());
      ASCEND_CHECK_OR_RETURN_ERROR(
          dims.dimCount <= kTensorDimensionLimit, NotSupported,
          "output %zu has rank %zu at gear %zu", o, dims.dimCount, g);
      TensorShape& shape = outputs_[g][o];
      shape.rank = dims.dimCount;
      for (size_t d = 0; d < shape.rank; ++d) {
        ASCEND_CHECK_OR_RETURN_ERROR(fits(dims.dims[d]), InvalidProgram,
                                     "output %zu dim %zu is %lld at gear %zu",
                                     o, d, static_cast<long long>(dims.dims[d]),
                                     g);
        shape.sizes[d] = static_cast<SizesType>(dims.dims[d]);
      }
    }
  }
  return Error::Ok;
}

Error ShapeGears::select(const AclModel& model, aclmdlDataset* dataset,
                         size_t gear) const {
  const AclApi& api = model.api();
  aclError error = ACL_SUCCESS;
  if (kind_ == Kind::kBatch) {
    error = api.aclmdlSetDynamicBatchSize(model.model_id(), dataset,
                                          gear_input_, batches_[gear]);
  } else if (kind_ == Kind::kDims) {
    error = api.aclmdlSetInputDynamicDims(model.model_id(), dataset,
                                          gear_input_, &dims_[gear]);
  }
  ASCEND_CHECK_OR_RETURN_ERROR(
      error == ACL_SUCCESS, InvalidState,
      "%s choosing shape gear %zu on device %d failed with %d: %s",
      kind_ == Kind::kBatch ? "aclmdlSetDynamicBatchSize"
                            : "aclmdlSetInputDynamicDims",
      gear, model.device_id(), error, model.library().recent_error());
  return Error::Ok;
}

void ShapeGears::log_gears(const char* what) const {
  for (size_t g = 0; g < count(); ++g) {
    if (kind_ == Kind::kBatch) {
      ASCEND_LOG(Error, "%s: gear %zu is batch %llu", what, g,
                 static_cast<unsigned long long>(batches_[g]));
      continue;
    }
    char text[256];
    size_t used = 0;
    for (size_t i = 0; i + 1 < inputs_[g].size() && used < sizeof(text); ++i) {
      const TensorShape& shape = inputs_[g][i];
      used +=
          std::snprintf(text + used, sizeof(text) - used, "%s[", i ? " " : "");
      for (size_t d = 0; d < shape.rank && used < sizeof(text); ++d) {
        used += std::snprintf(text + used, sizeof(text) - used, "%s%d",
                              d ? "," : "", static_cast<int>(shape.sizes[d]));
      }
      if (used < sizeof(text)) {
        used += std::snprintf(text + used, sizeof(text) - used, "]");
      }
    }
    ASCEND_LOG(Error, "%s: gear %zu has input shapes %s", what, g, text);
  }
}

}  // namespace executorch::backends::ascend
