// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The shape gears of a model compiled with atc --dynamic_batch_size or
// --dynamic_dims: the fixed shapes it runs at, read from its description
// once at load, and the documented ACL calls that pick one per execute.
//
// Such a model has one more input, last, named ACL_DYNAMIC_TENSOR_NAME; the
// delegate fills it with aclmdlSetDynamicBatchSize / aclmdlSetInputDynamicDims
// and ExecuTorch never sees it. A model without it has one gear: its static
// shapes.
#pragma once

#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/exec_aten/exec_aten.h>
#include <executorch/runtime/core/exec_aten/util/tensor_util.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "acl_model.h"

namespace executorch::backends::ascend {

struct TensorShape {
  size_t rank = 0;
  std::array<executorch::aten::SizesType,
             executorch::runtime::kTensorDimensionLimit>
      sizes{};
  bool operator==(const TensorShape& other) const;
};

class ShapeGears {
 public:
  enum class Kind { kStatic, kBatch, kDims };

  // From the description: the gear input and the gears. `inputs` and
  // `outputs` are the slots' dims, -1 where a gear decides; the gear input
  // is the last of `inputs`.
  executorch::runtime::Error read(const AclModel& model,
                                  const std::vector<TensorShape>& inputs,
                                  const std::vector<TensorShape>& outputs);
  // Each gear's output shapes (aclmdlGetCurOutputDims after choosing it on
  // `dataset`, a dataset that holds the gear input's buffer).
  executorch::runtime::Error read_output_shapes(const AclModel& model,
                                                aclmdlDataset* dataset);

  Kind kind() const { return kind_; }
  bool dynamic() const { return kind_ != Kind::kStatic; }
  // Index of the gear input (dynamic models only).
  size_t gear_input() const { return gear_input_; }
  size_t count() const { return inputs_.size(); }
  const TensorShape& input(size_t gear, size_t slot) const {
    return inputs_[gear][slot];
  }
  const TensorShape& output(size_t gear, size_t slot) const {
    return outputs_[gear][slot];
  }

  // The gear whose input shapes `shape_of(slot)` equals for every input
  // slot listed in `slots`, or count() when none does.
  template <typename ShapeOf>
  size_t find(const std::vector<size_t>& slots, ShapeOf shape_of) const {
    for (size_t g = 0; g < count(); ++g) {
      bool match = true;
      for (size_t slot : slots) {
        match = match && shape_of(slot) == inputs_[g][slot];
      }
      if (match) return g;
    }
    return count();
  }
  // Logs the gears (for the refusal of a shape that is none of them).
  void log_gears(const char* what) const;

  // Makes `gear` the one the next aclmdlExecute with `dataset` runs.
  executorch::runtime::Error select(const AclModel& model,
                                    aclmdlDataset* dataset, size_t gear) const;

 private:
  Kind kind_ = Kind::kStatic;
  size_t gear_input_ = 0;
  std::vector<uint64_t> batches_;   // kBatch: one batch size per gear
  std::vector<aclmdlIODims> dims_;  // kDims: one per gear, as ACL gives it
  std::vector<std::vector<TensorShape>> inputs_;   // [gear][input slot]
  std::vector<std::vector<TensorShape>> outputs_;  // [gear][output slot]
};

}  // namespace executorch::backends::ascend
