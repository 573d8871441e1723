// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// aclmdlSetInputAIPP's checks of a dynamic AIPP parameter set against the
// emulated chip (aipp_param_check.h).
#include "aipp_param_check.h"

#include <algorithm>
#include <cstdint>
#include <string>

#include "ascend_emu/aipp_params.h"
#include "ascend_emu/soc_versions.h"
#include "errors.h"

namespace ascend_emu::acl {
namespace {

namespace aipp = ascend_emu::aipp;

// The widest AIPP output after padding on the chips that check it
// (aipp_param_check.cpp GetAippOutputHW).
constexpr int32_t kPaddedWidthMax = 1080;

}  // namespace

// The NpuArch of the emulated SoC's family (hicann/runtime's platform
// configs, src/platform/platform_config/*/<SoC>.ini, key NpuArch): dynamic
// AIPP runs on 1001, 2002, 2201, 3002 and 3510; all but 3002 limit the
// padded width (aipp_param_check.cpp).
ArchRules RulesFor(const std::string& soc_name) {
  const std::string family = ascend_emu::SocFamily(soc_name);
  if (family == "Ascend310B") return {true, false};  // 3002
  if (family == "Ascend910" || family == "Ascend310P" ||
      family == "Ascend910B" || family == "Ascend910_93" ||
      family == "Ascend350" || family == "Ascend950")
    return {true, true};  // 1001, 2002, 2201, 3510
  return {};
}

// One image's AIPP output H and W (GetAippOutputHW: crop, else the image;
// a resize's output size wins; then the padding).
aclError OutputHW(const aclmdlAIPP& a, uint64_t n, const ArchRules& rules,
                  int64_t* w, int64_t* h) {
  const uint8_t* head = a.bytes.data();
  const uint8_t* rec =
      head + aipp::kHeadBytes + aipp::kImageBytes * static_cast<size_t>(n);
  if (aipp::Read<int8_t>(rec, aipp::kScfSwitch) == 1) {
    *w = aipp::Read<int32_t>(rec, aipp::kScfSizes + 8);
    *h = aipp::Read<int32_t>(rec, aipp::kScfSizes + 12);
  } else if (aipp::Read<int8_t>(rec, aipp::kCropSwitch) == 1) {
    *w = aipp::Read<int32_t>(rec, aipp::kCropW);
    *h = aipp::Read<int32_t>(rec, aipp::kCropH);
  } else {
    *w = aipp::Read<int32_t>(head, aipp::kSrcW);
    *h = aipp::Read<int32_t>(head, aipp::kSrcH);
  }
  if (aipp::Read<int8_t>(rec, aipp::kPaddingSwitch) == 1) {
    *w += int64_t{aipp::Read<int32_t>(rec, aipp::kPadding + 8)} +
          aipp::Read<int32_t>(rec, aipp::kPadding + 12);
    *h += int64_t{aipp::Read<int32_t>(rec, aipp::kPadding)} +
          aipp::Read<int32_t>(rec, aipp::kPadding + 4);
    if (rules.padded_width_limit && *w > kPaddedWidthMax) {
      return Fail(ACL_ERROR_INVALID_PARAM,
                  "after padding, aipp output W[%lld] should be less than or "
                  "equal to 1080 for this chip",
                  static_cast<long long>(*w));
    }
  }
  return ACL_SUCCESS;
}

// The bytes the images take in the frame (GetSrcImageSize), 0 for a format
// it does not size.
uint64_t SrcImageBytes(const aclmdlAIPP& a) {
  const uint8_t* head = a.bytes.data();
  const uint64_t w = static_cast<uint64_t>(
      std::max<int32_t>(0, aipp::Read<int32_t>(head, aipp::kSrcW)));
  const uint64_t h = static_cast<uint64_t>(
      std::max<int32_t>(0, aipp::Read<int32_t>(head, aipp::kSrcH)));
  uint64_t per_pixel_x2 = 0;  // bytes per pixel, times 2
  switch (aipp::Read<uint8_t>(head, aipp::kInputFormat)) {
    case 1:
      per_pixel_x2 = 3;
      break;  // YUV420SP_U8
    case 2:
    case 6:
    case 9:
      per_pixel_x2 = 8;
      break;  // 4 channels
    case 5:
      per_pixel_x2 = 6;
      break;  // RGB888_U8
    case 10:
      per_pixel_x2 = 2;
      break;  // YUV400_U8
    case 7:
    case 8:
    case 11:
    case 12:
    case 13:
      per_pixel_x2 = 4;
      break;
    case 16:
      per_pixel_x2 = 8;
      break;  // RAW24
    default:
      return 0;
  }
  return a.batch_size * (per_pixel_x2 * h * w / 2);
}

// AippParamsCheck (aipp_param_check.cpp), in its order.
aclError CheckParams(const aclmdlAIPP& a, const ArchRules& rules) {
  const uint8_t* head = a.bytes.data();
  const uint8_t format = aipp::Read<uint8_t>(head, aipp::kInputFormat);
  if (format < 1) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "inputFormat must be set, cceInputFormat = %d", format);
  }
  if (!rules.dynamic_aipp) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "dynamic aipp not support arch (the emulated SoC's family)");
  }
  if (format != aipp::kCceYuv420sp && format != aipp::kCceXrgb8888 &&
      format != aipp::kCceRgb888 && format != aipp::kCceYuv400) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "arch only support YUV420SP_U8, XRGB8888_U8, RGB888_U8, "
                "YUV400_U8, cceInputFormat = %d",
                format);
  }
  if (format == aipp::kCceYuv400 &&
      aipp::Read<int8_t>(head, aipp::kCscSwitch) == 1) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "YUV400 or raw not support csc switch!");
  }
  const int32_t w = aipp::Read<int32_t>(head, aipp::kSrcW);
  const int32_t h = aipp::Read<int32_t>(head, aipp::kSrcH);
  if (w == 0 || h == 0) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "srcImageSizeW and srcImageSizeH must be setted!");
  }
  if (format == aipp::kCceYuv420sp && (w % 2 != 0 || h % 2 != 0)) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "srcImageSizeH[%d] and srcImageSizeW[%d] must be even for "
                "YUV420SP_U8!",
                h, w);
  }
  int64_t first_w = 0, first_h = 0;
  if (aclError rc = OutputHW(a, 0, rules, &first_w, &first_h)) return rc;
  for (uint64_t n = 0; n < a.batch_size; ++n) {
    const uint8_t* rec =
        head + aipp::kHeadBytes + aipp::kImageBytes * static_cast<size_t>(n);
    if (aipp::Read<int8_t>(rec, aipp::kScfSwitch) == 1) {
      return Fail(ACL_ERROR_INVALID_PARAM, "Not support scf!");
    }
    if (aipp::Read<int8_t>(rec, aipp::kCropSwitch) == 1) {
      const int32_t x = aipp::Read<int32_t>(rec, aipp::kCropStartW);
      const int32_t y = aipp::Read<int32_t>(rec, aipp::kCropStartH);
      const int32_t cw = aipp::Read<int32_t>(rec, aipp::kCropW);
      const int32_t ch = aipp::Read<int32_t>(rec, aipp::kCropH);
      if (int64_t{x} + cw > w) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "the sum of cropStartPosW[%d] and cropSizeW[%d] cannot be "
                    "larger than srcImageSizeW[%d] (image %llu)",
                    x, cw, w, static_cast<unsigned long long>(n));
      }
      if (int64_t{y} + ch > h) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "the sum of cropStartPosH[%d] and cropSizeH[%d] cannot be "
                    "larger than srcImageSizeH[%d] (image %llu)",
                    y, ch, h, static_cast<unsigned long long>(n));
      }
      if (format == aipp::kCceYuv420sp && (x % 2 != 0 || y % 2 != 0)) {
        return Fail(ACL_ERROR_INVALID_PARAM,
                    "cropStartPosW[%d], cropStartPosH[%d] must be even for "
                    "YUV420SP_U8!",
                    x, y);
      }
    }
    int64_t ow = 0, oh = 0;
    if (aclError rc = OutputHW(a, n, rules, &ow, &oh)) return rc;
    if (ow != first_w || oh != first_h) {
      return Fail(ACL_ERROR_INVALID_PARAM,
                  "the %llu batch output size must be equal to the first "
                  "batch aipp output size! aippBatchOutputW = %lld, "
                  "aippBatchOutputH = %lld, aippFirstOutputW = %lld, "
                  "aippFirstOutputH = %lld.",
                  static_cast<unsigned long long>(n + 1),
                  static_cast<long long>(ow), static_cast<long long>(oh),
                  static_cast<long long>(first_w),
                  static_cast<long long>(first_h));
    }
  }
  return ACL_SUCCESS;
}

}  // namespace ascend_emu::acl
