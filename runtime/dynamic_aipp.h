// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Dynamic AIPP (docs/aipp.md): a model compiled with `aipp_mode: dynamic`
// has, for each such image input (the frame, uint8 [1, max_src_image_size]),
// an extra input ACL_DYNAMIC_AIPP_NAME (uint8, 64 + 96 * N bytes) that
// aclmdlGetAippType links to it. The ExecuTorch program passes, right after
// the frame, a float32 parameter tensor [1 + N, 24] (executorch_ascend.aipp:
// row 0 the image-wide parameters, row 1 + n image n's); before each execute
// the backend turns it into CANN's aclmdlSetAIPP* calls on an aclmdlAIPP
// made once at load and writes it into the extra input's buffer with
// aclmdlSetInputAIPP, which checks it against the model. CANN's own checks
// give the errors; this file only refuses what cannot be passed to them (a
// value that is not an integer of the parameter's C type).
#pragma once

#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/exec_aten/exec_aten.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "acl_resources.h"

namespace executorch::backends::ascend {

class AclModel;

// Releases an aclmdlAIPP (aclmdlDestroyAIPP).
struct ReleaseAipp {
  void operator()(const AclApi& api, aclmdlAIPP* aipp) const {
    internal::log_release_failure(api, "aclmdlDestroyAIPP",
                                  api.aclmdlDestroyAIPP(aipp));
  }
};
using AippParams = AclOwned<aclmdlAIPP*, ReleaseAipp>;

// The parameter tensor's width (executorch_ascend.aipp.PARAMS_WIDTH).
constexpr size_t kAippParamsWidth = 24;

// One dynamic AIPP input of a model.
struct DynamicAippInput {
  size_t frame = 0;  // .om input index of the frame
  size_t data = 0;   // .om input index of its ACL_DYNAMIC_AIPP_NAME input
  uint64_t batch = 0;
  AippParams params;  // made once (aclmdlCreateAIPP), reused by every call
};

// Whether the .om has a dynamic AIPP input (an input named
// ACL_DYNAMIC_AIPP_NAME or ACL_DYNAMIC_AIPP_NAME_...): only then are the
// optional calls needed.
bool has_dynamic_aipp(const AclModel& model);

// Finds the model's dynamic AIPP inputs (aclmdlGetAippType), checks the
// library has every call they need and makes each one's aclmdlAIPP.
// `data_bytes(i)` is the byte size of input i.
executorch::runtime::Error find_dynamic_aipp(
    const AclModel& model, const std::vector<size_t>& data_bytes,
    std::vector<DynamicAippInput>* inputs);

// Checks a parameter tensor for `input` (dtype, shape, contiguity, every
// value an integer of its field's type where the field is one) and, when
// `frame_bytes` is not null, that the frame tensor holds the images the
// parameters describe. `arg` numbers the argument in messages.
executorch::runtime::Error check_aipp_params(
    const DynamicAippInput& input, const executorch::aten::Tensor& params,
    size_t arg, size_t frame_bytes);

// Sets `params` on the input's aclmdlAIPP (aclmdlSetAIPP*) and writes it
// into `dataset`'s buffer of the input's data slot (aclmdlSetInputAIPP).
// Only after check_aipp_params succeeded.
executorch::runtime::Error apply_aipp_params(
    const AclModel& model, DynamicAippInput& input, aclmdlDataset* dataset,
    const executorch::aten::Tensor& params);

}  // namespace executorch::backends::ascend
