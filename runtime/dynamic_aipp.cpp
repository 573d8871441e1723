// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "dynamic_aipp.h"

#include <executorch/runtime/core/exec_aten/util/dim_order_util.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "acl_model.h"
#include "log.h"

namespace executorch::backends::ascend {

using executorch::aten::ScalarType;
using executorch::aten::Tensor;
using executorch::runtime::Error;

namespace {

// Columns of row 0 (executorch_ascend.aipp.HEAD_COLUMNS) and of rows 1 + n
// (IMAGE_COLUMNS); the columns after the last named one are reserved (0).
enum HeadColumn : size_t {
  kFormat = 0,
  kSrcW = 1,
  kSrcH = 2,
  kCsc = 3,
  kMatrix = 4,       // 9 values
  kOutputBias = 13,  // 3
  kInputBias = 16,   // 3
  kRbuvSwap = 19,
  kHeadUsed = 20,
};
enum ImageColumn : size_t {
  kCrop = 0,
  kCropX = 1,
  kCropY = 2,
  kCropW = 3,
  kCropH = 4,
  kPadding = 5,
  kPadTop = 6,    // top, bottom, left, right
  kMean = 10,     // 4
  kMin = 14,      // 4
  kVarReci = 18,  // 4
  kImageUsed = 22,
};

const char* const kHeadNames[kHeadUsed] = {
    "input_format", "src_image_size_w", "src_image_size_h", "csc_switch",
    "matrix_r0c0",  "matrix_r0c1",      "matrix_r0c2",      "matrix_r1c0",
    "matrix_r1c1",  "matrix_r1c2",      "matrix_r2c0",      "matrix_r2c1",
    "matrix_r2c2",  "output_bias_0",    "output_bias_1",    "output_bias_2",
    "input_bias_0", "input_bias_1",     "input_bias_2",     "rbuv_swap_switch"};
const char* const kImageNames[kImageUsed] = {"crop",
                                             "load_start_pos_w",
                                             "load_start_pos_h",
                                             "crop_size_w",
                                             "crop_size_h",
                                             "padding",
                                             "top_padding_size",
                                             "bottom_padding_size",
                                             "left_padding_size",
                                             "right_padding_size",
                                             "mean_chn_0",
                                             "mean_chn_1",
                                             "mean_chn_2",
                                             "mean_chn_3",
                                             "min_chn_0",
                                             "min_chn_1",
                                             "min_chn_2",
                                             "min_chn_3",
                                             "var_reci_chn_0",
                                             "var_reci_chn_1",
                                             "var_reci_chn_2",
                                             "var_reci_chn_3"};

// The C type range of an integer parameter.
struct IntRange {
  double lo, hi;
};
constexpr IntRange kInt8{-128, 127};
constexpr IntRange kInt16{-32768, 32767};
constexpr IntRange kUInt8{0, 255};
constexpr IntRange kInt32{-2147483648.0, 2147483647.0};

IntRange HeadRange(size_t c) {
  if (c == kFormat || c == kSrcW || c == kSrcH) return kInt32;
  if (c >= kMatrix && c < kOutputBias) return kInt16;
  if (c >= kOutputBias && c < kRbuvSwap) return kUInt8;
  return kInt8;  // csc, swap
}

IntRange ImageRange(size_t c) {
  if (c == kCrop || c == kPadding) return kInt8;
  if (c >= kMean && c < kMin) return kInt16;
  return kInt32;  // positions and sizes
}

// Bytes of one image of aclAippInputFormat `format` (CANN's GetSrcImageSize),
// 0 for a format CANN refuses (its setter says so).
uint64_t ImageBytes(int64_t format, uint64_t h, uint64_t w) {
  switch (format) {
    case ACL_YUV420SP_U8:
      return 3 * h * w / 2;
    case ACL_XRGB8888_U8:
      return 4 * h * w;
    case ACL_RGB888_U8:
      return 3 * h * w;
    case ACL_YUV400_U8:
      return h * w;
    default:
      return 0;
  }
}

// Logs a failed ACL setter; the message names the call and ACL's reason.
Error Refused(const AclModel& model, const char* call, size_t data,
              aclError error) {
  ASCEND_LOG(Error,
             "dynamic AIPP (input %zu, ACL_DYNAMIC_AIPP_NAME): %s failed with "
             "%d: %s",
             data, call, error, model.library().recent_error());
  return Error::InvalidArgument;
}

}  // namespace

bool has_dynamic_aipp(const AclModel& model) {
  const AclApi& api = model.api();
  const size_t count = api.aclmdlGetNumInputs(model.desc());
  const size_t prefix = std::strlen(ACL_DYNAMIC_AIPP_NAME);
  for (size_t i = 0; i < count; ++i) {
    const char* name = api.aclmdlGetInputNameByIndex(model.desc(), i);
    if (name != nullptr &&
        std::strncmp(name, ACL_DYNAMIC_AIPP_NAME, prefix) == 0)
      return true;
  }
  return false;
}

Error find_dynamic_aipp(const AclModel& model,
                        const std::vector<size_t>& data_bytes,
                        std::vector<DynamicAippInput>* inputs) {
  inputs->clear();
  if (!has_dynamic_aipp(model)) return Error::Ok;
  const AclApi& api = model.api();
  const bool complete = api.aclmdlGetAippType != nullptr &&
                        api.aclmdlCreateAIPP != nullptr &&
                        api.aclmdlDestroyAIPP != nullptr &&
                        api.aclmdlSetAIPPInputFormat != nullptr &&
                        api.aclmdlSetAIPPCscParams != nullptr &&
                        api.aclmdlSetAIPPRbuvSwapSwitch != nullptr &&
                        api.aclmdlSetAIPPSrcImageSize != nullptr &&
                        api.aclmdlSetAIPPCropParams != nullptr &&
                        api.aclmdlSetAIPPPaddingParams != nullptr &&
                        api.aclmdlSetAIPPDtcPixelMean != nullptr &&
                        api.aclmdlSetAIPPDtcPixelMin != nullptr &&
                        api.aclmdlSetAIPPPixelVarReci != nullptr &&
                        api.aclmdlSetInputAIPP != nullptr;
  ASCEND_CHECK_OR_RETURN_ERROR(
      complete, NotSupported,
      "the model has dynamic AIPP (input %s), but the ACL library lacks "
      "aclmdlGetAippType, aclmdlCreateAIPP or another of the dynamic AIPP "
      "calls (docs/aipp.md)",
      ACL_DYNAMIC_AIPP_NAME);
  for (size_t i = 0; i < data_bytes.size(); ++i) {
    aclmdlInputAippType type = ACL_DATA_WITHOUT_AIPP;
    size_t attached = ACL_INVALID_NODE_INDEX;
    const aclError error =
        api.aclmdlGetAippType(model.model_id(), i, &type, &attached);
    ASCEND_CHECK_OR_RETURN_ERROR(error == ACL_SUCCESS, InvalidState,
                                 "aclmdlGetAippType(input %zu) failed with "
                                 "%d: %s",
                                 i, error, model.library().recent_error());
    if (type != ACL_DATA_WITH_DYNAMIC_AIPP) continue;
    ASCEND_CHECK_OR_RETURN_ERROR(
        attached < data_bytes.size() && attached != i, InvalidProgram,
        "aclmdlGetAippType: input %zu's dynamic AIPP data is input %zu; the "
        ".om has %zu inputs",
        i, attached, data_bytes.size());
    const size_t bytes = data_bytes[attached];
    // 64 + 96 * N bytes (docs/aipp.md).
    ASCEND_CHECK_OR_RETURN_ERROR(
        bytes > 64 && (bytes - 64) % 96 == 0, InvalidProgram,
        "dynamic AIPP data input %zu has %zu bytes, not 64 + 96 * N", attached,
        bytes);
    DynamicAippInput input;
    input.frame = i;
    input.data = attached;
    input.batch = (bytes - 64) / 96;
    aclmdlAIPP* created = api.aclmdlCreateAIPP(input.batch);
    ASCEND_CHECK_OR_RETURN_ERROR(
        created != nullptr, MemoryAllocationFailed,
        "aclmdlCreateAIPP(%llu) for input %zu failed: %s",
        static_cast<unsigned long long>(input.batch), i,
        model.library().recent_error());
    input.params = AippParams(&api, created);
    inputs->push_back(std::move(input));
  }
  return Error::Ok;
}

Error check_aipp_params(const DynamicAippInput& input, const Tensor& params,
                        size_t arg, size_t frame_bytes) {
  const size_t rows = static_cast<size_t>(input.batch) + 1;
  ASCEND_CHECK_OR_RETURN_ERROR(
      params.scalar_type() == ScalarType::Float && params.dim() == 2 &&
          static_cast<size_t>(params.size(0)) == rows &&
          static_cast<size_t>(params.size(1)) == kAippParamsWidth,
      InvalidArgument,
      "input %zu is the dynamic AIPP parameters of input %zu: a float32 "
      "[%zu, %zu] tensor (executorch_ascend.DynamicAippParams), got dtype %d "
      "with %d dims",
      arg, input.frame, rows, kAippParamsWidth,
      static_cast<int>(params.scalar_type()), static_cast<int>(params.dim()));
  const auto dim_order = params.dim_order();
  ASCEND_CHECK_OR_RETURN_ERROR(
      params.const_data_ptr() != nullptr &&
          (dim_order.data() == nullptr ||
           executorch::runtime::is_contiguous_dim_order(dim_order.data(),
                                                        dim_order.size())),
      InvalidArgument,
      "the dynamic AIPP parameters (input %zu) are not a contiguous tensor",
      arg);
  const float* v = params.const_data_ptr<float>();
  for (size_t r = 0; r < rows; ++r) {
    const bool head = r == 0;
    const size_t used =
        head ? static_cast<size_t>(kHeadUsed) : static_cast<size_t>(kImageUsed);
    for (size_t c = 0; c < kAippParamsWidth; ++c) {
      const float x = v[r * kAippParamsWidth + c];
      const char* name = c < used ? (head ? kHeadNames[c] : kImageNames[c])
                                  : "a reserved column";
      ASCEND_CHECK_OR_RETURN_ERROR(
          std::isfinite(x), InvalidArgument,
          "dynamic AIPP parameters (input %zu), row %zu: %s is not a finite "
          "number",
          arg, r, name);
      if (c >= used) {
        ASCEND_CHECK_OR_RETURN_ERROR(
            x == 0.0f, InvalidArgument,
            "dynamic AIPP parameters (input %zu), row %zu, column %zu: a "
            "reserved column must be 0",
            arg, r, c);
        continue;
      }
      const bool is_float = !head && c >= kMin && c < kImageUsed;
      if (is_float) continue;
      const IntRange range = head ? HeadRange(c) : ImageRange(c);
      ASCEND_CHECK_OR_RETURN_ERROR(
          x == std::floor(x) && x >= range.lo && x <= range.hi, InvalidArgument,
          "dynamic AIPP parameters (input %zu), row %zu: %s = %g is not an "
          "integer in [%.0f, %.0f]",
          arg, r, name, static_cast<double>(x), range.lo, range.hi);
    }
  }
  if (frame_bytes != SIZE_MAX) {
    const uint64_t w = v[kSrcW] > 0 ? static_cast<uint64_t>(v[kSrcW]) : 0;
    const uint64_t h = v[kSrcH] > 0 ? static_cast<uint64_t>(v[kSrcH]) : 0;
    const uint64_t need =
        input.batch * ImageBytes(static_cast<int64_t>(v[kFormat]), h, w);
    ASCEND_CHECK_OR_RETURN_ERROR(
        need <= frame_bytes, InvalidArgument,
        "the dynamic AIPP parameters (input %zu) describe %llu image(s) of "
        "%llux%llu (%llu bytes), but the frame (input %zu) holds %zu bytes",
        arg, static_cast<unsigned long long>(input.batch),
        static_cast<unsigned long long>(h), static_cast<unsigned long long>(w),
        static_cast<unsigned long long>(need), input.frame, frame_bytes);
  }
  return Error::Ok;
}

Error apply_aipp_params(const AclModel& model, DynamicAippInput& input,
                        aclmdlDataset* dataset, const Tensor& params) {
  const AclApi& api = model.api();
  aclmdlAIPP* a = input.params.get();
  const float* v = params.const_data_ptr<float>();
  auto i8 = [](float x) { return static_cast<int8_t>(x); };
  auto i16 = [](float x) { return static_cast<int16_t>(x); };
  auto u8 = [](float x) { return static_cast<uint8_t>(x); };
  auto i32 = [](float x) { return static_cast<int32_t>(x); };
  aclError error = api.aclmdlSetAIPPInputFormat(
      a, static_cast<aclAippInputFormat>(i32(v[kFormat])));
  if (error != ACL_SUCCESS)
    return Refused(model, "aclmdlSetAIPPInputFormat", input.data, error);
  error = api.aclmdlSetAIPPSrcImageSize(a, i32(v[kSrcW]), i32(v[kSrcH]));
  if (error != ACL_SUCCESS)
    return Refused(model, "aclmdlSetAIPPSrcImageSize", input.data, error);
  const float* m = v + kMatrix;
  error = api.aclmdlSetAIPPCscParams(
      a, i8(v[kCsc]), i16(m[0]), i16(m[1]), i16(m[2]), i16(m[3]), i16(m[4]),
      i16(m[5]), i16(m[6]), i16(m[7]), i16(m[8]), u8(v[kOutputBias]),
      u8(v[kOutputBias + 1]), u8(v[kOutputBias + 2]), u8(v[kInputBias]),
      u8(v[kInputBias + 1]), u8(v[kInputBias + 2]));
  if (error != ACL_SUCCESS)
    return Refused(model, "aclmdlSetAIPPCscParams", input.data, error);
  error = api.aclmdlSetAIPPRbuvSwapSwitch(a, i8(v[kRbuvSwap]));
  if (error != ACL_SUCCESS)
    return Refused(model, "aclmdlSetAIPPRbuvSwapSwitch", input.data, error);
  for (uint64_t n = 0; n < input.batch; ++n) {
    const float* r = v + (n + 1) * kAippParamsWidth;
    error = api.aclmdlSetAIPPCropParams(a, i8(r[kCrop]), i32(r[kCropX]),
                                        i32(r[kCropY]), i32(r[kCropW]),
                                        i32(r[kCropH]), n);
    if (error != ACL_SUCCESS)
      return Refused(model, "aclmdlSetAIPPCropParams", input.data, error);
    error = api.aclmdlSetAIPPPaddingParams(
        a, i8(r[kPadding]), i32(r[kPadTop]), i32(r[kPadTop + 1]),
        i32(r[kPadTop + 2]), i32(r[kPadTop + 3]), n);
    if (error != ACL_SUCCESS)
      return Refused(model, "aclmdlSetAIPPPaddingParams", input.data, error);
    error =
        api.aclmdlSetAIPPDtcPixelMean(a, i16(r[kMean]), i16(r[kMean + 1]),
                                      i16(r[kMean + 2]), i16(r[kMean + 3]), n);
    if (error != ACL_SUCCESS)
      return Refused(model, "aclmdlSetAIPPDtcPixelMean", input.data, error);
    error = api.aclmdlSetAIPPDtcPixelMin(a, r[kMin], r[kMin + 1], r[kMin + 2],
                                         r[kMin + 3], n);
    if (error != ACL_SUCCESS)
      return Refused(model, "aclmdlSetAIPPDtcPixelMin", input.data, error);
    error = api.aclmdlSetAIPPPixelVarReci(a, r[kVarReci], r[kVarReci + 1],
                                          r[kVarReci + 2], r[kVarReci + 3], n);
    if (error != ACL_SUCCESS)
      return Refused(model, "aclmdlSetAIPPPixelVarReci", input.data, error);
  }
  error = api.aclmdlSetInputAIPP(model.model_id(), dataset, input.data, a);
  if (error != ACL_SUCCESS)
    return Refused(model, "aclmdlSetInputAIPP", input.data, error);
  return Error::Ok;
}

}  // namespace executorch::backends::ascend
