// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// A host tensor owning its storage, sizes, dim order and strides, wrapped in
// an EValue ready for BackendInterface::execute.
#pragma once

#include <executorch/runtime/core/evalue.h>
#include <executorch/runtime/core/exec_aten/util/scalar_type_util.h>

#include <memory>
#include <numeric>
#include <vector>

namespace executorch::backends::ascend::testing {

class HostTensor {
 public:
  using ScalarType = executorch::aten::ScalarType;
  using SizesType = executorch::aten::SizesType;
  using DimOrderType = executorch::aten::DimOrderType;
  using StridesType = executorch::aten::StridesType;

  // dynamic_bound: resizable to any shape of at most `sizes`' elements, as
  // ExecuTorch plans an output whose shape a gear decides.
  HostTensor(ScalarType type, std::vector<SizesType> sizes,
             std::vector<DimOrderType> dim_order = {},
             bool dynamic_bound = false)
      : sizes_(std::move(sizes)), dim_order_(std::move(dim_order)) {
    if (dim_order_.empty()) {
      dim_order_.resize(sizes_.size());
      std::iota(dim_order_.begin(), dim_order_.end(), 0);
    }
    strides_.assign(sizes_.size(), 1);
    for (size_t k = sizes_.size(); k-- > 1;) {
      strides_[dim_order_[k - 1]] =
          strides_[dim_order_[k]] * sizes_[dim_order_[k]];
    }
    size_t numel = 1;
    for (SizesType s : sizes_) {
      numel *= static_cast<size_t>(s);
    }
    storage_.assign(numel * executorch::runtime::elementSize(type) + 1, 0);
    impl_ = std::make_unique<executorch::aten::TensorImpl>(
        type, static_cast<ssize_t>(sizes_.size()), sizes_.data(),
        storage_.data(), dim_order_.data(), strides_.data(),
        dynamic_bound ? executorch::aten::TensorShapeDynamism::DYNAMIC_BOUND
                      : executorch::aten::TensorShapeDynamism::STATIC);
    value_ = executorch::runtime::EValue(executorch::aten::Tensor(impl_.get()));
  }
  HostTensor(const HostTensor&) = delete;
  HostTensor& operator=(const HostTensor&) = delete;

  float* floats() { return reinterpret_cast<float*>(storage_.data()); }
  uint8_t* bytes() { return storage_.data(); }
  executorch::runtime::EValue* evalue() { return &value_; }
  const executorch::aten::Tensor& tensor() { return value_.toTensor(); }

 private:
  std::vector<SizesType> sizes_;
  std::vector<DimOrderType> dim_order_;
  std::vector<StridesType> strides_;
  std::vector<uint8_t> storage_;
  std::unique_ptr<executorch::aten::TensorImpl> impl_;
  executorch::runtime::EValue value_;
};

}  // namespace executorch::backends::ascend::testing
